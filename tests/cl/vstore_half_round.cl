// Float to half in each rounding mode (vstore_half_rte / _rtz / _rtp / _rtn), including float
// denormals, which round up to the smallest half denormal under _rtp: IGC's kernels set %cr0's
// denormal modes (spec-decisions E22), so the conversion keeps its denormal source.
// CASE vstore_half_round: --kernel to_half_modes --global 64 --local 16 --arg 0=@vhr --arg 1=zero:512 --out 1
// DATA vhr: f32 64 list 1e-45 -1e-45 1e-40 -1e-40 1e-38 -1e-38 2.9802322e-08 -2.9802322e-08 5.9604645e-08 6e-08 1.0000001 -1.0000001 65504 65520 -65520 70000 0.1 -0.1 0.33333334 -0.33333334 6.1035156e-05 6.1e-05 -6.1e-05 3.0517578e-05 1e-06 -1e-06 123.456 -123.456 0 -0 1 -1 2.5e-08 -2.5e-08 3e-08 -3e-08 1e-10 -1e-10 1e-20 -1e-20 7.7e-06 -7.7e-06 0.5 -0.5 1024.5 -1024.5 2049 -2049 4097 -4097 3.1415927 -3.1415927 2.7182817 -2.7182817 1e-30 -1e-30 65519 -65519 6.0975552e-05 -6.0975552e-05 1.1754942e-38 -1.1754942e-38 5.96e-08 -5.96e-08

__kernel void to_half_modes(__global const float* in, __global half* out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    vstore_half_rte(x, 4 * i, out);
    vstore_half_rtz(x, 4 * i + 1, out);
    vstore_half_rtp(x, 4 * i + 2, out);
    vstore_half_rtn(x, 4 * i + 3, out);
}
