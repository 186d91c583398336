// The simulator's conversions against 2_datatypes.md, value by value.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "sim/convert.hpp"

using namespace visakit;
using namespace visakit::sim;

TEST(SimConvert, DoubleToHalfRoundsToNearestEven) {
  EXPECT_EQ(doubleToHalf(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalf(-2.0), 0xc000);
  EXPECT_EQ(doubleToHalf(65504.0), 0x7bff);               // largest finite
  EXPECT_EQ(doubleToHalf(65519.99), 0x7bff);              // below the halfway point
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00);               // halfway: even is 2^16 -> inf
  EXPECT_EQ(doubleToHalf(1e10), 0x7c00);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000);  // half of it: tie to even 0
  EXPECT_EQ(doubleToHalf(std::ldexp(3.0, -25)), 0x0002);  // 1.5 units: tie to even 2
  EXPECT_EQ(doubleToHalf(std::ldexp(1023.0, -24) + std::ldexp(1.0, -25)), 0x0400);  // rounds up into the normals
  EXPECT_EQ(doubleToHalf(1.0 / 3.0), 0x3555);
  EXPECT_EQ(doubleToHalf(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalf(std::numeric_limits<double>::quiet_NaN()) & 0x7e00, 0x7e00);
  EXPECT_EQ(doubleToHalf(-std::numeric_limits<double>::infinity()), 0xfc00);
  EXPECT_EQ(doubleToHalf(5e-324), 0x0000);
}

TEST(SimConvert, HalfToDoubleIsExact) {
  EXPECT_EQ(halfToDouble(0x3c00), 1.0);
  EXPECT_EQ(halfToDouble(0x7bff), 65504.0);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(halfToDouble(0x03ff), std::ldexp(1023.0, -24));
  EXPECT_TRUE(std::signbit(halfToDouble(0x8000)));
  EXPECT_TRUE(std::isinf(halfToDouble(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToDouble(0x7e01)));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaNs
    EXPECT_EQ(doubleToHalf(halfToDouble(static_cast<uint16_t>(h))), h);
  }
}

TEST(SimConvert, FloatToIntFollowsTheTables) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // Signed: NaN 0, +inf/too big Imax, -inf/too small Imin, else truncation toward zero.
  EXPECT_EQ(floatToInt(nan, Type::D), 0u);
  EXPECT_EQ(floatToInt(inf, Type::D), 0x7fffffffu);
  EXPECT_EQ(floatToInt(-inf, Type::D), 0x80000000u);
  EXPECT_EQ(floatToInt(3e9, Type::D), 0x7fffffffu);
  EXPECT_EQ(floatToInt(-3e9, Type::D), 0x80000000u);
  EXPECT_EQ(floatToInt(-1.9999, Type::D), 0xffffffffu);
  EXPECT_EQ(floatToInt(-0.5, Type::D), 0u);
  EXPECT_EQ(floatToInt(-128.5, Type::B), 0x80u);
  EXPECT_EQ(floatToInt(127.9, Type::B), 0x7fu);
  EXPECT_EQ(floatToInt(1e19, Type::Q), 0x7fffffffffffffffull);
  EXPECT_EQ(floatToInt(-1e19, Type::Q), 0x8000000000000000ull);
  EXPECT_EQ(floatToInt(-9223372036854775808.0, Type::Q), 0x8000000000000000ull);
  // Unsigned: negative values 0 (E12), too big Imax.
  EXPECT_EQ(floatToInt(nan, Type::UD), 0u);
  EXPECT_EQ(floatToInt(-0.0, Type::UD), 0u);
  EXPECT_EQ(floatToInt(-1.5, Type::UD), 0u);
  EXPECT_EQ(floatToInt(-inf, Type::UW), 0u);
  EXPECT_EQ(floatToInt(4.3e9, Type::UD), 0xffffffffu);
  EXPECT_EQ(floatToInt(255.9, Type::UB), 255u);
  EXPECT_EQ(floatToInt(256.0, Type::UB), 255u);
  EXPECT_EQ(floatToInt(9223372036854775808.0, Type::UQ), 0x8000000000000000ull);
  EXPECT_EQ(floatToInt(1e20, Type::UQ), ~0ull);
}

TEST(SimConvert, IntegerTruncationAndSaturation) {
  EXPECT_EQ(intToInt(i128{0x12345}, Type::UW, false), 0x2345u);
  EXPECT_EQ(intToInt(i128{0x12345}, Type::UW, true), 0xffffu);
  EXPECT_EQ(intToInt(i128{-1}, Type::UD, false), 0xffffffffu);
  EXPECT_EQ(intToInt(i128{-1}, Type::UD, true), 0u);
  EXPECT_EQ(intToInt(i128{-200}, Type::B, true), 0x80u);
  EXPECT_EQ(intToInt(i128{1} << 70, Type::Q, true), 0x7fffffffffffffffull);
  EXPECT_EQ(intToInt(-(i128{1} << 70), Type::UQ, true), 0u);
  EXPECT_EQ(extendInt(0x80, Type::B), -128);
  EXPECT_EQ(extendInt(0x80, Type::UB), 128);
  EXPECT_EQ(extendInt(0xffffffffffffffffull, Type::Q), -1);
  EXPECT_EQ(extendInt(0xffffffffffffffffull, Type::UQ), static_cast<i128>(0xffffffffffffffffull));
}

TEST(SimConvert, FloatNarrowingFlushesDenormalSources) {
  // "Float to Float with Lower Precision": -denorm -> -0, +denorm -> +0.
  EXPECT_EQ(doubleToFloatBits(5e-324, Type::F, Type::DF), 0u);
  EXPECT_EQ(doubleToFloatBits(-5e-324, Type::F, Type::DF), 0x80000000u);
  EXPECT_EQ(doubleToFloatBits(std::ldexp(1.0, -130), Type::HF, Type::F), 0u);
  // Same format: F denormals are kept (E22).
  EXPECT_EQ(doubleToFloatBits(std::ldexp(1.0, -149), Type::F, Type::F), 1u);
  // Widening is exact.
  EXPECT_EQ(doubleToFloatBits(std::ldexp(1.0, -24), Type::F, Type::HF), 0x33800000u);
}

TEST(SimConvert, SaturationAndVf) {
  EXPECT_EQ(satFloat(std::numeric_limits<double>::quiet_NaN()), 0.0);
  EXPECT_EQ(satFloat(-3.0), 0.0);
  EXPECT_EQ(satFloat(std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(satFloat(0.25), 0.25);
  EXPECT_FALSE(std::signbit(satFloat(-0.0)));
  EXPECT_EQ(vfToFloat(0x30), 1.0f);
  EXPECT_EQ(vfToFloat(0x38), 1.5f);
  EXPECT_EQ(vfToFloat(0xc0), -2.0f);
  EXPECT_EQ(vfToFloat(0x7f), 31.0f);
  EXPECT_EQ(vfToFloat(0x01), 0.1328125f);
  EXPECT_EQ(vfToFloat(0x00), 0.0f);
  EXPECT_TRUE(std::signbit(vfToFloat(0x80)));
}
