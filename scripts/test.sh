#!/usr/bin/env bash
# Every test: g++ and clang++ builds with -Werror, the suite under g++, under
# AddressSanitizer+UndefinedBehaviorSanitizer and under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export CTEST_OUTPUT_ON_FAILURE=1
for preset in default clang asan tsan; do
  echo "== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
done
status=0
for preset in default asan tsan; do
  echo "== test: $preset"
  ctest --preset "$preset" || status=1
done
exit $status
