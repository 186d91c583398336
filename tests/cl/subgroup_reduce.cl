// Sub-group reductions and queries (cl_khr_subgroups built-ins as provided by cl_intel_subgroups)
// with a required sub-group size of 16: sub_group_reduce_add/min/max, sub_group_broadcast,
// get_sub_group_id/local_id/size, get_num_sub_groups, get_max_sub_group_size. With a group of 40
// the last sub-group of each group is partial (8 work-items).
// CASE subgroup_reduce_48: --kernel sg_reduce --global 96 --local 48 --arg 0=@sgr --arg 1=zero:1536 --out 1
// EXPECT: model subgroup_reduce_48
// CASE subgroup_reduce_40: --kernel sg_reduce --global 120 --local 40 --arg 0=@sgr --arg 1=zero:1920 --out 1
// EXPECT: model subgroup_reduce_40
// DATA sgr: i32 120 rand 431 -1000 1000

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_reduce(__global const int* in, __global int* out)
{
    int gid = get_global_id(0);
    int x = in[gid];
    __global int* o = out + 4 * gid;
    o[0] = sub_group_reduce_add(x);
    o[1] = sub_group_broadcast(x, 0) * 4096 + sub_group_reduce_max(x);
    o[2] = (int)(get_sub_group_id() * 10000 + get_sub_group_local_id() * 100 + get_sub_group_size());
    o[3] = sub_group_reduce_min(x) * 4096 + (int)(get_num_sub_groups() * 100 + get_max_sub_group_size());
}
