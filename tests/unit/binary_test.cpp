// The binary object format (issue 4): byte-exact with Intel's writer, round
// trips over every example and test kernel, malformed input, and the CLI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "binary/format.hpp"
#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

using vtest::Bytes;
using vtest::bytesOf;
using vtest::view;

fs::path igcDir() { return fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/igc-isa"; }
const char* kIgc[] = {"gather_scaled", "scatter_scaled", "scatter4_scaled", "qw_scatter", "urb_write"};

Module parseOk(const std::string& src, const Options& opts = {}) {
  Diagnostics d;
  auto m = parseText(src, d, opts);
  EXPECT_TRUE(m) << d.render("<text>", src);
  return m ? *m : Module{};
}

// The first error of reading `b`, or "" if it reads.
std::string readError(const Bytes& b) {
  Diagnostics d;
  auto m = readBinary(view(b), d);
  if (m) return "";
  EXPECT_TRUE(d.hasErrors());
  return d.all().empty() ? "(no message)" : d.all()[0].message;
}

std::string readWhere(const Bytes& b) {
  Diagnostics d;
  readBinary(view(b), d);
  return d.all().empty() ? "" : d.all()[0].where;
}

void put32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Where `inst` of kernel 0 sits in `file` (its encoding occurs once).
size_t findInstruction(const Bytes& file, const Instruction& inst) {
  Bytes enc;
  encodeInstruction(inst, enc);
  auto it = std::search(file.begin(), file.end(), enc.begin(), enc.end());
  EXPECT_NE(it, file.end());
  EXPECT_EQ(std::search(it + 1, file.end(), enc.begin(), enc.end()), file.end()) << "encoding not unique";
  return static_cast<size_t>(it - file.begin());
}

// ---- byte-exact with Intel's writer (igc-isa/*.isa) ----

class IgcBinary : public ::testing::TestWithParam<const char*> {};

TEST_P(IgcBinary, WriterGivesIntelsBytes) {
  std::string src = vtest::readAll(igcDir() / (std::string(GetParam()) + ".visaasm"));
  Bytes intel = bytesOf(vtest::readAll(igcDir() / (std::string(GetParam()) + ".isa")));
  ASSERT_FALSE(intel.empty());
  EXPECT_EQ(writeBinary(parseOk(src)), intel);
}

TEST_P(IgcBinary, ReaderGivesTheSourceKernel) {
  Module text = parseOk(vtest::readAll(igcDir() / (std::string(GetParam()) + ".visaasm")));
  Bytes intel = bytesOf(vtest::readAll(igcDir() / (std::string(GetParam()) + ".isa")));
  Diagnostics d;
  auto m = readBinary(view(intel), d);
  ASSERT_TRUE(m) << d.render("isa", "");
  EXPECT_EQ(printText(*m), printText(text));
  EXPECT_TRUE(*m == text);
  EXPECT_TRUE(verify(*m, d)) << d.render("isa", "");
  // Re-encoding what was read gives the file back (string pool order included).
  EXPECT_EQ(writeBinary(*m), intel);
}

INSTANTIATE_TEST_SUITE_P(Files, IgcBinary, ::testing::ValuesIn(kIgc), [](const auto& i) { return std::string(i.param); });

// The file header and kernel table of gather_scaled.isa, field by field
// (chapter 4 common_isa_header / kernel_info; igc-dialect.md §2.2).
TEST(BinaryLayout, GatherScaledHeader) {
  Bytes b = writeBinary(parseOk(vtest::readAll(igcDir() / "gather_scaled.visaasm")));
  ASSERT_EQ(b.size(), 0x1afu);
  Bytes head(b.begin(), b.begin() + 0x3b);
  Bytes expect = {
      0x43, 0x49, 0x53, 0x41, 0x04, 0x01, 0x01, 0x00,  // 'CISA', 4.1, one kernel
      0x0f, 0x00,                                      // name_len 15
      'k', '_', 'g', 'a', 't', 'h', 'e', 'r', '_', 's', 'c', 'a', 'l', 'e', 'd',
      0x37, 0x00, 0x00, 0x00,  // offset: the header is 0x37 bytes
      0x78, 0x01, 0x00, 0x00,  // size 0x178: the kernel object runs to the end of the file
      0x60, 0x01, 0x00, 0x00,  // input_offset: num_inputs is at 0x160
      0x00, 0x00, 0x00, 0x00,  // no relocations
      0x01, 0x00, 0xaf, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // one empty GEN binary at the object's end
      0x00, 0x00,  // no file-scope variables
      0x00, 0x00,  // no functions
      0x21, 0x00, 0x00, 0x00,  // the object: 33 strings
  };
  EXPECT_EQ(head, expect);
  // The string pool: kernel name, %null..%msg0 (21), 6 predefined surfaces, S31, user names, "Target".
  std::string pool(b.begin() + 0x3b, b.begin() + 0x12a);
  EXPECT_EQ(pool.substr(0, 16), std::string("k_gather_scaled\0", 16));
  static constexpr char kTail[] = "%msg0\0%slm\0T1\0T2\0TSS\0%bss\0%scratch\0S31\0Offs\0Data\0Buf\0Target\0";
  EXPECT_EQ(pool.substr(pool.size() - (sizeof kTail - 1)), std::string(kTail, sizeof kTail - 1));
  EXPECT_EQ(pool.find("%scratchloc"), std::string::npos);
}

// ---- round trips over every example and test kernel ----

std::vector<fs::path> roundTripKernels() {
  std::vector<fs::path> out = vtest::sourceFiles({"examples", "tests/sim/cases", "tests/binary"}, ".visaasm");
  for (auto& p : vtest::sourceFiles({"tests/verify/cases"}, ".visaasm"))
    if (p.filename().string().find("_ok.") != std::string::npos) out.push_back(p);
  for (const char* n : kIgc) out.push_back(igcDir() / (std::string(n) + ".visaasm"));
  return out;
}

// GRF size a kernel is meant for: `--grf-size 64` in its RUN-ARGS or in the
// args of its sim case (NAME.test).
Options optionsFor(const fs::path& p, const std::string& src) {
  Options o;
  fs::path test = fs::path(p).replace_extension(".test");
  if (src.find("--grf-size 64") != std::string::npos ||
      (fs::exists(test) && vtest::readAll(test).find("--grf-size 64") != std::string::npos))
    o.grfSize = 64;
  return o;
}

class BinaryRoundTrip : public ::testing::TestWithParam<fs::path> {};

TEST_P(BinaryRoundTrip, TextBinaryText) {
  std::string src = vtest::readAll(GetParam());
  Options opts = optionsFor(GetParam(), src);
  Diagnostics d;
  auto m = parseText(src, d, opts);
  if (!m || !verify(*m, d, opts)) GTEST_SKIP() << "does not parse and verify:\n" << d.render(GetParam().string(), src);

  Bytes b = writeBinary(*m);
  ASSERT_FALSE(b.empty());
  Diagnostics rd;
  auto r = readBinary(view(b), rd);
  ASSERT_TRUE(r) << rd.render("bin", "");
  EXPECT_TRUE(verify(*r, rd, opts)) << rd.render("bin", "");
  // The binary is version 4.1 whatever `.version` said; otherwise the text is unchanged.
  Module expect = *m;
  expect.major = 4;
  expect.minor = 1;
  EXPECT_EQ(printText(*r), printText(expect));
  EXPECT_TRUE(*r == expect);
  // binary -> IR -> binary keeps every byte, the string pool order included.
  EXPECT_EQ(writeBinary(*r), b);
}

TEST_P(BinaryRoundTrip, BinaryTextBinary) {
  std::string src = vtest::readAll(GetParam());
  Options opts = optionsFor(GetParam(), src);
  Diagnostics d;
  auto m = parseText(src, d, opts);
  if (!m || !verify(*m, d, opts)) GTEST_SKIP() << "does not parse and verify";
  // The binary of the canonical text: disassembling and assembling it again
  // gives the same bytes.
  Bytes b = writeBinary(parseOk(printText(*m), opts));
  Diagnostics rd;
  auto r = readBinary(view(b), rd);
  ASSERT_TRUE(r) << rd.render("bin", "");
  std::string text = printText(*r);
  EXPECT_EQ(writeBinary(parseOk(text, opts)), b) << text;
}

INSTANTIATE_TEST_SUITE_P(Kernels, BinaryRoundTrip, ::testing::ValuesIn(roundTripKernels()),
                         [](const auto& i) { return vtest::testName(i.param); });

// Several kernels and functions in one file; labels, predicates, attributes of
// every kind; functions are written after the kernels.
TEST(BinaryRoundTrip, KernelsAndFunctions) {
  const char* src = R"(.version 4.2
.kernel "k1"
.decl a v_type=G type=d num_elts=16 align=GRF attrs={Output,Scope=1,Note="hi"}
.decl b v_type=G type=d num_elts=8 alias=<a, 32>
.decl A0 v_type=A num_elts=2
.decl P1 v_type=P num_elts=16
.decl S0 v_type=S num_elts=1 v_name=smp
.decl T6 v_type=T num_elts=1 v_name=buf attrs={SurfaceUsage=2}
.input a offset=32 size=64
.input T6 offset=96 size=4
.kernel_attr Target="3d"
.kernel_attr SimdSize=16
.kernel_attr NoBarrier
.kernel_attr OutputAsmPath="out.asm"
top:
    cmp.lt (M1, 16) P1 a(0,0)<1;1,0> 0x10:d
    (!P1.any) goto (M1, 16) done
    add (M1, 16) a(0,0)<1> a(0,0)<1;1,0> 0x1:w
    jmp (M1, 1) top

done:
    ret (M1, 1)
.global_function "f1"
.decl x v_type=G type=ud num_elts=8
.kernel_attr ArgSize=2
.kernel_attr RetValSize=1
    mov (M1, 8) x(0,0)<1> 0x0:ud
    ret (M1, 1)
.kernel "k2"
.decl y v_type=G type=f num_elts=8 align=GRF
    mov (M1, 8) y(0,0)<1> 0x3f800000:f
    ret (M1, 1)
)";
  Module m = parseOk(src);
  Bytes b = writeBinary(m);
  Diagnostics d;
  auto r = readBinary(view(b), d);
  ASSERT_TRUE(r) << d.render("bin", "");
  ASSERT_EQ(r->kernels.size(), 3u);
  // Kernels first, then functions (chapter 4 "vISA Object Format").
  EXPECT_EQ(r->kernels[0].name, "k1");
  EXPECT_EQ(r->kernels[1].name, "k2");
  EXPECT_EQ(r->kernels[2].name, "f1");
  EXPECT_TRUE(r->kernels[2].isFunction);
  Module reordered = m;
  std::swap(reordered.kernels[1], reordered.kernels[2]);
  reordered.minor = 1;
  EXPECT_EQ(printText(*r), printText(reordered));
  EXPECT_EQ(writeBinary(*r), b);
  EXPECT_EQ(writeBinary(parseOk(printText(*r))), b);
}

