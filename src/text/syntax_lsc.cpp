// The text of the LSC messages, as IGC's LscInstFormatter prints it
// (IsaDisassembly.cpp) and its grammar reads it (CISA.y LscInstruction):
//
//   [(P)] lsc_load.ugm[.L1.L3] (M1, 16)  V:d32x2  bti(0x0)[0x4*A+0x10]:a32
//   [(P)] lsc_store.slm (M1, 32)  flat[A]:a32  V.128:d32
//   [(P)] lsc_atomic_icas.ugm (M1, 16)  V:d32  flat[A]:a64  CMP  NEW
//   [(P)] lsc_load_strided.ugm (M1, 16)  V:d32  flat[A, 0x4]:a64
//   [(P)] lsc_load_quad.ugm (M1, 16)  V:d32.xzw  flat[A]:a32
//   [(P)] lsc_load_block2d.ugm (M1, 1)  V:d16.2x16x8nn  flat[BASE, W, H, P, X, Y]
//   [(P)] lsc_apndctr_atomic_add.ugm (M1, 16)  V:d32  bti(0xA0)  S:d32
//   [(P)] lsc_load_quad.tgm (M1, 16)  V:d32.xyzw  bti(0x4)[U, V]:a32
//   lsc_load_block2d.tgm  V:64x2  bti(0x0)[X, Y]
//   lsc_read_state_info.tgm  V  bti(0x4)
//   lsc_fence.slm.none.group
//
// Operands are separated by two spaces, as IGC prints them. The fields the
// text leaves out take the values IGC's builder gives them (spec-decisions
// L1, L2): flat's surface is the immediate 0, the union of DataElemsPerAddr
// and ChMask, a fence's (M1_NM, 1).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "isa/lsc.hpp"
#include "text/syntax.hpp"

namespace visakit::text {
namespace {

using namespace lsc;

// ---- reading ----

struct Shape {
  uint8_t size = kD32, order = kNonTranspose, elems = 1, chmask = 0;
};

// A data shape token: d|u, the size (d8 d16 d32 d64 d8c32 d16c32 d16c32h; the
// page's d8u32 d16u32 d16u32h), then xN (vector) and t (transposed).
bool shapeText(std::string_view s, Shape& out, bool sizeOnly) {
  if (s.empty() || (s[0] != 'd' && s[0] != 'u')) return false;
  s.remove_prefix(1);
  static constexpr std::pair<const char*, uint8_t> kSizes[] = {
      {"16c32h", kD16c32h}, {"16u32h", kD16c32h}, {"16c32", kD16c32}, {"16u32", kD16c32}, {"8c32", kD8c32},
      {"8u32", kD8c32},     {"64", kD64},         {"32", kD32},       {"16", kD16},       {"8", kD8}};
  bool found = false;
  for (auto [t, v] : kSizes)
    if (s.starts_with(t)) {
      out.size = v;
      s.remove_prefix(std::string_view(t).size());
      found = true;
      break;
    }
  if (!found) return false;
  if (sizeOnly) return s.empty();
  out.elems = 1;
  if (!s.empty() && s[0] == 'x') {
    s.remove_prefix(1);
    size_t n = 0;
    unsigned v = 0;
    while (n < s.size() && n < 3 && std::isdigit(static_cast<unsigned char>(s[n]))) v = v * 10 + static_cast<unsigned>(s[n++] - '0');
    s.remove_prefix(n);
    uint8_t code = 0;
    for (uint8_t c = 1; c <= 8; ++c)
      if (vecLen(c) == v) code = c;
    if (!code) return false;
    out.elems = code;
  }
  out.order = kNonTranspose;
  if (!s.empty() && s[0] == 't') {
    out.order = kTranspose;
    s.remove_prefix(1);
  }
  return s.empty();
}

class Reader {
 public:
  Reader(TextReader& r, const InstrDesc& d, Instruction& inst) : r_(r), d_(&d), inst_(inst) {}

  TextReader& r_;
  const InstrDesc* d_;
  Instruction& inst_;

