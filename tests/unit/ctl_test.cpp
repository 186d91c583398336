// Family C: the text forms Intel's printer writes (headers, debug information, indirect regions), the
// string fields in an object, the rules only a binary can break, the debug-information lookup.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

Module parseOk(const std::string& src, unsigned grf = 32) {
  Diagnostics d;
  Options o;
  o.grfSize = grf;
  auto m = parseText(src, d, o);
  EXPECT_TRUE(m) << d.render("t", src);
  return m ? *m : Module{};
}

std::string errorsOf(const std::string& src) {
  Diagnostics d;
  auto m = parseText(src, d);
  EXPECT_FALSE(m);
  return d.render("t", src);
}

std::string verifyErrors(const Module& m) {
  Diagnostics d;
  verify(m, d);
  return d.render("t", "");
}

// Intel's printer's kernel header: the predefined-variable comment block, `/// $N` comments,
// `.kernel_attr` with trailing spaces, `.implicit_*` inputs, `.function` after the attributes.
TEST(CtlText, IgcHeaderFormsAreReadAndPrintedBack) {
  const std::string src =
      ".version 4.1\n"
      ".kernel \"k\"\n"
      "\n"
      "/// VISA Predefined Variables\n"
      "// .decl V0 v_type=G v_name=%null\n"
      "// .decl T0 v_type=T v_name=%slm\n"
      "\n"
      ".decl V0032 v_type=G type=ud num_elts=8 align=hword\n"
      ".decl V0033 v_type=G type=w num_elts=16 align=hword\n"
      ".decl V0034 v_type=G type=d num_elts=3 align=dword\n"
      ".decl V0035 v_type=G type=d num_elts=8 align=hword\n"
      ".decl T6 v_type=T num_elts=1 v_name=T006\n"
      ".input V0032 offset=32 size=32\n"
      ".implicit_LOCAL_ID V0033 offset=64 size=32\n"
      ".implicit_LOCAL_SIZE V0034 offset=96 size=12\n"
      ".implicit_UNDEFINED_7 V0035 offset=128 size=32\n"
      ".kernel_attr Target=\"3d\"\n"
      ".kernel_attr SimdSize=16    \n"
      ".kernel_attr PerThreadInputSize=64    \n"
      ".function \"_main_0\"\n"
      "\n"
      "_main_0:\n"
      "    movs (M1_NM, 1) T6(0) 0x2:ud                                                 /// $1\n"
      "    ret (M1, 1)                                                                  /// $2\n";
  Module m = parseOk(src);
  ASSERT_EQ(m.kernels.size(), 1u);
  const Kernel& k = m.kernels[0];
  ASSERT_EQ(k.inputs.size(), 4u);
  EXPECT_EQ(k.inputs[1].implicitKind, 3u);  // Common_ISA.h LOCAL_ID
  EXPECT_EQ(k.inputs[2].implicitKind, 1u);  // LOCAL_SIZE
  EXPECT_EQ(k.inputs[3].implicitKind, 7u);
  std::string printed = printText(m);
  EXPECT_NE(printed.find(".implicit_LOCAL_ID V0033 offset=64 size=32\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find(".implicit_UNDEFINED_7 V0035 offset=128 size=32\n"), std::string::npos) << printed;
  EXPECT_EQ(printText(parseOk(printed)), printed);
  EXPECT_TRUE(parseOk(printed) == m);
  // The implicit kind survives an object (input_info kind bits 3-7).
  Diagnostics d;
  auto back = readBinary(std::string_view(reinterpret_cast<const char*>(writeBinary(m).data()), writeBinary(m).size()), d);
  ASSERT_TRUE(back) << d.render("bin", "");
  EXPECT_TRUE(*back == m);
  EXPECT_NE(errorsOf(".version 4.2\n.kernel \"k\"\n.decl V v_type=G type=d num_elts=1\n.implicit_NOPE V offset=0 size=4\n")
                .find("unknown implicit input kind '.implicit_NOPE'"),
            std::string::npos);
}

// `.funcdecl` lines are skipped; a `.global_function` with `.parameter` inputs reads and prints back.
TEST(CtlText, FunctionsAndParameters) {
  const std::string src =
      ".version 4.2\n"
      ".funcdecl \"callee\"\n"
      ".global_function \"callee\"\n"
      ".decl A v_type=G type=d num_elts=8 align=GRF\n"
      ".parameter A size=32\n"
      "    fret (M1_NM, 1)\n";
  Module m = parseOk(src);
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_TRUE(m.kernels[0].isFunction);
  std::string printed = printText(m);
  EXPECT_NE(printed.find(".global_function \"callee\"\n"), std::string::npos);
  EXPECT_NE(printed.find(".parameter A size=32\n"), std::string::npos) << printed;
  EXPECT_EQ(printText(parseOk(printed)), printed);
}

// CISA.l: FILE / .file and LOC / .loc are the same instructions; sourcePositions gives the line and file
// in effect at each instruction (LOC and FILE pages).
TEST(CtlText, DebugInformation) {
  const std::string src =
      ".version 4.2\n"
      ".kernel \"k\"\n"
      ".decl V v_type=G type=d num_elts=8 align=GRF\n"
      "    mov (M1, 8) V(0,0)<1> 0x0:d\n"
      ".file \"a.cl\"\n"
      ".loc 7\n"
      "    mov (M1, 8) V(0,0)<1> 0x1:d\n"
      "    LOC 9\n"
      "    FILE \"b.cl\"\n"
      "    mov (M1, 8) V(0,0)<1> 0x2:d\n"
      "    ret (M1, 1)\n";
  Module m = parseOk(src);
  const Kernel& k = m.kernels[0];
  ASSERT_EQ(k.code.size(), 8u);
  ASSERT_EQ(k.strings.size(), 2u);
  auto pos = sourcePositions(k);
  ASSERT_EQ(pos.size(), k.code.size());
  EXPECT_EQ(pos[0].line, 0u);
  EXPECT_EQ(pos[0].file, -1);
  EXPECT_EQ(pos[3].line, 7u);
  EXPECT_EQ(k.strings[static_cast<size_t>(pos[3].file)], "a.cl");
  EXPECT_EQ(pos[6].line, 9u);
  EXPECT_EQ(k.strings[static_cast<size_t>(pos[6].file)], "b.cl");
  std::string printed = printText(m);
  EXPECT_NE(printed.find("    FILE \"a.cl\"\n    LOC 7\n"), std::string::npos) << printed;
}

// String fields (FILE, FCALL, FADDR) in an object: string-pool indices, and back to the same strings.
TEST(CtlBinary, StringFieldsGoThroughTheStringPool) {
  const std::string src =
      ".version 4.1\n"
      ".kernel \"k\"\n"
      ".decl F v_type=G type=ud num_elts=1 align=dword\n"
      "    FILE \"source.cl\"\n"
      "    fcall (M1_NM, 1) callee 1 1\n"
      "    faddr \"other fn\" F(0,0)<1>\n"
      "    FILE \"source.cl\"\n"
      "    ret (M1, 1)\n";
  Module m = parseOk(src);
  ASSERT_EQ(m.kernels[0].strings.size(), 4u);
  std::vector<uint8_t> bin = writeBinary(m);
  ASSERT_FALSE(bin.empty());
  std::string_view bytes(reinterpret_cast<const char*>(bin.data()), bin.size());
  // The pool holds the names; the FILE instruction (51, then a ud index) names "source.cl".
  size_t at = bytes.find(std::string_view("source.cl\0", 10));
  ASSERT_NE(at, std::string_view::npos);
  Diagnostics d;
  auto back = readBinary(bytes, d);
  ASSERT_TRUE(back) << d.render("bin", "");
  EXPECT_TRUE(*back == m);
  EXPECT_EQ(printText(*back), printText(m));
  EXPECT_NE(printText(m).find("    faddr \"other fn\" F(0,0)<1>\n"), std::string::npos);
}

// SWITCHJMP: visakit holds at most 21 labels (spec-decisions C10); text with more is an error.
TEST(CtlText, SwitchjmpLabelLimit) {
  std::string labels, defs;
  for (int i = 0; i < 22; ++i) {
    labels += (i ? ", L" : "L") + std::to_string(i);
    defs += "L" + std::to_string(i) + ":\n";
  }
  std::string src = ".version 4.2\n.kernel \"k\"\n.decl S v_type=G type=ub num_elts=4 align=dword\n"
                    "    switchjmp (M1_NM, 1) S(0,0)<0;1,0> (" + labels + ")\n" + defs + "    ret (M1, 1)\n";
  EXPECT_NE(errorsOf(src).find("switchjmp with more than 21 labels"), std::string::npos);
  // The binary reader says the same of 22 labels: 69, exec, 22, index, 22 label ids.
  std::vector<uint8_t> b = {0x69, 0x80, 22, 0x05, 0x04, 0, 0, 0, 0};
  for (int i = 0; i < 22; ++i) b.insert(b.end(), {static_cast<uint8_t>(i), 0});
  size_t pos = 0;
  Instruction inst;
  std::string err;
  EXPECT_FALSE(decodeInstruction(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), pos, inst, err));
  EXPECT_NE(err.find("switchjmp with 22 labels: visakit holds at most 21"), std::string::npos) << err;
}

// Rules a text cannot break (its syntax cannot spell the value): FENCE bit 7 with other bits, a LIFETIME
// class 3, a SWITCHJMP whose Num_labels disagrees with its labels.
TEST(CtlVerify, RulesOnlyABinaryCanBreak) {
  Module m = parseOk(
      ".version 4.2\n.kernel \"k\"\n.decl V v_type=G type=d num_elts=8 align=GRF\n"
      ".decl S v_type=G type=ub num_elts=4 align=dword\n.input S offset=32 size=4\n"
      "    fence_sw\n    lifetime.start V\n    switchjmp (M1_NM, 1) S(0,0)<0;1,0> (L0, L1)\nL0:\nL1:\n    ret (M1, 1)\n");
  EXPECT_EQ(verifyErrors(m), "");
  Kernel& k = m.kernels[0];
  k.code[0].f[0].value = 0x81;  // fence_sw | E
  k.code[1].f[0].value = 0x30;  // class 3
  k.code[2].f[1].value = 3;     // three labels claimed, two present
  std::string e = verifyErrors(m);
  EXPECT_NE(e.find("bit 7 (fence_sw, no fence is generated) takes no other bits"), std::string::npos) << e;
  EXPECT_NE(e.find("lifetime properties 0x30"), std::string::npos) << e;
  EXPECT_NE(e.find("Num_labels is 3 but the instruction has 2 labels"), std::string::npos) << e;
}

// IGC's VxH region <width,hstride> and the page's <;width,hstride> for indirect sources; the printer
// writes IGC's form; an object keeps the absent vertical stride.
TEST(CtlText, MultiAddressIndirectRegions) {
  const std::string head =
      ".version 4.1\n.kernel \"k\"\n.decl V v_type=G type=d num_elts=16 align=GRF\n.decl A0 v_type=A num_elts=16\n";
  Module a = parseOk(head + "    mov (M1, 16) V(0,0)<1> r[A0(0),0]<1,0>:d\n");
  Module b = parseOk(head + "    mov (M1, 16) V(0,0)<1> r[A0(0),0]<;1,0>:d\n");
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.kernels[0].code[0].f[3].region.vs, kRegionNull);
  EXPECT_NE(printText(a).find("r[A0(0),0]<1,0>:d"), std::string::npos);
  Diagnostics d;
  std::vector<uint8_t> bin = writeBinary(a);
  auto back = readBinary(std::string_view(reinterpret_cast<const char*>(bin.data()), bin.size()), d);
  ASSERT_TRUE(back) << d.render("bin", "");
  EXPECT_TRUE(*back == a);
  // A general source still needs its vertical stride.
  EXPECT_NE(errorsOf(head + "    mov (M1, 16) V(0,0)<1> V(0,0)<1,0>\n").find("expected ';' after the vertical stride"),
            std::string::npos);
}

