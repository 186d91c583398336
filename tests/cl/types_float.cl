// float arithmetic: +, -, *, compares, fabs/fmin/fmax and a correctly rounded division
// (built with -cl-fp32-correctly-rounded-divide-sqrt so the quotient is exact on every device).
#pragma OPENCL FP_CONTRACT OFF
// CASE types_float: --kernel fmix --global 512 --local 128 --build-options "-cl-fp32-correctly-rounded-divide-sqrt" --arg 0=@fa --arg 1=@fb --arg 2=zero:4096 --out 2
// DATA fa: f32 512 frand 51 -100.0 100.0
// DATA fb: f32 512 frand 52 0.5 8.0

__kernel void fmix(__global const float* a, __global const float* b, __global float* out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    float s = x * y - 3.5f;
    float d = x / y;
    float m = fmax(fabs(x), y) + fmin(x, -y);
    out[2 * i] = (s > d) ? s + m : d - m;
    out[2 * i + 1] = (x * 0.25f + y) * (y - 1.0f);
}
