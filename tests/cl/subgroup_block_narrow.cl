// Intel block reads and writes of bytes and shorts (intel_sub_group_block_read_uc / _us and their
// writes) in sub-groups of 8: IGC moves a sub-group's 8 bytes with a 2-lane GATHER_SCALED into a
// byte variable (-Wraw-type, spec-decisions A27). pvc has no sub-groups of 8.
// DEVICES: skl tgllp dg2 acm-g10
// CASE subgroup_block_narrow: --kernel sg_block_narrow --global 128 --local 32 --arg 0=@sbn --arg 1=zero:512 --out 1
// EXPECT: model subgroup_block_narrow
// DATA sbn: u8 512 rand 531 0 255

// Sub-group s (8 consecutive work-items) owns bytes [32s, 32s + 32) of in and out: 8 bytes at 0,
// 8 shorts at 16 (block writes need 16-byte-aligned addresses: cl_intel_subgroups_short). Lane l
// writes its byte plus 3l and its short xor (l << 12 | 0x0f0f); bytes 8-15 are not written.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void sg_block_narrow(__global const uchar* in, __global uchar* out)
{
    uint sg = get_global_id(0) / 8;
    uint lane = get_sub_group_local_id();
    __global const uchar* p = in + sg * 32;
    __global uchar* q = out + sg * 32;
    uchar c = intel_sub_group_block_read_uc(p);
    ushort s = intel_sub_group_block_read_us((__global const ushort*)(p + 16));
    intel_sub_group_block_write_uc(q, (uchar)(c + 3 * lane));
    intel_sub_group_block_write_us((__global ushort*)(q + 16), (ushort)(s ^ (lane << 12 | 0x0f0f)));
}
