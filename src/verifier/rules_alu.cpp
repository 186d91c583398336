// Page rules of the ALU family that the fields cannot state: the relations
// between the operands' types (the pages' "Operand type maps" and notes),
// saturation that depends on the type, 16-bit immediates, alignment and the
// bytes an operand touches beyond its region, and the named warnings for what
// Intel's compiler emits though a page forbids it (spec-decisions A*).
#include <optional>

#include <fmt/format.h>

#include "verifier/rules.hpp"

namespace visakit {
namespace {

using T = Type;

// The type an operand brings to the type relations; nullopt for a predicate.
// Chapter 2: V is compatible with the signed integer types (W), UV with the
// unsigned ones (UW), VF with F.
std::optional<Type> typeOf(const Kernel& k, const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::General: {
      Type t;
      uint32_t bytes;
      if (!k.varInfo(o.id, t, bytes)) return std::nullopt;
      return t;
    }
    case Operand::Kind::Immediate:
      if (o.type == T::V) return T::W;
      if (o.type == T::UV) return T::UW;
      if (o.type == T::VF) return T::F;
      return o.type;
    case Operand::Kind::Indirect: return o.type;
    case Operand::Kind::AddressOf:
    case Operand::Kind::Address: return T::UW;
    default: return std::nullopt;
  }
}

std::string upper(Type t) {
  std::string s(typeName(t));
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

// The vector fields of the row: the destination (first Write field) and the sources.
int dstField(const InstrDesc& d) { return d.findName("Dst"); }
template <class F>
void forSources(const InstrDesc& d, F f) {
  for (int i = 0; i < d.numFields; ++i)
    if (d.fields[i].kind == FieldKind::Vec && d.fields[i].access == Access::Read) f(i);
}

// ---- type maps ----
struct TypeMap {
  TypeMask dst, src;
};
constexpr TypeMask kInts = types(T::UD, T::D, T::UW, T::W, T::UB, T::B);

// srcMask: the sources the maps speak of (bit i: the i-th source).
void typeMaps(RuleCtx& c, std::span<const TypeMap> maps, unsigned srcMask = ~0u) {
  const InstrDesc& d = c.row();
  const Instruction& inst = c.inst();
  const Operand& dst = inst.f[dstField(d)];
  std::optional<Type> dt = typeOf(c.kernel(), dst);
  if (!dt) return;
  std::vector<std::pair<int, Type>> srcs;
  unsigned n = 0;
  forSources(d, [&](int i) {
    if (!((srcMask >> n++) & 1)) return;
    if (auto t = typeOf(c.kernel(), inst.f[i])) srcs.emplace_back(i, *t);
  });
  for (const TypeMap& m : maps) {
    if (!(m.dst & bit(*dt))) continue;
    bool ok = true;
    for (auto [i, t] : srcs) ok = ok && (m.src & bit(t));
    if (ok) return;
  }
  // Report the first source that no map with this destination type allows.
  TypeMask allowed = 0;
  for (const TypeMap& m : maps)
    if (m.dst & bit(*dt)) allowed |= m.src;
  if (allowed == 0) return;  // the destination's type itself is wrong: the field check says so
  for (auto [i, t] : srcs)
    if (!(allowed & bit(t))) {
      c.error(c.locOf(inst.f[i]), fmt::format("{} of {} has type {}, but a {} destination needs sources of type {} ({} page type maps)",
                                              d.fields[i].name, d.pageMnemonic, upper(t), upper(*dt), typeListText(allowed), d.page));
      return;
    }
  // Every source is allowed by some map but no single map holds them all.
  c.error(c.locOf(dst), fmt::format("the operand types of {} ({} destination) are not one of its page's type maps ({} page)",
                                    d.pageMnemonic, upper(*dt), d.page));
}

constexpr TypeMap kDivMaps[] = {{types(T::DF), types(T::DF)}, {types(T::F, T::HF), types(T::F, T::HF)}, {kInts, kInts}};
constexpr TypeMap kMadMaps[] = {{kInts, kInts},
                                {types(T::F, T::HF), types(T::F, T::HF)},
                                {types(T::F, T::BF), types(T::F, T::BF)},
                                {types(T::DF), types(T::DF)}};
constexpr TypeMap kInvMaps[] = {{types(T::F, T::HF), types(T::F, T::HF)}, {types(T::DF), types(T::DF)}};
constexpr TypeMap kAsrMaps[] = {{kInts, kInts},
                                {types(T::UQ, T::Q), types(T::UD, T::D, T::UW, T::W, T::UQ, T::Q)},
                                {types(T::UD, T::D, T::UW, T::W), types(T::UQ, T::Q)}};
constexpr TypeMap kBfeMaps[] = {{types(T::UD), types(T::UD)}, {types(T::D), types(T::D)}};

void divMaps(RuleCtx& c) { typeMaps(c, kDivMaps); }
void madMaps(RuleCtx& c) { typeMaps(c, kMadMaps); }
void invMaps(RuleCtx& c) { typeMaps(c, kInvMaps); }
void bfeMaps(RuleCtx& c) { typeMaps(c, kBfeMaps); }

// ---- saturation ----
// DIV, MAD pages: "Saturation: Only when type is float" (MUL keeps E13's
// integer .sat, which existing kernels use; spec-decisions A4).
void satFloatOnly(RuleCtx& c) {
  if (!c.inst().sat) return;
  std::optional<Type> dt = typeOf(c.kernel(), c.inst().f[dstField(c.row())]);
  if (dt && !isFloat(*dt))
    c.error(c.inst().loc, fmt::format("{}.sat needs a float destination, found {} ({} page: saturation only when type is float)",
                                      c.row().mnemonic, upper(*dt), c.row().page));
}
void divRules(RuleCtx& c) {
  divMaps(c);
  satFloatOnly(c);
}

// ---- immediate16 (MAD, ADD3, ADD3O Src2, BFN pages; spec-decisions A3, A27) ----
void imm16(RuleCtx& c, int field) {
  const Operand& o = c.inst().f[field];
  if (o.kind != Operand::Kind::Immediate) return;
  int64_t v;
  switch (o.type) {
    case T::D: v = static_cast<int32_t>(static_cast<uint32_t>(o.value)); break;
    case T::UD: v = static_cast<uint32_t>(o.value); break;
    case T::Q: v = static_cast<int64_t>(o.value); break;
    case T::UQ: v = o.value > 0xffffu ? 0x10000 : static_cast<int64_t>(o.value); break;
    default: return;  // B, UB, W, UW, V, UV always fit; float immediates are not restricted (A3)
  }
  // IGC emits 32-bit immediates here (dg2: `add3 ... 0x14057b7e:d`): a named warning, the value used as written (A3).
  if (v < -32768 || v > 65535)
    c.warning("imm16-range", c.locOf(o),
              fmt::format("{} of {} is an immediate16 operand: {} does not fit in 16 bits ({} page)", c.row().fields[field].name,
                          c.row().pageMnemonic, v, c.row().page));
}
void imm16Sources(RuleCtx& c) { forSources(c.row(), [&](int i) { imm16(c, i); }); }
void madRules(RuleCtx& c) {
  madMaps(c);
  satFloatOnly(c);
  imm16Sources(c);
}
// ADD3O page: the predicate is the overflow it writes, "(<P>) ADD3O": one must be given, plain.
void add3oRules(RuleCtx& c) {
  imm16(c, c.row().findName("Src2"));
  const PredCtl& p = c.inst().pred;
  if (p.id == 0) c.error(c.inst().loc, "add3.o needs a predicate for the overflow it writes: (P) add3.o ... (ADD3O page)");
  else if (p.invert || p.control) c.error(c.inst().loc, "the overflow predicate of add3.o cannot be inverted or take .any/.all (ADD3O page)");
}

// ---- named warnings: what IGC emits though the page forbids it ----
// ASR page: "Dst and src0 must have signed integral type" (its type maps list UD);
// the maps relate Dst and Src0: "Src1 may have any integer type".
void asrRules(RuleCtx& c) {
  typeMaps(c, kAsrMaps, 1u);
  for (const char* n : {"Dst", "Src0"}) {
    const Operand& o = c.field(n);
    std::optional<Type> t = typeOf(c.kernel(), o);
    if (t && !isSigned(*t))
      c.warning("asr-unsigned", c.locOf(o), fmt::format("{} of asr has type {}; the ASR page wants a signed integer type", n, upper(*t)));
  }
}
// MULH page: "Dst, src0, and src1 must have the same integer type."
void mulhRules(RuleCtx& c) {
  std::optional<Type> dt = typeOf(c.kernel(), c.field("Dst"));
  for (const char* n : {"Src0", "Src1"}) {
    std::optional<Type> t = typeOf(c.kernel(), c.field(n));
    if (dt && t && *t != *dt) {
      c.warning("mulh-mixed-types", c.locOf(c.field(n)),
                fmt::format("{} of mulh has type {} but Dst has type {}; the MULH page wants one integer type", n, upper(*t), upper(*dt)));
      return;
    }
  }
}
// BFREV page: "Supported Types: UD".
void bfrevRules(RuleCtx& c) {
  for (const char* n : {"Dst", "Src0"}) {
    std::optional<Type> t = typeOf(c.kernel(), c.field(n));
    if (t && *t != T::UD)
      c.warning("bfrev-type", c.locOf(c.field(n)), fmt::format("{} of bfrev has type {}; the BFREV page allows UD only", n, upper(*t)));
  }
}

// SQRT page: "Supported Types: F, HF" (DF: IGC's sqrt of a double under -cl-fast-relaxed-math).
void sqrtRules(RuleCtx& c) {
  for (const char* n : {"Dst", "Src0"}) {
    std::optional<Type> t = typeOf(c.kernel(), c.field(n));
    if (t && *t == T::DF) {
      c.warning("sqrt-df", c.locOf(c.field(n)), fmt::format("{} of sqrt has type DF; the SQRT page allows F and HF", n));
      return;
    }
  }
}

// FBL page: "Supported Types: UD" (src0 UW: IGC's work_group_broadcast).
void fblRules(RuleCtx& c) {
  std::optional<Type> t = typeOf(c.kernel(), c.field("Src0"));
  if (t && *t != T::UD)
    c.warning("fbl-type", c.locOf(c.field("Src0")), fmt::format("Src0 of fbl has type {}; the FBL page allows UD only", upper(*t)));
}
// MOV page: a predicate source needs a UB, UW or UD destination (the size rule
// is the verifier's); a signed one of the same sizes is IGC's sub_group_elect and
// sub_group_ballot (`mov (M1_NM, 1) V0059(0,0)<1> P1`, V0059 of type D).
// MOV page type maps: any numeric type with any other; BF ({XEHP+}) with F or BF only.
constexpr TypeMap kMovMaps[] = {{kInts | types(T::UQ, T::Q, T::F, T::DF, T::HF, T::BOOL), kInts | types(T::UQ, T::Q, T::F, T::DF, T::HF, T::BOOL)},
                                {types(T::F, T::BF), types(T::F, T::BF)}};
void movRules(RuleCtx& c) {
  const Operand& src = c.field("Src0");
  if (src.kind != Operand::Kind::Predicate) return typeMaps(c, kMovMaps);
  std::optional<Type> t = typeOf(c.kernel(), c.field("Dst"));
  if (t && (*t == T::B || *t == T::W || *t == T::D))
    c.warning("mov-pred-type", c.locOf(c.field("Dst")),
              fmt::format("mov from a predicate to a {} destination; the MOV page wants UB, UW or UD", upper(*t)));
}

// ---- alignment and footprints beyond the region ----
// A general operand's byte offset in its root variable and the root's alignment.
struct Placement {
  uint32_t offset = 0;   // from the root's start
  uint32_t rootAlign = 0;
  uint32_t bytesFrom = 0;  // bytes of the operand's own variable from the operand's first element
};
std::optional<Placement> placement(const RuleCtx& c, const Operand& o) {
  if (o.kind != Operand::Kind::General) return std::nullopt;
  const Kernel& k = c.kernel();
  Type t;
  uint32_t bytes;
  if (!k.varInfo(o.id, t, bytes, c.grfSize())) return std::nullopt;
  Placement p;
  uint32_t first = o.row * c.grfSize() + o.col * typeSize(t);
  p.bytesFrom = first < bytes ? bytes - first : 0;
  p.offset = first;
  uint32_t id = o.id;
  p.rootAlign = c.grfSize();  // predefined variables sit in whole GRFs
  for (int guard = 0; guard < 64; ++guard) {
    const GenVar* v = k.userVar(id);
    if (!v) break;
    if (!v->aliasBase) {
      p.rootAlign = alignBytes(v->align, c.grfSize());
      break;
    }
    p.offset += v->aliasOffset;
    id = v->aliasBase;
  }
  return p;
}
bool aligned(const Placement& p, uint32_t n) { return p.rootAlign >= n && p.offset % n == 0; }

void needAligned(RuleCtx& c, const char* name, uint32_t n, const char* what) {
  const Operand& o = c.field(name);
  std::optional<Placement> p = placement(c, o);
  if (p && !aligned(*p, n))
    c.error(c.locOf(o), fmt::format("{} of {} must be {} aligned ({} page)", name, c.row().pageMnemonic, what, c.row().page));
}
void needBytes(RuleCtx& c, const char* name, uint32_t n, const char* what) {
  const Operand& o = c.field(name);
  std::optional<Placement> p = placement(c, o);
  if (p && p->bytesFrom < n)
    c.error(c.locOf(o), fmt::format("{} of {} touches {} bytes ({}) but '{}' has {} bytes from there ({} page)", name,
                                    c.row().pageMnemonic, n, what, c.kernel().varName(o.id), p->bytesFrom, c.row().page));
}
bool scalar(const Operand& o) {
  return o.kind == Operand::Kind::Immediate || (o.region.vs == 0 && o.region.w == 1 && o.region.hs == 0);
}

// BFE, BFI pages: "must be 16 byte aligned, except when <exec size> is 1".
void bfRules(RuleCtx& c) {
  if (c.row().op == Opcode::BFE) bfeMaps(c);
  if (c.inst().execSize() == 1) return;
  needAligned(c, "Dst", 16, "16-byte");
  forSources(c.row(), [&](int i) { needAligned(c, c.row().fields[i].name, 16, "16-byte"); });
}
// LRP page: regions ignored, contiguous elements; 16-byte aligned except scalar sources.
void lrpRules(RuleCtx& c) {
  const unsigned n = c.inst().execSize() * 4;
  needAligned(c, "Dst", 16, "16-byte");
  needBytes(c, "Dst", n, "contiguous elements: its region is ignored");
  for (const char* s : {"Src0", "Src1", "Src2"}) {
    if (scalar(c.field(s))) continue;
    needAligned(c, s, 16, "16-byte");
    needBytes(c, s, n, "contiguous elements: its region is ignored");
  }
}
// PLN page: Src0 16-byte aligned (p, q, _, r: 4 elements), Src1 GRF-aligned
// (u and v: 16 elements per 8 channels); regions ignored.
void planeRules(RuleCtx& c) {
  needAligned(c, "Src0", 16, "16-byte");
  needBytes(c, "Src0", 16, "p, q and r at elements 0, 1 and 3");
  needAligned(c, "Src1", c.grfSize(), "GRF");
  needBytes(c, "Src1", c.inst().execSize() * 8, "u and v");
}
// MADW page: Dst GRF-aligned; the high halves follow the low ones in the next GRFs.
void madwRules(RuleCtx& c) {
  needAligned(c, "Dst", c.grfSize(), "GRF");
  const Operand& d = c.field("Dst");
  unsigned hs = d.region.hs == kRegionNull || d.region.hs == 0 ? 1 : d.region.hs;
  unsigned low = ((c.inst().execSize() - 1) * hs + 1) * 4;
  unsigned grf = c.grfSize();
  unsigned hiOff = (low + grf - 1) / grf * grf;
  needBytes(c, "Dst", hiOff + low, "low halves, then high halves from the next GRF");
}

// ---- conversions ----
// FCVT page notes: HF <- UB (BF8), UB <- HF (NoMask), F <- UD (TF32), UD <- F.
void fcvtRules(RuleCtx& c) {
  std::optional<Type> dt = typeOf(c.kernel(), c.field("Dst")), st = typeOf(c.kernel(), c.field("Src0"));
  if (!dt || !st || !(types(T::HF, T::UB, T::F, T::UD) & bit(*dt))) return;
  Type want = *dt == T::HF ? T::UB : *dt == T::UB ? T::HF : *dt == T::F ? T::UD : T::F;
  if (*st != want)
    c.error(c.locOf(c.field("Src0")), fmt::format("fcvt to {} needs a source of type {}, found {} (FCVT page)", upper(*dt),
                                                  upper(want), upper(*st)));
  if (*dt == T::UB && !emaskNoMask(c.inst().emask))
    c.error(c.inst().loc, "fcvt to BF8 (UB) must use NoMask (FCVT page: NM mask control must be used)");
}
// SRND page: HF <- F with a UW random, UB (BF8) <- HF with a UB random.
void srndRules(RuleCtx& c) {
  std::optional<Type> dt = typeOf(c.kernel(), c.field("Dst")), s0 = typeOf(c.kernel(), c.field("Src0")),
                      s1 = typeOf(c.kernel(), c.field("Src1"));
  if (!dt) return;
  Type w0 = *dt == T::HF ? T::F : T::HF, w1 = *dt == T::HF ? T::UW : T::UB;
  if (s0 && *s0 != w0)
    c.error(c.locOf(c.field("Src0")), fmt::format("srnd to {} rounds a {} source, found {} (SRND page)", upper(*dt), upper(w0), upper(*s0)));
  if (s1 && *s1 != w1)
    c.error(c.locOf(c.field("Src1")),
            fmt::format("srnd to {} takes its random bits as {}, found {} (SRND page notes)", upper(*dt), upper(w1), upper(*s1)));
}

constexpr RowRule kRules[] = {
    {Opcode::DIV, -1, divRules},
    {Opcode::MAD, -1, madRules},
    {Opcode::INV, -1, invMaps},
    {Opcode::ADD3, -1, imm16Sources},
    {Opcode::BFN, -1, imm16Sources},
    {Opcode::ADD3O, -1, add3oRules},
    {Opcode::ASR, -1, asrRules},
    {Opcode::MULH, -1, mulhRules},
    {Opcode::BFREV, -1, bfrevRules},
    {Opcode::FBL, -1, fblRules},
    {Opcode::SQRT, -1, sqrtRules},
    {Opcode::MOV, -1, movRules},
    {Opcode::BFE, -1, bfRules},
    {Opcode::BFI, -1, bfRules},
    {Opcode::LRP, -1, lrpRules},
    {Opcode::PLANE, -1, planeRules},
    {Opcode::MADW, -1, madwRules},
    {Opcode::FCVT, -1, fcvtRules},
    {Opcode::SRND, -1, srndRules},
};

}  // namespace

std::span<const RowRule> aluRules() { return kRules; }

}  // namespace visakit
