#!/usr/bin/env bash
# The demo: build visakit, then check, format, assemble, disassemble and run
# the example kernels (one per seed instruction and one using all five).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target visakit
vk=build/default/visakit
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== visakit check examples/*.visaasm"
$vk check examples/*.visaasm && echo "all examples verify"
echo
echo "== visakit fmt examples/all_five.visaasm"
$vk fmt examples/all_five.visaasm
echo "== visakit asm / dis round trip"
$vk asm examples/all_five.visaasm -o "$out/all_five.isa"
xxd "$out/all_five.isa" | head -8
$vk dis "$out/all_five.isa" -o "$out/all_five.dis.visaasm"
diff <($vk fmt examples/all_five.visaasm) "$out/all_five.dis.visaasm" && echo "binary round trip: identical text"
echo
for t in examples/*.test; do
  k=${t%.test}.visaasm
  echo "== visakit run $k"
  args=$(sed -n 's/^args:\(.*\)$/\1/p' "$t" | tr '\n' ' ')
  binds=()
  while read -r name bytes; do
    binds+=(--surface "$name=zero:$bytes")
  done < <(sed -n 's/^surface \([^:]*\): *zero:\([0-9]*\).*$/\1 \2/p' "$t")
  # shellcheck disable=SC2086
  $vk run "$k" $args "${binds[@]}" --stats || true
done
