// ALU instructions: MOV ADD MUL MAD SHL SHR AND OR XOR NOT CMP SEL SETP (and the
// integer MULH ASR AVG MIN_MAX).
//
// Pipeline per instruction (no call per lane): load each source into the
// operation's domain (exact integers as 128-bit values, or floats as doubles),
// compute, then convert into the destination type under ChEn.
//   - Integer domain: "extra precision is provided within the hardware ...
//     implicit type conversion happens" (2_datatypes.md "Type Conversion"):
//     the exact result is truncated to the destination, or clamped with .sat.
//   - Float domain: execution type = the widest float source (DF > F > HF);
//     each result is rounded to it (RTNE), then converted to the destination.
#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#include "sim/fast/control.hpp"
#include "sim/sem/arith.hpp"
#include "sim/sem/ops.hpp"
#include "sim/sem/ops_alu.hpp"
#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

// ---------------------------------------------------------------- loaders

// Source modifiers (chapter 5 "modifiers"): ~ (logic) acts on the source's
// bits in its own type; -, abs (arithmetic) on its value (intModified: in its
// own type where the destination is a float).
void intMod(const DInst& d, const DOperand& o, i128* out) {
  if (o.mod == Mod::None) return;
  if (o.mod == Mod::Not) {
    for (unsigned k = 0; k < d.exec; ++k) out[k] = extendInt(~lowBits(out[k], intBits(o.type)), o.type);
    return;
  }
  const bool toFloat = d.dst.kind == DOperand::Kind::Reg && isFloatType(d.dst.type);
  for (unsigned k = 0; k < d.exec; ++k) out[k] = intModified(out[k], o.mod, o.type, toFloat);
}

template <class T>
void loadIntReg(const Ctx& c, const DInst& d, const DOperand& o, i128* out) {
  o.off.each(d.exec, [&](unsigned k, uint32_t at) { out[k] = static_cast<i128>(c.reg<T>(at)); });
  intMod(d, o, out);
}
// A float-typed operand in an integer operation: its bits, zero-extended.
template <unsigned Bytes>
void loadIntRegBits(const Ctx& c, const DInst& d, const DOperand& o, i128* out) {
  o.off.each(d.exec, [&](unsigned k, uint32_t at) { out[k] = static_cast<i128>(c.regBits(at, Bytes)); });
  intMod(d, o, out);
}
void loadIntImm(const Ctx&, const DInst& d, const DOperand& o, i128* out) {
  Type t = isFloatType(o.type) ? (typeSize(o.type) == 8 ? Type::UQ : typeSize(o.type) == 2 ? Type::UW : Type::UD) : o.type;
  if (o.immPeriod == 1) {
    std::fill_n(out, d.exec, extendInt(o.imm[0], t));
  } else {
    i128 v[8];
    for (unsigned k = 0; k < o.immPeriod && k < 8; ++k) v[k] = extendInt(o.imm[k], t);
    for (unsigned k = 0; k < d.exec; ++k) out[k] = v[k % o.immPeriod];
  }
  intMod(d, o, out);
}
// Predicate source: "contiguous elements ... starting from the offset
// specified by the instruction's mask control" (chapter 5 "Predicate Operands").
void loadIntPred(const Ctx& c, const DInst& d, const DOperand& o, i128* out) {
  uint32_t p = c.t.preds[o.predId];
  for (unsigned k = 0; k < d.exec; ++k) {
    unsigned b = k + d.maskOff;
    out[k] = b < 32 ? (p >> b) & 1 : 0;
  }
  intMod(d, o, out);
}
// MOV page: a predicate source is "interpreted as an unsigned integer, with
// element 0 corresponding to the LSB"; bits past its size are zero (E13).
void loadIntPredWhole(const Ctx& c, const DInst& d, const DOperand& o, i128* out) {
  uint32_t p = c.t.preds[o.predId] & execMaskBits(o.predBits);
  for (unsigned k = 0; k < d.exec; ++k) out[k] = p;
}

template <Type T>
double fltBits(uint64_t bits) {
  return floatBitsToDouble(bits, T);
}
void fltMod(const DOperand& o, unsigned n, double* out) {
  switch (o.mod) {
    case Mod::Neg:
      for (unsigned k = 0; k < n; ++k) out[k] = -out[k];
      break;
    case Mod::Abs:
      for (unsigned k = 0; k < n; ++k) out[k] = std::fabs(out[k]);
      break;
    case Mod::NegAbs:
      for (unsigned k = 0; k < n; ++k) out[k] = -std::fabs(out[k]);
      break;
    default: break;
  }
}
template <Type T>
void loadFltReg(const Ctx& c, const DInst& d, const DOperand& o, double* out) {
  o.off.each(d.exec, [&](unsigned k, uint32_t at) { out[k] = fltBits<T>(c.regBits(at, typeSize(T))); });
  fltMod(o, d.exec, out);
}
void loadFltImm(const Ctx&, const DInst& d, const DOperand& o, double* out) {
  for (unsigned k = 0; k < d.exec; ++k) out[k] = floatBitsToDouble(o.imm[k % o.immPeriod], o.type);
  fltMod(o, d.exec, out);
}
// An integer source of a float operation (mixed types; spec-decisions E11):
// converted to the execution type, RTNE.
template <int W>
void loadFltFromInt(const Ctx& c, const DInst& d, const DOperand& o, double* out) {
  i128 tmp[32];
  d.iload[W](c, d, o, tmp);
  for (unsigned k = 0; k < d.exec; ++k) out[k] = roundTo(intToDouble(tmp[k], d.execType), d.execType);
}

IntLoad pickIntLoad(const DOperand& o) {
  switch (o.kind) {
    case DOperand::Kind::Imm: return loadIntImm;
    case DOperand::Kind::Pred: return o.wholePred ? loadIntPredWhole : loadIntPred;
    case DOperand::Kind::Reg: break;
    default: return loadIntImm;
  }
  switch (o.type) {
    case Type::UB: return loadIntReg<uint8_t>;
    case Type::B: return loadIntReg<int8_t>;
    case Type::UW: return loadIntReg<uint16_t>;
    case Type::W: return loadIntReg<int16_t>;
    case Type::UD: return loadIntReg<uint32_t>;
    case Type::D: return loadIntReg<int32_t>;
    case Type::UQ: return loadIntReg<uint64_t>;
    case Type::Q: return loadIntReg<int64_t>;
    default: break;
  }
  switch (typeSize(o.type)) {
    case 2: return loadIntRegBits<2>;
    case 8: return loadIntRegBits<8>;
    case 1: return loadIntRegBits<1>;
    default: return loadIntRegBits<4>;
  }
}
FltLoad pickFltLoad(const DOperand& o, int which) {
  if (!isFloatType(o.type) || o.kind == DOperand::Kind::Pred)
    return which == 0 ? loadFltFromInt<0> : loadFltFromInt<1>;
  if (o.kind == DOperand::Kind::Imm) return loadFltImm;
  switch (o.type) {
    case Type::DF: return loadFltReg<Type::DF>;
    case Type::HF: return loadFltReg<Type::HF>;
    case Type::BF: return loadFltReg<Type::BF>;
    default: return loadFltReg<Type::F>;
  }
}

// ---------------------------------------------------------------- stores

// Integer result -> destination type (2_datatypes.md "Type Conversion", "Saturation").
template <Type Dst>
void storeFromInt(Ctx& c, const DInst& d, uint32_t en, const i128* v) {
  constexpr unsigned size = Dst == Type::UB || Dst == Type::B ? 1 : Dst == Type::UW || Dst == Type::W || Dst == Type::HF || Dst == Type::BF ? 2 : Dst == Type::UQ || Dst == Type::Q || Dst == Type::DF ? 8 : 4;
  forEachLaneAt(en, d.exec, d.dst.off, [&](unsigned k, uint32_t at) {
    uint64_t bits;
    if constexpr (Dst == Type::F || Dst == Type::DF || Dst == Type::HF || Dst == Type::BF) {
      double x = roundTo(intToDouble(v[k], Dst == Type::F ? Type::F : Type::DF), Dst);  // "Integer to Float": RTNE
      if (d.sat) x = satFloat(x);
      bits = doubleToFloatBits(x, Dst, Dst);
    } else {
      bits = intToInt(v[k], Dst, d.sat);
    }
    c.setRegBits(at, size, bits);
  });
}
// Float result (already rounded to the execution type) -> destination type.
template <Type Dst>
void storeFromFlt(Ctx& c, const DInst& d, uint32_t en, const double* v) {
  constexpr unsigned size = Dst == Type::UB || Dst == Type::B ? 1 : Dst == Type::UW || Dst == Type::W || Dst == Type::HF || Dst == Type::BF ? 2 : Dst == Type::UQ || Dst == Type::Q || Dst == Type::DF ? 8 : 4;
  forEachLaneAt(en, d.exec, d.dst.off, [&](unsigned k, uint32_t at) {
    uint64_t bits;
    if constexpr (Dst == Type::F || Dst == Type::DF || Dst == Type::HF || Dst == Type::BF) {
      double x = d.sat ? satFloat(v[k]) : v[k];
      bits = doubleToFloatBits(x, Dst, d.execType);
    } else {
      bits = floatToInt(v[k], Dst);  // "Float to Integer": truncation, saturating
    }
    c.setRegBits(at, size, bits);
  });
}
// Element k of a predicate destination is bit k + the mask offset (bits past
// 31 are dropped): bit k of `bits` into it for each enabled lane k.
inline void setPredBits(Ctx& c, const DInst& d, uint32_t en, uint32_t bits) {
  uint32_t& p = c.t.preds[d.dst.predId];
  const uint32_t m = static_cast<uint32_t>(uint64_t{en} << d.maskOff);
  p = (p & ~m) | (static_cast<uint32_t>(uint64_t{bits} << d.maskOff) & m);
}
// Predicate destination of a logic operation: the result's LSB.
void storePredFromInt(Ctx& c, const DInst& d, uint32_t en, const i128* v) {
  uint32_t bits = 0;
  for (unsigned k = 0; k < d.exec; ++k) bits |= static_cast<uint32_t>(v[k] & 1) << k;
  setPredBits(c, d, en, bits);
}
void storePredFromFlt(Ctx& c, const DInst& d, uint32_t en, const double* v) {
  uint32_t bits = 0;
  for (unsigned k = 0; k < d.exec; ++k) bits |= uint32_t{v[k] != 0} << k;
  setPredBits(c, d, en, bits);
}
void storeNullInt(Ctx&, const DInst&, uint32_t, const i128*) {}
void storeNullFlt(Ctx&, const DInst&, uint32_t, const double*) {}

IntStore pickIntStore(const DOperand& o) {
  if (o.kind == DOperand::Kind::Pred) return storePredFromInt;
  if (o.kind != DOperand::Kind::Reg) return storeNullInt;
  switch (o.type) {
    case Type::UD: return storeFromInt<Type::UD>;
    case Type::D: return storeFromInt<Type::D>;
    case Type::UW: return storeFromInt<Type::UW>;
    case Type::W: return storeFromInt<Type::W>;
    case Type::UB: return storeFromInt<Type::UB>;
    case Type::B: return storeFromInt<Type::B>;
    case Type::UQ: return storeFromInt<Type::UQ>;
    case Type::Q: return storeFromInt<Type::Q>;
    case Type::F: return storeFromInt<Type::F>;
    case Type::DF: return storeFromInt<Type::DF>;
    case Type::HF: return storeFromInt<Type::HF>;
    case Type::BF: return storeFromInt<Type::BF>;
    default: return storeNullInt;
  }
}
FltStore pickFltStore(const DOperand& o) {
  if (o.kind == DOperand::Kind::Pred) return storePredFromFlt;
  if (o.kind != DOperand::Kind::Reg) return storeNullFlt;
  switch (o.type) {
    case Type::UD: return storeFromFlt<Type::UD>;
    case Type::D: return storeFromFlt<Type::D>;
    case Type::UW: return storeFromFlt<Type::UW>;
    case Type::W: return storeFromFlt<Type::W>;
    case Type::UB: return storeFromFlt<Type::UB>;
    case Type::B: return storeFromFlt<Type::B>;
    case Type::UQ: return storeFromFlt<Type::UQ>;
    case Type::Q: return storeFromFlt<Type::Q>;
    case Type::F: return storeFromFlt<Type::F>;
    case Type::DF: return storeFromFlt<Type::DF>;
    case Type::HF: return storeFromFlt<Type::HF>;
    case Type::BF: return storeFromFlt<Type::BF>;
    default: return storeNullFlt;
  }
}

// ---------------------------------------------------------------- operations

// The operation of each opcode: its functor in sem/ops.hpp (one semantics per
// operation, shared with the reference tier).
template <Opcode Op>
struct OpOf;
template <> struct OpOf<Opcode::MOV> { using T = ops::Mov; };
template <> struct OpOf<Opcode::ADD> { using T = ops::Add; };
template <> struct OpOf<Opcode::MUL> { using T = ops::Mul; };
template <> struct OpOf<Opcode::MAD> { using T = ops::Mad; };
template <> struct OpOf<Opcode::AND> { using T = ops::And; };
template <> struct OpOf<Opcode::OR> { using T = ops::Or; };
template <> struct OpOf<Opcode::XOR> { using T = ops::Xor; };
template <> struct OpOf<Opcode::NOT> { using T = ops::Not; };
template <> struct OpOf<Opcode::SHL> { using T = ops::Shl; };
template <> struct OpOf<Opcode::SHR> { using T = ops::Shr; };
template <> struct OpOf<Opcode::MULH> { using T = ops::Mulh; };
template <> struct OpOf<Opcode::ASR> { using T = ops::Asr; };
template <> struct OpOf<Opcode::AVG> { using T = ops::Avg; };
template <> struct OpOf<Opcode::RNDD> { using T = ops::Rndd; };
template <> struct OpOf<Opcode::RNDU> { using T = ops::Rndu; };
template <> struct OpOf<Opcode::RNDE> { using T = ops::Rnde; };
template <> struct OpOf<Opcode::RNDZ> { using T = ops::Rndz; };
template <> struct OpOf<Opcode::INV> { using T = ops::Inv; };
template <> struct OpOf<Opcode::LZD> { using T = ops::Lzd; };
template <> struct OpOf<Opcode::CBIT> { using T = ops::Cbit; };
template <> struct OpOf<Opcode::FBL> { using T = ops::Fbl; };
template <> struct OpOf<Opcode::BFREV> { using T = ops::Bfrev; };
template <> struct OpOf<Opcode::ROL> { using T = ops::Rol; };
template <> struct OpOf<Opcode::ROR> { using T = ops::Ror; };
template <Opcode Op>
using Op_t = typename OpOf<Op>::T;

constexpr int numSrcs(Opcode op) { return op == Opcode::MOV || op == Opcode::NOT ? 1 : 2; }

// The integer pipeline: sources loaded exactly, the operation F (a sem/ops
// functor), the result converted into the destination.
template <class F, int NSrc>
void intAluOf(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  i128 *a = c.ia.data(), *b = c.ib.data(), *r = c.ir.data();
  d.iload[0](c, d, d.src[0], a);
  if constexpr (NSrc == 2) d.iload[1](c, d, d.src[1], b);
  const ops::IntCtx ic{d.shiftMask, d.src0Bits};
  for (unsigned k = 0; k < d.exec; ++k) r[k] = F::exact(a[k], NSrc == 2 ? b[k] : 0, ic);
  d.istore(c, d, en, r);
}
template <Opcode Op>
void intAlu(Ctx& c, const DInst& d) {
  intAluOf<Op_t<Op>, numSrcs(Op)>(c, d);
}

// HF: "denorms are flushed to sign-preserved zero on input and output of any
// floating-point mathematical operation" (2_datatypes.md "IEEE Floating Point Mode").
inline double flushHf(double v) { return isDenormalIn(v, Type::HF) ? (std::signbit(v) ? -0.0 : 0.0) : v; }

template <Opcode Op>
void fltAlu(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  double *a = c.fa.data(), *b = c.fb.data(), *r = c.fr.data();
  d.fload[0](c, d, d.src[0], a);
  if constexpr (numSrcs(Op) == 2) d.fload[1](c, d, d.src[1], b);
  const bool hf = d.execType == Type::HF;
  for (unsigned k = 0; k < d.exec; ++k) {
    double x;
    if constexpr (Op == Opcode::ADD || Op == Opcode::MUL) {
      double p = hf ? flushHf(a[k]) : a[k], q = hf ? flushHf(b[k]) : b[k];
      x = Op_t<Op>::flt(p, q);
      x = roundTo(x, d.execType);
      if (hf) x = flushHf(x);
      if (std::isnan(x)) x = std::bit_cast<double>(canonicalNaN(Type::DF));  // E14
    } else {
      x = a[k];  // MOV
    }
    r[k] = x;
  }
  d.fstore(c, d, en, r);
}

