// libFuzzer target: see fuzz/targets.hpp (patchTokens).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  visakit::fuzz::patchTokens(data, size);
  return 0;
}
