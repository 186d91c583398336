// Per-item 64-bit FNV-1a over a variable-length byte record (length from a length table),
// and a 32-bit xorshift PRNG stepped a data-dependent number of times: ulong/uint wrap-around
// in loops.
// CASE hash_fnv: --kernel fnv1a --global 200 --local 40 --arg 0=@hrec --arg 1=@hlen --arg 2=zero:1600 --out 2
// CASE xorshift_steps: --kernel xorshift --global 300 --arg 0=@hlen --arg 1=zero:1200 --out 1
// DATA hrec: u8 6400 rand 481 0 255
// DATA hlen: u8 300 rand 482 0 32

__kernel void fnv1a(__global const uchar* rec, __global const uchar* len, __global ulong* out)
{
    int i = get_global_id(0);
    ulong h = 0xcbf29ce484222325UL;
    for (uint k = 0; k < len[i]; ++k) {
        h ^= rec[32 * i + k];
        h *= 0x100000001b3UL;
    }
    out[i] = h;
}

__kernel void xorshift(__global const uchar* steps, __global uint* out)
{
    uint i = get_global_id(0);
    uint s = i * 0x9E3779B9u + 1u;
    for (uint k = 0; k <= steps[i]; ++k) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
    }
    out[i] = s;
}
