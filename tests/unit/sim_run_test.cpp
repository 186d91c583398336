// The simulator through its library API (include/visakit/sim.hpp) and the CLI's
// run command: launch errors, failures, statistics, findings, --jobs
// independence, and every ALU type combination executed on random data
// (no UB under the sanitizer builds).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <array>
#include <cstring>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "test_util.hpp"
#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

Module build(const std::string& text, unsigned grf = 32) { return vtest::buildModule(text, grf); }

// The little-endian bytes of dwords (a surface's contents).
std::vector<uint8_t> bytesOf(const std::vector<uint32_t>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Kernel k at SIMD16 in the fast tier and then the reference tier, each on a
// zeroed surface Out of `bytes` bytes: each tier's Out (fast first). With
// allFast, the fast tier must run every instruction in its form.
std::array<std::vector<uint8_t>, 2> outOfEachTier(const Kernel& k, size_t bytes, bool allFast) {
  std::array<std::vector<uint8_t>, 2> out;
  for (bool reference : {false, true}) {
    sim::LaunchConfig cfg;
    cfg.simd = 16;
    cfg.reference = reference;
    std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(bytes, 0)}};
    auto r = sim::run(k, s, cfg);
    EXPECT_TRUE(r.ok()) << r.error;
    if (allFast && !reference) {
      EXPECT_EQ(r.stats.viaSemantics, 0u);
    }
    out[reference] = s[0].bytes;
  }
  return out;
}

// Two runs of one launch counted the same instructions, lanes and bytes per space.
void expectSameCounts(const sim::Stats& got, const sim::Stats& want) {
  EXPECT_EQ(got.instructions, want.instructions);
  EXPECT_EQ(got.lanes, want.lanes);
  ASSERT_EQ(got.spaces.size(), want.spaces.size());
  for (size_t i = 0; i < got.spaces.size(); ++i) {
    EXPECT_EQ(got.spaces[i].bytesRead, want.spaces[i].bytesRead) << got.spaces[i].name;
    EXPECT_EQ(got.spaces[i].bytesWritten, want.spaces[i].bytesWritten) << got.spaces[i].name;
  }
}

const char* kHeader = R"(.version 4.2
.kernel "k"
)";

// The declarations of Offs, Data and Base, and the code that sets Offs to the
// byte offset 4i of each dword lane i < 16.
const char* kOffsDataBase = R"(.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Data v_type=G type=ud num_elts=16 align=GRF
.decl Base v_type=G type=ud num_elts=1 align=dword
)";
const char* kByteOffsets = R"(    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
)";

// A chunked loop (the latency-hiding tests): thread Tid = %group_id_x takes
// the bytes [Cur, End) = [Tid * Chunk, (Tid + 1) * Chunk) of its streams, and
// Off holds the byte offsets 4i of 16 dword lanes; kChunkStart ends at LOOP.
const char* kChunkDecls = R"(.decl Tid v_type=G type=ud num_elts=1 align=dword
.decl Cur v_type=G type=ud num_elts=1 align=dword
.decl End v_type=G type=ud num_elts=1 align=dword
.decl Chunk v_type=G type=ud num_elts=1 align=dword
.decl Off v_type=G type=ud num_elts=16 align=GRF
)";
const char* kChunkStart = R"(    mov (M1_NM, 1) Tid(0,0)<1> %group_id_x(0,0)<0;1,0>
    mul (M1_NM, 1) Cur(0,0)<1> Tid(0,0)<0;1,0> Chunk(0,0)<0;1,0>
    add (M1_NM, 1) End(0,0)<1> Cur(0,0)<0;1,0> Chunk(0,0)<0;1,0>
    mov (M1_NM, 8) Off(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Off(0,8)<1> Off(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Off(0,0)<1> Off(0,0)<1;1,0> 0x2:ud
LOOP:
)";

// The end of a kernel that stores its 16 dwords of Data into the 64-byte block
// %thread_x of Out, and returns.
const char* kStoreDataPerThread = R"(    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 Data.0
    ret (M1, 1)
)";

// Each thread scatters (thread_x + 16 * group_x) into dword i of its own 64-byte block,
// through a per-group SLM round trip.
std::string slmKernel() {
  return std::string(kHeader) + kOffsDataBase + R"(.decl Back v_type=G type=ud num_elts=16 align=GRF
.decl Slm v_type=G type=ud num_elts=1 align=dword
.decl Out v_type=T num_elts=1
)" + kByteOffsets + R"(    mul (M1_NM, 1) Base(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud
    add (M1_NM, 1) Base(0,0)<1> Base(0,0)<0;1,0> %thread_x(0,0)<0;1,0>
    mov (M1_NM, 16) Data(0,0)<1> Base(0,0)<0;1,0>
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> Offs(0,0)<1;1,0>
    shl (M1_NM, 1) Slm(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    shl (M1_NM, 1) Base(0,0)<1> Base(0,0)<0;1,0> 0x6:ud
    scatter_scaled.4 (M1, 16) %slm Slm(0,0)<0;1,0> Offs.0 Data.0
    gather_scaled.4 (M1, 16) %slm Slm(0,0)<0;1,0> Offs.0 Back.0
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 Back.0
    ret (M1, 1)
)";
}

// C21: a FADDR of a name no function of the module has stores the address the launch gives that
// symbol (LaunchConfig::symbols: an OpenCL program's variables), in the kernel and in a function,
// in both tiers; without it the launch fails naming the instruction.
TEST(SimRun, FaddrOfASymbolStoresItsAddress) {
  Module m = build(
      ".version 4.2\n.kernel \"k\"\n"
      ".decl A v_type=G type=uq num_elts=1 align=qword\n"
      ".decl AD v_type=G type=ud num_elts=2 align=qword alias=<A, 0>\n"
      ".decl RV v_type=G type=ud num_elts=2 align=hword alias=<%retval, 0>\n"
      ".decl D v_type=G type=ud num_elts=4 align=GRF\n"
      ".decl Offs v_type=G type=ud num_elts=4 align=GRF\n"
      ".decl T6 v_type=T num_elts=1 v_name=Out\n"
      ".kernel_attr Target=\"cm\"\n"
      "    faddr tab A(0,0)<1>\n"
      "    fcall (M1_NM, 1) f 0 1\n"
      "    mov (M1_NM, 2) D(0,0)<1> AD(0,0)<1;1,0>\n"
      "    mov (M1_NM, 2) D(0,2)<1> RV(0,0)<1;1,0>\n"
      "    mov (M1_NM, 4) Offs(0,0)<1> 0x3210:uv\n"
      "    shl (M1_NM, 4) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud\n"
      "    scatter_scaled.4 (M1, 4) T6 0x0:ud Offs.0 D.0\n"
      "    ret (M1, 1)\n"
      ".global_function \"f\"\n"
      ".decl B v_type=G type=uq num_elts=1 align=qword\n"
      ".decl RQ v_type=G type=uq num_elts=1 align=hword alias=<%retval, 0>\n"
      ".kernel_attr ArgSize=0\n.kernel_attr RetValSize=1\n"
      "    faddr counter B(0,0)<1>\n"
      "    mov (M1_NM, 1) RQ(0,0)<1> B(0,0)<0;1,0>\n"
      "    fret (M1_NM, 1)\n");
  ASSERT_EQ(m.kernels.size(), 2u);
  for (bool reference : {false, true}) {
    sim::LaunchConfig cfg;
    cfg.simd = 8;
    cfg.reference = reference;
    cfg.functions = {&m.kernels[1]};
    cfg.symbols = {{"counter", 0x123456789abcdef0ull}, {"tab", 0x0000004000000010ull}};
    std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(16, 0)}};
    sim::RunResult r = sim::run(m.kernels[0], s, cfg);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(s[0].bytes, bytesOf({0x00000010u, 0x00000040u, 0x9abcdef0u, 0x12345678u})) << "reference " << reference;
    cfg.symbols = {{"tab", 16}};
    s = {{"Out", std::vector<uint8_t>(16, 0)}};
    r = sim::run(m.kernels[0], s, cfg);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.find("function 'f', instruction #0: faddr 'counter': the module has no function of that name and the "
                           "launch no symbol (an unresolved external symbol"),
              std::string::npos)
        << r.error;
  }
}

TEST(SimRun, ResultsDoNotDependOnJobs) {
  Module m = build(slmKernel());
  ASSERT_EQ(m.kernels.size(), 1u);
  sim::LaunchConfig cfg;
  cfg.groups = {8, 1, 1};
  cfg.groupThreads = 4;
  cfg.slmBytes = 256;
  cfg.simd = 16;
  std::vector<uint8_t> first;
  for (unsigned jobs : {1u, 2u, 3u, 8u}) {
    cfg.jobs = jobs;
    std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(8 * 16 * 64 * 4 / 4, 0)}};
    sim::RunResult r = sim::run(m.kernels[0], s, cfg);
    ASSERT_TRUE(r.ok()) << r.error;
    if (first.empty()) first = s[0].bytes;
    EXPECT_EQ(s[0].bytes, first) << "jobs " << jobs;
    EXPECT_EQ(r.stats.threads, 32u);
  }
  // Thread (group g, x) wrote g*16 + x + 4i (i = 0..15) to block g*16 + x.
  for (uint32_t g = 0; g < 8; ++g)
    for (uint32_t x = 0; x < 4; ++x)
      for (uint32_t i = 0; i < 16; ++i) {
        uint32_t v;
        std::memcpy(&v, first.data() + (g * 16 + x) * 64 + 4 * i, 4);
        EXPECT_EQ(v, g * 16 + x + 4 * i);
      }
}

