// ALSO-4GB
// saxpy (y = a*x + y) in float with FP_CONTRACT off (one rounding per op, no fused mad), a
// float4 variant, and a strided "daxpy-like" loop where each item handles several elements.
// Also compiled with -cl-intel-greater-than-4GB-buffer-required (stateless 64-bit addressing).
#pragma OPENCL FP_CONTRACT OFF
// CASE saxpy: --kernel saxpy --global 1024 --local 256 --arg 0=f32:1.5 --arg 1=@sx --arg 2=@sy --out 2
// CASE saxpy4: --kernel saxpy4 --global 256 --arg 0=f32:-0.75 --arg 1=@sx --arg 2=@sy --out 2
// CASE saxpy_strided: --kernel saxpy_strided --global 100 --local 50 --arg 0=f32:3.0 --arg 1=@sx --arg 2=@sy --arg 3=i32:1024 --out 2
// DATA sx: f32 1024 frand 321 -1.0 1.0
// DATA sy: f32 1024 frand 322 -1.0 1.0

__kernel void saxpy(float a, __global const float* x, __global float* y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void saxpy4(float a, __global const float4* x, __global float4* y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void saxpy_strided(float a, __global const float* x, __global float* y, int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = a * x[i] + y[i];
}
