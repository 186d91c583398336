// The ALU family's operations (their pages' semantics), in the style of
// ops.hpp, for the pipeline of arith.hpp:
//   exact / exactN  integer domain: the exact result of the sources' values
//                   (E13), which the pipeline truncates or saturates;
//   flt             float domain, computed in double and rounded once by the
//                   pipeline to the execution type (exact or innocuous: A12);
//   fltT            float domain, rounded by the operation itself to the
//                   execution type it is given (fused or transcendental: A13, A14).
// The decision of each rule is cited as spec-decisions A<n>.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/sem/ops.hpp"

namespace visakit::sim::ops {

static_assert(std::numeric_limits<long double>::digits >= 64, "the math functions are computed in x87 long double");

using Srcs = std::array<double, 4>;
using ISrcs = std::array<i128, 4>;

// A long double result rounded once to the execution type: F and DF by one
// conversion, HF and BF through double (A14).
inline double roundLd(long double v, Type et) {
  switch (et) {
    case Type::F: return static_cast<double>(static_cast<float>(v));
    case Type::DF: return static_cast<double>(v);
    default: return roundTo(static_cast<double>(v), et);
  }
}

// 1/sqrt(x) correctly rounded to double (RSQTM, A15): a long double first
// guess, then the neighbours' midpoints m are compared with x^-1/2 exactly:
// m < x^-1/2  <=>  m^2 x < 1, with m^2 x an integer of at most 161 bits.
inline int midpointVsRsqrt(double lo, double x) {  // sign of (mid(lo, next(lo)) - x^-1/2)
  int el, ex;
  double fl = std::frexp(lo, &el), fx = std::frexp(x, &ex);
  const uint64_t ml = static_cast<uint64_t>(std::ldexp(fl, 53)), mx = static_cast<uint64_t>(std::ldexp(fx, 53));
  // lo = ml 2^(el-53), the midpoint = (2 ml + 1) 2^(el-54), x = mx 2^(ex-53).
  const u128 m = 2 * u128{ml} + 1;
  const u128 m2 = m * m;  // < 2^108
  const u128 lowProd = static_cast<u128>(static_cast<uint64_t>(m2)) * mx;
  const u128 high = static_cast<u128>(static_cast<uint64_t>(m2 >> 64)) * mx + (lowProd >> 64);  // product = high 2^64 + low 64 bits
  const uint64_t low = static_cast<uint64_t>(lowProd);
  auto bitlen128 = [](u128 v) {
    uint64_t h = static_cast<uint64_t>(v >> 64);
    return h ? 128 - std::countl_zero(h) : 64 - std::countl_zero(static_cast<uint64_t>(v));
  };
  const int len = high ? 64 + bitlen128(high) : 64 - std::countl_zero(low);
  // m^2 x = product 2^(2(el-54) + ex-53); compare with 1: product < 2^K, K = -(2(el-54) + ex - 53).
  const int k = -(2 * (el - 54) + (ex - 53));
  // The product is never a power of two (m is odd and > 1): no ties.
  return len <= k ? -1 : 1;
}
inline double rsqrtDouble(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return std::signbit(x) ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return 0.0;
  double y = static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x)));
  for (int i = 0; i < 4; ++i) {
    const double up = std::nextafter(y, std::numeric_limits<double>::infinity());
    const double down = std::nextafter(y, 0.0);
    if (midpointVsRsqrt(y, x) < 0) y = up;          // x^-1/2 is above the midpoint over y
    else if (midpointVsRsqrt(down, x) > 0) y = down;  // x^-1/2 is below the midpoint under y
    else break;
  }
  return y;
}