// ---- malformed input ----

class BinaryTruncated : public ::testing::TestWithParam<const char*> {};

TEST_P(BinaryTruncated, EveryTruncationPointIsACleanError) {
  Bytes full = bytesOf(vtest::readAll(igcDir() / (std::string(GetParam()) + ".isa")));
  ASSERT_FALSE(full.empty());
  for (size_t n = 0; n < full.size(); ++n) {
    Bytes cut(full.begin(), full.begin() + n);
    std::string e = readError(cut);
    EXPECT_NE(e.find("offset 0x"), std::string::npos) << "truncated at " << n << ": '" << e << "'";
  }
}

// Every byte replaced by 0x00, 0xff or itself + 1: the reader either reads the
// file or names an offset; it never crashes, hangs or allocates wildly.
TEST_P(BinaryTruncated, EveryCorruptedByteIsReadOrACleanError) {
  Bytes full = bytesOf(vtest::readAll(igcDir() / (std::string(GetParam()) + ".isa")));
  for (size_t i = 0; i < full.size(); ++i)
    for (uint8_t v : {uint8_t{0}, uint8_t{0xff}, static_cast<uint8_t>(full[i] + 1)}) {
      Bytes b = full;
      b[i] = v;
      Diagnostics d;
      auto m = readBinary(view(b), d);
      if (!m) {
        ASSERT_FALSE(d.all().empty());
        EXPECT_EQ(d.all()[0].message.rfind("offset 0x", 0), 0u) << d.all()[0].message;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Files, BinaryTruncated, ::testing::ValuesIn(kIgc), [](const auto& i) { return std::string(i.param); });

// The tests that patch Intel's gather_scaled.isa first check that it is there
// and whole, so that a missing file fails them instead of crashing them.
Bytes gatherScaledIsa() { return bytesOf(vtest::readAll(igcDir() / "gather_scaled.isa")); }
constexpr size_t kGatherScaledIsaBytes = 0x1af;  // its size (BinaryLayout.GatherScaledHeader)
#define ASSERT_GATHER_SCALED_ISA(b) \
  ASSERT_GE((b).size(), kGatherScaledIsaBytes) << "missing or short: " << (igcDir() / "gather_scaled.isa")

// Offsets into gather_scaled.isa, from its layout (BinaryLayout.GatherScaledHeader
// and chapter 4): kernel object at 0x37 (string_count), variable_count at
// 0x12e, num_inputs at 0x160, instructions at 0x17d: mov (19 bytes), then
// gather_scaled.1 at 0x190 (scale at 0x196, surface at 0x198, offsets raw at
// 0x19f), then ret at 0x1ab.
class Corrupt : public ::testing::Test {
 protected:
  Bytes b = gatherScaledIsa();
  void SetUp() override { ASSERT_GATHER_SCALED_ISA(b); }
  void expectError(const std::string& offset, const std::string& what) {
    std::string e = readError(b);
    EXPECT_EQ(e.rfind("offset " + offset + ":", 0), 0u) << e;
    EXPECT_NE(e.find(what), std::string::npos) << e;
  }
};

TEST_F(Corrupt, Intact) { EXPECT_EQ(readError(b), ""); }
TEST_F(Corrupt, BadMagic) {
  b[0] = 'X';
  expectError("0x0", "bad magic");
}
TEST_F(Corrupt, Version42) {
  b[5] = 2;
  expectError("0x4", "unsupported vISA binary version 4.2");
}
TEST_F(Corrupt, Version33) {
  b[4] = 3;
  b[5] = 3;
  expectError("0x4", "unsupported vISA binary version 3.3");
}
TEST_F(Corrupt, HugeKernelCount) {
  b[6] = b[7] = 0xff;
  expectError("0x6", "kernel count 65535");
}
TEST_F(Corrupt, HugeStringCount) {
  put32(b, 0x37, 0xffffffff);
  expectError("0x37", "string count 4294967295");
}
TEST_F(Corrupt, HugeVariableCount) {
  put32(b, 0x12e, 0x10000);
  expectError("0x12e", "variable count 65536");
}
TEST_F(Corrupt, HugeInputCount) {
  put32(b, 0x160, 0x7fffffff);
  expectError("0x160", "input count 2147483647");
}
TEST_F(Corrupt, ObjectPastTheEnd) {
  put32(b, 0x1d, 0x179);  // kernel size one byte too many
  expectError("0x19", "runs past the end of the file");
}
TEST_F(Corrupt, TrailingBytes) {
  b.push_back(0);
  expectError("0x1af", "1 unexpected bytes after the last object");
}
TEST_F(Corrupt, InputOffsetMismatch) {
  put32(b, 0x21, 0x161);
  expectError("0x21", "does not point at the kernel's num_inputs");
}
TEST_F(Corrupt, UnknownOpcode) {
  b[0x17d] = 0xff;
  expectError("0x17d", "unknown opcode 0xff");
}
TEST_F(Corrupt, BadVarIdInVectorOperand) {
  b[0x182] = 0x40;  // mov's destination: V64, but only V32 and V33 are declared
  expectError("0x182", "variable id 64 names no variable");
}
TEST_F(Corrupt, ReservedPredefinedVarId) {
  b[0x182] = 25;  // V22-V31 are reserved
  expectError("0x182", "variable id 25 names no variable");
}
TEST_F(Corrupt, BadVarIdInRawOperand) {
  b[0x19f] = 0x22;
  expectError("0x19f", "raw operand variable id 34 names no variable");
}
TEST_F(Corrupt, BadSurfaceId) {
  b[0x198] = 7;  // only T6 is declared
  expectError("0x198", "surface id 7 names no surface");
}
TEST_F(Corrupt, NonZeroScale) {
  b[0x196] = 1;
  expectError("0x196", "Scale must be 0");
}
TEST_F(Corrupt, NonZeroBlockSize) {
  b[0x194] = 2;
  expectError("0x194", "Block_size must be 0");
}
TEST_F(Corrupt, BadPredIdInGatherScaled) {
  b[0x192] = 1;  // (P1), but the kernel declares no predicate
  expectError("0x192", "predicate id 1 names no predicate");
}
TEST_F(Corrupt, UnsupportedOperandClass) {
  b[0x18a] = 4;  // mov's source becomes of class 4, which IGC's writer never writes
  expectError("0x18a", "class 4 (address-of) is not a class IGC writes");
}
TEST_F(Corrupt, BadExecSize) {
  b[0x17e] = 0x06;
  expectError("0x17e", "execution size code 6");
}
TEST_F(Corrupt, InstructionCutByTheObjectEnd) {
  // One byte less of instructions: ret's predicate is cut.
  put32(b, 0x1d, 0x177);
  put32(b, 0x16d, 0x31);
  b.pop_back();
  put32(b, 0x2b, 0x1ae);  // the GEN binary slot follows the object
  expectError("0x1ad", "expected 2 bytes of predicate, the instruction stream ends at 0x1ae");
}

TEST(CorruptIds, BadPredicateAndLabelIds) {
  Module m = parseOk(R"(.version 4.2
.kernel "k"
.decl P1 v_type=P num_elts=16
.decl v v_type=G type=ud num_elts=16 align=GRF
L0:
    cmp.eq (M1, 16) P1 v(0,0)<1;1,0> 0x0:ud
    (P1) goto (M1, 16) L0
    (P1) jmp (M1, 1) L0
    ret (M1, 1)
)");
  Bytes good = writeBinary(m);
  const Kernel& k = m.kernels[0];
  {
    Bytes b = good;
    size_t at = findInstruction(b, k.code[2]) + 4;  // goto: op, exec, pred, label
    b[at] = 1;                                      // label 1 does not exist
    std::string e = readError(b);
    EXPECT_EQ(e, fmt::format("offset 0x{:x}: label id 1 names no label (the kernel declares ids 0-0)", at));
    EXPECT_EQ(readWhere(b), "kernel 'k', instruction #2");
  }
  {
    Bytes b = good;
    size_t at = findInstruction(b, k.code[3]) + 2;  // jmp's predicate
    b[at] = 2;
    EXPECT_EQ(readError(b), fmt::format("offset 0x{:x}: predicate id 2 names no predicate (the kernel declares ids 1-1)", at));
  }
  {
    Bytes b = good;
    size_t at = findInstruction(b, k.code[1]) + 4;  // cmp: op, exec, relop, dst tag 02, uw id
    b[at] = 5;
    EXPECT_EQ(readError(b).rfind(fmt::format("offset 0x{:x}: predicate id 5 names no predicate", at), 0), 0u);
  }
}

TEST(CorruptIds, LabelPlacedTwice) {
  Module m = parseOk(R"(.version 4.2
.kernel "k"
L0:
    goto (M1, 1) L1

L1:
    ret (M1, 1)
)");
  Bytes b = writeBinary(m);
  size_t at = findInstruction(b, m.kernels[0].code[2]);  // "L1:" = 31 01 00
  b[at + 1] = 0;                                           // now a second "L0:"
  EXPECT_EQ(readError(b), fmt::format("offset 0x{:x}: label 'L0' is placed twice", at));
  EXPECT_EQ(readWhere(b), "kernel 'k', instruction #2");
}

TEST(BinaryDecode, InstructionErrors) {
  Instruction inst;
  std::string err;
  size_t pos = 0;
  EXPECT_FALSE(decodeInstruction(std::string_view("\x34\x00\x00", 3), pos, inst, err));
  EXPECT_EQ(err, "offset 0x2: expected 2 bytes of predicate, the input ends at 0x3");
  EXPECT_EQ(pos, 0u);
  EXPECT_FALSE(decodeInstruction(std::string_view("\x34\x00\x00\x00", 4), pos, inst, err, 4, 2));
  EXPECT_NE(err.find("4.2"), std::string::npos);
  // Version 3.4 decodes the same instruction layout.
  EXPECT_TRUE(decodeInstruction(std::string_view("\x34\x00\x00\x00", 4), pos, inst, err, 3, 4)) << err;
  EXPECT_EQ(pos, 4u);
}

// A version 3.4 file: one-byte name lengths and num_inputs (igc-dialect.md §2.1).
TEST(BinaryVersions, Reads34) {
  Bytes b41 = gatherScaledIsa();
  ASSERT_GATHER_SCALED_ISA(b41);
  // Rebuild with 3.4 widths: header name_len UB (-1 byte), num_inputs UB (-3 bytes).
  Bytes b;
  b.insert(b.end(), b41.begin(), b41.begin() + 4);
  b.push_back(3);
  b.push_back(4);
  b.insert(b.end(), b41.begin() + 6, b41.begin() + 8);
  b.push_back(b41[8]);                                       // name_len as UB
  b.insert(b.end(), b41.begin() + 10, b41.begin() + 0x37);  // name .. num_functions
  size_t shift = 1;
  Bytes obj(b41.begin() + 0x37, b41.end());
  size_t numInputs = 0x160 - 0x37;
  Bytes obj34(obj.begin(), obj.begin() + numInputs);
  obj34.push_back(obj[numInputs]);  // num_inputs as UB
  obj34.insert(obj34.end(), obj.begin() + numInputs + 4, obj.end());
  b.insert(b.end(), obj34.begin(), obj34.end());
  // Patch the kernel_info fields (one byte earlier) and the object's entry.
  size_t ki = 0x19 - shift;
  put32(b, ki, 0x37 - shift);                          // offset
  put32(b, ki + 4, static_cast<uint32_t>(obj34.size()));  // size
  put32(b, ki + 8, 0x160 - shift);                     // input_offset
  put32(b, ki + 17, static_cast<uint32_t>(b.size()));  // GEN binary offset
  size_t entryAt = (0x171 - 0x37 - 3) + (0x37 - shift);
  put32(b, entryAt, 0x146 - 3);
  Diagnostics d;
  auto m = readBinary(view(b), d);
  ASSERT_TRUE(m) << d.render("3.4", "");
  EXPECT_EQ(m->major, 3);
  EXPECT_EQ(m->minor, 4);
  Module expect = parseOk(vtest::readAll(igcDir() / "gather_scaled.visaasm"));
  expect.major = 3;
  expect.minor = 4;
  EXPECT_EQ(printText(*m), printText(expect));
}

TEST(BinaryDetect, ByContent) {
  EXPECT_TRUE(looksBinary(std::string_view("CISA\x04\x01", 6)));
  EXPECT_TRUE(looksBinary("CI"));  // a truncated magic is still binary (and an error)
  EXPECT_TRUE(looksBinary(std::string_view("XISA\0\0", 6)));
  EXPECT_FALSE(looksBinary(".version 4.2\n"));
  EXPECT_FALSE(looksBinary("// CISA\n.version 4.2\n"));
  EXPECT_FALSE(looksBinary(""));
  // Text that begins as a kernel, with a NUL byte in it: text, whose parser names the byte.
  EXPECT_FALSE(looksBinary(std::string_view(".version 4.2\n.kernel \"k\0\"\n", 25)));
  EXPECT_FALSE(looksBinary(std::string_view("\n  .version 4.2\0", 17)));
  Diagnostics d;
  const std::string text(".version 4.2\n.kernel \"k\0z\"\n    ret (M1, 1)\n", 43);
  EXPECT_FALSE(parseText(text, d));
  EXPECT_NE(d.render("k.visaasm", text).find("k.visaasm:2:11: error: a string may not hold a NUL byte (\\x00)"), std::string::npos)
      << d.render("k.visaasm", text);
}

TEST(BinaryLimits, TooManySurfaces) {
  Module m;
  m.kernels.emplace_back();
  m.kernels[0].name = "k";
  m.kernels[0].surfaces.resize(251);
  EXPECT_TRUE(binary::encodeLimitError(m));
  EXPECT_TRUE(writeBinary(m).empty());
  m.kernels[0].surfaces.resize(250);
  EXPECT_FALSE(binary::encodeLimitError(m));
  EXPECT_FALSE(writeBinary(m).empty());
}

// ---- CLI ----

class BinaryCli : public vtest::TempDirTest {
 protected:
  std::string q(const fs::path& p) { return "'" + p.string() + "'"; }
  std::vector<std::string> files() {
    std::vector<std::string> r;
    for (const auto& e : fs::directory_iterator(dir)) r.push_back(e.path().filename().string());
    std::sort(r.begin(), r.end());
    return r;
  }
  void write(const fs::path& p, const std::string& s) {
    std::ofstream(p, std::ios::binary) << s;
  }
};

TEST_F(BinaryCli, AsmThenDis) {
  fs::path src = igcDir() / "gather_scaled.visaasm";
  auto a = vtest::runCli("asm " + q(src) + " -o " + q(dir / "g.isa"));
  ASSERT_EQ(a.exit, 0) << a.output;
  EXPECT_EQ(a.output, "");
  EXPECT_EQ(vtest::readAll(dir / "g.isa"), vtest::readAll(igcDir() / "gather_scaled.isa"));
  auto d = vtest::runCli("dis " + q(dir / "g.isa"));
  ASSERT_EQ(d.exit, 0) << d.output;
  EXPECT_EQ(d.output, printText(parseOk(vtest::readAll(src))));
  auto o = vtest::runCli("dis " + q(dir / "g.isa") + " -o " + q(dir / "g.visaasm"));
  ASSERT_EQ(o.exit, 0) << o.output;
  EXPECT_EQ(vtest::readAll(dir / "g.visaasm"), d.output);
  // Written atomically: nothing but the outputs is left behind.
  EXPECT_EQ(files(), (std::vector<std::string>{"g.isa", "g.visaasm"}));
}

TEST_F(BinaryCli, AsmDefaultOutputReplacesTheExtension) {
  write(dir / "k.visaasm", vtest::readAll(igcDir() / "urb_write.visaasm"));
  write(dir / "noext", vtest::readAll(igcDir() / "urb_write.visaasm"));
  ASSERT_EQ(vtest::runCli("asm " + q(dir / "k.visaasm")).exit, 0);
  ASSERT_EQ(vtest::runCli("asm " + q(dir / "noext")).exit, 0);
  EXPECT_EQ(files(), (std::vector<std::string>{"k.isa", "k.visaasm", "noext", "noext.isa"}));
  EXPECT_EQ(vtest::readAll(dir / "k.isa"), vtest::readAll(igcDir() / "urb_write.isa"));
}

TEST_F(BinaryCli, ExitCodes) {
  write(dir / "bad.visaasm", ".version 4.2\n.kernel \"k\"\n    bogus (M1, 1)\n");
  auto a = vtest::runCli("asm " + q(dir / "bad.visaasm") + " -o " + q(dir / "bad.isa"));
  EXPECT_EQ(a.exit, 1) << a.output;
  EXPECT_FALSE(fs::exists(dir / "bad.isa"));
  EXPECT_EQ(vtest::runCli("asm").exit, 2);
  EXPECT_EQ(vtest::runCli("dis").exit, 2);
  EXPECT_EQ(vtest::runCli("dis " + q(dir / "missing.isa")).exit, 1);
  // An output that cannot be written: exit 1, and no partial file.
  auto w = vtest::runCli("asm " + q(igcDir() / "qw_scatter.visaasm") + " -o " + q(dir / "no/such/dir/x.isa"));
  EXPECT_EQ(w.exit, 1) << w.output;
  EXPECT_EQ(files(), (std::vector<std::string>{"bad.visaasm"}));
  EXPECT_EQ(vtest::runCli("asm --help").exit, 0);
  EXPECT_EQ(vtest::runCli("dis --help").exit, 0);
}

TEST_F(BinaryCli, CorruptBinaryNamesTheOffset) {
  Bytes b = gatherScaledIsa();
  ASSERT_GATHER_SCALED_ISA(b);
  b[0x198] = 9;
  write(dir / "c.isa", std::string(b.begin(), b.end()));
  auto d = vtest::runCli("dis " + q(dir / "c.isa"));
  EXPECT_EQ(d.exit, 1);
  EXPECT_NE(d.output.find("c.isa: kernel 'k_gather_scaled', instruction #1: error: offset 0x198: surface id 9 names no surface"),
            std::string::npos)
      << d.output;
}

TEST_F(BinaryCli, CheckAndFmtDetectBinaryByContent) {
  // A binary named .visaasm and a text kernel named .isa.
  write(dir / "bin.visaasm", vtest::readAll(igcDir() / "scatter4_scaled.isa"));
  write(dir / "text.isa", vtest::readAll(igcDir() / "scatter4_scaled.visaasm"));
  auto c = vtest::runCli("check " + q(dir / "bin.visaasm") + " " + q(dir / "text.isa"));
  EXPECT_EQ(c.exit, 0) << c.output;
  auto f1 = vtest::runCli("fmt " + q(dir / "bin.visaasm"));
  auto f2 = vtest::runCli("fmt " + q(dir / "text.isa"));
  EXPECT_EQ(f1.exit, 0);
  EXPECT_EQ(f1.output, f2.output);
}

TEST_F(BinaryCli, VerifierDiagnosticsNameKernelAndInstruction) {
  // gather_scaled.8: decodes (num_blocks code 3), but the page allows 1, 2, 4 only.
  Bytes b = gatherScaledIsa();
  ASSERT_GATHER_SCALED_ISA(b);
  b[0x195] = 3;
  write(dir / "v.isa", std::string(b.begin(), b.end()));
  auto c = vtest::runCli("check " + q(dir / "v.isa"));
  EXPECT_EQ(c.exit, 1);
  EXPECT_NE(c.output.find("v.isa: kernel 'k_gather_scaled', instruction #1: error:"), std::string::npos) << c.output;
}

}  // namespace
