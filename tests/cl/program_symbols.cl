// Program-scope variables read and written from functions IGC keeps at -cl-opt-disable: there it
// takes their addresses with `faddr <variable>`, which the program's symbol table resolves
// (PATCH_TOKEN_PROGRAM_SYMBOL_TABLE in Intel_Symbol_Table_Void_Program; spec-decisions P13, C21):
// a __constant table (symbol type 4) and a __global array (type 3; OpenCL 2.0).
// CASE symbols_constant: --kernel symbols_constant --global 256 --local 32 --build-options "-cl-std=CL2.0 -cl-opt-disable" --arg 0=@symin --arg 1=zero:1024 --out 1
// CASE symbols_global: --kernel symbols_global --global 64 --local 16 --build-options "-cl-std=CL2.0 -cl-opt-disable" --arg 0=@symin --arg 1=zero:256 --out 1
// DATA symin: u32 256 rand 951 0 0xffffffff

__constant uint tab[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};

__attribute__((noinline)) uint look(uint i) { return tab[i & 7]; }

__kernel void symbols_constant(__global const uint* in, __global uint* out)
{
    uint g = get_global_id(0);
    out[g] = look(in[g]) + tab[(in[g] >> 3) & 7];
}

__global uint acc[64] = {1, 2, 3, 5, 8, 13};

__attribute__((noinline)) void bump(uint i, uint v) { acc[i & 63] += v; }

__attribute__((noinline)) uint peek(uint i) { return acc[i & 63]; }

__kernel void symbols_global(__global const uint* in, __global uint* out)
{
    uint g = get_global_id(0);
    bump(g, in[g]);
    out[g] = peek(g) * 3u + (uint)g;
}
