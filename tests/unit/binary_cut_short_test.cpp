// IGC 1.0.12504's cut-short vISA objects (spec-decisions B6): the .isa files
// ocloc's dumps hold are rejected with one error that says where the
// instruction stream is cut short and names the .visaasm beside them; complete
// files, and complete files with a genuinely bad operand, read as before.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

using vtest::Bytes;
using vtest::bytesOf;
using vtest::view;
fs::path fixtures() { return fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures"; }
std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

std::string cutShort(const std::string& offset, unsigned n, const std::string& mnemonic, const std::string& absent,
                     const std::string& textForm) {
  return fmt::format("offset {}: the instruction stream is cut short: instruction #{} ({}) lacks its last {} "
                     "(IGC 1.0.12504's binary emitter drops them); read the kernel from its .visaasm{}",
                     offset, n, mnemonic, absent, textForm.empty() ? " (the text IGC dumped beside the .isa)" : ": " + textForm);
}

// Each dump's kernel object, instruction stream and first cut instruction,
// worked out from its bytes. saxpy-skl.isa: the kernel object is at 0x2d
// (kernel_info offset), its entry field says the instructions start 0x44e
// into it, at 0x47b; the instruction size field (at 0x407) says 648 bytes,
// to 0x703, the end of the object. There:
//   0x47b  30 00 00                      #0 the subroutine label _main_0 (opcode, label id 0)
//   0x47e  21 80 00 00                   #1 or (M1_NM, 1): opcode, exec size, no predicate
//   0x482  00 0e 00 00 00 00 00 00 02    Dst %cr0(0,0)<1>: general, id 14, row 0, column 0, region 0x0200 (<1>)
//   0x48b  10 80 00 00 ...               Src0 should begin here; it is #2, mul (M1_NM, 1)
// The other dumps open with the same two instructions, 16 bytes from the start
// of their instructions: acm-g10 0x4c3 + 16, tgllp 0x5e4 + 16, the folders of
// cl-dumps/ (their README) 0x478, 0x8d2 and 0xa5b + 16.
struct Dump {
  const char* file;  // under tests/fixtures
  const char* kernel;
  const char* offset;
  const char* platform;  // --platform, or ""
};
const Dump kDumps[] = {
    {"igc-dumps-isa/saxpy-skl.isa", "saxpy", "0x48b", ""},
    {"igc-dumps-isa/saxpy-acm-g10.isa", "saxpy", "0x4d3", ""},
    // Its addr_add instructions give the address-of Src0 the region <0;1,0> (B6).
    {"igc-dumps-isa/shuf_full-tgllp.isa", "shuf_full", "0x5f4", ""},
    {"cl-dumps/add-pvc/OCL_asm11091fc94eeaac57_simd32_entry_0001.isa", "add", "0x488", "pvc"},
    {"cl-dumps/program-skl/OCL_asm71cedd5a19fe3ca0_simd32_entry_0001.isa", "lookup", "0x8e2", ""},
    {"cl-dumps/simd16-skl/OCL_asmddf605c02b3cd10c_simd16_entry_0001.isa", "wide", "0xa6b", ""},
};

void PrintTo(const Dump& d, std::ostream* os) { *os << d.file; }

class CutShortDump : public ::testing::TestWithParam<Dump> {};

TEST_P(CutShortDump, CheckGivesOneErrorNamingTheVisaasm) {
  const Dump& d = GetParam();
  fs::path isa = fixtures() / d.file, text = fs::path(isa).replace_extension(".visaasm");
  ASSERT_TRUE(fs::exists(isa) && fs::exists(text)) << isa;
  std::string platform = *d.platform ? std::string(" --platform ") + d.platform : "";
  auto r = vtest::runCli("check" + platform + " " + q(isa));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, fmt::format("{}: kernel '{}', instruction #1: error: {}\n1 error generated.\n", isa.string(), d.kernel,
                                  cutShort(d.offset, 1, "or", "2 operands, Src0 and Src1", text.string())));
  // The kernel is in the .visaasm, which reads and verifies.
  auto t = vtest::runCli("check" + platform + " " + q(text));
  EXPECT_EQ(t.exit, 0) << t.output;
}

// The library says the same, without a path when none is given.
TEST_P(CutShortDump, ReadBinaryGivesOneError) {
  const Dump& d = GetParam();
  Bytes b = bytesOf(vtest::readAll(fixtures() / d.file));
  ASSERT_FALSE(b.empty());
  Options opts;
  opts.grfSize = *d.platform ? *grfSizeOfPlatform(d.platform) : 32;
  Diagnostics diags;
  EXPECT_FALSE(readBinary(view(b), diags, opts));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].where, fmt::format("kernel '{}', instruction #1", d.kernel));
  EXPECT_EQ(diags.all()[0].message, cutShort(d.offset, 1, "or", "2 operands, Src0 and Src1", ""));
}

