// Each ALU operation once (its page's semantics), as a functor both tiers
// instantiate: `exact` in the integer domain (values of at most 64 bits plus
// sign, exact in 128 bits; the pipeline truncates or saturates into the
// destination), `flt` in the float domain (operands exact as doubles; the
// pipeline rounds the result to the execution type), and, for the fast tier's
// 32-bit shapes, `u32` on 32-bit lanes (one, or four as a vector: its result is
// the exact result's low 32 bits) and `f32` on F lanes (float, or four).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "sim/convert.hpp"

namespace visakit::sim::ops {

// What an integer operation needs beyond its operands.
struct IntCtx {
  unsigned shiftMask = 31;  // SHL, SHR, ASR, ROL, ROR: the count bits of src1 (5, or 6 for a Q/UQ destination)
  unsigned src0Bits = 32;   // SHR, ASR: the width of src0
  Type dstType = Type::UD;  // DIV by zero, BFE: the destination's type
  Type src0Type = Type::UD; // ROL, ROR, FBH: src0's type
  std::array<bool, 4> srcSigned{};  // DP4A: each source's signedness
};

// Exact product of two values of at most 64 bits (plus sign). A positive
// product too large for 128 bits (UQ x UQ) is replaced by a value with the
// same low 64 bits that is above every 64-bit maximum: truncation and
// saturation then both come out right.
inline i128 mulExact(i128 a, i128 b) {
  bool neg = (a < 0) != (b < 0);
  u128 ua = a < 0 ? u128{0} - static_cast<u128>(a) : static_cast<u128>(a);
  u128 ub = b < 0 ? u128{0} - static_cast<u128>(b) : static_cast<u128>(b);
  u128 m = ua * ub;  // < 2^128: no wrap
  if (neg) return static_cast<i128>(u128{0} - m);  // magnitude <= 2^127
  if (m >> 127) return static_cast<i128>(static_cast<uint64_t>(m)) + (i128{1} << 100);
  return static_cast<i128>(m);
}

// E32, a directed rounding mode in %cr0: ADD, MUL and MAD give their exact
// result as its nearest double and the sign of the rest (error-free).
struct Nearest {
  double d;
  int loSign;
};
template <class T>
inline int signOfExact(T x) { return (x > 0) - (x < 0); }  // NaN: 0
// IEEE 754 6.3 (E32): a sum whose exact value is zero is +0 in every rounding
// direction but toward -inf (RD), where it is -0 unless both addends u, w are
// +0. x: the result rounded in mode rm from (d, loSign) = (0, 0).
inline double exactZeroSum(double x, Rounding rm, double u, double w) {
  if (rm != Rounding::Rd) return x;
  return u == 0 && w == 0 && !std::signbit(u) && !std::signbit(w) ? 0.0 : -0.0;
}

// MOV page: dst = src0.
struct Mov {
  static i128 exact(i128 a, i128, const IntCtx&) { return a; }
  static double flt(double a, double) { return a; }
  template <class F>
  static F f32(F a, F) { return a; }
  template <class U>
  static U u32(U a, U) { return a; }
};
// ADD page: dst = src0 + src1.
struct Add {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return a + b; }
  static double flt(double a, double b) { return a + b; }  // exact or correctly rounded in double (F/HF)
  static std::array<double, 2> addends(const std::array<double, 4>& v) { return {v[0], v[1]}; }
  static Nearest nearest(double a, double b) {
    const double s = a + b;
    if (std::isinf(s) && std::isfinite(a) && std::isfinite(b)) return {s, -signOfExact(s)};  // overflow: below inf
    const double bb = s - a;  // TwoSum: s + ((a - (s - bb)) + (b - bb)) = a + b exactly
    return {s, signOfExact((a - (s - bb)) + (b - bb))};
  }
  template <class F>
  static F f32(F a, F b) { return a + b; }
  template <class U>
  static U u32(U a, U b) { return a + b; }
};
// MUL page: dst = src0 * src1.
struct Mul {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return mulExact(a, b); }
  static double flt(double a, double b) { return a * b; }
  static Nearest nearest(double a, double b) {
    const double p = a * b;  // the product is exact in binary128 (106 bits), so is its distance to p
    return {p, signOfExact(static_cast<__float128>(a) * b - p)};
  }
  template <class F>
  static F f32(F a, F b) { return a * b; }
  template <class U>
  static U u32(U a, U b) { return a * b; }
};
// AND, OR, XOR, NOT pages: bitwise.
struct And {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return a & b; }
  template <class U>
  static U u32(U a, U b) { return a & b; }
};
struct Or {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return a | b; }
  template <class U>
  static U u32(U a, U b) { return a | b; }
};
struct Xor {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return a ^ b; }
  template <class U>
  static U u32(U a, U b) { return a ^ b; }
};
struct Not {
  static i128 exact(i128 a, i128, const IntCtx&) { return ~a; }
  template <class U>
  static U u32(U a, U) { return ~a; }
};
// SHL page: the low 5 (6 for a Q/UQ destination) bits of src1, as an unsigned count.
struct Shl {
  static i128 exact(i128 a, i128 b, const IntCtx& c) {
    unsigned n = static_cast<unsigned>(lowBits(b, 64) & c.shiftMask);
    return static_cast<i128>(static_cast<u128>(a) << n);  // exact: |a| < 2^64, n < 64
  }
  template <class U>
  static U u32(U a, U b) { return a << (b & 31); }
};
// SHR page: a logical shift of src0's bits (its own width).
struct Shr {
  static i128 exact(i128 a, i128 b, const IntCtx& c) {
    unsigned n = static_cast<unsigned>(lowBits(b, 64) & c.shiftMask);
    return static_cast<i128>(lowBits(a, c.src0Bits) >> n);
  }
  template <class U>
  static U u32(U a, U b) { return a >> (b & 31); }
};

}  // namespace visakit::sim::ops
