// RGBA pixels as uchar4: integer luma, saturating brightness/contrast with convert_uchar4_sat,
// uchar4 swizzle to BGRA, hadd blend of two images; global size not a multiple of 8/16/32.
// CASE pixels_uchar4: --kernel rgba --global 333 --local 37 --arg 0=@px --arg 1=@px2 --arg 2=zero:1332 --arg 3=zero:333 --arg 4=i32:-20 --out 2 --out 3
// DATA px: u8 1332 rand 151 0 255
// DATA px2: u8 1332 rand 152 0 255

__kernel void rgba(__global const uchar4* img, __global const uchar4* img2,
                   __global uchar4* out, __global uchar* luma, int bias)
{
    int i = get_global_id(0);
    uchar4 p = img[i];
    uint y = (77u * p.x + 150u * p.y + 29u * p.z + 128u) >> 8;
    luma[i] = (uchar)y;
    int4 c = convert_int4(p) * 3 / 2 + bias;
    uchar4 b = convert_uchar4_sat(c);
    uchar4 mix = hadd(b.zyxw, img2[i]);
    out[i] = add_sat(mix, (uchar4)(1, 2, 3, 4)) - abs_diff(p, img2[i]) / (uchar)4;
}
