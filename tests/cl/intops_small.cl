// The integer builtins on narrow vector types: add_sat/sub_sat/hadd/rhadd/abs_diff/min/max/clamp
// on uchar16 and char16, mul_hi/mad_hi/mad_sat on short8/ushort8, select with a short8 mask, and
// abs on char16.
// CASE intops_small: --kernel small_sat --global 64 --local 16 --arg 0=@sa --arg 1=@sb --arg 2=zero:5120 --out 2
// DATA sa: u8 1024 rand 471 0 255
// DATA sb: u8 1024 rand 472 0 255

__kernel void small_sat(__global const uchar16* A, __global const uchar16* B, __global uchar16* out)
{
    int i = get_global_id(0);
    uchar16 a = A[i], b = B[i];
    char16 sa = as_char16(a), sb = as_char16(b);
    __global uchar16* o = out + 5 * i;
    o[0] = add_sat(a, b) ^ sub_sat(a, b);
    o[1] = hadd(a, b) + rhadd(a, b) + abs_diff(a, b);
    o[2] = (as_uchar16(add_sat(sa, sb)) - as_uchar16(sub_sat(sa, sb))) ^ abs(sa) ^ as_uchar16(clamp(sa, (char)-20, (char)90));
    short8 s = as_short8(a), t = as_short8(b);
    ushort8 us = as_ushort8(a), ut = as_ushort8(b);
    // signed sums wrap through ushort8 (no signed overflow)
    short8 m = as_short8(as_ushort8(mul_hi(s, t)) + as_ushort8(mad_hi(s, (short8)(3), (short8)(-7)))
                         + as_ushort8(mad_sat(s, (short8)(2), t)));
    o[3] = as_uchar16(select(m, s, s > t));
    o[4] = as_uchar16(mul_hi(us, ut) ^ min(us, ut) ^ max(us, (ushort8)(1000)));
}
