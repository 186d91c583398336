// 32-bit int and uint: mixed signed/unsigned arithmetic, shifts by run-time amounts (masked by
// OpenCL), comparisons between signed and unsigned, uint wrap-around.
// CASE types_int: --kernel mix32 --global 1000 --local 100 --arg 0=@i32a --arg 1=@u32a --arg 2=zero:4000 --arg 3=zero:4000 --out 2 --out 3
// DATA i32a: i32 1000 rand 31 -1000000 1000000
// DATA u32a: u32 1000 rand 32 0 0xffffffff

__kernel void mix32(__global const int* a, __global const uint* b,
                    __global int* outi, __global uint* outu)
{
    int i = get_global_id(0);
    int x = a[i];
    uint y = b[i];
    uint sh = y & 31u;
    uint h = y * 2654435761u + (uint)x;        // wraps (unsigned)
    h ^= h >> 16;
    h = (h << sh) | (h >> ((32u - sh) & 31u));
    outu[i] = h;
    int r = (x >> (int)(y & 7u)) - (x / 3) * 2;  // |x| <= 1e6: no overflow
    if ((uint)x > y) r += 11;                   // signed -> unsigned compare
    outi[i] = r ^ (int)(y >> 8);
}
