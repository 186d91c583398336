// Correctly rounded / exact float builtins: floor, ceil, rint, trunc, round, fma, fabs, copysign,
// fmin, fmax, fmod, fract, modf, ldexp, frexp, ilogb, and sqrt built with
// -cl-fp32-correctly-rounded-divide-sqrt: all exact (0 ulp) in the OpenCL C spec, so no tolerance.
#pragma OPENCL FP_CONTRACT OFF
// CASE math_round: --kernel rounding --global 400 --local 80 --build-options "-cl-fp32-correctly-rounded-divide-sqrt" --arg 0=@rx --arg 1=zero:25600 --out 1
// DATA rx: f32 400 frand 401 -1000.0 1000.0

__kernel void rounding(__global const float* x, __global float* out)
{
    int i = get_global_id(0);
    float v = x[i];
    float h = (float)((int)(v * 2.0f)) * 0.5f;     // values on .5 for round/rint ties
    __global float* o = out + 16 * i;
    o[0] = floor(v);
    o[1] = ceil(v);
    o[2] = rint(h);
    o[3] = trunc(v);
    o[4] = round(h);
    o[5] = fma(v, 1.0001f, -v);
    o[6] = copysign(fabs(v), -h);
    o[7] = fmod(v, 3.25f);
    float ip;
    o[8] = fract(v, &ip);
    o[9] = ip;
    o[10] = modf(v, &ip) + ip * 0.0f;
    int e;
    o[11] = frexp(v, &e);
    o[12] = ldexp(v, (i % 9) - 4) + (float)e;
    o[13] = (float)ilogb(v);
    o[14] = sqrt(fabs(v));
    o[15] = fmin(v, h) - fmax(v, -h);
}
