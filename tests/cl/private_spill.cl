// A large private array (256 floats + 64 ints per work-item) indexed with run-time values: too
// big for registers, so IGC places it in scratch / private memory (spill/fill and stateless
// private accesses). A per-item sieve and a table lookup chain.
#pragma OPENCL FP_CONTRACT OFF
// CASE private_spill: --kernel big_private --global 64 --local 16 --arg 0=@ps --arg 1=zero:512 --out 1
// DATA ps: f32 256 frand 271 0.0 1.0

__kernel void big_private(__global const float* coeff, __global float* out)
{
    int g = get_global_id(0);
    float table[256];
    int next[64];
    for (int k = 0; k < 256; ++k)
        table[k] = coeff[(k * 37 + g) & 255] * (float)(k + 1);
    for (int k = 0; k < 64; ++k)
        next[k] = (k * 13 + g * 5 + 1) & 63;
    float acc = 0.0f;
    int p = g & 63;
    for (int step = 0; step < 100; ++step) {
        int idx = (p * 4 + step) & 255;
        acc = acc + table[idx];
        table[(idx + 128) & 255] = acc * 0.5f;       // data-dependent private stores
        p = next[p];
    }
    out[2 * g] = acc;
    out[2 * g + 1] = table[(int)(acc) & 255];
}
