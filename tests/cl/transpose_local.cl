// Matrix transpose through a padded __local tile (coalesced reads and writes), 2-D NDRange on a
// non-square matrix of ushort, plus a 2-D offset launch of the same kernel.
// CASE transpose: --kernel transpose16 --global 48,32 --local 16,16 --arg 0=@tm --arg 1=zero:3072 --arg 2=i32:48 --arg 3=i32:32 --out 1
// CASE transpose_small_tiles: --kernel transpose_any --global 48,32 --local 12,4 --arg 0=@tm --arg 1=zero:3072 --arg 2=i32:48 --arg 3=i32:32 --arg 4=local:104 --out 1
// DATA tm: u16 1536 iota 0 1

__kernel void transpose16(__global const ushort* in, __global ushort* out, int w, int h)
{
    __local ushort tile[16][17];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 16 + lx;      // column in the output (= row in the input)
    int oy = get_group_id(0) * 16 + ly;
    out[oy * h + ox] = tile[lx][ly];
}

// Tile of any shape (lw x lh) in a __local argument of lh*(lw+1) ushorts: the group reads an
// lw-wide, lh-tall block and writes it as an lh-wide, lw-tall block, each item renumbered by its
// linear local id so that the writes are row-wise too.
__kernel void transpose_any(__global const ushort* in, __global ushort* out, int w, int h,
                            __local ushort* tile)
{
    int lw = get_local_size(0), lh = get_local_size(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly * (lw + 1) + lx] = in[get_global_id(1) * w + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int l = ly * lw + lx;
    int ox = l % lh, oy = l / lh;            // position in the transposed block
    int row = get_group_id(0) * lw + oy;     // output row = input column
    int col = get_group_id(1) * lh + ox;
    out[row * h + col] = tile[ox * (lw + 1) + oy];
}
