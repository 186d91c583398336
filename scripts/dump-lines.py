#!/usr/bin/env python3
"""Report, per mnemonic, how many instruction lines of IGC's dumps visakit reads.

For each dump file (default: /work/notes/dumps/*/*/*.visaasm) the lines of the
chosen mnemonics are put into a small kernel of their own (the file's
declarations, those lines, `ret`), which is then
  1. checked (`visakit check`, `--grf-size 64` for pvc): a line passes if no
     error names it (named warnings are counted apart);
  2. printed (`visakit fmt`): the output must be a fixed point of fmt;
  3. assembled and disassembled (`visakit asm`, `visakit dis`): the text must
     come back as fmt printed it.
Other families' lines are left out, so a file's memory instructions do not hide
the lines asked about.

  scripts/dump-lines.py [--visakit PATH] [--family alu|core|all|m1,m2,...] [-v] [DUMP...]
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ALU = ("add3 add3.o addc asr avg bfe bfi bfn bfrev cbit cos div divm dp4a exp fbh fbl fcvt frc inv invm log lrp lzd mad "
       "madw max min mod mulh plane pow rndd rnde rndu rndz rol ror rsqrt rsqtm sad2 sad2add sin sqrt sqrtm srnd subb").split()
CORE = "add mul and or xor not shl shr mov sel setp cmp".split()
FAMILIES = {"alu": ALU, "core": CORE, "all": ALU + CORE}

INSN = re.compile(r"^\s*(\([!\w.]+\)\s+)?([A-Za-z_][\w]*(?:\.o\b)?)")


def mnemonic(line):
    m = INSN.match(line)
    if not m:
        return None
    mn = m.group(2)
    return mn


def split_file(path):
    header, code = [], []
    for no, raw in enumerate(open(path, errors="replace"), 1):
        line = raw.split("///")[0].rstrip()
        s = line.strip()
        if not s or s.startswith("//"):
            continue
        if s.startswith(".function") or s.startswith(".global_function"):
            continue
        if s.startswith("."):
            header.append(line)
            continue
        if re.match(r"^[\w.]+:\s*$", s):  # label
            continue
        code.append((no, line))
    return header, code


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--visakit", default=os.path.join(os.path.dirname(__file__), "..", "build", "default", "visakit"))
    ap.add_argument("--family", default="alu")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failing line and its first diagnostic")
    ap.add_argument("dumps", nargs="*")
    a = ap.parse_args()
    wanted = set(FAMILIES.get(a.family, a.family.split(",")))
    files = a.dumps or sorted(glob.glob("/work/notes/dumps/*/*/*.visaasm"))
    total, ok, warned = collections.Counter(), collections.Counter(), collections.Counter()
    fails = collections.defaultdict(list)
    fmt_bad, rt_bad, decl_errs, text_bad = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            header, code = split_file(path)
            picked = [(no, l) for no, l in code if (mnemonic(l) or "").split(".")[0] in wanted or mnemonic(l) in wanted]
            if not picked:
                continue
            grf = ["--grf-size", "64"] if "/pvc/" in path else []
            k = os.path.join(tmp, "k.visaasm")
            lines = header + [l for _, l in picked] + ["    ret (M1, 1)"]
            first = len(header) + 1
            with open(k, "w") as f:
                f.write("\n".join(lines) + "\n")
            r = run([a.visakit, "check", *grf, k])
            errs, warns = collections.defaultdict(list), set()
            for d in (r.stdout + r.stderr).splitlines():
                m = re.match(re.escape(k) + r":(\d+):\d+: (error|warning): (.*)", d)
                if m:
                    (errs[int(m.group(1))].append(m.group(3)) if m.group(2) == "error" else warns.add(int(m.group(1))))
            for i, (no, l) in enumerate(picked):
                mn = mnemonic(l)
                key = mn if mn.split(".")[0] != "bfn" else "bfn"
                total[key] += 1
                if first + i in errs:
                    fails[key].append((path, no, l.strip(), errs[first + i][0]))
                else:
                    ok[key] += 1
                    if first + i in warns:
                        warned[key] += 1
            hdr_errs = [e for ln, es in errs.items() if ln < first for e in es]
            if hdr_errs:
                decl_errs.append((path, hdr_errs[0]))
            if any(ln >= first for ln in errs):
                continue  # fmt needs the instructions to be valid
            # Declaration errors (another family's) do not stop the printer.
            nv = ["--no-verify"] if hdr_errs else []
            f1 = run([a.visakit, "fmt", *grf, *nv, k])
            if f1.returncode:
                fmt_bad.append((path, f1.stderr.strip()[:200]))
                continue
            # Each line must print back as IGC wrote it (spaces normalised).
            printed = [l for l in f1.stdout.splitlines() if l.startswith("    ")][: len(picked)]
            for (no, l), q in zip(picked, printed):
                if l.split() != q.split():
                    text_bad.append((path, no, l.strip(), q.strip()))
            k1 = os.path.join(tmp, "k1.visaasm")
            open(k1, "w").write(f1.stdout)
            f2 = run([a.visakit, "fmt", *grf, *nv, k1])
            if f2.stdout != f1.stdout:
                fmt_bad.append((path, "fmt is not a fixed point"))
            if hdr_errs:
                continue  # asm verifies
            isa = os.path.join(tmp, "k.isa")
            r1 = run([a.visakit, "asm", *grf, k1, "-o", isa])
            r2 = run([a.visakit, "dis", *grf, isa]) if r1.returncode == 0 else r1
            if r2.returncode or r2.stdout != f1.stdout:
                rt_bad.append((path, (r2.stderr or "text differs").strip()[:200]))
    print(f"{'mnemonic':<10} {'lines':>6} {'read':>6} {'warned':>7} {'failed':>7}")
    for mn in sorted(total):
        print(f"{mn:<10} {total[mn]:>6} {ok[mn]:>6} {warned[mn]:>7} {total[mn] - ok[mn]:>7}")
        for p, no, l, e in fails[mn][: (100000 if a.verbose else 2)]:
            print(f"    {p}:{no}: {l}\n        {e}")
    print(f"all: {sum(total.values())} lines, {sum(ok.values())} read, {sum(warned.values())} with a named warning")
    print(f"fmt not a fixed point / failing: {len(fmt_bad)} files; asm+dis round trip differing: {len(rt_bad)} files")
    print(f"lines printed differently from IGC's text: {len(text_bad)}")
    for p, no, l, q in text_bad[:20]:
        print(f"    {p}:{no}: {l}\n        printed: {q}")
    if decl_errs:
        print(f"declaration errors (fmt run with --no-verify, asm/dis skipped): {len(decl_errs)} files, e.g.")
        print(f"    {decl_errs[0][0]}: {decl_errs[0][1]}")
    for p, e in (fmt_bad + rt_bad)[:200]:
        print(f"    {p}: {e}")
    return 0 if sum(total.values()) == sum(ok.values()) and not fmt_bad and not rt_bad and not text_bad else 1


if __name__ == "__main__":
    sys.exit(main())
