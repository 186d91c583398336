// Divergent control flow: nested if/else on per-item data, early return for some work-items,
// a loop with break and continue, and a ternary chain; items of one hardware thread take
// different paths.
// CASE divergent: --kernel branchy --global 400 --local 50 --arg 0=@dv --arg 1=zero:1600 --arg 2=i32:400 --out 1
// CASE divergent_tail: --kernel branchy --global 96 --local 48 --arg 0=@dv --arg 1=zero:1600 --arg 2=i32:90 --out 1
// DATA dv: i32 400 rand 171 -1000 1000

__kernel void branchy(__global const int* in, __global int* out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;                           // early return of the tail work-items
    int v = in[i];
    int r;
    if (v < 0) {
        if (v < -500)
            r = -v * 2;
        else
            r = v + 7;
    } else if ((v & 3) == 0) {
        r = 0;
        for (int k = 0; k < v; ++k) {     // data-dependent trip count with break/continue
            if (k % 5 == 3)
                continue;
            r += k;
            if (r > 2000)
                break;
        }
    } else {
        out[i] = v * 3 + 1;
        return;                           // early return from inside divergent code
    }
    out[i] = (r > 100) ? r - 100 : (r < -100) ? r + 100 : r * 2;
}
