// A 2-D 5-point stencil (one Jacobi step of a heat equation on int) through a __local tile with a
// one-cell halo: interior items load their cell, edge items also load the halo, one barrier,
// then every item reads its four neighbours from local memory. Groups of 8x4 and 6x5.
// CASE stencil_local: --kernel jacobi5 --global 32,16 --local 8,4 --arg 0=@grid --arg 1=zero:2048 --arg 2=i32:32 --arg 3=i32:16 --arg 4=local:240 --out 1
// CASE stencil_local_6x5: --kernel jacobi5 --global 30,20 --local 6,5 --arg 0=@grid --arg 1=zero:2400 --arg 2=i32:30 --arg 3=i32:20 --arg 4=local:224 --out 1
// DATA grid: i32 600 rand 461 0 10000

__kernel void jacobi5(__global const int* in, __global int* out, int w, int h, __local int* tile)
{
    int lw = get_local_size(0), lh = get_local_size(1);
    int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
    int x = get_global_id(0), y = get_global_id(1);
    int tw = lw + 2;
    #define G(X, Y) in[clamp((Y), 0, h - 1) * w + clamp((X), 0, w - 1)]
    tile[ly * tw + lx] = G(x, y);
    if (lx == 1)  tile[ly * tw] = G(x - 1, y);
    if (lx == lw) tile[ly * tw + lx + 1] = G(x + 1, y);
    if (ly == 1)  tile[lx] = G(x, y - 1);
    if (ly == lh) tile[(ly + 1) * tw + lx] = G(x, y + 1);
    #undef G
    barrier(CLK_LOCAL_MEM_FENCE);
    int c = tile[ly * tw + lx];
    int s = tile[ly * tw + lx - 1] + tile[ly * tw + lx + 1] + tile[(ly - 1) * tw + lx] + tile[(ly + 1) * tw + lx];
    out[y * w + x] = (4 * c + s + 4) / 8;
}
