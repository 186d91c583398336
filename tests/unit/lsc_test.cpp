// The LSC family (LSC_UNTYPED, LSC_TYPED, LSC_FENCE): the text as IGC prints it
// (real lines of the acm-g10 and pvc dumps), the spellings the pages use, the
// values the text leaves out (spec-decisions L1), and the rules only a binary
// can break (L2): the text cannot state them, so the instruction is built by
// parsing a valid line and changing a field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "visakit/visakit.hpp"

using namespace visakit;

namespace {

const char* kHead = R"(.version 4.2
.kernel "lsc"
.decl A32 v_type=G type=ud num_elts=32 align=GRF
.decl A64 v_type=G type=uq num_elts=32 align=GRF
.decl D v_type=G type=ud num_elts=512 align=GRF
.decl E v_type=G type=ud num_elts=512 align=GRF
.decl S v_type=G type=ud num_elts=1 align=dword
.decl B v_type=G type=uq num_elts=1 align=qword
)";

struct Parsed {
  std::optional<Module> m;
  std::string errors;
};

Parsed parse(const std::string& lines, unsigned grf = 32) {
  Diagnostics d;
  Options o;
  o.grfSize = grf;
  std::string src = std::string(kHead) + lines + "\n";
  Parsed p;
  p.m = parseText(src, d, o);
  for (const auto& x : d.all()) p.errors += x.message + "\n";
  return p;
}

std::string verifyErrors(const Module& m, unsigned grf = 32) {
  Diagnostics d;
  Options o;
  o.grfSize = grf;
  verify(m, d, o);
  std::string r;
  for (const auto& x : d.all())
    if (x.severity == Severity::Error) r += x.message + "\n";
  return r;
}

Operand& field(Instruction& inst, const char* name) {
  const InstrDesc* d = rowOf(inst);
  return inst.f[static_cast<size_t>(d->findName(name))];
}

// The printed line of the only instruction.
std::string printed(const Module& m) { return printInstruction(m.kernels[0], m.kernels[0].code[0]); }

TEST(Lsc, IgcDumpLinesPrintBackExactly) {
  // Lines of /work/notes/dumps (acm-g10, 32-byte GRFs), names changed to the header's.
  const char* lines[] = {
      "lsc_load.ugm.ca.ca (M1, 16)  D:d32  bti(0x0)[A32]:a32",
      "lsc_load.ugm (M1, 32)  D:d64  flat[A64]:a64",
      "lsc_store.slm.wb.wb (M1, 16)  flat[A32]:a32  D:d32",
      "lsc_load.ugm.ca.ca (M1_NM, 1)  D:d32x16t  bti(0x0)[S]:a32",
      "lsc_atomic_iadd.ugm (M1, 16)  %null:d64  flat[A64]:a64  E  %null",
      "lsc_atomic_icas.slm (M1, 16)  %null:d32  flat[A32]:a32  D  E",
      "lsc_store.ugm.wb.wb (M1, 32)  ss(S)[A32]:a32  D:d32",
      "lsc_fence.slm.none.group",
      "lsc_store.slm.wb.wb (M5, 16)  flat[A32]:a32  D.128:d32",
      "lsc_load.ugm.ca.ca (M1, 16)  D.256:d32x4  bti(0x0)[A32]:a32",
      "lsc_store.ugm.wb.wb (M1_NM, 1)  bti(0x1)[S]:a32  D:d64x16t",
      "lsc_load.ugm.ca.ca (M1, 16)  D:d8c32  bti(0x0)[A32]:a32",
      "lsc_load.ugm.ca.ca (M1, 16)  D:d16c32  bti(0x0)[A32]:a32",
  };
  for (const char* l : lines) {
    SCOPED_TRACE(l);
    Parsed p = parse(std::string("    ") + l);
    ASSERT_TRUE(p.m) << p.errors;
    EXPECT_EQ(printed(*p.m), l);
    EXPECT_EQ(verifyErrors(*p.m), "");
  }
}

