"""Expected output of case subgroup_block_narrow (tests/cl/subgroup_block_narrow.cl).

Sub-group s (8 consecutive work-items) owns bytes [32s, 32s + 32). A block read gives lane l the
l-th element after the pointer: byte in[32s + l], and the little-endian short at in[32s + 16 + 2l].
Lane l writes (byte + 3l) mod 256 at out[32s + l] and short ^ (l << 12 | 0x0f0f) at
out[32s + 16 + 2l]; bytes 32s + 8 .. 32s + 15 stay 0.
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, write_outputs

cases, data = read_cl("subgroup_block_narrow.cl")
c = cases["subgroup_block_narrow"]
_, x = data[c["args"][0][1:]]
out = bytearray(int(c["args"][1].split(":")[1]))
for s in range(c["global"][0] // 8):
    p = 32 * s
    for l in range(8):
        out[p + l] = (x[p + l] + 3 * l) & 0xff
        v = x[p + 16 + 2 * l] | x[p + 17 + 2 * l] << 8
        v ^= l << 12 | 0x0f0f
        out[p + 16 + 2 * l] = v & 0xff
        out[p + 17 + 2 * l] = v >> 8
write_outputs([bytes(out)])
