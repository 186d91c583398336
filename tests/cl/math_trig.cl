// sin, cos, tan and sincos on float, with arguments in [-pi, pi] and a few larger ones.
// CASE math_trig: --kernel trig --global 200 --local 40 --arg 0=@mt --arg 1=zero:4000 --out 1
// EXPECT-TOLERANCE: ulp:5 — OpenCL C spec table of ULP values: sin, cos, sincos <= 4 ulp, tan <= 5 ulp
// DATA mt: f32 200 frand 361 -3.14159 3.14159

__kernel void trig(__global const float* x, __global float* out)
{
    int i = get_global_id(0);
    float v = x[i];
    float c;
    float s = sincos(v * 7.0f, &c);
    out[5 * i] = sin(v);
    out[5 * i + 1] = cos(v);
    out[5 * i + 2] = tan(v * 0.4f);
    out[5 * i + 3] = s;
    out[5 * i + 4] = c;
}
