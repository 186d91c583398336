// Text front end: spellings, values, diagnostics, CLI behaviour.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

const char* kHeader =
    ".version 4.2\n"
    ".kernel \"k\"\n"
    ".decl Offs v_type=G type=ud num_elts=16 align=GRF\n"
    ".decl Data v_type=G type=ud num_elts=16 align=GRF\n"
    ".decl Buf v_type=T num_elts=1\n";

Module parseOk(const std::string& src) {
  Diagnostics d;
  auto m = parseText(src, d);
  EXPECT_TRUE(m) << d.render("t", src);
  return m ? *m : Module{};
}

TEST(Parser, PageSpellings) {
  // spec-decisions T1/T2: upper-case page mnemonics, T0 = %slm, T5 = %scratch.
  Module a = parseOk(std::string(kHeader) +
                     "GATHER_SCALED.4 (M1, 16) T0 0x0:ud Offs.0 Data.0\n"
                     "SCATTER_SCALED.1 (M1, 16) T5 0x0:ud Offs.0 Data.0\n");
  Module b = parseOk(std::string(kHeader) +
                     "gather_scaled.4 (M1, 16) %slm 0x0:ud Offs.0 Data.0\n"
                     "scatter_scaled.1 (M1, 16) %scratch 0x0:ud Offs.0 Data.0\n");
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.kernels[0].code[0].f[5].id, 0u);  // Surface field of GATHER_SCALED
  EXPECT_EQ(a.kernels[0].code[1].f[5].id, 5u);
}

TEST(Parser, ImmediateValues) {
  // igc-dialect.md §2.4: narrow integers stored extended to 32 bits.
  Module m = parseOk(std::string(kHeader) +
                     ".decl W v_type=G type=w num_elts=16\n"
                     ".decl F v_type=G type=f num_elts=16\n"
                     "mov (M1, 8) W(0,0)<1> -1:w\n"
                     "mov (M1, 8) W(0,0)<1> 0xffffffff:w\n"
                     "mov (M1, 8) F(0,0)<1> 1.5:f\n"
                     "mov (M1, 8) Offs(0,0)<1> 0x76543210:v\n"
                     "mov (M1, 8) W(0,0)<1> 0xff:ub\n"
                     "mov (M1, 8) W(0,0)<1> -128:b\n");
  const auto& c = m.kernels[0].code;
  EXPECT_EQ(c[0].f[3].value, 0xffffffffu);
  EXPECT_EQ(c[1].f[3].value, 0xffffffffu);
  EXPECT_EQ(c[2].f[3].value, 0x3fc00000u);  // 1.5f = sign 0, exp 127, mantissa 0x400000
  EXPECT_EQ(c[3].f[3].value, 0x76543210u);
  EXPECT_EQ(c[4].f[3].value, 0xffu);
  EXPECT_EQ(c[5].f[3].value, 0xffffff80u);
}

TEST(Parser, KernelAttrFollowedByInstructionOnSameLine) {
  // IGC's printer leaves out the newline after the last .kernel_attr (spec-decisions T5).
  Module m = parseOk(std::string(kHeader) + ".kernel_attr Target=\"cm\"    mov (M1, 8) Offs(0,0)<1> 0x0:ud\n");
  ASSERT_EQ(m.kernels[0].code.size(), 1u);
  EXPECT_EQ(m.kernels[0].attrs[0].strVal, "cm");
}

TEST(Parser, SurfaceNamesAndVName) {
  Module m = parseOk(".version 4.2\n.kernel \"k\"\n"
                     ".decl Offs v_type=G type=ud num_elts=8 align=GRF\n"
                     ".decl T6 v_type=T num_elts=1 v_name=buf\n"
                     "gather_scaled.1 (M1, 8) buf 0x0:ud Offs.0 Offs.0\n"
                     "gather_scaled.1 (M1, 8) T6 0x0:ud Offs.0 Offs.0\n");
  EXPECT_EQ(m.kernels[0].surfaces[0].name, "buf");
  EXPECT_TRUE(m.kernels[0].code[0] == m.kernels[0].code[1]);
}

TEST(Diagnostics, LlvmStyleWithCaretAndAllErrors) {
  std::string src = std::string(kHeader) +
                    "    mov (M1, 8) Nope(0,0)<1> 0x0:ud\n"
                    "    frobnicate (M1, 8)\n";
  Diagnostics d;
  EXPECT_FALSE(parseText(src, d));
  EXPECT_EQ(d.errorCount(), 2u);
  // Line 6, column 17 is where 'Nope' starts; the caret underlines its 4 characters.
  EXPECT_EQ(d.render("k.visaasm", src),
            "k.visaasm:6:17: error: use of undeclared variable 'Nope'\n"
            "    mov (M1, 8) Nope(0,0)<1> 0x0:ud\n"
            "                ^~~~\n"
            "k.visaasm:7:5: error: unknown instruction 'frobnicate'\n"
            "    frobnicate (M1, 8)\n"
            "    ^~~~~~~~~~\n");
}

