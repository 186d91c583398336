// Sub-group shuffles from cl_intel_subgroups at a required sub-group size of 16:
// intel_sub_group_shuffle, _shuffle_down, _shuffle_up, _shuffle_xor on full sub-groups, and a
// rotate-by-3 shuffle plus sub_group_broadcast of the last lane on partial sub-groups (group of 50:
// sub-groups of 16, 16, 16 and 2), where only lanes that exist are read.
// CASE subgroup_shuffle: --kernel shuf_full --global 128 --local 32 --arg 0=@sgs --arg 1=zero:2048 --out 1
// EXPECT: model subgroup_shuffle
// CASE subgroup_shuffle_partial: --kernel shuf_partial --global 100 --local 50 --arg 0=@sgs --arg 1=zero:800 --out 1
// EXPECT: model subgroup_shuffle_partial
// DATA sgs: u32 128 rand 441 0 0xffffffff

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void shuf_full(__global const uint* in, __global uint* out)
{
    int gid = get_global_id(0);
    uint lane = get_sub_group_local_id();
    uint x = in[gid];
    uint y = x * 2654435761u;
    __global uint* o = out + 4 * gid;
    o[0] = intel_sub_group_shuffle(x, 15 - lane);
    o[1] = intel_sub_group_shuffle_down(x, y, 3);
    o[2] = intel_sub_group_shuffle_up(y, x, 5);
    o[3] = intel_sub_group_shuffle_xor(x, 5) ^ intel_sub_group_shuffle(y, (lane * 7) & 15);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void shuf_partial(__global const uint* in, __global uint* out)
{
    int gid = get_global_id(0);
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    uint x = in[gid];
    out[2 * gid] = intel_sub_group_shuffle(x, (lane + 3) % n);
    out[2 * gid + 1] = sub_group_broadcast(x, n - 1) + lane;
}
