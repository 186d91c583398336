"""Shared helpers for the tests/cl models: the DATA generators of tests/cl/README.md and the
CASE/DATA line parser, in plain Python 3 (standard library only).

A model imports this module (it sits beside the models), reads its own CASE line and DATA lines
from the .cl file, computes the expected output bytes independently and writes them with
write_outputs().
"""
import os
import shlex
import struct
import sys

CL_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_FMT = {"i8": "b", "u8": "B", "i16": "h", "u16": "H", "i32": "i", "u32": "I",
        "i64": "q", "u64": "Q", "f32": "f", "f64": "d"}
_BITS = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32,
         "i64": 64, "u64": 64, "f32": 32, "f64": 64}
M64 = (1 << 64) - 1


def splitmix64(seed):
    """Yields the splitmix64 sequence for a 64-bit seed."""
    state = seed & M64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def parse_int(s):
    s = s.strip()
    neg = s.startswith("-")
    body = s[1:] if s[:1] in "+-" else s
    v = int(body, 16) if body.lower().startswith("0x") else int(body, 10)
    return -v if neg else v


def wrap(t, v):
    """Two's complement wrap of an integer to type t (signed types come back signed)."""
    bits = _BITS[t]
    v &= (1 << bits) - 1
    if t.startswith("i") and v >> (bits - 1):
        v -= 1 << bits
    return v


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def generate(t, count, gen, args):
    """The values (Python ints or floats, already rounded to t) of one DATA line."""
    isf = t in ("f32", "f64")
    rnd = to_f32 if t == "f32" else float
    if gen == "iota":
        if isf:
            s, st = float(args[0]), float(args[1])
            return [rnd(s + float(i) * st) for i in range(count)]
        s, st = parse_int(args[0]), parse_int(args[1])
        return [wrap(t, s + i * st) for i in range(count)]
    if gen == "const":
        return [rnd(float(args[0])) if isf else wrap(t, parse_int(args[0]))] * count
    if gen == "rand":
        g = splitmix64(parse_int(args[0]))
        lo, hi = parse_int(args[1]), parse_int(args[2])
        rng = (hi - lo + 1) & M64
        return [wrap(t, lo + (x % rng if rng else x)) for x in (next(g) for _ in range(count))]
    if gen == "frand":
        g = splitmix64(parse_int(args[0]))
        lo, hi = float(args[1]), float(args[2])
        out = []
        for _ in range(count):
            u = (next(g) >> 11) * 2.0 ** -53
            out.append(rnd(lo + (hi - lo) * u))
        return out
    if gen == "list":
        if len(args) != count:
            raise ValueError("list has %d values, count is %d" % (len(args), count))
        return [rnd(float(a)) if isf else wrap(t, parse_int(a)) for a in args]
    raise ValueError("unknown generator " + gen)


def pack(t, values):
    return struct.pack("<%d%s" % (len(values), _FMT[t]), *values)


def unpack(t, data):
    n = len(data) // struct.calcsize(_FMT[t])
    return list(struct.unpack("<%d%s" % (n, _FMT[t]), data))


def read_cl(cl_file):
    """Returns (cases, data): cases maps a case name to its parsed launch, data maps a DATA name
    to (type, values)."""
    path = cl_file if os.path.isabs(cl_file) else os.path.join(CL_DIR, cl_file)
    cases, data = {}, {}
    with open(path) as f:
        for line in f:
            if line.startswith("// CASE "):
                name, rest = line[len("// CASE "):].split(":", 1)
                tk = shlex.split(rest)
                c = {"global": None, "local": None, "offset": None, "args": {}, "outs": []}
                i = 0
                while i < len(tk):
                    opt, val = tk[i], tk[i + 1]
                    if opt in ("--global", "--local", "--offset"):
                        c[opt[2:]] = [int(v) for v in val.split(",")]
                    elif opt == "--arg":
                        k, spec = val.split("=", 1)
                        c["args"][int(k)] = spec
                    elif opt == "--out":
                        c["outs"].append(int(val))
                    else:
                        c[opt[2:]] = val
                    i += 2
                cases[name.strip()] = c
            elif line.startswith("// DATA "):
                name, rest = line[len("// DATA "):].split(":", 1)
                tk = rest.split()
                data[name.strip()] = (tk[0], generate(tk[0], int(tk[1]), tk[2], tk[3:]))
    return cases, data


def write_outputs(blobs):
    """Writes blobs[k] to the k-th file named on the command line (one per --out, in order)."""
    paths = sys.argv[1:]
    if len(paths) != len(blobs):
        sys.exit("usage: %s OUT_FILE x%d (one per --out, in order)" % (sys.argv[0], len(blobs)))
    for p, b in zip(paths, blobs):
        with open(p, "wb") as f:
            f.write(b)
