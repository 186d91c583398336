// Every work-item function in a 3-D NDRange, including get_enqueued_local_size (OpenCL C 2.0,
// built with -cl-std=CL2.0), with and without a global offset, and a 1-D launch of the same
// kernel (dimensions 1 and 2 report size 1, id 0).
// CASE ndrange3d: --kernel ids3d --global 8,6,4 --local 4,3,2 --offset 1,2,3 --build-options "-cl-std=CL2.0" --arg 0=zero:12288 --out 0
// CASE ndrange3d_odd: --kernel ids3d --global 10,3,5 --local 5,3,1 --build-options "-cl-std=CL2.0" --arg 0=zero:9600 --out 0
// CASE ndrange3d_as1d: --kernel ids3d --global 40 --local 20 --build-options "-cl-std=CL2.0" --arg 0=zero:2560 --out 0

__kernel void ids3d(__global int* out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
    __global int* o = out + 16 * lin;
    for (uint d = 0; d < 3; ++d) {
        o[d] = get_global_id(d) * 1000 + get_local_id(d) * 100 + get_group_id(d);
        o[3 + d] = get_global_size(d) * 100 + get_local_size(d);
        o[6 + d] = get_num_groups(d) * 100 + get_enqueued_local_size(d);
        o[9 + d] = get_global_offset(d);
    }
    o[12] = get_work_dim();
    o[13] = get_global_linear_id();
    o[14] = get_local_linear_id();
    o[15] = (int)lin;
}
