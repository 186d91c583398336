// convert_* with rounding modes and saturation: float -> int/uint/char/uchar/short (_rte, _rtz,
// _rtp, _rtn, _sat), int/uint/long -> float with rounding modes (values that are not exactly
// representable), and as_type reinterpretation.
// CASE convert: --kernel conv --global 256 --local 64 --arg 0=@cf --arg 1=@ci --arg 2=zero:16384 --out 2
// DATA cf: f32 256 frand 411 -3000000000.0 3000000000.0
// DATA ci: i64 256 rand 412 -9223372036854775807 9223372036854775807

__kernel void conv(__global const float* f, __global const long* l, __global int* out)
{
    int i = get_global_id(0);
    float v = f[i];
    float s = floor(v * (1.0f / 8388608.0f)) * 0.5f;   // multiples of 0.5 in [-179, 179]: ties for rte
    long L = l[i];
    __global int* o = out + 16 * i;
    o[0] = convert_int_sat(v);
    o[1] = (int)convert_uint_sat_rtp(v);
    o[2] = convert_int_rte(s);
    o[3] = convert_int_rtz(s);
    o[4] = convert_int_rtp(s);
    o[5] = convert_int_rtn(s);
    o[6] = as_int((uint)(uchar)convert_char_sat_rte(s * 1.5f) | ((uint)convert_uchar_sat(s * 1.5f) << 8)
                  | ((uint)(ushort)convert_short_sat_rtz(v) << 16));
    o[7] = as_int(convert_float_rte((int)L));
    o[8] = as_int(convert_float_rtz((int)L));
    o[9] = as_int(convert_float_rtp((uint)(L >> 32)));
    o[10] = as_int(convert_float_rtn((uint)(L >> 32)));
    o[11] = as_int(convert_float(L));
    o[12] = as_int(convert_float_rtz(L)) ^ as_int(convert_float_rtp((ulong)L));
    o[13] = (int)convert_long_sat(v * 1e10f);
    o[14] = convert_int_sat((long)L) ^ (int)convert_ushort_sat(L);
    o[15] = (int)(convert_ulong_sat_rtn(v) >> 8);
}