// F and DF arithmetic whose rounding the forms above do not follow: an ADD,
// MUL or MAD of sources of the destination's type (F or DF), or a MOV of an
// integer to F or DF (floatShape). In a kernel that may set %cr0's rounding
// mode (E32, DInst::modeRounds) the mode is read each time: in RTNE the form
// the instruction has without it (DInst::nearFn) if any; in a directed mode
// the exact result rounded once in it (4_visa_header.md %cr0 bits 4-5). Each
// result is the semantics' (sem/arith.hpp arith, roundedInMode; Exec::storeInt).
Type floatShape(const DInst& d, Opcode op, int nsrc) {
  const Type t = d.dst.type;
  if (d.dst.kind != DOperand::Kind::Reg || d.dst.mod != Mod::None || (t != Type::F && t != Type::DF)) return Type::UD;
  auto regOrImm = [](const DOperand& o) { return o.kind == DOperand::Kind::Reg || o.kind == DOperand::Kind::Imm; };
  if (op == Opcode::MOV)
    return !d.floatDomain && regOrImm(d.src[0]) && isIntType(d.src[0].type) && d.src[0].type != Type::BOOL &&
                   !d.src[0].wholePred
               ? t
               : Type::UD;
  if ((op != Opcode::ADD && op != Opcode::MUL && op != Opcode::MAD) || !d.floatDomain || d.execType != t) return Type::UD;
  for (int s = 0; s < nsrc; ++s)
    if (!regOrImm(d.src[s]) || d.src[s].type != t) return Type::UD;
  return t;
}
// The sign of the exact sum of four doubles (none infinite, NaN or near
// overflow): Shewchuk's growing of a nonoverlapping expansion by TwoSum; its
// largest nonzero component has the sum's sign.
inline int signOfSum4(double x0, double x1, double x2, double x3) {
  double e[4] = {x0, 0, 0, 0};
  unsigned m = 1;
  for (double b : {x1, x2, x3}) {
    double q = b;
    for (unsigned i = 0; i < m; ++i) {
      const double sum = q + e[i], bb = sum - q, err = (q - (sum - bb)) + (e[i] - bb);
      e[i] = err;
      q = sum;
    }
    e[m++] = q;
  }
  for (unsigned i = 4; i-- > 0;)
    if (e[i] != 0) return e[i] > 0 ? 1 : -1;
  return 0;
}
// The exact result of sources a, b (c: MAD's) as its nearest double and the
// sign of the rest, as ops::Add / Mul / Mad::nearest give it. F: the product
// of two F values is exact in double (24 + 24 significant bits), so MUL's rest
// is 0 and MAD's sum is one TwoSum of doubles (no overflow from F values); NaN
// and infinite operands give a rest of 0 in both. DF: the product's rest is
// fma(a, b, -p), exact where p is far from underflow, and MAD's rest the
// sign of p + (that rest) + c - fma(a, b, c) (signOfSum4); elsewhere (tiny,
// huge or not finite) those functions themselves, in binary128.
template <Opcode Op, Type T>
inline ops::Nearest nearestOf(double a, double b, double c) {
  if constexpr (Op == Opcode::ADD) {
    return ops::Add::nearest(a, b);
  } else if constexpr (T == Type::DF) {
    const double p = a * b, ap = std::fabs(p);
    if constexpr (Op == Opcode::MUL) {
      if (ap >= 0x1p-960 && ap <= 0x1p1000) return {p, ops::signOfExact(std::fma(a, b, -p))};
      return ops::Mul::nearest(a, b);
    } else {
      const double r = std::fma(a, b, c), ac = std::fabs(c), ar = std::fabs(r);
      if (ap >= 0x1p-960 && ap <= 0x1p1000 && ac <= 0x1p1000 && ar <= 0x1p1000)
        return {r, signOfSum4(std::fma(a, b, -p), p, c, -r)};
      return ops::Mad::nearest({a, b, c, 0.0});
    }
  } else if constexpr (Op == Opcode::MUL) {
    return {a * b, 0};
  } else {
    const double p = a * b, s = p + c, bb = s - p;
    return {s, ops::signOfExact((p - (s - bb)) + (c - bb))};
  }
}
// %cr0's rounding mode, bits 5:4 (4_visa_header.md "FPU Rounding mode"), as the thread holds it now.
inline Rounding roundingMode(const Ctx& c, const DInst& d) {
  return static_cast<Rounding>((c.reg<uint32_t>(d.cr0Off) >> 4) & 3);
}
template <Opcode Op, Type T, bool Mode>
void floatForm(Ctx& c, const DInst& d) {
  Rounding rm = Rounding::Rtne;
  if constexpr (Mode) {
    rm = roundingMode(c, d);
    if (rm == Rounding::Rtne && d.nearFn) [[likely]] return d.nearFn(c, d);
  }
  const uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  if constexpr (Op == Opcode::MOV) {
    i128* a = c.ia.data();
    d.iload[0](c, d, d.src[0], a);
    forEachLaneAt(en, d.exec, d.dst.off, [&](unsigned k, uint32_t at) {
      const double x = rm != Rounding::Rtne ? intToFloatMode(a[k], T, rm) : roundTo(intToDouble(a[k], T), T);
      c.setRegBits(at, typeSize(T), doubleToFloatBits(d.sat ? satFloat(x) : x, T, T));
    });
  } else {
    constexpr unsigned nsrc = Op == Opcode::MAD ? 3 : 2;
    double v[3][32], *r = c.fr.data();
    for (unsigned s = 0; s < nsrc; ++s) {
      if (d.src[s].kind == DOperand::Kind::Imm) loadFltImm(c, d, d.src[s], v[s]);
      else loadFltReg<T>(c, d, d.src[s], v[s]);
    }
    for (unsigned k = 0; k < d.exec; ++k) {
      double x;
      if (rm != Rounding::Rtne) {
        const ops::Nearest n = nearestOf<Op, T>(v[0][k], v[1][k], nsrc == 3 ? v[2][k] : 0.0);
        x = roundMode(n.d, n.loSign, T, rm);
        if constexpr (Op != Opcode::MUL)
          if (n.d == 0 && n.loSign == 0) {  // (an exact zero sum: sem/arith.hpp roundedInMode)
            const auto [u, w] = Op_t<Op>::addends({v[0][k], v[1][k], nsrc == 3 ? v[2][k] : 0.0, 0.0});
            x = ops::exactZeroSum(x, rm, u, w);
          }
      } else {
        x = roundTo(pipeline::fltResult<Op_t<Op>, nsrc>({v[0][k], v[1][k], nsrc == 3 ? v[2][k] : 0.0, 0.0}, T), T);
      }
      if (std::isnan(x)) x = std::bit_cast<double>(canonicalNaN(Type::DF));  // E14
      r[k] = x;
    }
    d.fstore(c, d, en, r);
  }
}
template <bool Mode>
Handler floatFormOf(Opcode op, Type t) {
  auto of = [&]<Type T>() -> Handler {
    switch (op) {
      case Opcode::MOV: return floatForm<Opcode::MOV, T, Mode>;
      case Opcode::ADD: return floatForm<Opcode::ADD, T, Mode>;
      case Opcode::MUL: return floatForm<Opcode::MUL, T, Mode>;
      default: return floatForm<Opcode::MAD, T, Mode>;
    }
  };
  return t == Type::DF ? of.template operator()<Type::DF>() : of.template operator()<Type::F>();
}

// MOV with the same source and destination type and no modifier: a copy of the bits.
template <unsigned Bytes>
void movCopy(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  uint64_t tmp[32];  // all sources are read before any destination is written
  const DOperand& s = d.src[0];
  if (s.kind == DOperand::Kind::Imm) {
    for (unsigned k = 0; k < d.exec; ++k) tmp[k] = s.imm[k % s.immPeriod];
  } else {
    s.off.each(d.exec, [&](unsigned k, uint32_t at) { tmp[k] = c.regBits(at, Bytes); });
  }
  forEachLaneAt(en, d.exec, d.dst.off, [&](unsigned k, uint32_t at) { c.setRegBits(at, Bytes, tmp[k]); });
}

// SEL page: "if (EM[i]) dst[i] = Pred[i] ? src0[i] : src1[i]": the predicate
// selects, the execution mask enables. No predicate selects src0 (E16).
// The enabled lanes (EM, or all under NoMask; selEnables also counts them),
// and the lanes that take src0.
inline uint32_t selMask(const Ctx& c, const DInst& d) {
  const uint32_t all = execMaskBits(d.exec);
  return d.noMask ? all : (c.t.em >> d.maskOff) & all;
}
inline uint32_t selEnables(Ctx& c, const DInst& d) {
  const uint32_t en = selMask(c, d);
  c.lanes += laneCount(en);
  return en;
}
inline uint32_t selChoice(const Ctx& c, const DInst& d) { return d.predId ? predMask(c, d) : execMaskBits(d.exec); }
// The lane forms' start: the enabled lanes (none: nothing to do), counted, and
// the lanes that take src0.
struct SelLanes {
  uint32_t en = 0;
  unsigned lanes = 0;
  uint32_t p = 0;
};
// (N lanes from the mask offset: the halves of a SIMD32 SEL run as one, formRuns)
template <unsigned N>
inline SelLanes selLanes(Ctx& c, const DInst& d) {
  constexpr uint32_t all = execMaskBits(N);
  SelLanes s;
  s.en = d.noMask ? all : (c.t.em >> d.maskOff) & all;
  if (!s.en) return s;
  s.lanes = laneCountOf<N>(s.en);
  c.lanes += s.lanes;
  s.p = d.predId ? predMask(c, d, all) : all;
  return s;
}
// Lane k's choice of a (bit k of p set) or b, without a branch: predicates follow the data.
template <class T>
inline T pickLane(uint32_t p, unsigned k, T a, T b) {
  const T m = T{0} - static_cast<T>((p >> k) & 1);
  return (a & m) | (b & ~m);
}
// SEL in the general pipeline.
template <bool Float>
void selAlu(Ctx& c, const DInst& d) {
  const uint32_t en = selEnables(c, d);
  if (!en) return;
  const uint32_t p = selChoice(c, d);
  if constexpr (Float) {
    double *a = c.fa.data(), *b = c.fb.data();
    d.fload[0](c, d, d.src[0], a);
    d.fload[1](c, d, d.src[1], b);
    for (unsigned k = 0; k < d.exec; ++k) c.fr[k] = (p >> k) & 1 ? a[k] : b[k];
    d.fstore(c, d, en, c.fr.data());
  } else {
    i128 *a = c.ia.data(), *b = c.ib.data();
    d.iload[0](c, d, d.src[0], a);
    d.iload[1](c, d, d.src[1], b);
    for (unsigned k = 0; k < d.exec; ++k) c.ir[k] = (p >> k) & 1 ? a[k] : b[k];
    d.istore(c, d, en, c.ir.data());
  }
}

// CMP page: a predicate destination gets the result bits; a general one all
// ones or all zeros of its size. NaN compares unordered (ne true, others false).
// f(rel) with rel the relation op (0 eq, 1 ne, 2 gt, 3 ge, 4 lt, 5 le) as a
// function of two values or of two host vectors: chosen once, not per lane.
template <class F>
inline auto withRelation(unsigned op, F f) {
  switch (op) {
    case 0: return f([](auto x, auto y) { return x == y; });
    case 1: return f([](auto x, auto y) { return x != y; });
    case 2: return f([](auto x, auto y) { return x > y; });
    case 3: return f([](auto x, auto y) { return x >= y; });
    case 4: return f([](auto x, auto y) { return x < y; });
    default: return f([](auto x, auto y) { return x <= y; });
  }
}
template <class T>
inline bool relation(unsigned op, T a, T b) {
  return withRelation(op, [&](auto rel) { return static_cast<bool>(rel(a, b)); });
}
// relationBits of 32-bit lanes, four at a time: a vector compare (each lane
// all ones where the relation holds, as the scalar one for NaN too) and the
// lanes' sign bits as four result bits (SSE MOVMSKPS).
#if defined(__SSE2__)
using I4v = int32_t __attribute__((vector_size(16)));
using U4v = uint32_t __attribute__((vector_size(16)));
using F4v = float __attribute__((vector_size(16)));
template <class T, unsigned N>
uint32_t relationBits4(unsigned op, const T* a, const T* b) {
  using VT = std::conditional_t<std::is_same_v<T, float>, F4v, std::conditional_t<std::is_signed_v<T>, I4v, U4v>>;
  auto all = [&](auto rel) {
    uint32_t r = 0;
    for (unsigned k = 0; k < N; k += 4) {
      VT x, y;
      std::memcpy(&x, a + k, 16);
      std::memcpy(&y, b + k, 16);
      const auto m = rel(x, y);
      r |= static_cast<uint32_t>(__builtin_ia32_movmskps(reinterpret_cast<F4v>(m))) << k;
    }
    return r;
  };
  return withRelation(op, all);
}
#endif
// The relation of every lane k < n of a and b, bit k of the result; the relation
// chosen once, not per lane.
template <class T, unsigned N = 0>
uint32_t relationBits(unsigned op, const T* a, const T* b, unsigned n = N) {
#if defined(__SSE2__)
  if constexpr (sizeof(T) == 4 && N >= 4 && N % 4 == 0) return relationBits4<T, N>(op, a, b);
#endif
  return withRelation(op, [&](auto rel) {
    uint32_t r = 0;
    for (unsigned k = 0; k < (N ? N : n); ++k) r |= uint32_t{rel(a[k], b[k])} << k;
    return r;
  });
}

void storeRelation(Ctx& c, const DInst& d, uint32_t en, uint32_t res);
template <bool Float>
void cmpAlu(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);  // no predication: EM (or NoMask) only
  c.lanes += laneCount(en);
  if (!en) return;
  uint32_t res = 0;
  if constexpr (Float) {
    d.fload[0](c, d, d.src[0], c.fa.data());
    d.fload[1](c, d, d.src[1], c.fb.data());
    res = relationBits(d.relop, c.fa.data(), c.fb.data(), d.exec);
  } else {
    d.iload[0](c, d, d.src[0], c.ia.data());
    d.iload[1](c, d, d.src[1], c.ib.data());
    res = relationBits(d.relop, c.ia.data(), c.ib.data(), d.exec);
  }
  storeRelation(c, d, en, res);
}
// CMP's result for the enabled lanes: predicate bits, or all ones / zeros of a register element.
void storeRelation(Ctx& c, const DInst& d, uint32_t en, uint32_t res) {
  if (d.dst.kind == DOperand::Kind::Pred) {
    setPredBits(c, d, en, res);
  } else if (d.dst.kind == DOperand::Kind::Reg) {
    const unsigned size = typeSize(d.dst.type);
    forEachLaneAt(en, d.exec, d.dst.off, [&](unsigned k, uint32_t at) { c.setRegBits(at, size, (res >> k) & 1 ? ~uint64_t{0} : 0); });
  }
}

// SETP page: a scalar src0 gives dst element i its bit i, for every i < exec;
// a vector src0 gives enabled element i the LSB of src0[i]. Element i of the
// destination is bit i + mask offset ("lower/upper 16 dst elements are updated
// based on the mask control").
void setpAlu(Ctx& c, const DInst& d) {
  const DOperand& s = d.src[0];
  uint32_t en, bits;
  if (d.scalarSrc && s.kind == DOperand::Kind::Imm && s.mod == Mod::None) {
    en = execMaskBits(d.exec);
    bits = static_cast<uint32_t>(lowBits(static_cast<i128>(s.imm[0]), intBits(s.type))) & en;
  } else if (d.scalarSrc) {
    d.iload[0](c, d, s, c.ia.data());
    en = execMaskBits(d.exec);
    bits = static_cast<uint32_t>(lowBits(c.ia[0], intBits(s.type))) & en;
  } else {
    d.iload[0](c, d, s, c.ia.data());
    en = chEn(c, d);
    bits = 0;
    for (unsigned k = 0; k < d.exec; ++k) bits |= static_cast<uint32_t>(c.ia[k] & 1) << k;
  }
  c.lanes += laneCount(en);
  setPredBits(c, d, en, bits);
}

// Fast handlers, chosen at decode for the common shape: an integer destination
// of at most 32 bits (its low bits of a 32-bit result: storeNarrow) with
// integer sources of at most 32 bits (or F with F sources: ADD, MUL), register
// or immediate, no modifier, no .sat. The sources are read into lane arrays of
// 32 bits, computed over the N = exec lanes in a loop the compiler vectorises,
// and written back in one copy when the destination is contiguous and every
// lane is enabled. Same bits as the general pipeline:
//   - an integer source is sign/zero extended (E13); the exact result of ADD,
//     MUL, AND, OR, XOR, NOT, SHL truncated to 32 bits equals the result of the
//     32-bit wrapping operation on the extended values; SHR needs src0's own
//     bits, so a signed narrow src0 is not taken here (E18);
//   - F + and * in float equal double-then-round (binary64 has over 2 x 24 + 2
//     bits); F denormals are kept (E22); NaN is canonical (E14).

// Extension of an integer element's bits to 32 (E13).
inline uint32_t ext32(uint64_t bits, Type t) {
  switch (t) {
    case Type::W: return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(bits)));
    case Type::UW: return static_cast<uint16_t>(bits);
    case Type::B: return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(bits)));
    case Type::UB: return static_cast<uint8_t>(bits);
    default: return static_cast<uint32_t>(bits);
  }
}

// Four lanes as one value (GCC/Clang vector extension; SSE2 on x86-64).
using V4 = uint32_t __attribute__((vector_size(16)));
using F4 = float __attribute__((vector_size(16)));
inline float asFloat(uint32_t v) { return std::bit_cast<float>(v); }
inline F4 asFloat(V4 v) { return reinterpret_cast<F4>(v); }
inline uint32_t asBits(float x) { return std::bit_cast<uint32_t>(x); }
inline V4 asBits(F4 x) { return reinterpret_cast<V4>(x); }
inline uint32_t nanMask(float x) { return x != x ? 0xffffffffu : 0u; }
inline V4 nanMask(F4 x) { return reinterpret_cast<V4>(x != x); }

// Lanes 0-3 of `bits` (its low four bits) as four dwords, all ones where a lane is on.
inline V4 laneMask4(uint32_t bits) {
  static constexpr auto kMasks = [] {
    std::array<std::array<uint32_t, 4>, 16> m{};
    for (unsigned b = 0; b < 16; ++b)
      for (unsigned l = 0; l < 4; ++l) m[b][l] = (b >> l) & 1 ? 0xffffffffu : 0;
    return m;
  }();
  V4 v;
  std::memcpy(&v, kMasks[bits & 15].data(), 16);
  return v;
}
// Lanes k..k+3 of a Pair operand at p (its lane 0): the even dwords of two
// 16-byte loads. (The second load ends 4 bytes past lane k+3: inside the
// register file, whose kRegPad bytes follow every variable.)
inline V4 pairLoad4(const uint8_t* p, unsigned k) {
  V4 x, y;
  std::memcpy(&x, p + 8 * k, 16);
  std::memcpy(&y, p + 8 * k + 16, 16);
  return __builtin_shufflevector(x, y, 0, 2, 4, 6);
}
// Four lanes v into the dwords at p where `on`; the others written back unchanged.
inline void blend4(uint8_t* p, V4 v, V4 on) {
  V4 old;
  std::memcpy(&old, p, 16);
  old = (v & on) | (old & ~on);
  std::memcpy(p, &old, 16);
}
// Four lanes v into every other dword from p (Pair lanes k..k+3 at p + 8 * k)
// where `on`: two lanes per 16 bytes, the other halves written back unchanged.
inline void blendPair4(uint8_t* p, V4 v, V4 on) {
  const V4 zero{};
  blend4(p, __builtin_shufflevector(v, v, 0, 0, 1, 1), __builtin_shufflevector(on, zero, 0, 4, 1, 4));
  blend4(p + 16, __builtin_shufflevector(v, v, 2, 2, 3, 3), __builtin_shufflevector(on, zero, 2, 4, 3, 4));
}

// Two 64-bit lanes as one value.
using Q2 = uint64_t __attribute__((vector_size(16)));
// Lanes k..k+3's enables (laneMask4) as the masks of lanes k, k+1 (H = 0) or k+2, k+3 (H = 1).
template <unsigned H>
inline V4 pairMask(V4 on) {
  return H == 0 ? __builtin_shufflevector(on, on, 0, 0, 1, 1) : __builtin_shufflevector(on, on, 2, 2, 3, 3);
}
// Two 64-bit lanes of D get r where their bits of `on` are set (All: every lane on).
template <unsigned H, bool All = false>
inline void putPair(uint8_t* D, Q2 r, V4 on) {
  if constexpr (All) std::memcpy(D, &r, 16);
  else blend4(D, reinterpret_cast<V4>(r), pairMask<H>(on));
}
// pair.template operator()<H, false>(k, on) for lanes k, k+1 (H = 0) and
// k+2, k+3 (H = 1) of every four of N, on their enables (laneMask4).
template <unsigned N, class P>
inline void forEachPairSome(uint32_t en, P pair) {
  for (unsigned k = 0; k < N; k += 4) {
    const V4 on = laneMask4(en >> k);
    pair.template operator()<0, false>(k, on);
    pair.template operator()<1, false>(k, on);
  }
}
// forEachPairSome, but with every lane enabled its own loop (All), which needs no masks.
template <unsigned N, class P>
inline void forEachPair(uint32_t en, P pair) {
  if (en == execMaskBits(N)) {
    for (unsigned k = 0; k < N; k += 4) {
      pair.template operator()<0, true>(k, V4{});
      pair.template operator()<1, true>(k, V4{});
    }
    return;
  }
  forEachPairSome<N>(en, pair);
}

template <unsigned N, class S>
inline void loadRegLanes(const uint8_t* regs, const DOperand& o, uint32_t* out) {
  if (o.shape == DOperand::Shape::Bcast) {
    S v;
    std::memcpy(&v, regs + o.off[0], sizeof(S));
    for (unsigned k = 0; k < N; ++k) out[k] = static_cast<uint32_t>(v);
  } else if (o.shape == DOperand::Shape::Contig) {
    S v[N];
    copyFixed<sizeof v>(v, regs + o.off[0]);
    for (unsigned k = 0; k < N; ++k) out[k] = static_cast<uint32_t>(v[k]);
  } else {
    o.off.each(N, [&](unsigned k, uint32_t at) {
      S v;
      std::memcpy(&v, regs + at, sizeof(S));
      out[k] = static_cast<uint32_t>(v);
    });
  }
}

// A 32-bit lane's value as its source type's signedness says (an extension to
// 32 bits keeps it).
inline int64_t value32(bool isSigned, uint32_t v) { return isSigned ? int64_t{static_cast<int32_t>(v)} : int64_t{v}; }
// A source modifier on a 32-bit lane (chapter 5 "modifiers"; DOperand::Mod32, set by
// fastMod): on F the sign bit (negation and absolute value are exact), on an
// extended integer the wrapping operation, which the 32-bit truncation of an
// ADD or MUL result cannot tell from the exact one.
inline uint32_t mod32(DOperand::Mod32 m, uint32_t v) {
  using M = DOperand::Mod32;
  switch (m) {
    case M::FNeg: return v ^ 0x80000000u;
    case M::FAbs: return v & 0x7fffffffu;
    case M::FNegAbs: return v | 0x80000000u;
    case M::INeg: return 0u - v;
    case M::IAbs: return static_cast<int32_t>(v) < 0 ? 0u - v : v;
    case M::INegAbs: return static_cast<int32_t>(v) < 0 ? v : 0u - v;
    case M::INot: return ~v;
    default: return v;
  }
}

