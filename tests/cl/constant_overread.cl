// A loop over every element of a small __constant table (25 ints, 100 bytes). IGC reads such a
// table with block loads that go past its end (skl to acm-g10: an oword_ld_unaligned of 128
// bytes from byte 32); the kernel uses only the table's own elements, so `--check` must report
// nothing (spec-decisions E33).
// CASE constant_overread: --kernel weighted --global 256 --local 64 --arg 0=@cot --arg 1=zero:1024 --out 1
// DATA cot: i32 25 iota -7 3

__kernel void weighted(__constant int* c, __global int* out)
{
    int i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < 25; ++k) s += c[k] * (i + k);
    out[i] = s;
}
