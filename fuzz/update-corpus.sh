#!/usr/bin/env bash
# Refreshes the committed seed corpora from the examples and test kernels.
# Usage: fuzz/update-corpus.sh [path/to/visakit]   (the binary seeds need `visakit asm`)
set -euo pipefail
cd "$(dirname "$0")/.."
vk=${1:-build/default/visakit}
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
echo "text: $(ls fuzz/corpus/text | wc -l) seeds, binary: $(ls fuzz/corpus/binary | wc -l), run: $(ls fuzz/corpus/run | wc -l), patch_tokens: $(ls fuzz/corpus/patch_tokens | wc -l)"
