// visakit cl --compare (src/cl/compare.hpp): ulp distances, tolerances and
// buffer comparison. Every expected value is worked out by hand from the
// IEEE 754 encodings (derivations next to the values).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "cl/compare.hpp"

using namespace visakit::cl;

namespace {

template <class T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

float f32(uint32_t bits) { return std::bit_cast<float>(bits); }
double f64(uint64_t bits) { return std::bit_cast<double>(bits); }

Tolerance ulp(uint64_t n) {
  Tolerance t;
  t.kind = Tolerance::Kind::Ulp;
  t.ulps = n;
  return t;
}
Tolerance rel(double x) {
  Tolerance t;
  t.kind = Tolerance::Kind::Rel;
  t.rel = x;
  return t;
}

}  // namespace

TEST(ClUlp, Float) {
  // 1.0f = 0x3f800000; the next float up is 0x3f800001 and down 0x3f7fffff.
  EXPECT_EQ(ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulpDistance(1.0f, f32(0x3f7fffff)), 1u);
  EXPECT_EQ(ulpDistance(f32(0x3f7fffff), f32(0x3f800001)), 2u);  // across a power of two
  // 1.0 to 2.0 (0x40000000): the 2^23 mantissas of one binade.
  EXPECT_EQ(ulpDistance(1.0f, 2.0f), 8388608u);
  // -1.0 to 1.0: 0x3f800000 values on each side of zero, zero counted once.
  EXPECT_EQ(ulpDistance(-1.0f, 1.0f), 2u * 0x3f800000u);
  EXPECT_EQ(ulpDistance(-0.0f, 0.0f), 0u);
  EXPECT_EQ(ulpDistance(0.0f, f32(1)), 1u);            // zero to the smallest denormal
  EXPECT_EQ(ulpDistance(f32(0x80000001), f32(1)), 2u);  // -denorm_min to +denorm_min, through zero
  EXPECT_EQ(ulpDistance(f32(0x007fffff), f32(0x00800000)), 1u);  // largest denormal to smallest normal
  EXPECT_EQ(ulpDistance(2.0f, 1.0f), ulpDistance(1.0f, 2.0f));   // symmetric
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ulpDistance(inf, inf), 0u);
  EXPECT_EQ(ulpDistance(-inf, -inf), 0u);
  EXPECT_EQ(ulpDistance(std::numeric_limits<float>::max(), inf), kUlpInfinite);
  EXPECT_EQ(ulpDistance(-inf, inf), kUlpInfinite);
  EXPECT_EQ(ulpDistance(nan, nan), 0u);
  EXPECT_EQ(ulpDistance(f32(0x7fc00000), f32(0xffc00001)), 0u);  // NaNs of any sign and payload
  EXPECT_EQ(ulpDistance(f32(0x7f800001), f32(0x7fc00000)), 0u);  // signalling and quiet
  EXPECT_EQ(ulpDistance(nan, 1.0f), kUlpInfinite);
  EXPECT_EQ(ulpDistance(nan, inf), kUlpInfinite);
}

TEST(ClUlp, DoubleAndHalf) {
  EXPECT_EQ(ulpDistance(1.0, std::nextafter(1.0, 2.0)), 1u);
  EXPECT_EQ(ulpDistance(1.0, 2.0), uint64_t{1} << 52);
  EXPECT_EQ(ulpDistance(-0.0, 0.0), 0u);
  EXPECT_EQ(ulpDistance(f64(0x8000000000000001), f64(1)), 2u);
  // -max to +max: 2 x 0x7fefffffffffffff, which still fits in 64 bits.
  const double max = std::numeric_limits<double>::max();
  EXPECT_EQ(ulpDistance(-max, max), 2 * uint64_t{0x7fefffffffffffff});
  EXPECT_EQ(ulpDistance(max, std::numeric_limits<double>::infinity()), kUlpInfinite);
  EXPECT_EQ(ulpDistance(std::nan(""), std::nan("")), 0u);
  // binary16: 1.0 = 0x3c00, 2.0 = 0x4000 (2^10 mantissas apart), inf 0x7c00, max 0x7bff.
  EXPECT_EQ(ulpDistanceHalf(0x3c00, 0x3c01), 1u);
  EXPECT_EQ(ulpDistanceHalf(0x3c00, 0x4000), 1024u);
  EXPECT_EQ(ulpDistanceHalf(0x8000, 0x0000), 0u);
  EXPECT_EQ(ulpDistanceHalf(0x8001, 0x0001), 2u);
  EXPECT_EQ(ulpDistanceHalf(0x7bff, 0x7c00), kUlpInfinite);
  EXPECT_EQ(ulpDistanceHalf(0x7e00, 0xfe01), 0u);
}

