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
set -e

echo; echo "== visakit cl: an OpenCL kernel as Intel's compiler compiled it, against pocl"
python3 -c "
import struct, random
random.seed(1)
open('$out/x.bin','wb').write(b''.join(struct.pack('<f', random.uniform(-1, 1)) for _ in range(1024)))
open('$out/y.bin','wb').write(b''.join(struct.pack('<f', random.uniform(-1, 1)) for _ in range(1024)))
open('$out/in.bin','wb').write(b''.join(struct.pack('<i', i) for i in range(256)))"
for dev in skl acm-g10 pvc; do
  echo "-- saxpy on $dev:"
  $vk cl tests/cl/saxpy.cl --device $dev --kernel saxpy --global 1024 --local 256 \
    --arg 0=f32:1.5 --arg 1=@"$out/x.bin" --arg 2=@"$out/y.bin" --out 2="$out/y_$dev.bin" --compare
done
python3 -c "
import struct
x, y, r = (struct.unpack('<4f', open(f, 'rb').read(16)) for f in ('$out/x.bin', '$out/y.bin', '$out/y_pvc.bin'))
print('y = 1.5 * x + y, the first four:', ', '.join(f'1.5*{a:.4f}+{b:.4f} = {c:.4f}' for a, b, c in zip(x, y, r)))"

echo; echo "== visakit cl --check: the last work-item reads one element past its buffer"
set +e
$vk cl tests/cl/broken_oob.cl --device acm-g10 --kernel avg3_oob --global 256 --local 64 \
  --arg 0=@"$out/in.bin" --arg 1=zero:1024 --check
echo "(exit $?: findings)"

echo; echo "== visakit cl --compare: a dump with one instruction altered by hand (tests/fixtures/cl-altered)"
$vk cl tests/fixtures/cl-altered/triple-skl --kernel triple --global 64 --arg 0=@"$out/in.bin" --arg 1=zero:256 --compare 2>&1 | head -4
echo "(exit ${PIPESTATUS[0]}: differences)"