TEST(Lsc, PvcLinesWith64ByteGrfs) {
  const char* lines[] = {
      "lsc_load.ugm (M1, 32)  D:d32  flat[A64]:a64",
      "lsc_load.ugm (M1, 32)  D.512:d32x4  flat[A64]:a64",
      "lsc_store.ugm.wb.wb (M1, 32)  ss(S)[A32]:a32  D:d32",
      "lsc_load.slm (M1, 32)  D:d64x2  flat[A32]:a32",
  };
  for (const char* l : lines) {
    SCOPED_TRACE(l);
    Parsed p = parse(std::string("    ") + l, 64);
    ASSERT_TRUE(p.m) << p.errors;
    EXPECT_EQ(printed(*p.m), l);
    EXPECT_EQ(verifyErrors(*p.m, 64), "");
  }
}

// Spellings the parser accepts and the canonical text it prints (L1, L21, L22).
TEST(Lsc, OtherSpellingsPrintCanonically) {
  struct Case {
    const char* in;
    const char* out;
  } cases[] = {
      // the page's d8u32 / d16u32, a u prefix and x1 (CISA.l)
      {"lsc_load.ugm (M1, 16) D:d8u32 flat[A64]:a64", "lsc_load.ugm (M1, 16)  D:d8c32  flat[A64]:a64"},
      {"lsc_load.ugm (M1, 16) D:u32x1 flat[A64]:a64", "lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64"},
      // one caching option sets L1; L3 is .df (CISA.y LscCacheOpts); both print
      {"lsc_load.ugm.ca (M1, 16) D:d32 flat[A64]:a64", "lsc_load.ugm.ca.df (M1, 16)  D:d32  flat[A64]:a64"},
      // no address model is flat; hex offsets print in upper case after an immediate surface (IGC's stream)
      {"lsc_load.ugm (M1, 16) D:d32 [A64+0xab]:a64", "lsc_load.ugm (M1, 16)  D:d32  flat[A64+0xab]:a64"},
      {"lsc_load.ugm (M1, 16) D:d32 bti(10)[4*A32-171]:a32", "lsc_load.ugm (M1, 16)  D:d32  bti(0xA)[0x4*A32-0xAB]:a32"},
      // exec size left out (L1): non-transposed 32, transposed 1
      {"lsc_load.ugm D:d32 flat[A64]:a64", "lsc_load.ugm (M1, 32)  D:d32  flat[A64]:a64"},
      {"lsc_load.ugm D:d32x4t flat[A64]:a64", "lsc_load.ugm (M1, 1)  D:d32x4t  flat[A64]:a64"},
      // the strided pitch left out is the packed one: DataSize x vector (IGC's builder)
      {"lsc_load_strided.ugm (M1, 16) D:d32x2 flat[A64]:a64", "lsc_load_strided.ugm (M1, 16)  D:d32x2  flat[A64, 0x8]:a64"},
      {"lsc_load_strided.ugm (M1_NM, 1) D:d64x4t flat[A64]:a64", "lsc_load_strided.ugm (M1_NM, 1)  D:d64x4t  flat[A64, 0x8]:a64"},
      // register surfaces: V, V(r,c), V.c
      {"lsc_load.ugm (M1, 16) D:d32 bss(S.0)[A32]:a32", "lsc_load.ugm (M1, 16)  D:d32  bss(S)[A32]:a32"},
      // the page's scope symbol .system is IGC's .sysrel; the page's spelling of the fence
      {"LSC_FENCE.ugm.clean.system", "lsc_fence.ugm.clean.sysrel"},
      // the page's lsc_read_surface_info is IGC's lsc_read_state_info
      {"lsc_read_surface_info.tgm D bti(4)", "lsc_read_state_info.tgm  D  bti(0x4)"},
      // 2D blocks: one block prints without "1x"
      {"lsc_load_block2d.ugm (M1_NM, 1) D:d16.1x16x8nn flat[B, 0xF, 0x7, 0x10, 0x0, 0x0]",
       "lsc_load_block2d.ugm (M1_NM, 1)  D:d16.16x8nn  flat[B, 0xF, 0x7, 0x10, 0x0, 0x0]"},
      // typed coordinates stop at the first one left out
      {"lsc_store_quad.tgm (M1, 8) bti(1)[A32,E]:a32 D:d32.xyzw", "lsc_store_quad.tgm (M1, 8)  bti(0x1)[A32, E]:a32  D:d32.xyzw"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    Parsed p = parse(std::string("    ") + c.in);
    ASSERT_TRUE(p.m) << p.errors;
    EXPECT_EQ(printed(*p.m), c.out);
    Parsed again = parse(std::string("    ") + c.out);
    ASSERT_TRUE(again.m) << again.errors;
    EXPECT_TRUE(again.m->kernels[0].code[0] == p.m->kernels[0].code[0]);
  }
}

TEST(Lsc, TextErrors) {
  struct Case {
    const char* line;
    const char* msg;
  } cases[] = {
      {"lsc_load.tgm (M1, 8) D:d32 bti(0)[A32]:a32", "has no typed form"},
      {"lsc_read_state_info.ugm D bti(4)", "is typed only"},
      {"lsc_load.ugm (M1, 8) D:d24 flat[A64]:a64", "invalid data shape ':d24'"},
      {"lsc_load.ugm (M1, 8) D:d32x5 flat[A64]:a64", "invalid data shape ':d32x5'"},
      {"lsc_load_quad.ugm (M1, 8) D:d32.zx flat[A64]:a64", "invalid channel mask '.zx'"},
      {"lsc_load_quad.ugm (M1, 8) D:d32x4 flat[A64]:a64", "invalid data shape"},
      {"lsc_load.ugm (M1, 8) D:d32 flat[A64]", "before the address size"},
      {"lsc_load.ugm (M1, 8) D:d32 tiled[A64]:a64", "unknown address model 'tiled'"},
      {"lsc_load.ugm.xx (M1, 8) D:d32 flat[A64]:a64", "unknown caching option '.xx'"},
      {"lsc_load.ugm.ca.ca.ca (M1, 8) D:d32 flat[A64]:a64", "at most two caching options"},
      {"lsc_fence.ugm.flush.gpu", "invalid fence operation '.flush'"},
      {"lsc_load_block2d.ugm (M1_NM, 1) D:d16.16 flat[B, 0, 0, 0, 0, 0]", "invalid 2D block shape"},
      {"lsc_apndctr_atomic_add.ugm (M1, 16) D:d32 bti(0) E:d64", "must be DstData's"},
      {"(P1) lsc_load_block2d.tgm D:16x8 bti(0)[0, 0]", "cannot be predicated"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    std::string body = std::string(".decl P1 v_type=P num_elts=16\n    ") + c.line;
    Parsed p = parse(body);
    EXPECT_FALSE(p.m);
    EXPECT_NE(p.errors.find(c.msg), std::string::npos) << p.errors;
  }
}

// Binary input can hold what the text cannot say; the verifier rejects it (L2)
// or applies the page's rule.
TEST(Lsc, RulesOnlyABinaryCanBreak) {
  struct Case {
    const char* line;
    void (*change)(Instruction&);
    const char* msg;
  } cases[] = {
      {"lsc_load.ugm (M1, 16)  D:d32x2  flat[A64]:a64", [](Instruction& i) { field(i, "ChMask").value = 1; },
       "ChMask of lsc_load must equal its DataElemsPerAddr 2"},
      {"lsc_load_strided.ugm (M1, 16)  D:d32  flat[A64, 0x4]:a64", [](Instruction& i) { field(i, "ChMask").value = 1; },
       "ChMask of lsc_load_strided must be 0"},
      {"lsc_load_quad.ugm (M1, 16)  D:d32.xy  flat[A64]:a64", [](Instruction& i) { field(i, "DataElemsPerAddr").value = 2; },
       "DataElemsPerAddr of lsc_load_quad must equal its ChMask 3"},
      {"lsc_load_quad.ugm (M1, 16)  D:d32.xy  flat[A64]:a64", [](Instruction& i) { field(i, "ChMask").value = 0x10; },
       "is not a set of the X, Y, Z, W channels"},
      {"lsc_load_quad.ugm (M1_NM, 1)  D:d32.xy  flat[A64]:a64", [](Instruction& i) { field(i, "DataOrder").value = 2; },
       "lsc_load_quad has no transposed form"},
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64", [](Instruction& i) { field(i, "Surface").value = 5; },
       "the Surface of a flat address must be the immediate 0x0:ud"},
      {"lsc_load.ugm (M1, 16)  D:d32  bti(0x1)[A32]:a32", [](Instruction& i) { field(i, "Surface").type = Type::UW; },
       "the immediate Surface must have type UD"},
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64", [](Instruction& i) { field(i, "Src1Data").id = 32; },
       "Src1Data of lsc_load must be %null"},
      {"lsc_store.ugm (M1, 16)  flat[A64]:a64  D:d32", [](Instruction& i) { field(i, "DstData").id = 35; },
       "DstData of lsc_store must be %null"},
      {"lsc_store.ugm (M1, 16)  flat[A64]:a64  D:d32", [](Instruction& i) { field(i, "Src2Data").id = 35; },
       "Src2Data of lsc_store must be %null"},
      {"lsc_load_quad.tgm (M1, 8)  D:d32.x  bti(0x0)[A32]:a32", [](Instruction& i) { field(i, "Src0AddrsR").id = 35; },
       "Src0AddrsR of lsc_load_quad.tgm follows a %null coordinate"},
      {"lsc_load_quad.tgm (M1, 8)  D:d32.x  bti(0x0)[A32]:a32", [](Instruction& i) { field(i, "Src0AddrsU").id = 0; },
       "Src0AddrsU of lsc_load_quad.tgm cannot be %null"},
      {"lsc_fence.ugm.none.gpu", [](Instruction& i) { i.emask = 0; }, "lsc_fence runs as (M1_NM, 1), found (M1, 1)"},
      {"lsc_read_state_info.tgm  D  bti(0x4)", [](Instruction& i) { field(i, "DataSize").value = 4; },
       "lsc_read_state_info has the data shape :d32"},
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64",
       [](Instruction& i) {
         field(i, "DataElemsPerAddr").value = 9;
         field(i, "ChMask").value = 9;
       },
       "DataElemsPerAddr 9 is not a vector size"},
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64", [](Instruction& i) { field(i, "AddrScale").value = 0; },
       "AddrScale 0 is out of range [1, 65535]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    Parsed p = parse(std::string("    ") + c.line);
    ASSERT_TRUE(p.m) << p.errors;
    EXPECT_EQ(verifyErrors(*p.m), "");
    Instruction& inst = p.m->kernels[0].code[0];
    c.change(inst);
    std::string e = verifyErrors(*p.m);
    EXPECT_NE(e.find(c.msg), std::string::npos) << e;
  }
}