  Operand& f(const char* name) {
    int i = d_->findName(name);
    if (i < 0) {  // not reached: each form names its own row's fields
      static thread_local Operand scratch;
      return scratch = Operand{};
    }
    return inst_.f[static_cast<size_t>(i)];
  }
  bool has(const char* name) const { return d_->findName(name) >= 0; }
  void setInt(const char* name, uint64_t v, SrcLoc loc = {}) {
    if (!has(name)) return;
    Operand& o = f(name);
    o.kind = Operand::Kind::Int;
    o.value = v;
    o.loc = loc;
  }
  static void zeroImm(Operand& o) {
    o = Operand{};
    o.kind = Operand::Kind::Immediate;
    o.type = Type::UD;
  }

  std::string choices(const EnumDesc& e) {
    std::string s;
    for (unsigned i = 0; i < e.count; ++i) s += (i ? ", ." : ".") + std::string(e.names[i].text);
    return s;
  }

  // VAR[.offset]: a raw operand (IGC prints the offset when it is not 0).
  void raw(Operand& o, std::string_view what) {
    const Token& n = r_.expectIdent(what);
    o = Operand{};
    o.kind = Operand::Kind::Raw;
    o.id = r_.generalVar(n);
    o.loc = n.loc;
    if (r_.peek().is('.') && r_.peek(1).kind == Tok::Int) {
      r_.next();
      o.offset = static_cast<uint16_t>(r_.expectInt("raw operand offset", 0xffff));
    }
  }

  // An immediate or a register as a scalar vector operand: 0x4, -3, V, V(1,2), V.2.
  void vec(Operand& o, std::string_view what) {
    o = Operand{};
    const Token& t = r_.peek();
    o.loc = t.loc;
    if (t.kind == Tok::Int || t.is('-')) {
      bool neg = t.is('-');
      if (neg) r_.next();
      uint64_t v = r_.expectInt(what, neg ? 0x80000000u : 0xffffffffu);
      o.kind = Operand::Kind::Immediate;
      o.type = Type::UD;
      o.value = neg ? (~v + 1) & 0xffffffffu : v;
      return;
    }
    const Token& n = r_.expectIdent(what);
    o.kind = Operand::Kind::General;
    o.id = r_.generalVar(n);
    if (r_.peek().is('(')) {
      r_.next();
      o.row = static_cast<uint8_t>(r_.expectInt("row offset", 255));
      r_.expectPunct(',', "between row and column");
      o.col = static_cast<uint8_t>(r_.expectInt("column offset", 255));
      r_.expectPunct(')', "after the column offset");
    } else if (r_.peek().is('.') && r_.peek(1).kind == Tok::Int) {
      r_.next();
      o.col = static_cast<uint8_t>(r_.expectInt("column offset", 255));
    }
    o.region = Region{0, 1, 0};  // <0;1,0>: IGC's LscVectorOpReg
  }

  // ":d32x2t" / ":d32.xyzw" after a data operand.
  Shape shape(bool quad) {
    r_.expectPunct(':', "before the data shape (:d32, :d32x4, :d32x16t, ...)");
    const Token& t = r_.expectIdent("data shape (d8, d16, d32, d64, d8c32, d16c32, with xN and t)");
    Shape s;
    if (!shapeText(t.text, s, quad))
      r_.fail(t, quad ? fmt::format("invalid data shape ':{}' (expected a size: d8, d16, d32, d64, d8c32, d16c32 or d16c32h, "
                                    "then the channels: .xyzw)", t.text)
                      : fmt::format("invalid data shape ':{}' (expected d8, d16, d32, d64, d8c32, d16c32 or d16c32h, then "
                                    "x2, x3, x4, x8, x16, x32 or x64, then t for transposed)", t.text));
    if (quad) {
      r_.expectPunct('.', fmt::format("before the channel mask of {} (.x, .xy, .xyzw, ...)", d_->mnemonic));
      const Token& c = r_.expectIdent("channel mask (x, y, z, w in that order)");
      unsigned mask = 0;
      int last = -1;
      for (char ch : c.text) {
        int k = ch == 'x' ? 0 : ch == 'y' ? 1 : ch == 'z' ? 2 : ch == 'w' ? 3 : -1;
        if (k <= last) r_.fail(c, fmt::format("invalid channel mask '.{}' (x, y, z, w, each once, in that order)", c.text));
        last = k;
        mask |= 1u << k;
      }
      s.chmask = static_cast<uint8_t>(mask);
      s.elems = s.chmask;  // one union in IGC's writer (L2)
    }
    return s;
  }

