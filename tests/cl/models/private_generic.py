"""Expected output of case private_generic (tests/cl/private_generic.cl).

Work-item g (local id l, group base b = g - l) with d = data[g]:
  d > 900: sum over k < 4 of lbuf[(l & ~3) + k] * (k + 1), where lbuf[j] = 2 * data[b + j];
  else:    d * 1 + (d + 1) * 2 + g * 3 + 7g * 4 (its own private array).
No sum leaves the int range (d <= 1000, g < 512).
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

cases, data = read_cl("private_generic.cl")
c = cases["private_generic"]
n, lsz = c["global"][0], c["local"][0]
_, d = data[c["args"][0][1:]]
out = []
for g in range(n):
    l, b = g % lsz, g - g % lsz
    if d[g] > 900:
        out.append(sum(2 * d[b + (l & ~3) + k] * (k + 1) for k in range(4)))
    else:
        p = [d[g], d[g] + 1, g, 7 * g]
        out.append(sum(p[k] * (k + 1) for k in range(4)))
write_outputs([pack("i32", out)])
