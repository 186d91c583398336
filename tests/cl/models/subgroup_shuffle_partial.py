"""Expected output of case subgroup_shuffle_partial (shuf_partial in tests/cl/subgroup_shuffle.cl).

Groups of 50: sub-groups of 16, 16, 16 and 2 consecutive work-items. Lane l of a sub-group of n
values x[] gets x[(l+3) % n] and x[n-1] + l.
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("subgroup_shuffle.cl")
c = cases["subgroup_shuffle_partial"]
g, lsz = c["global"][0], c["local"][0]
_, x = data[c["args"][0][1:]]
out = [0] * (int(c["args"][1].split(":")[1]) // 4)
for grp in range(0, g, lsz):
    for lo in range(grp, grp + lsz, 16):
        hi = min(lo + 16, grp + lsz)
        xs, n = x[lo:hi], hi - lo
        for l in range(n):
            out[2 * (lo + l)] = xs[(l + 3) % n]
            out[2 * (lo + l) + 1] = (xs[n - 1] + l) & 0xffffffff
write_outputs([pack("u32", out)])
