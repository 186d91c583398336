// Surface memory of a launch: `visakit run` maps its input files (private:
// the file is never modified) and zero:BYTES surfaces, writes --out files only
// after a successful run; sim::run on caller-owned memory (SurfaceBinding::memory).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "test_util.hpp"
#include "visakit/sim.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

// Thread t (of --threads N) reads the 16 dwords of the 64-byte block t of Buf,
// and writes back 2v + 1 for each.
const char* kDouble = R"(.version 4.2
.kernel "k"
.decl Offs v_type=G type=ud num_elts=16 align=GRF
.decl Data v_type=G type=ud num_elts=16 align=GRF
.decl Base v_type=G type=ud num_elts=1 align=dword
.decl Buf v_type=T num_elts=1
    mov (M1_NM, 8) Offs(0,0)<1> 0x76543210:v
    add (M1_NM, 8) Offs(1,0)<1> Offs(0,0)<1;1,0> 0x8:ud
    shl (M1_NM, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud
    shl (M1_NM, 1) Base(0,0)<1> %thread_x(0,0)<0;1,0> 0x6:ud
    gather_scaled.4 (M1, 16) Buf Base(0,0)<0;1,0> Offs.0 Data.0
    mul (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x2:ud
    add (M1_NM, 16) Data(0,0)<1> Data(0,0)<1;1,0> 0x1:ud
    scatter_scaled.4 (M1, 16) Buf Base(0,0)<0;1,0> Offs.0 Data.0
    ret (M1, 1)
)";

// kDouble, then a loop that never ends: a run that fails (--max-steps) after writing.
std::string loopingKernel() {
  std::string s = kDouble;
  s.replace(s.find("    ret (M1, 1)"), std::string::npos, "LOOP:\n    jmp (M1, 1) LOOP\n");
  return s;
}

// Dwords as little-endian bytes.
std::string dwords(const std::vector<uint32_t>& v) {
  std::string s(v.size() * 4, '\0');
  for (size_t i = 0; i < v.size(); ++i)
    for (int b = 0; b < 4; ++b) s[4 * i + b] = static_cast<char>(v[i] >> (8 * b));
  return s;
}

// 32 dwords 1000 + j, and what kDouble makes of them over 2 threads: 2 (1000 + j) + 1.
std::string input() {
  std::vector<uint32_t> v(32);
  for (uint32_t j = 0; j < 32; ++j) v[j] = 1000 + j;
  return dwords(v);
}
std::string doubled() {
  std::vector<uint32_t> v(32);
  for (uint32_t j = 0; j < 32; ++j) v[j] = 2001 + 2 * j;
  return dwords(v);
}

class RunMemory : public vtest::TempDirTest {
 protected:
  vtest::CliResult run(const std::string& kernel, const std::string& args) {
    return vtest::runCli(fmt::format("run '{}' --simd 16 --threads 2 {}", write("k.visaasm", kernel), args));
  }
};

TEST_F(RunMemory, InputFileIsUnchangedAndTheOutputHasTheResults) {
  std::string in = write("in.bin", input());
  for (const char* jobs : {"1", "2"}) {
    fs::remove(dir / "out.bin");
    auto r = run(kDouble, fmt::format("--jobs {} --surface Buf='{}' --out Buf='{}'", jobs, in, (dir / "out.bin").string()));
    ASSERT_EQ(r.exit, 0) << r.output;
    EXPECT_EQ(read("in.bin"), input()) << "jobs " << jobs;
    EXPECT_EQ(read("out.bin"), doubled()) << "jobs " << jobs;
  }
}

// The output replaces the file by a rename: the pages the kernel did not write
// (the 8 KiB after its 128 bytes) still read from the intact old file.
TEST_F(RunMemory, OutputOverItsOwnInput) {
  std::string tail(8192, '\0');
  for (size_t i = 0; i < tail.size(); ++i) tail[i] = static_cast<char>(i * 7 + 3);
  std::string f = write("f.bin", input() + tail);
  auto r = run(kDouble, fmt::format("--surface Buf='{}' --out Buf='{}'", f, f));
  ASSERT_EQ(r.exit, 0) << r.output;
  EXPECT_EQ(read("f.bin"), doubled() + tail);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 2) << "a temporary file is left";
}

