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

}  // namespace