// Source lanes as 32-bit values: integers extended, F as its bits.
template <unsigned N>
[[gnu::always_inline]] inline void loadLanesRaw(const Ctx& c, const DOperand& o, uint32_t* out) {
  const uint8_t* regs = c.t.regs.data();
  switch (o.load32) {
    case DOperand::Load32::Contig: copyFixed<4 * N>(out, regs + o.off[0]); return;
    case DOperand::Load32::Bcast: {
      uint32_t v;
      std::memcpy(&v, regs + o.off[0], 4);
      for (unsigned k = 0; k < N; ++k) out[k] = v;
      return;
    }
    case DOperand::Load32::Imm:
      if constexpr (N % 8 == 0) {
        for (unsigned k = 0; k < N; k += 8) copyFixed<32>(out + k, o.imm32.data());
      } else {
        for (unsigned k = 0; k < N; ++k) out[k] = o.imm32[k];
      }
      return;
    case DOperand::Load32::Gen:
      o.off.each(N, [&](unsigned k, uint32_t at) { std::memcpy(&out[k], regs + at, 4); });
      return;
    case DOperand::Load32::Pair:
      if constexpr (N % 4 == 0) {
        for (unsigned k = 0; k < N; k += 4) {
          const V4 v = pairLoad4(regs + o.off[0], k);
          std::memcpy(out + k, &v, 16);
        }
        return;
      }
      for (unsigned k = 0; k < N; ++k) std::memcpy(&out[k], regs + o.off[0] + 8 * k, 4);
      return;
    default: break;
  }
  switch (o.type) {
    case Type::UW: return loadRegLanes<N, uint16_t>(regs, o, out);
    case Type::W: return loadRegLanes<N, int16_t>(regs, o, out);
    case Type::UB: return loadRegLanes<N, uint8_t>(regs, o, out);
    default: return loadRegLanes<N, int8_t>(regs, o, out);
  }
}

template <unsigned N>
[[gnu::always_inline]] inline void loadLanes(const Ctx& c, const DOperand& o, uint32_t* out) {
  loadLanesRaw<N>(c, o, out);
  if (o.mod32 != DOperand::Mod32::None && o.load32 != DOperand::Load32::Imm)
    for (unsigned k = 0; k < N; ++k) out[k] = mod32(o.mod32, out[k]);
}

// A 4-byte register operand of more than one lane at 8-byte steps (Load32::Pair),
// whose 16-byte steps (pairLoad4, blendPair4) stay inside a register file of regBytes.
bool pairLanes(const DOperand& o, unsigned exec, uint32_t regBytes) {
  if (o.kind != DOperand::Kind::Reg || typeSize(o.type) != 4 || exec < 2 || exec > o.off.size()) return false;
  if (o.off[0] + 8 * exec > regBytes) return false;
  for (unsigned k = 1; k < exec; ++k)
    if (o.off[k] != o.off[0] + 8 * k) return false;
  return true;
}
// Lane k's 32 bits of an immediate source (k < 8: a packed vector's period), its modifier applied.
uint32_t imm32Of(const DOperand& o, unsigned k) { return mod32(o.mod32, ext32(o.imm[k % o.immPeriod], o.type)); }
// The Load32 view of a source the vector handlers take (fastIntSrc / fastFltSrc),
// its modifier already set (fastMod).
void setLoad32(DOperand& o, unsigned exec, uint32_t regBytes) {
  if (o.kind == DOperand::Kind::Imm) {
    o.load32 = DOperand::Load32::Imm;
    for (unsigned k = 0; k < 8; ++k) o.imm32[k] = imm32Of(o, k);
    return;
  }
  if (typeSize(o.type) != 4) {
    o.load32 = DOperand::Load32::Narrow;
    return;
  }
  o.load32 = o.shape == DOperand::Shape::Contig ? DOperand::Load32::Contig
             : o.shape == DOperand::Shape::Bcast ? DOperand::Load32::Bcast
             : pairLanes(o, exec, regBytes)      ? DOperand::Load32::Pair
                                                 : DOperand::Load32::Gen;
}

// The enabled lanes of r to a destination whose lanes are not consecutive, all
// N lanes in turn without a branch on the mask: a disabled lane's element is
// read just before it is written back, so lanes that share bytes end as if it
// were skipped.
// (at(k): lane k's byte offset)
template <class T, unsigned N, class At>
inline void blendAt(uint8_t* regs, uint32_t en, const T* r, At at) {
  for (unsigned k = 0; k < N; ++k) {
    T old;
    std::memcpy(&old, regs + at(k), sizeof(T));
    const T on = T{0} - static_cast<T>((en >> k) & 1);
    const T v = (r[k] & on) | (old & ~on);
    std::memcpy(regs + at(k), &v, sizeof(T));
  }
}
template <class T, unsigned N>
inline void blendLanes(uint8_t* regs, const DOperand& dst, uint32_t en, const T* r) {
  blendAt<T, N>(regs, en, r, [&](unsigned k) { return dst.off[k]; });
}
// A W, UW, B or UB destination takes each lane's low bits: for the operations
// of these handlers they are the exact result's, truncated (2_datatypes.md
// "Type Conversion"; no .sat here).
template <unsigned N, class T>
void storeNarrow(Ctx& c, const DOperand& dst, uint32_t en, const uint32_t* r) {
  uint8_t* regs = c.t.regs.data();
  if (dst.shape == DOperand::Shape::Contig && en == execMaskBits(N)) {
    T v[N];
    for (unsigned k = 0; k < N; ++k) v[k] = static_cast<T>(r[k]);
    return copyFixed<sizeof v>(regs + dst.off[0], v);
  }
  forEachLane(en, [&](unsigned k) {
    const T v = static_cast<T>(r[k]);
    std::memcpy(regs + dst.off[k], &v, sizeof(T));
  });
}
// The enabled lanes of r four at a time into consecutive dwords at p, or into
// Pair lanes from p (blend4, blendPair4).
template <unsigned N, bool Pair>
inline void blendFours(uint8_t* p, uint32_t en, const uint32_t* r) {
  for (unsigned k = 0; k < N; k += 4) {
    V4 x;
    std::memcpy(&x, r + k, 16);
    if constexpr (Pair) blendPair4(p + 8 * k, x, laneMask4(en >> k));
    else blend4(p + 4 * k, x, laneMask4(en >> k));
  }
}
// The enabled lanes of r to destination dst (lanes: their count, laneCount(en)).
template <unsigned N>
inline void storeLanesTo(Ctx& c, const DOperand& dst, uint32_t en, unsigned lanes, const uint32_t* r) {
  if (const unsigned size = typeSize(dst.type); size != 4) [[unlikely]]
    return size == 2 ? storeNarrow<N, uint16_t>(c, dst, en, r) : storeNarrow<N, uint8_t>(c, dst, en, r);
  uint8_t* regs = c.t.regs.data();
  if (dst.shape == DOperand::Shape::Contig) {
    if (en == execMaskBits(N)) return copyFixed<N * 4>(regs + dst.off[0], r);
    // Some lanes: the destination's dwords, the enabled ones replaced (a
    // disabled lane's dword is written back unchanged), in one pass.
    if constexpr (N % 4 == 0) return blendFours<N, false>(regs + dst.off[0], en, r);
  }
  if (dst.load32 == DOperand::Load32::Pair) {
    // One half of each qword, at fixed offsets: the other half goes back unchanged.
    if constexpr (N % 4 == 0) return blendFours<N, true>(regs + dst.off[0], en, r);
    auto at = [&](unsigned k) { return dst.off[0] + 8 * k; };
    if (en != execMaskBits(N)) return blendAt<uint32_t, N>(regs, en, r, at);
    for (unsigned k = 0; k < N; ++k) std::memcpy(regs + at(k), &r[k], 4);
    return;
  }
  if (en == execMaskBits(N)) return dst.off.each(N, [&](unsigned k, uint32_t at) { std::memcpy(regs + at, &r[k], 4); });
  if (lanes <= N / 4) return forEachLane(en, [&](unsigned k) { std::memcpy(regs + dst.off[k], &r[k], 4); });
  blendLanes<uint32_t, N>(regs, dst, en, r);
}
template <unsigned N>
inline void storeLanes(Ctx& c, const DInst& d, uint32_t en, unsigned lanes, const uint32_t* r) {
  storeLanesTo<N>(c, d.dst, en, lanes, r);
}

// The operation of the vector ALU handlers on one lane (U = uint32_t) or four
// (U = V4): 32-bit values, F as its bits.
template <Opcode Op, bool Float, class U>
inline U op32(U a, U b) {
  if constexpr (Float && Op != Opcode::MOV) {
    auto x = Op_t<Op>::f32(asFloat(a), asFloat(b));
    const U nan = nanMask(x);
    return (asBits(x) & ~nan) | (nan & 0x7fc00000u);  // E14
  } else {
    return Op_t<Op>::template u32<U>(a, b);
  }
}

// (lanes: laneCount(en), en not 0)
template <Opcode Op, bool Float, unsigned N>
[[gnu::always_inline]] inline void vecAluBody(Ctx& c, const DInst& d, uint32_t en, unsigned lanes) {
  c.lanes += lanes;
  uint32_t a[N], b[N], r[N];  // all sources are read before any destination is written
  loadLanes<N>(c, d.src[0], a);
  if constexpr (numSrcs(Op) == 2) loadLanes<N>(c, d.src[1], b);
  else std::fill_n(b, N, 0u);
  if constexpr (Op == Opcode::SHL || Op == Opcode::SHR) {
    const DOperand& s1 = d.src[1];
    if ((s1.kind == DOperand::Kind::Imm && s1.immPeriod == 1) || s1.load32 == DOperand::Load32::Bcast) {
      const uint32_t n = b[0] & 31;  // one count for every lane: a vector shift
      for (unsigned k = 0; k < N; ++k) r[k] = Op == Opcode::SHL ? a[k] << n : a[k] >> n;
    } else {
      for (unsigned k = 0; k < N; ++k) r[k] = op32<Op, Float>(a[k], b[k]);
    }
  } else {
    for (unsigned k = 0; k < N; ++k) r[k] = op32<Op, Float>(a[k], b[k]);
  }
  storeLanes<N>(c, d, en, lanes, r);
}
template <Opcode Op, bool Float, unsigned N>
void vecAlu(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (en) vecAluBody<Op, Float, N>(c, d, en, laneCountOf<N>(en));
}

// SEL of integers of at most 32 bits without modifiers (pickFastShape): the
// predicate's choice of the sources' 32-bit extensions, lane by lane without a
// branch; a narrower destination keeps the low bits (as MOV).
template <unsigned N>
void vecSel(Ctx& c, const DInst& d) {
  const SelLanes s = selLanes<N>(c, d);
  if (!s.en) return;
  uint32_t a[N], b[N];
  loadLanes<N>(c, d.src[0], a);
  loadLanes<N>(c, d.src[1], b);
  for (unsigned k = 0; k < N; ++k) a[k] = pickLane(s.p, k, a[k], b[k]);
  storeLanes<N>(c, d, s.en, s.lanes, a);
}
template <Opcode, bool, unsigned N>
struct SelH {
  static constexpr Handler fn = vecSel<N>;
};

// MOV of 4-byte lanes to a 4-byte destination without a modifier (pickMovLanes):
// the source's bits (MOV page: a D, UD or F source in a destination of its
// size keeps them, as the pipeline's exact value truncated, E13), read four
// lanes at a time from the source's shape S (all before any is written) and
// written to consecutive dwords or to Pair lanes (DstPair), the disabled ones
// unchanged: IGC's splitting and joining of 64-bit values' halves, broadcasts.
template <unsigned N, DOperand::Load32 S, bool DstPair>
void movLanes(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  c.lanes += laneCountOf<N>(en);
  uint8_t* regs = c.t.regs.data();
  const DOperand& s = d.src[0];
  V4 v[N / 4];
  if constexpr (S == DOperand::Load32::Bcast) {
    uint32_t x;
    std::memcpy(&x, regs + s.off[0], 4);
    for (V4& q : v) q = V4{x, x, x, x};
  } else {
    for (unsigned k = 0; k < N / 4; ++k) {
      if constexpr (S == DOperand::Load32::Contig) std::memcpy(&v[k], regs + s.off[0] + 16 * k, 16);
      else if constexpr (S == DOperand::Load32::Pair) v[k] = pairLoad4(regs + s.off[0], 4 * k);
      else std::memcpy(&v[k], s.imm32.data() + (4 * k) % 8, 16);  // (Imm: lanes k & 7)
    }
  }
  uint8_t* p = regs + d.dst.off[0];
  if constexpr (!DstPair)
    if (en == execMaskBits(N)) return copyFixed<4 * N>(p, v);
  for (unsigned k = 0; k < N / 4; ++k) {
    const V4 on = laneMask4(en >> (4 * k));
    if constexpr (DstPair) blendPair4(p + 32 * k, v[k], on);
    else blend4(p + 16 * k, v[k], on);
  }
}
template <unsigned N, DOperand::Load32 S>
Handler movLanesTo(const DOperand& dst) {
  if (dst.load32 == DOperand::Load32::Pair) return movLanes<N, S, true>;
  return dst.shape == DOperand::Shape::Contig ? movLanes<N, S, false> : nullptr;
}
template <unsigned N>
Handler movLanesOf(const DInst& d) {
  switch (d.src[0].load32) {
    case DOperand::Load32::Contig: return movLanesTo<N, DOperand::Load32::Contig>(d.dst);
    case DOperand::Load32::Pair: return movLanesTo<N, DOperand::Load32::Pair>(d.dst);
    case DOperand::Load32::Bcast: return movLanesTo<N, DOperand::Load32::Bcast>(d.dst);
    case DOperand::Load32::Imm: return movLanesTo<N, DOperand::Load32::Imm>(d.dst);
    default: return nullptr;
  }
}
// movLanes for a MOV the vector handlers take (its sources' Load32 and Mod32
// set), if its shapes allow: SIMD4 to SIMD32, a 4-byte destination, a source
// of 4-byte lanes without a modifier (an immediate's is in its imm32).
Handler pickMovLanes(const DInst& d) {
  const DOperand& s = d.src[0];
  if (typeSize(d.dst.type) != 4 || (s.mod32 != DOperand::Mod32::None && s.load32 != DOperand::Load32::Imm)) return nullptr;
  return byExecSize(d.exec, [&]<unsigned N>() -> Handler {
    if constexpr (N % 4 == 0) return movLanesOf<N>(d);
    else return nullptr;
  });
}

// MOV page: MOV of consecutive B, UB, W or UW lanes into consecutive D or UD lanes
// without a modifier (pickMovWiden; IGC's uchar and short loads widened): vecAlu's
// MOV with the source type known (loadRegLanes of S: each lane's value extended
// by its type, ext32), all read before any is written (storeLanes).
template <unsigned N, class S>
void movWiden(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  const unsigned lanes = laneCountOf<N>(en);
  c.lanes += lanes;
  uint32_t r[N];
  loadRegLanes<N, S>(c.t.regs.data(), d.src[0], r);
  storeLanes<N>(c, d, en, lanes, r);
}
Handler pickMovWiden(const DInst& d) {
  const DOperand& s = d.src[0];
  if (s.kind != DOperand::Kind::Reg || s.shape != DOperand::Shape::Contig || s.mod != Mod::None) return nullptr;
  if (d.dst.shape != DOperand::Shape::Contig || (d.dst.type != Type::D && d.dst.type != Type::UD)) return nullptr;
  return byExecSize(d.exec, [&]<unsigned N>() -> Handler {
    if constexpr (N % 4 != 0) {
      return nullptr;
    } else {
      switch (s.type) {
        case Type::B: return movWiden<N, int8_t>;
        case Type::UB: return movWiden<N, uint8_t>;
        case Type::W: return movWiden<N, int16_t>;
        case Type::UW: return movWiden<N, uint16_t>;
        default: return nullptr;
      }
    }
  });
}

// The start of a handler on 32-bit lanes: the enabled lanes counted (none:
// nothing to do) and its NSrc sources loaded (loadLanes); then f(src, en,
// lanes) computes and stores.
template <unsigned N, unsigned NSrc, class F>
[[gnu::always_inline]] inline void onLanes32(Ctx& c, const DInst& d, F f) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  const unsigned lanes = laneCountOf<N>(en);
  c.lanes += lanes;
  uint32_t src[NSrc][N];
  for (unsigned i = 0; i < NSrc; ++i) loadLanes<N>(c, d.src[i], src[i]);
  f(src, en, lanes);
}

// ADD3 (dst = src0 + src1 + src2) and BFN (A8: each bit of dst is the bit of
// BooleanFuncCtrl the sources' bits select, ops::bfn) on integers of at most 32
// bits: the low 32 bits of the exact sum are the wrapping sum of the sources'
// extensions, and the low bits of ops::bfn on the extensions are ops::bfn on
// their low bits; a narrower destination keeps its low bits.
template <Opcode Op, unsigned N>
void vecAlu3(Ctx& c, const DInst& d) {
  onLanes32<N, 3>(c, d, [&](uint32_t (&v)[3][N], uint32_t en, unsigned lanes) {
    if constexpr (Op == Opcode::ADD3) {
      for (unsigned k = 0; k < N; ++k) v[0][k] += v[1][k] + v[2][k];
    } else {
      for (unsigned k = 0; k < N; ++k) v[0][k] = static_cast<uint32_t>(ops::bfn(d.lut, v[0][k], v[1][k], v[2][k]));
    }
    storeLanes<N>(c, d, en, lanes, v[0]);
  });
}
template <Opcode Op, bool, unsigned N>
struct Alu3H {
  static constexpr Handler fn = vecAlu3<Op, N>;
};

// DIV and MOD pages on integers of at most 32 bits without modifiers or .sat:
// the exact quotient (toward zero) or remainder (the dividend's sign) of the
// sources' values (E13, value32), the destination taking its low bits; by zero
// (A7) DIV gives -1 or the destination type's maximum, both all ones in its
// bits, and MOD the dividend (sem/ops_alu.hpp Div, Mod). An int64 holds every
// such quotient exactly (no INT64_MIN / -1: the values have 33 bits at most).
template <bool IsMod, unsigned N>
void vecDivMod(Ctx& c, const DInst& d) {
  onLanes32<N, 2>(c, d, [&](uint32_t (&v)[2][N], uint32_t en, unsigned lanes) {
    const bool s0 = isSignedInt(d.src[0].type), s1 = isSignedInt(d.src[1].type);
    uint32_t r[N];
    for (unsigned k = 0; k < N; ++k) {
      const int64_t a = value32(s0, v[0][k]), b = value32(s1, v[1][k]);
      if (b == 0) r[k] = IsMod ? static_cast<uint32_t>(a) : ~0u;
      else r[k] = static_cast<uint32_t>(IsMod ? a % b : a / b);
    }
    storeLanes<N>(c, d, en, lanes, r);
  });
}
template <Opcode Op, bool, unsigned N>
struct DivModH {
  static constexpr Handler fn = vecDivMod<Op == Opcode::MOD, N>;
};
// ASR page on integers of at most 32 bits without modifiers or .sat: src0's
// value (E13: a signed source's sign fills) shifted right by the count's low 5
// bits (ops::Asr; DInst::shiftMask is 31 for these destinations), the
// destination taking the low bits: those of the 32-bit extension shifted
// (Signed: src0 is). OneB: the count is one value (a loop the compiler
// vectorises).
template <unsigned N, bool Signed, bool OneB>
void vecAsr(Ctx& c, const DInst& d) {
  onLanes32<N, 2>(c, d, [&](uint32_t (&v)[2][N], uint32_t en, unsigned lanes) {
    uint32_t r[N];
    auto shift = [](uint32_t a, unsigned s) {
      return Signed ? static_cast<uint32_t>(static_cast<int32_t>(a) >> s) : a >> s;
    };
    if constexpr (OneB) {
      const unsigned s = v[1][0] & 31;
      for (unsigned k = 0; k < N; ++k) r[k] = shift(v[0][k], s);
    } else {
      for (unsigned k = 0; k < N; ++k) r[k] = shift(v[0][k], v[1][k] & 31);
    }
    storeLanes<N>(c, d, en, lanes, r);
  });
}
template <bool Signed, bool OneB>
struct AsrOf {
  template <Opcode, bool, unsigned N>
  struct H {
    static constexpr Handler fn = vecAsr<N, Signed, OneB>;
  };
};

