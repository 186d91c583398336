// Global-memory atomics whose final values do not depend on the order of the work-items:
// a histogram with atomic_inc, a sum with atomic_add, atomic_sub, atomic_min/atomic_max (int and
// uint), atomic_and/or/xor masks, atomic_xchg of a value every item agrees on, and a
// compare-and-swap loop computing a maximum. atomic_dec on a countdown.
// CASE atomics_global: --kernel atom_global --global 1000 --local 100 --arg 0=@av --arg 1=zero:64 --arg 2=@ainit --out 1 --out 2
// DATA av: i32 1000 rand 231 -100000 100000
// DATA ainit: i32 12 list 0 0 2147483647 -2147483648 -1 0 0 0 5000 0 0 -1

__kernel void atom_global(__global const int* v, __global int* hist, __global int* acc)
{
    int i = get_global_id(0);
    int x = v[i];
    atomic_inc(&hist[x & 15]);
    atomic_add(&acc[0], x);                          // |sum| <= 1e8: no overflow
    atomic_sub(&acc[1], i);
    atomic_min(&acc[2], x);
    atomic_max(&acc[3], x);
    atomic_and(&acc[4], ~(1 << (i & 31)) | (x & 0x100));
    atomic_or(&acc[5], 1 << (x & 31));
    atomic_xor(&acc[6], x);                          // xor of all values: order-independent
    atomic_xchg(&acc[7], 42);                        // every item writes the same value
    atomic_dec(&acc[8]);                             // 5000 - 1000
    atomic_max((volatile __global uint*)&acc[9], (uint)x);   // unsigned view of the same data
    int old = atomic_or(&acc[10], 0);                // atomic read
    int seen;
    do {                                              // CAS loop: max of x*2
        seen = old;
        old = atomic_cmpxchg(&acc[10], seen, max(seen, x * 2));
    } while (old != seen);
    atomic_min((volatile __global uint*)&acc[11], (uint)(x + 100000));
}