// ---- arithmetic ----
// AVG page: (src0 + src1 + 1) >> 1, on the exact sum (A5).
struct Avg {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return (a + b + 1) >> 1; }
};
// MIN_MAX page, integers: they compare by their values (E13).
struct Min {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return b < a ? b : a; }
};
struct Max {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return a < b ? b : a; }
};
// MULH page: the high 32 bits of the exact product (signed or unsigned by the values, A6).
struct Mulh {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return mulExact(a, b) >> 32; }
};
// DIV page: integers truncate toward zero (its sign table); by zero: all ones
// of the destination (A7). Floats: "implemented as x * INV(y)" (A11).
struct Div {
  static i128 exact(i128 a, i128 b, const IntCtx& c) {
    if (b == 0) return isSignedInt(c.dstType) ? -1 : intMax(c.dstType);
    return a / b;
  }
  // (flushHf: HF denormals flushed, E22 / A29; %cr0 may keep them)
  static double fltT(Type et, const Srcs& v, bool flushHf = true) {
    double inv = roundTo(1.0 / v[1], et);
    if (et == Type::HF && flushHf) inv = isDenormalIn(inv, Type::HF) ? (std::signbit(inv) ? -0.0 : 0.0) : inv;
    return roundTo(v[0] * inv, et);  // exact product for F, HF; one rounding for DF
  }
};
// MOD page: the remainder takes the dividend's sign; by zero: the dividend (A7).
struct Mod {
  static i128 exact(i128 a, i128 b, const IntCtx&) { return b == 0 ? a : a % b; }
};
// MAD page: src0 * src1 + src2, rounded once (A13).
struct Mad {
  static i128 exact(i128 a, i128 b, i128 c, const IntCtx&) { return mulExact(a, b) + c; }
  static double fltT(Type et, const Srcs& v) {
    switch (et) {
      case Type::F:
        return static_cast<double>(std::fma(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])));
      case Type::DF: return std::fma(v[0], v[1], v[2]);
      default: return roundTo(std::fma(v[0], v[1], v[2]), et);  // HF, BF: innocuous double rounding
    }
  }
  // (the product's sign where it is zero: v[0] * v[1] is that zero)
  static std::array<double, 2> addends(const Srcs& v) { return {v[0] * v[1], v[2]}; }
  static Nearest nearest(const Srcs& v) {  // E32
    using Q = __float128;
    const double r = std::fma(v[0], v[1], v[2]);
    const Q p = static_cast<Q>(v[0]) * v[1], c = v[2];  // the product exact in binary128
    const Q s = p + c, bb = s - p, err = (p - (s - bb)) + (c - bb);  // TwoSum: s + err = p + c exactly
    return {r, signOfExact((s - r) + err)};  // s - r is exact (both within an ulp of r)
  }
};
// ADD3 page.
struct Add3 {
  static i128 exact(i128 a, i128 b, i128 c, const IntCtx&) { return a + b + c; }
};
// DP4A page: src0 plus the four byte products; bytes signed for a D source (A9).
struct Dp4a {
  static i128 exact(i128 a, i128 b, i128 c, const IntCtx& x) {
    const uint32_t p = static_cast<uint32_t>(lowBits(b, 32)), q = static_cast<uint32_t>(lowBits(c, 32));
    i128 r = a;
    for (unsigned i = 0; i < 4; ++i) {
      int32_t pb = static_cast<int32_t>((p >> (8 * i)) & 0xff), qb = static_cast<int32_t>((q >> (8 * i)) & 0xff);
      if (x.srcSigned[1] && pb > 127) pb -= 256;
      if (x.srcSigned[2] && qb > 127) qb -= 256;
      r += i128{pb} * qb;
    }
    return r;
  }
};

// ---- math (float only) ----
// EXP page: 2^x; LOG: log2; POW; SIN; COS: in long double, rounded once (A14).
struct Exp {
  static double fltT(Type et, const Srcs& v) { return roundLd(std::exp2(static_cast<long double>(v[0])), et); }
};
struct Log {
  static double fltT(Type et, const Srcs& v) { return roundLd(std::log2(static_cast<long double>(v[0])), et); }
};
// POW: C99 pow of the base's magnitude (A14: IGC's finalizer lowers POW to
// exp(src1 x log |src0|), and its fast cbrt relies on it).
struct Pow {
  static double fltT(Type et, const Srcs& v) {
    return roundLd(std::pow(std::fabs(static_cast<long double>(v[0])), static_cast<long double>(v[1])), et);
  }
};
struct Sin {
  static double fltT(Type et, const Srcs& v) { return roundLd(std::sin(static_cast<long double>(v[0])), et); }
};
struct Cos {
  static double fltT(Type et, const Srcs& v) { return roundLd(std::cos(static_cast<long double>(v[0])), et); }
};
// SQRT, SQRTM pages: correctly rounded (A12).
struct Sqrt {
  static double flt(double a, double) { return std::sqrt(a); }
};
// RSQRT page: 1 / sqrt(x), correctly rounded (A15).
struct Rsqrt {
  static double fltT(Type et, const Srcs& v) {
    if (et == Type::DF) return rsqrtDouble(v[0]);
    if (std::isnan(v[0]) || v[0] < 0) return std::numeric_limits<double>::quiet_NaN();
    return roundLd(1.0L / std::sqrt(static_cast<long double>(v[0])), et);
  }
};
// INV page: 1.0 / src0; DIVM page: src0 / src1, correctly rounded (A12).
struct Inv {
  static double flt(double a, double) { return 1.0 / a; }
};
struct Divm {
  static double flt(double a, double b) { return a / b; }
};
// FRC page: src0 - floor(src0) (A16).
struct Frc {
  static double flt(double a, double) { return a - std::floor(a); }
};
// RNDD, RNDU, RNDE, RNDZ pages: floor, ceil, the page's nearest-even, trunc;
// a zero result keeps the source's sign (A17).
struct Rndd {
  static double flt(double a, double) { return std::floor(a); }
};
struct Rndu {
  static double flt(double a, double) { return std::ceil(a); }
};
struct Rnde {
  static double flt(double a, double) {
    if (!std::isfinite(a)) return a;
    const double f = std::floor(a), frac = a - f;
    double r = frac > 0.5 ? f + 1 : frac < 0.5 ? f : (std::fmod(f, 2.0) != 0 ? f + 1 : f);
    return r == 0 ? std::copysign(0.0, a) : r;
  }
};
struct Rndz {
  static double flt(double a, double) { return std::trunc(a); }
};

