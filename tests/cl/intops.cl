// Integer builtins on int and uint: select, min, max, clamp, abs, abs_diff, mad_hi, mul_hi,
// add_sat, sub_sat, hadd, rhadd, mad24, mul24 and mad_sat.
// CASE intops: --kernel intb --global 777 --local 111 --arg 0=@ia --arg 1=@ib --arg 2=@ua --arg 3=zero:49728 --out 3
// DATA ia: i32 777 rand 111 -2147483648 2147483647
// DATA ib: i32 777 rand 112 -2147483648 2147483647
// DATA ua: u32 777 rand 113 0 0xffffffff

__kernel void intb(__global const int* A, __global const int* B, __global const uint* U, __global int* out)
{
    int i = get_global_id(0);
    int a = A[i], b = B[i];
    uint u = U[i];
    __global int* o = out + 16 * i;
    o[0] = select(a, b, a < b);
    o[1] = min(a, b) ^ max(a, b);
    o[2] = clamp(a, -1000, 1000000);
    o[3] = (int)abs(a);                       // abs(INT_MIN) = 0x80000000u: defined
    o[4] = (int)abs_diff(a, b);
    o[5] = mad_hi(a, b, (int)(u >> 3));       // |mul_hi| <= 2^30, addend < 2^29: no overflow
    o[6] = mul_hi(a, b);
    o[7] = (int)mul_hi(u, (uint)a);
    o[8] = add_sat(a, b);
    o[9] = sub_sat(a, b);
    o[10] = (int)add_sat(u, (uint)b);
    o[11] = (int)sub_sat(u, (uint)b);
    o[12] = hadd(a, b);
    o[13] = rhadd(a, b);
    o[14] = mad24(a & 0x7ff, b >> 20, 17) ^ mul24(a >> 17, b & 0xffff);   // 24-bit operands, 32-bit products
    o[15] = (int)((uint)mad_sat(a >> 4, b >> 4, (int)u) + rhadd(u, (uint)a) - clamp(u, 5u, 1000u));
}