// MADW page on integers of at most 32 bits without modifiers: the exact
// src0 * src1 + src2, whose low 64 bits are the wrapping 64-bit operation on
// the sources' 64-bit extensions; the low 32 bits to Dst's lanes, the high 32
// bits DInst::hiOff bytes after each (A20).
template <unsigned N>
void vecMadw(Ctx& c, const DInst& d) {
  onLanes32<N, 3>(c, d, [&](uint32_t (&v)[3][N], uint32_t en, unsigned lanes) {
    auto wide = [&](unsigned s, unsigned k) {
      return isSignedInt(d.src[s].type) ? static_cast<uint64_t>(int64_t{static_cast<int32_t>(v[s][k])}) : uint64_t{v[s][k]};
    };
    uint32_t hi[N];
    for (unsigned k = 0; k < N; ++k) {
      const uint64_t r = wide(0, k) * wide(1, k) + wide(2, k);
      v[0][k] = static_cast<uint32_t>(r);
      hi[k] = static_cast<uint32_t>(r >> 32);
    }
    storeLanes<N>(c, d, en, lanes, v[0]);
    forEachLane(en, [&](unsigned k) { writeRegBits(c.t, d.dst.off[k] + d.hiOff, 4, hi[k]); });
  });
}
template <Opcode, bool, unsigned N>
struct MadwH {
  static constexpr Handler fn = vecMadw<N>;
};

// One-source operations on 32-bit lanes through their sem/ops_alu.hpp functor:
// RNDD, RNDU, RNDE, RNDZ of F (the functor on the lane's value, exact in F; a
// NaN canonical, E14, as the semantics' pipeline gives it), INV of F (the float
// quotient 1 / x: IEEE's correctly rounded one, which ops::Inv's double quotient
// rounded once is, A12; a NaN canonical), and LZD, CBIT, FBL,
// BFREV of integers of at most 32 bits (functors of the source's low bits: of
// its own width for CBIT, the 32-bit extension's for the others).
template <Opcode Op, bool Float, unsigned N>
void vecUnary(Ctx& c, const DInst& d) {
  using F = Op_t<Op>;
  onLanes32<N, 1>(c, d, [&](uint32_t (&v)[1][N], uint32_t en, unsigned lanes) {
    const ops::IntCtx ic{d.shiftMask, d.src0Bits};
    for (unsigned k = 0; k < N; ++k) {
      if constexpr (Op == Opcode::INV) {
        const float x = 1.0f / asFloat(v[0][k]);  // (as a float division: no out-of-range double-to-float cast)
        v[0][k] = x != x ? 0x7fc00000u : asBits(x);
      } else if constexpr (Float) {
        const float x = static_cast<float>(F::flt(static_cast<double>(asFloat(v[0][k])), 0.0));
        v[0][k] = x != x ? 0x7fc00000u : asBits(x);
      } else {
        v[0][k] = static_cast<uint32_t>(F::exact(i128{v[0][k]}, 0, ic));
      }
    }
    storeLanes<N>(c, d, en, lanes, v[0]);
  });
}
template <Opcode Op, bool Float, unsigned N>
struct UnaryH {
  static constexpr Handler fn = vecUnary<Op, Float, N>;
};
// The math operations of F sources into an F destination (pickFastShape:
// EXP, LOG, POW, SIN, COS, SQRT, SQRTM, RSQRT, DIV, DIVM without modifiers or
// .sat) on 32-bit lanes: each lane through the semantics' own result
// (sem/arith.hpp pipeline::fltResult of the sem/ops_alu.hpp functor, DIV's
// with its HF flush off), rounded to F, a NaN canonical (E14). F sources need
// no conversion, so %cr0's rounding mode does not reach them (E32).
template <class F, unsigned NSrc, unsigned N>
void vecFltMath(Ctx& c, const DInst& d) {
  onLanes32<N, NSrc>(c, d, [&](uint32_t (&v)[NSrc][N], uint32_t en, unsigned lanes) {
    uint32_t r[N];
    for (unsigned k = 0; k < N; ++k) {
      ops::Srcs p{};
      for (unsigned s = 0; s < NSrc; ++s) p[s] = static_cast<double>(asFloat(v[s][k]));
      double x;
      if constexpr (requires { F::fltT(Type::F, p, false); }) x = roundTo(F::fltT(Type::F, p, false), Type::F);
      else x = roundTo(pipeline::fltResult<F, NSrc>(p, Type::F), Type::F);
      r[k] = std::isnan(x) ? 0x7fc00000u : asBits(static_cast<float>(x));
    }
    storeLanes<N>(c, d, en, lanes, r);
  });
}
template <class F, unsigned NSrc>
Handler fltMathByExec(unsigned exec) {
  return byExecSize(exec, []<unsigned N>() -> Handler { return vecFltMath<F, NSrc, N>; });
}

// ADDC, SUBB pages on UD lanes: Dst = the low 32 bits of src0 + src1 (src0 -
// src1); Carry = "carry(src0 + src1)", the bit above the 32-bit sum; Borrow =
// "src0 < src1 ? 1 : 0". The second destination is DInst::src[2] (decodeAlu),
// its bytes apart from Dst's (pickCarry).
template <bool Sub, unsigned N>
void vecCarry(Ctx& c, const DInst& d) {
  onLanes32<N, 2>(c, d, [&](uint32_t (&v)[2][N], uint32_t en, unsigned lanes) {
    uint32_t r[N], cy[N];
    for (unsigned k = 0; k < N; ++k) {
      r[k] = Sub ? v[0][k] - v[1][k] : v[0][k] + v[1][k];
      cy[k] = Sub ? v[0][k] < v[1][k] : r[k] < v[0][k];
    }
    storeLanes<N>(c, d, en, lanes, r);
    storeLanesTo<N>(c, d.src[2], en, lanes, cy);
  });
}
template <Opcode Op, bool, unsigned N>
struct CarryH {
  static constexpr Handler fn = vecCarry<Op == Opcode::SUBB, N>;
};
// MIN_MAX page on 32-bit lanes (pickMinMax): "if one of the numbers is NaN and
// the other is not, MIN or MAX ... returns the one that is not NaN. When both
// numbers are NaN, [it] returns source1": its bits, as SEL copies them; -0 is
// below +0 (A18). Integers compare as their 32-bit extensions, signed or not
// (MinMaxKind); the result is one source's value, so a narrower destination
// keeps its low bits.
enum class MinMaxKind : uint8_t { F, Signed, Unsigned };
template <MinMaxKind K, bool IsMax>
inline uint32_t minMax32(uint32_t a, uint32_t b) {
  bool aBelow;
  if constexpr (K == MinMaxKind::F) {
    const float x = asFloat(a), y = asFloat(b);
    if (x != x) return b;
    if (y != y) return a;
    aBelow = x < y || (x == y && (a >> 31) > (b >> 31));
  } else if constexpr (K == MinMaxKind::Signed) {
    aBelow = static_cast<int32_t>(a) < static_cast<int32_t>(b);
  } else {
    aBelow = a < b;
  }
  return aBelow != IsMax ? a : b;
}
template <MinMaxKind K, bool IsMax, unsigned N>
void vecMinMax(Ctx& c, const DInst& d) {
  onLanes32<N, 2>(c, d, [&](uint32_t (&v)[2][N], uint32_t en, unsigned lanes) {
    for (unsigned k = 0; k < N; ++k) v[0][k] = minMax32<K, IsMax>(v[0][k], v[1][k]);
    storeLanes<N>(c, d, en, lanes, v[0]);
  });
}
template <MinMaxKind K, bool IsMax>
Handler minMaxByExec(unsigned exec) {
  return byExecSize(exec, []<unsigned N>() -> Handler { return vecMinMax<K, IsMax, N>; });
}
template <MinMaxKind K>
Handler minMaxOf(const DInst& d) {
  return d.isMax ? minMaxByExec<K, true>(d.exec) : minMaxByExec<K, false>(d.exec);
}
// The integer form: both sources' values fit a signed 32-bit comparison, or
// both an unsigned one (a D against a UD needs more bits: the pipeline's).
Handler pickIntMinMax(const DInst& d) {
  auto fitsSigned = [](Type t) { return t != Type::UD; };
  auto fitsUnsigned = [](Type t) { return t == Type::UD || t == Type::UW || t == Type::UB; };
  const Type a = d.src[0].type, b = d.src[1].type;
  if (fitsSigned(a) && fitsSigned(b)) return minMaxOf<MinMaxKind::Signed>(d);
  if (fitsUnsigned(a) && fitsUnsigned(b)) return minMaxOf<MinMaxKind::Unsigned>(d);
  return nullptr;
}

// Lane 0 of a source as a 32-bit value (as loadLanes): integers of 1 or 2
// bytes extended per their type, E13 (4 bytes are read: the register file is padded).
// (An immediate's off[0] is 0, inside the register file: both are read and
// one is chosen, without a branch.)
inline uint32_t load1(const Ctx& c, const DOperand& o) {
  uint32_t r;
  std::memcpy(&r, c.t.regs.data() + o.off[0], 4);
  if (o.load32 == DOperand::Load32::Imm) return o.imm32[0];
  if (o.load32 == DOperand::Load32::Narrow) r = ext32(r, o.type);
  return o.mod32 == DOperand::Mod32::None ? r : mod32(o.mod32, r);
}

// vecAlu with one lane (pickFast): no lane arrays.
template <Opcode Op, bool Float>
void scalarAlu(Ctx& c, const DInst& d) {
  if (!chEnOf<1>(c, d)) return;
  c.lanes += 1;
  const uint32_t a = load1(c, d.src[0]);
  const uint32_t r = op32<Op, Float>(a, numSrcs(Op) == 2 ? load1(c, d.src[1]) : 0u);
  const unsigned size = typeSize(d.dst.type);  // (a narrower destination: its low bytes, storeNarrow)
  if (size == 4) std::memcpy(c.t.regs.data() + d.dst.off[0], &r, 4);
  else std::memcpy(c.t.regs.data() + d.dst.off[0], &r, size);
}

// MAD page: src0 * src1 + src2, "rounded once" (A13). On F lanes that is
// the fused multiply-add of floats (one rounding to F), NaN canonical (E14);
// on integer lanes extended to 32 bits the wrapping a * b + c, which is the
// exact result truncated to a D or UD destination.
// Built twice: for the host's FMA instruction and for plain x86-64; the
// first call picks by the host (a function pointer, not an ifunc, which
// ThreadSanitizer's start does not survive).
inline void fmaLanesBody(const uint32_t* a, const uint32_t* b, const uint32_t* s, uint32_t* r, unsigned n) {
  for (unsigned k = 0; k < n; ++k) {
    const float x = std::fma(asFloat(a[k]), asFloat(b[k]), asFloat(s[k]));
    r[k] = x != x ? 0x7fc00000u : asBits(x);
  }
}
using FmaLanes = void (*)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*, unsigned);
#if defined(__x86_64__)
[[gnu::target("fma")]] void fmaLanesFma(const uint32_t* a, const uint32_t* b, const uint32_t* s, uint32_t* r, unsigned n) {
  fmaLanesBody(a, b, s, r, n);
}
#endif
void fmaLanesPlain(const uint32_t* a, const uint32_t* b, const uint32_t* s, uint32_t* r, unsigned n) {
  fmaLanesBody(a, b, s, r, n);
}
void fmaLanes(const uint32_t* a, const uint32_t* b, const uint32_t* s, uint32_t* r, unsigned n) {
  static const FmaLanes pick = [] {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("fma")) return &fmaLanesFma;
#endif
    return &fmaLanesPlain;
  }();
  pick(a, b, s, r, n);
}
template <bool Float, unsigned N>
void madAlu(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  const unsigned lanes = laneCountOf<N>(en);
  c.lanes += lanes;
  uint32_t a[N], b[N], s[N], r[N];  // all sources are read before any destination is written
  loadLanes<N>(c, d.src[0], a);
  loadLanes<N>(c, d.src[1], b);
  loadLanes<N>(c, d.src[2], s);
  if constexpr (Float) {
    fmaLanes(a, b, s, r, N);
  } else {
    for (unsigned k = 0; k < N; ++k) r[k] = a[k] * b[k] + s[k];
  }
  storeLanes<N>(c, d, en, lanes, r);
}

// The dense form of vecAlu (pickDense): every lane on, destination and src0
// consecutive dwords, src1 consecutive dwords or one value for every lane
// (ScalarB), each source equal to the destination's bytes or apart from them.
// Then lanes can be done four at a time in place.
// NegB: src1 consecutive dwords with a (-) modifier (DenseNegH: ADD, a
// subtraction), applied to each lane as loadLanes does (mod32: the sign bit of
// an F, the wrapping negation of an integer).
// N lanes of a dense instruction, four at a time: pa, pb the sources (pb
// unused when ScalarB: bs), pr the destination.
template <bool Float, bool NegB>
[[gnu::always_inline]] inline V4 modB(V4 b) {
  if constexpr (!NegB) return b;
  else if constexpr (Float) return b ^ 0x80000000u;
  else return 0u - b;
}
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
[[gnu::always_inline]] inline void denseLanes(const uint8_t* pa, const uint8_t* pb, uint8_t* pr, uint32_t bs) {
  const uint32_t n = bs & 31;  // a shift count for every lane
#pragma GCC unroll 8
  for (unsigned k = 0; k < N; k += 4) {
    V4 a, b = {bs, bs, bs, bs}, r;
    std::memcpy(&a, pa + 4 * k, 16);
    if constexpr (numSrcs(Op) == 2 && !ScalarB) {
      std::memcpy(&b, pb + 4 * k, 16);
      b = modB<Float, NegB>(b);
    }
    if constexpr (ScalarB && Op == Opcode::SHL) r = a << n;  // one count: a vector shift
    else if constexpr (ScalarB && Op == Opcode::SHR) r = a >> n;
    else r = op32<Op, Float>(a, b);
    std::memcpy(pr + 4 * k, &r, 16);
  }
}
// The sources' and destination's places of dense instruction d, and its scalar
// src1 (ScalarB), read before any lane is written.
struct DensePlaces {
  const uint8_t* pa;
  const uint8_t* pb;
  uint8_t* pr;
  uint32_t bs = 0;
};
template <bool ScalarB>
[[gnu::always_inline]] inline DensePlaces densePlaces(Ctx& c, const DInst& d) {
  uint8_t* regs = c.t.regs.data();
  DensePlaces w{regs + d.src[0].off[0], regs + d.src[1].off[0], regs + d.dst.off[0]};
  if constexpr (ScalarB) {
    if (d.src[1].load32 == DOperand::Load32::Imm) w.bs = d.src[1].imm32[0];
    else std::memcpy(&w.bs, w.pb, 4);
  }
  return w;
}
// The dense shape (denseAlu): SIMD4 or more, a consecutive 4-byte destination,
// src0 consecutive dwords, src1 (if any) consecutive dwords (Vec) or one value
// for every lane (Scalar), each region the destination's dwords or apart from
// them, no modifier but an immediate's (in its imm32).
// NegVec: a Vec src1 with a (-) modifier (FNeg, INeg), for ADD (DenseNegH).
enum class Dense : uint8_t { None, Vec, Scalar, NegVec };
// A register source with a modifier (an immediate's is in its imm32).
bool modded(const DOperand& o) { return o.mod32 != DOperand::Mod32::None && o.load32 != DOperand::Load32::Imm; }
Dense denseShape(const DInst& d, int nsrc) {
  if (d.exec % 4 != 0 || d.dst.shape != DOperand::Shape::Contig || typeSize(d.dst.type) != 4) return Dense::None;
  using M = DOperand::Mod32;
  if (modded(d.src[0])) return Dense::None;
  const bool negB = nsrc == 2 && modded(d.src[1]);
  if (negB && d.src[1].mod32 != M::FNeg && d.src[1].mod32 != M::INeg) return Dense::None;
  const uint32_t lo = d.dst.off[0], hi = lo + 4u * d.exec;
  auto vec = [&](const DOperand& o) {
    if (o.load32 != DOperand::Load32::Contig) return false;
    const uint32_t a = o.off[0], b = a + 4u * d.exec;
    return a == lo || b <= lo || a >= hi;  // the same lanes, or apart
  };
  if (!vec(d.src[0])) return Dense::None;
  if (nsrc < 2) return Dense::Vec;
  const DOperand& b = d.src[1];
  if (negB) return vec(b) ? Dense::NegVec : Dense::None;
  if (vec(b)) return Dense::Vec;
  if ((b.load32 == DOperand::Load32::Imm && b.immPeriod == 1) || b.load32 == DOperand::Load32::Bcast) return Dense::Scalar;
  return Dense::None;
}
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
[[gnu::always_inline]] inline void denseBody(Ctx& c, const DInst& d) {
  c.lanes += N;
  const DensePlaces w = densePlaces<ScalarB>(c, d);
  denseLanes<Op, Float, N, ScalarB, NegB>(w.pa, w.pb, w.pr, w.bs);
}

// Some lanes on (en): each four lanes computed, then the enabled ones written
// over the destination's dwords (a disabled lane's dword is written back unchanged).
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
[[gnu::always_inline]] inline void denseSomeLanes(const DensePlaces& w, uint32_t en) {
  const uint32_t n = w.bs & 31;
#pragma GCC unroll 8
  for (unsigned k = 0; k < N; k += 4) {
    V4 a, b = {w.bs, w.bs, w.bs, w.bs}, r, old;
    std::memcpy(&a, w.pa + 4 * k, 16);
    if constexpr (numSrcs(Op) == 2 && !ScalarB) {
      std::memcpy(&b, w.pb + 4 * k, 16);
      b = modB<Float, NegB>(b);
    }
    if constexpr (ScalarB && Op == Opcode::SHL) r = a << n;
    else if constexpr (ScalarB && Op == Opcode::SHR) r = a >> n;
    else r = op32<Op, Float>(a, b);
    std::memcpy(&old, w.pr + 4 * k, 16);
    const V4 on = laneMask4(en >> k);
    r = (r & on) | (old & ~on);
    std::memcpy(w.pr + 4 * k, &r, 16);
  }
}
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
[[gnu::noinline]] void denseSome(Ctx& c, const DInst& d, uint32_t en) {
  if (!en) return;
  c.lanes += laneCount(en);
  denseSomeLanes<Op, Float, N, ScalarB, NegB>(densePlaces<ScalarB>(c, d), en);
}

// A merged dense run (formRuns, DInst::runLen): instructions of one dense
// handler whose destination and sources continue each other by N dwords (a
// scalar src1: one immediate), all with the channel enables of the first. One
// loop over the instructions in order, four lanes read before they are
// written, as in denseBody (every lane on) or denseSome.
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
void mergedDense(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  DensePlaces w = densePlaces<ScalarB>(c, d);
  if (en != execMaskBits(N)) {
    c.lanes += uint64_t{laneCountOf<N>(en)} * d.runLen;
    for (unsigned k = 0; k < d.runLen; ++k, w.pa += 4 * N, w.pb += 4 * N, w.pr += 4 * N)
      denseSomeLanes<Op, Float, N, ScalarB, NegB>(w, en);
    return;
  }
  c.lanes += N * d.runLen;
  for (unsigned k = 0; k < d.runLen; ++k, w.pa += 4 * N, w.pb += 4 * N, w.pr += 4 * N)
    denseLanes<Op, Float, N, ScalarB, NegB>(w.pa, w.pb, w.pr, w.bs);
}

// A fused dense run (formRuns, DInst::runLen: one handler, the same channel
// enables): ChEn worked out once, then each instruction in order as denseBody
// (every lane on) or denseSomeLanes.
template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
void fusedDense(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  const DInst* p = &d;
  if (en == execMaskBits(N)) {
    for (unsigned k = 0; k < d.runLen; ++k) denseBody<Op, Float, N, ScalarB, NegB>(c, p[k]);
    return;
  }
  if (!en) return;
  c.lanes += uint64_t{laneCountOf<N>(en)} * d.runLen;
  for (unsigned k = 0; k < d.runLen; ++k)
    denseSomeLanes<Op, Float, N, ScalarB, NegB>(densePlaces<ScalarB>(c, p[k]), en);
}

