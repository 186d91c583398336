// ALSO-4GB
// vloadn / vstoren at element (not vector) granularity: vload2/3/4/8/16 and vstore2/3/4/8 on
// int, ushort and float data, including unaligned offsets and vload_half / vstore_half_rte.
// Stateless (ALSO-4GB), IGC moves the 3-element vectors with svm_gather4scaled and
// svm_scatter4scaled whose address is `0x0:ud` (spec-decisions A27, imm-type) on skl, tgllp, dg2.
#pragma OPENCL FP_CONTRACT OFF
// CASE vload_store: --kernel vls --global 60 --local 20 --arg 0=@vli --arg 1=@vls --arg 2=@vlf --arg 3=zero:15360 --arg 4=zero:1920 --out 3 --out 4
// DATA vli: i32 1000 iota -500 1
// DATA vls: u16 1000 rand 141 0 65535
// DATA vlf: f32 500 frand 142 -4.0 4.0

__kernel void vls(__global const int* src, __global const ushort* s16, __global const float* fs,
                  __global int* dst, __global ushort* d16)
{
    int i = get_global_id(0);
    int3 a3 = vload3(i, src + 1);                 // 12-byte stride, 4-byte alignment
    int4 a4 = vload4(0, src + 3 * i + 2);        // misaligned for int4
    int8 a8 = vload8(i, src);
    int16 a16 = vload16(0, src + 16 * i + 5);
    ushort2 h2 = vload2(i, s16 + 7);
    ushort4 h4 = vload4(i, s16);
    float4 f4 = vload4(i, fs + 1);
    vstore3(a3 + a4.xyz, 0, dst + 64 * i);
    vstore4(a8.lo * a8.hi + a4, 1, dst + 64 * i + 1);
    vstore8(a16.lo ^ a16.hi, 1, dst + 64 * i);
    vstore2(convert_int2(h2) - (int2)(a16.sf, a16.s0), 0, dst + 64 * i + 20);
    vstore4(convert_int4(h4) * 3, 0, dst + 64 * i + 22);
    vstore4(convert_int4_rtz(f4 * 1000.0f), 0, dst + 64 * i + 26);
    float v = vload_half(i, (__global const half*)s16);   // reinterpret random bits as half
    if (isfinite(v))
        vstore_half_rte(v * 0.5f + f4.x, 0, (__global half*)(d16 + 16 * i));
    vstore2((ushort2)(h4.w, h2.x), 1, d16 + 16 * i + 1);
    vstore4(h4.wzyx, 1, d16 + 16 * i + 3);
}