// Names without "cl_dumps": these read committed fixtures, not the cl_dumps
// ctest fixture's dumps.
INSTANTIATE_TEST_SUITE_P(Fixtures, CutShortDump, ::testing::ValuesIn(kDumps), [](const auto& i) {
  fs::path f(i.param.file);
  bool cl = f.parent_path().parent_path().filename() == "cl-dumps";
  std::string n = cl ? "cldump_" + f.parent_path().filename().string() : f.stem().string();
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

// The other subcommands that load a file give the same one error, exit 1
// and write nothing.
class CutShortCli : public vtest::TempDirTest {
 protected:
  const fs::path isa = fixtures() / "igc-dumps-isa/saxpy-skl.isa";
  bool empty() const { return fs::is_empty(dir); }
  // check's error for saxpy-skl.isa at `path`, which names `textForm`.
  static std::string expected(const fs::path& path, const std::string& textForm) {
    return fmt::format("{}: kernel 'saxpy', instruction #1: error: {}\n1 error generated.\n", path.string(),
                       cutShort("0x48b", 1, "or", "2 operands, Src0 and Src1", textForm));
  }
  std::string text() const { return fs::path(isa).replace_extension(".visaasm").string(); }
};

TEST_F(CutShortCli, DisWritesNothing) {
  auto r = vtest::runCli("dis " + q(isa) + " -o " + q(dir / "out.visaasm"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, expected(isa, text()));
  EXPECT_TRUE(empty());
}

TEST_F(CutShortCli, AsmWritesNothing) {
  auto r = vtest::runCli("asm " + q(isa) + " -o " + q(dir / "out.isa"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, expected(isa, text()));
  EXPECT_TRUE(empty());
}

TEST_F(CutShortCli, RunWritesNothing) {
  auto r = vtest::runCli("run " + q(isa) + " --surface T6=zero:64 --out T6=" + q(dir / "out.bin"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, expected(isa, text()));
  EXPECT_TRUE(empty());
}

// Without X.visaasm beside it the error names none.
TEST_F(CutShortCli, WithoutItsVisaasmNamesNoFile) {
  fs::copy_file(isa, dir / "saxpy-skl.isa");
  auto r = vtest::runCli("check " + q(dir / "saxpy-skl.isa"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, expected(dir / "saxpy-skl.isa", ""));
}

// The emitter writes 4.1 objects; the same bytes as a 4.0 object get the
// ordinary error: at 0x48b, tag 0x10 (a general operand), then id 0x00000080,
// while the kernel declares V32-V59.
TEST_F(CutShortCli, AnotherVersionGetsTheOrdinaryError) {
  std::string b = vtest::readAll(isa);
  ASSERT_EQ(b.substr(0, 6), std::string("CISA\x04\x01", 6));
  b[5] = 0;
  fs::path v40 = dir / "saxpy-skl.isa";
  std::ofstream(v40, std::ios::binary) << b;
  fs::copy_file(text(), dir / "saxpy-skl.visaasm");
  auto r = vtest::runCli("check " + q(v40));
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.output, v40.string() + ": kernel 'saxpy', instruction #1: error: offset 0x48c: operand variable id 128 names "
                                     "no variable (predefined ids 0-21, declared ids 32-59)\n1 error generated.\n");
}

// Intel's complete 4.1 objects still read and verify.
TEST(CutShort, IntelsCompleteFilesStillLoad) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(fixtures() / "igc-isa"))
    if (e.path().extension() == ".isa") {
      ++n;
      auto r = vtest::runCli("check " + q(e.path()));
      EXPECT_EQ(r.exit, 0) << r.output;
      EXPECT_EQ(r.output, "");
    }
  EXPECT_EQ(n, 5);
}

// The saxpy dump's kernel written whole (visakit asm of its .visaasm), then a
// genuinely bad operand: instruction #1's Src0 names variable 999. The
// ordinary error, not "cut short".
TEST(CutShort, ABadOperandOfACompleteFileGetsTheOrdinaryError) {
  Diagnostics pd;
  auto m = parseText(vtest::readAll(fixtures() / "igc-dumps-isa/saxpy-skl.visaasm"), pd);
  ASSERT_TRUE(m) << pd.render("saxpy-skl.visaasm", "");
  Bytes b = writeBinary(*m);
  Diagnostics ok;
  ASSERT_TRUE(readBinary(view(b), ok)) << ok.render("isa", "");
  // The whole stream begins as the dump's: the label, then or's opcode, exec
  // size, predicate and Dst (13 bytes), then Src0: tag, then its variable id.
  const Bytes start = {0x30, 0x00, 0x00, 0x21, 0x80, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02};
  auto it = std::search(b.begin(), b.end(), start.begin(), start.end());
  ASSERT_NE(it, b.end());
  size_t src0 = static_cast<size_t>(it - b.begin()) + start.size();
  ASSERT_EQ(b[src0], 0x00);      // a general operand
  ASSERT_EQ(b[src0 + 1], 0x0e);  // %cr0
  b[src0 + 1] = 0xe7;            // 999 = 0x3e7
  b[src0 + 2] = 0x03;
  Diagnostics d;
  EXPECT_FALSE(readBinary(view(b), d));
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].where, "kernel 'saxpy', instruction #1");
  EXPECT_EQ(d.all()[0].message, fmt::format("offset 0x{:x}: operand variable id 999 names no variable (predefined ids "
                                            "0-21, declared ids 32-59)",
                                            src0 + 1));
}

// A stream the cut-short model explains that also decodes whole. The kernel:
// gather4_scaled, whose last two fields (Element_offset and Dst) are raw
// operands, then ret. Complete, it is
//   [gather4_scaled up to Global_offset] 34 00 00 00 00 00 | 36 00 00 00 00 00 | 34 00 00 00
//                                        Element_offset V52   Dst V54             ret (M1, 1)
// and the model reads it too: gather4_scaled without its raw operands, then
// 0x34 as RET without its fields, and the declared size is what those two take
// whole. The two readings part, so the decoded kernel decides (B6).
const char* kGather4 = R"(.version 4.1
.kernel "k"
.decl V32 v_type=G type=ud num_elts=16
.decl V33 v_type=G type=ud num_elts=16
.decl V34 v_type=G type=ud num_elts=16
.decl V35 v_type=G type=ud num_elts=16
.decl V36 v_type=G type=ud num_elts=16
.decl V37 v_type=G type=ud num_elts=16
.decl V38 v_type=G type=ud num_elts=16
.decl V39 v_type=G type=ud num_elts=16
.decl V40 v_type=G type=ud num_elts=16
.decl V41 v_type=G type=ud num_elts=16
.decl V42 v_type=G type=ud num_elts=16
.decl V43 v_type=G type=ud num_elts=16
.decl V44 v_type=G type=ud num_elts=16
.decl V45 v_type=G type=ud num_elts=16
.decl V46 v_type=G type=ud num_elts=16
.decl V47 v_type=G type=ud num_elts=16
.decl V48 v_type=G type=ud num_elts=16
.decl V49 v_type=G type=ud num_elts=16
.decl V50 v_type=G type=ud num_elts=16
.decl V51 v_type=G type=ud num_elts=16
.decl V52 v_type=G type=ud num_elts=16
.decl V53 v_type=G type=ud num_elts=16
.decl V54 v_type=G type=f num_elts=16
.decl T6 v_type=T num_elts=1
    gather4_scaled.R (M1, 16) T6 0x0:ud V52.0 V54.0
    ret (M1, 1)
)";

