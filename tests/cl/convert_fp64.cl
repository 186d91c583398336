// NEEDS-FP64
// double conversions: double -> float with rounding modes, double -> int/long with rounding
// and saturation, long -> double (inexact), float -> double.
// DEVICES: skl pvc
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CASE convert_fp64: --kernel convd --global 128 --local 32 --arg 0=@cd --arg 1=@cl --arg 2=zero:8192 --out 2
// DATA cd: f64 128 frand 421 -1.0e12 1.0e12
// DATA cl: i64 128 rand 422 -9223372036854775807 9223372036854775807

__kernel void convd(__global const double* d, __global const long* l, __global long* out)
{
    int i = get_global_id(0);
    double v = d[i];
    long L = l[i];
    __global long* o = out + 8 * i;
    o[0] = as_long((ulong)as_uint(convert_float_rte(v)) | ((ulong)as_uint(convert_float_rtz(v)) << 32));
    o[1] = as_long((ulong)as_uint(convert_float_rtp(v * 1e-9)) | ((ulong)as_uint(convert_float_rtn(v * 1e-9)) << 32));
    o[2] = convert_long_rte(v / 3.0) ^ convert_long_rtz(v / 3.0);
    o[3] = (long)convert_int_sat(v) + (long)convert_uint_sat_rtp(v * 1e-3);
    o[4] = as_long(convert_double(L));
    o[5] = as_long(convert_double_rtz(L)) ^ as_long(convert_double_rtp((ulong)L));
    o[6] = as_long((double)convert_float(v));
    o[7] = convert_long_sat(v * 1e8);
}
