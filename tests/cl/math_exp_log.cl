// exp, exp2, log, log2, log10 on float.
// CASE math_exp_log: --kernel explog --global 256 --local 64 --arg 0=@mx --arg 1=zero:5120 --out 1
// EXPECT-TOLERANCE: ulp:3 — OpenCL C spec table of ULP values: exp, exp2, log, log2, log10 <= 3 ulp (full profile)
// DATA mx: f32 256 frand 351 0.01 20.0

__kernel void explog(__global const float* x, __global float* out)
{
    int i = get_global_id(0);
    float v = x[i];
    out[5 * i] = exp(v - 10.0f);
    out[5 * i + 1] = exp2(v);
    out[5 * i + 2] = log(v);
    out[5 * i + 3] = log2(v * 3.0f);
    out[5 * i + 4] = log10(v + 1.0f);
}
