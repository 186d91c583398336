// NEEDS-FP64
// double arithmetic, double compares, double <-> float and long conversions.
// DEVICES: skl pvc
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
// CASE types_double: --kernel dmix --global 256 --local 32 --build-options "-cl-fp32-correctly-rounded-divide-sqrt" --arg 0=@da --arg 1=@db --arg 2=zero:4096 --out 2
// DATA da: f64 256 frand 61 -1000.0 1000.0
// DATA db: f64 256 frand 62 1.0 3.0

__kernel void dmix(__global const double* a, __global const double* b, __global double* out)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    double p = x * y + 0.125;
    double q = x / y;                      // IEEE correctly rounded for double
    float f = (float)p;
    long l = convert_long_rtz(q);
    out[2 * i] = (p > q) ? p - q : (double)f;
    out[2 * i + 1] = (double)l + sqrt(y);  // double sqrt is correctly rounded
}
