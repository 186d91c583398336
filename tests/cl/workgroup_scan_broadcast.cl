// Work-group collectives (OpenCL C 2.0): an inclusive max scan and a broadcast over the group;
// any and all. IGC's SIMD16 code finds the broadcast's work-item with fbl of a UW (spec-decisions
// A27, fbl-type); SIMD16 is asked for so every device gets it. Its any and all store one value to
// SLM from every thread of the group, writes that race with no write (E23), so `--check` passes.
// pocl has no work_group_* built-ins.
// CASE wg_scan_bcast: --kernel wg_scan_bcast --global 192 --local 48 --build-options "-cl-std=CL2.0" --arg 0=@wgsb --arg 1=zero:768 --out 1
// EXPECT: model wg_scan_bcast
// CASE wg_any_all: --kernel wg_any_all --global 192 --local 48 --build-options "-cl-std=CL2.0" --arg 0=@wgsb --arg 1=zero:768 --out 1
// EXPECT: model wg_any_all
// DATA wgsb: i32 192 rand 491 -100000 100000

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void wg_scan_bcast(__global const int* in, __global int* out)
{
    int g = get_global_id(0);
    int x = in[g];
    out[g] = work_group_scan_inclusive_max(x) + work_group_broadcast(x, 7);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void wg_any_all(__global const int* in, __global int* out)
{
    int g = get_global_id(0);
    int x = in[g];
    out[g] = work_group_any(x > 95000) * 2 + work_group_all(x > -97000);
}
