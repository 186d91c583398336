// The ALU pipeline of the reference tier, shared by the core ALU rows
// (alu.cpp) and the ALU family (alu_ext.cpp). Sources are read for every lane
// before any destination element is written (the pages' dst[i] = op(src[i])
// over the instruction), in the operation's domain:
//   - integer: "extra precision is provided within the hardware ... implicit
//     type conversion happens" (2_datatypes.md "Type Conversion"): the exact
//     result is truncated to the destination, or clamped with .sat;
//   - float: the execution type is the widest float source (DF > F > HF, BF);
//     each result is rounded to it (RTNE; ADD, MUL, MAD in %cr0's mode: E32),
//     then converted to the destination.
#pragma once

#include <array>
#include <type_traits>

#include "sim/sem/ops.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim::pipeline {

// The float domain and its execution type: any float source makes it (widest
// wins; spec-decisions E11), unless the row is integer-only.
struct Domain {
  bool flt = false;
  Type exec = Type::UD;
};
inline Domain domainOf(const Exec& e) {
  Domain d;
  if (e.inst().row->has(kIntOnly)) return d;
  Type et = Type::HF;
  for (unsigned s = 0; s < e.numSrc(); ++s) {
    const RefOperand& o = e.op(e.src(s));
    if (o.kind == Operand::Kind::Predicate || !isFloatType(o.type)) continue;
    if (!d.flt || floatRank(o.type) > floatRank(et)) et = o.type;
    d.flt = true;
  }
  d.exec = d.flt ? et : Type::UD;
  return d;
}

// HF: "denorms are flushed to sign-preserved zero on input and output of any
// floating-point mathematical operation" (2_datatypes.md "IEEE Floating Point Mode").
inline double flushHf(double v) { return isDenormalIn(v, Type::HF) ? (std::signbit(v) ? -0.0 : 0.0) : v; }

// A float-domain source: floats exactly, integers converted to the execution
// type (RTNE, spec-decisions E11; or %cr0's mode, E32).
inline double fltSource(const Exec& e, int f, unsigned k, Type et, Rounding rm) {
  const RefOperand& o = e.op(f);
  if (o.kind != Operand::Kind::Predicate && isFloatType(o.type)) return e.floatValue(f, k);
  if (rm != Rounding::Rtne) return intToFloatMode(e.intValue(f, k), et, rm);  // E32
  return roundTo(intToDouble(e.intValue(f, k), et), et);
}
inline double fltSource(const Exec& e, int f, unsigned k, Type et) { return fltSource(e, f, k, et, e.rounding()); }

inline ops::IntCtx intCtx(const Exec& e) {
  ops::IntCtx c;
  const RefOperand& d = e.op(e.dst());
  // SHL / SHR / ASR pages: 5 low bits of src1, 6 for a Q/UQ destination.
  c.shiftMask = d.kind == Operand::Kind::General && (d.type == Type::Q || d.type == Type::UQ) ? 63 : 31;
  c.dstType = d.kind == Operand::Kind::Predicate ? Type::UD : d.type;
  const RefOperand& s0 = e.op(e.src(0));
  c.src0Bits = s0.kind == Operand::Kind::Predicate ? 1 : typeSize(s0.type) * 8;
  c.src0Type = s0.kind == Operand::Kind::Predicate ? Type::UB : s0.type;
  for (unsigned s = 0; s < e.numSrc() && s < 4; ++s) {
    const RefOperand& o = e.op(e.src(s));
    c.srcSigned[s] = o.kind != Operand::Kind::Predicate && isSignedInt(o.type);
  }
  return c;
}

// What an operation provides: `exact` (integer domain), `flt` (float domain,
// rounded by the pipeline) or `fltT` (float domain, rounded by the operation
// itself to the execution type it is given).
template <class Op, unsigned NSrc>
double fltResult(const std::array<double, 4>& v, Type et) {
  if constexpr (requires { Op::fltT(et, v); }) return Op::fltT(et, v);
  else if constexpr (NSrc <= 2) return Op::flt(v[0], v[1]);
  else return Op::flt(v[0], v[1], v[2]);
}
template <class Op, unsigned NSrc>
i128 exactResult(const std::array<i128, 4>& v, const ops::IntCtx& c) {
  if constexpr (requires { Op::exactN(v, c); }) return Op::exactN(v, c);
  else if constexpr (NSrc <= 2) return Op::exact(v[0], v[1], c);
  else return Op::exact(v[0], v[1], v[2], c);
}
// E32: the operations whose result follows %cr0's rounding mode (ADD, MUL,
// MAD: they give their exact result as `nearest`), rounded once in mode rm.
template <class Op>
constexpr bool kHasNearest = requires(const std::array<double, 4>& v) { Op::nearest(v); } ||
                             requires { Op::nearest(0.0, 0.0); };
