#!/usr/bin/env bash
# Refreshes the committed seed corpora from the examples and test kernels.
# Usage: fuzz/update-corpus.sh [path/to/visakit [path/to/cl-dumps]]
#   (the binary seeds need `visakit asm`; the dump seeds come from the folder the
#   cl_dumps test fixture fills, build/cl-dumps by default)
set -euo pipefail
cd "$(dirname "$0")/.."
vk=${1:-build/default/visakit}
dumps=${2:-build/cl-dumps}
rm -rf fuzz/corpus/text fuzz/corpus/binary fuzz/corpus/run fuzz/corpus/patch_tokens
mkdir -p fuzz/corpus/text fuzz/corpus/binary fuzz/corpus/run fuzz/corpus/patch_tokens
for f in examples/*.visaasm tests/sim/cases/*.visaasm tests/verify/cases/*.visaasm tests/binary/*.visaasm; do
  [ -f "$f" ] || continue
  cp "$f" "fuzz/corpus/text/$(basename "$(dirname "$f")")_$(basename "$f")"
done
for f in examples/*.visaasm tests/sim/cases/*.visaasm; do
  [ -f "$f" ] || continue
  cp "$f" "fuzz/corpus/run/$(basename "$f")"
  "$vk" asm "$f" -o "fuzz/corpus/binary/$(basename "${f%.visaasm}").isa" 2>/dev/null || true
done
cp tests/fixtures/igc-isa/*.isa fuzz/corpus/binary/
cp tests/fixtures/igc-dumps-isa/*.isa fuzz/corpus/binary/  # cut short (spec-decisions B6)
for f in tests/fixtures/cl-dumps/*/*.cos tests/fixtures/cl-dumps/*/*.progbin; do
  cp "$f" "fuzz/corpus/patch_tokens/$(basename "$(dirname "$f")")_$(basename "$f")"
done
# IGC's dumps of a few corpus kernels on four devices: the real dialect (text,
# its encoding, the cut-short .isa IGC wrote, the patch tokens).
if [ -d "$dumps" ]; then
  for dev in skl dg2 acm-g10 pvc; do
    for c in saxpy atomics_local reduce_local private_spill subgroup_shuffle switch div_int stateless_gather-4gb \
             constant_table; do
      for f in "$dumps/$dev/$c"/*_simd*_entry_0001.visaasm; do
        [ -f "$f" ] || continue
        [ "$(stat -c %s "$f")" -le 65536 ] || continue  # small seeds: the fuzzers mutate them quickly
        seed="dump_${dev}_${c}"
        cp "$f" "fuzz/corpus/text/$seed.visaasm"
        cp "$f" "fuzz/corpus/run/$seed.visaasm"
        "$vk" asm "$f" -o "fuzz/corpus/binary/$seed.isa" 2>/dev/null || true
        cp "${f%.visaasm}.isa" "fuzz/corpus/binary/${seed}_igc.isa" 2>/dev/null || true
        cp "${f%.visaasm}.cos" "fuzz/corpus/patch_tokens/$seed.cos" 2>/dev/null || true
        break
      done
      for p in "$dumps/$dev/$c"/*.progbin; do
        [ -f "$p" ] && cp "$p" "fuzz/corpus/patch_tokens/dump_${dev}_${c}.progbin"
      done
    done
  done
else
  echo "update-corpus.sh: no dumps in $dumps (run: ctest --preset default -R cl_dumps); dump seeds left out" >&2
fi
echo "text: $(ls fuzz/corpus/text | wc -l) seeds, binary: $(ls fuzz/corpus/binary | wc -l), run: $(ls fuzz/corpus/run | wc -l), patch_tokens: $(ls fuzz/corpus/patch_tokens | wc -l)"
