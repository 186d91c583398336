// Byte stencils on text: ASCII upper-casing of a byte buffer (one byte per item, length not a
// multiple of 8/16/32), and a run-length "word start" marker that reads the left neighbour.
// CASE bytes_upper: --kernel upcase --global 1001 --local 77 --arg 0=@txt --arg 1=zero:1001 --out 1
// CASE bytes_word_starts: --kernel word_starts --global 1001 --arg 0=@txt --arg 1=zero:1001 --arg 2=u32:1001 --out 1
// DATA txt: u8 1001 rand 291 32 126

__kernel void upcase(__global const uchar* in, __global uchar* out)
{
    size_t i = get_global_id(0);
    uchar c = in[i];
    out[i] = (c >= 'a' && c <= 'z') ? (uchar)(c - 32) : c;
}

__kernel void word_starts(__global const uchar* in, __global uchar* out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    uchar c = in[i];
    uchar prev = (i == 0) ? ' ' : in[i - 1];
    bool alnum = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    bool palnum = (prev >= '0' && prev <= '9') || ((prev | 0x20) >= 'a' && (prev | 0x20) <= 'z');
    out[i] = (alnum && !palnum) ? (uchar)'^' : (uchar)'.';
}
