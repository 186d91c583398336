// 64-bit atomics (cl_khr_int64_base_atomics / extended): atom_add, atom_inc, atom_min/max,
// atom_or/xor/and on ulong and long counters; all final values are order-independent.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
// CASE atomics64: --kernel atom64 --global 512 --local 64 --arg 0=@a64v --arg 1=@a64init --out 1
// DATA a64v: u64 512 rand 251 0 0xffffffffffffffff
// DATA a64init: i64 8 list 0 0 9223372036854775807 -9223372036854775807 0 -1 0 100

__kernel void atom64(__global const ulong* v, __global long* c)
{
    ulong x = v[get_global_id(0)];
    atom_add((volatile __global ulong*)&c[0], x);        // wraps: unsigned
    atom_inc(&c[1]);
    atom_min(&c[2], (long)x);
    atom_max(&c[3], (long)x);
    atom_or((volatile __global ulong*)&c[4], x & 0x0101010101010101UL);
    atom_and((volatile __global ulong*)&c[5], x | 0xfffffffffffff000UL);
    atom_xor((volatile __global ulong*)&c[6], x);
    atom_sub(&c[7], 1L);
}
