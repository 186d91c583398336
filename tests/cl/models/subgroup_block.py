"""Expected output of case subgroup_block (sg_block in tests/cl/subgroup_scan_block.cl).

Sub-group s (16 consecutive work-items) owns in[48s .. 48s+47]. Lane l reads a = in[48s+l] and
b = (in[48s+16+l], in[48s+32+l]), then writes out[48s+l] = b.x ^ a, out[48s+16+l] = a + l and
out[48s+32+l] = b.y * 3 (uint arithmetic).
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, pack, write_outputs

M32 = 0xffffffff
cases, data = read_cl("subgroup_scan_block.cl")
c = cases["subgroup_block"]
_, x = data[c["args"][0][1:]]
out = [0] * (int(c["args"][1].split(":")[1]) // 4)
for s in range(c["global"][0] // 16):
    p = 48 * s
    for l in range(16):
        a, bx, by = x[p + l], x[p + 16 + l], x[p + 32 + l]
        out[p + l] = bx ^ a
        out[p + 16 + l] = (a + l) & M32
        out[p + 32 + l] = (by * 3) & M32
write_outputs([pack("u32", out)])