  void setShape(const Shape& s, bool strided) {
    setInt("DataSize", s.size);
    setInt("DataOrder", s.order);
    setInt("DataElemsPerAddr", s.elems);
    // L2: ChMask is the union's other name (strided: 0, as IGC's builder writes).
    setInt("ChMask", strided ? 0 : s.chmask ? s.chmask : s.elems);
  }

  // flat | arg | bti(S) | ss(S) | bss(S); nothing before '[' is flat (CISA.y LscAddrModelOpt).
  uint8_t model(bool brackets) {
    if (brackets && r_.peek().is('[')) {
      setInt("AddrType", kFlat, r_.peek().loc);
      zeroImm(f("Surface"));
      return kFlat;
    }
    const Token& t = r_.expectIdent("address model (flat, bti(..), ss(..), bss(..) or arg)");
    auto v = kAddrTypes.valueOf(t.text);
    if (!v) r_.fail(t, fmt::format("unknown address model '{}' (expected flat, bti, ss, bss or arg)", t.text));
    setInt("AddrType", *v, t.loc);
    if (*v == kBti || *v == kSs || *v == kBss) {
      r_.expectPunct('(', fmt::format("after '{}'", t.text));
      vec(f("Surface"), "surface (an immediate or a register)");
      r_.expectPunct(')', "after the surface");
    } else if (has("Surface")) {
      zeroImm(f("Surface"));  // "Use the immediate value 0 for flat operations"
    }
    return static_cast<uint8_t>(*v);
  }

  void addrSize() {
    r_.expectPunct(':', "before the address size (:a16, :a32 or :a64)");
    const Token& t = r_.expectIdent("address size (a16, a32 or a64)");
    auto v = kAddrSizes.valueOf(t.text);
    if (!v) r_.fail(t, fmt::format("unknown address size ':{}' (expected :a16, :a32 or :a64)", t.text));
    setInt("AddrSize", *v, t.loc);
  }

  // MODEL[ [SCALE*] A[.off] [+|- OFF] [, PITCH] ]:aNN
  void untypedAddr(bool stridedOp) {
    const SrcLoc at = r_.peek().loc;
    if (!has("AddrType")) return;
    model(true);
    r_.expectPunct('[', "to start the address");
    uint64_t scale = 1;
    if (r_.peek().kind == Tok::Int && r_.peek(1).is('*')) {
      scale = r_.expectInt("address scale", 0xffff);
      r_.next();
    }
    setInt("AddrScale", scale, at);
    raw(f(stridedOp ? "Src0AddrBase" : "Src0Addrs"), "address register");
    uint64_t off = 0;
    if (r_.peek().is('+') || r_.peek().is('-')) {
      bool neg = r_.next().is('-');
      uint64_t v = r_.expectInt("immediate address offset", neg ? 0x80000000u : 0x7fffffffu);
      off = (neg ? ~v + 1 : v) & 0xffffffffu;
    }
    setInt("AddrImmOffset", off, at);
    if (stridedOp) {
      if (r_.peek().is(',')) {
        r_.next();
        vec(f("Src0AddrPitch"), "pitch (an immediate or a register)");
      } else {
        pitchDefault = true;
      }
    }
    r_.expectPunct(']', "to end the address");
    addrSize();
  }
  bool pitchDefault = false;

  // bti(S)[U, V, R, LOD]:aNN (typed) or [X, Y] (typed block2d).
  void typedAddr(bool block) {
    model(false);
    r_.expectPunct('[', "to start the coordinates");
    if (block) {
      vec(f("Src0AddrX"), "X (an immediate or a register)");
      r_.expectPunct(',', "between X and Y");
      vec(f("Src0AddrY"), "Y (an immediate or a register)");
      r_.expectPunct(']', "to end the coordinates");
      return;
    }
    static const char* kCoords[] = {"Src0AddrsU", "Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD"};
    for (unsigned i = 0; i < 4; ++i) {
      if (i) {
        if (!r_.peek().is(',')) {
          Operand& o = f(kCoords[i]);
          o = Operand{};
          o.kind = Operand::Kind::Raw;  // %null: the surface has fewer dimensions
          continue;
        }
        r_.next();
      }
      raw(f(kCoords[i]), "coordinate register");
    }
    r_.expectPunct(']', "to end the coordinates");
    addrSize();
  }

