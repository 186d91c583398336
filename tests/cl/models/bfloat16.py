"""Expected output of case bfloat16 (tests/cl/bfloat16.cl).

F -> BF keeps F's upper 16 bits, rounded to nearest even on the lower 16 (2_datatypes.md conversion
rules; IGC's prolog sets %cr0's F denormal bit, so denormals convert like any value, E22); a NaN
stays a NaN, made quiet (bit 6 of the BF set), its upper payload bits kept (E14: a MOV copies a
NaN). BF -> F is exact: the 16 bits above 16 zero bits, NaNs included.
"""
import sys, os, struct
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import read_cl, write_outputs

cases, data = read_cl("bfloat16.cl")
c = cases["bfloat16"]
_, x = data[c["args"][0][1:]]
_, h = data[c["args"][1][1:]]
n = c["global"][0]
xs, hs = x[:n], h[:n]


def to_bf(b):
    if (b & 0x7fffffff) > 0x7f800000:
        return (b >> 16) | 0x0040
    return ((b + 0x7fff + ((b >> 16) & 1)) >> 16) & 0xffff


o16 = struct.pack("<%dH" % n, *[to_bf(b) for b in xs])
o32 = struct.pack("<%dI" % n, *[v << 16 for v in hs])
write_outputs([o16, o32])