// Scheduling (dispatch.cpp): host thread j runs its own contiguous range of
// threads first, then helps with the others'. Whatever the thread count and
// the host threads, every thread runs exactly once: thread t writes 3t + 4i to
// dword i of its 64-byte block of Out (9 instructions per thread).
TEST(SimRun, EveryThreadRunsOnceWhateverTheHostThreads) {
  Module m = build(std::string(kHeader) + kOffsDataBase + ".decl Out v_type=T num_elts=1\n" + kByteOffsets +
                   R"(    mov (M1_NM, 16) Data(0,0)<1> %thread_x(0,0)<0;1,0>
    mul (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x3:ud
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> Offs(0,0)<1;1,0>
)" + kStoreDataPerThread);
  ASSERT_EQ(m.kernels.size(), 1u);
  for (uint32_t threads : {1u, 2u, 7u, 13u, 67u, 200u})
    for (unsigned jobs : {1u, 2u, 3u, 5u, 8u}) {
      sim::LaunchConfig cfg;
      cfg.threads = {threads, 1};
      cfg.simd = 16;
      cfg.jobs = jobs;
      // One block more than the threads write: it must stay untouched.
      std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>((threads + 1) * 64, 0xee)}};
      sim::RunResult r = sim::run(m.kernels[0], s, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(r.stats.threads, threads);
      EXPECT_EQ(r.stats.instructions, 9u * threads) << threads << " threads, jobs " << jobs;
      for (uint32_t t = 0; t < threads; ++t)
        for (uint32_t i = 0; i < 16; ++i) {
          uint32_t v;
          std::memcpy(&v, s[0].bytes.data() + t * 64 + 4 * i, 4);
          ASSERT_EQ(v, 3 * t + 4 * i) << "thread " << t << " dword " << i << "; " << threads << " threads, jobs " << jobs;
        }
      for (uint32_t b = threads * 64; b < (threads + 1) * 64; ++b) ASSERT_EQ(s[0].bytes[b], 0xee);
    }
}

// Launches from several calling threads at once (one of them holds the host
// pool, the others start threads of their own) each give their own results.
TEST(SimRun, LaunchesFromSeveralThreadsAtOnce) {
  Module m = build(slmKernel());
  ASSERT_EQ(m.kernels.size(), 1u);
  std::atomic<int> bad{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        sim::LaunchConfig cfg;
        cfg.groups = {8, 1, 1};
        cfg.groupThreads = 4;
        cfg.slmBytes = 256;
        cfg.simd = 16;
        cfg.jobs = 2;
        std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(8 * 16 * 64, 0)}};
        if (!sim::run(m.kernels[0], s, cfg).ok()) bad.fetch_add(1);
        // As in ResultsDoNotDependOnJobs: block g*16 + x holds g*16 + x + 4i.
        for (uint32_t g = 0; g < 8; ++g)
          for (uint32_t x = 0; x < 4; ++x)
            for (uint32_t k = 0; k < 16; ++k) {
              uint32_t v;
              std::memcpy(&v, s[0].bytes.data() + (g * 16 + x) * 64 + 4 * k, 4);
              if (v != g * 16 + x + 4 * k) bad.fetch_add(1);
            }
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Latency hiding (LaunchConfig::hideLatencyFromBytes): a host thread interleaves
// simulated threads at scattered gathers, scatters and qw_scatters. The results
// and statistics must not change. Each thread t handles elements [t*C/4, (t+1)*C/4):
//   I = Idx[i] * 4; lanes with I < 0x3000 gather D = Src[Idx[i]], the others keep
//   0xdead (E9); Dst[i] = D; Out2[Idx[i]] = D (Idx is a permutation: no two
//   elements meet); lanes 0..7 of each 16: Out3 qword Idx[i] = D[2j] | D[2j+1] << 32.
TEST(SimRun, InterleavedThreadsGiveTheSameResults) {
  Module m = build(std::string(kHeader) + kChunkDecls + R"(.decl I v_type=G type=ud num_elts=16 align=GRF
.decl Q8 v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
.decl DQ v_type=G type=uq num_elts=8 alias=<D, 0>
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=1
.decl Src v_type=T num_elts=1
.decl Idx v_type=T num_elts=1
.decl Dst v_type=T num_elts=1
.decl Out2 v_type=T num_elts=1
.decl Out3 v_type=T num_elts=1
.input Src offset=32 size=4
.input Idx offset=36 size=4
.input Dst offset=40 size=4
.input Out2 offset=44 size=4
.input Out3 offset=48 size=4
.input Chunk offset=52 size=4
)" + kChunkStart + R"(    gather_scaled.4 (M1, 16) Idx Cur(0,0)<0;1,0> Off.0 I.0
    shl (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x2:ud
    cmp.lt (M1, 16) P1 I(0,0)<1;1,0> 0x3000:ud
    mov (M1, 16) D(0,0)<1> 0xdead:ud
    (P1) gather_scaled.4 (M1, 16) Src 0x0:ud I.0 D.0
    scatter_scaled.4 (M1, 16) Dst Cur(0,0)<0;1,0> Off.0 D.0
    scatter_scaled.4 (M1, 16) Out2 0x0:ud I.0 D.0
    shl (M1, 8) Q8(0,0)<1> I(0,0)<1;1,0> 0x1:ud
    qw_scatter.1 (M1, 8) Out3 Q8.0 DQ.0
    add (M1_NM, 1) Cur(0,0)<1> Cur(0,0)<0;1,0> 0x40:ud
    cmp.lt (M1_NM, 1) P2 Cur(0,0)<0;1,0> End(0,0)<0;1,0>
    (P2) jmp (M1, 1) LOOP
    ret (M1, 1)
)",
                   64);
  ASSERT_EQ(m.kernels.size(), 1u);
  constexpr uint32_t n = 4096, threads = 8, chunk = n * 4 / threads;
  std::mt19937 rng(7);
  std::vector<uint32_t> src(n), idx(n);
  for (uint32_t& v : src) v = static_cast<uint32_t>(rng());
  for (uint32_t i = 0; i < n; ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), rng);
  // The reference model.
  std::vector<uint32_t> dst(n), out2(n);
  std::vector<uint64_t> out3(n);
  for (uint32_t i = 0; i < n; ++i) {
    dst[i] = idx[i] * 4 < 0x3000 ? src[idx[i]] : 0xdead;
    out2[idx[i]] = dst[i];
  }
  for (uint32_t b = 0; b < n; b += 16)
    for (uint32_t j = 0; j < 8; ++j) out3[idx[b + j]] = dst[b + 2 * j] | uint64_t{dst[b + 2 * j + 1]} << 32;

  sim::LaunchConfig cfg;
  cfg.grfSize = 64;
  cfg.groups = {threads, 1, 1};
  cfg.simd = 16;
  cfg.args = {{"Chunk", std::to_string(chunk)}};
  std::optional<sim::Stats> first;
  // (and with the constant start, Off, folded at launch or done by every thread)
  for (std::optional<uint64_t> from : {std::optional<uint64_t>{}, std::optional<uint64_t>{0}})
    for (unsigned jobs : {1u, 2u})
      for (bool fold : {true, false}) {
        cfg.hideLatencyFromBytes = from;
        cfg.jobs = jobs;
        cfg.foldConstantStart = fold;
        std::vector<sim::SurfaceBinding> s = {{"Src", bytesOf(src)},
                                              {"Idx", bytesOf(idx)},
                                              {"Dst", std::vector<uint8_t>(n * 4, 0)},
                                              {"Out2", std::vector<uint8_t>(n * 4, 0)},
                                              {"Out3", std::vector<uint8_t>(n * 8, 0)}};
        sim::RunResult r = sim::run(m.kernels[0], s, cfg);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(s[2].bytes, bytesOf(dst)) << "jobs " << jobs << " fold " << fold;
        EXPECT_EQ(s[3].bytes, bytesOf(out2)) << "jobs " << jobs;
        std::vector<uint8_t> o3(n * 8);
        std::memcpy(o3.data(), out3.data(), o3.size());
        EXPECT_EQ(s[4].bytes, o3) << "jobs " << jobs;
        if (!first) first = r.stats;
        expectSameCounts(r.stats, *first);
      }
  // Instructions: 6 before the loop, 13 per pass of 16 elements (n / 16 / threads passes), ret.
  EXPECT_EQ(first->instructions, uint64_t{threads} * (6 + 13 * (n / 16 / threads) + 1));
}

// A kernel that is one straight-line run (runStraight) counts what the
// step-by-step dispatcher counts: --max-steps one above the code's length
// leaves no room for the straight loop, --check runs each thread alone.
// Per thread (MOV/ADD/SHL and RET pages: lanes = enabled channels; SIMD s
// dispatch): the Offs start 8 + 8 + 16 lanes, Base 1, Data s, the scatter s,
// and RET (exec 1) ends the thread counting its s lanes; without the RET the
// thread runs off the end, one instruction and s lanes fewer.
TEST(SimRun, StraightKernelsCountAsStepByStep) {
  for (bool ret : {true, false}) {
    Module m = build(std::string(kHeader) + kOffsDataBase + ".decl Out v_type=T num_elts=1\n" + kByteOffsets +
                     R"(    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    mov (M1, 16) Data(0,0)<1> %thread_x(0,0)<0;1,0>
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 Data.0
)" + (ret ? "    ret (M1, 1)\n" : ""));
    ASSERT_EQ(m.kernels.size(), 1u);
    const uint64_t steps = ret ? 7 : 6;
    for (unsigned simd : {8u, 16u})
      for (unsigned jobs : {1u, 2u})
        for (int how = 0; how < 3; ++how) {
          constexpr uint32_t kThreads = 5;
          sim::LaunchConfig cfg;
          cfg.threads = {kThreads, 1};
          cfg.simd = simd;
          cfg.jobs = jobs;
          if (how == 1) cfg.maxSteps = steps + 1;
          cfg.check = how == 2;
          std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(kThreads * 64, 0xee)}};
          sim::RunResult r = sim::run(m.kernels[0], s, cfg);
          ASSERT_TRUE(r.ok()) << r.error;
          const std::string what = fmt::format("ret {} simd {} jobs {} how {}", ret, simd, jobs, how);
          EXPECT_EQ(r.stats.instructions, kThreads * steps) << what;
          EXPECT_EQ(r.stats.lanes, kThreads * (33 + (ret ? 3 : 2) * uint64_t{simd})) << what;
          for (uint32_t t = 0; t < kThreads; ++t)
            for (uint32_t i = 0; i < 16; ++i) {
              uint32_t v;
              std::memcpy(&v, s[0].bytes.data() + t * 64 + 4 * i, 4);
              ASSERT_EQ(v, i < simd ? t : 0xeeeeeeeeu) << what << " thread " << t << " dword " << i;
            }
        }
  }
}

