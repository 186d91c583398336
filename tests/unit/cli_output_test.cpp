// Output files of the CLI (src/cli/common.cpp writeFilesAtomic): all of a run's outputs or none,
// each written through a symlink, keeping an existing file's permissions, and a device written in
// place (docs/reliability.md, Atomic outputs).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;

// Out and Out2 get eight dwords of 7 each.
const char* kKernel =
    ".version 4.2\n.kernel \"k\"\n"
    ".decl Offs v_type=G type=ud num_elts=8 align=GRF\n.decl D v_type=G type=ud num_elts=8 align=GRF\n"
    ".decl T6 v_type=T num_elts=1 v_name=Out\n.decl T7 v_type=T num_elts=1 v_name=Out2\n"
    "    mov (M1, 8) Offs(0,0)<1> 0x76543210:v\n    shl (M1, 8) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud\n"
    "    mov (M1, 8) D(0,0)<1> 0x7:ud\n    scatter_scaled.4 (M1, 8) T6 0x0:ud Offs.0 D.0\n"
    "    scatter_scaled.4 (M1, 8) T7 0x0:ud Offs.0 D.0\n    ret (M1, 1)\n";

struct Dir {
  fs::path p = fs::temp_directory_path() / ("visakit_cli_output_" + std::to_string(::getpid()));
  Dir() {
    fs::remove_all(p);
    fs::create_directories(p);
    std::ofstream(p / "k.visaasm") << kKernel;
  }
  ~Dir() { fs::remove_all(p); }
  std::string run(const std::string& outs) const {
    return "run '" + (p / "k.visaasm").string() + "' --surface Out=zero:32 --surface Out2=zero:32 " + outs;
  }
};

std::string sevens() {
  std::string s;
  for (int i = 0; i < 8; ++i) s += std::string("\x07\0\0\0", 4);
  return s;
}

TEST(CliOutput, OneOutputThatCannotBeWrittenWritesNone) {
  Dir d;
  fs::create_directories(d.p / "adir");
  const fs::path a = d.p / "a.bin";
  auto r = vtest::runCli(d.run("--out Out=" + a.string() + " --out Out2=" + (d.p / "adir").string()));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("cannot write '" + (d.p / "adir").string() + "': it is a directory"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(a));
  for (const auto& e : fs::directory_iterator(d.p)) EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  auto ok = vtest::runCli(d.run("--out Out=" + a.string() + " --out Out2=" + (d.p / "b.bin").string()));
  EXPECT_EQ(ok.exit, 0) << ok.output;
  EXPECT_EQ(vtest::readAll(a.string()), sevens());
  EXPECT_EQ(vtest::readAll((d.p / "b.bin").string()), sevens());
}

TEST(CliOutput, ASymlinkIsWrittenThroughAndAFileKeepsItsPermissions) {
  Dir d;
  const fs::path real = d.p / "real.bin", link = d.p / "link.bin";
  std::ofstream(real) << "old";
  ::chmod(real.c_str(), 0600);
  fs::create_symlink(real, link);
  auto r = vtest::runCli(d.run("--out Out=" + link.string()));
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(vtest::readAll(real.string()), sevens());
  struct stat st {};
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  // A device (a null device of our own, where one can be made) is written in place, not replaced by a file.
  const fs::path dev = d.p / "null";
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "cannot make a device node here";
  auto n = vtest::runCli(d.run("--out Out=" + dev.string()));
  EXPECT_EQ(n.exit, 0) << n.output;
  ASSERT_EQ(::stat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

}  // namespace
