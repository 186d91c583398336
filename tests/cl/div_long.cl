// 64-bit division and remainder, signed and unsigned (long divisors of varying magnitude, so
// both the 32-bit-divisor and full 64-bit paths of a software divide are exercised).
// CASE div_long: --kernel div64 --global 256 --local 64 --arg 0=@ln --arg 1=@ld --arg 2=zero:8192 --out 2
// DATA ln: i64 256 rand 91 -9223372036854775807 9223372036854775807
// DATA ld: u64 256 rand 92 1 0xffffffffffffffff

__kernel void div64(__global const long* n, __global const ulong* d, __global long* out)
{
    int i = get_global_id(0);
    long a = n[i];
    ulong ud = d[i] >> (i % 61);       // divisors from 64 bits down to a few bits
    if (ud == 0) ud = 1;
    long sd = (long)(ud >> 1);
    if (sd == 0) sd = -3;
    if (i & 1) sd = -sd;
    __global long* o = out + 4 * i;
    o[0] = a / sd;
    o[1] = a % sd;
    o[2] = (long)((ulong)a / ud);
    o[3] = (long)((ulong)a % ud + (ulong)(a / 1000000007L));   // unsigned sum: wraps, no UB
}
