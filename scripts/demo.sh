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

echo; echo "== visakit check examples/*.visaasm"
$vk check examples/*.visaasm && echo "all $(ls examples/*.visaasm | wc -l) examples verify"

echo; echo "== a broken kernel: every error in one run, LLVM-style"
sed -e 's/gather_scaled.1 (M1, 16)/gather_scaled.8 (M1, 16)/' -e 's/scatter_scaled.1 (M1, 16)/scatter_scaled.1 (M2, 16)/' \
  examples/gather_scaled.visaasm > "$out/broken.visaasm"
$vk check "$out/broken.visaasm" || echo "(exit $?)"

echo; echo "== visakit fmt examples/all_five.visaasm"
$vk fmt examples/all_five.visaasm

echo "== visakit asm / dis: binary round trip"
$vk asm examples/all_five.visaasm -o "$out/all_five.isa"
xxd "$out/all_five.isa" | head -6
echo "..."
$vk dis "$out/all_five.isa" -o "$out/all_five.dis.visaasm"
diff <($vk fmt examples/all_five.visaasm | sed 's/^.version 4.2$/.version 4.1/') "$out/all_five.dis.visaasm" \
  && echo "dis(asm(k)) == fmt(k)"

echo; echo "== visakit run examples/gather_scaled.visaasm: bytes in, bytes out"
printf 'hello, visa 4.2!' > "$out/text.bin"
$vk run examples/gather_scaled.visaasm --surface Text="$out/text.bin" --surface Out=zero:16 --out Out="$out/upper.bin" --stats
echo "in:  $(cat "$out/text.bin")"
echo "out: $(cat "$out/upper.bin")"

echo; echo "== visakit run examples/urb_write.visaasm: a vertex stage into the URB"
printf '\x00\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x00\x41' > "$out/verts.bin"   # vertex 0 = (0.0, 0.5, 8.0)
head -c 84 /dev/zero >> "$out/verts.bin"
$vk run examples/urb_write.visaasm --surface Verts="$out/verts.bin" --urb 128 --dump-urb "$out/urb.bin"
xxd "$out/urb.bin" | head -2

echo; echo "== every example run by 'visakit run' against the bytes worked out from the pages (examples/*.test)"
cmake --build --preset default --target visakit_unit_tests >/dev/null
build/default/tests/visakit_unit_tests --gtest_filter='SimExamples/*' --gtest_brief=0 | grep -E '^\[ +(OK|FAILED|PASSED) +\]'

echo; echo "== visakit run --check: an out-of-bounds scatter is reported, not silently dropped"
set +e
$vk run tests/sim/cases/check_oob_write.visaasm --surface Out=zero:16 --check
echo "(exit $?: findings)"
