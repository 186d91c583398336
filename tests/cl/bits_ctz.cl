// ctz (count trailing zeros, an OpenCL C 2.0 built-in, hence -cl-std=CL2.0) on 8..64-bit types.
// CASE bits_ctz: --kernel ctzops --global 500 --build-options "-cl-std=CL2.0" --arg 0=@bwc --arg 1=zero:4000 --out 1
// DATA bwc: u64 500 rand 101 0 0xffffffffffffffff

__kernel void ctzops(__global const ulong* w, __global uint* out)
{
    int i = get_global_id(0);
    ulong x = w[i] << (i & 63);
    out[2 * i] = (uint)ctz(x) | ((uint)ctz((uint)(x >> 32)) << 8);
    out[2 * i + 1] = (uint)ctz((ushort)x) | ((uint)ctz((uchar)(x >> 8)) << 8);
}
