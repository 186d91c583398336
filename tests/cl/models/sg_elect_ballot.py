"""Expected output of case sg_elect_ballot (tests/cl/subgroup_elect_ballot.cl).

Groups of 40 split into sub-groups of 16, 16 and 8 consecutive work-items
(intel_reqd_sub_group_size(16)), every work-item active. For work-item g in the sub-group
[s, e): out[2g] = the count of in[s .. e-1] that are > 0, plus in[s] (broadcast_first: the
lowest active work-item's value); out[2g+1] = in[g] for the elected (lowest active) work-item
s, else -1.
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("subgroup_elect_ballot.cl")
c = cases["sg_elect_ballot"]
g, lsz = c["global"][0], c["local"][0]
_, x = data[c["args"][0][1:]]
out = [0] * (2 * g)
for grp in range(0, g, lsz):
    for s in range(grp, grp + lsz, 16):
        e = min(s + 16, grp + lsz)
        count = sum(1 for v in x[s:e] if v > 0)
        for i in range(s, e):
            out[2 * i] = count + x[s]
            out[2 * i + 1] = x[i] if i == s else -1
write_outputs([pack("i32", out)])
