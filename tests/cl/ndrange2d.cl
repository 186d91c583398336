// Every work-item function in a 2-D NDRange with a global offset: each item records its
// global/local/group ids, sizes, offsets and work_dim into a row of 16 ints. Without --local the
// group shape is the implementation's choice, so gids2d records only what does not depend on it.
// CASE ndrange2d: --kernel ids2d --global 24,10 --local 8,5 --offset 3,7 --arg 0=zero:15360 --out 0
// CASE ndrange2d_nolocal: --kernel gids2d --global 20,6 --offset 0,5 --arg 0=zero:3840 --out 0

__kernel void ids2d(__global int* out)
{
    size_t gx = get_global_id(0) - get_global_offset(0);
    size_t gy = get_global_id(1) - get_global_offset(1);
    size_t row = gy * get_global_size(0) + gx;
    __global int* o = out + 16 * row;
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_global_size(0);
    o[3] = get_global_size(1);
    o[4] = get_global_offset(0);
    o[5] = get_global_offset(1);
    o[6] = get_local_id(0);
    o[7] = get_local_id(1);
    o[8] = get_local_size(0) * 100 + get_local_size(1);
    o[9] = get_group_id(0);
    o[10] = get_group_id(1);
    o[11] = get_num_groups(0) * 100 + get_num_groups(1);
    o[12] = get_work_dim();
    o[13] = get_global_id(2) + get_global_size(2) * 10 + get_local_size(2) * 100 + get_num_groups(2) * 1000;
    o[14] = get_local_id(2) + get_group_id(2) + get_global_offset(2);
    o[15] = (get_local_id(0) + get_group_id(0) * get_local_size(0) + get_global_offset(0)) == get_global_id(0);
}

__kernel void gids2d(__global int* out)
{
    size_t gx = get_global_id(0) - get_global_offset(0);
    size_t gy = get_global_id(1) - get_global_offset(1);
    __global int* o = out + 8 * (gy * get_global_size(0) + gx);
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_global_size(0) * 100 + get_global_size(1);
    o[3] = get_global_offset(0) * 100 + get_global_offset(1);
    o[4] = get_work_dim();
    o[5] = get_local_size(0) * get_num_groups(0) == get_global_size(0);
    o[6] = get_group_id(1) * get_local_size(1) + get_local_id(1) + get_global_offset(1) == get_global_id(1);
    o[7] = get_global_id(2) + get_global_size(2);
}
