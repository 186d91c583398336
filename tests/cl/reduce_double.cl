// NEEDS-FP64
// ALSO-4GB
// A double-precision dot product: per-item products, a __local tree reduction per group of 64, and a
// second pass over the partial sums; fixed order and FP_CONTRACT off make the result exact.
// DEVICES: skl pvc
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
// CASE reduce_double: --kernel dot_partial --global 1024 --local 64 --arg 0=@rdx --arg 1=@rdy --arg 2=zero:128 --out 2
// DATA rdx: f64 1024 frand 491 -1.0 1.0
// DATA rdy: f64 1024 frand 492 -1.0 1.0

__kernel void dot_partial(__global const double* x, __global const double* y, __global double* partial)
{
    __local double s[64];
    uint lid = get_local_id(0);
    s[lid] = x[get_global_id(0)] * y[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 32; k > 0; k >>= 1) {
        if (lid < k)
            s[lid] = s[lid] + s[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = s[0];
}