// Values of the start worked out from the thread's ids (planThreadStart) are
// affine in them only where they are read as their own type: %thread_x read
// through a W alias is sign-extended (MOV page; chapter 4: W is signed), so
// thread 40000 gets 40000 - 65536, which no affine function of x gives for
// every x. A = sext16(x) + 1, B = zext(x) + 1 (UW); each thread stores both at 8x.
TEST(SimRun, ThreadIdsReadAsSignedWordsAreSignExtended) {
  Module m = build(std::string(kHeader) + R"(.decl TW v_type=G type=w num_elts=1 alias=<%thread_x, 0>
.decl A v_type=G type=d num_elts=1 align=dword
.decl B v_type=G type=ud num_elts=1 align=dword
.decl Base v_type=G type=ud num_elts=1 align=dword
.decl Off v_type=G type=ud num_elts=2 align=GRF
.decl V v_type=G type=ud num_elts=2 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 1) A(0,0)<1> TW(0,0)<0;1,0>
    add (M1_NM, 1) A(0,0)<1> A(0,0)<0;1,0> 0x1:d
    mov (M1_NM, 1) B(0,0)<1> %thread_x(0,0)<0;1,0>
    add (M1_NM, 1) B(0,0)<1> B(0,0)<0;1,0> 0x1:ud
    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x3:ud
    mov (M1_NM, 1) Off(0,1)<1> 0x4:ud
    mov (M1_NM, 1) V(0,0)<1> A(0,0)<0;1,0>
    mov (M1_NM, 1) V(0,1)<1> B(0,0)<0;1,0>
    scatter_scaled.4 (M1_NM, 2) Out Base(0,0)<0;1,0> Off.0 V.0
    ret (M1, 1)
)");
  ASSERT_EQ(m.kernels.size(), 1u);
  constexpr uint32_t kThreads = 40000;
  for (bool fold : {true, false})
    for (unsigned jobs : {1u, 2u}) {
      sim::LaunchConfig cfg;
      cfg.groupThreads = kThreads;
      cfg.simd = 16;
      cfg.jobs = jobs;
      cfg.foldConstantStart = fold;
      std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(kThreads * 8, 0)}};
      sim::RunResult r = sim::run(m.kernels[0], s, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      for (uint32_t x = 0; x < kThreads; ++x) {
        uint32_t v[2];
        std::memcpy(v, s[0].bytes.data() + 8 * x, 8);
        const uint32_t a = static_cast<uint32_t>(x < 32768 ? int32_t(x) + 1 : int32_t(x) - 65536 + 1);
        ASSERT_EQ(v[0], a) << "thread " << x << " fold " << fold << " jobs " << jobs;
        ASSERT_EQ(v[1], x + 1) << "thread " << x << " fold " << fold << " jobs " << jobs;
      }
    }
}

// Latency hiding on scattered dword lanes with every lane on (dramLanes): a
// thread yields once with its lines prefetched, then its in-bounds aligned
// lanes take the tight loop; a lane out of bounds or unaligned sends the
// instruction to the element loop, which must not yield a second time (it
// would come back to the same test for ever). Gather offsets I mix aligned,
// unaligned (4-byte reads at 4k+1..3, allowed) and out-of-bounds ones (E2:
// read zero); scatter offsets J are distinct aligned slots of Out2 or out of
// bounds (E2: dropped). Per element i: Dst[i] = Src@I[i]; Out2@J[i] = Dst[i].
TEST(SimRun, DeferredLanesOutOfBoundsOrUnalignedRunOnce) {
  Module m = build(std::string(kHeader) + kChunkDecls + R"(.decl I v_type=G type=ud num_elts=16 align=GRF
.decl J v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=1
.decl Src v_type=T num_elts=1
.decl Gi v_type=T num_elts=1
.decl Si v_type=T num_elts=1
.decl Dst v_type=T num_elts=1
.decl Out2 v_type=T num_elts=1
.input Src offset=32 size=4
.input Gi offset=36 size=4
.input Si offset=40 size=4
.input Dst offset=44 size=4
.input Out2 offset=48 size=4
.input Chunk offset=52 size=4
)" + kChunkStart + R"(    gather_scaled.4 (M1, 16) Gi Cur(0,0)<0;1,0> Off.0 I.0
    gather_scaled.4 (M1, 16) Si Cur(0,0)<0;1,0> Off.0 J.0
    gather_scaled.4 (M1, 16) Src 0x0:ud I.0 D.0
    scatter_scaled.4 (M1, 16) Dst Cur(0,0)<0;1,0> Off.0 D.0
    scatter_scaled.4 (M1, 16) Out2 0x0:ud J.0 D.0
    add (M1_NM, 1) Cur(0,0)<1> Cur(0,0)<0;1,0> 0x40:ud
    cmp.lt (M1_NM, 1) P1 Cur(0,0)<0;1,0> End(0,0)<0;1,0>
    (P1) jmp (M1, 1) LOOP
    ret (M1, 1)
)",
                   64);
  ASSERT_EQ(m.kernels.size(), 1u);
  constexpr uint32_t n = 2048, threads = 8, chunk = n * 4 / threads, srcBytes = 4096, outBytes = 4 * n;
  std::mt19937 rng(11);
  std::vector<uint8_t> src(srcBytes);
  for (uint8_t& b : src) b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> slots(n);
  for (uint32_t i = 0; i < n; ++i) slots[i] = 4 * i;
  std::shuffle(slots.begin(), slots.end(), rng);
  std::vector<uint32_t> gi(n), si(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t kind = rng() % 8;  // mostly aligned in bounds; one block in 8 all in bounds
    if ((i / 16) % 8 == 3 || kind < 5) gi[i] = 4 * (rng() % (srcBytes / 4));
    else if (kind == 5) gi[i] = 4 * (rng() % (srcBytes / 4 - 1)) + 1 + rng() % 3;  // unaligned, in bounds
    else if (kind == 6) gi[i] = srcBytes - 2;                                       // straddles the end
    else gi[i] = srcBytes + 4 * (rng() % 64);                                       // out of bounds
    si[i] = (i / 16) % 8 != 3 && rng() % 8 == 0 ? outBytes + 4 * i : slots[i];
  }
  // The reference model: a 4-byte element is in bounds only if all its bytes are (E2).
  std::vector<uint32_t> dst(n), out2(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (gi[i] + 4 <= srcBytes) std::memcpy(&dst[i], src.data() + gi[i], 4);
    if (si[i] + 4 <= outBytes) out2[si[i] / 4] = dst[i];
  }
  sim::LaunchConfig cfg;
  cfg.grfSize = 64;
  cfg.groups = {threads, 1, 1};
  cfg.simd = 16;
  cfg.args = {{"Chunk", std::to_string(chunk)}};
  std::optional<sim::Stats> first;
  for (std::optional<uint64_t> from : {std::optional<uint64_t>{}, std::optional<uint64_t>{0}})
    for (unsigned jobs : {1u, 2u}) {
      cfg.hideLatencyFromBytes = from;
      cfg.jobs = jobs;
      std::vector<sim::SurfaceBinding> s = {{"Src", src},
                                            {"Gi", bytesOf(gi)},
                                            {"Si", bytesOf(si)},
                                            {"Dst", std::vector<uint8_t>(n * 4, 0)},
                                            {"Out2", std::vector<uint8_t>(outBytes, 0)}};
      sim::RunResult r = sim::run(m.kernels[0], s, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(s[3].bytes, bytesOf(dst)) << "jobs " << jobs << (from ? " every surface deferred" : "");
      EXPECT_EQ(s[4].bytes, bytesOf(out2)) << "jobs " << jobs << (from ? " every surface deferred" : "");
      if (!first) first = r.stats;
      expectSameCounts(r.stats, *first);
    }
  // Instructions: 6 before the loop, 9 per pass of 16 elements with the label (n / 16 / threads passes), ret.
  EXPECT_EQ(first->instructions, uint64_t{threads} * (6 + 9 * (n / 16 / threads) + 1));
}

