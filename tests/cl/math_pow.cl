// pow, powr and pown on float (positive bases; pown with small integer exponents).
// CASE math_pow: --kernel powk --global 128 --local 32 --arg 0=@pb --arg 1=@pe --arg 2=zero:1536 --out 2
// EXPECT-TOLERANCE: ulp:16 — OpenCL C spec table of ULP values: pow, pown, powr <= 16 ulp
// DATA pb: f32 128 frand 371 0.1 4.0
// DATA pe: f32 128 frand 372 -3.0 3.0

__kernel void powk(__global const float* b, __global const float* e, __global float* out)
{
    int i = get_global_id(0);
    out[3 * i] = pow(b[i], e[i]);
    out[3 * i + 1] = powr(b[i], e[i] * 0.5f);
    out[3 * i + 2] = pown(b[i], (i % 7) - 3);
}
