// The ALU family in the reference tier: the operations of ops_alu.hpp through
// the pipeline of arith.hpp, and the instructions whose shape the pipeline
// does not have (two destinations, pairs of lanes, a predicate written,
// regions ignored, conversions of bits). Each rule cites its page and, where
// the page leaves a choice, its spec-decisions row (A<n>).
#include <array>

#include "sim/sem/arith.hpp"
#include "sim/sem/ops_alu.hpp"

namespace visakit::sim {
namespace {

using pipeline::arith;
using pipeline::Domain;
using pipeline::domainOf;
using pipeline::fltSource;

constexpr double kCanonNaN = std::bit_cast<double>(0x7ff8000000000000ull);  // E14

// Sources' integer values of every lane (read before any write).
template <unsigned N>
std::array<std::array<i128, N>, 32> intSources(const Exec& e, std::array<int, N> f) {
  std::array<std::array<i128, N>, 32> v{};
  for (unsigned k = 0; k < e.exec(); ++k)
    for (unsigned s = 0; s < N; ++s) v[k][s] = e.intValue(f[s], k);
  return v;
}

// The register byte address of destination element k (its region), for the
// bytes an instruction writes beyond it (MADW's high halves).
uint32_t dstAddress(Exec& e, int f, unsigned k) {
  const RefOperand& o = e.op(f);
  const uint32_t off = k * o.hs * typeSize(o.type);
  if (o.kind == Operand::Kind::Indirect) {
    const auto& a = e.thread().addrs;
    return (o.addr < a.size() ? a[o.addr] : 0) + o.base + off;
  }
  return o.base + off;
}
// Element j of an operand whose region the page says is ignored: the j-th
// element from its first (LRP, PLANE).
uint64_t contiguousBits(Exec& e, int f, unsigned j) {
  const RefOperand& o = e.op(f);
  if (o.kind == Operand::Kind::Immediate) return e.bits(f, 0);
  uint32_t base = o.base;
  if (o.kind == Operand::Kind::Indirect) {
    const auto& a = e.thread().addrs;
    base += o.addr < a.size() ? a[o.addr] : 0;
  }
  return e.regBits(base + j * typeSize(o.type), typeSize(o.type));
}
double withMod(double v, Mod m) {
  switch (m) {
    case Mod::Neg: return -v;
    case Mod::Abs: return std::fabs(v);
    case Mod::NegAbs: return -std::fabs(v);
    default: return v;
  }
}
double finish(double x, Type et) {
  x = roundTo(x, et);
  return std::isnan(x) ? kCanonNaN : x;
}

// ---- MIN_MAX page ----
// Element k of float operand f with its modifier, as bits of its type (the
// modifier on the sign bit).
uint64_t signedBits(const Exec& e, int f, unsigned k) {
  const RefOperand& o = e.op(f);
  const uint64_t sign = uint64_t{1} << (typeSize(o.type) * 8 - 1);
  const uint64_t b = e.bits(f, k);
  switch (o.mod) {
    case Mod::Neg: return b ^ sign;
    case Mod::Abs: return b & ~sign;
    case Mod::NegAbs: return b | sign;
    default: return b;
  }
}
// "if one of the numbers is NaN and the other is not, MIN or MAX ... returns
// the one that is not NaN. When both numbers are NaN, [it] returns source1":
// its bits, as SEL copies them (A18); -0 is below +0 (A18). Integers:
// ops::Min, ops::Max.
void minMax(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const bool isMax = e.value(e.field("Op")) & 1;
  const unsigned n = e.exec();
  const int d = e.dst();
  const Domain dom = domainOf(e);
  if (dom.flt) {
    std::array<double, 32> r{};
    uint32_t bothNaN = 0;
    for (unsigned k = 0; k < n; ++k) {
      const double a = fltSource(e, e.src(0), k, dom.exec), b = fltSource(e, e.src(1), k, dom.exec);
      if (std::isnan(a)) {
        r[k] = b;
        if (std::isnan(b)) bothNaN |= 1u << k;
      } else if (std::isnan(b)) {
        r[k] = a;
      } else {
        const bool aBelow = a < b || (a == b && std::signbit(a) && !std::signbit(b));
        r[k] = (aBelow != isMax) ? a : b;
      }
    }
    // (two NaNs into src1's own type without .sat: its bits, as SEL copies them)
    const bool copies = !e.inst().sat && e.op(d).kind != Operand::Kind::Predicate &&
                        e.op(d).type == e.op(e.src(1)).type && e.op(d).type == dom.exec;
    for (unsigned k = 0; k < n; ++k) {
      if (!((en >> k) & 1)) continue;
      if (copies && ((bothNaN >> k) & 1)) e.setBits(d, k, signedBits(e, e.src(1), k));
      else e.storeFloat(d, k, r[k], dom.exec);
    }
    return;
  }
  const auto v = intSources<2>(e, {e.src(0), e.src(1)});
  const ops::IntCtx c;
  for (unsigned k = 0; k < n; ++k)
    if ((en >> k) & 1) e.storeInt(d, k, isMax ? ops::Max::exact(v[k][0], v[k][1], c) : ops::Min::exact(v[k][0], v[k][1], c));
}

// ---- ADDC, SUBB pages: Dst and Carry / Borrow ----
template <bool Sub>
void carry(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int d = e.field("Dst"), c = e.field(Sub ? "Borrow" : "Carry");
  const auto v = intSources<2>(e, {e.src(0), e.src(1)});
  for (unsigned k = 0; k < e.exec(); ++k) {
    if (!((en >> k) & 1)) continue;
    const i128 a = v[k][0], b = v[k][1];
    // "carry(src0 + src1)": the bit above the 32-bit sum; "src0 < src1 ? 1 : 0".
    e.storeInt(d, k, Sub ? a - b : a + b);
    e.storeInt(c, k, Sub ? i128{a < b} : (a + b) >> 32);
  }
}

// ---- SAD2, SAD2ADD pages: the sum of absolute differences of lanes i, i+1 in
// lane i (i even); odd lanes are not written, and a pair past the execution
// size counts 0 (A19) ----
template <bool Add>
void sad2(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const unsigned n = e.exec();
  std::array<std::array<i128, 3>, 32> v{};
  for (unsigned k = 0; k < n; ++k)
    for (unsigned s = 0; s < (Add ? 3u : 2u); ++s) v[k][s] = e.intValue(e.src(s), k);
  auto absDiff = [](i128 a, i128 b) { return a < b ? b - a : a - b; };
  for (unsigned k = 0; k < n; k += 2) {
    if (!((en >> k) & 1)) continue;
    i128 r = absDiff(v[k][0], v[k][1]) + (k + 1 < n ? absDiff(v[k + 1][0], v[k + 1][1]) : 0);
    if (Add) r += v[k][2];
    e.storeInt(e.dst(), k, r);
  }
}

// ---- MADW page: the 64-bit src0 * src1 + src2, low 32 bits in Dst's region,
// high 32 bits in the same region from the next GRF after the low halves (A20) ----
void madw(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const unsigned n = e.exec();
  const int d = e.dst();
  const RefOperand& o = e.op(d);
  const auto v = intSources<3>(e, {e.src(0), e.src(1), e.src(2)});
  const unsigned hs = o.hs ? o.hs : 1;
  const uint32_t low = ((n - 1) * hs + 1) * 4;
  const uint32_t hiOff = (low + e.grfSize() - 1) / e.grfSize() * e.grfSize();
  for (unsigned k = 0; k < n; ++k) {
    if (!((en >> k) & 1)) continue;
    const uint64_t r = lowBits(ops::mulExact(v[k][0], v[k][1]) + v[k][2], 64);
    e.setBits(d, k, r & 0xffffffffu);
    if (!o.null) e.setRegBits(dstAddress(e, d, k) + hiOff, 4, r >> 32);
  }
}

// ---- ADD3O page: dst = src0 + src1 + src2; P[i] = overflow: the exact sum is
// outside the destination type's range (A21). The predicate is written, not a mask ----
void add3o(Exec& e) {
  const uint32_t en = e.emBits();
  e.countLanes(en);
  const int d = e.dst();
  const Type dt = e.type(d);
  const auto v = intSources<3>(e, {e.src(0), e.src(1), e.src(2)});
  RefThread& t = e.thread();
  const unsigned p = e.inst().predId, off = e.inst().maskOff;
  for (unsigned k = 0; k < e.exec(); ++k) {
    if (!((en >> k) & 1)) continue;
    const i128 s = v[k][0] + v[k][1] + v[k][2];
    e.storeInt(d, k, s);
    const bool ov = s < intMin(dt) || s > intMax(dt);
    if (p < t.preds.size() && k + off < 32) {
      if (ov) t.preds[p] |= 1u << (k + off);
      else t.preds[p] &= ~(1u << (k + off));
    }
  }
}

// ---- BFN page: the BooleanFuncCtrl truth table over each bit (A8) ----
void bfn(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const uint8_t lut = static_cast<uint8_t>(e.value(e.field("BooleanFuncCtrl")));
  const auto v = intSources<3>(e, {e.src(0), e.src(1), e.src(2)});
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1)
      e.storeInt(e.dst(), k, static_cast<i128>(ops::bfn(lut, lowBits(v[k][0], 64), lowBits(v[k][1], 64), lowBits(v[k][2], 64))));
}

// ---- LRP page: src1 * src0 + src2 * (1.0 - src0); regions ignored
// (contiguous elements; a scalar source is broadcast); computed in double as
// written and rounded once to F (A22) ----
void lrp(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const unsigned n = e.exec();
  auto src = [&](unsigned s, unsigned k) {
    const int f = e.src(s);
    const RefOperand& o = e.op(f);
    const bool scalar = o.kind == Operand::Kind::Immediate || (o.vs == 0 && o.w == 1 && o.hs == 0);
    if (scalar) return e.floatValue(f, 0);
    return withMod(floatBitsToDouble(contiguousBits(e, f, k), o.type), o.mod);
  };
  std::array<double, 32> r{};
  for (unsigned k = 0; k < n; ++k) r[k] = finish(src(1, k) * src(0, k) + src(2, k) * (1.0 - src(0, k)), Type::F);
  const RefOperand& o = e.op(e.dst());
  if (o.null) return;
  for (unsigned k = 0; k < n; ++k)
    if ((en >> k) & 1) e.setRegBits(o.base + 4 * k, 4, doubleToFloatBits(e.inst().sat ? satFloat(r[k]) : r[k], Type::F, Type::F));
}

// ---- PLANE (PLN page): src0[0] * u + src0[1] * v + src0[3], u and v from
// src1 (8 of each per 8 channels); source regions ignored; rounded once (A22) ----
void plane(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int s0 = e.src(0), s1 = e.src(1);
  auto f = [&](int fi, unsigned j) { return floatBitsToDouble(contiguousBits(e, fi, j), Type::F); };
  const double p = f(s0, 0), q = f(s0, 1), r0 = f(s0, 3);
  std::array<double, 32> r{};
  for (unsigned i = 0; i < e.exec(); ++i) {
    const unsigned g = i / 8, j = i % 8;
    r[i] = finish(p * f(s1, 16 * g + j) + q * f(s1, 16 * g + 8 + j) + r0, Type::F);
  }
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) e.storeFloat(e.dst(), i, r[i], Type::F);
}