template <Opcode Op, bool Float, unsigned N, bool ScalarB, bool NegB = false>
void denseAlu(Ctx& c, const DInst& d) {
  if (const uint32_t en = chEnOf<N>(c, d); en != execMaskBits(N)) return denseSome<Op, Float, N, ScalarB, NegB>(c, d, en);
  denseBody<Op, Float, N, ScalarB, NegB>(c, d);
}

// How vecCmp compares integer lanes by their values (E13), as their 32-bit
// extensions say: both signed, as int32; both unsigned, as uint32; else each
// extended to int64 by its own signedness (cmpSign).
enum class CmpSign : uint8_t { Signed, Unsigned, Mixed };
// CMP with a predicate destination and sources of at most 32 bits: integers
// compared by their mathematical values (S), F as floats (NaN unordered).
template <bool Float, unsigned N, CmpSign S = CmpSign::Signed>
void vecCmp(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCountOf<N>(en);
  if (!en) return;
  uint32_t a[N], b[N], res;
  loadLanes<N>(c, d.src[0], a);
  loadLanes<N>(c, d.src[1], b);
  if constexpr (Float) {
    float x[N], y[N];
    std::memcpy(x, a, sizeof x);
    std::memcpy(y, b, sizeof y);
    res = relationBits<float, N>(d.relop, x, y);
  } else if constexpr (S == CmpSign::Signed) {
    int32_t x[N], y[N];
    std::memcpy(x, a, sizeof x);
    std::memcpy(y, b, sizeof y);
    res = relationBits<int32_t, N>(d.relop, x, y);
  } else if constexpr (S == CmpSign::Unsigned) {
    res = relationBits<uint32_t, N>(d.relop, a, b);
  } else {
    const bool s0 = isSignedInt(d.src[0].type), s1 = isSignedInt(d.src[1].type);
    int64_t x[N], y[N];
    for (unsigned k = 0; k < N; ++k) {
      x[k] = value32(s0, a[k]);
      y[k] = value32(s1, b[k]);
    }
    res = relationBits<int64_t, N>(d.relop, x, y);
  }
  setPredBits(c, d, en, res);
}

// The Mod32 of source o of operation `op` in the vector handlers, or false if they
// cannot apply its modifier exactly: F negation and absolute value for ADD, MUL
// and CMP (the sign bit; a NaN stays a NaN, which ADD and MUL make canonical and
// CMP finds unordered); integer negation and absolute value for ADD, MUL, MAD and
// ADD3 (the result is truncated to 32 bits, so the wrapping operation gives its
// bits; the absolute value of an unsigned source is the source); ~ for the logic
// operations on 32-bit or sign-extended sources (~ of the extension is the
// extension of ~).
// (F MIN, MAX and the RND operations too: functions of the value; an integer
// MIN or MAX compares the exact values, which a wrapped negation is not.)
bool fastMod(DOperand& o, Opcode op, bool flt) {
  using M = DOperand::Mod32;
  o.mod32 = M::None;
  if (o.mod == Mod::None) return true;
  const bool arith = op == Opcode::ADD || op == Opcode::MUL || op == Opcode::MAD || op == Opcode::ADD3;
  if (flt) {
    const bool rnd = op == Opcode::RNDD || op == Opcode::RNDU || op == Opcode::RNDE || op == Opcode::RNDZ;
    if (!arith && !rnd && op != Opcode::CMP && op != Opcode::FMINMAX) return false;
    o.mod32 = o.mod == Mod::Neg ? M::FNeg : o.mod == Mod::Abs ? M::FAbs : o.mod == Mod::NegAbs ? M::FNegAbs : M::None;
    return o.mod32 != M::None;
  }
  if (o.mod == Mod::Not) {
    if ((op != Opcode::AND && op != Opcode::OR && op != Opcode::XOR && op != Opcode::NOT) ||
        (typeSize(o.type) < 4 && !isSignedInt(o.type)))
      return false;
    o.mod32 = M::INot;
    return true;
  }
  if (!arith) return false;
  const bool sgn = isSignedInt(o.type);
  o.mod32 = o.mod == Mod::Neg ? M::INeg : o.mod == Mod::Abs ? (sgn ? M::IAbs : M::None) : sgn ? M::INegAbs : M::INeg;
  return true;
}
bool fastIntSrc(DOperand& o, Opcode op) {
  if (!fastMod(o, op, false)) return false;
  if (o.kind == DOperand::Kind::Imm) return isIntType(o.type) && typeSize(o.type) <= 4;
  return o.kind == DOperand::Kind::Reg && isIntType(o.type) && o.type != Type::BOOL && typeSize(o.type) <= 4;
}
bool fastFltSrc(DOperand& o, Opcode op) {
  return o.type == Type::F && (o.kind == DOperand::Kind::Reg || o.kind == DOperand::Kind::Imm) && fastMod(o, op, true);
}

enum class Form : uint8_t { Fn, Fused, Merged, AllOn };
template <class X, Form F>
constexpr Handler member() {
  if constexpr (F == Form::Fused) return X::fused;
  else if constexpr (F == Form::Merged) return X::merged;
  else if constexpr (F == Form::AllOn) return X::allOn;
  else return X::fn;
}
// H<Op, Float, exec>::fn, or its ::fused, ::merged or ::allOn.
template <template <Opcode, bool, unsigned> class H, Opcode Op, bool Float, Form Fused = Form::Fn>
Handler byExec(unsigned exec) {
  return byExecSize(exec, []<unsigned N>() -> Handler { return member<H<Op, Float, N>, Fused>(); });
}
// vecCmp with one lane and 32-bit sources: integers by their values as the
// source types say (S0, S1: signed; an immediate is already extended to 32
// bits), F as floats; the relation (Rel, as relation()) fixed per instantiation.
template <bool Float, unsigned Rel, bool S0, bool S1>
[[gnu::always_inline]] inline void scalarCmpBody(Ctx& c, const DInst& d) {
  if (!chEnOf<1>(c, d)) return;
  c.lanes += 1;
  const uint32_t a = load1(c, d.src[0]), b = load1(c, d.src[1]);
  bool r;
  if constexpr (Float) {
    r = relation(Rel, std::bit_cast<float>(a), std::bit_cast<float>(b));
  } else {
    r = relation(Rel, value32(S0, a), value32(S1, b));
  }
  uint32_t& p = c.t.preds[d.dst.predId];
  const uint32_t m = static_cast<uint32_t>(uint64_t{1} << d.maskOff);  // bits past 31 are dropped
  p = r ? p | m : p & ~m;
}
template <bool Float, unsigned Rel, bool S0, bool S1>
struct ScalarCmpH {
  static void fn(Ctx& c, const DInst& d) { scalarCmpBody<Float, Rel, S0, S1>(c, d); }
  // The CMP, then the one-lane JMP after it (DInst::tailFn): a loop's
  // compare-and-branch in one dispatch.
  static void thenJmp(Ctx& c, const DInst& d) {
    scalarCmpBody<Float, Rel, S0, S1>(c, d);
    jumpUniform(c, (&d)[1], c.t.pc + 2);
  }
};
template <bool Float, bool S0, bool S1>
std::pair<Handler, Handler> scalarCmpByRel(unsigned rel) {
  auto pick = [&]<unsigned R>() { return std::pair<Handler, Handler>{ScalarCmpH<Float, R, S0, S1>::fn, ScalarCmpH<Float, R, S0, S1>::thenJmp}; };
  switch (rel) {
    case 0: return pick.template operator()<0>();
    case 1: return pick.template operator()<1>();
    case 2: return pick.template operator()<2>();
    case 3: return pick.template operator()<3>();
    case 4: return pick.template operator()<4>();
    default: return pick.template operator()<5>();
  }
}
// The one-lane CMP handler and its compare-and-branch form.
std::pair<Handler, Handler> scalarCmp(const DInst& d) {
  if (d.floatDomain) return scalarCmpByRel<true, false, false>(d.relop);
  const bool s0 = isSignedInt(d.src[0].type), s1 = isSignedInt(d.src[1].type);
  if (s0) return s1 ? scalarCmpByRel<false, true, true>(d.relop) : scalarCmpByRel<false, true, false>(d.relop);
  return s1 ? scalarCmpByRel<false, false, true>(d.relop) : scalarCmpByRel<false, false, false>(d.relop);
}

// vecCmp of two sources that are each one value (a broadcast, or an immediate
// that is not a packed vector): every lane's relation is lane 0's, values as
// scalarCmpBody takes them.
template <bool Float, unsigned N = 0>
void uniformCmp(Ctx& c, const DInst& d) {
  const uint32_t en = N ? chEnOf<N>(c, d) : chEn(c, d);
  c.lanes += N ? laneCountOf<N>(en) : laneCount(en);
  if (!en) return;
  const uint32_t a = load1(c, d.src[0]), b = load1(c, d.src[1]);
  bool r;
  if constexpr (Float) {
    r = relation(d.relop, std::bit_cast<float>(a), std::bit_cast<float>(b));
  } else {
    r = relation(d.relop, value32(isSignedInt(d.src[0].type), a), value32(isSignedInt(d.src[1].type), b));
  }
  setPredBits(c, d, en, r ? ~uint32_t{0} : 0);
}

// MULH page on 32-bit lanes (pickFastShape): the exact product's bits 32..63,
// which are those of the product of the sources' 64-bit extensions (by their
// types, E13) modulo 2^64; a D or UD destination keeps those 32 bits.
template <unsigned N>
void mulhAlu(Ctx& c, const DInst& d) {
  onLanes32<N, 2>(c, d, [&](uint32_t (&v)[2][N], uint32_t en, unsigned lanes) {
    const uint32_t *a = v[0], *b = v[1];
    uint32_t r[N];
    // A signed source's extension is a + 2^32 * (-1 if negative): mod 2^32 the
    // high half of the product is the unsigned one less the other source per
    // negative signed source (a loop without branches, the compiler vectorises).
    const uint32_t s0 = isSignedInt(d.src[0].type) ? ~0u : 0, s1 = isSignedInt(d.src[1].type) ? ~0u : 0;
    for (unsigned k = 0; k < N; ++k) {
      const uint32_t hi = static_cast<uint32_t>((uint64_t{a[k]} * b[k]) >> 32);
      const uint32_t na = (0u - (a[k] >> 31)) & s0, nb = (0u - (b[k] >> 31)) & s1;
      r[k] = hi - (na & b[k]) - (nb & a[k]);
    }
    storeLanes<N>(c, d, en, lanes, r);
  });
}
template <Opcode, bool, unsigned N>
struct MulhH {
  static constexpr Handler fn = mulhAlu<N>;
};
// MULH of the dense shape (denseShape, pickFast): mulhAlu's high halves four
// lanes at a time in place (SSE2's 32 x 32 -> 64-bit unsigned multiply of the
// even and the odd lanes, then the same correction per negative signed source).
#if defined(__SSE2__)
inline V4 mulHigh4(V4 a, V4 b, V4 s0, V4 s1) {
  const __m128i x = reinterpret_cast<__m128i>(a), y = reinterpret_cast<__m128i>(b);
  const __m128i even = _mm_mul_epu32(x, y), odd = _mm_mul_epu32(_mm_srli_epi64(x, 32), _mm_srli_epi64(y, 32));
  const V4 hi = reinterpret_cast<V4>(
      _mm_or_si128(_mm_srli_epi64(even, 32), _mm_and_si128(odd, _mm_set1_epi64x(static_cast<long long>(0xffffffff00000000ull)))));
  const V4 na = reinterpret_cast<V4>(reinterpret_cast<I4v>(a) >> 31) & s0, nb = reinterpret_cast<V4>(reinterpret_cast<I4v>(b) >> 31) & s1;
  return hi - (na & b) - (nb & a);
}
template <unsigned N, bool ScalarB>
void mulhDense(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  c.lanes += laneCountOf<N>(en);
  const DensePlaces w = densePlaces<ScalarB>(c, d);
  const uint32_t m0 = isSignedInt(d.src[0].type) ? ~0u : 0, m1 = isSignedInt(d.src[1].type) ? ~0u : 0;
  const V4 s0 = {m0, m0, m0, m0}, s1 = {m1, m1, m1, m1};
  const bool all = en == execMaskBits(N);
  for (unsigned k = 0; k < N; k += 4) {
    V4 a, b = {w.bs, w.bs, w.bs, w.bs};
    std::memcpy(&a, w.pa + 4 * k, 16);
    if constexpr (!ScalarB) std::memcpy(&b, w.pb + 4 * k, 16);
    const V4 r = mulHigh4(a, b, s0, s1);
    if (all) std::memcpy(w.pr + 4 * k, &r, 16);
    else blend4(w.pr + 4 * k, r, laneMask4(en >> k));
  }
}
Handler pickMulhDense(const DInst& d) {
  const Dense shape = denseShape(d, 2);
  if (shape != Dense::Vec && shape != Dense::Scalar) return nullptr;
  const bool scalar = shape == Dense::Scalar;
  return byExecSize(d.exec, [&]<unsigned N>() -> Handler {
    if constexpr (N % 4 == 0) return scalar ? mulhDense<N, true> : mulhDense<N, false>;
    else return nullptr;
  });
}
#else
Handler pickMulhDense(const DInst&) { return nullptr; }
#endif

// AND, OR, XOR, NOT of predicates into a predicate: element k of each is bit
// k + the mask offset (loadIntPred), so the operation on the variables' bits
// gives each element's result (its LSB, storePredFromInt) in place.
template <Opcode Op>
void predLogic(Ctx& c, const DInst& d) {
  const uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  const uint32_t a = c.t.preds[d.src[0].predId];
  uint32_t r;
  if constexpr (Op == Opcode::NOT) {
    r = ~a;
  } else {
    const uint32_t b = c.t.preds[d.src[1].predId];
    r = Op == Opcode::AND ? a & b : Op == Opcode::OR ? a | b : a ^ b;
  }
  uint32_t& p = c.t.preds[d.dst.predId];
  const uint32_t m = static_cast<uint32_t>(uint64_t{en} << d.maskOff);
  p = (p & ~m) | (r & m);
}
Handler pickPredLogic(const DInst& d, Opcode op, int nsrc) {
  if (d.dst.kind != DOperand::Kind::Pred || d.sat) return nullptr;
  for (int s = 0; s < nsrc; ++s)
    if (d.src[s].kind != DOperand::Kind::Pred || d.src[s].mod != Mod::None) return nullptr;
  switch (op) {
    case Opcode::AND: return predLogic<Opcode::AND>;
    case Opcode::OR: return predLogic<Opcode::OR>;
    case Opcode::XOR: return predLogic<Opcode::XOR>;
    case Opcode::NOT: return predLogic<Opcode::NOT>;
    default: return nullptr;
  }
}

template <Opcode Op, bool Float, unsigned N>
struct AluH {
  static constexpr Handler fn = vecAlu<Op, Float, N>;
};
template <Opcode Op, bool Float, unsigned N>
struct DenseVecH {
  static constexpr Handler fn = denseAlu<Op, Float, N, false>;
  static constexpr Handler fused = fusedDense<Op, Float, N, false>;
  static constexpr Handler merged = mergedDense<Op, Float, N, false>;
  static constexpr Handler allOn = denseBody<Op, Float, N, false>;
};
template <Opcode Op, bool Float, unsigned N>
struct DenseScalarH {
  static constexpr Handler fn = denseAlu<Op, Float, N, true>;
  static constexpr Handler fused = fusedDense<Op, Float, N, true>;
  static constexpr Handler merged = mergedDense<Op, Float, N, true>;
  static constexpr Handler allOn = denseBody<Op, Float, N, true>;
};
template <Opcode Op, bool Float, unsigned N>
struct DenseNegH {
  static constexpr Handler fn = denseAlu<Op, Float, N, false, true>;
  static constexpr Handler fused = fusedDense<Op, Float, N, false, true>;
  static constexpr Handler merged = mergedDense<Op, Float, N, false, true>;
  static constexpr Handler allOn = denseBody<Op, Float, N, false, true>;
};
template <Opcode, bool Float, unsigned N>
struct MadH {
  static constexpr Handler fn = madAlu<Float, N>;
};
// CMP page: CMP of integers of one signedness (S) or of F to a predicate, src0
// consecutive dwords and src1 consecutive dwords or one value (ScalarB), no
// modifier but an immediate's (cmpDenseShape): the lanes read in place, as vecCmp reads them.
template <bool Float, unsigned N, CmpSign S, bool ScalarB>
void denseCmp(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  c.lanes += laneCountOf<N>(en);
  if (!en) return;
  using T = std::conditional_t<Float, float, std::conditional_t<S == CmpSign::Signed, int32_t, uint32_t>>;
  const DensePlaces w = densePlaces<ScalarB>(c, d);
  T a[N], b[N];
  std::memcpy(a, w.pa, sizeof a);
  if constexpr (ScalarB) {
    T v;
    std::memcpy(&v, &w.bs, 4);
    std::fill_n(b, N, v);
  } else {
    std::memcpy(b, w.pb, sizeof b);
  }
  setPredBits(c, d, en, relationBits<T, N>(d.relop, a, b));
}
template <CmpSign S, bool ScalarB>
struct DenseCmpOf {
  template <Opcode, bool Float, unsigned N>
  struct H {
    static constexpr Handler fn = denseCmp<Float, N, S, ScalarB>;
  };
};
// The shapes denseCmp takes: Vec or Scalar src1 (Dense::None: vecCmp's).
Dense cmpDenseShape(const DInst& d) {
  if (d.exec % 4 != 0) return Dense::None;
  const DOperand &a = d.src[0], &b = d.src[1];
  if (modded(a) || modded(b) || a.load32 != DOperand::Load32::Contig) return Dense::None;
  if (b.load32 == DOperand::Load32::Contig) return Dense::Vec;
  if ((b.load32 == DOperand::Load32::Imm && b.immPeriod == 1) || b.load32 == DOperand::Load32::Bcast) return Dense::Scalar;
  return Dense::None;
}
template <bool Float, CmpSign S>
Handler pickDenseCmp(const DInst& d) {
  switch (cmpDenseShape(d)) {
    case Dense::Vec: return byExec<DenseCmpOf<S, false>::template H, Opcode::CMP, Float>(d.exec);
    case Dense::Scalar: return byExec<DenseCmpOf<S, true>::template H, Opcode::CMP, Float>(d.exec);
    default: return nullptr;
  }
}
template <CmpSign S>
struct CmpOf {
  template <Opcode, bool Float, unsigned N>
  struct H {
    static constexpr Handler fn = vecCmp<Float, N, S>;
  };
};
// vecCmp's CmpSign for integer sources (fastIntSrc'd). An immediate whose
// lanes' values are in 0 .. 2^31 - 1 is the same value signed or unsigned:
// it takes the other source's signedness.
CmpSign cmpSign(const DInst& d) {
  bool s0 = isSignedInt(d.src[0].type), s1 = isSignedInt(d.src[1].type);
  auto either = [](const DOperand& o) {
    if (o.kind != DOperand::Kind::Imm) return false;
    for (unsigned k = 0; k < 8; ++k)
      if (imm32Of(o, k) >= 0x80000000u) return false;
    return true;
  };
  if (s0 != s1) {
    if (either(d.src[1])) s1 = s0;
    else if (either(d.src[0])) s0 = s1;
  }
  return s0 && s1 ? CmpSign::Signed : !s0 && !s1 ? CmpSign::Unsigned : CmpSign::Mixed;
}

Handler pickFastShape(DInst& d, Opcode op, int nsrc);

