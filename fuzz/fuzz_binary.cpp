// Fuzz target: binary reader + verifier + writer round trip on arbitrary bytes.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "visakit/visakit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  visakit::Diagnostics d;
  auto m = visakit::readBinary(bytes, d);
  if (!m) return 0;
  visakit::verify(*m, d);
  (void)d.render("fuzz", {});
  (void)visakit::printText(*m);
  if (!d.hasErrors()) {
    // A valid module writes to bytes that read back to the same module.
    auto out = visakit::writeBinary(*m);
    visakit::Diagnostics d2;
    auto m2 = visakit::readBinary(std::string_view(reinterpret_cast<const char*>(out.data()), out.size()), d2);
    if (!m2 || visakit::writeBinary(*m2) != out) std::abort();
  }
  return 0;
}