// ---- INVM, RSQTM pages: the correctly rounded quotient / reciprocal square
// root, and PredDst set where it is NaN, infinite or zero (A23) ----
template <bool Rsq>
void ieeeMacro(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const Domain dom = domainOf(e);
  const Type et = dom.flt ? dom.exec : Type::F;
  const int pd = e.field("PredDst");
  std::array<double, 32> r{};
  for (unsigned k = 0; k < e.exec(); ++k) {
    const double a = fltSource(e, e.src(0), k, et);
    double x;
    if constexpr (Rsq) x = ops::Rsqrt::fltT(et, {a, 0, 0, 0});
    else x = a / fltSource(e, e.src(1), k, et);
    r[k] = finish(x, et);
  }
  for (unsigned k = 0; k < e.exec(); ++k) {
    if (!((en >> k) & 1)) continue;
    e.storeFloat(e.field("Dst"), k, r[k], et);
    e.setPredElem(pd, k, std::isnan(r[k]) || std::isinf(r[k]) || r[k] == 0);
  }
}

// ---- FCVT page: HF <- BF8 (UB) exactly; BF8 <- HF round to nearest even,
// denormals kept; F <- TF32 (UD) bits unchanged; TF32 <- F round to nearest
// even, denormals flushed (A24) ----
void fcvt(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int d = e.dst(), s = e.src(0);
  const Type dt = e.type(d), st = e.type(s);
  std::array<uint64_t, 32> r{};
  for (unsigned k = 0; k < e.exec(); ++k) {
    const uint64_t b = e.bits(s, k);
    if (dt == Type::HF && st == Type::UB) r[k] = (b & 0xff) << 8;
    else if (dt == Type::UB && st == Type::HF) r[k] = doubleToNarrow(halfToDouble(static_cast<uint16_t>(b)), 2, 5);
    else if (dt == Type::F && st == Type::UD) r[k] = b & 0xffffffffu;
    else if (dt == Type::UD && st == Type::F) {
      double v = floatBitsToDouble(b, Type::F);
      if (isDenormalIn(v, Type::F)) v = std::signbit(v) ? -0.0 : 0.0;
      r[k] = doubleToNarrow(v, 10, 8) << 13;
    } else {
      r[k] = b;  // no conversion the page defines (the verifier rejects it)
    }
  }
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1) e.setBits(d, k, r[k]);
}

