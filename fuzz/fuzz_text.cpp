// Fuzz target: text parser + verifier + printer round trip on arbitrary bytes.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "visakit/visakit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view src(reinterpret_cast<const char*>(data), size);
  for (unsigned grf : {32u, 64u}) {
    visakit::Diagnostics d;
    visakit::Options opts;
    opts.grfSize = grf;
    visakit::Module partial;
    auto m = visakit::parseText(src, d, opts, &partial);
    visakit::verify(m ? *m : partial, d, opts);
    (void)d.render("fuzz", src);
    if (m && !d.hasErrors()) {
      // A valid kernel prints to text that parses back to the same kernel.
      std::string p = visakit::printText(*m);
      visakit::Diagnostics d2;
      auto m2 = visakit::parseText(p, d2, opts);
      if (!m2 || !(*m2 == *m) || visakit::printText(*m2) != p) std::abort();
    }
  }
  return 0;
}
