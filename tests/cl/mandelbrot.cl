// ALSO-4GB
// Mandelbrot escape counts on a 2-D grid: a float loop whose trip count depends on the data, so
// neighbouring work-items leave the loop at different times. FP_CONTRACT off keeps every
// operation singly rounded, so the counts are exact on any IEEE device.
#pragma OPENCL FP_CONTRACT OFF
// CASE mandelbrot: --kernel mandel --global 64,48 --local 16,4 --arg 0=zero:6144 --arg 1=f32:-2.25 --arg 2=f32:-1.125 --arg 3=f32:0.046875 --arg 4=i32:200 --out 0
// CASE mandelbrot_nolocal: --kernel mandel --global 30,20 --arg 0=zero:1200 --arg 1=f32:-0.8 --arg 2=f32:0.05 --arg 3=f32:0.015625 --arg 4=i32:500 --out 0

__kernel void mandel(__global ushort* iters, float x0, float y0, float step, int maxit)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + (float)px * step, ci = y0 + (float)py * step;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < maxit) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        ++n;
    }
    iters[py * get_global_size(0) + px] = (ushort)n;
}
