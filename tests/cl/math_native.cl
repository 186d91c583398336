// native_* variants: native_sin, native_cos, native_exp, native_log, native_sqrt, native_recip,
// native_divide, native_powr, on arguments where the results are far from zero.
// CASE math_native: --kernel nat --global 256 --local 64 --arg 0=@nx --arg 1=zero:8192 --out 1
// EXPECT-TOLERANCE: ulp:8192 — OpenCL C spec: the accuracy of native_* functions is implementation-defined; the bound only catches gross errors
// DATA nx: f32 256 frand 391 0.2 1.3

__kernel void nat(__global const float* x, __global float* out)
{
    int i = get_global_id(0);
    float v = x[i];
    out[8 * i] = native_sin(v);
    out[8 * i + 1] = native_cos(v);
    out[8 * i + 2] = native_exp(v);
    out[8 * i + 3] = native_log(v + 1.0f);
    out[8 * i + 4] = native_sqrt(v);
    out[8 * i + 5] = native_recip(v);
    out[8 * i + 6] = native_divide(v, 3.0f);
    out[8 * i + 7] = native_powr(v, 1.5f);
}
