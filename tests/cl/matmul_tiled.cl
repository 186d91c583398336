// Tiled matrix multiply C = A * B with 8x8 (int) and 16x16 (float) tiles staged in __local memory:
// a 2-D NDRange, two barriers per tile step. Float sums run in the same order everywhere and
// FP_CONTRACT is off, so the float result is exact.
#pragma OPENCL FP_CONTRACT OFF
// CASE matmul_int: --kernel mm_int --global 32,24 --local 8,8 --arg 0=@ma --arg 1=@mb --arg 2=zero:3072 --arg 3=i32:40 --arg 4=i32:32 --out 2
// CASE matmul_float: --kernel mm_float --global 32,32 --local 16,16 --arg 0=@fma --arg 1=@fmb --arg 2=zero:4096 --arg 3=i32:48 --arg 4=i32:32 --out 2
// DATA ma: i32 960 rand 211 -50 50
// DATA mb: i32 1280 rand 212 -50 50
// DATA fma: f32 1536 frand 213 -1.0 1.0
// DATA fmb: f32 1536 frand 214 -1.0 1.0

// A is M x K (M = global rows), B is K x N, C is M x N; K a multiple of the tile.
__kernel void mm_int(__global const int* A, __global const int* B, __global int* C, int K, int N)
{
    __local int ta[8][8];
    __local int tb[8][8];
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    int acc = 0;
    for (int t = 0; t < K; t += 8) {
        ta[ly][lx] = A[row * K + t + lx];
        tb[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 8; ++k)
            acc += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}

__kernel void mm_float(__global const float* A, __global const float* B, __global float* C, int K, int N)
{
    __local float ta[16][16];
    __local float tb[16][17];                 // padded against bank conflicts
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < K; t += 16) {
        ta[ly][lx] = A[row * K + t + lx];
        tb[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; ++k)
            acc = acc + ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
