"""Expected output of case subgroup_scan (sg_scan in tests/cl/subgroup_scan_block.cl).

Groups of 40: sub-groups of 16, 16 and 8 consecutive work-items. Lane l gets the inclusive and
exclusive prefix sums and the inclusive prefix max over its sub-group, and any(x > 900) * 2 +
all(x > -990) over the whole sub-group.
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("subgroup_scan_block.cl")
c = cases["subgroup_scan"]
g, lsz = c["global"][0], c["local"][0]
_, x = data[c["args"][0][1:]]
out = [0] * (4 * g)
for grp in range(0, g, lsz):
    for lo in range(grp, grp + lsz, 16):
        xs = x[lo:min(lo + 16, grp + lsz)]
        vote = 2 * any(v > 900 for v in xs) + all(v > -990 for v in xs)
        run, best = 0, -2 ** 31
        for l, v in enumerate(xs):
            out[4 * (lo + l) + 1] = run
            run += v
            best = max(best, v)
            out[4 * (lo + l)] = run
            out[4 * (lo + l) + 2] = best
            out[4 * (lo + l) + 3] = vote
write_outputs([pack("i32", out)])