  // flat[BASE, WIDTH, HEIGHT, PITCH, X, Y]
  void block2dAddr() {
    const Token& t = r_.expectIdent("'flat'");
    if (t.text != "flat") r_.fail(t, fmt::format("a 2D block's address is flat[...], found '{}'", t.text));
    r_.expectPunct('[', "to start the 2D block's address");
    static const char* kParams[] = {"SurfaceBaseAddr", "SurfaceWidth", "SurfaceHeight", "SurfacePitch", "Src0AddrX", "Src0AddrY"};
    for (unsigned i = 0; i < 6; ++i) {
      if (i) r_.expectPunct(',', "between the 2D block's address parameters");
      vec(f(kParams[i]), kParams[i]);
    }
    r_.expectPunct(']', "to end the 2D block's address");
  }

  // V:d16.2x16x8nn — blocks (when not 1) x width x height, n|t transposed, n|t VNNI.
  void block2dData(Operand& o) {
    raw(o, "data register");
    r_.expectPunct(':', "before the 2D block's shape (:d16.16x8nn)");
    const Token& t = r_.expectIdent("data size (d8, d16, d32 or d64)");
    Shape s;
    if (!shapeText(t.text, s, true) || s.size > kD64) r_.fail(t, fmt::format("invalid 2D block data size ':{}' (expected d8, d16, d32 or d64)", t.text));
    r_.expectPunct('.', "before the 2D block's dimensions");
    std::string dims = gather("2D block dimensions ([BLOCKSx]WIDTHxHEIGHT[nn])");
    // [B x] W x H [n|t] [n|t]
    std::vector<unsigned> nums;
    size_t i = 0;
    while (i < dims.size() && std::isdigit(static_cast<unsigned char>(dims[i]))) {
      unsigned v = 0;
      while (i < dims.size() && std::isdigit(static_cast<unsigned char>(dims[i])) && v < 100000) v = v * 10 + static_cast<unsigned>(dims[i++] - '0');
      nums.push_back(v);
      if (i < dims.size() && dims[i] == 'x' && i + 1 < dims.size() && std::isdigit(static_cast<unsigned char>(dims[i + 1]))) ++i;
      else break;
    }
    std::string_view rest = std::string_view(dims).substr(i);
    bool ok = (nums.size() == 2 || nums.size() == 3) && rest.size() <= 2;
    for (char c : rest) ok &= c == 'n' || c == 't';
    for (unsigned v : nums) ok &= v <= 0xffff;
    if (!ok) r_.fail(t, fmt::format("invalid 2D block shape '.{}' (expected [BLOCKSx]WIDTHxHEIGHT, then n or t for the "
                                    "order and n or t for VNNI)", dims));
    const bool three = nums.size() == 3;
    setInt("DataSize", s.size);
    setInt("Blocks", three ? nums[0] : 1);
    setInt("BlockWidth", nums[three ? 1 : 0]);
    setInt("BlockHeight", nums[three ? 2 : 1]);
    setInt("DataOrder", !rest.empty() && rest[0] == 't' ? kTranspose : kNonTranspose);
    setInt("VNNI", rest.size() > 1 && rest[1] == 't' ? 1 : 0);
  }

  // The text of adjacent number and identifier tokens ("2x16x8nn" lexes as 2, x16x8nn).
  std::string gather(std::string_view what) {
    const Token& first = r_.peek();
    if (first.kind != Tok::Int && first.kind != Tok::Ident) r_.fail(first, fmt::format("expected {}, found {}", what, describe(first)));
    std::string s(first.text);
    SrcLoc end = first.loc;
    r_.next();
    for (;;) {
      const Token& t = r_.peek();
      if ((t.kind != Tok::Int && t.kind != Tok::Ident) || t.loc.line != end.line || t.loc.col != end.col + end.len) break;
      s += t.text;
      end = t.loc;
      r_.next();
    }
    return s;
  }

