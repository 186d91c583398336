// float4 / float8 vector arithmetic with swizzles, vector select with an int4 mask, bitselect,
// isgreater/isless on vectors, and fmin/fmax/clamp on vectors; FP_CONTRACT off so results are exact.
#pragma OPENCL FP_CONTRACT OFF
// CASE vec_float4: --kernel vf4 --global 128 --local 64 --arg 0=@vfa --arg 1=@vfb --arg 2=zero:6144 --out 2
// DATA vfa: f32 512 frand 131 -10.0 10.0
// DATA vfb: f32 512 frand 132 -10.0 10.0

__kernel void vf4(__global const float4* a, __global const float4* b, __global float4* out)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float4 p = x * y.yxwz + (float4)(1.0f, -2.0f, 0.5f, 0.25f);
    int4 gt = isgreater(x, y);
    float4 sel = select(x, y, gt);
    float4 bs = bitselect(x, y, as_float4((uint4)(0xffff0000u, 0x0000ffffu, 0x80000000u, 0x7fffffffu)));
    float8 w = (float8)(p, sel);
    float4 c = clamp(w.lo - w.hi, -3.0f, 3.0f);
    out[3 * i] = p;
    out[3 * i + 1] = fmax(sel, c) - fmin(bs, x.zzxx);
    out[3 * i + 2] = (float4)(w.s7, w.s0 + w.s1, convert_float(isless(x.x, y.w)), bs.w);
}