// A thread that yields with lanes parked (a forward GOTO over a scattered
// gather on a DRAM surface) keeps its own lanes' program counters across the
// thread switch: odd threads park their even lanes at JA, even threads at JB,
// and each label's ADD tells which one a lane came back through. Element
// e = 16 t + l: D = l even ? 0xdead : Src[Idx[e]], plus 1 (t odd) or 2 (t even).
TEST(SimRun, ParkedLanesSurviveAThreadSwitch) {
  Module m = build(std::string(kHeader) + R"(.decl Tid v_type=G type=ud num_elts=1 align=dword
.decl Base v_type=G type=ud num_elts=1 align=dword
.decl Par v_type=G type=ud num_elts=1 align=dword
.decl Off v_type=G type=ud num_elts=16 align=GRF
.decl Lb v_type=G type=ud num_elts=16 align=GRF
.decl I v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=1
.decl Src v_type=T num_elts=1
.decl Idx v_type=T num_elts=1
.decl Dst v_type=T num_elts=1
.input Src offset=32 size=4
.input Idx offset=36 size=4
.input Dst offset=40 size=4
    mov (M1_NM, 1) Tid(0,0)<1> %group_id_x(0,0)<0;1,0>
    shl (M1_NM, 1) Base(0,0)<1> Tid(0,0)<0;1,0> 0x6:ud
    and (M1_NM, 1) Par(0,0)<1> Tid(0,0)<0;1,0> 0x1:ud
    mov (M1_NM, 8) Off(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Off(0,8)<1> Off(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Off(0,0)<1> Off(0,0)<1;1,0> 0x2:ud
    and (M1_NM, 16) Lb(0,0)<1> Off(0,0)<1;1,0> 0x4:ud
    cmp.eq (M1_NM, 16) P1 Lb(0,0)<1;1,0> 0x0:ud
    cmp.eq (M1_NM, 1) P2 Par(0,0)<0;1,0> 0x0:ud
    gather_scaled.4 (M1, 16) Idx Base(0,0)<0;1,0> Off.0 I.0
    shl (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x2:ud
    mov (M1, 16) D(0,0)<1> 0xdead:ud
    (P2) jmp (M1, 1) EVEN
    (P1) goto (M1, 16) JA
    gather_scaled.4 (M1, 16) Src 0x0:ud I.0 D.0
JA:
    add (M1, 16) D(0,0)<1> D(0,0)<1;1,0> 0x1:ud
    jmp (M1, 1) END
EVEN:
    (P1) goto (M1, 16) JB
    gather_scaled.4 (M1, 16) Src 0x0:ud I.0 D.0
JB:
    add (M1, 16) D(0,0)<1> D(0,0)<1;1,0> 0x2:ud
END:
    scatter_scaled.4 (M1, 16) Dst Base(0,0)<0;1,0> Off.0 D.0
    ret (M1, 1)
)",
                   64);
  ASSERT_EQ(m.kernels.size(), 1u);
  constexpr uint32_t threads = 64, n = 16 * threads;
  std::mt19937 rng(5);
  std::vector<uint32_t> src(n), idx(n), want(n);
  for (uint32_t& v : src) v = static_cast<uint32_t>(rng());
  for (uint32_t& v : idx) v = static_cast<uint32_t>(rng() % n);
  for (uint32_t e = 0; e < n; ++e) want[e] = (e % 2 == 0 ? 0xdeadu : src[idx[e]]) + ((e / 16) % 2 ? 1 : 2);
  sim::LaunchConfig cfg;
  cfg.grfSize = 64;
  cfg.groups = {threads, 1, 1};
  cfg.simd = 16;
  for (std::optional<uint64_t> from : {std::optional<uint64_t>{}, std::optional<uint64_t>{0}})
    for (unsigned jobs : {1u, 2u}) {
      cfg.hideLatencyFromBytes = from;
      cfg.jobs = jobs;
      std::vector<sim::SurfaceBinding> s = {{"Src", bytesOf(src)}, {"Idx", bytesOf(idx)}, {"Dst", std::vector<uint8_t>(n * 4, 0)}};
      sim::RunResult r = sim::run(m.kernels[0], s, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(s[2].bytes, bytesOf(want)) << "jobs " << jobs << (from ? " every surface deferred" : "");
    }
}

TEST(SimRun, StatisticsCountInstructionsLanesAndBytes) {
  Module m = build(slmKernel());
  sim::LaunchConfig cfg;
  cfg.groups = {2, 1, 1};
  cfg.groupThreads = 1;
  cfg.slmBytes = 64;
  cfg.simd = 8;  // M1 instructions of exec 16 have 8 lanes on
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(2048, 0)}};
  sim::RunResult r = sim::run(m.kernels[0], s, cfg);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.stats.instructions, 2u * 13);
  // Per thread: NoMask 8+8+16+1+1+16+16+1+1 = 68, M1 x16 with 8 on: 8*3, ret: 8.
  EXPECT_EQ(r.stats.lanes, 2u * (68 + 24 + 8));
  ASSERT_EQ(r.stats.spaces.size(), 2u);
  EXPECT_EQ(r.stats.spaces[0].name, "Out");
  EXPECT_EQ(r.stats.spaces[0].bytesWritten, 2u * 32);
  EXPECT_EQ(r.stats.spaces[0].bytesRead, 0u);
  EXPECT_EQ(r.stats.spaces[1].name, "%slm");
  EXPECT_EQ(r.stats.spaces[1].bytesRead, 2u * 32);
  EXPECT_EQ(r.stats.spaces[1].bytesWritten, 2u * 32);
}

TEST(SimRun, LaunchErrors) {
  Module m = build(slmKernel());
  const Kernel& k = m.kernels[0];
  sim::LaunchConfig cfg;
  cfg.slmBytes = 64;
  std::vector<sim::SurfaceBinding> none;
  auto r = sim::run(k, none, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::LaunchError);
  EXPECT_NE(r.error.find("not bound"), std::string::npos) << r.error;
  std::vector<sim::SurfaceBinding> bad = {{"Out", {0, 0, 0, 0}}, {"Nope", {}}};
  r = sim::run(k, bad, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::LaunchError);
  EXPECT_NE(r.error.find("unknown surface 'Nope'"), std::string::npos) << r.error;
  std::vector<sim::SurfaceBinding> ok = {{"T6", {0, 0, 0, 0}}};  // T<id> names the same surface
  cfg.slmBytes.reset();
  r = sim::run(k, ok, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::LaunchError);
  EXPECT_NE(r.error.find("--slm"), std::string::npos) << r.error;
  cfg.slmBytes = 64;
  cfg.simd = 33;
  r = sim::run(k, ok, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::LaunchError);
  cfg.simd = 0;
  cfg.args = {{"Base", "1"}};
  r = sim::run(k, ok, cfg);
  EXPECT_NE(r.error.find("not a kernel input"), std::string::npos) << r.error;
  cfg.args.clear();
  r = sim::run(k, ok, cfg);
  EXPECT_TRUE(r.ok()) << r.error;
}

// A surface written with more than one host thread is copied to in 16-, 8-
// or 4-byte stores by the alignment of each run (atomicCopyOut). Thread t
// writes 3t + 4i to dword i at byte Shift + 64t + 4i; every other byte keeps
// its 0xee, whatever Shift (mod 16) and the host threads.
TEST(SimRun, SharedSurfaceRunsAtEveryAlignment) {
  Module m = build(std::string(kHeader) + kOffsDataBase + R"(.decl Shift v_type=G type=ud num_elts=1 align=dword
.decl Out v_type=T num_elts=1
.input Shift offset=32 size=4
)" + kByteOffsets + R"(    mov (M1_NM, 16) Data(0,0)<1> %thread_x(0,0)<0;1,0>
    mul (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x3:ud
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> Offs(0,0)<1;1,0>
    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    add (M1_NM, 1) Base(0,0)<1> Base(0,0)<0;1,0> Shift(0,0)<0;1,0>
    scatter_scaled.4 (M1, 16) Out Base(0,0)<0;1,0> Offs.0 Data.0
    ret (M1, 1)
)");
  ASSERT_EQ(m.kernels.size(), 1u);
  for (uint32_t shift : {0u, 4u, 8u, 12u})
    for (uint32_t threads : {1u, 7u, 64u})
      for (unsigned jobs : {1u, 2u, 4u}) {
        sim::LaunchConfig cfg;
        cfg.threads = {threads, 1};
        cfg.simd = 16;
        cfg.jobs = jobs;
        cfg.args = {{"Shift", std::to_string(shift)}};
        std::vector<uint8_t> want((threads + 1) * 64, 0xee);
        for (uint32_t t = 0; t < threads; ++t)
          for (uint32_t i = 0; i < 16; ++i) {
            const uint32_t v = 3 * t + 4 * i;
            std::memcpy(want.data() + shift + 64 * t + 4 * i, &v, 4);
          }
        std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(want.size(), 0xee)}};
        sim::RunResult r = sim::run(m.kernels[0], s, cfg);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(s[0].bytes, want) << "Shift " << shift << ", " << threads << " threads, jobs " << jobs;
      }
}

// Threads on their own of a kernel without loops run two at a time in lock
// step per host thread (dispatch.cpp, runGang) until their paths part: here
// threads with bit 1 of their id set jump over an ADD (a pair of threads
// 4m+1 and 4m+2 parts there), then lanes i < t % 16 jump over another (a
// divergent GOTO, met together: the other lanes run it and wait at SKIP, where
// all rejoin). Every thread must still do exactly its own work, and
// --max-steps stays exact.
TEST(SimRun, ThreadsInLockStepPartWhereTheirPathsDo) {
  Module m = build(std::string(kHeader) + kOffsDataBase + R"(.decl K v_type=G type=ud num_elts=1 align=dword
.decl B v_type=G type=ud num_elts=1 align=dword
.decl Lane v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.decl Out v_type=T num_elts=1
)" + kByteOffsets + R"(    mov (M1_NM, 8) Lane(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Lane(1,0)<1> Lane(0,0)<1;1,0> 0x8:ud
    and (M1_NM, 1) K(0,0)<1> %thread_x(0,0)<0;1,0> 0xf:ud
    and (M1_NM, 1) B(0,0)<1> %thread_x(0,0)<0;1,0> 0x2:ud
    mov (M1_NM, 16) Data(0,0)<1> 0x1:ud
    cmp.ne (M1_NM, 1) P1 B(0,0)<0;1,0> 0x0:ud
    (P1) jmp (M1, 1) PART
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x10:ud
PART:
    cmp.lt (M1_NM, 16) P2 Lane(0,0)<1;1,0> K(0,0)<0;1,0>
    (P2) goto (M1, 16) SKIP
    add (M1, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x100:ud
SKIP:
)" + kStoreDataPerThread);
  ASSERT_EQ(m.kernels.size(), 1u);
  for (uint32_t threads : {1u, 2u, 3u, 7u, 9u, 40u})
    for (unsigned jobs : {1u, 2u}) {
      sim::LaunchConfig cfg;
      cfg.threads = {threads, 1};
      cfg.simd = 16;
      cfg.jobs = jobs;
      // Steps: offsets 3, lanes 2, AND, AND, MOV, CMP, JMP, the ADD when bit 1
      // is clear, PART, CMP, GOTO, the ADD (lane 15 >= t % 16 never jumps),
      // SKIP, SHL, scatter, RET.
      uint64_t steps = 0, longest = 0;
      for (uint32_t t = 0; t < threads; ++t) {
        const uint64_t own = 18 + ((t & 2) ? 0 : 1);
        steps += own;
        longest = std::max(longest, own);
      }
      for (uint64_t max : {uint64_t{10000000}, longest, longest - 1}) {
        cfg.maxSteps = max;
        std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(threads * 64, 0xee)}};
        sim::RunResult r = sim::run(m.kernels[0], s, cfg);
        if (max < longest) {
          EXPECT_EQ(r.status, sim::RunResult::Status::Failed) << threads << " threads, jobs " << jobs;
          continue;
        }
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(r.stats.instructions, steps) << threads << " threads, jobs " << jobs;
        for (uint32_t t = 0; t < threads; ++t)
          for (uint32_t i = 0; i < 16; ++i) {
            // JMP page: taken when bit 1 is set; GOTO page: lanes i < t % 16 skip 0x100.
            uint32_t v;
            std::memcpy(&v, s[0].bytes.data() + t * 64 + 4 * i, 4);
            ASSERT_EQ(v, 1 + ((t & 2) ? 0u : 0x10u) + (i >= t % 16 ? 0x100u : 0u))
                << "thread " << t << " lane " << i << ", " << threads << " threads, jobs " << jobs;
          }
      }
    }
}