  // V:WxH (typed block2d).
  void typedBlockData(Operand& o) {
    raw(o, "data register");
    r_.expectPunct(':', "before the block's size (:WIDTHxHEIGHT)");
    const Token& t = r_.peek();
    std::string dims = gather("the block's size (WIDTHxHEIGHT)");
    unsigned w = 0, h = 0;
    size_t x = dims.find('x');
    bool ok = x != std::string::npos && x > 0 && x + 1 < dims.size() && x <= 5 && dims.size() - x - 1 <= 5;
    for (size_t i = 0; ok && i < dims.size(); ++i)
      if (i != x) ok = std::isdigit(static_cast<unsigned char>(dims[i])) != 0;
    if (ok) {
      w = static_cast<unsigned>(std::stoul(dims.substr(0, x)));
      h = static_cast<unsigned>(std::stoul(dims.substr(x + 1)));
      ok = w <= 0xffff && h <= 0xffff;
    }
    if (!ok) r_.fail(t, fmt::format("invalid block size '{}' (expected WIDTHxHEIGHT)", dims));
    setInt("BlockWidth", w);
    setInt("BlockHeight", h);
  }

  void execDefault(bool given, uint8_t code, uint8_t emask) {
    if (given) return;
    inst_.execCode = code;
    inst_.emask = emask;
  }
};

void parseFence(Reader& p) {
  TextReader& r = p.r_;
  auto suffix = [&](const char* name, const EnumDesc& e, std::string_view what) {
    r.expectPunct('.', fmt::format("before the {}", what));
    const Token& t = r.expectIdent(what);
    auto v = e.valueOf(t.text);
    if (!v && &e == &kScopes && t.text == "system") v = 5;  // the page's symbol for .sysrel
    if (!v) r.fail(t, fmt::format("invalid {} '.{}' on lsc_fence (expected {})", what, t.text, p.choices(e)));
    p.setInt(name, *v, t.loc);
  };
  suffix("LscSFID", kFenceSfids, "shared function");
  suffix("LscFenceOp", kFenceOps, "fence operation");
  suffix("LscScope", kScopes, "scope");
  // "ExecSize: Should always be 1 and no mask" (L1).
  p.inst_.execCode = 0;
  p.inst_.emask = 8;
}

void parse(TextReader& r, const InstrDesc& d0, Instruction& inst, const Token& mn) {
  Reader p(r, d0, inst);
  if (d0.op == Opcode::LSC_FENCE) {
    parseFence(p);
    return;
  }
  r.expectPunct('.', fmt::format("and the shared function after '{}' (.ugm, .ugml, .slm or .tgm)", mn.text));
  const Token& sf = r.expectIdent("shared function (ugm, ugml, slm or tgm)");
  auto sfid = kFenceSfids.valueOf(sf.text);
  if (!sfid) r.fail(sf, fmt::format("unknown shared function '.{}' (expected .ugm, .ugml, .slm or .tgm)", sf.text));
  const bool isTyped = *sfid == kTgm;
  if (isTyped != (d0.op == Opcode::LSC_TYPED)) {
    const InstrDesc* other = lookup(static_cast<uint8_t>(isTyped ? Opcode::LSC_TYPED : Opcode::LSC_UNTYPED),
                                    static_cast<uint8_t>(d0.subOp));
    if (!other || other->subOp != d0.subOp)
      r.fail(sf, isTyped ? fmt::format("'{}' has no typed form (.tgm: LSC_TYPED page)", mn.text)
                         : fmt::format("'{}' is typed only (.tgm: LSC_TYPED page)", mn.text));
    p.d_ = other;
  }
  const InstrDesc& d = *p.d_;
  inst.op = d.op;
  inst.subOp = d.subOp;
  p.setInt("LscSubOp", static_cast<uint64_t>(d.subOp), mn.loc);
  if (!isTyped) p.setInt("LscSFID", *sfid, sf.loc);
  if (inst.pred.id && d.find(FieldKind::Pred) < 0) r.fail(mn, fmt::format("'{}.tgm' cannot be predicated", d.mnemonic));
  // [.L1 [.L3]]: CISA.y LscCacheOpts (one option sets L1 only).
  uint64_t cache[2] = {kCacheDefault, kCacheDefault};
  for (unsigned n = 0; r.peek().is('.'); ++n) {
    r.next();
    const Token& c = r.expectIdent("caching option (df, uc, ca, wb, wt, st or ri)");
    auto v = kCaches.valueOf(c.text);
    if (!v) r.fail(c, fmt::format("unknown caching option '.{}' (expected {})", c.text, p.choices(kCaches)));
    if (n == 2) r.fail(c, "at most two caching options (L1 and L3)");
    cache[n] = *v;
  }
  p.setInt("CachingL1", cache[0]);
  p.setInt("CachingL3", cache[1]);
  const bool hasExec = d.find(FieldKind::ExecSize) >= 0;
  bool execGiven = false;
  if (hasExec && r.peek().is('(') && d.subOp != kReadSurfaceInfo) {
    r.execSize(inst);
    execGiven = true;
  }
  const OpInfo op = opInfo(d);
  auto dataOperand = [&](const char* field) {
    p.raw(p.f(field), "data register or %null");
    Shape s = p.shape(op.quad);
    p.setShape(s, op.form == Form::Strided);
    return s;
  };
  Shape s;
  switch (op.form) {
    case Form::Simple:
    case Form::Strided: {
      const bool stridedOp = op.form == Form::Strided;
      if (op.dir == Dir::Store) {
        p.untypedAddr(stridedOp);
        s = dataOperand("Src1Data");
      } else {
        s = dataOperand("DstData");
        p.untypedAddr(stridedOp);
        if (op.dir == Dir::Atomic) {
          p.raw(p.f("Src1Data"), "atomic argument register or %null");
          p.raw(p.f("Src2Data"), "atomic argument register or %null");
        }
      }
      if (stridedOp && p.pitchDefault) {
        // CISA.y: no pitch is the packed one, DataSize (x the vector for non-transposed).
        Operand& o = p.f("Src0AddrPitch");
        Reader::zeroImm(o);
        o.value = memBytes(s.size) * (s.order == kTranspose ? 1u : vecLen(s.elems));
      }
      p.execDefault(execGiven, s.order == kTranspose ? 0 : 5, 0);
      break;
    }
    case Form::Block2d:
      if (op.dir == Dir::Store) {
        p.block2dAddr();
        p.block2dData(p.f("Src1Data"));
      } else {
        p.block2dData(p.f("DstData"));
        p.block2dAddr();
      }
      p.execDefault(execGiven, 0, 0);
      break;
    case Form::Apndctr: {
      s = dataOperand("DstData");
      p.model(false);
      p.raw(p.f("Src0Data"), "data register");
      if (r.peek().is(':')) {
        const Token& at = r.peek(1);
        Shape s2 = p.shape(false);
        if (s2.size != s.size || s2.elems != s.elems || s2.order != s.order)
          r.fail(at, "the data shape of Src0Data must be DstData's (the message has one DataSize)");
      }
      p.execDefault(execGiven, s.order == kTranspose ? 0 : 5, 0);
      break;
    }
    case Form::Typed:
      if (d.subOp == kReadSurfaceInfo) {
        // IGC: lsc_read_state_info.tgm  DST  bti(S): (M1_NM, 1), :d32 elements, :a32.
        p.raw(p.f("DstData"), "destination register");
        p.model(false);
        p.setShape(Shape{}, false);
        p.setInt("AddrSize", kA32);
        for (const char* n : {"Src0AddrsU", "Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD", "Src1Data", "Src2Data"}) {
          Operand& o = p.f(n);
          o = Operand{};
          o.kind = Operand::Kind::Raw;
        }
        inst.execCode = 0;
        inst.emask = 8;
        break;
      }
      if (op.dir == Dir::Store) {
        p.typedAddr(false);
        s = dataOperand("Src1Data");
      } else {
        s = dataOperand("DstData");
        p.typedAddr(false);
        if (op.dir == Dir::Atomic) {
          p.raw(p.f("Src1Data"), "atomic argument register or %null");
          p.raw(p.f("Src2Data"), "atomic argument register or %null");
        }
      }
      p.execDefault(execGiven, s.order == kTranspose ? 0 : 4, 0);
      break;
    case Form::TypedBlock2d:
      if (op.dir == Dir::Store) {
        p.typedAddr(true);
        p.typedBlockData(p.f("Src1Data"));
      } else {
        p.typedBlockData(p.f("DstData"));
        p.typedAddr(true);
      }
      break;
    case Form::Fence: break;
  }
  // The raw operands the text leaves out are %null (the loads' Src1Data, the stores' DstData, ...).
  for (int i = 0; i < d.numFields; ++i)
    if (d.fields[i].kind == FieldKind::Raw && inst.f[i].kind == Operand::Kind::None) inst.f[i].kind = Operand::Kind::Raw;
}

// ---- printing ----

std::string predText(const Kernel& k, const Instruction& inst) {
  if (!inst.pred.id) return {};
  const SimpleVar* p = k.pred(inst.pred.id);
  std::string n = p && !p->name.empty() ? p->name : fmt::format("P{}", inst.pred.id);
  return fmt::format("({}{}{}) ", inst.pred.invert ? "!" : "", n,
                     inst.pred.control == 1 ? ".any" : inst.pred.control == 2 ? ".all" : "");
}

class Printer {
 public:
  Printer(const Kernel& k, const InstrDesc& d, const Instruction& inst) : k_(k), d_(d), inst_(inst) {}

