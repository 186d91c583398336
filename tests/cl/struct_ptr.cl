// Structs passed by pointer: an array of particles (mixed int/float/short/char/long fields with
// natural alignment, 32 bytes each) updated in place, a __constant struct of parameters, and a
// struct assembled in private memory and copied out whole.
#pragma OPENCL FP_CONTRACT OFF
// CASE struct_ptr: --kernel step_particles --global 100 --local 25 --arg 0=@parts --arg 1=@params --arg 2=zero:1600 --out 0 --out 2
// DATA parts: i32 800 rand 281 -1000 1000
// DATA params: i32 4 list 3 -2 7 0

typedef struct {
    int x, y;        // 0, 4
    float vx;        // 8
    short tag;       // 12
    char kind;       // 14
    uchar flags;     // 15
    long energy;     // 16
    uint hits;       // 24
    int pad;         // 28
} Particle;          // 32 bytes, 8-byte aligned

typedef struct {
    int dx, dy, scale, unused;
} Params;

typedef struct {
    long e;
    int x;
    short tag;
    char kind;
    char pad;        // explicit, so that no byte of the copy is unspecified
} Summary;           // 16 bytes

__kernel void step_particles(__global Particle* ps, __constant Params* prm, __global Summary* out)
{
    int i = get_global_id(0);
    __global Particle* p = &ps[i];
    Particle q = *p;
    q.x += prm->dx * (int)q.kind;
    q.y -= prm->dy;
    q.vx = (float)(as_int(q.vx) >> 4) * 0.5f + (float)q.tag;   // vx holds random bits: read them as int
    q.energy = q.energy / 4 + (long)q.x * prm->scale;
    q.hits += (q.flags & 1) ? 1u : 0u;
    q.flags = (uchar)(q.flags ^ 0x80);
    *p = q;
    Summary s;
    s.e = q.energy;
    s.x = q.x + q.y;
    s.tag = (short)(q.tag + 1);
    s.kind = (char)(q.kind - 1);
    s.pad = 0;
    out[i] = s;
}
