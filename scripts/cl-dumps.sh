#!/usr/bin/env bash
# Compiles the OpenCL C corpus (tests/cl/*.cl, or the FILES given) with ocloc for every device on
# each file's `// DEVICES:` line (default: skl tgllp dg2 acm-g10 pvc) and has IGC dump its
# intermediate files (vISA .visaasm, .isa, .asm, .cos, LLVM IR, ...) into
#
#   OUTDIR/<device>/<file-stem>[-b<N>][-4gb]/
#
# One compile per distinct `--build-options` value among the file's CASE lines: the first one (in
# CASE order; "no options" counts as a value) goes to <file-stem>, the N-th further one to
# <file-stem>-b<N>. Files marked `// ALSO-4GB` are compiled once more per value with
# -cl-intel-greater-than-4GB-buffer-required added, into the same name plus -4gb. Each dump folder
# gets an ocloc-options.txt with the options used; ocloc's own output goes to <dump>/ocloc-out/.
#
# usage: scripts/cl-dumps.sh OUTDIR [FILES...]      (JOBS=N sets the parallel compiles, default 2)
# Exits 1, naming every failed compile and showing ocloc's messages, if any compile fails.
# A run that succeeded leaves OUTDIR/.inputs: a digest of this script, the FILES (names and texts)
# and the installed compiler's package versions. A later run with the same digest compiles nothing
# (so the build presets can share one OUTDIR); runs into one OUTDIR take turns (flock).
set -uo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [FILES...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
outdir=$1
shift
if ! command -v ocloc >/dev/null 2>&1; then
  echo "cl-dumps: ocloc not found (Debian package intel-opencl-icd)" >&2
  exit 2
fi
whole=0
if [ $# -eq 0 ]; then
  whole=1  # the whole corpus: OUTDIR then holds its dumps and nothing else
  set -- "$root"/tests/cl/*.cl
fi
mkdir -p "$outdir" || { echo "cl-dumps: cannot create $outdir" >&2; exit 2; }
outdir=$(cd "$outdir" && pwd)
exec 9>"$outdir/.lock"
flock 9
digest=$({
  cat "$0"
  for file in "$@"; do
    printf '%s\n' "$(basename "$file")"
    cat "$file" 2>/dev/null
  done
  dpkg-query -W intel-opencl-icd libigc1 libigdfcl1 2>/dev/null
  command -v ocloc
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$outdir/.inputs" 2>/dev/null)" = "$digest" ]; then
  echo "cl-dumps: up to date, dumps in $outdir"
  exit 0
fi
rm -f "$outdir/.inputs"
if [ $whole -eq 1 ]; then
  find "$outdir" -mindepth 1 -maxdepth 1 ! -name .lock -exec rm -rf {} +
fi
jobs=${JOBS:-2}
faillog=$(mktemp)
trap 'rm -f "$faillog"' EXIT

# compile DEVICE FILE DUMPDIR OPTIONS: one ocloc run; appends to $faillog on failure
compile() {
  local dev=$1 file=$2 dump=$3 opts=$4 log rc
  rm -rf "$dump"
  mkdir -p "$dump/ocloc-out"
  printf '%s\n' "$opts" >"$dump/ocloc-options.txt"
  local args=(compile -file "$file" -device "$dev" -q -out_dir "$dump/ocloc-out")
  if [ -n "$opts" ]; then
    args+=(-options "$opts")
  fi
  log=$(IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$dump" ocloc "${args[@]}" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! ls "$dump"/*.visaasm >/dev/null 2>&1; then
    # -q hides the build log: compile again without it (and without dumps) to show the reason
    local tmp
    tmp=$(mktemp -d)
    log=$(cd "$tmp" && ocloc compile -file "$file" -device "$dev" -out_dir "$tmp" ${opts:+-options "$opts"} 2>&1 | head -n 40)
    rm -rf "$tmp"
    {
      echo "FAILED (exit $rc): ocloc ${args[*]}"
      [ -n "$log" ] && printf '%s\n' "$log" | sed 's/^/    /'
      [ $rc -eq 0 ] && echo "    (exit 0 but no .visaasm was dumped)"
    } >>"$faillog"
  fi
}

running=0
count=0
for file in "$@"; do
  if [ ! -f "$file" ]; then
    echo "FAILED: no such file: $file" >>"$faillog"
    continue
  fi
  stem=$(basename "$file" .cl)
  devices=$(sed -n 's|^// DEVICES:[[:space:]]*||p' "$file" | head -n 1)
  [ -n "$devices" ] || devices="skl tgllp dg2 acm-g10 pvc"
  also4gb=0
  grep -q '^// ALSO-4GB' "$file" && also4gb=1
  # distinct build options in CASE order ("" for a case without --build-options)
  mapfile -t optsets < <(grep '^// CASE ' "$file" | sed -n 's/.*--build-options "\([^"]*\)".*/\1/p;t;s/.*//p' | awk '!seen[$0]++')
  [ ${#optsets[@]} -gt 0 ] || optsets=("")
  for dev in $devices; do
    for k in "${!optsets[@]}"; do
      opts=${optsets[$k]}
      name=$stem
      [ "$k" -gt 0 ] && name="$stem-b$k"
      variants=("$name|$opts")
      if [ $also4gb -eq 1 ]; then
        variants+=("$name-4gb|${opts:+$opts }-cl-intel-greater-than-4GB-buffer-required")
      fi
      for v in "${variants[@]}"; do
        compile "$dev" "$file" "$outdir/$dev/${v%%|*}" "${v#*|}" &
        count=$((count + 1))
        running=$((running + 1))
        if [ $running -ge "$jobs" ]; then
          wait -n
          running=$((running - 1))
        fi
      done
    done
  done
done
wait

if [ -s "$faillog" ]; then
  cat "$faillog" >&2
  echo "cl-dumps: $(grep -c '^FAILED' "$faillog") of $count compiles failed" >&2
  exit 1
fi
echo "$digest" >"$outdir/.inputs"
echo "cl-dumps: $count compiles, dumps in $outdir"
