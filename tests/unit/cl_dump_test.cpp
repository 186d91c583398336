// Scanning an IGC dump folder (src/cl/dump.cpp): programs, kernels, the SIMD variant the
// program binary holds, the platform. Expected values from the fixture folders' file lists.
#include <gtest/gtest.h>

#include <unistd.h>

#include "cl/dump.hpp"
#include "test_util.hpp"

namespace {

using namespace visakit::cl;
namespace fs = std::filesystem;

fs::path fixture(const std::string& rel) { return fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-dumps" / rel; }

// A scratch folder per test, removed at its end.
struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name) {
    dir = fs::temp_directory_path() / ("visakit_cldump_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
  void copy(const fs::path& from, const std::string& name) const { fs::copy_file(from, dir / name); }
};

std::string scanError(const fs::path& dir) {
  DumpProgram d;
  std::string err;
  EXPECT_FALSE(scanDump(dir.string(), d, err));
  return err;
}

TEST(ClDump, ProgramSkl) {
  DumpProgram d;
  std::string err;
  ASSERT_TRUE(scanDump(fixture("program-skl").string(), d, err)) << err;
  EXPECT_EQ(d.name, "OCL_asm71cedd5a19fe3ca0");
  EXPECT_EQ(d.progbin, (fixture("program-skl") / "OCL_asm71cedd5a19fe3ca0.progbin").string());
  EXPECT_EQ(d.platform, "SKL");
  ASSERT_EQ(d.kernels.size(), 2u);
  const DumpKernel& k = d.kernels[0];
  EXPECT_EQ(k.name, "lookup");
  EXPECT_EQ(k.entry, 1u);
  EXPECT_EQ(k.chosen.simd, 32u);
  EXPECT_EQ(k.chosen.retry, 0u);
  std::string base = (fixture("program-skl") / "OCL_asm71cedd5a19fe3ca0_simd32_entry_0001").string();
  EXPECT_EQ(k.chosen.visaasm, base + ".visaasm");
  EXPECT_EQ(k.chosen.cos, base + ".cos");
  EXPECT_EQ(k.chosen.asmFile, base + ".asm");
  EXPECT_EQ(k.chosen.isa, base + ".isa");
  EXPECT_EQ(k.variants.size(), 1u);
  EXPECT_EQ(d.kernels[1].name, "atom");
  EXPECT_EQ(d.kernels[1].entry, 2u);
  EXPECT_EQ(d.kernels[1].chosen.isa, "");  // only entry 0001's .isa is kept in the fixture

  const DumpKernel* atom = findKernel(d, "atom", err);
  ASSERT_TRUE(atom);
  EXPECT_EQ(atom->entry, 2u);
  EXPECT_FALSE(findKernel(d, "add", err));
  EXPECT_EQ(err, "kernel 'add' not found in '" + fixture("program-skl").string() + "'; it has: lookup, atom");
}

TEST(ClDump, TheVariantWithACosIsChosen) {
  DumpProgram d;
  std::string err;
  ASSERT_TRUE(scanDump(fixture("simd16-skl").string(), d, err)) << err;
  ASSERT_EQ(d.kernels.size(), 1u);
  const DumpKernel& k = d.kernels[0];
  EXPECT_EQ(k.name, "wide");
  EXPECT_EQ(k.chosen.simd, 16u);
  ASSERT_EQ(k.variants.size(), 2u);
  EXPECT_EQ(k.variants[0].simd, 16u);
  EXPECT_EQ(k.variants[1].simd, 32u);
  EXPECT_EQ(k.variants[1].cos, "");
  EXPECT_EQ(k.variants[1].asmFile, "");
  EXPECT_NE(k.variants[1].visaasm, "");
}

TEST(ClDump, PlatformOfPvc) {
  DumpProgram d;
  std::string err;
  ASSERT_TRUE(scanDump(fixture("add-pvc").string(), d, err)) << err;
  EXPECT_EQ(d.platform, "PVCXT");
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(d.kernels[0].name, "add");
}

// IGC's retry compile writes OCL_asm<hash>_1_simd<N>_...; its variant may be the chosen one.
TEST(ClDump, RetryVariants) {
  Scratch s("retry");
  fs::path src = fixture("simd16-skl");
  s.copy(src / "OCL_asmddf605c02b3cd10c.progbin", "OCL_asmddf605c02b3cd10c.progbin");
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd32_entry_0001.visaasm", "OCL_asmddf605c02b3cd10c_simd32_entry_0001.visaasm");
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd16_entry_0001.visaasm",
         "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.visaasm");
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd16_entry_0001.cos", "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.cos");
  s.write("OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.visa.ll", "ignored");
  s.write("OCL_asmddf605c02b3cd10c_entry_0001.kernbin", "ignored");
  DumpProgram d;
  std::string err;
  ASSERT_TRUE(scanDump(s.dir.string(), d, err)) << err;
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(d.kernels[0].chosen.retry, 1u);
  EXPECT_EQ(d.kernels[0].chosen.simd, 16u);
  ASSERT_EQ(d.kernels[0].variants.size(), 2u);
  EXPECT_EQ(d.kernels[0].variants[0].retry, 0u);
  EXPECT_EQ(d.platform, "");  // no .asm

  // Without the .cos nothing tells which variant the binary holds.
  fs::remove(s.dir / "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.cos");
  EXPECT_EQ(scanError(s.dir), "kernel entry 0001: no SIMD variant has a .cos (simd32, retry 1 simd16): cannot tell "
                              "which one the program binary holds");
}

// IGC's retry writes a .cos for every kernel but recompiles only the one it retries (pvc: a
// file whose first kernel spills): the other kernel's retry variant is a .cos alone, and its
// code is its first compile's.
TEST(ClDump, RetryOfAnotherKernel) {
  Scratch s("retry_other");
  fs::path src = fixture("simd16-skl");
  s.copy(src / "OCL_asmddf605c02b3cd10c.progbin", "OCL_asmddf605c02b3cd10c.progbin");
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd16_entry_0001.visaasm", "OCL_asmddf605c02b3cd10c_simd16_entry_0001.visaasm");
  s.write("OCL_asmddf605c02b3cd10c_simd16_entry_0001.isa", "first compile");
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd16_entry_0001.cos", "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.cos");
  DumpProgram d;
  std::string err;
  ASSERT_TRUE(scanDump(s.dir.string(), d, err)) << err;
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(fs::path(d.kernels[0].chosen.visaasm).filename(), "OCL_asmddf605c02b3cd10c_simd16_entry_0001.visaasm");
  EXPECT_EQ(fs::path(d.kernels[0].chosen.isa).filename(), "OCL_asmddf605c02b3cd10c_simd16_entry_0001.isa");
  EXPECT_EQ(fs::path(d.kernels[0].chosen.cos).filename(), "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.cos");
  EXPECT_EQ(d.kernels[0].chosen.simd, 16u);
  EXPECT_EQ(d.kernels[0].chosen.retry, 0u);  // (the code's compile)
  // A retry's own code is chosen when it has some (RetryVariants).
  s.copy(src / "OCL_asmddf605c02b3cd10c_simd16_entry_0001.visaasm", "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.visaasm");
  ASSERT_TRUE(scanDump(s.dir.string(), d, err)) << err;
  EXPECT_EQ(fs::path(d.kernels[0].chosen.visaasm).filename(), "OCL_asmddf605c02b3cd10c_1_simd16_entry_0001.visaasm");
  EXPECT_EQ(d.kernels[0].chosen.retry, 1u);
}

TEST(ClDump, Errors) {
  EXPECT_EQ(scanError("/nonexistent/dir"), "'/nonexistent/dir' is not a directory");
  Scratch s("errors");
  EXPECT_EQ(scanError(s.dir), "no IGC dump files (OCL_asm*) in '" + s.dir.string() + "'");
  s.write("OCL_asmabc_simd8_entry_0001.visaasm", ".version 4.1\n.kernel \"k\"\n");
  EXPECT_EQ(scanError(s.dir), "no program binary (OCL_asm<hash>.progbin) in '" + s.dir.string() + "'");
  s.write("OCL_asmabc.progbin", "");
  s.write("OCL_asmdef.progbin", "");
  EXPECT_EQ(scanError(s.dir), "several programs in '" + s.dir.string() + "': OCL_asmabc, OCL_asmdef");
  fs::remove(s.dir / "OCL_asmdef.progbin");
  s.write("OCL_asmabc_simd8_entry_0001.cos", "** Kernel Patch Lists : Kernel Name = other **\n");
  EXPECT_EQ(scanError(s.dir), "kernel entry 0001: the .visaasm names it 'k', the .cos 'other'");
  s.write("OCL_asmabc_simd8_entry_0001.cos", "** Kernel Patch Lists : Kernel Name = k **\n");
  s.write("OCL_asmabc_simd16_entry_0001.cos", "** Kernel Patch Lists : Kernel Name = k **\n");
  EXPECT_EQ(scanError(s.dir), "kernel entry 0001: several SIMD variants have a .cos (simd8, simd16): cannot tell "
                              "which one the program binary holds");
  fs::remove(s.dir / "OCL_asmabc_simd16_entry_0001.cos");
  s.write("OCL_asmabc_simd8_entry_0002.visaasm", ".version 4.1\n.kernel \"k\"\n");
  EXPECT_EQ(scanError(s.dir), "kernel 'k' appears as entries 0001 and 0002");
  s.write("OCL_asmabc_simd8_entry_0002.visaasm", ".version 4.1\n");
  EXPECT_EQ(scanError(s.dir), "kernel entry 0002: no kernel name in its .visaasm or .cos");
  fs::remove(s.dir / "OCL_asmabc_simd8_entry_0002.visaasm");
  DumpProgram d;
  std::string err;
  EXPECT_TRUE(scanDump(s.dir.string(), d, err)) << err;
  fs::remove(s.dir / "OCL_asmabc_simd8_entry_0001.visaasm");
  fs::remove(s.dir / "OCL_asmabc_simd8_entry_0001.cos");
  EXPECT_EQ(scanError(s.dir), "no kernel files (OCL_asm<hash>_simd<N>_entry_<NNNN>.*) in '" + s.dir.string() + "'");
}

}  // namespace
