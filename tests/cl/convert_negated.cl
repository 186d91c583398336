// convert_float / convert_double of negated integers, INT_MIN and LONG_MIN among them: IGC folds
// (0 - x) into the conversion as a source modifier (`mov f (-)x:d`), and the negation wraps
// (spec-decisions E13). Also short/char negations and abs_diff of the minimum.
// CASE convert_negated: --kernel negconv --global 64 --local 16 --arg 0=@negl --arg 1=@negi --arg 2=zero:1536 --out 2
// DATA negl: i64 64 list -9223372036854775808 9223372036854775807 0 1 -1 -9223372036854775807 4611686018427387904 -4611686018427387904 -2147483648 2147483648 -2147483649 65535 -65536 123456789012 -123456789012 9007199254740993 -9007199254740993 18014398509481985 -18014398509481985 3 -3 5 -5 7 -7 1023 -1023 1099511627776 -1099511627776 2305843009213693951 -2305843009213693952 42 -42 100 -100 2147483647 -2147483647 4294967295 -4294967295 4294967296 -4294967296 281474976710655 -281474976710655 72057594037927935 -72057594037927935 9223372036854775806 -9223372036854775806 11 -11 13 -13 17 -17 19 -19 23 -23 29 -29 31 -31 37 -37 -9223372036854775808
// DATA negi: i32 64 list -2147483648 2147483647 0 1 -1 -2147483647 1073741824 -1073741824 -32768 32767 -32769 65535 -65536 16777217 -16777217 33554433 -33554433 -128 127 3 -3 5 -5 7 -7 1023 -1023 1048576 -1048576 536870911 -536870912 42 -42 100 -100 8388607 -8388607 16777215 -16777215 16777216 -16777216 2147483520 -2147483520 2147483584 -2147483584 2147483583 -2147483583 11 -11 13 -13 17 -17 19 -19 23 -23 29 -29 31 -31 37 -37 -2147483648

__kernel void negconv(__global const long* l, __global const int* i, __global uint* out)
{
    int g = get_global_id(0);
    long L = l[g];
    int I = i[g];
    short S = (short)I;
    char C = (char)I;
    __global uint* o = out + 6 * g;
    o[0] = as_uint(convert_float((int)(0u - (uint)I)));
    o[1] = as_uint(convert_float((long)(0ul - (ulong)L)));
    o[2] = as_uint(convert_float((short)(0 - S)));
    o[3] = as_uint(convert_float((char)(0 - C)));
    o[4] = as_uint(convert_float_rtz((int)(0u - (uint)I)));
    o[5] = abs_diff(I, (int)(0u - (uint)I));
}
