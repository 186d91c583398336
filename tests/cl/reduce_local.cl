// Work-group sum reduction in __local memory with barriers: each group folds its slice to one
// value. Works for any local size (the tree starts at the next power of two and guards the
// upper half), shown with a power of two, a size that is not a multiple of 8, and a local
// buffer passed as a kernel argument.
// CASE reduce_local_64: --kernel reduce_sum --global 1024 --local 64 --arg 0=@rv --arg 1=zero:64 --arg 2=local:256 --out 1
// CASE reduce_local_20: --kernel reduce_sum --global 1000 --local 20 --arg 0=@rv --arg 1=zero:200 --arg 2=local:80 --out 1
// CASE reduce_local_max: --kernel reduce_max_static --global 768 --local 128 --arg 0=@rv --arg 1=zero:48 --out 1
// DATA rv: i32 1024 rand 191 -100000 100000

__kernel void reduce_sum(__global const int* in, __global int* partial, __local int* scratch)
{
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint p = 1;
    while (p < n) p <<= 1;
    for (uint s = p >> 1; s > 0; s >>= 1) {
        if (lid < s && lid + s < n)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void reduce_max_static(__global const int* in, __global int* out)
{
    __local int tile[128];
    uint lid = get_local_id(0);
    tile[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 64; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] = max(tile[lid], tile[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[2 * get_group_id(0)] = tile[0];
        out[2 * get_group_id(0) + 1] = (int)get_num_groups(0);
    }
}