// Every form of FENCE, CALL / FCCALL, NBARRIER, LIFETIME, RAW_SEND(S) through an object and back.
TEST(CtlBinary, CustomSyntaxRowsRoundTrip) {
  const std::string src =
      ".version 4.1\n.kernel \"k\"\n"
      ".decl V v_type=G type=ud num_elts=16 align=GRF\n.decl A0 v_type=A num_elts=4\n.decl P1 v_type=P num_elts=16\n"
      "    fence_global\n    fence_global.EISCRL1\n    fence_local.\n    fence_local.CR\n    fence_sw\n"
      "    (P1) call (M1, 16) sub\n    fccall (M1_NM, 1) ext\n"
      "    nbarrier.signal V(0,0)<0;1,0> 0x2:ub\n    nbarrier.wait 0x3:ub\n"
      "    lifetime.start V\n    lifetime.end A0\n    lifetime.end P1\n"
      "    (!P1.any) raw_sendc (M1, 16) 0x1234 2 1 V(0,0)<0;1,0> V.0 V.32\n"
      "    raw_sends.3.eot.1.1.0 (M1, 8) 0x10:ud 0x20:ud V.0 V.32 %null.0\n"
      "    ret (M1, 1)\n"
      ".function \"sub\"\n\nsub:\n    ret (M1_NM, 1)\n";
  Module m = parseOk(src);
  std::string printed = printText(m);
  for (const char* line : {"fence_global\n", "fence_global.EISCRL1\n", "fence_local.\n", "fence_local.CR\n", "fence_sw\n",
                           "(P1) call (M1, 16) sub\n", "fccall (M1_NM, 1) ext\n", "nbarrier.signal V(0,0)<0;1,0> 0x2:ub\n",
                           "nbarrier.wait 0x3:ub\n", "lifetime.end A0\n", "lifetime.end P1\n",
                           "(!P1.any) raw_sendc (M1, 16) 0x1234 2 1 V(0,0)<0;1,0> V.0 V.32\n",
                           "raw_sends.3.eot.1.1.0 (M1, 8) 0x10:ud 0x20:ud V.0 V.32 %null.0\n"})
    EXPECT_NE(printed.find(line), std::string::npos) << line << " in\n" << printed;
  EXPECT_TRUE(parseOk(printed) == m);
  Diagnostics d;
  std::vector<uint8_t> bin = writeBinary(m);
  auto back = readBinary(std::string_view(reinterpret_cast<const char*>(bin.data()), bin.size()), d);
  ASSERT_TRUE(back) << d.render("bin", "");
  EXPECT_EQ(printText(*back), printed);
  // IGC's grammar spellings are read too: raw_sends_eot.SFID.N0.N1.ND and raw_sendsc.N0.N1.ND (SFID 0).
  const std::string head = ".version 4.2\n.kernel \"k\"\n.decl V v_type=G type=ud num_elts=16 align=GRF\n";
  Module e1 = parseOk(head + "    raw_sends_eot.3.1.1.0 (M1, 8) 0x10:ud 0x20:ud V.0 V.32 %null.0\n");
  EXPECT_NE(printText(e1).find("raw_sends.3.eot.1.1.0 (M1, 8)"), std::string::npos);
  Module e2 = parseOk(head + "    raw_sendsc.1.1.0 (M1, 8) 0x10:ud 0x20:ud V.0 V.32 %null.0\n");
  EXPECT_NE(printText(e2).find("raw_sendsc.0.1.1.0 (M1, 8)"), std::string::npos);
}

}  // namespace
