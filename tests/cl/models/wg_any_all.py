"""Expected output of case wg_any_all (tests/cl/workgroup_scan_broadcast.cl).

Every work-item of a group gets any(in > 95000) * 2 + all(in > -97000) over the group's inputs
(work_group_any / work_group_all: 1 when true, 0 when false).
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("workgroup_scan_broadcast.cl")
c = cases["wg_any_all"]
g, lsz = c["global"][0], c["local"][0]
_, x = data[c["args"][0][1:]]
out = [0] * g
for s in range(0, g, lsz):
    xs = x[s:s + lsz]
    v = 2 * any(t > 95000 for t in xs) + all(t > -97000 for t in xs)
    out[s:s + lsz] = [v] * lsz
write_outputs([pack("i32", out)])
