// sqrt, rsqrt, cbrt, hypot and a division on float: default (not correctly rounded) precision.
// CASE math_sqrt: --kernel roots --global 300 --local 60 --arg 0=@rq --arg 1=zero:6000 --out 1
// EXPECT-TOLERANCE: ulp:4 — OpenCL C spec table of ULP values: sqrt <= 3, rsqrt <= 2, cbrt <= 2, hypot <= 4, x / y <= 2.5 ulp
// CASE math_fast_relaxed: --kernel roots --global 300 --local 60 --build-options "-cl-fast-relaxed-math" --arg 0=@rq --arg 1=zero:6000 --out 1
// EXPECT-TOLERANCE: ulp:4 — the same table: -cl-fast-relaxed-math keeps these built-ins' bounds (IGC's cbrt becomes a POW of the signed value, spec-decisions A14)
// DATA rq: f32 300 frand 381 0.001 1000.0

__kernel void roots(__global const float* x, __global float* out)
{
    int i = get_global_id(0);
    float v = x[i];
    out[5 * i] = sqrt(v);
    out[5 * i + 1] = rsqrt(v);
    out[5 * i + 2] = cbrt(v - 500.0f);
    out[5 * i + 3] = hypot(v, 3.0f);
    out[5 * i + 4] = 7.0f / v;
}
