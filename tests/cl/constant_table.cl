// Program-scope __constant arrays: a nibble-wise CRC-32 over each item's 16-byte record, a
// __constant lookup of month lengths, and a __constant float polynomial evaluated by Horner
// (FP_CONTRACT off: exact).
#pragma OPENCL FP_CONTRACT OFF
// CASE constant_table: --kernel crc_records --global 250 --local 50 --arg 0=@rec --arg 1=zero:3000 --out 1
// DATA rec: u8 4000 rand 311 0 255

__constant uint crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu
};
__constant uchar month_days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
__constant float poly[5] = { 1.0f, -0.5f, 0.25f, -0.125f, 0.0625f };

__kernel void crc_records(__global const uchar* rec, __global uint* out)
{
    int i = get_global_id(0);
    __global const uchar* r = rec + 16 * i;
    uint crc = 0xffffffffu;
    for (int k = 0; k < 16; ++k) {
        crc ^= r[k];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
    }
    out[3 * i] = ~crc;
    uint m = r[0] % 12, d = r[1];
    uint doy = d % month_days[m];
    for (uint k = 0; k < m; ++k)
        doy += month_days[k];
    out[3 * i + 1] = doy;
    float x = (float)r[2] * (1.0f / 256.0f), y = poly[4];
    for (int k = 3; k >= 0; --k)
        y = y * x + poly[k];
    out[3 * i + 2] = as_uint(y);
}