// A one-lane CMP right before a JMP runs as one handler (DInst::tailFn) but
// still counts as two instructions, and --max-steps stays exact around it.
TEST(SimRun, CompareAndBranchCountsTwoStepsAndMaxStepsIsExact) {
  Module m = build(std::string(kHeader) + R"(.decl I v_type=G type=ud num_elts=1 align=dword
.decl P1 v_type=P num_elts=16
    mov (M1_NM, 1) I(0,0)<1> 0x0:ud
LOOP:
    add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:ud
    cmp.lt (M1_NM, 1) P1 I(0,0)<0;1,0> 0x5:ud
    (P1) jmp (M1, 1) LOOP
    ret (M1, 1)
)");
  // Per thread: mov, then 5 passes of LABEL, ADD, CMP, JMP (I = 1..4 jump back,
  // 5 falls through), then RET: 1 + 5 * 4 + 1 = 22 steps. Lanes (statistics):
  // mov 1; per pass ADD 1, CMP 1, JMP all 8 running lanes (--simd 8); RET 8.
  const uint64_t steps = 22, lanes = 1 + 5 * (1 + 1 + 8) + 8;
  for (unsigned jobs : {1u, 2u}) {
    sim::LaunchConfig cfg;
    cfg.simd = 8;
    cfg.threads = {3, 1};
    cfg.jobs = jobs;
    std::vector<sim::SurfaceBinding> none;
    cfg.maxSteps = steps;
    sim::RunResult r = sim::run(m.kernels[0], none, cfg);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.stats.instructions, 3 * steps);
    EXPECT_EQ(r.stats.lanes, 3 * lanes);
    // One step short: the RET (21 steps before it), then the JMP of the last
    // pass (20 before it), then the CMP (19) are the step that is too many.
    for (uint64_t max : {steps - 1, steps - 2, steps - 3}) {
      cfg.maxSteps = max;
      r = sim::run(m.kernels[0], none, cfg);
      EXPECT_EQ(r.status, sim::RunResult::Status::Failed) << max;
      EXPECT_NE(r.error.find("--max-steps"), std::string::npos) << r.error;
    }
  }
}

TEST(SimRun, MaxStepsFailsAndLeavesSurfacesAlone) {
  Module m = build(std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=8 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x1:ud
    scatter_scaled.4 (M1, 8) Out 0x0:ud Offs.0 Offs.0
LOOP:
    jmp (M1, 1) LOOP
)");
  sim::LaunchConfig cfg;
  cfg.maxSteps = 1000;
  cfg.threads = {4, 1};
  cfg.transactional = true;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(8, 0)}};
  auto r = sim::run(m.kernels[0], s, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::Failed);
  EXPECT_NE(r.error.find("--max-steps"), std::string::npos) << r.error;
  EXPECT_EQ(s[0].bytes, std::vector<uint8_t>(8, 0));
  // Not transactional (the default): the run works in place, so the scatter
  // before the endless loop is already in the bytes: lanes 0..1 write 1 at
  // byte 1 (the highest lane wins, E3), so dwords at 1 = {1,0,0,0} little endian.
  cfg.transactional = false;
  cfg.jobs = 1;
  r = sim::run(m.kernels[0], s, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::Failed);
  EXPECT_EQ(s[0].bytes, (std::vector<uint8_t>{0, 1, 0, 0, 0, 0, 0, 0}));
}

TEST(SimRun, FindingsAreAggregatedPerInstructionAndKind) {
  // 16 lanes write 4 bytes at 14 + 4i of a 16-byte surface: all out of bounds (lane 0 straddles the end).
  Module m = build(std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    scatter_scaled.4 (M1, 16) Out 0xe:ud Offs.0 Offs.0
    gather_scaled.2 (M1, 16) Out 0xe:ud Offs.0 Offs.0
    ret (M1, 1)
)");
  sim::LaunchConfig cfg;
  cfg.check = true;
  cfg.simd = 16;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(16, 0)}};
  auto r = sim::run(m.kernels[0], s, cfg);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.findings.size(), 2u);
  // scatter: lane 0 at 14..17 straddles the end: out of bounds, so every lane is.
  const sim::Finding& w = r.findings[0];
  EXPECT_EQ(w.kind, sim::Finding::Kind::OutOfBoundsWrite);
  EXPECT_EQ(w.instruction, 3u);
  EXPECT_EQ(w.loc.line, 8u);
  EXPECT_EQ(w.count, 16u);
  EXPECT_EQ(w.space, "Out");
  EXPECT_EQ(w.spaceSize, 16u);
  ASSERT_EQ(w.examples.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(w.examples[i].lane, i);
    EXPECT_EQ(w.examples[i].address, 14u + 4 * i);
    EXPECT_EQ(w.examples[i].size, 4u);
  }
  // gather.2: lane 0 reads 14..15 (in bounds), the others are out.
  EXPECT_EQ(r.findings[1].kind, sim::Finding::Kind::OutOfBoundsRead);
  EXPECT_EQ(r.findings[1].count, 15u);
  EXPECT_EQ(s[0].bytes, std::vector<uint8_t>(16, 0));
  cfg.check = false;
  r = sim::run(m.kernels[0], s, cfg);
  EXPECT_TRUE(r.findings.empty());
}

TEST(SimRun, Scatter4DwordIndexDoesNotWrap) {
  // E17: address 0xfffffffc -> dword 0x3fffffff + c; channel G is byte 2^32, not byte 0.
  Module m = build(std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=8 align=GRF
.decl Src v_type=G type=ud num_elts=16 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x0:ud
    mov (M1_NM, 16) Src(0,0)<1> 0x1234:ud
    scatter4_scaled.RG (M1_NM, 8) Out 0xfffffffc:ud Offs.0 Src.0
    ret (M1, 1)
)");
  sim::LaunchConfig cfg;
  cfg.check = true;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(16, 0)}};
  auto r = sim::run(m.kernels[0], s, cfg);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(s[0].bytes, std::vector<uint8_t>(16, 0));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].count, 16u);
  EXPECT_EQ(r.findings[0].examples[0].address, 0xfffffffcu);
}

