// IGC's bfloat16 conversions (cl_intel_bfloat16_conversions, declared here: ocloc's header does
// not declare them): a MOV of an F to a BF variable and one back (MOV page, type map {XEHP+}).
// DEVICES: dg2 acm-g10 pvc
// CASE bfloat16: --kernel bf16 --global 256 --local 64 --build-options "-cl-std=CL2.0" --arg 0=@bfx --arg 1=@bfh --arg 2=zero:512 --arg 3=zero:1024 --out 2 --out 3
// EXPECT: model bfloat16
// DATA bfx: u32 256 rand 601 0 0xffffffff
// DATA bfh: u16 256 rand 602 0 0xffff

ushort __attribute__((overloadable)) intel_convert_bfloat16_as_ushort(float f);
float __attribute__((overloadable)) intel_convert_as_bfloat16_float(ushort h);

__kernel void bf16(__global const uint* x, __global const ushort* h, __global ushort* o16, __global uint* o32)
{
    size_t g = get_global_id(0);
    o16[g] = intel_convert_bfloat16_as_ushort(as_float(x[g]));
    o32[g] = as_uint(intel_convert_as_bfloat16_float(h[g]));
}