// ---- SRND page: stochastic rounding F -> HF (Src1[12:0]) and HF -> BF8
// (Src1[7:0]): |x| + r * ulp / 2^k truncated to the destination's precision,
// denormals kept, beyond the largest binade +-inf, NaN and inf as IEEE; every
// lane, as its pseudo-code (A26) ----
uint64_t stochastic(double x, uint64_t rnd, unsigned manBits, unsigned k) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return doubleToNarrow(x, manBits, 5);
  const uint64_t sign = std::signbit(x) ? uint64_t{1} << (manBits + 5) : 0;
  const double m = std::fabs(x);
  const int minExp = -14;  // HF and BF8: 5 exponent bits, bias 15
  int e = std::ilogb(m);
  if (e < minExp) e = minExp;
  const int ulpExp = e - static_cast<int>(manBits), deltaExp = ulpExp - static_cast<int>(k);
  const uint64_t n = static_cast<uint64_t>(std::floor(std::ldexp(m, -deltaExp))) + (rnd & ((uint64_t{1} << k) - 1));
  const double y = std::ldexp(static_cast<double>(n >> k), ulpExp);
  if (y >= 65536.0) return sign | (uint64_t{31} << manBits);  // infinity
  return sign | doubleToNarrow(y, manBits, 5);  // exact
}
void srnd(Exec& e) {
  const uint32_t en = e.all();
  e.countLanes(en);
  const int d = e.dst(), s0 = e.src(0), s1 = e.src(1);
  const bool toHf = e.type(d) == Type::HF;
  std::array<uint64_t, 32> r{};
  for (unsigned k = 0; k < e.exec(); ++k) {
    const double x = floatBitsToDouble(e.bits(s0, k), e.type(s0));
    r[k] = toHf ? stochastic(x, e.bits(s1, k), 10, 13) : stochastic(x, e.bits(s1, k), 2, 8);
  }
  for (unsigned k = 0; k < e.exec(); ++k) e.setBits(d, k, r[k]);
}

