// Sub-group scans and votes (sub_group_scan_inclusive_add / _exclusive_add / _inclusive_max,
// sub_group_any, sub_group_all) on partial sub-groups, and Intel block reads/writes
// (intel_sub_group_block_read/_read2/_write) on full, 64-byte-aligned sub-groups; size 16.
// CASE subgroup_scan: --kernel sg_scan --global 80 --local 40 --arg 0=@sgc --arg 1=zero:1280 --out 1
// EXPECT: model subgroup_scan
// CASE subgroup_block: --kernel sg_block --global 256 --local 64 --arg 0=@sgb --arg 1=zero:3072 --out 1
// EXPECT: model subgroup_block
// DATA sgc: i32 80 rand 451 -1000 1000
// DATA sgb: u32 768 rand 452 0 0xffffffff

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_scan(__global const int* in, __global int* out)
{
    int gid = get_global_id(0);
    int x = in[gid];
    __global int* o = out + 4 * gid;
    o[0] = sub_group_scan_inclusive_add(x);
    o[1] = sub_group_scan_exclusive_add(x);
    o[2] = sub_group_scan_inclusive_max(x);
    o[3] = sub_group_any(x > 900) * 2 + sub_group_all(x > -990);
}

// Each sub-group of 16 handles 48 consecutive uints: a block read of 16 and a read2 of 32
// (lane l gets p[l] and p[l + 16]), combined, and written back with two block writes.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_block(__global const uint* in, __global uint* out)
{
    uint sg = get_global_id(0) / 16;                 // global sub-group number (groups are 64 wide)
    __global const uint* p = in + sg * 48;
    uint a = intel_sub_group_block_read(p);
    uint2 b = intel_sub_group_block_read2(p + 16);
    uint lane = get_sub_group_local_id();
    __global uint* q = out + sg * 48;
    intel_sub_group_block_write(q, b.x ^ a);
    intel_sub_group_block_write2(q + 16, (uint2)(a + lane, b.y * 3u));
}
