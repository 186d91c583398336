// Three-term sums with a 32-bit constant: IGC for dg2, acm-g10 and pvc folds them into one
// `add3 ... 0x14057b7e:d`, an immediate wider than the ADD3 page's immediate16 (spec-decisions A3).
// CASE sum3_const: --kernel sum3_const --global 256 --local 32 --arg 0=@s3a --arg 1=@s3b --arg 2=zero:2048 --out 2
// DATA s3a: u32 256 rand 481 0 4294967295
// DATA s3b: u32 256 rand 482 0 4294967295

__kernel void sum3_const(__global const uint* a, __global const uint* b, __global uint* out)
{
    size_t i = get_global_id(0);
    out[2 * i] = a[i] + b[i] + 0x14057b7eu;
    out[2 * i + 1] = as_uint(as_int(a[i] >> 1) - as_int(b[i] >> 1) - 0x2468ace);
}