constexpr SemEntry kAluExt[] = {
    {Opcode::AVG, -1, arith<ops::Avg, 2>},
    {Opcode::DIV, -1, arith<ops::Div, 2>},
    {Opcode::MAD, -1, arith<ops::Mad, 3>},
    {Opcode::MULH, -1, arith<ops::Mulh, 2>},
    {Opcode::LRP, -1, lrp},
    {Opcode::MOD, -1, arith<ops::Mod, 2>},
    {Opcode::SAD2, -1, sad2<false>},
    {Opcode::SAD2ADD, -1, sad2<true>},
    {Opcode::MADW, -1, madw},
    {Opcode::ADD3, -1, arith<ops::Add3, 3>},
    {Opcode::ADD3O, -1, add3o},
    {Opcode::DP4A, -1, arith<ops::Dp4a, 3>},
    {Opcode::PLANE, -1, plane},
    {Opcode::EXP, -1, arith<ops::Exp, 1>},
    {Opcode::LOG, -1, arith<ops::Log, 1>},
    {Opcode::POW, -1, arith<ops::Pow, 2>},
    {Opcode::SIN, -1, arith<ops::Sin, 1>},
    {Opcode::COS, -1, arith<ops::Cos, 1>},
    {Opcode::SQRT, -1, arith<ops::Sqrt, 1>},
    {Opcode::RSQRT, -1, arith<ops::Rsqrt, 1>},
    {Opcode::INV, -1, arith<ops::Inv, 1>},
    {Opcode::FRC, -1, arith<ops::Frc, 1>},
    {Opcode::RNDD, -1, arith<ops::Rndd, 1>},
    {Opcode::RNDU, -1, arith<ops::Rndu, 1>},
    {Opcode::RNDE, -1, arith<ops::Rnde, 1>},
    {Opcode::RNDZ, -1, arith<ops::Rndz, 1>},
    {Opcode::DIVM, -1, arith<ops::Divm, 2>},
    {Opcode::SQRTM, -1, arith<ops::Sqrt, 1>},
    {Opcode::INVM, -1, ieeeMacro<false>},
    {Opcode::RSQTM, -1, ieeeMacro<true>},
    {Opcode::ASR, -1, arith<ops::Asr, 2>},
    {Opcode::CBIT, -1, arith<ops::Cbit, 1>},
    {Opcode::FBL, -1, arith<ops::Fbl, 1>},
    {Opcode::FBH, -1, arith<ops::Fbh, 1>},
    {Opcode::LZD, -1, arith<ops::Lzd, 1>},
    {Opcode::BFREV, -1, arith<ops::Bfrev, 1>},
    {Opcode::BFE, -1, arith<ops::Bfe, 3>},
    {Opcode::BFI, -1, arith<ops::Bfi, 4>},
    {Opcode::BFN, -1, bfn},
    {Opcode::ROL, -1, arith<ops::Rol, 2>},
    {Opcode::ROR, -1, arith<ops::Ror, 2>},
    {Opcode::ADDC, -1, carry<false>},
    {Opcode::SUBB, -1, carry<true>},
    {Opcode::FMINMAX, -1, minMax},
    {Opcode::FCVT, -1, fcvt},
    {Opcode::SRND, -1, srnd},
};

}  // namespace

std::span<const SemEntry> aluExtSemantics() { return kAluExt; }

}  // namespace visakit::sim
