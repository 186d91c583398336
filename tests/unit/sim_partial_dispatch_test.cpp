// A thread dispatched with fewer lanes than the one before it on the same host
// thread (PayloadSource's dispatch mask, E8): its disabled lanes of a variable
// start at zero (E29) and keep that value (E9), not the earlier thread's.
// Expected bytes by hand.
#include <gtest/gtest.h>

#include <cstring>

#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

// Two work-groups of one thread: r0 dword 0 = 100 x group + 7, dword 1 = 32 x
// group (the thread's byte offset in Out); group 0's thread has lanes 0-7 on,
// group 1's lanes 0-3.
class FullThenPartial final : public sim::PayloadSource {
 public:
  std::array<uint32_t, 3> groups() const override { return {2, 1, 1}; }
  uint32_t threadsPerGroup() const override { return 1; }
  void threadStart(const std::array<uint32_t, 3>& group, uint32_t, uint32_t, std::vector<uint8_t>& grf,
                   uint32_t& dispatchMask) const override {
    const uint32_t r0[2] = {100 * group[0] + 7, 32 * group[0]};
    std::memcpy(grf.data(), r0, sizeof r0);
    dispatchMask = group[0] == 0 ? 0xffu : 0x0fu;
  }
  std::optional<std::array<uint32_t, 4>> stateRegister(uint32_t) const override { return std::nullopt; }
};

// V = r0.0 in the enabled lanes; then all eight lanes of V (NoMask) to Out at
// the thread's offset.
constexpr const char* kKernel = R"(.version 4.2
.kernel "partial_dispatch"
.decl A v_type=G type=ud num_elts=8 align=GRF
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl G v_type=G type=ud num_elts=1 align=dword
.decl Out v_type=T num_elts=1
.input Out offset=64 size=4
.kernel_attr Target="cm"
.kernel_attr SimdSize=8
    mov (M1_NM, 8) A(0,0)<1> 0x76543210:v
    shl (M1_NM, 8) A(0,0)<1> A(0,0)<1;1,0> 0x2:ud
    mov (M1_NM, 1) G(0,0)<1> %r0(0,1)<0;1,0>
    mov (M1, 8) V(0,0)<1> %r0(0,0)<0;1,0>
    scatter_scaled.4 (M1_NM, 8) Out G(0,0)<0;1,0> A.0 V.0
    ret (M1, 1)
)";

class SimPartialDispatchTier : public ::testing::TestWithParam<bool> {};

TEST_P(SimPartialDispatchTier, DisabledLanesStartAtZero) {
  Diagnostics d;
  Options o;
  auto m = parseText(kKernel, d, o);
  ASSERT_TRUE(m && verify(*m, d, o)) << d.render("kernel", kKernel);
  FullThenPartial payload;
  sim::LaunchConfig cfg;
  cfg.payload = &payload;
  cfg.jobs = 1;  // group 0's thread, then group 1's, on one host thread
  cfg.reference = GetParam();
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(64, 0xee), false}};
  sim::RunResult r = sim::run(m->kernels.at(0), s, cfg);
  ASSERT_EQ(r.status, sim::RunResult::Status::Ok) << r.error;
  // Group 0: 7 in all eight lanes. Group 1: 107 in lanes 0-3, 0 in lanes 4-7.
  std::vector<uint8_t> want;
  for (uint32_t v : {7u, 7u, 7u, 7u, 7u, 7u, 7u, 7u, 107u, 107u, 107u, 107u, 0u, 0u, 0u, 0u})
    for (unsigned b = 0; b < 4; ++b) want.push_back(static_cast<uint8_t>(v >> (8 * b)));
  EXPECT_EQ(s[0].bytes, want);
}

INSTANTIATE_TEST_SUITE_P(Tiers, SimPartialDispatchTier, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "reference" : "fast"; });

}  // namespace