// A subroutine's name is also its label ('NAME:' after '.function "NAME"'),
// so it must read as one identifier; the printer writes both (fuzz_text F5).
TEST(Diagnostics, FunctionNameMustBeAnIdentifier) {
  std::string src = std::string(kHeader) + "    ret (M1, 1)\n.function \"s%x\"\nsub:\n    ret (M1_NM, 1)\n";
  Diagnostics d;
  EXPECT_FALSE(parseText(src, d));
  EXPECT_NE(d.render("k.visaasm", src).find("k.visaasm:7:11: error: function name 's%x' is not an identifier"), std::string::npos)
      << d.render("k.visaasm", src);
  Diagnostics ok;
  EXPECT_TRUE(parseText(std::string(kHeader) + "    ret (M1, 1)\n.function \"sub_1$\"\nsub_1$:\n    ret (M1_NM, 1)\n", ok))
      << ok.render("k.visaasm", "");
}

// LLVM's error limit: 30 bad lines give the first 20 errors, a note where reading stopped and a
// count of the rest; the file after that line is not read (line 40 has an error nobody sees).
TEST(Diagnostics, TheFirstTwentyErrorsThenANote) {
  std::string src = std::string(kHeader);
  for (int i = 0; i < 30; ++i) src += "    nosuch (M1, 1)\n";
  src += std::string(5, '\n') + "    ret (M1, 1)\n    also_bad\n";
  Diagnostics d;
  EXPECT_FALSE(parseText(src, d));
  const std::string out = d.render("k.visaasm", src);
  size_t errors = 0;
  for (size_t at = out.find(": error: "); at != std::string::npos; at = out.find(": error: ", at + 1)) ++errors;
  EXPECT_EQ(errors, 20u) << out;
  EXPECT_NE(out.find("k.visaasm:25:5: error: "), std::string::npos) << out;  // the 20th bad line (the header has 4)
  EXPECT_EQ(out.find("k.visaasm:26:5: error: "), std::string::npos) << out;
  EXPECT_NE(out.find(": note: too many errors: visakit stops reading the file here"), std::string::npos) << out;
  EXPECT_NE(out.find("k.visaasm: note: 1 more error not shown (the first 20 are)"), std::string::npos) << out;
  EXPECT_EQ(out.find("also_bad"), std::string::npos) << out;
}

// A line longer than 160 characters is shown as 160 of them around the column, the caret under it;
// a message quoting a long name, as its start and end.
TEST(Diagnostics, ALongLineIsShownAroundTheColumn) {
  const std::string src = std::string(kHeader) + "    mov (M1, 1) " + std::string(4000, 'x') + " ) $\n";
  Diagnostics d;
  EXPECT_FALSE(parseText(src, d));
  const std::string out = d.render("k.visaasm", src);
  for (size_t a = 0, b; (b = out.find('\n', a)) != std::string::npos; a = b + 1)
    EXPECT_LE(b - a, 1100u) << out.substr(a, b - a);
}

