// SHA-256's compression of one 64-byte block per work-item (from the standard initial state), in a
// function IGC keeps: on tgllp and dg2 it reads the round constants K[] with svm_block_ld at
// addresses 4 and 8 bytes past a 16-byte boundary, which only the unaligned read its finalizer
// sends gives right (spec-decisions CL32).
// CASE sha256_rounds: --kernel sha256_rounds --global 32 --local 16 --arg 0=@shablocks --arg 1=zero:1024 --out 1
// DATA shablocks: u32 512 rand 971 0 0xffffffff

__constant uint K[64] = {
 0x428a2f98u,0x71374491u,0xb5c0fbcfu,0xe9b5dba5u,0x3956c25bu,0x59f111f1u,0x923f82a4u,0xab1c5ed5u,
 0xd807aa98u,0x12835b01u,0x243185beu,0x550c7dc3u,0x72be5d74u,0x80deb1feu,0x9bdc06a7u,0xc19bf174u,
 0xe49b69c1u,0xefbe4786u,0x0fc19dc6u,0x240ca1ccu,0x2de92c6fu,0x4a7484aau,0x5cb0a9dcu,0x76f988dau,
 0x983e5152u,0xa831c66du,0xb00327c8u,0xbf597fc7u,0xc6e00bf3u,0xd5a79147u,0x06ca6351u,0x14292967u,
 0x27b70a85u,0x2e1b2138u,0x4d2c6dfcu,0x53380d13u,0x650a7354u,0x766a0abbu,0x81c2c92eu,0x92722c85u,
 0xa2bfe8a1u,0xa81a664bu,0xc24b8b70u,0xc76c51a3u,0xd192e819u,0xd6990624u,0xf40e3585u,0x106aa070u,
 0x19a4c116u,0x1e376c08u,0x2748774cu,0x34b0bcb5u,0x391c0cb3u,0x4ed8aa4au,0x5b9cca4fu,0x682e6ff3u,
 0x748f82eeu,0x78a5636fu,0x84c87814u,0x8cc70208u,0x90befffau,0xa4506cebu,0xbef9a3f7u,0xc67178f2u};

#define ROTR(x,n) rotate((uint)(x), (uint)(32-(n)))

__attribute__((noinline))
uint load_be32(__global const uchar *p)
{
    return ((uint)p[0] << 24) | ((uint)p[1] << 16) | ((uint)p[2] << 8) | (uint)p[3];
}

__attribute__((noinline))
void sha256_compress(uint8 *state, uint *w)
{
    uint a = state->s0, b = state->s1, c = state->s2, d = state->s3;
    uint e = state->s4, f = state->s5, g = state->s6, h = state->s7;
    for (int t = 0; t < 64; ++t) {
        uint S1 = ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25);
        uint ch = (e & f) ^ (~e & g);
        uint t1 = h + S1 + ch + K[t] + w[t];
        uint S0 = ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22);
        uint maj = (a & b) ^ (a & c) ^ (b & c);
        uint t2 = S0 + maj;
        h = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    *state += (uint8)(a, b, c, d, e, f, g, h);
}

__kernel void sha256_rounds(__global const uint *in, __global uint8 *out)
{
    uint gid = get_global_id(0);
    uint w[64];
    for (int i = 0; i < 16; ++i) w[i] = in[gid*16+i];
    uint8 st = (uint8)(0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                       0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u);
    for (int t = 16; t < 64; ++t) {
        uint s0 = ROTR(w[t-15], 7) ^ ROTR(w[t-15], 18) ^ (w[t-15] >> 3);
        uint s1 = ROTR(w[t-2], 17) ^ ROTR(w[t-2], 19) ^ (w[t-2] >> 10);
        w[t] = w[t-16] + s0 + w[t-7] + s1;
    }
    sha256_compress(&st, w);
    out[gid] = st;
}
