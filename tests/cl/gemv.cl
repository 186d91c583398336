// ALSO-4GB
// Dense matrix-vector product y = A*x + beta*y: one row per work-item (row-major, 64 columns), and a
// work-group-per-row version with a __local reduction (group size 32); FP_CONTRACT off and a fixed
// summation order make both exact and reproducible.
#pragma OPENCL FP_CONTRACT OFF
// CASE gemv_row: --kernel gemv_row --global 96 --local 32 --arg 0=@gA --arg 1=@gx --arg 2=@gy --arg 3=i32:64 --arg 4=f32:0.5 --out 2
// CASE gemv_group: --kernel gemv_group --global 3072 --local 32 --arg 0=@gA --arg 1=@gx --arg 2=@gy --arg 3=i32:64 --arg 4=f32:0.5 --out 2
// DATA gA: f32 6144 frand 331 -1.0 1.0
// DATA gx: f32 64 frand 332 -2.0 2.0
// DATA gy: f32 96 frand 333 -1.0 1.0

__kernel void gemv_row(__global const float* A, __global const float* x, __global float* y, int n, float beta)
{
    int r = get_global_id(0);
    __global const float* row = A + (size_t)r * n;
    float acc = 0.0f;
    for (int c = 0; c < n; ++c)
        acc = acc + row[c] * x[c];
    y[r] = acc + beta * y[r];
}

__kernel void gemv_group(__global const float* A, __global const float* x, __global float* y, int n, float beta)
{
    __local float part[32];
    int r = get_group_id(0), l = get_local_id(0);
    float acc = 0.0f;
    for (int c = l; c < n; c += 32)
        acc = acc + A[(size_t)r * n + c] * x[c];
    part[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 16; s > 0; s >>= 1) {
        if (l < s)
            part[l] = part[l] + part[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        y[r] = part[0] + beta * y[r];
}
