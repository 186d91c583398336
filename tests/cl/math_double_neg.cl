// Double division and square root of negated and absolute values: IGC puts the sign change on the
// correctly rounded DIVM and SQRTM themselves ((-) and (abs) source modifiers, spec-decisions A36).
// NEEDS-FP64
// DEVICES: skl pvc
// CASE math_double_neg: --kernel div_sqrt_signs --global 512 --local 64 --arg 0=@dnx --arg 1=@dny --arg 2=zero:16384 --out 2
// DATA dnx: f64 512 frand 541 -1000 1000
// DATA dny: f64 512 frand 542 -3 3

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void div_sqrt_signs(__global const double* x, __global const double* y, __global double* out)
{
    size_t i = get_global_id(0);
    double a = x[i], b = y[i];
    out[4 * i] = -a / b;
    out[4 * i + 1] = a / fabs(b);
    out[4 * i + 2] = sqrt(fabs(a));
    out[4 * i + 3] = a < 0.0 ? sqrt(-a) : a;
}
