// 64-bit integers: long/ulong multiply (low and high), 64-bit shifts, ulong wrap-around,
// long compares and conversions to and from 32-bit.
// CASE types_long: --kernel mix64 --global 300 --local 60 --arg 0=@i64a --arg 1=@u64a --arg 2=zero:2400 --arg 3=zero:2400 --out 2 --out 3
// DATA i64a: i64 300 rand 41 -4000000000 4000000000
// DATA u64a: u64 300 rand 42 0 0xffffffffffffffff

__kernel void mix64(__global const long* a, __global const ulong* b,
                    __global long* outl, __global ulong* outu)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    ulong m = y * 0x9E3779B97F4A7C15UL + (ulong)x;     // wraps
    m ^= m >> 29;
    m += mul_hi(y, 0xBF58476D1CE4E5B9UL);
    outu[i] = m << (y & 63);
    long p = x * (long)(int)(y & 0xffff);               // |p| < 2^49
    p -= (long)(uint)(y >> 40);
    long q = (x < 0) ? (p >> 7) : (long)((ulong)p >> 3);
    outl[i] = q + (long)(int)x;
}
