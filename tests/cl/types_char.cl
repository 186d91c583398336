// 8-bit integer arithmetic: char and uchar loads, promotions, wrap-around on uchar,
// saturating converts back to char, signed compares and shifts.
// CASE types_char: --kernel mix8 --global 200 --local 40 --arg 0=@c8 --arg 1=@u8v --arg 2=zero:200 --arg 3=zero:200 --out 2 --out 3
// DATA c8: i8 200 rand 11 -128 127
// DATA u8v: u8 200 rand 12 0 255

__kernel void mix8(__global const char* a, __global const uchar* b,
                   __global char* outc, __global uchar* outu)
{
    size_t i = get_global_id(0);
    char x = a[i];
    uchar y = b[i];
    // int promotion: no overflow possible in int
    int s = x * 3 + (int)y - 7;
    outc[i] = convert_char_sat(s);
    // unsigned wrap-around in uchar
    uchar w = (uchar)(y * (uchar)5 + (uchar)x);
    w ^= (uchar)(w >> 3);
    if (x < -100)
        w = (uchar)(w + 1);
    else if (x > (char)(y >> 1))
        w = (uchar)(w << 1);
    outu[i] = w;
}
