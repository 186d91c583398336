// Two and three adjacent bytes at a buffer's start. IGC loads them with one SIMD1 `svm_gather.1.2`
// (two 1-byte blocks) on skl, tgllp and dg2, below the page's execution size 8 for more than one
// block (the named warning svm-blocks-exec, spec-decisions A27).
// CASE bytes_adjacent: --kernel two_bytes --global 64 --local 16 --arg 0=@bya --arg 1=zero:256 --out 1
// CASE bytes_adjacent3: --kernel three_bytes --global 64 --local 16 --arg 0=@bya --arg 1=zero:256 --out 1
// DATA bya: u8 5 rand 501 0 255

__kernel void two_bytes(__constant uchar* cb, __global int* out)
{
    out[get_global_id(0)] = cb[0] * 3 + cb[1] + (int)get_global_id(0);
}

__kernel void three_bytes(__global const uchar* cb, __global int* out)
{
    out[get_global_id(0)] = cb[0] * 3 + cb[1] * 5 + cb[2] - (int)get_global_id(0);
}
