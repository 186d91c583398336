#!/usr/bin/env bash
# Every test: the suite under g++ (default preset), under clang++ with
# AddressSanitizer+UndefinedBehaviorSanitizer (asan) and with ThreadSanitizer
# (tsan); all three build everything (library, CLI, tests, benchmarks, fuzz
# targets) with -Werror, so both compilers' warnings fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export CTEST_OUTPUT_ON_FAILURE=1
for preset in default asan tsan; do
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
