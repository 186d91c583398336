// Bitonic sort of 256-element blocks in __local memory (each work-item handles two keys), with
// a barrier per compare-exchange stage: the textbook GPU local sort on uint keys.
// CASE bitonic_local: --kernel bitonic256 --global 512 --local 128 --arg 0=@bk --out 0
// DATA bk: u32 1024 rand 221 0 0xffffffff

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void bitonic256(__global uint* keys)
{
    __local uint s[256];
    uint lid = get_local_id(0);
    __global uint* blk = keys + get_group_id(0) * 256;
    s[lid] = blk[lid];
    s[lid + 128] = blk[lid + 128];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= 256; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            uint pos = 2 * lid - (lid & (stride - 1));
            bool up = ((pos & size) == 0);
            uint a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    blk[lid] = s[lid];
    blk[lid + 128] = s[lid + 128];
}
