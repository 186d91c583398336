// Non-uniform sub-group built-ins (OpenCL C 3.0): ballot and its bit count, broadcast_first,
// elect, on sub-groups of 16, 16 and 8 work-items. IGC masks the ballot with %sr0.2 (the
// dispatch mask, spec-decisions E29) and moves predicates into D variables (spec-decisions A27,
// mov-pred-type). pvc: ocloc (IGC 1.0.12504) crashes on them. pocl has no sub-groups.
// DEVICES: skl tgllp dg2 acm-g10
// CASE sg_elect_ballot: --kernel sg_elect_ballot --global 80 --local 40 --build-options "-cl-std=CL3.0" --arg 0=@sgeb --arg 1=zero:640 --out 1
// EXPECT: model sg_elect_ballot
// DATA sgeb: i32 80 rand 492 -1000 1000

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_elect_ballot(__global const int* in, __global int* out)
{
    int g = get_global_id(0);
    int x = in[g];
    uint4 b = sub_group_ballot(x > 0);
    out[2 * g] = (int)sub_group_ballot_bit_count(b) + sub_group_broadcast_first(x);
    out[2 * g + 1] = sub_group_elect() ? x : -1;
}
