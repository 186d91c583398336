// A switch on per-item opcodes: a tiny stack-free bytecode interpreter with dense cases,
// fall-through and a default; each work-item runs its own program of 16 opcodes.
// CASE switch: --kernel interp --global 128 --local 16 --arg 0=@ops --arg 1=@vals --arg 2=zero:512 --out 2
// DATA ops: u8 2048 rand 181 0 11
// DATA vals: i32 128 rand 182 -100 100

__kernel void interp(__global const uchar* ops, __global const int* vals, __global int* out)
{
    int i = get_global_id(0);
    int acc = vals[i];
    int reg = 1;
    for (int pc = 0; pc < 16; ++pc) {
        switch (ops[i * 16 + pc]) {
        case 0: acc += reg; break;
        case 1: acc -= 3; break;
        case 2: acc = acc * 2 % 100003; break;
        case 3: reg = acc & 15; break;
        case 4: acc ^= 0x55; /* fall through */
        case 5: acc += 1; break;
        case 6: acc = -acc; break;
        case 7: if (acc > 0) acc >>= 1; break;
        case 8: reg += 2; /* fall through */
        case 9: reg = reg * 3 % 17; break;
        default: acc = acc % 1000; break;
        }
    }
    out[i] = acc * 17 + reg;
}