TEST(ClUlp, TolerancesMatch) {
  // Exact: only ulp distance 0.
  EXPECT_TRUE(floatsMatch(0.0, -0.0, 0, Tolerance{}));
  EXPECT_FALSE(floatsMatch(1.0, 1.0, 1, Tolerance{}));
  // ulp:N: distance <= N, never an infinite distance.
  EXPECT_TRUE(floatsMatch(0, 0, 2, ulp(2)));
  EXPECT_FALSE(floatsMatch(0, 0, 3, ulp(2)));
  EXPECT_FALSE(floatsMatch(0, 0, kUlpInfinite, ulp(kUlpInfinite)));
  // rel:X: |a - b| <= X * max(|a|, |b|).
  // 1 vs 1.0000001: difference 1e-7 <= 1e-6 x 1.0000001.
  EXPECT_TRUE(floatsMatch(1.0, 1.0000001, 1, rel(1e-6)));
  // 1 vs 1.00001: difference 1e-5 > 1e-6 x 1.00001.
  EXPECT_FALSE(floatsMatch(1.0, 1.00001, 1, rel(1e-6)));
  // -2 vs -2.5: 0.5 <= 0.2 x 2.5 = 0.5 (at it); 0.19 x 2.5 = 0.475 < 0.5.
  EXPECT_TRUE(floatsMatch(-2.0, -2.5, 1, rel(0.2)));
  EXPECT_FALSE(floatsMatch(-2.0, -2.5, 1, rel(0.19)));
  EXPECT_TRUE(floatsMatch(0.0, -0.0, 0, rel(0)));
  // Near zero rel is strict: 0 vs 1e-45 differ by all of the larger value.
  EXPECT_FALSE(floatsMatch(0.0, 1e-45, 1, rel(0.5)));
  EXPECT_TRUE(floatsMatch(0.0, 1e-45, 1, rel(1)));
  // -max vs max: the difference 2 x max overflows a double, not the comparison.
  const double max = std::numeric_limits<double>::max();
  EXPECT_TRUE(floatsMatch(-max, max, 1, rel(2)));
  EXPECT_FALSE(floatsMatch(-max, max, 1, rel(1.99)));
  // NaN and infinities follow the distance whatever X is.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(floatsMatch(inf, inf, 0, rel(0)));
  EXPECT_FALSE(floatsMatch(inf, max, kUlpInfinite, rel(10)));
  EXPECT_TRUE(floatsMatch(std::nan(""), std::nan(""), 0, rel(0)));
  EXPECT_FALSE(floatsMatch(std::nan(""), 1.0, kUlpInfinite, rel(10)));
}