// ---- bits and shifts ----
// ASR page: src0 >> (the low 5, or 6 for a Q destination, bits of src1), sign extended.
struct Asr {
  static i128 exact(i128 a, i128 b, const IntCtx& c) { return a >> (lowBits(b, 64) & c.shiftMask); }
};
// ROL, ROR pages: rotate src0's bits in its own width; the result is read as src0's type.
inline i128 rotate(i128 a, i128 b, const IntCtx& c, bool left) {
  const unsigned w = c.src0Bits >= 64 ? 64 : c.src0Bits;
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const uint64_t x = lowBits(a, w);
  unsigned n = static_cast<unsigned>(lowBits(b, 64) & (w - 1));
  if (!left) n = (w - n) & (w - 1);
  const uint64_t r = n == 0 ? x : ((x << n) | (x >> (w - n))) & mask;
  return extendInt(r, c.src0Type);
}
// (u32: a 32-bit src0's bits, one lane or four; the count's low 5 bits)
struct Rol {
  static i128 exact(i128 a, i128 b, const IntCtx& c) { return rotate(a, b, c, true); }
  template <class U>
  static U u32(U a, U b) { return (a << (b & 31)) | (a >> ((32 - (b & 31)) & 31)); }
};
struct Ror {
  static i128 exact(i128 a, i128 b, const IntCtx& c) { return rotate(a, b, c, false); }
  template <class U>
  static U u32(U a, U b) { return (a >> (b & 31)) | (a << ((32 - (b & 31)) & 31)); }
};
// CBIT page: the set bits of src0 (its own width).
struct Cbit {
  static i128 exact(i128 a, i128, const IntCtx& c) { return std::popcount(lowBits(a, c.src0Bits)); }
};
// FBL page: trailing zeros; 0xFFFFFFFF when no bit is set.
struct Fbl {
  static i128 exact(i128 a, i128, const IntCtx&) {
    const uint32_t x = static_cast<uint32_t>(lowBits(a, 32));
    return x == 0 ? i128{0xffffffff} : std::countr_zero(x);
  }
};
// FBH page: leading zeros (unsigned, or signed >= 0) or ones (signed < 0); 0, and -1 when signed, give 0xFFFFFFFF.
struct Fbh {
  static i128 exact(i128 a, i128, const IntCtx& c) {
    const uint32_t x = static_cast<uint32_t>(lowBits(a, 32));
    if (!isSignedInt(c.src0Type)) return x == 0 ? i128{0xffffffff} : std::countl_zero(x);
    if (x == 0 || x == 0xffffffffu) return 0xffffffff;
    return (x >> 31) ? std::countl_zero(~x) : std::countl_zero(x);
  }
};
// LZD page: leading zeros of the 32-bit value; 32 for zero.
struct Lzd {
  static i128 exact(i128 a, i128, const IntCtx&) { return std::countl_zero(static_cast<uint32_t>(lowBits(a, 32))); }
};
// BFREV page: dst[idx] = src0[31 - idx].
struct Bfrev {
  static i128 exact(i128 a, i128, const IntCtx&) {
    uint32_t x = static_cast<uint32_t>(lowBits(a, 32)), r = 0;
    for (unsigned i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
  }
};
// BFE page: (src2 >> offset) & ((1 << width) - 1), width = src0 & 31,
// offset = src1 & 31; sign extended from the field's top bit for a D destination (A10).
struct Bfe {
  static i128 exact(i128 w, i128 o, i128 v, const IntCtx& c) {
    const unsigned width = static_cast<unsigned>(lowBits(w, 32) & 31), off = static_cast<unsigned>(lowBits(o, 32) & 31);
    if (width == 0) return 0;
    const uint64_t f = (lowBits(v, 32) >> off) & ((uint64_t{1} << width) - 1);
    if (isSignedInt(c.dstType) && ((f >> (width - 1)) & 1)) return static_cast<i128>(f) - (i128{1} << width);
    return static_cast<i128>(f);
  }
};
// BFI page: ((src2 << offset) & bitmask) | (src3 & ~bitmask), in 32 bits.
struct Bfi {
  static i128 exactN(const ISrcs& v, const IntCtx&) {
    const unsigned width = static_cast<unsigned>(lowBits(v[0], 32) & 31), off = static_cast<unsigned>(lowBits(v[1], 32) & 31);
    const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << width) - 1) << off);
    const uint32_t ins = static_cast<uint32_t>(lowBits(v[2], 32) << off), base = static_cast<uint32_t>(lowBits(v[3], 32));
    return (ins & mask) | (base & ~mask);
  }
};
// BFN page: bit idx of dst = bit (s0 + 2 s1 + 4 s2) of BooleanFuncCtrl, per bit (A8).
inline uint64_t bfn(uint8_t lut, uint64_t s0, uint64_t s1, uint64_t s2) {
  uint64_t r = 0;
  for (unsigned idx = 0; idx < 8; ++idx)
    if ((lut >> idx) & 1) r |= ((idx & 1) ? s0 : ~s0) & ((idx & 2) ? s1 : ~s1) & ((idx & 4) ? s2 : ~s2);
  return r;
}

}  // namespace visakit::sim::ops
