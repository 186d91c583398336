// Memory a thread slot owns (PayloadSource::slotMemory; spec-decisions L9,
// E23): an LSC `ss` access to %scratch is relative to the slot's bytes and
// out of bounds past them, and under --check the slot's next thread does
// not race with the one before it. Expected bytes and findings by hand.
#include <gtest/gtest.h>

#include <cstring>

#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

// Two work-groups of two threads; r0 dword 0 = 100 x group + thread; slot s
// owns %scratch bytes [32 s, 32 s + 32).
class TwoByTwo final : public sim::PayloadSource {
 public:
  std::array<uint32_t, 3> groups() const override { return {2, 1, 1}; }
  uint32_t threadsPerGroup() const override { return 2; }
  void threadStart(const std::array<uint32_t, 3>& group, uint32_t thread, uint32_t, std::vector<uint8_t>& grf,
                   uint32_t& dispatchMask) const override {
    const uint32_t v = 100 * group[0] + thread;
    std::memcpy(grf.data(), &v, 4);
    dispatchMask = 0xff;
  }
  std::optional<std::array<uint32_t, 4>> stateRegister(uint32_t) const override { return std::nullopt; }
  std::vector<SlotMemory> slotMemory(uint32_t slot) const override { return {{"%scratch", 32ull * slot, 32}}; }
};

// Each thread stores its r0.0 to dwords 0..7 of its own scratch (ss, offsets
// 0, 4, .., 28), meets its group at the barrier, then stores to offsets
// 32..60: past its 32 bytes.
constexpr const char* kKernel = R"(.version 4.2
.kernel "slot_scratch"
.decl A v_type=G type=ud num_elts=8 align=GRF
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl S v_type=G type=ud num_elts=1 align=dword
.kernel_attr Target="cm"
.kernel_attr SimdSize=8
    mov (M1_NM, 8) A(0,0)<1> 0x76543210:v
    shl (M1_NM, 8) A(0,0)<1> A(0,0)<1;1,0> 0x2:ud
    mov (M1_NM, 8) V(0,0)<1> %r0(0,0)<0;1,0>
    lsc_store.ugm (M1_NM, 8)  ss(S)[A]:a32  V:d32
    barrier
    lsc_store.ugm (M1_NM, 8)  ss(S)[A+0x20]:a32  V:d32
    ret (M1, 1)
)";

// In both tiers (the fast tier's threads of a group switch state, dispatch.cpp).
class SimSlotMemoryTier : public ::testing::TestWithParam<bool> {};

// With --check (the semantics, observed) and without (the fast tier's LSC
// form of `ss`: the slot's bytes moved to where they lie; a message with an
// element past them through the semantics).
TEST_P(SimSlotMemoryTier, ScratchIsTheSlotsOwnAndPassesToItsNextThread) {
  Diagnostics d;
  Options o;
  auto m = parseText(kKernel, d, o);
  ASSERT_TRUE(m && verify(*m, d, o)) << d.render("kernel", kKernel);
  for (bool check : {true, false}) {
    TwoByTwo payload;
    sim::LaunchConfig cfg;
    cfg.payload = &payload;
    cfg.jobs = 1;  // slots 0 and 1 for threads 0 and 1 of each group, group 0 then group 1
    cfg.check = check;
    cfg.reference = GetParam();
    std::vector<sim::SurfaceBinding> s = {{"%scratch", std::vector<uint8_t>(64, 0x5c), false}};
    sim::RunResult r = sim::run(m->kernels.at(0), s, cfg);
    ASSERT_EQ(r.status, sim::RunResult::Status::Ok) << r.error;
    // Slot 0's bytes hold group 1 thread 0's value (100), slot 1's group 1
    // thread 1's (101): relative to the slot, and no store past a slot's 32
    // bytes reached the next one (thread 0's second store would have put 100 in slot 1).
    std::vector<uint8_t> want;
    for (uint32_t v : {100u, 100u, 100u, 100u, 100u, 100u, 100u, 100u, 101u, 101u, 101u, 101u, 101u, 101u, 101u, 101u})
      for (unsigned b = 0; b < 4; ++b) want.push_back(static_cast<uint8_t>(v >> (8 * b)));
    EXPECT_EQ(s[0].bytes, want) << "check " << check;
    // (in-bounds bytes: the first store's, 8 lanes of 4 bytes in each of the 4 threads)
    for (const sim::SpaceStats& sp : r.stats.spaces)
      if (sp.name == "%scratch") {
        EXPECT_EQ(sp.bytesWritten, 4u * 8u * 4u) << "check " << check;
      }
    if (!check) continue;
    // One finding: the second store, out of bounds in all 8 lanes of the 4
    // threads (32). No race: group 1's threads write what group 0's wrote in
    // the same slots, after those threads ended.
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, sim::Finding::Kind::OutOfBoundsWrite);
    EXPECT_EQ(r.findings[0].count, 32u);
    EXPECT_EQ(r.findings[0].instruction, 5u);
    EXPECT_EQ(r.findings[0].space, "%scratch");
  }
}

INSTANTIATE_TEST_SUITE_P(Tiers, SimSlotMemoryTier, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "reference" : "fast"; });

// A slot's memory outside its surface is a launch error (the payload source's mistake).
TEST(SimSlotMemory, SlotMemoryOutsideItsSurfaceIsALaunchError) {
  Diagnostics d;
  Options o;
  auto m = parseText(kKernel, d, o);
  ASSERT_TRUE(m && verify(*m, d, o)) << d.render("kernel", kKernel);
  TwoByTwo payload;
  sim::LaunchConfig cfg;
  cfg.payload = &payload;
  cfg.jobs = 1;
  std::vector<sim::SurfaceBinding> s = {{"%scratch", std::vector<uint8_t>(48, 0), false}};  // slot 1 needs [32, 64)
  sim::RunResult r = sim::run(m->kernels.at(0), s, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::LaunchError);
  EXPECT_NE(r.error.find("thread slot 1"), std::string::npos) << r.error;
}

}  // namespace
