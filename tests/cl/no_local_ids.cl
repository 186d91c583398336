// Kernels that never ask for a local id: IGC gives them no local-id blocks (K4), or one unused
// GRF of per-thread data, so their cross-thread data (K5) starts right after r0 or one GRF later.
// Each work-item counts itself into its group's slot and adds n to a total; the group's size and
// count come from the cross-thread data.
// CASE no_local_ids_count: --kernel count_groups --global 384 --local 48 --arg 0=zero:32 --arg 1=zero:4 --arg 2=u32:7 --out 0 --out 1
// CASE no_local_ids_sizes: --kernel group_sizes --global 256 --local 32 --arg 0=zero:32 --out 0

__kernel void count_groups(__global uint* per_group, __global uint* total, uint n)
{
    atomic_inc(&per_group[get_group_id(0)]);
    atomic_add(total, n);
}

__kernel void group_sizes(__global uint* out)
{
    atomic_add(&out[get_group_id(0)], (uint)(get_local_size(0) * 100 + get_num_groups(0)));
}
