// sim::PreparedKernels (LaunchConfig::prepared): a launch that repeats an
// earlier one runs the kept decoded and planned form; a launch that differs
// in anything the plans read (an input folded into the start, --check, the
// dispatch mask) prepares its own. Expected bytes are worked out by hand from
// the kernel below, and every launch is also run without a cache.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

// Thread t (%thread_x) writes A * t + i to dword i (i < 16, under the
// dispatch mask) of its 64-byte block of Out. A is an input; the start that
// multiplies it is the same in every thread, so the fast tier folds it.
const char* kKernel = R"(.version 4.2
.kernel "k"
.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Data v_type=G type=ud num_elts=16 align=GRF
.decl Base v_type=G type=ud num_elts=1 align=dword
.decl A v_type=G type=ud num_elts=1 align=dword
.decl AT v_type=G type=ud num_elts=1 align=dword
.decl Out v_type=T num_elts=1
.input A offset=32 size=4
    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    mul (M1_NM, 1) AT(0,0)<1> A(0,0)<0;1,0> %thread_x(0,0)<0;1,0>
    shr (M1_NM, 16) Data(0,0)<1> Offs(0,0)<1;1,0> 0x0:ud
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> AT(0,0)<0;1,0>
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 Data.0
    ret (M1, 1)
)";

constexpr uint32_t kThreads = 6;

Module build() { return vtest::buildModule(kKernel); }

std::vector<uint32_t> dwordsOf(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

// By hand: A * t + i in the lanes the dispatch mask enables (SIMD `simd`), 0 elsewhere.
std::vector<uint32_t> expected(uint32_t a, unsigned simd) {
  std::vector<uint32_t> v(kThreads * 16, 0);
  for (uint32_t t = 0; t < kThreads; ++t)
    for (uint32_t i = 0; i < 16 && i < simd; ++i) v[t * 16 + i] = a * t + i;
  return v;
}

struct Launch {
  uint32_t a = 3;
  unsigned simd = 16;
  bool check = false;
};

std::vector<uint32_t> run(const Kernel& k, const Launch& x, sim::PreparedKernels* cache, sim::RunResult* out = nullptr) {
  sim::LaunchConfig cfg;
  cfg.threads = {kThreads, 1};
  cfg.simd = x.simd;
  cfg.check = x.check;
  cfg.jobs = 2;
  cfg.args = {{"A", std::to_string(x.a)}};
  cfg.prepared = cache;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(kThreads * 64, 0)}};
  sim::RunResult r = sim::run(k, s, cfg);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.stats.tier, "fast");
  if (out) *out = r;
  return dwordsOf(s[0].bytes);
}

TEST(SimPrepared, ARepeatedLaunchRunsTheKeptForm) {
  Module m = build();
  ASSERT_EQ(m.kernels.size(), 1u);
  const Kernel& k = m.kernels[0];
  sim::PreparedKernels cache;
  sim::RunResult first, again, alone;
  EXPECT_EQ(run(k, {}, &cache, &first), expected(3, 16));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.hits(), 0u);
  EXPECT_EQ(run(k, {}, &cache, &again), expected(3, 16));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(run(k, {}, nullptr, &alone), expected(3, 16));
  EXPECT_EQ(again.stats.instructions, alone.stats.instructions);
  EXPECT_EQ(again.stats.lanes, alone.stats.lanes);
  EXPECT_EQ(first.stats.instructions, kThreads * 9u);
}

TEST(SimPrepared, ALaunchThatDiffersPreparesItsOwn) {
  Module m = build();
  ASSERT_EQ(m.kernels.size(), 1u);
  const Kernel& k = m.kernels[0];
  sim::PreparedKernels cache;
  EXPECT_EQ(run(k, {3, 16, false}, &cache), expected(3, 16));
  // Another input: the folded start holds A, so the kept form must not run.
  EXPECT_EQ(run(k, {5, 16, false}, &cache), expected(5, 16));
  EXPECT_EQ(cache.size(), 2u);
  // Another dispatch mask (SIMD8: lanes 8-15 off).
  EXPECT_EQ(run(k, {5, 8, false}, &cache), expected(5, 8));
  EXPECT_EQ(cache.size(), 3u);
  // --check picks the observing handlers: its own form, and no finding here.
  sim::RunResult checked;
  EXPECT_EQ(run(k, {5, 16, true}, &cache, &checked), expected(5, 16));
  EXPECT_TRUE(checked.findings.empty());
  EXPECT_EQ(cache.size(), 4u);
  EXPECT_EQ(cache.hits(), 0u);
  // The first launch again: its kept form.
  EXPECT_EQ(run(k, {3, 16, false}, &cache), expected(3, 16));
  EXPECT_EQ(cache.hits(), 1u);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
}

// A second kernel object (another module with the same text) is another key:
// a form names its kernel's code.
TEST(SimPrepared, KernelsAreKeptApart) {
  Module m1 = build(), m2 = build();
  ASSERT_EQ(m1.kernels.size(), 1u);
  ASSERT_EQ(m2.kernels.size(), 1u);
  sim::PreparedKernels cache;
  EXPECT_EQ(run(m1.kernels[0], {}, &cache), expected(3, 16));
  EXPECT_EQ(run(m2.kernels[0], {}, &cache), expected(3, 16));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.hits(), 0u);
}

// The launches of a kept form reuse their register files (RegFileStock); a
// thread still starts with every variable zero (E29). V is stored before the
// kernel writes it, so every launch's Out is all zero; 16 threads on two host
// threads also take the gang contexts (four threads per host thread).
TEST(SimPrepared, RegisterFilesOfAKeptFormStartAtZero) {
  Module m = vtest::buildModule(R"(.version 4.2
.kernel "k"
.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl Base v_type=G type=ud num_elts=1 align=dword
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 V.0
    mov (M1_NM, 16) V(0,0)<1> 0xdead:ud
    ret (M1, 1)
)");
  ASSERT_EQ(m.kernels.size(), 1u);
  sim::PreparedKernels cache;
  for (int launch = 0; launch < 3; ++launch) {
    sim::LaunchConfig cfg;
    cfg.threads = {16, 1};
    cfg.simd = 16;
    cfg.jobs = 2;
    cfg.prepared = &cache;
    std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(16 * 64, 0xff)}};
    sim::RunResult r = sim::run(m.kernels[0], s, cfg);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(s[0].bytes, std::vector<uint8_t>(16 * 64, 0)) << "launch " << launch;
  }
  EXPECT_EQ(cache.hits(), 2u);
}

// The reference tier takes no form (LaunchConfig::reference): same bytes.
TEST(SimPrepared, TheReferenceTierAgrees) {
  Module m = build();
  ASSERT_EQ(m.kernels.size(), 1u);
  sim::PreparedKernels cache;
  sim::LaunchConfig cfg;
  cfg.threads = {kThreads, 1};
  cfg.simd = 16;
  cfg.args = {{"A", "7"}};
  cfg.reference = true;
  cfg.prepared = &cache;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(kThreads * 64, 0)}};
  sim::RunResult r = sim::run(m.kernels[0], s, cfg);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(dwordsOf(s[0].bytes), expected(7, 16));
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
