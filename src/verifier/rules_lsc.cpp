// The LSC pages' rules the fields cannot state (LSC_UNTYPED, LSC_TYPED,
// LSC_FENCE), and the values the text cannot show (spec-decisions L1, L2).
// Where a page is silent, a rule of IGC's verifier (IsaVerification.cpp
// LscInstVerifier) is taken and its decision says so.
#include <fmt/format.h>

#include "isa/lsc.hpp"
#include "verifier/rules.hpp"

namespace visakit {
namespace {

using namespace lsc;

struct View {
  RuleCtx& c;
  const InstrDesc& d;
  const Instruction& inst;
  OpInfo op;
  explicit View(RuleCtx& ctx) : c(ctx), d(ctx.row()), inst(ctx.inst()), op(opInfo(ctx.row())) {}
  bool has(const char* n) const { return d.findName(n) >= 0; }
  const Operand& f(const char* n) const { return c.field(n); }
  uint64_t v(const char* n) const { return has(n) ? f(n).value : 0; }
  SrcLoc at(const char* n) const { return has(n) ? c.locOf(f(n)) : inst.loc; }
  bool isNull(const char* n) const { return has(n) && f(n).kind == Operand::Kind::Raw && f(n).id == kVarNull; }
  bool transposed() const { return has("DataOrder") && v("DataOrder") == kTranspose; }
  const char* mn() const { return d.mnemonic; }
  std::string tgm() const { return d.op == Opcode::LSC_TYPED ? ".tgm" : ""; }
};

// LSC_UNTYPED: "Note, transpose only supports SIMD1"; "Block operations or
// transpose operations should be SIMD1".
void transposeExec(RuleCtx& c) {
  View x(c);
  if (x.transposed() && x.inst.execSize() != 1)
    c.error(x.inst.loc, fmt::format("a transposed {} needs execution size 1, found {} (LSC_UNTYPED page: \"transpose only "
                                    "supports SIMD1\")", x.mn(), x.inst.execSize()));
}

// "Transpose is not permitted for atomic operations."
void atomicTranspose(RuleCtx& c) {
  View x(c);
  if (x.op.dir == Dir::Atomic && x.transposed())
    c.error(x.at("DstData"), fmt::format("{} cannot be transposed (LSC_UNTYPED page: \"Transpose is not permitted for "
                                         "atomic operations\")", x.mn()));
}

// Data size against vector size (spec-decisions L6, IGC's verifier; the page
// is silent): a non-transposed vector is of d32 or d64; the d8u32 / d16u32 /
// d16u32h conversions are one element; an atomic is one element of d16u32,
// d32 or d64 per address.
void vectorSize(RuleCtx& c) {
  View x(c);
  if (!x.has("DataElemsPerAddr") || x.op.quad || x.d.subOp == kReadSurfaceInfo) return;
  const uint64_t ds = x.v("DataSize");
  const unsigned n = vecLen(x.v("DataElemsPerAddr"));
  const char* name = kDataSizes.textOf(ds);
  const SrcLoc at = x.at(x.op.dir == Dir::Store ? "Src1Data" : "DstData");
  if (n == 0) {
    c.error(at, fmt::format("DataElemsPerAddr {} is not a vector size (1..8 for x1, x2, x3, x4, x8, x16, x32, x64; "
                            "LSC_UNTYPED page)", x.v("DataElemsPerAddr")));
    return;
  }
  if (x.op.dir == Dir::Atomic) {
    if (n != 1) c.error(at, fmt::format("{} takes one element per address, found a vector of {} (spec-decisions L6)", x.mn(), n));
    if (ds != kD16c32 && ds != kD32 && ds != kD64)
      c.error(at, fmt::format("{} works on d16c32, d32 or d64 data, found {} (spec-decisions L6)", x.mn(), name ? name : "?"));
    return;
  }
  if (n == 1) return;
  if (ds == kD8c32 || ds == kD16c32 || ds == kD16c32h)
    c.error(at, fmt::format("{} data in 32-bit containers is one element per address, found x{} (spec-decisions L6)",
                            name, n));
  else if (!x.transposed() && ds != kD32 && ds != kD64)
    c.error(at, fmt::format("a non-transposed vector (x{}) needs d32 or d64 data, found {} (spec-decisions L6)", n,
                            name ? name : "?"));
}

// Which payloads are %null: "DstData ... is null for stores"; "Src1Data: the
// null register for load operations and the data payload for stores. For
// atomics it holds the first argument ... and is null if the atomic op is
// unary"; "Src2Data: the null register for all but ternary atomic ops".
void payloads(RuleCtx& c) {
  View x(c);
  auto mustBeNull = [&](const char* n, const char* why) {
    if (x.has(n) && !x.isNull(n))
      c.error(x.at(n), fmt::format("{} of {}{} must be %null ({} page: {})", n, x.mn(), x.tgm(), x.d.page, why));
  };
  auto mustNotBeNull = [&](const char* n, const char* why) {
    if (x.has(n) && x.isNull(n))
      c.error(x.at(n), fmt::format("{} of {}{} cannot be %null ({} page: {})", n, x.mn(), x.tgm(), x.d.page, why));
  };
  if (x.op.form == Form::Typed && x.d.subOp != kReadSurfaceInfo)
    mustNotBeNull("Src0AddrsU", "\"Src0AddrsU: the vector register holding U coordinate address operands\"");
  switch (x.op.dir) {
    case Dir::Load:
      mustBeNull("Src1Data", "\"the null register for load operations\"");
      mustBeNull("Src2Data", "\"the null register for all but ternary atomic ops\"");
      break;
    case Dir::Store:
      mustBeNull("DstData", "\"This is null for stores\"");
      mustNotBeNull("Src1Data", "\"the data payload for stores\"");
      mustBeNull("Src2Data", "\"the null register for all but ternary atomic ops\"");
      break;
    case Dir::Atomic:
      if (x.op.form == Form::Apndctr) break;
      if (x.op.extra >= 1) mustNotBeNull("Src1Data", "the atomic operation's first argument");
      else mustBeNull("Src1Data", "\"null if the atomic op is unary\"");
      if (x.op.extra == 2) mustNotBeNull("Src2Data", "the ternary atomic operation's second argument");
      else mustBeNull("Src2Data", "\"the null register for all but ternary atomic ops\"");
      break;
    case Dir::None: break;
  }
}

// SLM has no surface state: its address is an offset (spec-decisions L8); its
// caching "must be set to default (.df) for SLM accesses" — IGC emits .ca.ca
// and .wb.wb there (L16): a named warning.
void slm(RuleCtx& c) {
  View x(c);
  if (!x.has("LscSFID") || x.v("LscSFID") != kSlm) return;
  if (x.has("AddrType") && x.v("AddrType") != kFlat)
    c.error(x.at("AddrType"), fmt::format("{}.slm addresses SLM by offset: its address model must be flat (spec-decisions L8)",
                                          x.mn()));
  if (x.v("CachingL1") != kCacheDefault || x.v("CachingL3") != kCacheDefault)
    c.warning("lsc-slm-caching", x.inst.loc,
              fmt::format("{}.slm with caching .{}.{}: the LSC_UNTYPED page says caching \"must be set to default (.df) for "
                          "SLM accesses\" (spec-decisions L16)", x.mn(), kCaches.textOf(x.v("CachingL1")) ? kCaches.textOf(x.v("CachingL1")) : "?",
                          kCaches.textOf(x.v("CachingL3")) ? kCaches.textOf(x.v("CachingL3")) : "?"));
}

// Address sizes (spec-decisions L7, IGC's verifier): :a16 only on .slm; SLM
// offsets are not 64-bit.
void addrSize(RuleCtx& c) {
  View x(c);
  if (!x.has("AddrSize") || !x.has("LscSFID")) return;
  const uint64_t as = x.v("AddrSize"), sfid = x.v("LscSFID");
  if (as == kA16 && sfid != kSlm)
    c.error(x.at("AddrSize"), fmt::format(":a16 addresses are for .slm only, found {}.{} (spec-decisions L7)", x.mn(),
                                          kSfids.textOf(sfid) ? kSfids.textOf(sfid) : "?"));
  if (as == kA64 && sfid == kSlm)
    c.error(x.at("AddrSize"), fmt::format("{}.slm takes :a16 or :a32 offsets, not :a64 (spec-decisions L7)", x.mn()));
}

// LSC_UNTYPED STORE_BLOCK2D: "only a single block is permitted"; LOAD_BLOCK2D
// steps y and x by elems_per_dword = 4/sizeof(T), which is 0 for d64: no VNNI
// transform of d64.
void block2d(RuleCtx& c) {
  View x(c);
  if (x.op.dir == Dir::Store && x.v("Blocks") != 1)
    c.error(x.at("Blocks"), fmt::format("lsc_store_block2d stores one block, found {} (LSC_UNTYPED page: \"only a single "
                                        "block is permitted\")", x.v("Blocks")));
  if (x.v("VNNI") && x.v("DataSize") == kD64)
    c.error(x.at("VNNI"), "a VNNI transform of d64 data steps by elems_per_dword = 4/sizeof(T) = 0 (LSC_UNTYPED "
                          "LOAD_BLOCK2D pseudo-code): d8, d16 or d32 only");
}

// LSC_TYPED Notes: "the legal width/height combination and their pitch":
// width 1-4 pitch 4 height 1-64, 5-8 8 1-32, 9-16 16 1-16, 17-32 32 1-8,
// 33-64 64 1-4 (a block is at most 256 bytes of registers).
void typedBlock2d(RuleCtx& c) {
  View x(c);
  const uint64_t w = x.v("BlockWidth"), h = x.v("BlockHeight");
  if (w < 1 || w > 64 || h < 1) return;  // the fields' ranges
  const uint64_t pitch = w < 4 ? 4 : roundUpPow2(w);
  if (h * pitch > 256)
    c.error(x.at("BlockHeight"), fmt::format("a {}-byte wide typed 2D block (register pitch {}) has at most {} rows, found {} "
                                             "(LSC_TYPED page Notes)", w, pitch, 256 / pitch, h));
}

// What the text leaves out must hold the value the text implies
// (spec-decisions L1, L2): in a binary, anything else could not be printed.
void canonical(RuleCtx& c) {
  View x(c);
  auto err = [&](const char* field, std::string msg) { c.error(x.at(field), msg + " (spec-decisions L2: the text cannot show it)"); };
  if (x.d.op == Opcode::LSC_FENCE || x.d.subOp == kReadSurfaceInfo) {
    // LSC_FENCE "ExecSize: Should always be 1 and no mask"; IGC's read_state_info is (M1_NM, 1).
    if (x.inst.execSize() != 1 || x.inst.emask != 8)
      err("ExecSize", fmt::format("{} runs as (M1_NM, 1), found {}", x.d.op == Opcode::LSC_FENCE ? "lsc_fence" : x.mn(),
                                  fmt::format("(M{}{}, {})", (x.inst.emask & 7) + 1, x.inst.emask & 8 ? "_NM" : "", x.inst.execSize())));
    if (x.d.op == Opcode::LSC_FENCE) return;
    if (x.v("AddrSize") != kA32 || x.v("DataSize") != kD32 || x.v("DataOrder") != kNonTranspose ||
        x.v("DataElemsPerAddr") != 1 || x.v("ChMask") != 1)
      err("DataSize", "lsc_read_state_info has the data shape :d32 (one element, non-transposed, ChMask 1) and :a32");
    for (const char* n : {"Src0AddrsU", "Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD", "Src1Data", "Src2Data"})
      if (!x.isNull(n)) err(n, fmt::format("{} of lsc_read_state_info must be %null", n));
    return;
  }
  // DataElemsPerAddr and ChMask are one union in IGC's writer.
  if (x.has("ChMask")) {
    const uint64_t elems = x.v("DataElemsPerAddr"), mask = x.v("ChMask");
    if (x.op.quad) {
      if (mask < 1 || mask > 15)
        err("ChMask", fmt::format("ChMask {} of {} is not a set of the X, Y, Z, W channels (1..15)", mask, x.mn()));
      else if (elems != mask)
        err("DataElemsPerAddr", fmt::format("DataElemsPerAddr of {} must equal its ChMask {}, found {}", x.mn(), mask, elems));
      if (x.transposed()) err("DataOrder", fmt::format("{} has no transposed form", x.mn()));
    } else if (x.op.form == Form::Strided) {
      if (mask != 0) err("ChMask", fmt::format("ChMask of {} must be 0, found {}", x.mn(), mask));
    } else if (mask != elems) {
      err("ChMask", fmt::format("ChMask of {} must equal its DataElemsPerAddr {}, found {}", x.mn(), elems, mask));
    }
  }
  // flat and arg have no surface operand: "Use the immediate value 0 for flat operations".
  if (x.has("Surface") && x.has("AddrType")) {
    const uint64_t t = x.v("AddrType");
    const Operand& s = x.f("Surface");
    if ((t == kFlat || t == kArg) && !(s.kind == Operand::Kind::Immediate && s.value == 0 && s.type == Type::UD))
      err("Surface", fmt::format("the Surface of a {} address must be the immediate 0x0:ud", kAddrTypes.textOf(t)));
  }
  // Immediates are UD (IGC's LscVectorOpImm).
  for (int i = 0; i < x.d.numFields; ++i) {
    const Operand& o = x.inst.f[i];
    if (x.d.fields[i].kind == FieldKind::Vec && o.kind == Operand::Kind::Immediate && o.type != Type::UD)
      err(x.d.fields[i].name, fmt::format("the immediate {} must have type UD, found {}", x.d.fields[i].name, typeName(o.type)));
  }
  // Typed coordinates: V, R, LOD in that order, %null from the first one the surface does not have.
  if (x.op.form == Form::Typed) {
    bool nul = false;
    for (const char* n : {"Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD"}) {
      if (nul && !x.isNull(n)) err(n, fmt::format("{} of {}.tgm follows a %null coordinate", n, x.mn()));
      nul |= x.isNull(n);
    }
  }
}


// Every rule on the rows it applies to.
const std::vector<RowRule>& allRules() {
  static const std::vector<RowRule> rules = [] {
    std::vector<RowRule> v;
    for (const InstrDesc& d : instructionTable()) {
      if (!isLsc(d)) continue;
      const OpInfo op = opInfo(d);
      auto add = [&](void (*fn)(RuleCtx&)) { v.push_back({d.op, d.subOp, fn}); };
      add(canonical);
      if (d.op == Opcode::LSC_FENCE) continue;
      add(payloads);
      if (op.form == Form::Block2d) {
        add(block2d);
        continue;
      }
      if (op.form == Form::TypedBlock2d) {
        add(typedBlock2d);
        continue;
      }
      add(transposeExec);
      add(atomicTranspose);
      add(vectorSize);
      if (d.op == Opcode::LSC_UNTYPED) {
        add(slm);
        add(addrSize);
      }
    }
    return v;
  }();
  return rules;
}

}  // namespace

std::span<const RowRule> lscRules() { return allRules(); }

}  // namespace visakit
