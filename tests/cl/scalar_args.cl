// Scalar kernel arguments of each integer type and float: every work-item combines its index
// with all of them, so the launch shows whether each argument arrived with the right width and sign.
// CASE scalar_args: --kernel take_all --global 64 --local 16 --arg 0=zero:1024 --arg 1=i8:-5 --arg 2=u8:200 --arg 3=i16:-30000 --arg 4=u16:60000 --arg 5=i32:-123456789 --arg 6=u32:0xdeadbeef --arg 7=i64:-81985529216486895 --arg 8=u64:0xfedcba9876543210 --arg 9=f32:2.75 --out 0
// CASE scalar_args_neg: --kernel take_all --global 16 --arg 0=zero:256 --arg 1=i8:127 --arg 2=u8:0 --arg 3=i16:32767 --arg 4=u16:1 --arg 5=i32:2147483647 --arg 6=u32:0 --arg 7=i64:0x7fffffffffffffff --arg 8=u64:1 --arg 9=f32:-0.5 --out 0

__kernel void take_all(__global ulong* out, char c, uchar uc, short s, ushort us,
                       int i, uint ui, long l, ulong ul, float f)
{
    uint g = get_global_id(0);
    __global ulong* o = out + 2 * g;
    ulong acc = (ulong)(long)c + (ulong)uc * 3u + (ulong)(long)s * 5u + (ulong)us * 7u
              + (ulong)(long)i * 11u + (ulong)ui * 13u + (ulong)l * 17u + ul * 19u;
    o[0] = acc + (ulong)g;
    o[1] = (ulong)as_uint(f * (float)(g + 1u)) | ((ulong)(uint)(int)c << 32);
}
