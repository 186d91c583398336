// Arguments by value wider than 8 bytes: a float4 and a 24-byte struct (a long after four 4-byte
// fields), each given as @FILE of exactly its bytes (spec-decisions CL10), next to an int.
// CASE byvalue_args: --kernel byvalue_args --global 64 --local 16 --arg 0=@bvin --arg 1=@bvscale --arg 2=@bvparams --arg 3=i32:3 --arg 4=zero:2048 --out 4
// DATA bvin: f32 256 frand 801 -100.0 100.0
// DATA bvscale: f32 4 list 0.5 -2.0 3.25 1.0
// DATA bvparams: i32 6 list 7 -3 -1027080192 1120403456 5 -1

typedef struct {
    int bias;
    int mul;
    float lo;   // -100.0f (0xc2c80000)
    float hi;   // 100.0f (0x42c80000)
    long tag;   // 0xffffffff00000005
} params_t;

__kernel void byvalue_args(__global const float4* in, float4 scale, params_t p, int n, __global float4* out)
{
    int g = get_global_id(0);
    float4 v = clamp(in[g] * scale, p.lo, p.hi);
    int4 iv = convert_int4_rtz(v) * p.mul + p.bias + n;
    out[2 * g] = v;
    out[2 * g + 1] = as_float4(iv ^ (int4)((int)p.tag, (int)(p.tag >> 32), (int)(p.tag >> 3), g));
}