  const Operand& f(const char* name) const {
    static const Operand kNone{};
    int i = d_.findName(name);
    return i < 0 ? kNone : inst_.f[static_cast<size_t>(i)];
  }
  uint64_t v(const char* name) const { return d_.findName(name) >= 0 ? f(name).value : 0; }

  std::string rawText(const Operand& o) const {
    std::string s = k_.varName(o.id);
    if (o.offset) s += fmt::format(".{}", o.offset);
    return s;
  }

  // IGC's formatVectorOperand: 0x<HEX> (std::uppercase, which then stays on
  // the stream for the hex numbers printed after it), or the register with
  // (row,col) when either is not 0.
  std::string vecText(const Operand& o) {
    if (o.kind == Operand::Kind::Immediate) {
      upper_ = true;
      return fmt::format("0x{:X}", o.value & 0xffffffffu);
    }
    if (o.kind != Operand::Kind::General) return "?";
    std::string s = k_.varName(o.id);
    if (o.row || o.col) s += fmt::format("({},{})", o.row, o.col);
    return s;
  }

  std::string hex(uint64_t x) const { return upper_ ? fmt::format("0x{:X}", x) : fmt::format("0x{:x}", x); }

  std::string shapeText() const {
    const uint64_t ds = v("DataSize");
    const char* sz = kDataSizes.textOf(ds);
    std::string s = fmt::format(":{}", sz ? sz : fmt::format("<<{:X}?>>", ds));
    if (opInfo(d_).quad) {
      s += ".";
      const uint64_t m = v("ChMask");
      for (unsigned c = 0; c < 4; ++c)
        if (m & (1u << c)) s += "xyzw"[c];
      return s;
    }
    const unsigned n = vecLen(v("DataElemsPerAddr"));
    if (n > 1) s += fmt::format("x{}", n);
    if (v("DataOrder") == kTranspose) s += "t";
    return s;
  }

