// Inclusive prefix sum within a work-group (Hillis-Steele with a double buffer in __local memory),
// then a second kernel adds the scanned group totals: the usual two-pass GPU scan. The second
// case uses a group size that is not a multiple of 8.
// CASE scan_local_128: --kernel scan_group --global 512 --local 128 --arg 0=@sv --arg 1=zero:2048 --arg 2=zero:16 --out 1 --out 2
// CASE scan_local_100: --kernel scan_group --global 500 --local 100 --arg 0=@sv --arg 1=zero:2048 --arg 2=zero:20 --out 1 --out 2
// CASE scan_add_offsets: --kernel add_offsets --global 512 --local 128 --arg 0=@sv --arg 1=@soff --out 0
// DATA sv: u32 512 rand 201 0 1000
// DATA soff: u32 4 list 0 1000 2500 7

#define MAXG 128
__kernel void scan_group(__global const uint* in, __global uint* out, __global uint* totals)
{
    __local uint buf[2][MAXG];
    uint lid = get_local_id(0), n = get_local_size(0);
    uint gid = get_global_id(0);
    int cur = 0;
    buf[0][lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < n; d <<= 1) {
        uint v = buf[cur][lid];
        if (lid >= d)
            v += buf[cur][lid - d];
        buf[1 - cur][lid] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = buf[cur][lid];
    if (lid == n - 1)
        totals[get_group_id(0)] = buf[cur][lid];
}

__kernel void add_offsets(__global uint* data, __global const uint* offsets)
{
    data[get_global_id(0)] += offsets[get_group_id(0)];
}
