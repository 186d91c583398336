// ALSO-4GB
// 64-bit pointer arithmetic: a gather through ulong indices, pointers offset by long values,
// a pointer selected per work-item between two buffers (so no single binding table slot fits),
// and a byte pointer walked with size_t strides. With -cl-intel-greater-than-4GB-buffer-required
// every access must be stateless (A64).
// CASE stateless_gather: --kernel gather64 --global 500 --local 100 --arg 0=@gsrc --arg 1=@gidx --arg 2=zero:2000 --arg 3=i64:-3 --out 2
// CASE stateless_select: --kernel pick_buffer --global 256 --arg 0=@gsrc --arg 1=@gsrc2 --arg 2=zero:2048 --out 2
// DATA gsrc: i32 1000 iota 7 3
// DATA gsrc2: i32 1000 rand 341 -50 50
// DATA gidx: u64 500 rand 342 3 999

__kernel void gather64(__global const int* src, __global const ulong* idx, __global int* dst, long bias)
{
    size_t i = get_global_id(0);
    ulong k = idx[i];
    __global const int* p = src + k;
    dst[i] = p[bias] + *(src + (long)(k >> 1));
}

__kernel void pick_buffer(__global const int* a, __global const int* b, __global long* out)
{
    size_t i = get_global_id(0);
    __global const int* p = (i & 1) ? a : b;
    __global const uchar* bytes = (__global const uchar*)p;
    size_t off = (size_t)(i * 7 % 1000) * sizeof(int);
    int v = *(__global const int*)(bytes + off);
    out[i] = (long)v * (long)(i + 1) - (long)(size_t)(p == a);
}