TEST(ClCompare, FormatValue) {
  EXPECT_EQ(formatValue(ScalarType::I8, 0xff), "-1");
  EXPECT_EQ(formatValue(ScalarType::U8, 0xff), "255");
  EXPECT_EQ(formatValue(ScalarType::I16, 0x8000), "-32768");
  EXPECT_EQ(formatValue(ScalarType::U16, 0x8000), "32768");
  EXPECT_EQ(formatValue(ScalarType::I32, 0xfffffffe), "-2");
  EXPECT_EQ(formatValue(ScalarType::U32, 0xfffffffe), "4294967294");
  EXPECT_EQ(formatValue(ScalarType::I64, 0x8000000000000000), "-9223372036854775808");
  EXPECT_EQ(formatValue(ScalarType::U64, ~uint64_t{0}), "18446744073709551615");
  EXPECT_EQ(formatValue(ScalarType::F32, 0x3fc00000), "1.5 (0x3fc00000)");
  // 0x3fc00001 = 1.5 + 2^-23 = 1.50000011920928955...: 1.5000001 is the shortest text that reads back.
  EXPECT_EQ(formatValue(ScalarType::F32, 0x3fc00001), "1.5000001 (0x3fc00001)");
  EXPECT_EQ(formatValue(ScalarType::F32, 0x80000000), "-0 (0x80000000)");
  EXPECT_EQ(formatValue(ScalarType::F32, 0x7fc00000), "nan (0x7fc00000)");
  EXPECT_EQ(formatValue(ScalarType::F32, 0xff800000), "-inf (0xff800000)");
  EXPECT_EQ(formatValue(ScalarType::F64, 0x3fb999999999999a), "0.1 (0x3fb999999999999a)");
  EXPECT_EQ(formatValue(ScalarType::F16, 0x3c00), "1 (0x3c00)");
  EXPECT_EQ(formatValue(ScalarType::F16, 0xc200), "-3 (0xc200)");  // sign, exponent 16 (2^1), mantissa 0x200 (1.5)
  // 2^-24 = 5.9604644775390625e-08; floats there are 2^-47 apart above and 2^-48 below, so 8 digits
  // (off by 2.2e-16) read back and 7 (5.960464e-08, off by 4.8e-15) do not.
  EXPECT_EQ(formatValue(ScalarType::F16, 0x0001), "5.9604645e-08 (0x0001)");
}

TEST(ClCompare, IntegersExactlyWithTheFirstDifferences) {
  auto a = bytesOf<int32_t>({1, 2, 3, 4, 5});
  auto b = bytesOf<int32_t>({1, 9, 3, 4, -5});
  CompareOptions o;
  o.tolerance = ulp(100);  // floating-point only: integers stay exact
  CompareResult r = compareBuffers(a, b, "int*;8", o);
  EXPECT_FALSE(r.equal());
  EXPECT_EQ(r.elementText, "int");
  EXPECT_EQ(r.compared, 5u);
  EXPECT_EQ(r.differing, 2u);
  ASSERT_EQ(r.first.size(), 2u);
  EXPECT_EQ(r.first[0].element, 1u);
  EXPECT_EQ(r.first[0].byteOffset, 4u);
  EXPECT_EQ(r.first[0].actual, "2");
  EXPECT_EQ(r.first[0].reference, "9");
  EXPECT_FALSE(r.first[0].ulps);
  EXPECT_EQ(r.first[1].element, 4u);
  EXPECT_EQ(r.first[1].reference, "-5");
  EXPECT_EQ(formatDifference(r.first[1], r), "element 4: 5 vs reference -5");

  // K = 2 of 4 differences.
  o.maxReported = 2;
  r = compareBuffers(bytesOf<uint8_t>({1, 2, 3, 4}), bytesOf<uint8_t>({0, 0, 0, 0}), "uchar*", o);
  EXPECT_EQ(r.differing, 4u);
  ASSERT_EQ(r.first.size(), 2u);
  EXPECT_EQ(r.first[1].element, 1u);
  EXPECT_EQ(r.first[1].actual, "2");

  r = compareBuffers(a, a, "int*;8", o);
  EXPECT_TRUE(r.equal());
  EXPECT_EQ(r.differing, 0u);
}

