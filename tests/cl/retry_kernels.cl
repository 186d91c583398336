// Two kernels in one file, the first so large after unrolling that IGC for pvc compiles the
// program a second time (its "_1_" retry files); the retry writes a .cos for both kernels but
// code only for the first, and the second runs its first compile's code (spec-decisions CL27).
// CASE retry_unroll: --kernel unroll64 --global 256 --local 32 --arg 0=@rtk --arg 1=zero:1024 --out 1
// CASE retry_tiny: --kernel tiny --global 256 --local 32 --arg 0=@rtk --arg 1=zero:1024 --out 1
// DATA rtk: i32 4096 rand 611 -100000 100000

__kernel void unroll64(__global const int* in, __global int* out)
{
    int gid = get_global_id(0);
    int p[64];
#pragma unroll
    for (int i = 0; i < 64; i++) p[i] = in[(gid + i * 13) & 4095] * (i + 1);
    uint acc = 0;
#pragma unroll
    for (int i = 0; i < 64; i++) acc = acc * 31 + (p[i] ^ p[63 - i]) + (i & 1 ? -p[(i * 5) & 63] : p[(i * 7) & 63]);
    out[gid] = acc;
}

__kernel void tiny(__global const int* in, __global int* out)
{
    int gid = get_global_id(0);
    out[gid] = in[gid] + 1;
}
