// 8- and 16-bit division and remainder (char, uchar, short, ushort), where the operands are
// promoted to int: signed results truncate toward zero, remainders keep the dividend's sign.
// CASE div_small: --kernel div816 --global 300 --local 50 --arg 0=@c8n --arg 1=@c8d --arg 2=@s16n --arg 3=@s16d --arg 4=zero:300 --arg 5=zero:300 --arg 6=zero:1200 --out 4 --out 5 --out 6
// DATA c8n: i8 300 rand 81 -128 127
// DATA c8d: i8 300 rand 82 -128 127
// DATA s16n: i16 300 rand 83 -32768 32767
// DATA s16d: i16 300 rand 84 -300 300

__kernel void div816(__global const char* cn, __global const char* cd,
                     __global const short* sn, __global const short* sd,
                     __global char* oc, __global uchar* ouc, __global short* os)
{
    int i = get_global_id(0);
    char a = cn[i], b = cd[i];
    if (b == 0) b = 5;
    char q = (char)(a / b);            // -128 / -1 = 128 in int, truncated to char: defined
    char r = (char)(a % b);
    oc[i] = (char)(q ^ r);
    uchar ua = (uchar)a, ub = (uchar)b;
    ouc[i] = (uchar)(ua / ub + ua % ub * 2);
    short x = sn[i], y = sd[i];
    if (y == 0) y = -1;
    os[2 * i] = (short)(x / y);
    os[2 * i + 1] = (short)((ushort)x % (ushort)y);
}
