// Local-memory atomics: a 64-bin histogram built per work-group with atomic_inc / atomic_add on
// __local counters, then merged into the global histogram with atomic_add; local min/max/or via
// atomics, and a local cmpxchg; group size 96 (not a power of two).
// CASE atomics_local: --kernel hist_local --global 960 --local 96 --arg 0=@hb --arg 1=zero:256 --arg 2=zero:40 --out 1 --out 2
// DATA hb: u8 960 rand 241 0 255

__kernel void hist_local(__global const uchar* bytes, __global uint* hist, __global uint* stats)
{
    __local uint bins[64];
    __local uint lmin, lmax, lor, lxor, lcas;
    uint lid = get_local_id(0);
    for (uint b = lid; b < 64; b += get_local_size(0))
        bins[b] = 0;
    if (lid == 0) { lmin = 0xffffffffu; lmax = 0; lor = 0; lxor = 0; lcas = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = bytes[get_global_id(0)];
    atomic_inc(&bins[v >> 2]);
    atomic_add(&bins[(v * 7) & 63], 2u);
    atomic_min(&lmin, v);
    atomic_max(&lmax, v);
    atomic_or(&lor, 1u << (v & 31));
    atomic_xor(&lxor, v);
    atomic_cmpxchg(&lcas, 0u, 1u);                   // exactly one item succeeds; value is 1 either way
    atomic_dec(&bins[63]);                           // bins[63] wraps below zero: unsigned, defined
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 64; b += get_local_size(0))
        atomic_add(&hist[b], bins[b]);
    if (lid == 0) {
        atomic_min(&stats[0], lmin + 1000u);          // stats[0] starts at 0: stays 0
        atomic_max(&stats[1], lmax);
        atomic_or(&stats[2], lor);
        atomic_xor(&stats[3], lxor);
        atomic_add(&stats[4], lcas);
        atomic_inc(&stats[5 + (get_group_id(0) & 3)]);
        atomic_xchg(&stats[9], 7u);
    }
}