template <class Op>
double roundedInMode(const std::array<double, 4>& v, Type et, Rounding rm) {
  ops::Nearest r{0, 0};
  if constexpr (requires { Op::nearest(v); }) r = Op::nearest(v);
  else if constexpr (requires { Op::nearest(0.0, 0.0); }) r = Op::nearest(v[0], v[1]);
  const double x = roundMode(r.d, r.loSign, et, rm);
  if (r.d != 0 || r.loSign != 0) return x;
  if constexpr (requires { Op::addends(v); }) {  // (an exact zero sum)
    const auto [u, w] = Op::addends(v);
    return ops::exactZeroSum(x, rm, u, w);
  }
  return x;
}
template <class Op>
constexpr bool kHasFloat = requires(const std::array<double, 4>& v) { Op::fltT(Type::F, v); } ||
                           requires { Op::flt(0.0, 0.0); } || requires { Op::flt(0.0, 0.0, 0.0); };
template <class Op>
constexpr bool kHasInt = requires(const std::array<i128, 4>& v, const ops::IntCtx& c) { Op::exactN(v, c); } ||
                         requires(const ops::IntCtx& c) { Op::exact(i128{}, i128{}, c); } ||
                         requires(const ops::IntCtx& c) { Op::exact(i128{}, i128{}, i128{}, c); };

// The arithmetic instructions: dst = Op(src0[, src1[, src2[, src3]]]).
template <class Op, unsigned NSrc>
void arith(Exec& e) {
  static_assert(NSrc >= 1 && NSrc <= 4);
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const unsigned n = e.exec();
  const int d = e.dst();
  Domain dom = domainOf(e);
  if constexpr (!kHasInt<Op>) {
    // A float-only operation (its page's types are float): integer sources
    // are converted to the destination's float type, or F.
    if (!dom.flt) {
      const Type dt = e.type(d);
      dom.flt = true;
      dom.exec = isFloatType(dt) ? dt : Type::F;
    }
  }
  if constexpr (kHasFloat<Op>) {
    if (dom.flt) {
      const Rounding rm = e.rounding();  // E32
      std::array<std::array<double, 4>, 32> v{};
      for (unsigned k = 0; k < n; ++k)
        for (unsigned s = 0; s < NSrc; ++s) v[k][s] = fltSource(e, e.src(s), k, dom.exec, rm);
      const bool hf = dom.exec == Type::HF && !e.denormsKept(Type::HF);  // (E22: flushed unless %cr0 keeps them)
      const bool isMov = std::is_same_v<Op, ops::Mov>;
      for (unsigned k = 0; k < n; ++k) {
        if (!((en >> k) & 1)) continue;
        double x;
        if (isMov) {
          x = v[k][0];
        } else {
          std::array<double, 4> p = v[k];
          if (hf)
            for (double& q : p) q = flushHf(q);
          if (kHasNearest<Op> && rm != Rounding::Rtne) x = roundedInMode<Op>(p, dom.exec, rm);
          else if constexpr (requires { Op::fltT(dom.exec, p, hf); }) x = roundTo(Op::fltT(dom.exec, p, hf), dom.exec);  // (DIV)
          else x = roundTo(fltResult<Op, NSrc>(p, dom.exec), dom.exec);
          if (hf) x = flushHf(x);
          if (std::isnan(x)) x = std::bit_cast<double>(canonicalNaN(Type::DF));  // E14
        }
        e.storeFloat(d, k, x, dom.exec);
      }
      return;
    }
  }
  if constexpr (kHasInt<Op>) {
    const ops::IntCtx c = intCtx(e);
    std::array<std::array<i128, 4>, 32> v{};
    for (unsigned k = 0; k < n; ++k)
      for (unsigned s = 0; s < NSrc; ++s) v[k][s] = e.intValue(e.src(s), k);
    for (unsigned k = 0; k < n; ++k)
      if ((en >> k) & 1) e.storeInt(d, k, exactResult<Op, NSrc>(v[k], c));
  }
}

}  // namespace visakit::sim::pipeline
