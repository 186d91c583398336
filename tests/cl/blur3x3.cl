// 3x3 box blur and a Sobel magnitude on an 8-bit grey image (uchar), clamp-to-edge borders,
// 2-D NDRange; the image width (37) is not a multiple of the group width.
// CASE blur3x3: --kernel blur3 --global 37,29 --local 37,1 --arg 0=@img --arg 1=zero:1073 --arg 2=i32:37 --arg 3=i32:29 --out 1
// CASE sobel: --kernel sobel --global 37,29 --arg 0=@img --arg 1=zero:1073 --arg 2=i32:37 --arg 3=i32:29 --out 1
// DATA img: u8 1073 rand 301 0 255

__kernel void blur3(__global const uchar* in, __global uchar* out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    uint sum = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
            sum += in[yy * w + xx];
        }
    out[y * w + x] = (uchar)((sum + 4) / 9);
}

__kernel void sobel(__global const uchar* in, __global uchar* out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    int yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    #define P(X, Y) ((int)in[(Y) * w + (X)])
    int gx = P(xr, yu) + 2 * P(xr, y) + P(xr, yd) - P(xl, yu) - 2 * P(xl, y) - P(xl, yd);
    int gy = P(xl, yd) + 2 * P(x, yd) + P(xr, yd) - P(xl, yu) - 2 * P(x, yu) - P(xr, yu);
    #undef P
    out[y * w + x] = convert_uchar_sat((abs(gx) + abs(gy)) >> 1);
}