TEST(ClCompare, FloatVectorsPerComponentWithTolerance) {
  // float4 x 2: element 1's y is 1 ulp off (0x3fc00000 vs 0x3fc00001), its w 3 ulps.
  std::vector<uint32_t> a = {0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x3f800000, 0x3fc00000, 0, 0x3f800000};
  std::vector<uint32_t> b = a;
  b[5] = 0x3fc00001;
  b[7] = 0x3f800003;
  CompareOptions o;
  CompareResult r = compareBuffers(bytesOf(a), bytesOf(b), "float4*;8", o);
  EXPECT_EQ(r.elementText, "float4 (per component)");
  EXPECT_EQ(r.compared, 8u);
  EXPECT_EQ(r.differing, 2u);
  EXPECT_EQ(r.maxUlps, 3u);
  ASSERT_EQ(r.first.size(), 2u);
  EXPECT_EQ(r.first[0].element, 1u);
  EXPECT_EQ(r.first[0].component, 1u);
  EXPECT_EQ(r.first[0].byteOffset, 20u);
  EXPECT_EQ(r.first[0].ulps, 1u);
  EXPECT_EQ(formatDifference(r.first[0], r), "element 1.y: 1.5 (0x3fc00000) vs reference 1.5000001 (0x3fc00001), 1 ulp");
  EXPECT_EQ(r.first[1].component, 3u);
  EXPECT_EQ(r.first[1].ulps, 3u);

  o.tolerance = ulp(1);
  r = compareBuffers(bytesOf(a), bytesOf(b), "float4*;8", o);
  EXPECT_EQ(r.differing, 1u);  // only the 3-ulp one
  o.tolerance = ulp(3);
  EXPECT_TRUE(compareBuffers(bytesOf(a), bytesOf(b), "float4*;8", o).equal());
  // rel: 2^-23 / 1.5 = 7.9e-8 and 3 x 2^-23 / 1.0000004 = 3.6e-7.
  o.tolerance = rel(1e-7);
  EXPECT_EQ(compareBuffers(bytesOf(a), bytesOf(b), "float4*;8", o).differing, 1u);
  o.tolerance = rel(4e-7);
  EXPECT_EQ(compareBuffers(bytesOf(a), bytesOf(b), "float4*;8", o).differing, 0u);
}

TEST(ClCompare, ZerosAndNaNsWithoutTolerance) {
  // -0 vs +0 and two different NaNs are 0 ulps apart: equal even without a tolerance.
  std::vector<uint32_t> a = {0x00000000, 0x7fc00000, 0x7f800000};
  std::vector<uint32_t> b = {0x80000000, 0xffc00123, 0x7f800000};
  EXPECT_TRUE(compareBuffers(bytesOf(a), bytesOf(b), "float*", {}).equal());
  // A NaN vs a number differs under any tolerance, and says so.
  b[2] = 0x7fc00000;
  CompareOptions o;
  o.tolerance = ulp(~uint64_t{0} - 1);
  CompareResult r = compareBuffers(bytesOf(a), bytesOf(b), "float*", o);
  EXPECT_EQ(r.differing, 1u);
  EXPECT_EQ(r.maxUlps, kUlpInfinite);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(formatDifference(r.first[0], r), "element 2: inf (0x7f800000) vs reference nan (0x7fc00000), not comparable in ulps");
}

TEST(ClCompare, DoublesHalvesAndThreeComponentPadding) {
  std::vector<uint64_t> a = {0x3ff0000000000000, 0x3ff0000000000000};
  std::vector<uint64_t> b = {0x3ff0000000000000, 0x3ff0000000000002};  // 2 ulps
  CompareResult r = compareBuffers(bytesOf(a), bytesOf(b), "double*;8", {});
  EXPECT_EQ(r.differing, 1u);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(r.first[0].ulps, 2u);
  EXPECT_EQ(r.first[0].actual, "1 (0x3ff0000000000000)");

  r = compareBuffers(bytesOf<uint16_t>({0x3c00, 0x3c00}), bytesOf<uint16_t>({0x3c00, 0x3c01}), "half*", {});
  EXPECT_EQ(r.differing, 1u);
  EXPECT_EQ(r.first[0].ulps, 1u);

  // int3 x 2 takes 8 ints: the 4th of each is padding, not compared.
  std::vector<int32_t> x = {1, 2, 3, 111, 4, 5, 6, 222};
  std::vector<int32_t> y = {1, 2, 3, 999, 4, 5, 7, 888};
  r = compareBuffers(bytesOf(x), bytesOf(y), "int3*;8", {});
  EXPECT_EQ(r.compared, 6u);
  EXPECT_EQ(r.differing, 1u);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(r.first[0].element, 1u);
  EXPECT_EQ(r.first[0].component, 2u);
  EXPECT_EQ(r.first[0].byteOffset, 24u);
  EXPECT_EQ(formatDifference(r.first[0], r), "element 1.z: 6 vs reference 7");

  // Eight and sixteen components are named s0..sf.
  std::vector<uint8_t> u(16, 0), v(16, 0);
  v[11] = 1;
  r = compareBuffers(u, v, "uchar16*;8", {});
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(formatDifference(r.first[0], r), "element 0.sb: 0 vs reference 1");
}

