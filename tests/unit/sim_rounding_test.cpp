// %cr0's rounding modes (spec-decisions E32) in the conversions of sim/convert.hpp and the exact
// results of ADD, MUL, MAD (sem/ops.hpp), value by value; expected bits worked out by hand from
// the IEEE-754 formats (F: 1-8-23, DF: 1-11-52) of 2_datatypes.md.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "sim/convert.hpp"
#include "sim/sem/ops_alu.hpp"

using namespace visakit;
using namespace visakit::sim;

namespace {

constexpr Rounding kModes[4] = {Rounding::Rtne, Rounding::Ru, Rounding::Rd, Rounding::Rtz};

// Bits of (d, loSign) rounded to F in the modes RTNE, RU, RD, RTZ.
std::array<uint64_t, 4> toF(double d, int loSign = 0) {
  std::array<uint64_t, 4> r{};
  for (int m = 0; m < 4; ++m) r[m] = floatBitsMode(d, loSign, Type::F, kModes[m]);
  return r;
}
std::array<uint64_t, 4> toDf(double d, int loSign) {
  std::array<uint64_t, 4> r{};
  for (int m = 0; m < 4; ++m) r[m] = floatBitsMode(d, loSign, Type::DF, kModes[m]);
  return r;
}
using A = std::array<uint64_t, 4>;

}  // namespace

TEST(SimRounding, NarrowToFloatInEveryMode) {
  EXPECT_EQ(toF(1.0), (A{0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000}));  // exact
  // 1 + 2^-24: the midpoint of 1 and 1 + 2^-23.
  EXPECT_EQ(toF(1.0 + 0x1p-24), (A{0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000}));
  EXPECT_EQ(toF(-1.0 - 0x1p-24), (A{0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000}));
  // The same d, with the exact value a little above / below it: no tie any more.
  EXPECT_EQ(toF(1.0 + 0x1p-24, 1)[0], 0x3f800001u);
  EXPECT_EQ(toF(1.0 + 0x1p-24, -1)[0], 0x3f800000u);
  // Exactly 1.0 with the exact value a little below: RD and RTZ take the largest float below 1
  // (the binade below: 0x3f7fffff); a little above: RU takes 1 + 2^-23.
  EXPECT_EQ(toF(1.0, -1), (A{0x3f800000, 0x3f800000, 0x3f7fffff, 0x3f7fffff}));
  EXPECT_EQ(toF(1.0, 1), (A{0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000}));
  EXPECT_EQ(toF(-1.0, 1), (A{0xbf800000, 0xbf7fffff, 0xbf800000, 0xbf7fffff}));
  // Beyond the largest float (2^128): inf to nearest and away from zero, the largest float toward it.
  EXPECT_EQ(toF(0x1p128), (A{0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}));
  EXPECT_EQ(toF(-0x1p128), (A{0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff}));
  EXPECT_EQ(toF(0x1.fffffep127, 1), (A{0x7f7fffff, 0x7f800000, 0x7f7fffff, 0x7f7fffff}));
  // Denormals: 2^-150 is half the smallest (2^-149): a tie to the even 0.
  EXPECT_EQ(toF(0x1p-150), (A{0x00000000, 0x00000001, 0x00000000, 0x00000000}));
  EXPECT_EQ(toF(0x1.8p-150), (A{0x00000001, 0x00000001, 0x00000000, 0x00000000}));  // 0.75 of it
  EXPECT_EQ(toF(-0x1.8p-150), (A{0x80000001, 0x80000000, 0x80000001, 0x80000000}));
  // 2^-127 + 2^-150: the midpoint of the denormals 0x00400000 and 0x00400001.
  EXPECT_EQ(toF(0x1.000002p-127), (A{0x00400000, 0x00400001, 0x00400000, 0x00400000}));
  // A double denormal, far below 2^-149.
  EXPECT_EQ(toF(5e-324), (A{0x00000000, 0x00000001, 0x00000000, 0x00000000}));
  EXPECT_EQ(toF(-5e-324), (A{0x80000000, 0x80000000, 0x80000001, 0x80000000}));
  // Infinities are exact; NaN stays quiet.
  EXPECT_EQ(toF(std::numeric_limits<double>::infinity()), (A{0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000}));
  EXPECT_EQ(toF(std::numeric_limits<double>::quiet_NaN())[3] & 0x7fc00000u, 0x7fc00000u);
  // In RTNE with no rest, the software rounding is the host's conversion.
  for (double d : {1.0 / 3, -2.0 / 3, 1e-40, 3.4e38, 0x1.000001p0, 0x1.0000018p0})
    EXPECT_EQ(toF(d)[0], std::bit_cast<uint32_t>(static_cast<float>(d))) << d;
}

TEST(SimRounding, HalfAndBfloat) {
  // 1 + 2^-11 + 2^-20 (above the HF midpoint 1 + 2^-11): 0x3c01 to nearest and up, 0x3c00 down.
  EXPECT_EQ(floatBitsMode(1.0 + 0x1p-11 + 0x1p-20, 0, Type::HF, Rounding::Rtne), 0x3c01u);
  EXPECT_EQ(floatBitsMode(1.0 + 0x1p-11 + 0x1p-20, 0, Type::HF, Rounding::Rtz), 0x3c00u);
  EXPECT_EQ(floatBitsMode(65520.0, 0, Type::HF, Rounding::Rtz), 0x7bffu);  // 65504 is the largest half
  EXPECT_EQ(floatBitsMode(65520.0, 0, Type::HF, Rounding::Rtne), 0x7c00u);
  // BF (1-8-7): 1 + 2^-9 is below the midpoint 1 + 2^-8.
  EXPECT_EQ(floatBitsMode(1.0 + 0x1p-9, 0, Type::BF, Rounding::Ru), 0x3f81u);
  EXPECT_EQ(floatBitsMode(1.0 + 0x1p-9, 0, Type::BF, Rounding::Rtne), 0x3f80u);
}