// GOTO page: lanes that jump park at the label and rejoin the others there,
// so the code after a join runs once for all of them (chapter 3 "Branch
// Instructions"). Lanes 0-7 jump over one instruction to a label inside the
// straight-line stretch that runs on to the RET; the NoMask add after the
// label counts how many times that code runs: once.
TEST(SimRun, LanesParkedAtALabelInsideAStraightStretchRejoinThere) {
  Module m = build(std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Lane v_type=G type=uw num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl Cnt v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Lane(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Lane(0,8)<1> Lane(0,0)<1;1,0> 0x8:uw
    mov (M1_NM, 16) Offs(0,0)<1> Lane(0,0)<1;1,0>
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    mov (M1_NM, 16) V(0,0)<1> 0x0:ud
    mov (M1_NM, 16) Cnt(0,0)<1> 0x0:ud
    cmp.lt (M1, 16) P1 Lane(0,0)<1;1,0> 0x8:uw
    (P1) goto (M1, 16) L1
    add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x10:ud
L1:
    add (M1_NM, 16) Cnt(0,0)<1> Cnt(0,0)<1;1,0> 0x1:ud
    add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> Cnt(0,0)<1;1,0>
    scatter_scaled.4 (M1, 16) Out 0x0:ud Offs.0 V.0
    ret (M1, 1)
)");
  // Lanes 0-7: 0 + 1 (the count after the join); lanes 8-15: 0x10 + 1.
  std::vector<uint8_t> want(64, 0);
  for (unsigned i = 0; i < 16; ++i) want[4 * i] = static_cast<uint8_t>(i < 8 ? 1 : 0x11);
  const auto out = outOfEachTier(m.kernels[0], 64, false);
  EXPECT_EQ(out[0], want) << "fast tier";
  EXPECT_EQ(out[1], want) << "reference tier";
}

// MAD page: src0 * src1 + src2 "rounded once". (1 + 2^-23)^2 = 1 + 2^-22 +
// 2^-46, so with src2 = -(1 + 2^-22) the fused result is 2^-46 (0x28800000);
// a product rounded first would give 0. A signalling NaN gives the canonical
// one (E14). Integers: 0x10000 * 0x10000 + 5 truncated to UD is 5; W lanes
// -3 * -3 + 5 = 14. The fast tier runs each MAD in its form.
TEST(SimRun, MadRoundsOnceAndWrapsIntegers) {
  Module m = build(std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Bits v_type=G type=ud num_elts=64 align=GRF
.decl AF v_type=G type=f num_elts=16 alias=<Bits, 0>
.decl CF v_type=G type=f num_elts=16 alias=<Bits, 64>
.decl NF v_type=G type=f num_elts=16 alias=<Bits, 128>
.decl QF v_type=G type=f num_elts=16 alias=<Bits, 192>
.decl Res v_type=G type=ud num_elts=80 align=GRF
.decl R1 v_type=G type=f num_elts=16 alias=<Res, 0>
.decl R2 v_type=G type=f num_elts=16 alias=<Res, 64>
.decl R3 v_type=G type=f num_elts=16 alias=<Res, 128>
.decl R4 v_type=G type=ud num_elts=16 alias=<Res, 192>
.decl R5 v_type=G type=d num_elts=16 alias=<Res, 256>
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=w num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl Out v_type=T num_elts=1
)" + kByteOffsets + R"(    mov (M1_NM, 16) Bits(0,0)<1> 0x3f800001:ud
    mov (M1_NM, 16) Bits(2,0)<1> 0xbf800002:ud
    mov (M1_NM, 16) Bits(4,0)<1> 0x3f800002:ud
    mov (M1_NM, 16) Bits(6,0)<1> 0x7f800001:ud
    mov (M1_NM, 16) Res(0,0)<1> 0x0:ud
    mov (M1_NM, 16) Res(2,0)<1> 0x0:ud
    mov (M1_NM, 16) X(0,0)<1> 0x10000:ud
    mov (M1_NM, 16) W(0,0)<1> 0xfffd:w
    setp (M1_NM, 16) P1 0x00ff:uw
    (P1) mad (M1, 16) R1(0,0)<1> AF(0,0)<1;1,0> AF(0,0)<1;1,0> CF(0,0)<1;1,0>
    mad (M1, 16) R2(0,0)<1> AF(0,0)<1;1,0> AF(0,3)<0;1,0> (-)NF(0,0)<1;1,0>
    mad (M1, 16) R3(0,0)<1> AF(0,0)<1;1,0> AF(0,0)<1;1,0> QF(0,0)<1;1,0>
    mad (M1, 16) R4(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0> 0x5:ud
    mad (M1, 16) R5(0,0)<1> W(0,0)<1;1,0> W(0,0)<1;1,0> 0x5:d
    scatter_scaled.4 (M1_NM, 16) Out 0x0:ud Offs.0 Res.0
    scatter_scaled.4 (M1_NM, 16) Out 0x40:ud Offs.0 Res.64
    scatter_scaled.4 (M1_NM, 16) Out 0x80:ud Offs.0 Res.128
    scatter_scaled.4 (M1_NM, 16) Out 0xc0:ud Offs.0 Res.192
    scatter_scaled.4 (M1_NM, 16) Out 0x100:ud Offs.0 Res.256
    ret (M1, 1)
)");
  std::vector<uint32_t> want(80, 0);
  for (unsigned i = 0; i < 16; ++i) {
    want[i] = i < 8 ? 0x28800000u : 0;  // (P1: lanes 0-7)
    want[16 + i] = 0x28800000u;
    want[32 + i] = 0x7fc00000u;
    want[48 + i] = 5;
    want[64 + i] = 14;
  }
  const auto out = outOfEachTier(m.kernels[0], 320, true);
  EXPECT_EQ(out[0], bytesOf(want)) << "fast tier";
  EXPECT_EQ(out[1], bytesOf(want)) << "reference tier";
}

TEST(SimRun, ThreadCoordinates) {
  sim::LaunchConfig cfg;
  cfg.threads = {3, 2};
  cfg.groups = {2, 2, 2};
  sim::ThreadCoord c = sim::threadCoord(cfg, 6 * 5 + 4);  // group 5 = (1, 0, 1), local 4 = (1, 1)
  EXPECT_EQ(c.x, 1u);
  EXPECT_EQ(c.y, 1u);
  EXPECT_EQ(c.gx, 1u);
  EXPECT_EQ(c.gy, 0u);
  EXPECT_EQ(c.gz, 1u);
}

// ---- indirect MOVs and ADDR_ADD on random data: the fast tier's bytes are
// the reference tier's (the oracle), over the operand shapes IGC's private
// arrays use, with some lanes off and addresses past the register file ----

TEST(SimIndirectFuzz, IndirectMovesAndAddrAddEqualTheReference) {
  const std::string text = std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=32 align=GRF
.decl Raw v_type=G type=ud num_elts=256 align=GRF
.decl Arr v_type=G type=ud num_elts=128 alias=<Raw, 0>
.decl Res v_type=G type=d num_elts=128 alias=<Raw, 512>
.decl ResW v_type=G type=w num_elts=64 alias=<Raw, 512>
.decl ResB v_type=G type=ub num_elts=128 alias=<Raw, 512>
.decl ResQ v_type=G type=uq num_elts=16 alias=<Raw, 768>
.decl Sh v_type=G type=uw num_elts=16 alias=<Raw, 896>
.decl Sw v_type=G type=uw num_elts=16 alias=<Raw, 928>
.decl Sd v_type=G type=d num_elts=16 alias=<Raw, 960>
.decl A0 v_type=A num_elts=16
.decl A1 v_type=A num_elts=16
.decl A2 v_type=A num_elts=16
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.decl In v_type=T num_elts=1
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    add (M1_NM, 16) Offs(2,0)<1> Offs(0,0)<1;1,0> 0x10:ud
    shl (M1_NM, 32) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    gather_scaled.4 (M1_NM, 32) In 0x0:ud Offs.0 Raw.0
    gather_scaled.4 (M1_NM, 32) In 0x80:ud Offs.0 Raw.128
    gather_scaled.4 (M1_NM, 32) In 0x100:ud Offs.0 Raw.256
    gather_scaled.4 (M1_NM, 32) In 0x180:ud Offs.0 Raw.384
    gather_scaled.4 (M1_NM, 32) In 0x200:ud Offs.0 Raw.512
    gather_scaled.4 (M1_NM, 32) In 0x280:ud Offs.0 Raw.640
    gather_scaled.4 (M1_NM, 32) In 0x300:ud Offs.0 Raw.768
    gather_scaled.4 (M1_NM, 32) In 0x380:ud Offs.0 Raw.896
    setp (M1_NM, 16) P1 0xa5f1:ud
    setp (M1_NM, 16) P2 0x0100:ud
    and (M1_NM, 16) Sh(0,0)<1> Sh(0,0)<1;1,0> 0x1fc:uw
    and (M1_NM, 16) Sd(0,0)<1> Sd(0,0)<1;1,0> 0xff:d
    and (M1_NM, 16) Sw(0,0)<1> Sw(0,0)<1;1,0> 0xfc:uw
    addr_add (M1_NM, 16) A0(0)<1> &Arr Sh(0,0)<1;1,0>
    addr_add (M1_NM, 16) A1(0)<1> &Arr[256] Sh(0,0)<1;1,0>
    addr_add (M1, 16) A1(0)<1> &Arr[64] Sw(0,0)<1;1,0>
    addr_add (M1_NM, 4) A2(0)<1> &Arr[4] 0x10:uw
    addr_add (M1_NM, 2) A2(2)<1> &Arr 0x7ff0:uw
    mov (M1_NM, 16) Res(0,0)<1> r[A0(0),0]<1,0>:d
    (P1) mov (M1, 16) Res(2,0)<1> r[A1(0),2]<1,0>:d
    (!P1) mov (M1, 16) ResW(2,0)<1> r[A0(0),6]<1,0>:w
    (P2) mov (M1, 16) ResB(3,0)<2> r[A1(0),0]<1,0>:ub
    mov (M1_NM, 8) ResQ(0,0)<1> r[A0(8),0]<1,0>:uq
    mov (M1_NM, 8) Res(4,0)<1> r[A2(2),0]<1,0>:d
    (P1) mov (M1, 16) r[A0(1),0]<1>:d Res(0,0)<1;1,0>
    (P2) mov (M1, 16) r[A0(5),8]<1>:d Sd(0,3)<0;1,0>
    (!P2) mov (M1, 8) r[A1(3),0]<1>:w 0x4321:w
    mov (M1_NM, 4) r[A2(0),0]<1>:uq ResQ(0,0)<1;1,0>
    mov (M1_NM, 4) r[A2(3),0]<1>:d 0x11:d
    mov (M1_NM, 8) r[A0(9),0]<1>:d r[A1(8),4]<1,0>:d
    scatter_scaled.4 (M1_NM, 32) Out 0x0:ud Offs.0 Raw.0
    scatter_scaled.4 (M1_NM, 32) Out 0x80:ud Offs.0 Raw.128
    scatter_scaled.4 (M1_NM, 32) Out 0x100:ud Offs.0 Raw.256
    scatter_scaled.4 (M1_NM, 32) Out 0x180:ud Offs.0 Raw.384
    scatter_scaled.4 (M1_NM, 32) Out 0x200:ud Offs.0 Raw.512
    scatter_scaled.4 (M1_NM, 32) Out 0x280:ud Offs.0 Raw.640
    scatter_scaled.4 (M1_NM, 32) Out 0x300:ud Offs.0 Raw.768
    scatter_scaled.4 (M1_NM, 32) Out 0x380:ud Offs.0 Raw.896
    ret (M1, 1)
)";
  Module m = build(text);
  for (uint64_t seed : {1u, 2u, 3u, 4u}) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> in(1024);
    for (auto& b : in) b = static_cast<uint8_t>(rng());
    for (unsigned simd : {8u, 16u}) {  // (SIMD8: the lanes past 8 of an (M1, 16) are off)
    std::vector<uint8_t> out[2];
    for (bool reference : {false, true}) {
      sim::LaunchConfig cfg;
      cfg.simd = simd;
      cfg.reference = reference;
      std::vector<sim::SurfaceBinding> s = {{"In", in}, {"Out", std::vector<uint8_t>(1024, 0)}};
      auto r = sim::run(m.kernels[0], s, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(r.stats.tier, reference ? "reference" : "fast");
      if (!reference) {
        EXPECT_EQ(r.stats.viaSemantics, 0u);  // (every instruction in its fast form)
      }
      out[reference] = s[1].bytes;
    }
    for (size_t i = 0; i < out[0].size(); ++i)
      if (out[0][i] != out[1][i]) {
        ADD_FAILURE() << "seed " << seed << ", SIMD" << simd << ": byte " << i << ": fast tier " << int(out[0][i])
                      << ", reference tier " << int(out[1][i]);
        break;
      }
    }
  }
}

// ---- every ALU type combination on random data: defined results, no UB, and
// the fast tier's bytes are the reference tier's (the oracle) ----

const char* kTypes[] = {"ud", "d", "uw", "w", "ub", "b", "uq", "q", "f", "df", "hf"};

TEST(SimAluFuzz, EveryTypeCombinationRunsOnRandomData) {
  std::string decls, code;
  decls += ".decl Raw v_type=G type=ud num_elts=1024 align=GRF\n";
  decls += ".decl Offs v_type=G type=ud num_elts=32 align=GRF\n";
  decls += ".decl In v_type=T num_elts=1\n";
  decls += ".decl P1 v_type=P num_elts=32\n";
  decls += ".decl P2 v_type=P num_elts=32\n";
  decls += ".decl P3 v_type=P num_elts=32\n";
  decls += ".decl Out v_type=T num_elts=1\n";
  constexpr unsigned kResBytes = 256;  // a destination's 32 elements of at most 8 bytes
  // Res: each type's destination D_t, then Acc, to which every instruction's
  // first 128 destination bytes (X_t) are added after it (as dwords, wrapping).
  const size_t resBytes = std::size(kTypes) * kResBytes + 128;
  decls += fmt::format(".decl Res v_type=G type=ud num_elts={} align=GRF\n", resBytes / 4);
  decls += fmt::format(".decl Acc v_type=G type=ud num_elts=32 alias=<Res, {}>\n", std::size(kTypes) * kResBytes);
  unsigned n = 0;
  for (const char* t : kTypes) {
    decls += fmt::format(".decl A_{0} v_type=G type={0} num_elts=16 alias=<Raw, {1}>\n", t, 128 * n);
    decls += fmt::format(".decl B_{0} v_type=G type={0} num_elts=16 alias=<Raw, {1}>\n", t, 2048 + 128 * n);
    decls += fmt::format(".decl D_{0} v_type=G type={0} num_elts=32 alias=<Res, {1}>\n", t, kResBytes * n);
    decls += fmt::format(".decl X_{0} v_type=G type=ud num_elts=32 alias=<Res, {1}>\n", t, kResBytes * n);
    ++n;
  }
  code += "    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v\n";
  code += "    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud\n";
  code += "    add (M1_NM, 16) Offs(2,0)<1> Offs(0,0)<1;1,0> 0x10:ud\n";
  code += "    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud\n";
  code += "    shl (M1_NM, 16) Offs(2,0)<1> Offs(2,0)<1;1,0> 0x2:ud\n";
  for (unsigned blk = 0; blk < 32; ++blk)
    code += fmt::format("    gather_scaled.4 (M1_NM, 32) In {0:#x}:ud Offs.0 Raw.{0}\n", 128 * blk);
  // Predicates: P1 half the lanes, P2 few (one of 16, the lane-by-lane
  // stores), P3 from both through the predicate logic operations.
  code += "    setp (M1_NM, 32) P1 0x5a5aa5a5:ud\n";
  code += "    setp (M1_NM, 32) P2 0x00810001:ud\n";
  code += "    xor (M1_NM, 32) P3 P1 P2\n";
  code += "    not (M5_NM, 16) P3 P3\n";
  code += "    or (M1_NM, 8) P3 P3 P2\n";
  code += "    and (M1_NM, 4) P3 P3 P1\n";
  const char* mods[] = {"", "(-)", "(abs)", "(~)", "(-abs)"};
  // (a predicate turns lanes off: the forms' stores of some lanes, few or most)
  // (7, prime to the 4 destination forms: each form gets each predicate)
  const char* preds[] = {"", "(P1) ", "(P2) ", "(P3) ", "(!P1) ", "(!P2) ", "(!P3) "};
  unsigned predTurn = 0;
  std::vector<std::string> lines;
  // (mad's src2: a type and a region in turn, contiguous or one element for every lane)
  const char* src2s[] = {"{}A_{}(0,0)<1;1,0>", "{}B_{}(0,2)<0;1,0>", "{}B_{}(0,0)<1;1,0>"};
  const char* src2Types[] = {"f", "d", "ud", "w", "f", "df", "hf"};
  unsigned src2Turn = 0, src1Turn = 0;
  for (const char* op : {"add", "mul", "mad", "and", "or", "xor", "shl", "shr", "asr", "avg", "mulh", "min", "max", "sel",
                         "cmp.lt", "cmp.ne", "mov", "not"})
    for (const char* d : kTypes)
      for (const char* a : kTypes)
        for (const char* b : {a, "ud", "d", "f"}) {
          std::string mnem = op;
          bool two = mnem != "mov" && mnem != "not";
          for (int sat = 0; sat < 2; ++sat) {
            if (sat && !lookupMnemonic(mnem.substr(0, mnem.find('.')))->sat) continue;
            std::string m = mnem + (sat ? ".sat" : "");
            std::string pred = mnem == "sel" ? "(P1) " : "";
            const char* mod = mods[(lines.size() / 3) % std::size(mods)];
            std::string srcs = fmt::format("{}A_{}(0,0)<1;1,0>", mod, a);
            // (src1 in turn contiguous, or one element for every lane: the forms' scalar-src1 loops)
            if (two) srcs += fmt::format(" B_{}(0,{})<{}>", b, src1Turn % 3 == 2 ? 1 : 0, src1Turn % 3 == 2 ? "0;1,0" : "1;1,0");
            if (two) ++src1Turn;
            if (mnem == "mad") {
              const unsigned turn = src2Turn++;
              srcs += " " + fmt::format(fmt::runtime(src2s[turn % std::size(src2s)]), mods[(turn / 3) % 3],
                                        src2Types[turn % std::size(src2Types)]);
            }
            // (SIMD8 and SIMD4 for 8-byte types: an operand spans at most two GRFs)
            for (const char* dst : {"(M1_NM, 16) D_{}(0,0)<1>", "(M1, 8) D_{}(0,1)<2>", "(M1_NM, 8) D_{}(0,0)<1>", "(M1, 4) D_{}(0,1)<2>"}) {
              const bool predicable = !mnem.starts_with("cmp") && mnem != "sel" && mnem != "min" && mnem != "max";
              const std::string p = predicable ? preds[predTurn++ % std::size(preds)] : pred;
              lines.push_back(fmt::format("    {}{} {} {}", p, m, fmt::format(fmt::runtime(dst), d), srcs));
              for (const char* half : {"0", "2"})
                lines.push_back(fmt::format("    add (M1_NM, 16) Acc({0},0)<1> Acc({0},0)<1;1,0> X_{1}({0},0)<1;1,0>", half, d));
            }
          }
        }
  // 64-bit operations whose src0 is one value for every lane (a broadcast or
  // an immediate) and src1 a vector, each with a modifier or none, in the
  // destination shapes of both the SIMD16 and the SIMD4 forms.
  for (const char* op : {"add", "mul", "and", "or", "xor", "sel"})
    for (const char* t : {"q", "uq"})
      for (const char* src0 : {"(-)B_{}(0,1)<0;1,0>", "B_{}(0,3)<0;1,0>", "0x7fffffff00000005:{}", "(abs)B_{}(0,2)<0;1,0>"})
        for (const char* dst : {"(M1_NM, 16) D_{}(0,0)<1>", "(M1, 4) D_{}(0,1)<2>"}) {
          const std::string_view o = op;
          const bool arith = o == "add" || o == "mul" || o == "sel";
          const std::string a = fmt::format(fmt::runtime(src0), t);
          if (!arith && a.starts_with('(')) continue;
          const char* mod1 = arith ? mods[(lines.size() / 3) % 3] : "";  // "", (-), (abs)
          lines.push_back(fmt::format("    {}{} {} {} {}A_{}(0,0)<1;1,0>", o == "sel" ? "(P1) " : preds[predTurn++ % std::size(preds)],
                                      op, fmt::format(fmt::runtime(dst), t), a, mod1, t));
          for (const char* half : {"0", "2"})
            lines.push_back(fmt::format("    add (M1_NM, 16) Acc({0},0)<1> Acc({0},0)<1;1,0> X_{1}({0},0)<1;1,0>", half, t));
        }
  // Integer and F compares into a predicate, each seen through a predicated add.
  unsigned rel = 0;
  for (const char* a : {"d", "ud", "w", "uw", "b", "ub", "q", "uq", "f"})
    for (const char* b : {a, "d", "ud"}) {
      const char* r[] = {"eq", "ne", "gt", "ge", "lt", "le"};
      for (const char* op : {"lt", r[(rel / 2) % 6]}) {  // (rel goes up by 2 per pair: each relation in turn)
        lines.push_back(fmt::format("    cmp.{} (M1_NM, 16) P2 A_{}(0,0)<1;1,0> B_{}(0,0)<1;1,0>", op, a, b));
        lines.push_back(fmt::format("    (P2) add (M1_NM, 16) Acc(0,0)<1> Acc(0,0)<1;1,0> {:#x}:ud", 1u << (rel % 31)));
        ++rel;
      }
    }
  // Each relation on F (NaN lanes: unordered), SIMD16 and SIMD8, and on a
  // source and itself (equal lanes) of each type.
  for (const char* op : {"eq", "ne", "gt", "ge", "lt", "le"}) {
    std::vector<std::string> cmps;
    for (const char* ex : {"(M1_NM, 16)", "(M1_NM, 8)"})
      cmps.push_back(fmt::format("    cmp.{} {} P2 A_f(0,0)<1;1,0> B_f(0,0)<1;1,0>", op, ex));
    for (const char* a : {"f", "d", "ud", "w", "uw", "b", "ub", "q", "uq"}) {
      cmps.push_back(fmt::format("    cmp.{0} (M1_NM, 16) P2 A_{1}(0,0)<1;1,0> A_{1}(0,0)<1;1,0>", op, a));
      // (both sources one value for every lane: one relation for all lanes)
      cmps.push_back(fmt::format("    cmp.{0} (M1_NM, 16) P2 A_{1}(0,1)<0;1,0> B_{1}(0,1)<0;1,0>", op, a));
      cmps.push_back(fmt::format("    cmp.{0} (M1, 8) P2 A_{1}(0,3)<0;1,0> A_{1}(0,3)<0;1,0>", op, a));
      cmps.push_back(fmt::format("    cmp.{0} (M1_NM, 16) P2 B_{1}(0,2)<0;1,0> 0x5:{1}", op, a));
    }
    for (const std::string& c : cmps) {
      lines.push_back(c);
      lines.push_back(fmt::format("    (P2) add (M1_NM, 16) Acc(0,0)<1> Acc(0,0)<1;1,0> {:#x}:ud", 1u << (rel++ % 31)));
    }
  }
  lines.push_back("    cmp.gt (M1_NM, 16) P1 A_f(0,0)<1;1,0> B_f(0,0)<1;1,0>");
  lines.push_back("    and (M1_NM, 16) P1 P1 P1");
  // The destinations' bytes to Out, 128 bytes (32 dwords) at a time.
  std::string store;
  for (size_t at = 0; at < resBytes; at += 128)
    store += fmt::format("    scatter_scaled.4 (M1_NM, 32) Out {0:#x}:ud Offs.0 Res.{0}\n", at);
  // Keep the lines the verifier accepts (the table's type rules).
  std::string head = std::string(kHeader) + decls + code;
  std::set<size_t> bad;
  for (int round = 0; round < 8; ++round) {
    std::string text = head;
    std::vector<size_t> lineOf;
    for (size_t i = 0; i < lines.size(); ++i)
      if (!bad.count(i)) {
        text += lines[i] + "\n";
        lineOf.push_back(i);
      }
    text += store + "    ret (M1, 1)\n";
    Diagnostics diags;
    auto m = parseText(text, diags);
    ASSERT_TRUE(m) << diags.render("fuzz", text);
    if (verify(*m, diags)) {
      ASSERT_GT(lineOf.size(), 3000u);
      std::mt19937_64 rng(12345);
      std::vector<uint8_t> in(4096);
      for (size_t i = 0; i < in.size(); i += 8) {
        uint64_t v = rng();
        // sprinkle special values: NaN, inf, denormals, extremes
        switch (v % 8) {
          case 0: v = 0x7fc000007f800001ull; break;
          case 1: v = 0x8000000000000001ull; break;
          case 2: v = 0xffffffffffffffffull; break;
          case 3: v = 0x7fffffff80000000ull; break;
          case 4: v = 0x8000000000000000ull; break;  // (abs of the smallest Q)
          default: break;
        }
        std::memcpy(in.data() + i, &v, 8);
      }
      for (unsigned simd : {8u, 32u}) {
        std::vector<uint8_t> out[2];
        for (bool reference : {false, true}) {
          sim::LaunchConfig cfg;
          cfg.simd = simd;
          cfg.check = true;
          cfg.reference = reference;
          std::vector<sim::SurfaceBinding> s = {{"In", in}, {"Out", std::vector<uint8_t>(resBytes, 0)}};
          auto r = sim::run(m->kernels[0], s, cfg);
          ASSERT_TRUE(r.ok()) << r.error;
          EXPECT_EQ(r.stats.tier, reference ? "reference" : "fast");
          EXPECT_TRUE(r.findings.empty());
          EXPECT_EQ(s[0].bytes, in);
          out[reference] = s[1].bytes;
        }
        for (size_t i = 0; i < out[0].size(); ++i)
          if (out[0][i] != out[1][i]) {
            ADD_FAILURE() << "SIMD" << simd << ": byte " << i << " of "
                          << (i / kResBytes < std::size(kTypes) ? kTypes[i / kResBytes] : "the folded")
                          << " destinations: fast tier " << int(out[0][i]) << ", reference tier " << int(out[1][i]);
            break;
          }
      }
      return;
    }
    size_t firstCode = static_cast<size_t>(std::count(head.begin(), head.end(), '\n')) + 1;
    for (const auto& dg : diags.all())
      if (dg.severity == Severity::Error && dg.loc.line >= firstCode && dg.loc.line - firstCode < lineOf.size())
        bad.insert(lineOf[dg.loc.line - firstCode]);
  }
  FAIL() << "could not find a verified subset";
}

// ---- the CLI ----

struct Cli {
  int exit;
  std::string out, err;
};

Cli runCli(const std::string& args) {
  fs::path tmp = fs::temp_directory_path() / fmt::format("visakit_simrun_{}", ::getpid());
  fs::create_directories(tmp);
  std::string cmd = fmt::format("{} run {} >'{}' 2>'{}'", VISAKIT_CLI, args, (tmp / "o").string(), (tmp / "e").string());
  int st = std::system(cmd.c_str());
  Cli c;
  c.exit = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream o(tmp / "o"), e(tmp / "e");
  std::stringstream so, se;
  so << o.rdbuf();
  se << e.rdbuf();
  c.out = so.str();
  c.err = se.str();
  return c;
}

class SimCli : public vtest::TempDirTest {};

TEST_F(SimCli, OutputsOnlyAfterSuccessAndInputsUntouched) {
  std::string k = write("k.visaasm", std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=8 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x0:ud
    scatter_scaled.4 (M1, 8) Out 0x0:ud Offs.0 Offs.0
    mov (M1_NM, 8) Offs(0,0)<1> 0x1:ud
LOOP:
    (P1) jmp (M1, 1) LOOP
    ret (M1, 1)
)");
  // P1 is undeclared: the kernel does not load.
  Cli c = runCli(fmt::format("'{}' --surface Out=zero:4 --out Out='{}'", k, (dir / "o.bin").string()));
  EXPECT_EQ(c.exit, 1) << c.err;
  EXPECT_FALSE(fs::exists(dir / "o.bin"));

  k = write("k2.visaasm", std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=8 align=GRF
.decl Out v_type=T num_elts=1
.decl P1 v_type=P num_elts=8
    setp (M1_NM, 8) P1 0x1:ub
    mov (M1_NM, 8) Offs(0,0)<1> 0x0:ud
    scatter_scaled.4 (M1, 1) Out 0x0:ud Offs.0 Offs.0
LOOP:
    (P1) jmp (M1, 1) LOOP
    ret (M1, 1)
)");
  std::string in = write("in.bin", std::string("\x11\x22\x33\x44", 4));
  c = runCli(fmt::format("'{}' --surface Out='{}' --out Out='{}' --max-steps 500", k, in, (dir / "o.bin").string()));
  EXPECT_EQ(c.exit, 1);
  EXPECT_NE(c.err.find("--max-steps"), std::string::npos) << c.err;
  EXPECT_FALSE(fs::exists(dir / "o.bin"));
  EXPECT_EQ(read("in.bin"), std::string("\x11\x22\x33\x44", 4));

  // setp 0x0 -> the loop is not taken: success writes the output, never the input.
  std::string text = read("k2.visaasm");
  text.replace(text.find("0x1:ub"), 6, "0x0:ub");
  k = write("k3.visaasm", text);
  c = runCli(fmt::format("'{}' --surface Out='{}' --out Out='{}' --stats", k, in, (dir / "o.bin").string()));
  EXPECT_EQ(c.exit, 0) << c.err;
  EXPECT_EQ(read("o.bin"), std::string(4, '\0'));
  EXPECT_EQ(read("in.bin"), std::string("\x11\x22\x33\x44", 4));
  EXPECT_NE(c.out.find("instructions: 6"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("Out: 0 bytes read, 4 bytes written"), std::string::npos) << c.out;
}

TEST_F(SimCli, JsonReportsStatsAndFindings) {
  std::string k = write("k.visaasm", std::string(kHeader) + R"(.decl Offs v_type=G type=ud num_elts=8 align=GRF
.decl Data v_type=G type=ud num_elts=8 align=GRF
.decl Out v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x0:ud
    mov (M1_NM, 8) Data(0,0)<1> 0x76543210:v
    scatter_scaled.4 (M1, 8) Out 0x0:ud Offs.0 Data.0
    ret (M1, 1)
)");
  Cli c = runCli(fmt::format("'{}' --surface Out=zero:4 --check --json --simd 8", k));
  EXPECT_EQ(c.exit, 3) << c.err;
  EXPECT_NE(c.out.find("\"instructions\": 4"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("\"kind\": \"two lanes write the same address\""), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("\"bytes_written\": 32"), std::string::npos) << c.out;
  EXPECT_NE(c.err.find("k.visaasm:8:5: error: two lanes write the same address in surface 'Out' (4 bytes) (7 times)"),
            std::string::npos)
      << c.err;
}

TEST_F(SimCli, UsageAndLaunchErrors) {
  std::string k = write("k.visaasm", std::string(kHeader) + R"(.decl Out v_type=T num_elts=1
    ret (M1, 1)
)");
  EXPECT_EQ(runCli(fmt::format("'{}' --surface Out", k)).exit, 2);
  EXPECT_EQ(runCli(fmt::format("'{}' --groups 1,2,3,4", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --simd 0", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --slm 12q", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --threads 2 --group-threads 3", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --kernel nope", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --out Out=x", k)).exit, 1);
  EXPECT_EQ(runCli(fmt::format("'{}' --threads 3,2 --groups 2", k)).exit, 0);
}

}  // namespace

// spec-decisions E32: in a kernel that sets %cr0's rounding mode, only the
// instructions the mode reaches and the fast forms do not round in it leave
// them. sim_cr0_rounding_cvt (one SIMD16 thread) has in each of its 4 blocks 8
// conversions that round (D -> F twice, DF -> F twice, F -> HF twice, Q -> DF
// twice), counted by hand: the narrowing ones (4) run through their semantics;
// the integer -> F and DF ones (a MOV, alu.cpp floatForm), the F -> D
// truncations, the %cr0 toggles and the address arithmetic keep their forms.
TEST(SimRounding, OnlyTheInstructionsTheModeReachesRunThroughTheirSemantics) {
  const std::string text = vtest::readAll(std::string(VISAKIT_SOURCE_DIR) + "/tests/sim/cases/sim_cr0_rounding_cvt.visaasm");
  visakit::Module m = vtest::buildModule(text);
  sim::LaunchConfig cfg;
  cfg.simd = 16;
  std::vector<sim::SurfaceBinding> s = {{"Out", std::vector<uint8_t>(256, 0)}};
  auto r = sim::run(m.kernels[0], s, cfg);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.stats.tier, "fast");
  EXPECT_EQ(r.stats.viaSemantics, 16u);
}
