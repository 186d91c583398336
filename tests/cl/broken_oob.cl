// A deliberately broken kernel, kept for checker tests: a 3-point average where the last
// work-item reads in[n], one element past the end of its buffer (the bounds test forgot the
// right neighbour). No expected output.
// CASE broken_oob: --kernel avg3_oob --global 256 --local 64 --arg 0=@bo --arg 1=zero:1024 --out 1
// BROKEN: out-of-bounds read: work-item 255 reads in[256] of a 256-element buffer
// DATA bo: i32 256 iota 0 1

__kernel void avg3_oob(__global const int* in, __global int* out)
{
    int i = get_global_id(0);
    int left = (i > 0) ? in[i - 1] : in[i];
    out[i] = (left + in[i] + in[i + 1]) / 3;      // i + 1 == 256 for the last item
}
