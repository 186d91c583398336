// Fuzz target: parse + verify + run arbitrary text with small step, thread and
// memory limits. Every declared surface is bound to a small buffer.
#include <cstdint>
#include <string_view>

#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  std::string_view src(reinterpret_cast<const char*>(data), size);
  visakit::Diagnostics d;
  visakit::Options opts;
  opts.limits.maxInstructions = 512;
  auto m = visakit::parseText(src, d, opts);
  if (!m || !visakit::verify(*m, d, opts)) return 0;
  for (const visakit::Kernel& k : m->kernels) {
    std::vector<visakit::sim::SurfaceBinding> surfaces;
    for (const auto& s : k.surfaces) surfaces.push_back({s.name, std::vector<uint8_t>(96, 0x5a)});
    surfaces.push_back({"%scratch", std::vector<uint8_t>(64, 0xa5)});
    visakit::sim::LaunchConfig cfg;
    cfg.threads = {2, 1};
    cfg.groups = {2, 1, 1};
    cfg.jobs = 1;
    cfg.slmBytes = 64;
    cfg.urbBytes = 256;
    cfg.maxSteps = 2000;
    cfg.check = (size & 1) != 0;
    (void)visakit::sim::run(k, surfaces, cfg);
  }
  return 0;
}
