// NEEDS-FP64
// A double scalar argument next to 64-bit and 8-bit ones (argument packing with 8-byte alignment).
// DEVICES: skl pvc
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
// CASE scalar_args_fp64: --kernel take_double --global 32 --local 8 --arg 0=zero:256 --arg 1=u8:7 --arg 2=f64:-1.0625 --arg 3=i64:-3 --arg 4=f32:0.5 --out 0

__kernel void take_double(__global double* out, uchar k, double d, long l, float f)
{
    int g = get_global_id(0);
    out[g] = d * (double)(g + k) + (double)l - (double)f;
}