// Where Element_offset's bytes are (34 00 00 00 00 00 36 00 00 00 00 00 34 00 00 00 ends the file's stream).
size_t elementOffsetAt(const Bytes& b) {
  const Bytes tail = {0x34, 0x00, 0x00, 0x00, 0x00, 0x00, 0x36, 0x00, 0x00, 0x00, 0x00, 0x00, 0x34, 0x00, 0x00, 0x00};
  auto it = std::search(b.begin(), b.end(), tail.begin(), tail.end());
  EXPECT_NE(it, b.end());
  EXPECT_EQ(std::search(it + 1, b.end(), tail.begin(), tail.end()), b.end());
  return static_cast<size_t>(it - b.begin());
}

// Decoded whole it is a valid kernel: taken as it reads.
TEST(CutShort, AValidKernelTheModelAlsoExplainsReadsAsItIs) {
  Diagnostics pd;
  auto m = parseText(kGather4, pd);
  ASSERT_TRUE(m) << pd.render("k", kGather4);
  Bytes b = writeBinary(*m);
  elementOffsetAt(b);
  Diagnostics d;
  auto r = readBinary(view(b), d);
  ASSERT_TRUE(r) << d.render("isa", "");
  EXPECT_EQ(printText(*r), printText(*m));
}

// Element_offset at byte 256 of V52, which has 64: decoded whole, the kernel
// is one the verifier rejects, so the stream is taken as cut short, and what
// the complete reading took for Element_offset and Dst is an unwritten tail.
TEST(CutShort, AnInvalidKernelTheModelExplainsIsCutShort) {
  Diagnostics pd;
  auto m = parseText(kGather4, pd);
  ASSERT_TRUE(m) << pd.render("k", kGather4);
  Bytes b = writeBinary(*m);
  size_t at = elementOffsetAt(b);
  b[at + 5] = 0x01;  // the raw operand's byte offset: 0x0100
  // Every instruction still decodes on its own, the two filling the stream.
  size_t pos = at - 14;  // gather4_scaled: opcode, exec, pred, channels, scale (2), surface, Global_offset (6)
  ASSERT_EQ(b[pos], 0x74);
  for (int i = 0; i < 2; ++i) {
    Instruction inst;
    std::string err;
    ASSERT_TRUE(decodeInstruction(view(b), pos, inst, err)) << err;
  }
  EXPECT_EQ(pos, at + 16);
  Diagnostics d;
  EXPECT_FALSE(readBinary(view(b), d));
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].where, "kernel 'k', instruction #0");
  EXPECT_EQ(d.all()[0].message, cutShort(fmt::format("0x{:x}", at), 0, "gather4_scaled", "2 operands, Element_offset and Dst", ""));
}

}  // namespace