// A failed run writes no output, and its writes never reach the input file,
// even when the output is the input.
TEST_F(RunMemory, FailedRunWritesNothing) {
  std::string f = write("f.bin", input());
  auto r = run(loopingKernel(), fmt::format("--max-steps 100 --surface Buf='{}' --out Buf='{}'", f, (dir / "out.bin").string()));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("--max-steps"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out.bin"));
  EXPECT_EQ(read("f.bin"), input());
  r = run(loopingKernel(), fmt::format("--max-steps 100 --surface Buf='{}' --out Buf='{}'", f, f));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_EQ(read("f.bin"), input());
}

// 0 bytes map nothing: the kernel's accesses are all out of bounds (reads
// give 0, writes are dropped), which --check reports; the output is empty.
TEST_F(RunMemory, EmptySurfaces) {
  std::string empty = write("empty.bin", "");
  for (const std::string& what : {empty, std::string("zero:0")}) {
    fs::remove(dir / "out.bin");
    auto r = run(kDouble, fmt::format("--surface Buf='{}' --out Buf='{}'", what, (dir / "out.bin").string()));
    EXPECT_EQ(r.exit, 0) << what << ": " << r.output;
    EXPECT_TRUE(fs::exists(dir / "out.bin")) << what;
    EXPECT_EQ(read("out.bin"), "") << what;
    r = run(kDouble, fmt::format("--check --surface Buf='{}'", what));
    EXPECT_EQ(r.exit, 3) << what << ": " << r.output;
    EXPECT_NE(r.output.find("out of bounds read in surface 'Buf' (0 bytes)"), std::string::npos) << r.output;
  }
  EXPECT_EQ(read("empty.bin"), "");
}

TEST_F(RunMemory, ZeroSurfaceStartsZeroed) {
  // 2 (0) + 1 in each of the 32 dwords.
  auto r = run(kDouble, fmt::format("--surface Buf=zero:128 --out Buf='{}'", (dir / "out.bin").string()));
  ASSERT_EQ(r.exit, 0) << r.output;
  EXPECT_EQ(read("out.bin"), dwords(std::vector<uint32_t>(32, 1)));
}

TEST_F(RunMemory, InputsThatCannotBeMapped) {
  auto r = run(kDouble, fmt::format("--surface Buf='{}'", (dir / "missing.bin").string()));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("visakit: error: --surface Buf: cannot open"), std::string::npos) << r.output;
  // A FIFO is not a regular file: an error, not a wait for a writer.
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  r = run(kDouble, fmt::format("--surface Buf='{}'", (dir / "fifo").string()));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("visakit: error: --surface Buf: cannot open"), std::string::npos) << r.output;
  // Limits are checked before anything is mapped.
  std::string in = write("in.bin", input());
  r = run(kDouble, fmt::format("--max-surface-size 127 --surface Buf='{}'", in));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("128 bytes, over the limit of 127 (--max-surface-size)"), std::string::npos) << r.output;
}

Module build(const std::string& text) { return vtest::buildModule(text); }

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// Caller memory gives the bytes the vector does, in place or transactional.
TEST(RunMemoryApi, CallerMemoryGivesTheBytesOfTheVector) {
  Module m = build(kDouble);
  ASSERT_EQ(m.kernels.size(), 1u);
  for (bool transactional : {false, true})
    for (unsigned jobs : {1u, 2u}) {
      sim::LaunchConfig cfg;
      cfg.simd = 16;
      cfg.threads = {2, 1};
      cfg.jobs = jobs;
      cfg.transactional = transactional;
      std::vector<sim::SurfaceBinding> vec = {{"Buf", bytes(input())}};
      sim::RunResult r = sim::run(m.kernels[0], vec, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(vec[0].bytes, bytes(doubled()));

      std::vector<uint8_t> mine = bytes(input());
      std::vector<sim::SurfaceBinding> ext(1);
      ext[0].name = "Buf";
      ext[0].memory = mine;
      r = sim::run(m.kernels[0], ext, cfg);
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(mine, bytes(doubled())) << "transactional " << transactional << " jobs " << jobs;
      EXPECT_TRUE(ext[0].bytes.empty());
      EXPECT_EQ(ext[0].memory.data(), mine.data());
      EXPECT_EQ(r.stats.spaces.at(0).bytesWritten, 128u);
    }
}

// A failed transactional run leaves caller memory alone; in place, the writes
// before the failure are in it.
TEST(RunMemoryApi, FailedRunOnCallerMemory) {
  Module m = build(loopingKernel());
  ASSERT_EQ(m.kernels.size(), 1u);
  sim::LaunchConfig cfg;
  cfg.simd = 16;
  cfg.threads = {2, 1};
  cfg.maxSteps = 100;
  cfg.transactional = true;
  std::vector<uint8_t> mine = bytes(input());
  std::vector<sim::SurfaceBinding> ext(1);
  ext[0].name = "Buf";
  ext[0].memory = mine;
  sim::RunResult r = sim::run(m.kernels[0], ext, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::Failed);
  EXPECT_EQ(mine, bytes(input()));
  // One thread: it scatters to its block (dwords 0..15), then loops until --max-steps.
  cfg.transactional = false;
  cfg.threads = {1, 1};
  r = sim::run(m.kernels[0], ext, cfg);
  EXPECT_EQ(r.status, sim::RunResult::Status::Failed);
  std::vector<uint32_t> want(32);
  for (uint32_t j = 0; j < 32; ++j) want[j] = j < 16 ? 2001 + 2 * j : 1000 + j;
  EXPECT_EQ(mine, bytes(dwords(want)));
}

}  // namespace
