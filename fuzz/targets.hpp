// The bodies of the fuzz targets, shared with the regression test that replays
// every input a fuzzer once failed on (fuzz/regressions/). Each aborts on a
// broken invariant; sanitizers catch the rest.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "cl/patch_tokens.hpp"
#include "cl/progbin.hpp"
#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

namespace visakit::fuzz {

// Text parser + verifier; a valid kernel prints to text that parses back equal.
inline void text(const uint8_t* data, size_t size) {
  std::string_view src(reinterpret_cast<const char*>(data), size);
  for (unsigned grf : {32u, 64u}) {
    Diagnostics d;
    Options opts;
    opts.grfSize = grf;
    Module partial;
    auto m = parseText(src, d, opts, &partial);
    verify(m ? *m : partial, d, opts);
    (void)d.render("fuzz", src);
    if (m && !d.hasErrors()) {
      std::string p = printText(*m);
      Diagnostics d2;
      auto m2 = parseText(p, d2, opts);
      if (!m2 || !(*m2 == *m) || printText(*m2) != p) std::abort();
    }
  }
}

// Binary reader + verifier; a valid module writes to bytes that read back to the same bytes.
inline void binary(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Diagnostics d;
  auto m = readBinary(bytes, d);
  if (!m) return;
  verify(*m, d);
  (void)d.render("fuzz", {});
  (void)printText(*m);
  if (!d.hasErrors()) {
    auto out = writeBinary(*m);
    Diagnostics d2;
    auto m2 = readBinary(std::string_view(reinterpret_cast<const char*>(out.data()), out.size()), d2);
    if (!m2 || writeBinary(*m2) != out) std::abort();
  }
}

// The same launch with and without the constant start folded
// (LaunchConfig::foldConstantStart) must give the same result.
inline bool sameResult(const sim::RunResult& a, const sim::RunResult& b) {
  if (a.status != b.status || a.error != b.error || a.urb != b.urb || a.findings.size() != b.findings.size()) return false;
  if (a.stats.instructions != b.stats.instructions || a.stats.lanes != b.stats.lanes) return false;
  for (size_t i = 0; i < a.findings.size(); ++i)
    if (a.findings[i].kind != b.findings[i].kind || a.findings[i].instruction != b.findings[i].instruction ||
        a.findings[i].count != b.findings[i].count)
      return false;
  return true;
}

// Parse + verify + run with small step, thread and memory limits; the constant
// start folded and not must give the same bytes and result; and the fast and
// the reference tier, both under --check (threads one after another, so that
// racing writes land in one order), must give the same bytes, findings and
// statistics (a difference is a finding).
inline void run(const uint8_t* data, size_t size) {
  if (size > 8192) return;
  std::string_view src(reinterpret_cast<const char*>(data), size);
  Diagnostics d;
  Options opts;
  opts.limits.maxInstructions = 512;
  auto m = parseText(src, d, opts);
  if (!m || !verify(*m, d, opts)) return;
  for (const Kernel& k : m->kernels) {
    std::vector<sim::SurfaceBinding> surfaces;
    for (const auto& s : k.surfaces) surfaces.push_back({s.name, std::vector<uint8_t>(96, 0x5a)});
    surfaces.push_back({"%scratch", std::vector<uint8_t>(64, 0xa5)});
    sim::LaunchConfig cfg;
    cfg.threads = {4, 1};  // x 2 groups: two lock-step gangs (dispatch.cpp kGang) on the one host thread
    cfg.groups = {2, 1, 1};
    cfg.jobs = 1;
    cfg.slmBytes = 64;
    cfg.urbBytes = 256;
    cfg.maxSteps = 2000;
    cfg.check = (size & 1) != 0;
    if (size & 2) cfg.hideLatencyFromBytes = 0;  // interleave threads at every scattered access
    const std::vector<sim::SurfaceBinding> original = surfaces;
    std::vector<sim::SurfaceBinding> unfolded = surfaces;
    const sim::RunResult r = sim::run(k, surfaces, cfg);
    cfg.foldConstantStart = false;
    const sim::RunResult u = sim::run(k, unfolded, cfg);
    if (!sameResult(r, u)) std::abort();
    for (size_t i = 0; i < surfaces.size(); ++i)
      if (surfaces[i].bytes != unfolded[i].bytes) std::abort();
    // The tiers.
    std::vector<sim::SurfaceBinding> fast = original, ref = original;
    cfg.foldConstantStart = true;
    cfg.check = true;
    const sim::RunResult f = sim::run(k, fast, cfg);
    cfg.reference = true;
    const sim::RunResult g = sim::run(k, ref, cfg);
    if (!sameResult(f, g)) std::abort();
    for (size_t i = 0; i < fast.size(); ++i)
      if (fast[i].bytes != ref[i].bytes) std::abort();
  }
}

// The same bytes as .cos text and as a .progbin. A failure is an error naming the file; a
// .progbin that reads one byte shorter must fail (every size in it is exact).
inline void patchTokens(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cl::CosFile cos;
  std::string err;
  if (!cl::parseCos(text, "fuzz", cos, err)) {
    if (err.rfind("fuzz:", 0) != 0 || err.find(": error: ") == std::string::npos) std::abort();
  } else {
    for (const auto& a : cos.kernel.pointerArgs) (void)cl::bindingTableIndex(cos.kernel, a.surfaceStateHeapOffset);
  }
  std::span<const uint8_t> bytes(data, size);
  cl::ProgramBinary prog;
  if (!cl::parseProgbin(bytes, "fuzz", prog, err)) {
    if (err.rfind("fuzz: error: ", 0) != 0 || err.find("byte ") == std::string::npos) std::abort();
    return;
  }
  for (const auto& k : prog.kernels) {
    for (uint32_t ss : k.bindingTable()) (void)cl::bindingTableIndex(k.patchList, ss, k.surfaceStateHeap);
  }
  cl::ProgramBinary shorter;
  if (size > 0 && cl::parseProgbin(bytes.first(size - 1), "fuzz", shorter, err)) std::abort();
}

}  // namespace visakit::fuzz
