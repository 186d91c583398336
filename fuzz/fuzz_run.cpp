// libFuzzer target: see fuzz/targets.hpp.
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  visakit::fuzz::run(data, size);
  return 0;
}
