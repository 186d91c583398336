// __local memory of both kinds in one kernel: the kernel's own __local array and three __local
// buffers passed as arguments (int, long, char), each work-item writing its slot of every one and,
// after a barrier, reading another work-item's. The arguments' offsets (K10) are what the kernel
// finds after the kernel's own bytes; a buffer placed wrongly overlaps another or runs past the
// group's memory.
// CASE local_args_static_64: --kernel mix_local --global 256 --local 64 --arg 0=@lm --arg 1=zero:1024 --arg 2=local:256 --arg 3=local:512 --arg 4=local:64 --out 1
// CASE local_args_static_24: --kernel mix_local --global 240 --local 24 --arg 0=@lm --arg 1=zero:960 --arg 2=local:96 --arg 3=local:192 --arg 4=local:24 --out 1
// DATA lm: i32 256 rand 511 -1000000 1000000

__kernel void mix_local(__global const int* in, __global int* out,
                        __local int* a, __local long* b, __local char* c)
{
    __local short tag[64];
    uint lid = get_local_id(0), n = get_local_size(0);
    int v = in[get_global_id(0)];
    a[lid] = v;
    b[lid] = (long)v * 3;
    c[lid] = (char)(v >> 3);
    tag[lid] = (short)(lid * 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint o = n - 1 - lid;
    out[get_global_id(0)] = a[o] + (int)(b[(lid + 1) % n] >> 1) + c[(lid + 2) % n] + tag[(lid + 3) % n];
}