// denseAlu<Op, Float, N, ScalarB> for an instruction vecAlu<Op, Float, N> serves,
// when its operands have the dense shape (and its fusedRun as d.fusedFn); else nullptr.
template <Opcode Op, bool Float>
Handler pickDenseOp(DInst& d, int nsrc) {
  auto pick = [&]<template <Opcode, bool, unsigned> class H>() {
    d.fusedFn = byExec<H, Op, Float, Form::Fused>(d.exec);
    d.mergedFn = byExec<H, Op, Float, Form::Merged>(d.exec);
    d.allOnFn = byExec<H, Op, Float, Form::AllOn>(d.exec);
    d.halvesFn = d.exec == 16 ? H<Op, Float, 32>::fn : nullptr;
    return byExec<H, Op, Float>(d.exec);
  };
  switch (denseShape(d, nsrc)) {
    case Dense::Vec: return pick.template operator()<DenseVecH>();
    case Dense::Scalar: return pick.template operator()<DenseScalarH>();
    case Dense::NegVec:
      if constexpr (Op == Opcode::ADD) return pick.template operator()<DenseNegH>();
      else return nullptr;
    default: return nullptr;
  }
}
template <Opcode Op, bool Float>
Handler pickShapeOp(DInst& d, int nsrc) {
  return d.exec == 1 ? scalarAlu<Op, Float> : pickDenseOp<Op, Float>(d, nsrc);
}
// The dense or one-lane form of the vecAlu handler `vec`, if the operands allow it.
Handler pickDense(DInst& d, Handler vec, int nsrc) {
#define VISAKIT_DENSE(OP, FLT) \
  if (vec == byExec<AluH, Opcode::OP, FLT>(d.exec)) return pickShapeOp<Opcode::OP, FLT>(d, nsrc);
  VISAKIT_DENSE(ADD, false) VISAKIT_DENSE(MUL, false) VISAKIT_DENSE(AND, false) VISAKIT_DENSE(OR, false)
  VISAKIT_DENSE(XOR, false) VISAKIT_DENSE(NOT, false) VISAKIT_DENSE(SHL, false) VISAKIT_DENSE(SHR, false)
  VISAKIT_DENSE(MOV, false) VISAKIT_DENSE(ADD, true) VISAKIT_DENSE(MUL, true) VISAKIT_DENSE(MOV, true)
#undef VISAKIT_DENSE
  return nullptr;
}

// denseCmp for a CMP that vecCmp serves, if its sources allow it (Load32 set).
Handler pickCmpDense(const DInst& d, Handler vec) {
  if (vec == byExec<CmpOf<CmpSign::Signed>::H, Opcode::CMP, true>(d.exec)) return pickDenseCmp<true, CmpSign::Signed>(d);
  if (vec == byExec<CmpOf<CmpSign::Signed>::H, Opcode::CMP, false>(d.exec)) return pickDenseCmp<false, CmpSign::Signed>(d);
  if (vec == byExec<CmpOf<CmpSign::Unsigned>::H, Opcode::CMP, false>(d.exec))
    return pickDenseCmp<false, CmpSign::Unsigned>(d);
  return nullptr;
}
Handler pickFast(DInst& d, Opcode op, int nsrc, uint32_t regBytes) {
  Handler h = pickFastShape(d, op, nsrc);  // (sets each source's Mod32)
  for (int s = 0; s < nsrc; ++s) setLoad32(d.src[s], d.exec, regBytes);
  if (!h) return nullptr;
  if (pairLanes(d.dst, d.exec, regBytes)) d.dst.load32 = DOperand::Load32::Pair;  // (storeLanes)
  if (d.dst2 && pairLanes(d.src[2], d.exec, regBytes)) d.src[2].load32 = DOperand::Load32::Pair;  // (ADDC's Carry, SUBB's Borrow)
  // A commutative operation with one value first and consecutive dwords second
  // (IGC's `base + offset`): the sources swapped, so the dense shape takes it.
  const bool commutes = op == Opcode::ADD || op == Opcode::MUL || op == Opcode::AND || op == Opcode::OR || op == Opcode::XOR;
  const DOperand &s0 = d.src[0], &s1 = d.src[1];
  if (commutes && nsrc == 2 && d.exec > 1 && s1.load32 == DOperand::Load32::Contig && s1.mod32 == DOperand::Mod32::None &&
      ((s0.load32 == DOperand::Load32::Imm && s0.immPeriod == 1) ||
       (s0.load32 == DOperand::Load32::Bcast && s0.mod32 == DOperand::Mod32::None))) {
    std::swap(d.src[0], d.src[1]);
    std::swap(d.iload[0], d.iload[1]);
    std::swap(d.fload[0], d.fload[1]);
    d.src0Bits = static_cast<uint8_t>(typeSize(d.src[0].type) * 8);
  }
  if (Handler dense = pickDense(d, h, nsrc)) return dense;
  if (op == Opcode::CMP && d.exec > 1)
    if (Handler cmp = pickCmpDense(d, h)) return cmp;
  if (op == Opcode::MOV) {
    if (Handler m = pickMovLanes(d)) return m;
    if (h == byExec<AluH, Opcode::MOV, false>(d.exec))
      if (Handler m = pickMovWiden(d)) return m;
  }
  if (op == Opcode::MULH && typeSize(d.src[0].type) == 4 && typeSize(d.src[1].type) == 4)
    if (Handler m = pickMulhDense(d)) return m;
  return h;
}
// The bytes two register operands' first `exec` lanes of `size` bytes span do not meet.
bool bytesApart(const DOperand& x, const DOperand& y, unsigned exec, unsigned size) {
  auto span = [&](const DOperand& o) {
    ByteRange r{o.off[0], o.off[0]};
    for (unsigned k = 0; k < exec && k < o.off.size(); ++k) r = {std::min(r.lo, o.off[k]), std::max(r.hi, o.off[k])};
    return ByteRange{r.lo, r.hi + size};
  };
  return !span(x).meets(span(y));
}
// The form of ADDC and SUBB: UD sources, two UD destinations apart (the
// semantics write each lane's Dst and then its Carry; apart, the order is not seen).
Handler pickCarry(DInst& d, Opcode op) {
  const DOperand& cy = d.src[2];
  if (d.dst.type != Type::UD || cy.kind != DOperand::Kind::Reg || cy.type != Type::UD || cy.mod != Mod::None) return nullptr;
  if (d.src[0].type != Type::UD || d.src[1].type != Type::UD || !bytesApart(d.dst, cy, d.exec, 4)) return nullptr;
  return op == Opcode::SUBB ? byExec<CarryH, Opcode::SUBB, false>(d.exec) : byExec<CarryH, Opcode::ADDC, false>(d.exec);
}

// vecAsr for src0's signedness and src1's shape.
Handler pickAsr(const DInst& d) {
  const bool s = isSignedInt(d.src[0].type), one = oneValue(d.src[1]);
  if (s) return one ? byExec<AsrOf<true, true>::H, Opcode::ASR, false>(d.exec) : byExec<AsrOf<true, false>::H, Opcode::ASR, false>(d.exec);
  return one ? byExec<AsrOf<false, true>::H, Opcode::ASR, false>(d.exec) : byExec<AsrOf<false, false>::H, Opcode::ASR, false>(d.exec);
}

// uniformCmp, and at exec_size 16 its 32-lane form for the two halves of a
// SIMD32 CMP (DInst::halvesFn; formRuns' inPlaceHalves: the same sources).
template <bool Float>
Handler withUniformHalves(DInst& d) {
  if (d.exec == 16) {
    d.halvesFn = uniformCmp<Float, 32>;
    d.halvesInPlace = true;
    return uniformCmp<Float, 16>;
  }
  return d.exec == 8 ? uniformCmp<Float, 8> : uniformCmp<Float>;
}

Handler pickFastShape(DInst& d, Opcode op, int nsrc) {
  if (d.sat) return nullptr;
  if (op == Opcode::CMP) {
    if (d.dst.kind != DOperand::Kind::Pred) return nullptr;
    if (d.floatDomain) {
      if (d.execType != Type::F || !fastFltSrc(d.src[0], op) || !fastFltSrc(d.src[1], op)) return nullptr;
      if (d.exec == 1) return scalarCmp(d).first;
      if (oneValue(d.src[0]) && oneValue(d.src[1])) return withUniformHalves<true>(d);
      return byExec<CmpOf<CmpSign::Signed>::H, Opcode::CMP, true>(d.exec);  // (F: the sign is not read)
    }
    if (!fastIntSrc(d.src[0], op) || !fastIntSrc(d.src[1], op)) return nullptr;
    if (d.exec == 1) return scalarCmp(d).first;
    if (oneValue(d.src[0]) && oneValue(d.src[1])) return withUniformHalves<false>(d);
    switch (cmpSign(d)) {
      case CmpSign::Signed: return byExec<CmpOf<CmpSign::Signed>::H, Opcode::CMP, false>(d.exec);
      case CmpSign::Unsigned: return byExec<CmpOf<CmpSign::Unsigned>::H, Opcode::CMP, false>(d.exec);
      default: return byExec<CmpOf<CmpSign::Mixed>::H, Opcode::CMP, false>(d.exec);
    }
  }
  if (d.dst.kind != DOperand::Kind::Reg || d.dst.mod != Mod::None) return nullptr;
  if (d.floatDomain) {
    if (d.dst.type != Type::F || d.execType != Type::F) return nullptr;
    for (int s = 0; s < nsrc; ++s)
      if (!fastFltSrc(d.src[s], op)) return nullptr;
    if (op == Opcode::ADD) return byExec<AluH, Opcode::ADD, true>(d.exec);
    if (op == Opcode::MUL) return byExec<AluH, Opcode::MUL, true>(d.exec);
    if (op == Opcode::MAD) return byExec<MadH, Opcode::MAD, true>(d.exec);
    if (op == Opcode::MOV) return byExec<AluH, Opcode::MOV, true>(d.exec);  // F to F: its bits
    switch (op) {
      case Opcode::FMINMAX: return minMaxOf<MinMaxKind::F>(d);
      case Opcode::RNDD: return byExec<UnaryH, Opcode::RNDD, true>(d.exec);
      case Opcode::RNDU: return byExec<UnaryH, Opcode::RNDU, true>(d.exec);
      case Opcode::RNDE: return byExec<UnaryH, Opcode::RNDE, true>(d.exec);
      case Opcode::RNDZ: return byExec<UnaryH, Opcode::RNDZ, true>(d.exec);
      case Opcode::INV: return byExec<UnaryH, Opcode::INV, true>(d.exec);
      case Opcode::EXP: return fltMathByExec<ops::Exp, 1>(d.exec);
      case Opcode::LOG: return fltMathByExec<ops::Log, 1>(d.exec);
      case Opcode::SIN: return fltMathByExec<ops::Sin, 1>(d.exec);
      case Opcode::COS: return fltMathByExec<ops::Cos, 1>(d.exec);
      case Opcode::SQRT:
      case Opcode::SQRTM: return fltMathByExec<ops::Sqrt, 1>(d.exec);
      case Opcode::RSQRT: return fltMathByExec<ops::Rsqrt, 1>(d.exec);
      case Opcode::POW: return fltMathByExec<ops::Pow, 2>(d.exec);
      case Opcode::DIV: return fltMathByExec<ops::Div, 2>(d.exec);
      case Opcode::DIVM: return fltMathByExec<ops::Divm, 2>(d.exec);
      default: return nullptr;
    }
  }
  // (UD, D; or W, UW, B, UB: storeNarrow)
  if (!isIntType(d.dst.type) || d.dst.type == Type::BOOL || typeSize(d.dst.type) > 4) return nullptr;
  for (int s = 0; s < nsrc; ++s)
    if (!fastIntSrc(d.src[s], op)) return nullptr;
  switch (op) {
    case Opcode::ADD: return byExec<AluH, Opcode::ADD, false>(d.exec);
    case Opcode::MUL: return byExec<AluH, Opcode::MUL, false>(d.exec);
    case Opcode::AND: return byExec<AluH, Opcode::AND, false>(d.exec);
    case Opcode::OR: return byExec<AluH, Opcode::OR, false>(d.exec);
    case Opcode::XOR: return byExec<AluH, Opcode::XOR, false>(d.exec);
    case Opcode::NOT: return byExec<AluH, Opcode::NOT, false>(d.exec);
    case Opcode::SHL: return byExec<AluH, Opcode::SHL, false>(d.exec);
    case Opcode::SHR:
      // SHR shifts src0's own bits (E18): an unsigned extension keeps them, a signed one does not.
      if (isSignedInt(d.src[0].type) && typeSize(d.src[0].type) < 4) return nullptr;
      return byExec<AluH, Opcode::SHR, false>(d.exec);
    case Opcode::MOV: return byExec<AluH, Opcode::MOV, false>(d.exec);
    case Opcode::MULH: return byExec<MulhH, Opcode::MULH, false>(d.exec);
    case Opcode::MAD: return byExec<MadH, Opcode::MAD, false>(d.exec);
    case Opcode::SEL: return byExec<SelH, Opcode::SEL, false>(d.exec);
    case Opcode::FMINMAX: return pickIntMinMax(d);
    case Opcode::ADD3: return byExec<Alu3H, Opcode::ADD3, false>(d.exec);
    case Opcode::ADDC:
    case Opcode::SUBB: return pickCarry(d, op);
    case Opcode::BFN: return byExec<Alu3H, Opcode::BFN, false>(d.exec);
    case Opcode::MADW: return d.hiOff ? byExec<MadwH, Opcode::MADW, false>(d.exec) : nullptr;
    case Opcode::ASR: return pickAsr(d);
    case Opcode::DIV: return byExec<DivModH, Opcode::DIV, false>(d.exec);
    case Opcode::MOD: return byExec<DivModH, Opcode::MOD, false>(d.exec);
    case Opcode::LZD: return byExec<UnaryH, Opcode::LZD, false>(d.exec);
    // (A32: a rotation in src0's own width: 32 bits here)
    case Opcode::ROL: return typeSize(d.src[0].type) == 4 ? byExec<AluH, Opcode::ROL, false>(d.exec) : nullptr;
    case Opcode::ROR: return typeSize(d.src[0].type) == 4 ? byExec<AluH, Opcode::ROR, false>(d.exec) : nullptr;
    case Opcode::CBIT: return byExec<UnaryH, Opcode::CBIT, false>(d.exec);
    case Opcode::FBL: return byExec<UnaryH, Opcode::FBL, false>(d.exec);
    case Opcode::BFREV: return byExec<UnaryH, Opcode::BFREV, false>(d.exec);
    default: return nullptr;
  }
}

template <Opcode Op>
Handler intHandler() {
  return intAlu<Op>;
}

