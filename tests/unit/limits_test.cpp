// Input limits (issue 6): success at the limit, a clear error at limit + 1.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace fs = std::filesystem;

namespace {

fs::path writeTemp(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / "visakit_limits_test";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string kernel(const std::string& name, int vars, int instrs) {
  std::string s = ".kernel \"" + name + "\"\n";
  for (int i = 0; i < vars; ++i) s += ".decl V" + std::to_string(100 + i) + " v_type=G type=ud num_elts=8\n";
  for (int i = 0; i < instrs; ++i) s += "    ret (M1, 1)\n";
  return s;
}

void expectLimit(const std::string& opt, const std::string& atLimit, const std::string& overLimit,
                 const std::string& message) {
  // Unique names: CTest runs these tests in parallel processes.
  std::string tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  auto ok = vtest::runCli("check " + opt + " " + writeTemp(tag + "_at.visaasm", atLimit).string());
  EXPECT_EQ(ok.exit, 0) << ok.output;
  auto bad = vtest::runCli("check " + opt + " " + writeTemp(tag + "_over.visaasm", overLimit).string());
  EXPECT_EQ(bad.exit, 1) << bad.output;
  EXPECT_NE(bad.output.find(message), std::string::npos) << bad.output;
}

TEST(Limits, Instructions) {
  expectLimit("--max-instructions 3", ".version 4.2\n" + kernel("k", 0, 3), ".version 4.2\n" + kernel("k", 0, 4),
              "more than 3 instructions in kernel 'k' (--max-instructions)");
}

TEST(Limits, Declarations) {
  expectLimit("--max-vars 2", ".version 4.2\n" + kernel("k", 2, 1), ".version 4.2\n" + kernel("k", 3, 1),
              "more than 2 declarations in kernel 'k' (--max-vars)");
}

TEST(Limits, Kernels) {
  expectLimit("--max-kernels 2", ".version 4.2\n" + kernel("a", 0, 1) + kernel("b", 0, 1),
              ".version 4.2\n" + kernel("a", 0, 1) + kernel("b", 0, 1) + kernel("c", 0, 1),
              "more than 2 kernels and functions in one file (--max-kernels)");
}

TEST(Limits, FileSize) {
  std::string text = ".version 4.2\n" + kernel("k", 0, 1);
  std::string size = std::to_string(text.size());
  expectLimit("--max-file-size " + size, text, text + "\n", "over the limit of " + size + " (--max-file-size)");
}

const char* kSteps =
    ".version 4.2\n.kernel \"k\"\n"
    ".decl Buf v_type=T num_elts=1\n"
    ".decl A v_type=G type=ud num_elts=8 align=GRF\n"
    ".input Buf offset=32 size=4\n"
    "    mov (M1, 8) A(0,0)<1> 0x1:ud\n"
    "    mov (M1, 8) A(0,0)<1> 0x2:ud\n"
    "    ret (M1, 1)\n";

// `visakit run` with args at the limit succeeds; with over succeeds not, printing message.
void expectRunLimit(const std::string& at, const std::string& over, const std::string& message) {
  std::string tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::string k = writeTemp(tag + ".visaasm", kSteps).string();
  auto ok = vtest::runCli("run " + k + " " + at);
  EXPECT_EQ(ok.exit, 0) << ok.output;
  auto bad = vtest::runCli("run " + k + " " + over);
  EXPECT_EQ(bad.exit, 1) << bad.output;
  EXPECT_NE(bad.output.find(message), std::string::npos) << bad.output;
}

TEST(Limits, Steps) {
  // The kernel runs 3 instructions per thread.
  expectRunLimit("--surface Buf=zero:4 --max-steps 3", "--surface Buf=zero:4 --max-steps 2",
                 "thread 0 did not finish within 2 instructions (--max-steps)");
}

TEST(Limits, Threads) {
  expectRunLimit("--surface Buf=zero:4 --threads 2,2 --max-threads 4", "--surface Buf=zero:4 --threads 5 --max-threads 4",
                 "the launch has 5 threads, over the limit of 4 (--max-threads)");
  expectRunLimit("--surface Buf=zero:4 --groups 2 --group-threads 2 --max-threads 4",
                 "--surface Buf=zero:4 --groups 5 --max-threads 4", "over the limit of 4 (--max-threads)");
  // Counts that do not fit 32 bits are reported in full, never wrapped (10^16 here, not 1874919424).
  expectRunLimit("--surface Buf=zero:4 --threads 2,2", "--surface Buf=zero:4 --threads 100000000,100000000",
                 "a thread group has 10000000000000000 threads; at most 65535");
  expectRunLimit("--surface Buf=zero:4 --groups 2,2,2", "--surface Buf=zero:4 --groups 100000,100000,100000",
                 "the launch has 1000000000000000 threads; at most 2^32");
}

TEST(Limits, SurfaceSize) {
  expectRunLimit("--surface Buf=zero:64 --max-surface-size 64", "--surface Buf=zero:65 --max-surface-size 64",
                 "--surface Buf: 65 bytes, over the limit of 64 (--max-surface-size)");
  // A file is measured before it is read.
  std::string tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::string file = writeTemp(tag + ".bin", std::string(65, 'x')).string();
  expectRunLimit("--surface Buf=zero:64 --max-surface-size 64", "--surface Buf=" + file + " --max-surface-size 64",
                 "65 bytes, over the limit of 64 (--max-surface-size)");
  // SLM and URB sizes obey the same limit.
  expectRunLimit("--surface Buf=zero:4 --urb 64 --max-surface-size 64", "--surface Buf=zero:4 --urb 80 --max-surface-size 64",
                 "the URB is 80 bytes, over the limit of 64 (--max-surface-size)");
}

TEST(Limits, LaunchMemory) {
  // Bound surfaces plus the URB (no SLM, no --check): 48 + 16 = 64 bytes.
  expectRunLimit("--surface Buf=zero:48 --urb 16 --max-memory 64", "--surface Buf=zero:48 --urb 32 --max-memory 64",
                 "the launch needs about 80 bytes of memory, over the limit of 64 (--max-memory)");
  expectRunLimit("--surface Buf=zero:64 --max-memory 64", "--surface Buf=zero:65 --max-memory 64",
                 "the bound surfaces need 65 bytes, over the limit of 64 (--max-memory)");
}

}  // namespace
