// A deliberately broken kernel, kept for checker tests: a neighbour sum through __local memory
// without the barrier between the writes and the reads, so a work-item may read its neighbours'
// slots before they are written (a race on __local memory). No expected output.
// CASE broken_race: --kernel neighbours_race --global 128 --local 64 --arg 0=@br --arg 1=zero:512 --out 1
// BROKEN: data race on __local memory: tile[lid +- 1] is read with no barrier after the writes
// DATA br: i32 128 iota 1 1

__kernel void neighbours_race(__global const int* in, __global int* out)
{
    __local int tile[64];
    int lid = get_local_id(0);
    tile[lid] = in[get_global_id(0)];
    // missing: barrier(CLK_LOCAL_MEM_FENCE);
    int l = tile[(lid + 63) % 64];
    int r = tile[(lid + 1) % 64];
    out[get_global_id(0)] = l + tile[lid] + r;
}
