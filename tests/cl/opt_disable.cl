// Compiled with -cl-opt-disable: IGC keeps every function (each in a file of its own on acm-g10 and
// pvc: _f<K>.visaasm, called by fcall through %arg and %retval, which are counted in GRFs), stores its
// frame pointer with a 16-byte block store (-Wraw-src-size) and calls a function for each fence.
// CASE opt_disable: --kernel opt_disable --global 128 --local 32 --build-options "-cl-opt-disable" --arg 0=@optdis --arg 1=local:128 --arg 2=zero:1024 --out 2
// DATA optdis: i32 128 rand 909 -100000 100000

int scale(int x, int k) { return x * k + (x >> 3); }

long mix(int a, int b) { return (long)a * b - (long)(a ^ b); }

__kernel void opt_disable(__global const int* in, __local int* tile, __global long* out)
{
    int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    tile[l] = scale(in[g], 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    int left = tile[(l + n - 1) % n], right = tile[(l + 1) % n];
    out[g] = mix(left, right) + scale(tile[l], -2);
}
