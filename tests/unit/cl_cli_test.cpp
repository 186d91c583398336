// visakit cl's bad input: a clear error, a documented exit code, nothing written.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <thread>

#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;

std::string source() { return (fs::path(VISAKIT_SOURCE_DIR) / "tests/cl/saxpy.cl").string(); }

struct Tmp {
  fs::path dir = fs::temp_directory_path() / ("visakit_cl_cli_" + std::to_string(::getpid()));
  Tmp() { fs::create_directories(dir); }
  ~Tmp() { fs::remove_all(dir); }
  std::string file(const std::string& n, size_t bytes) {
    fs::path p = dir / n;
    std::ofstream(p, std::ios::binary) << std::string(bytes, '\0');
    return p.string();
  }
};

TEST(ClCli, KernelNotInTheFileNamesTheOnesThere) {
  auto r = vtest::runCli("cl '" + source() + "' --kernel nope --global 16");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("kernel 'nope' not found in '" + source() + "'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("saxpy4"), std::string::npos) << r.output;
}

TEST(ClCli, ArgumentCountAndTypeAreChecked) {
  Tmp t;
  std::string x = t.file("x.bin", 4096);
  auto missing = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=f32:1 --arg 1=@" + x);
  EXPECT_EQ(missing.exit, 1) << missing.output;
  EXPECT_NE(missing.output.find("argument 2 'y'"), std::string::npos) << missing.output;
  auto type = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=@" + x + " --arg 1=@" + x +
                            " --arg 2=@" + x);
  EXPECT_EQ(type.exit, 1) << type.output;
  EXPECT_NE(type.output.find("argument 0"), std::string::npos) << type.output;
}

TEST(ClCli, UsageErrorsExitTwo) {
  EXPECT_EQ(vtest::runCli("cl '" + source() + "' --kernel saxpy").exit, 2);  // no --global
  auto r = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 4294967296,4294967296");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("do not fit in 64 bits"), std::string::npos) << r.output;
  EXPECT_EQ(vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=f33:1").exit, 2);
  EXPECT_EQ(vtest::runCli("cl --help").exit, 0);
}

TEST(ClCli, MissingOclocIsAClearError) {
  Tmp t;
  std::string out = (t.dir / "y.out").string();
  // PATH without ocloc (the CLI is called by its full path).
  std::string cmd = "env PATH=/nonexistent " + std::string(VISAKIT_CLI) + " cl '" + source() +
                    "' --kernel saxpy --global 16 --arg 0=f32:1 --arg 1=zero:64 --arg 2=zero:64 --out 2=" + out + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p);
  std::string text;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 1) << text;
  EXPECT_NE(text.find("ocloc not found"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(out));
}

TEST(ClCli, AMissingInputFileIsAClearError) {
  auto r = vtest::runCli("cl /nonexistent/k.cl --kernel k --global 1");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("cannot read '/nonexistent/k.cl'"), std::string::npos) << r.output;
}

}  // namespace

namespace {

// spec-decisions T9: a 64-byte alias of %r0 is valid with 64-byte GRFs only;
// the GRF size comes from --grf-size, --platform, or the .asm beside the file.
TEST(ClCli, GrfFromPlatform) {
  Tmp t;
  const std::string text =
      ".version 4.1\n.kernel \"k\"\n.decl V40 v_type=G type=d num_elts=16 align=wordx32 alias=<%r0, 0>\n"
      "    mov (M1, 16) V40(0,0)<1> 0x1:d\n    ret (M1, 1)\n";
  fs::path k = t.dir / "OCL_asm1_simd16_entry_0001.visaasm";
  std::ofstream(k) << text;
  auto bare = vtest::runCli("check '" + k.string() + "'");
  EXPECT_EQ(bare.exit, 1) << bare.output;
  EXPECT_NE(bare.output.find("has 32 bytes"), std::string::npos) << bare.output;
  EXPECT_EQ(vtest::runCli("check --grf-size 64 '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform pvc '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform PVCXT '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform acm-g10 '" + k.string() + "'").exit, 1);
  auto unknown = vtest::runCli("check --platform gen99 '" + k.string() + "'");
  EXPECT_EQ(unknown.exit, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown platform 'gen99'"), std::string::npos) << unknown.output;
  EXPECT_EQ(vtest::runCli("check --platform pvc --grf-size 64 '" + k.string() + "'").exit, 2);
  // The dump's .asm names the platform.
  std::ofstream(t.dir / "OCL_asm1_simd16_entry_0001.asm") << "//.kernel k\n//.platform PVCXT\n//.thread_config x\n";
  auto dumped = vtest::runCli("check '" + k.string() + "'");
  EXPECT_EQ(dumped.exit, 0) << dumped.output;
  std::ofstream(t.dir / "OCL_asm1_simd16_entry_0001.asm") << "//.kernel k\n//.platform TGLLP\n";
  EXPECT_EQ(vtest::runCli("check '" + k.string() + "'").exit, 1);
}

}  // namespace
