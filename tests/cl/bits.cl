// Bit builtins on 8..64-bit types: clz, popcount, rotate (ctz, OpenCL C 2.0, is in bits_ctz.cl).
// CASE bits: --kernel bitops --global 500 --local 100 --arg 0=@bw --arg 1=zero:16000 --out 1
// DATA bw: u64 500 rand 101 0 0xffffffffffffffff

__kernel void bitops(__global const ulong* w, __global uint* out)
{
    int i = get_global_id(0);
    ulong x = w[i] >> (i & 63);
    uint lo = (uint)x;
    ushort h = (ushort)(x >> 7);
    uchar b = (uchar)(x >> 3);
    __global uint* o = out + 8 * i;
    o[0] = (uint)clz(x);
    o[1] = clz(lo);
    o[2] = (uint)clz(h) | ((uint)clz(b) << 16);
    o[3] = (uint)popcount(x) + ((uint)popcount(lo) << 8) + ((uint)popcount(h) << 16) + ((uint)popcount(b) << 24);
    o[4] = rotate(lo, (uint)i);
    o[5] = (uint)rotate(x, (ulong)(i * 3)) ^ (uint)(rotate(x, (ulong)i) >> 32);
    o[6] = (uint)rotate(h, (ushort)(i & 31)) | ((uint)rotate(b, (uchar)i) << 16);
    o[7] = (uint)clz((int)lo) + (uint)clz((char)b);
}