TEST(SimRounding, DoubleMovesOneStep) {
  EXPECT_EQ(toDf(1.0, 1), (A{0x3ff0000000000000, 0x3ff0000000000001, 0x3ff0000000000000, 0x3ff0000000000000}));
  EXPECT_EQ(toDf(1.0, -1), (A{0x3ff0000000000000, 0x3ff0000000000000, 0x3fefffffffffffff, 0x3fefffffffffffff}));
  EXPECT_EQ(toDf(-1.0, -1), (A{0xbff0000000000000, 0xbff0000000000000, 0xbff0000000000001, 0xbff0000000000000}));
  // An overflowed result (inf, the exact value below it): the largest double toward zero.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(toDf(inf, -1), (A{0x7ff0000000000000, 0x7ff0000000000000, 0x7fefffffffffffff, 0x7fefffffffffffff}));
  EXPECT_EQ(toDf(-inf, 1), (A{0xfff0000000000000, 0xffefffffffffffff, 0xfff0000000000000, 0xffefffffffffffff}));
}

TEST(SimRounding, IntegerToFloat) {
  auto f = [](i128 v, Type t, Rounding rm) { return floatBitsMode(intToFloatMode(v, t, rm), 0, t, Rounding::Rtne); };
  // 2^24 + 1: a tie between 2^24 (0x4b800000) and 2^24 + 2 (0x4b800001).
  EXPECT_EQ(f((1 << 24) + 1, Type::F, Rounding::Rtne), 0x4b800000u);
  EXPECT_EQ(f((1 << 24) + 1, Type::F, Rounding::Ru), 0x4b800001u);
  EXPECT_EQ(f(-(1 << 24) - 1, Type::F, Rounding::Rd), 0xcb800001u);
  EXPECT_EQ(f(-(1 << 24) - 1, Type::F, Rounding::Rtz), 0xcb800000u);
  // -2^63 is exact; 2^64 - 1 lies between 2^64 - 2^40 (0x5f7fffff) and 2^64 (0x5f800000).
  const i128 big = (i128{1} << 64) - 1;
  for (Rounding rm : kModes) EXPECT_EQ(f(-(i128{1} << 63), Type::F, rm), 0xdf000000u);
  EXPECT_EQ(f(big, Type::F, Rounding::Rtz), 0x5f7fffffu);
  EXPECT_EQ(f(big, Type::F, Rounding::Rtne), 0x5f800000u);
  // To DF: between 2^64 - 2^11 (0x43efffffffffffff) and 2^64 (0x43f0000000000000).
  EXPECT_EQ(f(big, Type::DF, Rounding::Rtz), 0x43efffffffffffffu);
  EXPECT_EQ(f(big, Type::DF, Rounding::Ru), 0x43f0000000000000u);
  EXPECT_EQ(f(-big, Type::DF, Rounding::Rd), 0xc3f0000000000000u);
}

TEST(SimRounding, ExactResultsOfAddMulMad) {
  auto add = ops::Add::nearest(1.0, 0x1p-60);  // 1 + 2^-60: nearest 1, the rest above
  EXPECT_EQ(add.d, 1.0);
  EXPECT_EQ(add.loSign, 1);
  EXPECT_EQ(ops::Add::nearest(1.0, -0x1p-60).loSign, -1);
  EXPECT_EQ(ops::Add::nearest(1.5, 0.25).loSign, 0);
  auto ov = ops::Add::nearest(0x1.fffffffffffffp1023, 0x1p1000);  // overflows: below inf
  EXPECT_TRUE(std::isinf(ov.d));
  EXPECT_EQ(ov.loSign, -1);
  auto mul = ops::Mul::nearest(1.0 + 0x1p-30, 1.0 + 0x1p-30);  // 1 + 2^-29 + 2^-60
  EXPECT_EQ(mul.d, 1.0 + 0x1p-29);
  EXPECT_EQ(mul.loSign, 1);
  EXPECT_EQ(ops::Mul::nearest(-(1.0 + 0x1p-30), 1.0 + 0x1p-30).loSign, -1);
  EXPECT_EQ(ops::Mul::nearest(1e300, 1e300).loSign, -1);  // overflow
  auto mad = ops::Mad::nearest({1.0 + 0x1p-30, 1.0 + 0x1p-30, -1.0, 0});  // 2^-29 + 2^-60, exact
  EXPECT_EQ(mad.d, 0x1p-29 + 0x1p-60);
  EXPECT_EQ(mad.loSign, 0);
  auto mad2 = ops::Mad::nearest({1.0 + 0x1p-30, 1.0 + 0x1p-30, 0x1p-80, 0});  // 1 + 2^-29 + 2^-60 + 2^-80
  EXPECT_EQ(mad2.d, 1.0 + 0x1p-29);
  EXPECT_EQ(mad2.loSign, 1);
  auto mad3 = ops::Mad::nearest({1.0 + 0x1p-30, 1.0 + 0x1p-30, -0x1p-59, 0});  // 1 + 2^-29 - 2^-60
  EXPECT_EQ(mad3.d, 1.0 + 0x1p-29);
  EXPECT_EQ(mad3.loSign, -1);
}