  std::string model() {
    const uint64_t t = v("AddrType");
    const char* n = kAddrTypes.textOf(t);
    std::string s = n ? n : "?";
    if (t == kBti || t == kSs || t == kBss) s += "(" + vecText(f("Surface")) + ")";
    return s;
  }

  std::string addrSize() const {
    const char* n = kAddrSizes.textOf(v("AddrSize"));
    return fmt::format(":{}", n ? n : "?");
  }

  std::string untypedAddr(bool stridedOp) {
    std::string s = model() + "[";
    const uint64_t scale = v("AddrScale");
    if (scale != 1) s += hex(scale) + "*";
    s += rawText(f(stridedOp ? "Src0AddrBase" : "Src0Addrs"));
    const auto off = static_cast<int32_t>(static_cast<uint32_t>(v("AddrImmOffset")));
    if (off < 0) s += "-" + hex(uint32_t{0} - static_cast<uint32_t>(off));
    else if (off > 0) s += "+" + hex(static_cast<uint32_t>(off));
    if (stridedOp) s += ", " + vecText(f("Src0AddrPitch"));
    return s + "]" + addrSize();
  }

  std::string typedAddr(bool block) {
    std::string s = model() + "[";
    if (block) return s + vecText(f("Src0AddrX")) + ", " + vecText(f("Src0AddrY")) + "]";
    static const char* kCoords[] = {"Src0AddrsU", "Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD"};
    for (unsigned i = 0; i < 4; ++i) {
      const Operand& o = f(kCoords[i]);
      if (i && o.id == kVarNull) break;
      s += (i ? ", " : "") + rawText(o);
    }
    return s + "]" + addrSize();
  }

  std::string block2dAddr() {
    std::string s = "flat[";
    static const char* kParams[] = {"SurfaceBaseAddr", "SurfaceWidth", "SurfaceHeight", "SurfacePitch", "Src0AddrX", "Src0AddrY"};
    for (unsigned i = 0; i < 6; ++i) s += (i ? ", " : "") + vecText(f(kParams[i]));
    return s + "]";
  }

