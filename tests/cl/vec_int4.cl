// int4 / uint4 vector arithmetic: component-wise ops, swizzles (.wzyx, .xy/.zw, .s02, .odd/.even,
// .hi/.lo), vector compares producing -1/0 masks, any/all, and shuffle/shuffle2.
// CASE vec_int4: --kernel v4 --global 256 --local 32 --arg 0=@v4a --arg 1=@v4b --arg 2=zero:16384 --out 2
// DATA v4a: i32 1024 rand 121 -100000 100000
// DATA v4b: i32 1024 rand 122 -100000 100000

__kernel void v4(__global const int4* a, __global const int4* b, __global int4* out)
{
    int i = get_global_id(0);
    int4 x = a[i], y = b[i];
    int4 s = x + y.wzyx;
    int4 m = x > y;                           // -1 or 0 per lane
    int4 t = (int4)(s.xy * 3, s.zw - x.s02);
    uint4 u = as_uint4(x) >> (uint4)(1, 2, 3, 4);
    int8 wide = (int8)(x, y);
    int4 sh = shuffle(x, (uint4)(3, 0, 2, 1));
    int4 sh2 = shuffle2(x, y, (uint4)(7, 4, 1, 6));
    out[4 * i] = t ^ m;
    out[4 * i + 1] = as_int4(u + as_uint4(sh + (int4)(any(m), all(m), any(x < 0), all(y < 100000))));  // unsigned sum
    out[4 * i + 2] = wide.odd * 2 + wide.even - sh2;
    out[4 * i + 3] = (int4)(wide.hi.s0 - wide.lo.s3, x.s1 & y.s2, x.s3 | y.s0, ~x.s0);
}
