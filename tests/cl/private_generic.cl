// Private memory reached through a generic pointer (OpenCL C 2.0) and a non-inlined helper: IGC
// puts the array in its per-thread private memory, whose block Gen9/Gen12LP code finds from
// %hw_id and Xe-HPG/Xe-HPC code from %sr0 (spec-decisions K7); every hardware thread of a group
// keeps its own block across the barrier. pocl has no generic address space: a model.
// CASE private_generic: --kernel private_generic --global 512 --local 128 --build-options "-cl-std=CL2.0" --arg 0=@privgen --arg 1=zero:2048 --out 1
// EXPECT: model private_generic
// DATA privgen: i32 512 rand 733 0 1000

int __attribute__((noinline)) weighted_sum(int* p, int n)
{
    int s = 0;
    for (int k = 0; k < n; ++k) s += p[k] * (k + 1);
    return s;
}

__kernel void private_generic(__global const int* data, __global int* out)
{
    __local int lbuf[128];
    int l = get_local_id(0), g = get_global_id(0);
    int priv[4] = { data[g], data[g] + 1, g, 7 * g };
    lbuf[l] = data[g] * 2;
    int* p;
    if (data[g] > 900) p = &lbuf[l & ~3]; else p = priv;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = weighted_sum(p, 4);
}
