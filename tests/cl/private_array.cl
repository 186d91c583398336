// Private arrays indexed at run time, so the compiler cannot keep them in registers: an
// insertion sort of 16 values per work-item, and a per-item 32-bin histogram with data-dependent
// indices, read back in a data-dependent order.
// CASE private_sort: --kernel sort16 --global 200 --local 40 --arg 0=@pa --arg 1=zero:12800 --out 1
// CASE private_hist: --kernel hist_private --global 150 --arg 0=@pa --arg 1=zero:600 --out 1
// DATA pa: i32 3200 rand 261 -1000 1000

__kernel void sort16(__global const int* in, __global int* out)
{
    int i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; ++k)
        a[k] = in[i * 16 + k];
    for (int k = 1; k < 16; ++k) {
        int v = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
    for (int k = 0; k < 16; ++k)
        out[i * 16 + k] = a[k];
}

__kernel void hist_private(__global const int* in, __global int* out)
{
    int i = get_global_id(0);
    int h[32];
    for (int k = 0; k < 32; ++k)
        h[k] = 0;
    for (int k = 0; k < 20; ++k)
        h[(in[i * 20 + k] + 1000) & 31] += k;
    int start = in[i] & 31;
    uint acc = 0;
    for (int k = 0; k < 32; ++k)
        acc = acc * 3u + (uint)h[(start + k * 7) & 31];   // unsigned: wraps
    out[i] = (int)acc;
}
