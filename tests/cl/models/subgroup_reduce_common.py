"""Model of sg_reduce (tests/cl/subgroup_reduce.cl), shared by its two cases.

Sub-groups: size 16 (intel_reqd_sub_group_size), formed from consecutive local ids of a 1-D
work-group; the last one of a group holds the remainder (local size % 16) when that is not 0.
"""
from clcorpus import read_cl, pack, wrap


def model(case):
    cases, data = read_cl("subgroup_reduce.cl")
    c = cases[case]
    g, l = c["global"][0], c["local"][0]
    _, x = data[c["args"][0][1:]]
    out = [0] * (int(c["args"][1].split(":")[1]) // 4)
    nsg = (l + 15) // 16
    for grp in range(g // l):
        for s in range(nsg):
            lo = grp * l + s * 16
            hi = min(lo + 16, (grp + 1) * l)
            vals = x[lo:hi]
            for gid in range(lo, hi):
                lane = gid - lo
                out[4 * gid + 0] = wrap("i32", sum(vals))
                out[4 * gid + 1] = vals[0] * 4096 + max(vals)
                out[4 * gid + 2] = s * 10000 + lane * 100 + (hi - lo)
                out[4 * gid + 3] = min(vals) * 4096 + nsg * 100 + 16
    return [pack("i32", out)]