  std::string block2dShape() const {
    const char* sz = kDataSizes.textOf(v("DataSize"));
    std::string s = fmt::format(":{}.", sz ? sz : "?");
    if (v("Blocks") != 1) s += fmt::format("{}x", v("Blocks"));
    s += fmt::format("{}x{}", v("BlockWidth"), v("BlockHeight"));
    s += v("DataOrder") == kTranspose ? 't' : 'n';
    s += v("VNNI") ? 't' : 'n';
    return s;
  }

  std::string head(const char* sfid) const {
    std::string s = predText(k_, inst_) + d_.mnemonic + "." + sfid;
    const uint64_t l1 = v("CachingL1"), l3 = v("CachingL3");
    if (l1 != kCacheDefault || l3 != kCacheDefault) {
      const char* a = kCaches.textOf(l1);
      const char* b = kCaches.textOf(l3);
      s += fmt::format(".{}.{}", a ? a : "?", b ? b : "?");
    }
    return s;
  }

  std::string print() {
    if (d_.op == Opcode::LSC_FENCE) {
      auto name = [&](const char* field, const EnumDesc& e) {
        const char* n = e.textOf(v(field));
        return n ? std::string(n) : fmt::format("<<{:X}?>>", v(field));
      };
      return predText(k_, inst_) + fmt::format("lsc_fence.{}.{}.{}", name("LscSFID", kFenceSfids),
                                               name("LscFenceOp", kFenceOps), name("LscScope", kScopes));
    }
    const OpInfo op = opInfo(d_);
    const bool isTyped = d_.op == Opcode::LSC_TYPED;
    const char* sfid = isTyped ? "tgm" : kSfids.textOf(v("LscSFID"));
    std::string s = head(sfid ? sfid : "?");
    if (d_.find(FieldKind::ExecSize) >= 0 && d_.subOp != kReadSurfaceInfo) s += " " + execSizeText(inst_);
    s += "  ";
    switch (op.form) {
      case Form::Simple:
      case Form::Strided: {
        const bool stridedOp = op.form == Form::Strided;
        if (op.dir == Dir::Store) return s + untypedAddr(stridedOp) + "  " + rawText(f("Src1Data")) + shapeText();
        s += rawText(f("DstData")) + shapeText() + "  " + untypedAddr(stridedOp);
        if (op.dir == Dir::Atomic) s += "  " + rawText(f("Src1Data")) + "  " + rawText(f("Src2Data"));
        return s;
      }
      case Form::Block2d:
        if (op.dir == Dir::Store) return s + block2dAddr() + "  " + rawText(f("Src1Data")) + block2dShape();
        return s + rawText(f("DstData")) + block2dShape() + "  " + block2dAddr();
      case Form::Apndctr: {
        std::string shape = shapeText();
        return s + rawText(f("DstData")) + shape + "  " + model() + "  " + rawText(f("Src0Data")) + shape;
      }
      case Form::Typed:
        if (d_.subOp == kReadSurfaceInfo) return s + rawText(f("DstData")) + "  " + model();
        if (op.dir == Dir::Store) return s + typedAddr(false) + "  " + rawText(f("Src1Data")) + shapeText();
        s += rawText(f("DstData")) + shapeText() + "  " + typedAddr(false);
        if (op.dir == Dir::Atomic) s += "  " + rawText(f("Src1Data")) + "  " + rawText(f("Src2Data"));
        return s;
      case Form::TypedBlock2d: {
        std::string shape = fmt::format(":{}x{}", v("BlockWidth"), v("BlockHeight"));
        if (op.dir == Dir::Store) return s + typedAddr(true) + "  " + rawText(f("Src1Data")) + shape;
        return s + rawText(f("DstData")) + shape + "  " + typedAddr(true);
      }
      case Form::Fence: break;
    }
    return s;
  }

 private:
  const Kernel& k_;
  const InstrDesc& d_;
  const Instruction& inst_;
  bool upper_ = false;
};

std::string print(const Kernel& k, const InstrDesc& d, const Instruction& inst) { return Printer(k, d, inst).print(); }

}  // namespace

const CustomSyntax* lscSyntax() {
  static const CustomSyntax s{parse, print};
  return &s;
}

}  // namespace visakit::text
