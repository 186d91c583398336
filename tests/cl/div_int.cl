// 32-bit integer division and remainder, signed and unsigned, by run-time divisors of both signs
// (never zero, never INT_MIN / -1), plus division by constants the compiler strength-reduces.
// CASE div_int: --kernel div32 --global 1024 --local 256 --arg 0=@dn --arg 1=@dd --arg 2=@un --arg 3=@ud --arg 4=zero:16384 --out 4
// DATA dn: i32 1024 rand 71 -2147483647 2147483647
// DATA dd: i32 1024 rand 72 -70000 70000
// DATA un: u32 1024 rand 73 0 0xffffffff
// DATA ud: u32 1024 rand 74 1 0xffffffff

__kernel void div32(__global const int* n, __global const int* d,
                    __global const uint* un, __global const uint* ud, __global int* out)
{
    int i = get_global_id(0);
    int a = n[i], b = d[i];
    if (b == 0) b = 1;                 // rand may give 0
    uint ua = un[i], ub = ud[i] >> (i & 15);
    if (ub == 0u) ub = 3u;
    __global int* o = out + 4 * i;
    o[0] = a / b;
    o[1] = a % b;
    o[2] = (int)(ua / ub) ^ (int)(ua % ub);
    o[3] = a / 7 + a % 10 + (int)(ua / 1000u) + (int)(ua % 24u);
}
