"""Expected output of case wg_scan_bcast (tests/cl/workgroup_scan_broadcast.cl).

Work-item g of a group starting at s: out[g] = max(in[s .. g]) + in[s + 7] (the inclusive max
scan over the group in local-id order, plus the value of local id 7; |in| <= 100000, no overflow).
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("workgroup_scan_broadcast.cl")
c = cases["wg_scan_bcast"]
g, lsz = c["global"][0], c["local"][0]
_, x = data[c["args"][0][1:]]
out = [0] * g
for s in range(0, g, lsz):
    best = -2 ** 31
    for i in range(s, s + lsz):
        best = max(best, x[i])
        out[i] = best + x[s + 7]
write_outputs([pack("i32", out)])
