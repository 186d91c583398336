// Type conversions and saturation exactly as chapter 2 "Data Types" gives
// them, free of C++ undefined behaviour for every input.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "visakit/isa.hpp"
#include "visakit/kernel.hpp"

namespace visakit::sim {

using i128 = __int128;
using u128 = unsigned __int128;

static_assert(std::endian::native == std::endian::little, "the simulator assumes a little-endian host");

// ---- integer type ranges (2_datatypes.md "Fundamental Data Types") ----
inline unsigned intBits(Type t) { return typeSize(t) * 8; }
inline bool isIntType(Type t) {
  switch (t) {
    case Type::UD: case Type::D: case Type::UW: case Type::W: case Type::UB: case Type::B:
    case Type::UQ: case Type::Q: case Type::V: case Type::UV: case Type::BOOL: return true;
    default: return false;
  }
}
inline bool isSignedInt(Type t) { return t == Type::D || t == Type::W || t == Type::B || t == Type::Q || t == Type::V; }
inline i128 intMin(Type t) { return isSignedInt(t) ? -(i128{1} << (intBits(t) - 1)) : 0; }
inline i128 intMax(Type t) {
  return isSignedInt(t) ? (i128{1} << (intBits(t) - 1)) - 1 : (i128{1} << intBits(t)) - 1;
}
inline uint64_t lowBits(i128 v, unsigned bits) {
  uint64_t x = static_cast<uint64_t>(static_cast<u128>(v));
  return bits >= 64 ? x : x & ((uint64_t{1} << bits) - 1);
}
// Value of `bits` (the low typeSize bytes) as an integer of type t: zero or sign extension
// ("Integer to Integer with Same or Higher Precision").
inline i128 extendInt(uint64_t bits, Type t) {
  unsigned n = intBits(t);
  if (n < 64) bits &= (uint64_t{1} << n) - 1;
  if (isSignedInt(t) && n <= 64 && ((bits >> (n - 1)) & 1)) {
    // sign extend without signed overflow
    return static_cast<i128>(bits) - (i128{1} << n);
  }
  return static_cast<i128>(bits);
}

// Chapter 5 "Source Modifiers" on an integer source's value v (of type t):
// `-` and `abs` give the exact value (E13), but where the value is converted to
// a floating-point destination they act in the source's own type, two's
// complement: -(-2^31) of a D is -2^31 (spec-decisions E13).
inline i128 intModified(i128 v, Mod m, Type t, bool toFloat) {
  switch (m) {
    case Mod::Neg: v = -v; break;
    case Mod::Abs: v = v < 0 ? -v : v; break;
    case Mod::NegAbs: v = v < 0 ? v : -v; break;
    default: return v;
  }
  return toFloat ? extendInt(lowBits(v, intBits(t)), t) : v;
}

// Integer result -> integer destination: "bit truncation" ("Integer to Integer
// with Lower Precision"), or with .sat a clamp to the type's range ("Saturation").
inline uint64_t intToInt(i128 v, Type dst, bool sat) {
  if (sat) {
    i128 lo = intMin(dst), hi = intMax(dst);
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  return lowBits(v, intBits(dst));
}

// ---- half and bfloat16 ----
inline double halfToDouble(uint16_t h) {
  unsigned sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  double v;
  if (exp == 0) v = std::ldexp(static_cast<double>(man), -24);
  else if (exp == 31) v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else v = std::ldexp(static_cast<double>(man | 1024), static_cast<int>(exp) - 25);
  if (exp == 31 && man) {
    // keep the payload's top bits and the sign
    uint64_t b = (uint64_t{sign} << 63) | (uint64_t{0x7ff} << 52) | (uint64_t{man} << 42) | (uint64_t{1} << 51);
    return std::bit_cast<double>(b);
  }
  return sign ? -v : v;
}

// Shift right by s with round-to-nearest-even.
inline uint64_t shiftRne(uint64_t v, int s) {
  if (s <= 0) return v;
  if (s >= 64) return 0;  // v < 2^63: below half of the unit
  uint64_t q = v >> s, r = v & ((uint64_t{1} << s) - 1), half = uint64_t{1} << (s - 1);
  if (r > half || (r == half && (q & 1))) ++q;
  return q;
}

// Round a double to a narrower binary format with `manBits` mantissa bits and
// exponent bias `bias` (max biased exponent all ones = inf/NaN), RTNE.
inline uint64_t doubleToNarrow(double d, unsigned manBits, unsigned expBits) {
  uint64_t b = std::bit_cast<uint64_t>(d);
  uint64_t sign = (b >> 63) << (manBits + expBits);
  int exp = static_cast<int>((b >> 52) & 0x7ff);
  uint64_t man = b & ((uint64_t{1} << 52) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  uint64_t infBits = ((uint64_t{1} << expBits) - 1) << manBits;
  if (exp == 0x7ff) {
    if (!man) return sign | infBits;
    return sign | infBits | (uint64_t{1} << (manBits - 1)) | (man >> (52 - manBits));  // quiet NaN
  }
  if (exp == 0) return sign;  // double denormal: far below the narrow format's range
  int e = exp - 1023;
  if (e > bias) return sign | infBits;
  uint64_t sig = man | (uint64_t{1} << 52);
  int minExp = 1 - bias;
  if (e >= minExp) {
    uint64_t r = shiftRne(sig, 52 - static_cast<int>(manBits));  // includes the implicit bit
    return sign | ((static_cast<uint64_t>(e + bias - 1) << manBits) + r);  // carry may reach inf: correct
  }
  uint64_t r = shiftRne(sig, 52 - static_cast<int>(manBits) + (minExp - e));
  return sign | r;  // may round up to the smallest normal: correct encoding
}
inline uint16_t doubleToHalf(double d) { return static_cast<uint16_t>(doubleToNarrow(d, 10, 5)); }
inline uint16_t doubleToBf16(double d) { return static_cast<uint16_t>(doubleToNarrow(d, 7, 8)); }
inline double bf16ToDouble(uint16_t b) {
  return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(b) << 16));
}

// Packed restricted float (VF): sign bit 7, exponent bits 6:4 (bias 3),
// mantissa bits 3:0; exponent and mantissa 0 is zero (2_datatypes.md; spec-decisions E15).
inline float vfToFloat(uint8_t v) {
  unsigned sign = v >> 7, exp = (v >> 4) & 7, man = v & 15;
  if (exp == 0 && man == 0) return sign ? -0.0f : 0.0f;
  uint32_t bits = (uint32_t{sign} << 31) | ((exp + 124u) << 23) | (uint32_t{man} << 19);
  return std::bit_cast<float>(bits);
}

// ---- float formats ----
inline bool isFloatType(Type t) { return t == Type::F || t == Type::DF || t == Type::HF || t == Type::BF; }

inline double floatBitsToDouble(uint64_t bits, Type t) {
  switch (t) {
    case Type::F: return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case Type::DF: return std::bit_cast<double>(bits);
    case Type::HF: return halfToDouble(static_cast<uint16_t>(bits));
    case Type::BF: return bf16ToDouble(static_cast<uint16_t>(bits));
    default: return 0;
  }
}

// Smallest normal magnitude of a float format.
inline double minNormal(Type t) {
  switch (t) {
    case Type::F: return 0x1p-126;
    case Type::HF: return 0x1p-14;
    case Type::BF: return 0x1p-126;
    default: return 0x1p-1022;
  }
}
inline bool isDenormalIn(double v, Type t) { return v != 0 && std::fabs(v) < minNormal(t); }
inline unsigned floatRank(Type t) { return t == Type::DF ? 3 : t == Type::F ? 2 : 1; }

// Rounds v (exactly representable in `from`) to float format `to`, RTNE
// ("Float to Float with Lower/Higher Precision"): narrowing flushes a denormal
// source to a signed zero; widening is exact.
inline uint64_t doubleToFloatBits(double v, Type to, Type from) {
  if (floatRank(to) < floatRank(from) && isDenormalIn(v, from)) v = std::signbit(v) ? -0.0 : 0.0;
  switch (to) {
    case Type::F: return std::bit_cast<uint32_t>(static_cast<float>(v));  // IEEE: overflow -> inf
    case Type::DF: return std::bit_cast<uint64_t>(v);
    case Type::HF: return doubleToHalf(v);
    case Type::BF: return doubleToBf16(v);
    default: return 0;
  }
}
// v rounded to format t and back (the result of an operation of execution type t).
inline double roundTo(double v, Type t) {
  switch (t) {
    case Type::F: return static_cast<double>(static_cast<float>(v));
    case Type::HF: return halfToDouble(doubleToHalf(v));
    case Type::BF: return bf16ToDouble(doubleToBf16(v));
    default: return v;
  }
}

// "Float to Integer": round toward zero; out of range gives Imax / Imin; NaN 0.
// Negative values to an unsigned type give 0 (spec-decisions E12).
inline uint64_t floatToInt(double v, Type dst) {
  unsigned n = intBits(dst);
  if (std::isnan(v)) return 0;
  if (isSignedInt(dst)) {
    double hi = std::ldexp(1.0, static_cast<int>(n) - 1);  // 2^(n-1): first value above Imax
    if (v >= hi) return lowBits(intMax(dst), n);
    if (v < -hi) return lowBits(intMin(dst), n);
    return lowBits(static_cast<i128>(static_cast<int64_t>(std::trunc(v))), n);
  }
  double hi = std::ldexp(1.0, static_cast<int>(n));
  if (v >= hi) return lowBits(intMax(dst), n);
  if (!(v > -1.0)) return 0;  // -inf, negative values
  double t = std::trunc(v);
  if (t <= 0) return 0;  // -0, (-1, 0)
  return lowBits(static_cast<i128>(static_cast<uint64_t>(t)), n);
}

// "Integer to Float": round to nearest even.
inline double intToDouble(i128 v, Type fmt) {
  switch (fmt) {
    case Type::F: return static_cast<double>(static_cast<float>(v));
    default: return static_cast<double>(v);  // exact when |v| <= 2^53; HF/BF then round once more (|v| > 2^53 is inf)
  }
}

// ---- the control register's rounding mode (spec-decisions E32) ----
// 4_visa_header.md %cr0 "FPU Rounding mode: Bit 4-5": 00 RTNE, 01 RU (toward
// +inf), 10 RD (toward -inf), 11 RTZ.
enum class Rounding : uint8_t { Rtne = 0, Ru = 1, Rd = 2, Rtz = 3 };

inline int signOf(double x) { return (x > 0) - (x < 0); }  // NaN: 0

// Rounds the exact value x to a narrow float format (`manBits`, `expBits`)
// by mode rm. x is given as d, x rounded to nearest double, and loSign, the
// sign of x - d (d = x when 0); x - d is too small to reach a neighbour of d
// in the narrow format, so d decides everything but a tie or an exact d.
inline uint64_t doubleToNarrowMode(double d, unsigned manBits, unsigned expBits, Rounding rm, int loSign) {
  const uint64_t b = std::bit_cast<uint64_t>(d);
  const bool neg = b >> 63;
  const uint64_t sign = uint64_t{neg} << (manBits + expBits);
  const int exp = static_cast<int>((b >> 52) & 0x7ff);
  const uint64_t man = b & ((uint64_t{1} << 52) - 1);
  const int bias = (1 << (expBits - 1)) - 1;
  const uint64_t infBits = ((uint64_t{1} << expBits) - 1) << manBits, maxBits = infBits - 1;
  const int stickyMag = neg ? -loSign : loSign;  // +1: |x| is a little above |d|
  // The magnitude rounds to nearest (RTNE), up (RU of a positive, RD of a
  // negative value) or down (RTZ, RU of a negative, RD of a positive value).
  enum class Dir { Near, Away, Toward };
  const Dir dir = rm == Rounding::Rtne ? Dir::Near
                  : rm == Rounding::Rtz ? Dir::Toward
                  : (rm == Rounding::Ru) != neg ? Dir::Away : Dir::Toward;
  if (exp == 0x7ff) {
    if (man) return sign | infBits | (uint64_t{1} << (manBits - 1)) | (man >> (52 - manBits));  // quiet NaN
    return sign | (stickyMag < 0 && dir == Dir::Toward ? maxBits : infBits);  // an overflowed x is below inf
  }
  if (exp == 0) return sign | (man && dir == Dir::Away ? 1 : 0);  // double denormal: below the smallest step
  const int e = exp - 1023;
  if (e > bias) return sign | (dir == Dir::Toward ? maxBits : infBits);
  const uint64_t sig = man | (uint64_t{1} << 52);
  const int minExp = 1 - bias;
  const int shift = 52 - static_cast<int>(manBits) + (e >= minExp ? 0 : minExp - e);  // >= 1
  uint64_t q = 0, rem = sig, half = uint64_t{1} << 63;  // shift >= 64: all of sig below half a step
  if (shift < 64) {
    q = sig >> shift;
    rem = sig & ((uint64_t{1} << shift) - 1);
    half = uint64_t{1} << (shift - 1);
  }
  switch (dir) {
    case Dir::Near:
      if (rem > half || (rem == half && (stickyMag > 0 || (stickyMag == 0 && (q & 1))))) ++q;
      break;
    case Dir::Away:
      if (rem || stickyMag > 0) ++q;
      break;
    case Dir::Toward:
      if (!rem && stickyMag < 0) --q;  // just below a representable value (q >= 1: sig != 0)
      break;
  }
  // A carry into the exponent (up to inf) and a borrow into the binade below encode correctly.
  if (e >= minExp) return sign | ((static_cast<uint64_t>(e + bias - 1) << manBits) + q);
  return sign | q;
}

// Rounds the exact value given as (d, loSign) (above) to float format t by
// mode rm: the result's bits in t.
inline uint64_t floatBitsMode(double d, int loSign, Type t, Rounding rm) {
  switch (t) {
    case Type::F: return doubleToNarrowMode(d, 23, 8, rm, loSign);
    case Type::HF: return doubleToNarrowMode(d, 10, 5, rm, loSign);
    case Type::BF: return doubleToNarrowMode(d, 7, 8, rm, loSign);
    default: break;
  }
  // DF: d is x rounded to nearest; a directed mode takes the neighbour where x lies beyond d.
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(d) || !loSign) return std::bit_cast<uint64_t>(d);
  if (rm == Rounding::Ru && loSign > 0) d = std::nextafter(d, inf);
  else if (rm == Rounding::Rd && loSign < 0) d = std::nextafter(d, -inf);
  else if (rm == Rounding::Rtz && d != 0 && (d > 0) != (loSign > 0)) d = std::nextafter(d, 0.0);
  return std::bit_cast<uint64_t>(d);
}
// The same as a double (exact in t).
inline double roundMode(double d, int loSign, Type t, Rounding rm) {
  return floatBitsToDouble(floatBitsMode(d, loSign, t, rm), t);
}

// "Integer to Float" in mode rm (RTNE: intToDouble).
inline double intToFloatMode(i128 v, Type t, Rounding rm) {
  const u128 m = v < 0 ? u128{0} - static_cast<u128>(v) : static_cast<u128>(v);  // < 2^127
  const double h = static_cast<double>(m);  // to nearest
  const u128 hm = static_cast<u128>(h);
  int loSign = (m > hm) - (m < hm);
  return roundMode(v < 0 ? -h : h, v < 0 ? -loSign : loSign, t, rm);
}

// "Saturation" of a float destination: [0.0, 1.0], NaN -> 0.
inline double satFloat(double v) {
  if (!(v > 0)) return 0.0;  // NaN, negatives, -0 -> +0
  return v > 1.0 ? 1.0 : v;
}

// Canonical quiet NaN of a format (results of arithmetic; spec-decisions E14).
inline uint64_t canonicalNaN(Type t) {
  switch (t) {
    case Type::F: return 0x7fc00000u;
    case Type::DF: return 0x7ff8000000000000ull;
    case Type::HF: return 0x7e00u;
    default: return 0x7fc0u;
  }
}

}  // namespace visakit::sim