// Values a field's table does not name are not decoded (the pages' tables).
TEST(Lsc, DecodeRejectsValuesThePagesDoNotName) {
  struct Case {
    const char* line;
    size_t byte;    // index in the encoding
    uint8_t value;
    const char* msg;
  } cases[] = {
      // LSC_UNTYPED's LscSFID: .ugm .ugml .slm (2 = .tgm is LSC_TYPED's)
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64", 5, 2, "LscSFID value 2 has no meaning"},
      // LscFenceOp 6 (IGC's .type6) is not on the LSC_FENCE page
      {"lsc_fence.ugm.none.gpu", 5, 6, "LscFenceOp value 6 has no meaning"},
      // AddrType 0: invalid
      {"lsc_load.ugm (M1, 16)  D:d32  flat[A64]:a64", 8, 0, "AddrType value 0 has no meaning"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    Parsed p = parse(std::string("    ") + c.line);
    ASSERT_TRUE(p.m) << p.errors;
    std::vector<uint8_t> enc;
    encodeInstruction(p.m->kernels[0].code[0], enc);
    ASSERT_LT(c.byte, enc.size());
    enc[c.byte] = c.value;
    Instruction inst;
    std::string err;
    size_t pos = 0;
    EXPECT_FALSE(decodeInstruction(std::string_view(reinterpret_cast<const char*>(enc.data()), enc.size()), pos, inst, err));
    EXPECT_NE(err.find(c.msg), std::string::npos) << err;
  }
}

// A fence's exec byte is (M1_NM, 1) = 0x80 though the text shows none (L1).
TEST(Lsc, FenceIsNoMaskSimd1) {
  Parsed p = parse("    lsc_fence.slm.none.group");
  ASSERT_TRUE(p.m) << p.errors;
  std::vector<uint8_t> enc;
  encodeInstruction(p.m->kernels[0].code[0], enc);
  EXPECT_EQ(enc, (std::vector<uint8_t>{0x8b, 0x80, 0x00, 0x00, 0x03, 0x00, 0x00}));
}

}  // namespace
