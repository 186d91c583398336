#!/usr/bin/env bash
# Smoke test of the benchmark suite (issue 5): the gather_1MiB benchmarks run once each
# (every simulated configuration, and each side of the whole-process runs, is first
# checked byte for byte against the native output), and bench/run.sh renders their
# paired figures. Asserts what the table says, never a time.
#   bench_smoke.sh PATH/TO/visakit-bench PATH/TO/bench/run.sh
set -euo pipefail
exe="$1"
runsh="$2"
out="$(REPS=1 "$runsh" "$exe" '--benchmark_filter=^BM_[A-Za-z]+/gather_1MiB(/|$)' 2>/dev/null)"
fail() {
  echo "bench_smoke: $1" >&2
  echo "$out" >&2
  exit 1
}
num='[0-9]+\.[0-9]+'
if grep -q '\*\*error' <<<"$out"; then fail "a benchmark reported an error"; fi
# workload | unit | native | sim 1 | ratio paired | ratio separate | target | sim n | speed-up separate | speed-up paired | target
# (one host CPU: no multi-threaded benchmarks, so no speed-up)
speedup="$num"
if [[ "$(nproc)" -le 1 ]]; then speedup="n/a"; fi
grep -Eq "^\| gather_1MiB \| elements \| [^|]+/s \| [^|]+/s \| $num \| $num \| >= 0\.35 \| [^|]+ \| [^|]+ \| $speedup \|" <<<"$out" ||
  fail "no paired ratio and speed-up for gather_1MiB"
grep -Eq "^\| gather_1MiB \| [^|]+/s \| [^|]+/s \| $num x \| $num x \| <= 3 x \|" <<<"$out" ||
  fail "no paired --check slow-down for gather_1MiB"
# whole runs: workload | tier | pairs | native s | visakit s | ratio | ... (both outputs were checked first)
for tier in fast reference; do
  grep -Eq "^\| gather_1MiB \| $tier \| [1-9][0-9]* \| [^|]+ \| [^|]+ \| $num \|" <<<"$out" ||
    fail "no whole-run ratio for gather_1MiB ($tier tier)"
done
echo "bench_smoke: ok"