// ---------------------------------------------------------------- 64-bit lanes
// A Q or UQ destination without .sat takes the exact result's low 64 bits
// (2_datatypes.md "Type Conversion"), and for these operations they are those
// of the operation on the sources' 64-bit extensions, wrapping: the exact
// pipeline's bytes without its 128-bit values.
bool wideSrc(const DOperand& o) {
  return (o.kind == DOperand::Kind::Reg || o.kind == DOperand::Kind::Imm) && isIntType(o.type) && o.type != Type::BOOL &&
         o.mod != Mod::Not;
}
// The arithmetic modifiers on the exact value (a signed type's is negative
// when its extension's top bit is set), modulo 2^64, as two masks on a lane
// (no branch per lane): abs where absOn (a signed source), then negation
// where negOn.
struct WideMods {
  uint64_t absOn = 0, negOn = 0;
};
inline WideMods wideMods(const DOperand& o) {
  const bool abs = (o.mod == Mod::Abs || o.mod == Mod::NegAbs) && isSignedInt(o.type);
  const bool neg = o.mod == Mod::Neg || o.mod == Mod::NegAbs;
  return {abs ? ~uint64_t{0} : 0, neg ? ~uint64_t{0} : 0};
}
inline uint64_t applyMods(uint64_t x, WideMods m) {
  const uint64_t sign = m.absOn & static_cast<uint64_t>(static_cast<int64_t>(x) >> 63);
  x = (x ^ sign) - sign;
  return (x ^ m.negOn) - m.negOn;
}
void mod64(const DOperand& o, unsigned n, uint64_t* out) {
  const WideMods m = wideMods(o);
  for (unsigned k = 0; k < n; ++k) out[k] = applyMods(out[k], m);
}
// The source's elements, sign- or zero-extended to 64 bits by its type (a
// load of that type), with its (-), (abs) or (-abs): the loader picked for
// the operand and the execution size N at decoding (DInst::wload, pickLoad64).
template <class T, unsigned N>
void load64Reg(const Ctx& c, const DOperand& o, uint64_t* out) {
  if (o.shape == DOperand::Shape::Bcast) {
    std::fill_n(out, N, static_cast<uint64_t>(c.reg<T>(o.off[0])));
  } else if (o.shape == DOperand::Shape::Contig) {
    if constexpr (sizeof(T) == 8) {
      copyFixed<8 * N>(out, c.t.regs.data() + o.off[0]);
    } else {
      T v[N];
      copyFixed<sizeof v>(v, c.t.regs.data() + o.off[0]);
      for (unsigned k = 0; k < N; ++k) out[k] = static_cast<uint64_t>(v[k]);
    }
  } else {
    o.off.each(N, [&](unsigned k, uint32_t at) { out[k] = static_cast<uint64_t>(c.reg<T>(at)); });
  }
  if (o.mod != Mod::None) mod64(o, N, out);
}
template <unsigned N>
void immLanes64(const DOperand& o, uint64_t* out) {
  if (o.immPeriod == 1)
    std::fill_n(out, N, static_cast<uint64_t>(extendInt(o.imm[0], o.type)));
  else
    for (unsigned k = 0; k < N; ++k) out[k] = static_cast<uint64_t>(extendInt(o.imm[k % o.immPeriod], o.type));
  if (o.mod != Mod::None) mod64(o, N, out);
}
template <unsigned N>
void load64Imm(const Ctx&, const DOperand& o, uint64_t* out) {
  immLanes64<N>(o, out);
}
// Lane 0 of source i of a 64-bit form whose source is one value (its loader,
// DInst::wload[i], gives lane 0 alone): an immediate's DOperand::imm64 (set at
// decoding, load64Imm's lane 0), a register's element read now.
inline uint64_t oneLane64(const Ctx& c, const DInst& d, int i) {
  const DOperand& o = d.src[i];
  if (o.kind == DOperand::Kind::Imm) return o.imm64;
  uint64_t y;
  d.wload[i](c, o, &y);
  return y;
}
template <unsigned N>
Load64 pickLoad64Of(const DOperand& o) {
  if (o.kind == DOperand::Kind::Imm) return load64Imm<N>;
  switch (o.type) {
    case Type::UB: return load64Reg<uint8_t, N>;
    case Type::B: return load64Reg<int8_t, N>;
    case Type::UW: return load64Reg<uint16_t, N>;
    case Type::W: return load64Reg<int16_t, N>;
    case Type::UD: return load64Reg<uint32_t, N>;
    case Type::D: return load64Reg<int32_t, N>;
    case Type::Q: return load64Reg<int64_t, N>;
    default: return load64Reg<uint64_t, N>;
  }
}
Load64 pickLoad64(const DOperand& o, unsigned exec) {
  switch (exec) {
    case 1: return pickLoad64Of<1>(o);
    case 2: return pickLoad64Of<2>(o);
    case 4: return pickLoad64Of<4>(o);
    case 8: return pickLoad64Of<8>(o);
    case 16: return pickLoad64Of<16>(o);
    default: return pickLoad64Of<32>(o);
  }
}
// The enabled lanes' results to a Q or UQ destination (a contiguous one's
// lanes at once: with some lanes off, its elements with the enabled ones
// replaced, a disabled lane's written back unchanged).
template <unsigned N>
void store64(Ctx& c, const DInst& d, uint32_t en, unsigned lanes, const uint64_t* r) {
  uint8_t* regs = c.t.regs.data();
  if (d.dst.shape != DOperand::Shape::Contig) {
    if (lanes > N / 4) return blendLanes<uint64_t, N>(regs, d.dst, en, r);
    return forEachLane(en, [&](unsigned k) { c.setReg<uint64_t>(d.dst.off[k], r[k]); });
  }
  if (en == execMaskBits(N)) return copyFixed<8 * N>(regs + d.dst.off[0], r);
  if (lanes <= N / 2)  // (few lanes: each on its own; Contig: lane k's qword 8 k bytes on)
    return forEachLane(en, [&](unsigned k) { c.setReg<uint64_t>(d.dst.off[0] + 8 * k, r[k]); });
  uint8_t* D = regs + d.dst.off[0];
  if constexpr (N % 4 == 0) {  // two lanes at a time, as the in-place forms write them
    return forEachPairSome<N>(en, [&]<unsigned H, bool>(unsigned k, V4 on) {
      Q2 x;
      std::memcpy(&x, r + k + 2 * H, 16);
      putPair<H>(D + 8 * k + 16 * H, x, on);
    });
  }
  uint64_t v[N];
  copyFixed<sizeof v>(v, D);
  for (unsigned k = 0; k < N; ++k) {
    const uint64_t on = uint64_t{0} - ((en >> k) & 1);  // all ones in an enabled lane
    v[k] = (r[k] & on) | (v[k] & ~on);
  }
  copyFixed<sizeof v>(D, v);
}
// The operation on one lane's 64-bit values (y: src1; sm: DInst::shiftMask;
// g0: src0 is signed).
template <Opcode Op>
inline uint64_t wideOp(uint64_t a, uint64_t y, unsigned sm, uint64_t low, bool g0) {
  const unsigned s = static_cast<unsigned>(y) & sm;
  if constexpr (Op == Opcode::ADD) return a + y;
  else if constexpr (Op == Opcode::MUL) return a * y;
  else if constexpr (Op == Opcode::AND) return a & y;
  else if constexpr (Op == Opcode::OR) return a | y;
  else if constexpr (Op == Opcode::XOR) return a ^ y;
  else if constexpr (Op == Opcode::NOT) return ~a;
  else if constexpr (Op == Opcode::MOV) return a;
  else if constexpr (Op == Opcode::SHL) return a << s;  // (SHL page: the count's low 6 bits for Q/UQ)
  else if constexpr (Op == Opcode::SHR) return (a & low) >> s;  // (SHR: src0's own bits)
  else if constexpr (Op == Opcode::ASR) return g0 ? static_cast<uint64_t>(static_cast<int64_t>(a) >> s) : a >> s;
}
// (a src1 that is one value: its loader, DInst::wload[1], gives lane 0 alone, pickWide)
template <Opcode Op, unsigned N>
void wideAlu(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  const unsigned lanes = laneCountOf<N>(en);
  c.lanes += lanes;
  constexpr bool two = numSrcs(Op) == 2;
  uint64_t a[N], b[N], r[N];
  d.wload[0](c, d.src[0], a);
  if constexpr (two) d.wload[1](c, d.src[1], b);
  const bool g0 = isSignedInt(d.src[0].type);
  const uint64_t low = d.src0Bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << d.src0Bits) - 1;
  const unsigned sm = d.shiftMask;
  if (two && oneValue(d.src[1])) {
    const uint64_t y = b[0];  // one src1 for every lane: the loop the compiler vectorises
    for (unsigned k = 0; k < N; ++k) r[k] = wideOp<Op>(a[k], y, sm, low, g0);
  } else {
    for (unsigned k = 0; k < N; ++k) r[k] = wideOp<Op>(a[k], two ? b[k] : 0, sm, low, g0);
  }
  store64<N>(c, d, en, lanes, r);
}
inline uint64_t lane64(const uint8_t* p, unsigned k) {
  uint64_t v;
  std::memcpy(&v, p + 8 * k, 8);
  return v;
}
// wideAlu where the lanes are in place (pickWideDirect): a Contig Q or UQ src0
// and destination, src1 the same or one value (OneB); src0's modifier applied
// if Mods & 1, src1's if Mods & 2. The sources' lanes are read from the
// register file, the results (in lane order, a loop the compiler vectorises)
// written back at once.
template <Opcode Op, unsigned N, bool OneB, unsigned Mods>
void wideDirect(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  const unsigned lanes = laneCountOf<N>(en);
  c.lanes += lanes;
  constexpr bool two = numSrcs(Op) == 2;
  uint8_t* regs = c.t.regs.data();
  const uint8_t* A = regs + d.src[0].off[0];
  const uint8_t* B = regs + d.src[1].off[0];
  uint64_t y = 0;
  if constexpr (two && OneB) y = oneLane64(c, d, 1);  // (its modifier applied)
  [[maybe_unused]] WideMods ma, mb;
  if constexpr (Mods & 1) ma = wideMods(d.src[0]);
  if constexpr (Mods & 2) mb = wideMods(d.src[1]);
  const unsigned sm = d.shiftMask;
  uint64_t r[N];
  for (unsigned k = 0; k < N; ++k) {
    uint64_t a = lane64(A, k), b = y;
    if constexpr (Mods & 1) a = applyMods(a, ma);
    if constexpr (two && !OneB) {
      b = lane64(B, k);
      if constexpr (Mods & 2) b = applyMods(b, mb);
    }
    r[k] = wideOp<Op>(a, b, sm, ~uint64_t{0}, false);
  }
  store64<N>(c, d, en, lanes, r);
}
// SEL with a Q or UQ destination: the predicate's choice of the 64-bit extensions.
template <unsigned N>
void wideSel(Ctx& c, const DInst& d) {
  const SelLanes s = selLanes<N>(c, d);
  if (!s.en) return;
  uint64_t a[N], b[N];
  d.wload[0](c, d.src[0], a);
  d.wload[1](c, d.src[1], b);
  // (a source that is one value: its loader gives lane 0 alone, decodeAlu)
  if (oneValue(d.src[0])) std::fill_n(a + 1, N - 1, a[0]);
  if (oneValue(d.src[1])) std::fill_n(b + 1, N - 1, b[0]);
  for (unsigned k = 0; k < N; ++k) a[k] = pickLane(s.p, k, a[k], b[k]);
  store64<N>(c, d, s.en, s.lanes, a);
}
// wideSel where the lanes are in place (pickWideDirect): each source a Contig
// Q or UQ region with its modifier, or one value (OneA, OneB: lane 0 from its
// loader, the modifier applied).
template <unsigned N, bool OneA, bool OneB, bool Mods>
void wideSelDirect(Ctx& c, const DInst& d) {
  const SelLanes s = selLanes<N>(c, d);
  if (!s.en) return;
  const uint8_t* regs = c.t.regs.data();
  const uint8_t* A = regs + d.src[0].off[0];
  const uint8_t* B = regs + d.src[1].off[0];
  uint64_t x = 0, y = 0;
  if constexpr (OneA) x = oneLane64(c, d, 0);
  if constexpr (OneB) y = oneLane64(c, d, 1);
  const WideMods ma = wideMods(d.src[0]), mb = wideMods(d.src[1]);
  uint64_t r[N];
  for (unsigned k = 0; k < N; ++k) {
    uint64_t a = OneA ? x : lane64(A, k), b = OneB ? y : lane64(B, k);
    if constexpr (Mods) {
      if (!OneA) a = applyMods(a, ma);
      if (!OneB) b = applyMods(b, mb);
    }
    r[k] = pickLane(s.p, k, a, b);
  }
  store64<N>(c, d, s.en, s.lanes, r);
}
// CMP of integers of at most 64 bits without modifiers: their values compare
// as int64 (every type but UQ fits) or, with a UQ and no signed source, as uint64.
template <bool Unsigned, unsigned N>
void wideCmp(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  c.lanes += laneCountOf<N>(en);
  if (!en) return;
  uint64_t a[N], b[N];
  d.wload[0](c, d.src[0], a);
  d.wload[1](c, d.src[1], b);
  if (oneValue(d.src[1])) std::fill_n(b + 1, N - 1, b[0]);  // (its loader gives lane 0 alone: decodeAlu)
  uint32_t res;
  if constexpr (Unsigned) {
    res = relationBits<uint64_t, N>(d.relop, a, b);
  } else {
    // (int64_t may name the bytes of a uint64_t: their values mod 2^64 are the same)
    res = relationBits<int64_t, N>(d.relop, reinterpret_cast<const int64_t*>(a), reinterpret_cast<const int64_t*>(b));
  }
  storeRelation(c, d, en, res);
}
#if defined(__SSE2__)
// Two lanes' bits (bit 0 lane k, bit 1 lane k+1) where the qword of a is less
// than b's, signed or unsigned (T): the sign bit of an expression of a, b and
// a - b (Hacker's Delight 2-12) in each lane, which SSE2's 64-bit subtraction gives.
template <class T>
inline unsigned lessBits2(__m128i a, __m128i b) {
  const __m128i d = _mm_sub_epi64(a, b), x = _mm_xor_si128(a, b);
  const __m128i s = std::is_signed_v<T>
                        ? _mm_xor_si128(d, _mm_and_si128(x, _mm_xor_si128(d, a)))       // (a - b) ^ ((a ^ b) & ((a - b) ^ a))
                        : _mm_or_si128(_mm_andnot_si128(a, b), _mm_andnot_si128(x, d));  // (~a & b) | (~(a ^ b) & (a - b))
  return static_cast<unsigned>(_mm_movemask_pd(_mm_castsi128_pd(s)));
}
inline unsigned equalBits2(__m128i a, __m128i b) {
  const __m128i e = _mm_cmpeq_epi32(a, b);
  return static_cast<unsigned>(_mm_movemask_pd(_mm_castsi128_pd(_mm_and_si128(e, _mm_shuffle_epi32(e, _MM_SHUFFLE(2, 3, 0, 1))))));
}
// relop's bits of N qword lanes at A and at B (or each y: OneB), two at a time.
template <class T, unsigned N, bool OneB>
inline uint32_t relationBits64(unsigned relop, const uint8_t* A, const uint8_t* B, uint64_t y) {
  const __m128i yy = _mm_set1_epi64x(static_cast<long long>(y));
  auto each = [&](auto bits2) {
    uint32_t r = 0;
    for (unsigned k = 0; k < N; k += 2) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(A + 8 * k));
      const __m128i b = OneB ? yy : _mm_loadu_si128(reinterpret_cast<const __m128i*>(B + 8 * k));
      r |= bits2(a, b) << k;
    }
    return r;
  };
  switch (relop) {  // (CMP page's relations; the inverse ones' bits past N are dropped by storeRelation)
    case 0: return each(equalBits2);
    case 1: return ~each(equalBits2);
    case 2: return each([](__m128i a, __m128i b) { return lessBits2<T>(b, a); });
    case 3: return ~each(lessBits2<T>);
    case 4: return each(lessBits2<T>);
    default: return ~each([](__m128i a, __m128i b) { return lessBits2<T>(b, a); });
  }
}
#endif
// wideCmp where the lanes are in place: a Contig Q or UQ src0, src1 the same
// or one value (OneB); read from the register file.
template <bool Unsigned, unsigned N, bool OneB>
void wideCmpDirect(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  c.lanes += laneCountOf<N>(en);
  if (!en) return;
  using T = std::conditional_t<Unsigned, uint64_t, int64_t>;
  const uint8_t* regs = c.t.regs.data();
  const uint8_t* A = regs + d.src[0].off[0];
  const uint8_t* B = regs + d.src[1].off[0];
  uint64_t y = 0;
  if constexpr (OneB) y = oneLane64(c, d, 1);
#if defined(__SSE2__)
  if constexpr (N % 2 == 0) return storeRelation(c, d, en, relationBits64<T, N, OneB>(d.relop, A, B, y));
#endif
  const uint32_t res = withRelation(d.relop, [&](auto rel) {
    uint32_t r = 0;
    for (unsigned k = 0; k < N; ++k)
      r |= uint32_t{rel(static_cast<T>(lane64(A, k)), static_cast<T>(OneB ? y : lane64(B, k)))} << k;
    return r;
  });
  storeRelation(c, d, en, res);
}
// The in-place forms of wideDirect and wideSelDirect (pickWideDirect, the same
// modifiers): each region source the destination's qwords or apart from them,
// so lanes k..k+1 can be read, computed and written before the next two
// (every lane reads only its own elements). Two lanes per 16 bytes; a disabled
// lane's qword written back unchanged.
template <Opcode Op>
inline Q2 wideOp2(Q2 a, Q2 b, unsigned s, unsigned sm) {
  if constexpr (Op == Opcode::SHL) return a << s;
  else if constexpr (Op == Opcode::SHR) return a >> s;
  else if constexpr (Op == Opcode::NOT) return ~a;
  else if constexpr (Op == Opcode::MOV) return a;
  else if constexpr (Op == Opcode::ADD) return a + b;
  else if constexpr (Op == Opcode::MUL) return a * b;
  else if constexpr (Op == Opcode::AND) return a & b;
  else if constexpr (Op == Opcode::OR) return a | b;
  else if constexpr (Op == Opcode::XOR) return a ^ b;
  (void)sm;
}
// (a shift by each lane's own count: SHL, SHR of two regions)
template <Opcode Op>
inline Q2 wideShift2(Q2 a, Q2 b, unsigned sm) {
  const Q2 n = b & Q2{sm, sm};
  return Op == Opcode::SHL ? a << n : a >> n;
}
// applyMods on two lanes.
inline Q2 applyMods2(Q2 x, WideMods m) {
  if (m.absOn) {  // (a branch the same for every pair)
#if defined(__SSE2__)
    // (each qword's sign from its high dword's: SSE2 has no 64-bit arithmetic shift)
    const Q2 sign = reinterpret_cast<Q2>(
        _mm_srai_epi32(_mm_shuffle_epi32(reinterpret_cast<__m128i>(x), _MM_SHUFFLE(3, 3, 1, 1)), 31));
#else
    using I2 = int64_t __attribute__((vector_size(16)));
    const Q2 sign = reinterpret_cast<Q2>(reinterpret_cast<I2>(x) >> 63);
#endif
    x = (x ^ sign) - sign;
  }
  return (x ^ Q2{m.negOn, m.negOn}) - Q2{m.negOn, m.negOn};
}
// (Mods: as wideDirect's)
template <Opcode Op, unsigned N, bool OneB, unsigned Mods>
void wideInPlace(Ctx& c, const DInst& d) {
  const uint32_t en = chEnOf<N>(c, d);
  if (!en) return;
  c.lanes += laneCountOf<N>(en);
  constexpr bool two = numSrcs(Op) == 2;
  uint8_t* regs = c.t.regs.data();
  const uint8_t* A = regs + d.src[0].off[0];
  const uint8_t* B = regs + d.src[1].off[0];
  uint8_t* D = regs + d.dst.off[0];
  uint64_t y = 0;
  if constexpr (two && OneB) y = oneLane64(c, d, 1);
  const unsigned sm = d.shiftMask, s = static_cast<unsigned>(y) & sm;
  [[maybe_unused]] WideMods ma, mb;
  if constexpr (Mods & 1) ma = wideMods(d.src[0]);
  if constexpr (Mods & 2) mb = wideMods(d.src[1]);
  forEachPair<N>(en, [&]<unsigned H, bool All>(unsigned k, V4 on) {
    const unsigned at = 8 * k + 16 * H;
    Q2 a, b = {y, y};
    std::memcpy(&a, A + at, 16);
    if constexpr (Mods & 1) a = applyMods2(a, ma);
    if constexpr (two && !OneB) {
      std::memcpy(&b, B + at, 16);
      if constexpr (Mods & 2) b = applyMods2(b, mb);
    }
    Q2 r;
    if constexpr (!OneB && (Op == Opcode::SHL || Op == Opcode::SHR)) r = wideShift2<Op>(a, b, sm);
    else r = wideOp2<Op>(a, b, s, sm);
    putPair<H, All>(D + at, r, on);
  });
}
template <unsigned N, bool OneA, bool OneB, bool Mods>
void wideSelInPlace(Ctx& c, const DInst& d) {
  const SelLanes sl = selLanes<N>(c, d);
  if (!sl.en) return;
  uint8_t* regs = c.t.regs.data();
  const uint8_t* A = regs + d.src[0].off[0];
  const uint8_t* B = regs + d.src[1].off[0];
  uint8_t* D = regs + d.dst.off[0];
  uint64_t x = 0, y = 0;
  if constexpr (OneA) x = oneLane64(c, d, 0);
  if constexpr (OneB) y = oneLane64(c, d, 1);
  const WideMods ma = wideMods(d.src[0]), mb = wideMods(d.src[1]);
  forEachPair<N>(sl.en, [&]<unsigned H, bool All>(unsigned k, V4 on) {
    const unsigned at = 8 * k + 16 * H;
    Q2 a = {x, x}, b = {y, y};
    if constexpr (!OneA) {
      std::memcpy(&a, A + at, 16);
      if constexpr (Mods) a = applyMods2(a, ma);
    }
    if constexpr (!OneB) {
      std::memcpy(&b, B + at, 16);
      if constexpr (Mods) b = applyMods2(b, mb);
    }
    const Q2 p = reinterpret_cast<Q2>(pairMask<H>(laneMask4(sl.p >> k)));  // (the predicate: src0 where set, SEL page)
    putPair<H, All>(D + at, (a & p) | (b & ~p), on);
  });
}
// H<Op, N, OneB, Mods>::fn of a 64-bit form (wideDirect, wideInPlace) for op.
// With a modifier on a region: ADD, MUL and MOV alone (the others take wideAlu).
template <template <Opcode, unsigned, bool, unsigned> class H, unsigned N, bool OneB, unsigned Mods>
Handler wideOpOf(Opcode op) {
  if constexpr (Mods != 0) {
    switch (op) {
      case Opcode::ADD: return H<Opcode::ADD, N, OneB, Mods>::fn;
      case Opcode::MUL: return H<Opcode::MUL, N, OneB, Mods>::fn;
      case Opcode::MOV: return Mods == 1 && !OneB ? H<Opcode::MOV, N, false, 1>::fn : nullptr;
      default: return nullptr;
    }
  }
  switch (op) {
    case Opcode::ADD: return H<Opcode::ADD, N, OneB, Mods>::fn;
    case Opcode::MUL: return H<Opcode::MUL, N, OneB, Mods>::fn;
    case Opcode::AND: return H<Opcode::AND, N, OneB, Mods>::fn;
    case Opcode::OR: return H<Opcode::OR, N, OneB, Mods>::fn;
    case Opcode::XOR: return H<Opcode::XOR, N, OneB, Mods>::fn;
    case Opcode::SHL: return H<Opcode::SHL, N, OneB, Mods>::fn;
    case Opcode::SHR: return H<Opcode::SHR, N, OneB, Mods>::fn;
    case Opcode::MOV: return OneB ? nullptr : H<Opcode::MOV, N, false, Mods>::fn;
    case Opcode::NOT: return OneB ? nullptr : H<Opcode::NOT, N, false, Mods>::fn;
    default: return nullptr;
  }
}
template <Opcode Op, unsigned N, bool OneB, unsigned Mods>
struct DirectH {
  static constexpr Handler fn = wideDirect<Op, N, OneB, Mods>;
};
template <Opcode Op, unsigned N, bool OneB, unsigned Mods>
struct InPlaceH {
  static constexpr Handler fn = wideInPlace<Op, N, OneB, Mods>;
};
// The direct form (wideDirect, wideSelDirect, wideCmpDirect) of an instruction
// pickWide serves, if its operands allow it: SIMD8, 16 or 32; Contig regions
// of 8-byte elements (src1, and SEL's src0, may be one value).
template <unsigned N, bool OneB, unsigned Mods>
Handler directOf(Opcode op, bool uq) {
  if (op == Opcode::CMP) return Mods ? nullptr : uq ? wideCmpDirect<true, N, OneB> : wideCmpDirect<false, N, OneB>;
  return wideOpOf<DirectH, N, OneB, Mods>(op);
}
// pick.template operator()<N>() for the execution sizes the direct forms take (8, 16, 32).
template <class F>
Handler directByExec(unsigned exec, F pick) {
  return byExecSize(exec, [&]<unsigned N>() -> Handler {
    if constexpr (N >= 8) return pick.template operator()<N>();
    else return nullptr;
  });
}
// directByExec for a form whose lanes are each read and written in lane
// order (the in-place forms) or that writes a predicate alone (wideCmpDirect):
// at exec_size 16, also its 32-lane handler for a SIMD32 instruction's two
// halves (DInst::halvesFn, formRuns' inPlaceHalves).
template <class F>
Handler withHalves(DInst& d, F pick) {
  Handler h = directByExec(d.exec, pick);
  if (h && d.exec == 16) {
    d.halvesFn = pick.template operator()<32>();
    d.halvesInPlace = true;
  }
  return h;
}
template <unsigned N, bool OneB, unsigned Mods>
Handler inPlaceOf(Opcode op) {
  return wideOpOf<InPlaceH, N, OneB, Mods>(op);
}
// A Contig region of 8-byte lanes that is the destination's (Contig) qwords or apart from them.
bool inPlace(const DOperand& src, const DOperand& dst, unsigned exec) {
  return src.off[0] == dst.off[0] || bytesApart(src, dst, exec, 8);
}
Handler pickWideDirect(DInst& d, Opcode op, int nsrc, bool uq) {
  auto contig8 = [](const DOperand& o) {
    return o.kind == DOperand::Kind::Reg && o.shape == DOperand::Shape::Contig && typeSize(o.type) == 8;
  };
  // (a commutative operation with one value first: swapped, the other first)
  const bool commutes = op == Opcode::ADD || op == Opcode::MUL || op == Opcode::AND || op == Opcode::OR || op == Opcode::XOR;
  if (commutes && oneValue(d.src[0]) && contig8(d.src[1])) {
    std::swap(d.src[0], d.src[1]);
    std::swap(d.iload[0], d.iload[1]);
    std::swap(d.fload[0], d.fload[1]);
    d.src0Bits = static_cast<uint8_t>(typeSize(d.src[0].type) * 8);
  }
  const DOperand &a = d.src[0], &b = d.src[1];
  if (op == Opcode::SEL) {
    const bool oneA = oneValue(a), oneB = oneValue(b);
    if ((!oneA && !contig8(a)) || (!oneB && !contig8(b)) || d.dst.shape != DOperand::Shape::Contig) return nullptr;
    // (modifiers of a source that is one value: its loader applies them)
    const bool mods = (!oneA && a.mod != Mod::None) || (!oneB && b.mod != Mod::None);
    if ((oneA || inPlace(a, d.dst, d.exec)) && (oneB || inPlace(b, d.dst, d.exec)))
      return withHalves(d, [&]<unsigned N>() -> Handler {
        if (oneA && oneB) return wideSelInPlace<N, true, true, false>;
        if (oneA) return mods ? wideSelInPlace<N, true, false, true> : wideSelInPlace<N, true, false, false>;
        if (oneB) return mods ? wideSelInPlace<N, false, true, true> : wideSelInPlace<N, false, true, false>;
        return mods ? wideSelInPlace<N, false, false, true> : wideSelInPlace<N, false, false, false>;
      });
    return directByExec(d.exec, [&]<unsigned N>() -> Handler {
      if (oneA && oneB) return wideSelDirect<N, true, true, false>;
      if (oneA) return mods ? wideSelDirect<N, true, false, true> : wideSelDirect<N, true, false, false>;
      if (oneB) return mods ? wideSelDirect<N, false, true, true> : wideSelDirect<N, false, true, false>;
      return mods ? wideSelDirect<N, false, false, true> : wideSelDirect<N, false, false, false>;
    });
  }
  const bool cmp = op == Opcode::CMP;
  if (!contig8(a) || (!cmp && d.dst.shape != DOperand::Shape::Contig)) return nullptr;
  const bool two = nsrc == 2, oneB = two && oneValue(b);
  if (two && !oneB && !contig8(b)) return nullptr;
  // (a src1 that is one value: its loader applies its modifier)
  const unsigned mods = (a.mod != Mod::None ? 1 : 0) | (two && !oneB && b.mod != Mod::None ? 2 : 0);
  if (!cmp && inPlace(a, d.dst, d.exec) && (!two || oneB || inPlace(b, d.dst, d.exec)))
    if (Handler h = withHalves(d, [&]<unsigned N>() -> Handler {
          if (oneB) return mods ? inPlaceOf<N, true, 1>(op) : inPlaceOf<N, true, 0>(op);
          switch (mods) {
            case 0: return inPlaceOf<N, false, 0>(op);
            case 1: return inPlaceOf<N, false, 1>(op);
            case 2: return inPlaceOf<N, false, 2>(op);
            default: return inPlaceOf<N, false, 3>(op);
          }
        }))
      return h;
  if (cmp && !mods && d.dst.kind == DOperand::Kind::Pred)
    return withHalves(d, [&]<unsigned N>() -> Handler {
      if (oneB) return uq ? wideCmpDirect<true, N, true> : wideCmpDirect<false, N, true>;
      return uq ? wideCmpDirect<true, N, false> : wideCmpDirect<false, N, false>;
    });
  return directByExec(d.exec, [&]<unsigned N>() -> Handler {
    if (oneB) return mods ? directOf<N, true, 1>(op, uq) : directOf<N, true, 0>(op, uq);
    switch (mods) {
      case 0: return directOf<N, false, 0>(op, uq);
      case 1: return directOf<N, false, 1>(op, uq);
      case 2: return directOf<N, false, 2>(op, uq);
      default: return directOf<N, false, 3>(op, uq);
    }
  });
}
template <Opcode Op, bool Unsigned, unsigned N>
constexpr Handler wideFn() {
  if constexpr (Op == Opcode::SEL) return wideSel<N>;
  else if constexpr (Op == Opcode::CMP) return wideCmp<Unsigned, N>;
  else return wideAlu<Op, N>;
}
template <Opcode Op, bool Unsigned = false>
Handler wideByExec(unsigned exec) {
  switch (exec) {
    case 1: return wideFn<Op, Unsigned, 1>();
    case 2: return wideFn<Op, Unsigned, 2>();
    case 4: return wideFn<Op, Unsigned, 4>();
    case 8: return wideFn<Op, Unsigned, 8>();
    case 16: return wideFn<Op, Unsigned, 16>();
    default: return wideFn<Op, Unsigned, 32>();
  }
}
Handler pickWide(DInst& d, Opcode op, int nsrc) {
  if (d.sat || d.floatDomain) return nullptr;
  if (op == Opcode::CMP) {
    bool uq = false, signedSrc = false, wide = false;
    for (int s = 0; s < 2; ++s) {
      const DOperand& o = d.src[s];
      if (!wideSrc(o) || o.mod != Mod::None) return nullptr;
      uq |= o.type == Type::UQ;
      signedSrc |= isSignedInt(o.type);
      wide |= typeSize(o.type) == 8;
    }
    if (!wide) return nullptr;  // (narrower sources: the 32-bit forms or the pipeline)
    if (uq && signedSrc) return nullptr;
    if (Handler h = pickWideDirect(d, op, nsrc, uq)) return h;
    return uq ? wideByExec<Opcode::CMP, true>(d.exec) : wideByExec<Opcode::CMP>(d.exec);
  }
  if (d.dst.kind != DOperand::Kind::Reg || d.dst.mod != Mod::None || (d.dst.type != Type::Q && d.dst.type != Type::UQ))
    return nullptr;
  for (int s = 0; s < nsrc; ++s)
    if (!wideSrc(d.src[s])) return nullptr;
  if (op == Opcode::MOV && d.src[0].type == d.dst.type && d.src[0].mod == Mod::None) return nullptr;  // (movCopy)
  // (ASR shifts the exact value, whose sign a modified source's low 64 bits
  // may not hold: -x of a UD x is negative; the pipeline)
  if (op == Opcode::ASR && d.src[0].mod != Mod::None) return nullptr;
  if (Handler h = pickWideDirect(d, op, nsrc, false)) return h;
  switch (op) {
    case Opcode::ADD: return wideByExec<Opcode::ADD>(d.exec);
    case Opcode::MUL: return wideByExec<Opcode::MUL>(d.exec);
    case Opcode::AND: return wideByExec<Opcode::AND>(d.exec);
    case Opcode::OR: return wideByExec<Opcode::OR>(d.exec);
    case Opcode::XOR: return wideByExec<Opcode::XOR>(d.exec);
    case Opcode::NOT: return wideByExec<Opcode::NOT>(d.exec);
    case Opcode::MOV: return wideByExec<Opcode::MOV>(d.exec);
    case Opcode::SHL: return wideByExec<Opcode::SHL>(d.exec);
    case Opcode::SHR: return wideByExec<Opcode::SHR>(d.exec);
    case Opcode::ASR: return wideByExec<Opcode::ASR>(d.exec);
    case Opcode::SEL: return wideByExec<Opcode::SEL>(d.exec);
    default: return nullptr;
  }
}

