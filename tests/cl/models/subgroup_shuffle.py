"""Expected output of case subgroup_shuffle (shuf_full in tests/cl/subgroup_shuffle.cl).

Full sub-groups of 16 consecutive work-items. For lane l of a sub-group with values x[], y[]:
  shuffle(v, c)            = v[c]
  shuffle_down(cur, nxt, d) = cur[l+d] if l+d < 16 else nxt[l+d-16]
  shuffle_up(prev, cur, d)  = cur[l-d] if l >= d else prev[l-d+16]
  shuffle_xor(v, m)         = v[l ^ m]
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

M32 = 0xffffffff
cases, data = read_cl("subgroup_shuffle.cl")
c = cases["subgroup_shuffle"]
g = c["global"][0]
_, x = data[c["args"][0][1:]]
out = [0] * (4 * g)
for base in range(0, g, 16):
    xs = x[base:base + 16]
    ys = [(v * 2654435761) & M32 for v in xs]
    for l in range(16):
        gid = base + l
        out[4 * gid] = xs[15 - l]
        out[4 * gid + 1] = xs[l + 3] if l + 3 < 16 else ys[l + 3 - 16]
        out[4 * gid + 2] = xs[l - 5] if l >= 5 else ys[l - 5 + 16]
        out[4 * gid + 3] = xs[l ^ 5] ^ ys[(l * 7) & 15]
write_outputs([pack("u32", out)])
