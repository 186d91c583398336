// Loops with data-dependent trip counts: Collatz step counts (bounded), and a while loop that
// finds the integer square root by bisection; work-items in one thread diverge in trip count.
// CASE loops_collatz: --kernel collatz --global 1000 --local 200 --arg 0=@cz --arg 1=zero:4000 --out 1
// CASE loops_isqrt: --kernel isqrt_bisect --global 513 --arg 0=@sq --arg 1=zero:2052 --out 1
// DATA cz: u32 1000 rand 161 1 100000
// DATA sq: u32 513 rand 162 0 0xffffffff

__kernel void collatz(__global const uint* start, __global uint* steps)
{
    int i = get_global_id(0);
    ulong n = start[i];
    uint s = 0;
    while (n != 1 && s < 1000) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        ++s;
    }
    steps[i] = s;
}

__kernel void isqrt_bisect(__global const uint* v, __global uint* r)
{
    int i = get_global_id(0);
    ulong x = v[i];
    ulong lo = 0, hi = 65536;            // invariant: lo*lo <= x < hi*hi
    while (hi - lo > 1) {
        ulong mid = (lo + hi) >> 1;
        if (mid * mid <= x) lo = mid; else hi = mid;
    }
    r[i] = (uint)lo;
}