void pickAluForm(const Program& p, const Instruction& inst, DInst& d) {
  const InstrDesc* desc = rowOf(inst);
  int dstIdx = -1, dst2Idx = -1, srcIdx[3] = {-1, -1, -1}, nsrc = 0;
  for (int i = 0; i < desc->numFields; ++i) {
    const FieldDesc& f = desc->fields[i];
    if (f.kind != FieldKind::Vec) continue;
    if (f.access == visakit::Access::Write) (dstIdx < 0 ? dstIdx : dst2Idx) = i;
    else if (nsrc < 3) srcIdx[nsrc++] = i;
  }
  if (int r = desc->findName("Rel_op"); r >= 0) d.relop = static_cast<uint8_t>(inst.f[r].value & 7);
  if (inst.op == Opcode::FMINMAX) d.isMax = inst.f[desc->findName("Op")].value & 1;
  if (inst.op == Opcode::BFN) d.lut = static_cast<uint8_t>(inst.f[desc->findName("BooleanFuncCtrl")].value);
  const unsigned exec = d.exec;
  if (dstIdx >= 0) d.dst = decodeVector(p, inst.f[dstIdx], exec, true, false);
  // MADW (A20): the high halves start at the GRF after the low halves' bytes, ((exec - 1) * hs + 1) * 4.
  if (inst.op == Opcode::MADW && d.dst.kind == DOperand::Kind::Reg && d.dst.type != Type::BOOL && typeSize(d.dst.type) == 4) {
    const uint32_t low = d.dst.off[exec - 1] - d.dst.off[0] + 4;
    d.hiOff = (low + p.grfSize - 1) / p.grfSize * p.grfSize;
  }
  // (ADDC's Carry, SUBB's Borrow: a second destination, read by their form alone)
  if (dst2Idx >= 0 && nsrc < 3) {
    d.src[2] = decodeVector(p, inst.f[dst2Idx], exec, true, false);
    d.dst2 = true;
  }
  for (int s = 0; s < nsrc; ++s) {
    const Operand& o = inst.f[srcIdx[s]];
    bool scalar = false;
    if (inst.op == Opcode::SETP && s == 0)
      scalar = o.kind == Operand::Kind::Immediate ||
               (o.kind == Operand::Kind::General && o.region.vs == 0 && o.region.w == 1 && o.region.hs == 0);
    d.src[s] = decodeVector(p, o, exec, false, scalar);
    if (d.src[s].kind == DOperand::Kind::Pred && d.src[s].predId >= 1 && d.src[s].predId <= p.kernel->preds.size())
      d.src[s].predBits = static_cast<uint8_t>(std::min<unsigned>(32, p.kernel->preds[d.src[s].predId - 1].numElts));
    if (s == 0) d.scalarSrc = scalar;
  }
  // A38: ROL/ROR take no source modifier; IGC's (-) on one is dropped (as ref/program.cpp drops it).
  if (inst.op == Opcode::ROL || inst.op == Opcode::ROR)
    for (int s = 0; s < nsrc; ++s) d.src[s].mod = Mod::None;
  // Execution domain: float if any source is float (widest float wins).
  bool flt = false;
  Type et = Type::HF;
  for (int s = 0; s < nsrc; ++s) {
    const DOperand& o = d.src[s];
    if (o.kind != DOperand::Kind::Pred && isFloatType(o.type)) {
      if (!flt || floatRank(o.type) > floatRank(et)) et = o.type;
      flt = true;
    }
  }
  d.floatDomain = flt;
  d.execType = flt ? (et == Type::BF ? Type::BF : et) : Type::UD;
  const Opcode op = inst.op;
  // Logic and shift operations are integer operations (their pages: integer types only).
  bool intOnly = desc->has(kIntOnly);
  if (intOnly) d.floatDomain = flt = false;
  if (op == Opcode::MOV && d.src[0].kind == DOperand::Kind::Pred) {
    d.src[0].wholePred = true;
    flt = d.floatDomain = false;
  }
  for (int s = 0; s < std::min(nsrc, 2); ++s) {  // (MAD's src2: its fast forms alone read it)
    d.iload[s] = pickIntLoad(d.src[s]);
    d.fload[s] = pickFltLoad(d.src[s], s);
  }
  d.istore = pickIntStore(d.dst);
  d.fstore = pickFltStore(d.dst);
  // SHL/SHR pages: 5 low bits of src1, 6 for a Q/UQ destination.
  bool qdst = d.dst.kind == DOperand::Kind::Reg && (d.dst.type == Type::Q || d.dst.type == Type::UQ);
  d.shiftMask = qdst ? 63 : 31;
  d.src0Bits = static_cast<uint8_t>(d.src[0].kind == DOperand::Kind::Pred ? 1 : typeSize(d.src[0].type) * 8);
  // E32: %cr0's rounding mode reaches integer -> float conversions (an
  // integer source of a float operation, a float destination of an integer
  // result), float -> narrower float and float ADD / MUL results. The forms
  // round to nearest even, so where the mode may be set those run through
  // their semantics; every other operation is exact or truncates.
  const bool dstFlt = d.dst.kind == DOperand::Kind::Reg && isFloatType(d.dst.type);
  const bool narrows = dstFlt && floatRank(d.dst.type) < floatRank(d.execType);  // (a float -> narrower float conversion)
  if (p.mayRound) {
    bool rounds = dstFlt;
    if (d.floatDomain) {
      bool intSrc = false;
      for (int s = 0; s < nsrc; ++s) intSrc |= d.src[s].kind != DOperand::Kind::Pred && !isFloatType(d.src[s].type);
      rounds = intSrc || op == Opcode::ADD || op == Opcode::MUL || op == Opcode::MAD || narrows;
    }
    if (rounds) {
      if (floatShape(d, op, nsrc) == Type::UD || kVarCr0 >= p.vars.size() || !p.vars[kVarCr0].present) {
        d.viaRef = true;
        return;
      }
      d.modeRounds = true;  // (the form picked below, if any, becomes nearFn: decodeAlu)
      d.cr0Off = p.vars[kVarCr0].offset;
    }
  }
  // E22: the forms flush HF denormals and a narrowing conversion's denormal source; where
  // %cr0 may keep them, HF operations and narrowing conversions run through their semantics.
  if (p.mayKeepDenorms && d.floatDomain && (d.execType == Type::HF || narrows)) {
    d.viaRef = true;
    return;
  }
  if (Handler h = pickPredLogic(d, op, nsrc)) {
    d.fn = h;
    return;
  }
  if (op != Opcode::MOV || d.src[0].kind != DOperand::Kind::Pred)
    if (Handler h = pickFast(d, op, nsrc, p.regBytes)) {
      d.fn = h;
      if (op == Opcode::CMP && d.exec == 1) d.cmpJmpFn = scalarCmp(d).second;
      return;
    }
  if (nsrc <= 2 && (op != Opcode::MOV || d.src[0].kind != DOperand::Kind::Pred))
    if (Handler h = pickWide(d, op, nsrc)) {
      d.fn = h;
      for (int i = 0; i < nsrc; ++i) {
        // (the 64-bit forms read a src1, or either source of SEL, that is one value from lane 0 alone)
        const bool one = (i == 1 || op == Opcode::SEL) && oneValue(d.src[i]);
        d.wload[i] = pickLoad64(d.src[i], one ? 1 : d.exec);
        if (one && d.src[i].kind == DOperand::Kind::Imm) immLanes64<1>(d.src[i], &d.src[i].imm64);
      }
      return;
    }
  switch (op) {
    case Opcode::SETP: d.fn = setpAlu; return;
    case Opcode::CMP: d.fn = flt ? cmpAlu<true> : cmpAlu<false>; return;
    case Opcode::SEL: d.fn = flt ? selAlu<true> : selAlu<false>; return;
    case Opcode::MOV:
      if (!d.sat && d.src[0].mod == Mod::None && d.dst.kind == DOperand::Kind::Reg && !d.src[0].wholePred &&
          d.src[0].kind != DOperand::Kind::Pred && d.src[0].type == d.dst.type) {
        switch (typeSize(d.dst.type)) {
          case 1: d.fn = movCopy<1>; return;
          case 2: d.fn = movCopy<2>; return;
          case 8: d.fn = movCopy<8>; return;
          default: d.fn = movCopy<4>; return;
        }
      }
      d.fn = flt ? fltAlu<Opcode::MOV> : intAlu<Opcode::MOV>;
      return;
    case Opcode::ADD: d.fn = flt ? fltAlu<Opcode::ADD> : intAlu<Opcode::ADD>; return;
    case Opcode::MUL: d.fn = flt ? fltAlu<Opcode::MUL> : intAlu<Opcode::MUL>; return;
    case Opcode::AND: d.fn = intHandler<Opcode::AND>(); return;
    case Opcode::OR: d.fn = intHandler<Opcode::OR>(); return;
    case Opcode::XOR: d.fn = intHandler<Opcode::XOR>(); return;
    case Opcode::NOT: d.fn = intHandler<Opcode::NOT>(); return;
    case Opcode::SHL: d.fn = intHandler<Opcode::SHL>(); return;
    case Opcode::SHR: d.fn = intHandler<Opcode::SHR>(); return;
    // Integer-only rows (their pages' types), through the same pipeline.
    case Opcode::MULH: d.fn = intHandler<Opcode::MULH>(); return;
    case Opcode::ASR: d.fn = intHandler<Opcode::ASR>(); return;
    case Opcode::AVG: d.fn = intHandler<Opcode::AVG>(); return;
    case Opcode::MAD:
      if (const Type t = floatShape(d, op, nsrc); t != Type::UD) {  // (F or DF sources of the destination's type)
        d.fn = floatFormOf<false>(op, t);
        return;
      }
      [[fallthrough]];
    case Opcode::MADW:  // (shapes without a fast form: their semantics)
    case Opcode::DIV:
    case Opcode::MOD:
    case Opcode::EXP:
    case Opcode::LOG:
    case Opcode::SIN:
    case Opcode::COS:
    case Opcode::SQRT:
    case Opcode::SQRTM:
    case Opcode::RSQRT:
    case Opcode::POW:
    case Opcode::DIVM:
    case Opcode::ADD3:
    case Opcode::BFN:
    case Opcode::ADDC:
    case Opcode::SUBB:
    case Opcode::RNDD:
    case Opcode::RNDU:
    case Opcode::RNDE:
    case Opcode::RNDZ:
    case Opcode::INV:
    case Opcode::LZD:
    case Opcode::CBIT:
    case Opcode::FBL:
    case Opcode::BFREV:
    case Opcode::ROL:
    case Opcode::ROR:
      d.viaRef = true;
      return;
    case Opcode::FMINMAX:
      // (shapes without a fast form) Integers: ops::Min / ops::Max (MIN_MAX page);
      // floats run through the semantics.
      if (flt) {
        d.viaRef = true;
        return;
      }
      d.fn = d.isMax ? intAluOf<ops::Max, 2> : intAluOf<ops::Min, 2>;
      return;
    default: d.fn = intHandler<Opcode::MOV>(); return;
  }
}

// The two SIMD16 halves of a SIMD32 instruction that rounds in %cr0's mode
// (E32, formRuns): in RTNE the 32-lane handler of the form they have without
// the mode, else each half's own form.
void modeHalves(Ctx& c, const DInst& d) {
  if (roundingMode(c, d) == Rounding::Rtne) [[likely]] return d.nearHalvesFn(c, d);
  const DInst* h = &d;
  h[0].fn(c, h[0]);
  h[1].fn(c, h[1]);
}

}  // namespace

void decodeAlu(const Program& p, const Instruction& inst, DInst& d) {
  pickAluForm(p, inst, d);
  if (!d.modeRounds) return;
  // (E32: the form picked above, if any, runs in RTNE; runs and the straight plan call fn alone, or modeHalves)
  d.nearFn = d.viaRef ? nullptr : d.fn;
  const Handler halves = d.viaRef ? nullptr : d.halvesFn;
  d.viaRef = false;
  d.fn = floatFormOf<true>(inst.op, d.dst.type);
  d.dropForms();
  d.cmpJmpFn = nullptr;
  if (halves) {
    d.halvesFn = modeHalves;
    d.nearHalvesFn = halves;
  }
}

}  // namespace visakit::sim
