// 16-bit integers: short/ushort arithmetic, sign and zero extension, ushort wrap, arithmetic
// and logical right shifts, mixed compares.
// CASE types_short: --kernel mix16 --global 256 --local 64 --arg 0=@s16 --arg 1=@u16v --arg 2=zero:512 --arg 3=zero:2048 --out 2 --out 3
// DATA s16: i16 256 rand 21 -32768 32767
// DATA u16v: u16 256 rand 22 0 65535

__kernel void mix16(__global const short* a, __global const ushort* b,
                    __global ushort* outu, __global int* outi)
{
    size_t i = get_global_id(0);
    short x = a[i];
    ushort y = b[i];
    ushort w = (ushort)((ushort)x * (ushort)3 + y);   // computed in int, truncated: no UB
    w = (ushort)((w >> 5) | (w << 11));
    outu[i] = w;
    int t = (int)x * (int)(short)y;                   // |product| <= 2^30
    t = (t >> 4) + (x >> 2) - (int)(y >> 9);
    outi[i * 2] = t;
    outi[i * 2 + 1] = (x < (short)y) ? (int)y : -(int)x;
}
