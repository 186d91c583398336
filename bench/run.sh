#!/usr/bin/env bash
# Runs the visakit-bench suite and prints the table of docs/performance.md (markdown).
#
#   bench/run.sh [PATH/TO/visakit-bench] [extra Google Benchmark flags...]
#   bench/run.sh --render RESULTS.json     # only print the tables of an earlier run
#
# Environment: REPS (repetitions per benchmark, median reported; default 3),
#              JSON (keep the raw results at this path; default: a temp file, removed).
# Also available as `cmake --build --preset default --target bench`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
render_only=""
if [[ "${1:-}" == "--render" ]]; then
  render_only="${2:?--render needs a JSON file}"
fi
exe="${1:-}"
if [[ $# -gt 0 ]]; then shift; fi
if [[ -n "$render_only" ]]; then
  :
elif [[ -z "$exe" ]]; then
  for c in "$root/build/default/bench/visakit-bench" "$root/build/bench/bench/visakit-bench"; do
    if [[ -x "$c" ]]; then exe="$c"; break; fi
  done
fi
if [[ -z "$render_only" && ( -z "$exe" || ! -x "$exe" ) ]]; then
  echo "run.sh: visakit-bench not found; build it: cmake --build --preset default --target visakit-bench" >&2
  exit 2
fi

reps="${REPS:-3}"
json="${JSON:-}"
tmp=""
if [[ -n "$render_only" ]]; then
  json="$render_only"
  cmd=("${CMDLINE:-(see the JSON context)}")
else
  if [[ -z "$json" ]]; then
    tmp="$(mktemp -t visakit-bench.XXXXXX.json)"
    json="$tmp"
    trap 'rm -f "$tmp"' EXIT
  fi
  cmd=("$exe" "--benchmark_repetitions=$reps" "--benchmark_report_aggregates_only=true"
       "--benchmark_out=$json" "--benchmark_out_format=json" "$@")
  echo "running: ${cmd[*]}" >&2
  "${cmd[@]}" >&2
fi

model="$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)"
CMD="${cmd[*]}" MODEL="$model" NPROC="$(nproc)" KERNEL="$(uname -sr)" \
  CXX_VERSION="$(${CXX:-g++} --version 2>/dev/null | head -n1 || true)" \
  python3 - "$json" <<'PY'
import json, os, re, sys

with open(sys.argv[1]) as f:
    data = json.load(f)
ctx = data.get("context", {})

# name -> entry; the median of the repetitions if there are aggregates, else the single run
runs, medians, order = {}, {}, []
for b in data.get("benchmarks", []):
    parts = [p for p in b.get("run_name", b["name"]).split("/")
             if not re.match(r"^(min_time:|real_time$|iterations:|repeats:)", p)]
    name = "/".join(parts)
    if name not in order:
        order.append(name)
    if b.get("run_type") == "aggregate":
        if b.get("aggregate_name") == "median":
            medians[name] = b
    else:
        runs.setdefault(name, b)
res = dict(runs)
res.update(medians)
errors = {}
for b in data.get("benchmarks", []):
    if b.get("error_occurred"):
        parts = [p for p in b.get("run_name", b["name"]).split("/")
                 if not re.match(r"^(min_time:|real_time$|iterations:|repeats:)", p)]
        errors.setdefault("/".join(parts), b.get("error_message", "error"))

def rate(name):
    b = res.get(name)
    if b is None or name in errors:
        return None
    return b.get("items_per_second")

def fmt_rate(v):
    if v is None:
        return "n/a"
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:.3g} {suf}/s"
    return f"{v:.3g} /s"

def fmt_x(v, digits=3):
    return "n/a" if v is None else f"{v:.{digits}f}"

cores = int(os.environ.get("NPROC", "1"))
all_jobs = max(j for j in [1] + [int(m.group(1)) for n in res for m in [re.search(r"/jobs:(\d+)$", n)] if m])
ratio_target = {"gather_256MiB": 0.75, "gather_1MiB": 0.35}
speedup_target = {"gather_1MiB", "gather_256MiB", "dispatch"}
workloads = []
for n in order:
    m = re.match(r"^BM_Native/(.+)$", n)
    if m and m.group(1) not in workloads:
        workloads.append(m.group(1))

print("## Native vs. simulated throughput\n")
print(f"Machine: {os.environ.get('MODEL') or 'unknown CPU'}, {os.environ.get('NPROC')} cores "
      f"(benchmark context: {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz), "
      f"{os.environ.get('KERNEL', '')}, {os.environ.get('CXX_VERSION', '')}; "
      f"load average at start {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}.\n")
print(f"Command: `{os.environ.get('CMD', '')}`\n")
print(f"items/s = data elements per second (median of the repetitions). Ratio, paired = the median over alternating "
      f"native and simulated runs (`BM_Pair`, 1 host thread) of native time / simulated time of each pair: the figure "
      f"the targets are judged by, since a shared machine's load moves both runs of a pair alike. Ratio, separate = "
      f"simulated on 1 host thread / native, from the two separate benchmarks (both single-threaded). Speed-up, separate = simulated on {all_jobs} host threads / on 1, from the two separate benchmarks; "
      f"'CPUs busy' = process CPU time / wall time while the {all_jobs}-thread benchmark ran (below {all_jobs} means other load "
      f"took cores, and the speed-up is a lower bound). Speed-up, paired = the median over alternating runs on 1 and on "
      f"{all_jobs} host threads (`BM_Scale`) of the time on 1 / the time on {all_jobs} of each pair.\n")
print(f"| workload | unit | native | sim, 1 thread | ratio, paired | ratio, separate | ratio target | sim, {all_jobs} threads | speed-up, separate | speed-up, paired | speed-up target |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for w in workloads:
    nat = rate(f"BM_Native/{w}")
    s1 = rate(f"BM_Sim/{w}/jobs:1")
    sn = rate(f"BM_Sim/{w}/jobs:{all_jobs}") if all_jobs > 1 else None
    ratio = s1 / nat if nat and s1 else None
    pb = res.get(f"BM_Pair/{w}/jobs:1")
    paired = pb.get("ratio") if pb and f"BM_Pair/{w}/jobs:1" not in errors else None
    sb = res.get(f"BM_Scale/{w}/jobs:{all_jobs}")
    sp_paired = sb.get("ratio") if sb and f"BM_Scale/{w}/jobs:{all_jobs}" not in errors else None
    sp = sn / s1 if sn and s1 else None
    unit = (res.get(f"BM_Native/{w}") or {}).get("label", "")
    rt = ratio_target.get(w, 0.25)
    st = f">= {0.9 * all_jobs:.2g}" if w in speedup_target and all_jobs > 1 else "-"
    err = [errors[n] for n in (f"BM_Native/{w}", f"BM_Sim/{w}/jobs:1", f"BM_Sim/{w}/jobs:{all_jobs}", f"BM_Pair/{w}/jobs:1",
                               f"BM_Scale/{w}/jobs:{all_jobs}") if n in errors]
    cu = (res.get(f"BM_Sim/{w}/jobs:{all_jobs}") or {}).get("cpus_used")
    spt = fmt_x(sp, 2) + ("" if cu is None or sp is None else f" ({cu:.1f} CPUs busy)")
    row = f"| {w} | {unit} | {fmt_rate(nat)} | {fmt_rate(s1)} | {fmt_x(paired)} | {fmt_x(ratio)} | >= {rt} | {fmt_rate(sn)} | {spt} | {fmt_x(sp_paired, 2)} | {st} |"
    if err:
        row += f" **error: {err[0]}**"
    print(row)

print("\n## Whole runs (processes)\n")
print("`visakit run bench/kernels/gather.visaasm` on the workload's input files, from start to Dst written (`--out`), "
      "against `visakit-bench-native-gather` (bench/process/: reads the files, the same loop, writes Dst), alternating "
      "(`BM_Process`). Ratio = the median over the pairs of native time / visakit time; memory = the median of "
      "visakit's peak RSS / native's; both processes timed by `visakit-bench-spawn`.\n")
print("| workload | tier | pairs | native, s | visakit, s | ratio | ratio target | native peak RSS | visakit peak RSS | memory ratio | memory target |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n in order:
    m = re.match(r"^BM_Process/(.+)/jobs:1(/reference)?$", n)
    if not m:
        continue
    w, tier = m.group(1), "reference" if m.group(2) else "fast"
    b = res.get(n) or {}
    rt = f">= {ratio_target.get(w, 0.25)}" if tier == "fast" else "-"
    row = (f"| {w} | {tier} | {int(b.get('pairs', 0))} | {b.get('native_seconds', 0):.4g} | {b.get('sim_seconds', 0):.4g} | "
           f"{fmt_x(b.get('ratio'))} | {rt} | {b.get('native_maxrss_MiB', 0):.1f} MiB | {b.get('sim_maxrss_MiB', 0):.1f} MiB | "
           f"{fmt_x(b.get('mem_ratio'))} | <= 1.1 |")
    if n in errors:
        row += f" **error: {errors[n]}**"
    print(row)

cl_proc = [n for n in order if n.startswith("BM_ClProcess/")]
if cl_proc:
    print("\n`visakit cl tests/cl/saxpy.cl` (kernel saxpy, 1,024 work-items) from start to y written (`--out`), reading "
          "the compile a private compile cache keeps, against the same run with `--no-cache` (ocloc compiles), "
          "alternating (`BM_ClProcess`). Ratio = the median over the pairs of the compiling run's time / the cached run's.\n")
    print("| case | pairs | compiling, s | cached, s | ratio | compiling peak RSS | cached peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n in cl_proc:
        b = res.get(n) or {}
        row = (f"| {n.split('/', 1)[1]} | {int(b.get('pairs', 0))} | {b.get('compiling_seconds', 0):.4g} | "
               f"{b.get('cached_seconds', 0):.4g} | {fmt_x(b.get('ratio'), 1)} | {b.get('compiling_maxrss_MiB', 0):.1f} MiB | "
               f"{b.get('cached_maxrss_MiB', 0):.1f} MiB |")
        if n in errors:
            row += f" **error: {errors[n]}**"
        print(row)

cl_rows = {}
for n in order:
    m = re.match(r"^BM_Cl/(.+)/jobs:(\d+)$", n)
    if m:
        cl_rows.setdefault(m.group(1), {})[int(m.group(2))] = n
if cl_rows:
    import math
    most = max(j for r in cl_rows.values() for j in r)
    print("\n## visakit cl against pocl and Oclgrind (the OpenCL corpus)\n")
    print("Each case of tests/cl with its own launch and inputs, compiled by ocloc for the case's first device (`BM_Cl`). "
          "Times are the median wall time of a launch: visakit's simulation (`cl::Result::runSeconds`, the fast tier; "
          "not the load of the dump) in one `cl::Session` after a first launch that prepares the kernel (that first "
          "launch's time, decoding and planning included, is 'visakit, cold'), pocl's and Oclgrind's from "
          "`clEnqueueNDRangeKernel` to completion (not the build, after a first launch). "
          f"Ratio to pocl = pocl's time / visakit's (visakit's throughput as a share of pocl's), on 1 and on {most} host "
          f"threads (pocl with POCL_MAX_PTHREAD_COUNT the same); Oclgrind (one thread) against visakit on {most}; the "
          "reference tier against the fast tier on 1. Outputs are compared with pocl's first (cases the corpus compares "
          "with a model or a tolerance are only timed).\n")
    def geo(v):
        v = [x for x in v if x and x > 0]
        return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None
    def cnt(n, k):
        b = res.get(n) or {}
        return None if n in errors else b.get(k)
    def fsec(v):
        return "n/a" if v is None else (f"{v * 1e3:.3g} ms" if v >= 1e-3 else f"{v * 1e6:.3g} us")
    summ = {"pocl1": [], "poclN": [], "ocl": [], "ref": [], "cold": []}
    lines = []
    for case, r in cl_rows.items():
        n1, nn = r.get(1), r.get(most)
        label = (res.get(nn or n1) or {}).get("label", "") or (res.get(n1 or nn) or {}).get("label", "")
        dev, _, note = label.partition("; ")
        wi = cnt(n1 or nn, "work_items")
        p1, pn, og, rf = cnt(n1, "pocl_ratio"), cnt(nn, "pocl_ratio"), cnt(nn, "oclgrind_ratio"), cnt(n1, "reference_ratio")
        summ["pocl1"].append(p1); summ["poclN"].append(pn); summ["ocl"].append(og); summ["ref"].append(rf)
        cold, poclN = cnt(nn, "visakit_cold_seconds"), cnt(nn, "pocl_seconds")
        summ["cold"].append(poclN / cold if cold and poclN else None)
        row = (f"| {case} | {dev} | {'n/a' if wi is None else f'{int(wi):,}'} | {fsec(cnt(n1, 'visakit_seconds'))} | "
               f"{fsec(cnt(n1, 'pocl_seconds'))} | {fmt_x(p1)} | {fsec(cnt(nn, 'visakit_seconds'))} | {fsec(cnt(nn, 'pocl_seconds'))} | "
               f"{fmt_x(pn)} | {fsec(cold)} | {fsec(cnt(nn, 'oclgrind_seconds'))} | {fmt_x(og, 1)} | {fmt_x(rf, 1)} |")
        err = [errors[x].split("\n")[0] for x in (n1, nn) if x in errors]
        if err:
            row += f" **error: {err[0]}**"
        elif note:
            row += f" ({note})"
        lines.append(row)
    def summary(v, digits=3):
        v = [x for x in v if x is not None]
        if not v:
            return "n/a"
        return f"geomean {fmt_x(geo(v), digits)}, min {fmt_x(min(v), digits)}, max {fmt_x(max(v), digits)} ({len(v)} cases)"
    print(f"- ratio to pocl, {most} host threads: {summary(summ['poclN'])}; below 0.05: "
          f"{sum(1 for x in summ['poclN'] if x is not None and x < 0.05)} (target: geomean >= 0.25, none below 0.05)")
    print(f"- ratio to pocl, 1 host thread: {summary(summ['pocl1'])}")
    print(f"- ratio to pocl of the cold launch (the first of the session, decoding and planning included), {most} host "
          f"threads: {summary(summ['cold'])}")
    print(f"- Oclgrind's time / visakit's ({most} host threads): {summary(summ['ocl'], 1)}; below 500: "
          f"{sum(1 for x in summ['ocl'] if x is not None and x < 500)} (target: none)")
    print(f"- reference tier's time / fast tier's (1 host thread): {summary(summ['ref'], 1)}\n")
    print(f"| case | device | work-items | visakit, 1 thread | pocl, 1 thread | ratio to pocl, 1 | visakit, {most} threads | "
          f"pocl, {most} threads | ratio to pocl, {most} | visakit, cold, {most} threads | Oclgrind | Oclgrind / visakit | "
          "reference / fast |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for l in lines:
        print(l)

print("\n## --check\n")
print("Slow-down = check off / check on from the two separate benchmarks; paired = the median over alternating "
      "runs with and without --check (`BM_CheckCost`) of the time on / the time off of each pair.\n")
print("| workload | sim, 1 thread, check off | check on | slow-down | slow-down, paired | target |")
print("|---|---:|---:|---:|---:|---:|")
for n in order:
    m = re.match(r"^BM_SimCheck/(.+)/jobs:1$", n)
    if not m:
        continue
    w = m.group(1)
    off, on = rate(f"BM_Sim/{w}/jobs:1"), rate(n)
    slow = off / on if off and on else None
    cb = res.get(f"BM_CheckCost/{w}/jobs:1")
    paired = cb.get("ratio") if cb and f"BM_CheckCost/{w}/jobs:1" not in errors else None
    err = [errors[x] for x in (n, f"BM_CheckCost/{w}/jobs:1") if x in errors]
    print(f"| {w} | {fmt_rate(off)} | {fmt_rate(on)} | {fmt_x(slow, 2)} x | {fmt_x(paired, 2)} x | <= 3 x |"
          + (f" **error: {err[0]}**" if err else ""))

print("\n## Fixed cost of a launch\n")
print("An empty kernel (`launch_only.visaasm`) with the workload's surfaces and thread space, 1 host thread: "
      "what `sim::run` costs before the first instruction. Share = its time / the workload's simulated time.\n")
print("| workload | empty launch, ms per run | as items/s (ceiling) | share of sim, 1 thread |")
print("|---|---:|---:|---:|")
for w in workloads:
    n = f"BM_SimLaunch/{w}/jobs:1"
    if n not in res:
        continue
    lr, s1 = rate(n), rate(f"BM_Sim/{w}/jobs:1")
    ms = res[n].get("real_time")
    unit = res[n].get("time_unit", "ms")
    share = s1 / lr if lr and s1 else None
    print(f"| {w} | {ms:.3g} {unit} | {fmt_rate(lr)} | {'n/a' if share is None else f'{100 * share:.0f} %'} |")

print("\n## assemble (parse + verify + encode)\n")
print("| kernel | instructions/s | MB/s | target |")
print("|---|---:|---:|---:|")
for n in order:
    m = re.match(r"^BM_Assemble/(\d+)$", n)
    if not m:
        continue
    b = res[n]
    ips = b.get("items_per_second")
    mbs = b.get("bytes_per_second", 0) / 1e6
    print(f"| {int(m.group(1)):,} instructions | {fmt_rate(ips)} | {mbs:.1f} | >= 2 M/s |")

print("\n## Memory of a simulated launch (1 host thread, the verification run)\n")
print("Peak RSS growth during one `sim::run`, against the bytes of the bound surfaces (+ URB).\n")
print("| workload | simulated threads | surfaces MiB | peak growth MiB | sim instructions / item |")
print("|---|---:|---:|---:|---:|")
for w in workloads:
    b = res.get(f"BM_Sim/{w}/jobs:1")
    if not b or f"BM_Sim/{w}/jobs:1" in errors:
        continue
    pe = b.get("peak_extra_MiB")
    print(f"| {w} | {int(b.get('sim_threads', 0)):,} | {b.get('surfaces_MiB', 0):.1f} | "
          f"{'n/a' if pe is None else f'{pe:.1f}'} | {b.get('insts_per_item', 0):.3f} |")
PY