TEST(Diagnostics, VersionMustComeFirst) {
  Diagnostics d;
  EXPECT_FALSE(parseText(".kernel \"k\"\n", d));
  ASSERT_GE(d.all().size(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 1u);
}

TEST(Cli, ExitCodesAndHelp) {
  auto dir = std::filesystem::temp_directory_path() / "visakit_cli_test";
  std::filesystem::create_directories(dir);
  std::string good = (dir / "good.visaasm").string(), bad = (dir / "bad.visaasm").string();
  std::ofstream(good) << kHeader << "    ret (M1, 1)\n";
  std::ofstream(bad) << kHeader << "    ret (M1, 3)\n";
  EXPECT_EQ(vtest::runCli("check " + good).exit, 0);
  auto r = vtest::runCli("check " + bad);
  EXPECT_EQ(r.exit, 1);
  EXPECT_NE(r.output.find("bad.visaasm:6:14: error: invalid execution size 3"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 error generated."), std::string::npos) << r.output;
  EXPECT_EQ(vtest::runCli("check").exit, 2);
  EXPECT_EQ(vtest::runCli("check --bogus " + good).exit, 2);
  EXPECT_EQ(vtest::runCli("check " + (dir / "missing.visaasm").string()).exit, 1);
  for (const char* cmd : {"check", "fmt", "asm", "dis", "run"}) {
    auto h = vtest::runCli(std::string(cmd) + " --help");
    EXPECT_EQ(h.exit, 0) << cmd;
    EXPECT_NE(h.output.find("Usage"), std::string::npos) << cmd << ": " << h.output;
  }
}

TEST(Cli, FmtOutputIsAtomicAndNotWrittenOnFailure) {
  auto dir = std::filesystem::temp_directory_path() / "visakit_fmt_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string bad = (dir / "bad.visaasm").string(), out = (dir / "out.visaasm").string();
  std::ofstream(bad) << kHeader << "    ret (M1, 3)\n";
  EXPECT_EQ(vtest::runCli("fmt " + bad + " -o " + out).exit, 1);
  EXPECT_FALSE(std::filesystem::exists(out));
  std::string good = (dir / "good.visaasm").string();
  std::ofstream(good) << kHeader << "ret (M1, 1)\n";
  EXPECT_EQ(vtest::runCli("fmt " + good + " -o " + out).exit, 0);
  // Canonical form: surfaces print as T<id> with v_name (spec-decisions T3), instructions indented 4.
  EXPECT_EQ(vtest::readAll(out), ".version 4.2\n.kernel \"k\"\n"
                                 ".decl Offs v_type=G type=ud num_elts=16 align=GRF\n"
                                 ".decl Data v_type=G type=ud num_elts=16 align=GRF\n"
                                 ".decl T6 v_type=T num_elts=1 v_name=Buf\n"
                                 "    ret (M1, 1)\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 3);  // no temp files left
}

}  // namespace

namespace {
TEST(Verifier, MovFromPredicate) {
  // MOV page Notes: predicate src0 needs exec 1 and a UB/UW/UD dst at least as wide as the predicate.
  std::string base = std::string(kHeader) + ".decl P1 v_type=P num_elts=16\n.decl B v_type=G type=ub num_elts=4\n";
  auto check = [](const std::string& src) {
    Diagnostics d;
    auto m = parseText(src, d);
    return m && verify(*m, d);
  };
  EXPECT_TRUE(check(base + "mov (M1_NM, 1) Offs(0,0)<1> P1\n"));
  EXPECT_FALSE(check(base + "mov (M1_NM, 2) Offs(0,0)<1> P1\n"));   // exec size 2
  EXPECT_FALSE(check(base + "mov (M1_NM, 1) B(0,0)<1> P1\n"));      // 8 bits < 16 elements
  EXPECT_FALSE(check(base + "mov.sat (M1_NM, 1) Offs(0,0)<1> P1\n"));
  // A signed destination of enough bits is the named warning mov-pred-type (spec-decisions A27).
  const std::string signedDst = base + ".decl Sd v_type=G type=d num_elts=1\n.decl Sb v_type=G type=b num_elts=4\n.decl Fd v_type=G type=f num_elts=1\n";
  EXPECT_TRUE(check(signedDst + "mov (M1_NM, 1) Sd(0,0)<1> P1\n"));
  EXPECT_FALSE(check(signedDst + "mov (M1_NM, 1) Sb(0,0)<1> P1\n"));  // 8 bits < 16 elements
  EXPECT_FALSE(check(signedDst + "mov (M1_NM, 1) Fd(0,0)<1> P1\n"));  // a float
}

// %r0 is one GRF: an alias past its 32 bytes is an error with 32-byte GRFs, and
// the message says what a 64-byte-GRF kernel needs (IGC's pvc dumps alias 16 dwords).
TEST(Verifier, AliasPastR0NamesTheGrfSize) {
  const std::string src = std::string(kHeader) + ".decl R v_type=G type=ud num_elts=16 alias=<%r0, 0>\n";
  Diagnostics d;
  auto m = parseText(src, d);
  ASSERT_TRUE(m);
  EXPECT_FALSE(verify(*m, d));
  ASSERT_FALSE(d.all().empty());
  EXPECT_EQ(d.all()[0].message,
            "alias 'R' covers bytes [0, 64) but its base '%r0' has 32 bytes (with 32-byte GRFs; a kernel for a "
            "64-byte-GRF platform needs --platform pvc)");
  Diagnostics d64;
  Options o;
  o.grfSize = 64;
  EXPECT_TRUE(verify(*m, d64, o)) << d64.render("k", src);
}

// %arg and %retval are 32 and 12 GRFs: 1024 and 384 bytes with 32-byte GRFs, 2048 and 768 with
// 64 (4_visa_header.md V8, V9: "96 elements for PrePVC/192 elements for PVC+"). IGC's pvc
// code at -cl-opt-disable aliases 128 dwords over %retval.
TEST(Verifier, ArgAndRetvalAreCountedInGrfs) {
  const std::string src = std::string(kHeader) +
                          ".decl Rv v_type=G type=d num_elts=128 alias=<%retval, 0>\n"
                          ".decl Av v_type=G type=d num_elts=512 alias=<%arg, 0>\n";
  Diagnostics d;
  auto m = parseText(src, d);
  ASSERT_TRUE(m);
  EXPECT_FALSE(verify(*m, d));
  ASSERT_EQ(d.errorCount(), 2u) << d.render("k", src);
  EXPECT_NE(d.all()[0].message.find("but its base '%retval' has 384 bytes"), std::string::npos) << d.all()[0].message;
  EXPECT_NE(d.all()[1].message.find("but its base '%arg' has 1024 bytes"), std::string::npos) << d.all()[1].message;
  Diagnostics d64;
  Options o;
  o.grfSize = 64;
  EXPECT_TRUE(verify(*m, d64, o)) << d64.render("k", src);
}
}  // namespace
