// OpenCL printf records (src/cl/printf.cpp; spec-decisions K12): buffers laid
// out by hand as IGC's code writes them, and the text C's printf gives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cl/printf.hpp"

namespace visakit::cl {
namespace {

// A printf buffer: dword 0 = the first free byte; the records after it.
struct Buf {
  std::vector<uint8_t> b = std::vector<uint8_t>(4, 0);
  Buf& u32(uint32_t v) {
    b.insert(b.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 4);
    return *this;
  }
  Buf& u64(uint64_t v) {
    b.insert(b.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 8);
    return *this;
  }
  Buf& f32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u32(u);
  }
  Buf& f64(double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u64(u);
  }
  std::vector<uint8_t> done() {
    std::vector<uint8_t> out = b;
    const uint32_t used = static_cast<uint32_t>(out.size());
    std::memcpy(out.data(), &used, 4);
    out.resize(out.size() + 64, 0);  // room the kernel did not use
    return out;
  }
};

std::string format(const std::vector<uint8_t>& b, const std::map<uint32_t, std::string>& s, std::string* err = nullptr) {
  std::string text, e;
  const bool ok = formatPrintfBuffer(b, s, text, e);
  if (err) *err = e;
  else EXPECT_TRUE(ok) << e;
  return text;
}

// Data types: 3 int, 4 float, 5 string (an index), 6 long, 8 double; the format's
// escapes as the source wrote them (IGC keeps "\n" as two characters).
TEST(ClPrintf, ScalarsStringsAndEscapes) {
  const std::map<uint32_t, std::string> s = {
      {0, "i=%d u=%u x=%#06x c=%c%%\\n"}, {1, "f=%.2f e=%e s=[%-5s] l=%ld lx=%lx\\tend\\n"}, {2, "ab"}};
  Buf b;
  b.u32(0).u32(3).u32(0xfffffff9u).u32(3).u32(0xfffffff9u).u32(3).u32(0x2a).u32(3).u32('Z');
  b.u32(1).u32(4).f32(2.5f).u32(8).f64(-1.0e-3).u32(5).u32(2).u32(6).u64(uint64_t(-5)).u32(6).u64(0xdeadbeefcafeull);
  // i: -7; u: 2^32 - 7; x: 42 with # and width 6, zero-padded: 0x002a.
  EXPECT_EQ(format(b.done(), s),
            "i=-7 u=4294967289 x=0x002a c=Z%\n"
            "f=2.50 e=-1.000000e-03 s=[ab   ] l=-5 lx=deadbeefcafe\tend\n");
  // A float given to an integer conversion (a format that does not match its argument): the
  // value truncated, clamped to the long range, NaN 0; never an undefined conversion.
  Buf f;
  f.u32(3).u32(4).f32(2.75f).u32(4).f32(std::nanf("")).u32(8).f64(1e300).u32(8).f64(-3.5);
  EXPECT_EQ(format(f.done(), {{3, "%d %d %ld %d"}}), "2 0 9223372036854775807 -3");
}

// Vectors: data type, count, then the elements packed in a room of 4 bytes an
// element at least (a char4 takes 16 bytes, a short2 8); joined by commas.
TEST(ClPrintf, VectorsPackedInTheirRoom) {
  const std::map<uint32_t, std::string> s = {{0, "%v4hhd|%v2hx|%v3hld|%v2hlf|%v2ld\\n"}};
  Buf b;
  b.u32(0);
  b.u32(9).u32(4).u32(0x7f03fe01).u32(0).u32(0).u32(0);              // char4 (1, -2, 3, 127)
  b.u32(10).u32(2).u32(0x012cfed4).u32(0);                           // short2 (-300, 300), %hx
  b.u32(11).u32(3).u32(1).u32(uint32_t(-2)).u32(3);                  // int3
  b.u32(13).u32(2).f32(0.5f).f32(-1.25f);                            // float2
  b.u32(12).u32(2).u64(uint64_t(-1)).u64(1ull << 40);                // long2
  EXPECT_EQ(format(b.done(), s), "1,-2,3,127|fed4,12c|1,-2,3|0.500000,-1.250000|-1,1099511627776\n");
}

TEST(ClPrintf, RecordsInBufferOrderAndMalformedOnes) {
  const std::map<uint32_t, std::string> s = {{0, "a%d "}, {1, "b\\n"}};
  Buf two;
  two.u32(1).u32(0).u32(3).u32(5).u32(1);
  EXPECT_EQ(format(two.done(), s), "b\na5 b\n");
  // An empty buffer (dword 0 = 4): nothing.
  EXPECT_EQ(format(Buf().done(), s), "");
  std::string err;
  Buf unknownFormat;
  unknownFormat.u32(7);
  EXPECT_EQ(format(unknownFormat.done(), s, &err), "");
  EXPECT_EQ(err, "printf buffer byte 8: format string 7 is not in the kernel's strings");
  Buf cut;  // the record ends before its value
  cut.u32(1).u32(0).u32(3);
  EXPECT_EQ(format(cut.done(), s, &err), "b\na");
  EXPECT_EQ(err, "printf buffer byte 16: the record ends in a value");
  Buf badTag;
  badTag.u32(0).u32(99).u32(0);
  format(badTag.done(), s, &err);
  EXPECT_EQ(err, "printf buffer byte 12: unknown data type 99");
  // A full buffer: the kernel asked for more than it holds; the record that did not fit
  // starts with all ones (IGC's code writes them where there is room); what is before is printed.
  std::vector<uint8_t> full = Buf().u32(1).u32(0xffffffffu).done();
  const uint32_t asked = 1u << 30;
  std::memcpy(full.data(), &asked, 4);
  EXPECT_EQ(format(full, s, &err), "b\n");
  EXPECT_NE(err.find("the printf buffer is full"), std::string::npos) << err;
}

}  // namespace
}  // namespace visakit::cl