TEST(ClCompare, UnknownTypesAndTailsAsBytes) {
  std::vector<uint8_t> a = {1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> b = {1, 2, 3, 4, 5, 7};
  CompareResult r = compareBuffers(a, b, "struct S*;8", {});
  EXPECT_EQ(r.elementText, "bytes");
  EXPECT_EQ(r.compared, 6u);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_TRUE(r.first[0].asBytes);
  EXPECT_EQ(formatDifference(r.first[0], r), "byte 5: 0x06 vs reference 0x07");
  // An int buffer of 6 bytes: one int, then two bytes compared as bytes.
  r = compareBuffers(a, b, "int*", {});
  EXPECT_EQ(r.compared, 3u);  // 1 int + 2 bytes
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_TRUE(r.first[0].asBytes);
  EXPECT_EQ(r.first[0].element, 1u);
  EXPECT_EQ(r.first[0].byteOffset, 5u);
}

TEST(ClCompare, SizesThatDiffer) {
  auto a = bytesOf<int32_t>({1, 2});
  auto b = bytesOf<int32_t>({1, 2, 3});
  CompareResult r = compareBuffers(a, b, "int*", {});
  EXPECT_FALSE(r.equal());
  EXPECT_EQ(r.differing, 0u);
  EXPECT_EQ(r.compared, 2u);
  EXPECT_EQ(r.actualBytes, 8u);
  EXPECT_EQ(r.referenceBytes, 12u);
}

TEST(ClCompare, WorkItemsWhenOneElementPerWorkItem) {
  // --global 4,2 --offset 10,20: element e is work-item (10 + e % 4, 20 + e / 4, 0).
  LaunchShape s;
  s.dims = 2;
  s.global = {4, 2, 1};
  s.offset = {10, 20, 0};
  std::vector<float> a(8, 1.0f), b(8, 1.0f);
  b[5] = 2.0f;
  CompareOptions o;
  o.launch = &s;
  CompareResult r = compareBuffers(bytesOf(a), bytesOf(b), "float*;8", o);
  ASSERT_EQ(r.first.size(), 1u);
  ASSERT_TRUE(r.first[0].workItem);
  EXPECT_EQ(*r.first[0].workItem, (std::array<uint64_t, 3>{11, 21, 0}));
  EXPECT_EQ(formatDifference(r.first[0], r),
            "element 5 (work-item 11,21,0): 1 (0x3f800000) vs reference 2 (0x40000000), 8388608 ulp");
  // 3-D: --global 2,3,4, element 23 = x 1, y (23 / 2) % 3 = 2, z 23 / 6 = 3.
  s.dims = 3;
  s.global = {2, 3, 4};
  s.offset = {0, 0, 0};
  std::vector<int32_t> x(24, 0), y(24, 0);
  y[23] = 1;
  r = compareBuffers(bytesOf(x), bytesOf(y), "int*", o);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(*r.first[0].workItem, (std::array<uint64_t, 3>{1, 2, 3}));
  // Not one element per work-item: no work-item is named.
  x.push_back(0);
  y.push_back(0);
  r = compareBuffers(bytesOf(x), bytesOf(y), "int*", o);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_FALSE(r.first[0].workItem);
}
