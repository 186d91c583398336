// visakit cl's launch description (src/cl/launch_args.hpp): NDRange lists,
// --arg SPECs, --out, kernel parameter type names, the argument check and
// --tolerance. Expected bits are worked out by hand from IEEE 754 and two's
// complement (the derivation is next to each value).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cl/launch_args.hpp"

using namespace visakit::cl;
namespace fs = std::filesystem;

namespace {

fs::path tempDir() {
  // Unique per test: CTest runs the tests in parallel processes.
  fs::path d = fs::temp_directory_path() / ("visakit_cl_args_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  fs::create_directories(d);
  return d;
}

fs::path writeFile(const std::string& name, const std::string& bytes) {
  fs::path p = tempDir() / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

std::string shapeError(std::string_view g, std::optional<std::string_view> l = std::nullopt,
                       std::optional<std::string_view> o = std::nullopt, LaunchLimits lim = {}) {
  std::string err;
  auto s = parseLaunchShape(g, l, o, lim, err);
  EXPECT_FALSE(s) << g;
  return err;
}

// The bits of a scalar SPEC, or a failed test.
uint64_t bitsOf(std::string_view spec) {
  std::string err;
  auto v = parseArgValue(0, spec, LaunchLimits{}, err);
  EXPECT_TRUE(v) << spec << ": " << err;
  if (!v || !std::holds_alternative<ScalarArg>(*v)) return 0xdeadbeef;
  return std::get<ScalarArg>(*v).bits;
}

std::string argError(std::string_view spec, LaunchLimits lim = {}) {
  std::string err;
  auto v = parseArgValue(3, spec, lim, err);
  EXPECT_FALSE(v) << spec;
  return err;
}

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

}  // namespace

// ---- NDRange ---------------------------------------------------------------

TEST(ClLaunchShape, OneToThreeDimensions) {
  std::string err;
  auto s = parseLaunchShape("64", std::nullopt, std::nullopt, {}, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->dims, 1u);
  EXPECT_EQ(s->global, (std::array<uint64_t, 3>{64, 1, 1}));
  EXPECT_FALSE(s->local);
  EXPECT_EQ(s->offset, (std::array<uint64_t, 3>{0, 0, 0}));
  EXPECT_EQ(s->workItems, 64u);

  s = parseLaunchShape("0x10,4,2", "8,2,1", "1,2,3", {}, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->dims, 3u);
  EXPECT_EQ(s->global, (std::array<uint64_t, 3>{16, 4, 2}));
  EXPECT_EQ(s->workItems, 128u);  // 16 * 4 * 2
  ASSERT_TRUE(s->local);
  EXPECT_EQ(*s->local, (std::array<uint64_t, 3>{8, 2, 1}));
  EXPECT_EQ(s->offset, (std::array<uint64_t, 3>{1, 2, 3}));
}

TEST(ClLaunchShape, BadLists) {
  EXPECT_EQ(shapeError("4,0"), "--global '4,0': dimension 1 is 0; every size must be at least 1");
  EXPECT_EQ(shapeError("1,2,3,4"), "--global '1,2,3,4': at most 3 dimensions");
  EXPECT_EQ(shapeError("4,"), "--global '4,': dimension 1 is empty");
  EXPECT_EQ(shapeError(""), "--global '': dimension 0 is empty");
  EXPECT_EQ(shapeError("4,x"), "--global '4,x': 'x' is not a number (decimal or 0x hexadecimal)");
  EXPECT_EQ(shapeError("-4"), "--global '-4': '-4' is not a number (decimal or 0x hexadecimal)");
  EXPECT_EQ(shapeError("18446744073709551616"), "--global '18446744073709551616': 18446744073709551616 does not fit in 64 bits");
  EXPECT_EQ(shapeError("8", "4,1"), "--local '4,1': 2 dimensions, but --global '8' has 1");
  EXPECT_EQ(shapeError("8,8", "0,1"), "--local '0,1': dimension 0 is 0; every size must be at least 1");
  EXPECT_EQ(shapeError("8,8", std::nullopt, "1"), "--offset '1': 1 dimension, but --global '8,8' has 2");
}

TEST(ClLaunchShape, WorkItemCountsNeverWrap) {
  // 2^32 * 2^32 = 2^64: one more than fits.
  EXPECT_EQ(shapeError("4294967296,4294967296"),
            "--global '4294967296,4294967296': 4294967296 x 4294967296 work-items do not fit in 64 bits");
  // 2^21 * 2^21 * 2^22 = 2^64, in three dimensions.
  EXPECT_HAS(shapeError("2097152,2097152,4194304"), "do not fit in 64 bits");
  // 100000 * 100000 = 10^10 (mod 2^32 it would be 1410065408): over the 2^32 limit, said in full.
  EXPECT_EQ(shapeError("100000,100000"),
            "--global '100000,100000': 10000000000 work-items (100000 x 100000), over the limit of 4294967296 (--max-work-items)");
  // 2^32 * (2^32 - 1) = 18446744069414584320 fits in 64 bits, but not under the limit.
  EXPECT_HAS(shapeError("4294967296,4294967295"), "18446744069414584320 work-items");
  // At the limit: 65536 * 65536 = 2^32.
  std::string err;
  auto s = parseLaunchShape("65536,65536", std::nullopt, std::nullopt, {}, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->workItems, uint64_t{1} << 32);
  // A smaller limit: 10 x 10 = 100 is at it, 101 over.
  LaunchLimits lim;
  lim.maxWorkItems = 100;
  EXPECT_TRUE(parseLaunchShape("10,10", std::nullopt, std::nullopt, lim, err)) << err;
  EXPECT_EQ(shapeError("101", std::nullopt, std::nullopt, lim), "--global '101': 101 work-items (101), over the limit of 100 (--max-work-items)");
}

TEST(ClLaunchShape, LocalSizes) {
  EXPECT_EQ(shapeError("10", "3"),
            "--local '3': the global size 10 of dimension 0 is not a multiple of the local size 3 (work-groups are whole, as in OpenCL 1.2)");
  EXPECT_EQ(shapeError("8,6", "8,4"),
            "--local '8,4': the global size 6 of dimension 1 is not a multiple of the local size 4 (work-groups are whole, as in OpenCL 1.2)");
  // 1024 x 2 = 2048 work-items in a group, over the default 1024; 1024 x 1 is at it.
  EXPECT_EQ(shapeError("2048,2", "1024,2"), "--local '1024,2': 2048 work-items in a work-group, over the limit of 1024");
  std::string err;
  EXPECT_TRUE(parseLaunchShape("2048,2", "1024,1", std::nullopt, {}, err)) << err;
}

TEST(ClLaunchShape, OffsetsUpToTheLastGlobalId) {
  std::string err;
  // One work-item at 2^64 - 1: the largest global id fits.
  auto s = parseLaunchShape("1", std::nullopt, "18446744073709551615", {}, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->offset[0], ~uint64_t{0});
  // Two: the second's id would be 2^64.
  EXPECT_EQ(shapeError("2", std::nullopt, "18446744073709551615"),
            "--offset '18446744073709551615': the largest global id of dimension 0 (18446744073709551615 + 2 - 1) does not fit in 64 bits");
  s = parseLaunchShape("4,4", std::nullopt, "0,0", {}, err);
  ASSERT_TRUE(s) << err;
}

// ---- --arg SPEC ------------------------------------------------------------

TEST(ClArgs, IntegersInEveryType) {
  // i8: [-128, 127]; -128 = 0x80, -1 = 0xff; hex is the bit pattern.
  EXPECT_EQ(bitsOf("i8:127"), 0x7fu);
  EXPECT_EQ(bitsOf("i8:-128"), 0x80u);
  EXPECT_EQ(bitsOf("i8:-1"), 0xffu);
  EXPECT_EQ(bitsOf("i8:0xff"), 0xffu);
  EXPECT_EQ(bitsOf("i8:-0x80"), 0x80u);
  EXPECT_EQ(bitsOf("u8:255"), 0xffu);
  EXPECT_EQ(bitsOf("u8:0"), 0u);
  EXPECT_EQ(bitsOf("i16:-1"), 0xffffu);
  EXPECT_EQ(bitsOf("i16:-32768"), 0x8000u);
  EXPECT_EQ(bitsOf("u16:65535"), 0xffffu);
  EXPECT_EQ(bitsOf("i32:-2147483648"), 0x80000000u);
  EXPECT_EQ(bitsOf("i32:0xffffffff"), 0xffffffffu);
  EXPECT_EQ(bitsOf("i32:-2"), 0xfffffffeu);
  EXPECT_EQ(bitsOf("u32:4294967295"), 0xffffffffu);
  EXPECT_EQ(bitsOf("u32:0X1F"), 0x1fu);
  EXPECT_EQ(bitsOf("i64:-9223372036854775808"), 0x8000000000000000u);
  EXPECT_EQ(bitsOf("i64:-1"), 0xffffffffffffffffu);
  EXPECT_EQ(bitsOf("i64:0xffffffffffffffff"), 0xffffffffffffffffu);
  EXPECT_EQ(bitsOf("u64:18446744073709551615"), 0xffffffffffffffffu);
  EXPECT_EQ(bitsOf("u64:007"), 7u);
}

TEST(ClArgs, IntegersOutOfRange) {
  EXPECT_EQ(argError("i8:128"), "--arg 3=i8:128: 128 is out of range for i8 [-128, 127], or 0x0 to 0xff as bits");
  EXPECT_EQ(argError("i8:-129"), "--arg 3=i8:-129: -129 is out of range for i8 [-128, 127], or 0x0 to 0xff as bits");
  EXPECT_EQ(argError("i8:0x100"), "--arg 3=i8:0x100: 0x100 is out of range for i8 [-128, 127], or 0x0 to 0xff as bits");
  EXPECT_EQ(argError("u8:256"), "--arg 3=u8:256: 256 is out of range for u8 [0, 255]");
  EXPECT_EQ(argError("u8:-1"), "--arg 3=u8:-1: '-1' is negative; u8 is unsigned");
  EXPECT_EQ(argError("u16:65536"), "--arg 3=u16:65536: 65536 is out of range for u16 [0, 65535]");
  EXPECT_EQ(argError("i32:2147483648"),
            "--arg 3=i32:2147483648: 2147483648 is out of range for i32 [-2147483648, 2147483647], or 0x0 to 0xffffffff as bits");
  EXPECT_EQ(argError("u32:4294967296"), "--arg 3=u32:4294967296: 4294967296 is out of range for u32 [0, 4294967295]");
  EXPECT_HAS(argError("i64:9223372036854775808"), "out of range for i64 [-9223372036854775808, 9223372036854775807]");
  EXPECT_HAS(argError("i64:-9223372036854775809"), "out of range for i64");
  EXPECT_EQ(argError("u64:18446744073709551616"),
            "--arg 3=u64:18446744073709551616: 18446744073709551616 is out of range for u64 [0, 18446744073709551615]");
  EXPECT_EQ(argError("i32:5x"), "--arg 3=i32:5x: '5x' is not an integer (decimal, negative, or 0x hexadecimal)");
  EXPECT_EQ(argError("u32:+5"), "--arg 3=u32:+5: '+5' is not an integer (decimal, or 0x hexadecimal)");
  EXPECT_HAS(argError("i32:"), "is not an integer");
  EXPECT_HAS(argError("i32: 5"), "is not an integer");
  EXPECT_HAS(argError("i32:1.0"), "is not an integer");
}

TEST(ClArgs, Floats) {
  // 1.5 = 1.1b x 2^0: exponent 127 (0x7f << 23 = 0x3f800000), mantissa 0x400000.
  EXPECT_EQ(bitsOf("f32:1.5"), 0x3fc00000u);
  EXPECT_EQ(bitsOf("f32:-2"), 0xc0000000u);   // sign, exponent 128
  EXPECT_EQ(bitsOf("f32:0.1"), 0x3dcccccdu);  // 0.1 rounded to nearest: 1.6 x 2^-4, mantissa 0x4ccccd
  EXPECT_EQ(bitsOf("f32:3"), 0x40400000u);
  EXPECT_EQ(bitsOf("f32:.5"), 0x3f000000u);
  EXPECT_EQ(bitsOf("f32:-0"), 0x80000000u);
  EXPECT_EQ(bitsOf("f32:0x1.8p1"), 0x40400000u);  // 1.5 x 2 = 3
  EXPECT_EQ(bitsOf("f32:-0x1p-1"), 0xbf000000u);  // -0.5
  EXPECT_EQ(bitsOf("f32:0x3f800000"), 0x3f800000u);  // bits
  EXPECT_EQ(bitsOf("f32:0x7fc00001"), 0x7fc00001u);  // a NaN with a payload, by its bits
  EXPECT_EQ(bitsOf("f32:inf"), 0x7f800000u);
  EXPECT_EQ(bitsOf("f32:-INF"), 0xff800000u);
  EXPECT_EQ(bitsOf("f32:nan"), 0x7fc00000u);
  EXPECT_EQ(bitsOf("f32:1e-45"), 0x00000001u);  // the smallest denormal, 1.4e-45, is the nearest
  EXPECT_EQ(bitsOf("f32:3.4028235e38"), 0x7f7fffffu);  // the largest finite
  // 1.5 in binary64: exponent 1023 (0x3ff << 52), mantissa 0x8000000000000.
  EXPECT_EQ(bitsOf("f64:1.5"), 0x3ff8000000000000u);
  EXPECT_EQ(bitsOf("f64:0.1"), 0x3fb999999999999au);
  EXPECT_EQ(bitsOf("f64:-inf"), 0xfff0000000000000u);
  EXPECT_EQ(bitsOf("f64:nan"), 0x7ff8000000000000u);
  EXPECT_EQ(bitsOf("f64:0x8000000000000000"), 0x8000000000000000u);
}

TEST(ClArgs, FloatsOutOfRangeOrMalformed) {
  EXPECT_EQ(argError("f32:1e39"), "--arg 3=f32:1e39: 1e39 is out of range for f32: beyond the largest finite value (write inf for infinity)");
  EXPECT_EQ(argError("f32:-1e39"), "--arg 3=f32:-1e39: -1e39 is out of range for f32: beyond the largest finite value (write inf for infinity)");
  // Half the smallest denormal is 7.0e-46: 1e-46 rounds to 0.
  EXPECT_EQ(argError("f32:1e-46"), "--arg 3=f32:1e-46: 1e-46 is out of range for f32: it rounds to 0");
  EXPECT_HAS(argError("f64:1e309"), "out of range for f64: beyond the largest finite value");
  EXPECT_HAS(argError("f64:1e-400"), "out of range for f64: it rounds to 0");
  EXPECT_EQ(argError("f32:0x1.8"), "--arg 3=f32:0x1.8: '0x1.8': a hexadecimal float needs a 'p' exponent (0x1.8p1); 0x without one gives the bits");
  EXPECT_EQ(argError("f32:0x100000000"), "--arg 3=f32:0x100000000: 0x100000000 has more than 32 bits");
  EXPECT_HAS(argError("f32:-0x3f800000"), "bits (0x without a 'p' exponent) cannot be negative");
  for (const char* bad : {"f32:infinity", "f32:nan(1)", "f32:-nan", "f32:+1", "f32:1.5f", "f32:", "f32:e5", "f64:1,5"})
    EXPECT_HAS(argError(bad), "is not a number");
}

TEST(ClArgs, BuffersAndLocal) {
  std::string err;
  auto z = parseArgValue(1, "zero:16", {}, err);
  ASSERT_TRUE(z) << err;
  ASSERT_TRUE(std::holds_alternative<BufferArg>(*z));
  EXPECT_EQ(std::get<BufferArg>(*z).bytes, std::vector<uint8_t>(16, 0));
  EXPECT_EQ(argSpecText(*z), "zero:16");

  auto l = parseArgValue(1, "local:0x100", {}, err);
  ASSERT_TRUE(l) << err;
  ASSERT_TRUE(std::holds_alternative<LocalArg>(*l));
  EXPECT_EQ(std::get<LocalArg>(*l).bytes, 256u);
  EXPECT_EQ(argSpecText(*l), "local:256");

  fs::path f = writeFile("in.bin", std::string("\x01\x02\x00\xff", 4));
  auto b = parseArgValue(1, "@" + f.string(), {}, err);
  ASSERT_TRUE(b) << err;
  EXPECT_EQ(std::get<BufferArg>(*b).bytes, (std::vector<uint8_t>{1, 2, 0, 255}));

  EXPECT_EQ(argError("zero:0"), "--arg 3=zero:0: a buffer needs at least 1 byte");
  EXPECT_EQ(argError("local:0"), "--arg 3=local:0: a __local buffer needs at least 1 byte");
  EXPECT_EQ(argError("zero:abc"), "--arg 3=zero:abc: 'abc' is not a byte count (decimal or 0x hexadecimal)");
  LaunchLimits lim;
  lim.maxBufferBytes = 100;
  EXPECT_EQ(argError("zero:101", lim), "--arg 3=zero:101: 101 bytes, over the limit of 100 (--max-buffer-size)");
  EXPECT_EQ(argError("local:101", lim), "--arg 3=local:101: 101 bytes, over the limit of 100 (--max-buffer-size)");
  EXPECT_TRUE(parseArgValue(3, "zero:100", lim, err)) << err;
  fs::path big = writeFile("big.bin", std::string(101, 'x'));
  EXPECT_HAS(argError("@" + big.string(), lim), "is 101 bytes, over the limit of 100 (--max-buffer-size)");

  fs::path missing = tempDir() / "missing.bin";
  EXPECT_EQ(argError("@" + missing.string()), "--arg 3=@" + missing.string() + ": cannot open '" + missing.string() + "': No such file or directory");
  EXPECT_EQ(argError("@" + tempDir().string()), "--arg 3=@" + tempDir().string() + ": '" + tempDir().string() + "' is a directory");
  fs::path empty = writeFile("empty.bin", "");
  EXPECT_HAS(argError("@" + empty.string()), "is empty; a buffer needs at least 1 byte");
  EXPECT_EQ(argError("@"), "--arg 3=@: expected a file name after '@'");
  EXPECT_EQ(argError("5"), "--arg 3=5: expected @FILE, zero:N, local:N or TYPE:VALUE");
  EXPECT_EQ(argError("x32:1"), "--arg 3=x32:1: 'x32' is not a type (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64; or @FILE, zero:N, local:N)");
  EXPECT_HAS(argError("f16:1"), "'f16' is not a type");
}

TEST(ClArgs, ScalarBytesAreLittleEndianInTheTypesWidth) {
  std::string err;
  auto v = parseArgValue(0, "u32:0x11223344", {}, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(scalarBytes(std::get<ScalarArg>(*v)), (std::vector<uint8_t>{0x44, 0x33, 0x22, 0x11}));
  v = parseArgValue(0, "i16:-2", {}, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(scalarBytes(std::get<ScalarArg>(*v)), (std::vector<uint8_t>{0xfe, 0xff}));
  v = parseArgValue(0, "f64:1.5", {}, err);
  ASSERT_TRUE(v) << err;
  EXPECT_EQ(scalarBytes(std::get<ScalarArg>(*v)), (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xf8, 0x3f}));
  EXPECT_EQ(argSpecText(*v), "f64:1.5");
}

TEST(ClArgs, ArgAndOutLists) {
  std::string err;
  fs::path out = tempDir() / "out.bin";
  auto a = parseKernelArgs({"2=u32:7", "0=zero:8"}, {"0=" + out.string()}, {}, err);
  ASSERT_TRUE(a) << err;
  ASSERT_EQ(a->values.size(), 3u);
  EXPECT_TRUE(a->values[0] && std::holds_alternative<BufferArg>(*a->values[0]));
  EXPECT_FALSE(a->values[1]);
  EXPECT_EQ(std::get<ScalarArg>(*a->values[2]).bits, 7u);
  ASSERT_EQ(a->outs.size(), 1u);
  EXPECT_EQ(a->outs[0], (std::pair<unsigned, std::string>{0, out.string()}));

  auto bad = [&](std::vector<std::string> args, std::vector<std::string> outs, LaunchLimits lim = {}) {
    std::string e;
    EXPECT_FALSE(parseKernelArgs(args, outs, lim, e));
    return e;
  };
  EXPECT_EQ(bad({"1=u8:1", "1=zero:4"}, {}), "--arg 1 is given twice ('u8:1' and 'zero:4')");
  EXPECT_EQ(bad({"x=u8:1"}, {}), "--arg 'x=u8:1': expected I=SPEC (I the argument's index, from 0)");
  EXPECT_EQ(bad({"u8:1"}, {}), "--arg 'u8:1': expected I=SPEC (I the argument's index, from 0)");
  EXPECT_EQ(bad({"-1=u8:1"}, {}), "--arg '-1=u8:1': expected I=SPEC (I the argument's index, from 0)");
  EXPECT_EQ(bad({"1024=u8:1"}, {}), "--arg '1024=u8:1': argument index 1024 is over the limit of 1023");
  EXPECT_EQ(bad({"99999999999999999999=u8:1"}, {}), "--arg '99999999999999999999=u8:1': argument index 99999999999999999999 is over the limit of 1023");
  EXPECT_EQ(bad({"0=u8:1"}, {"0=x.bin"}), "--out 0=x.bin: argument 0 is u8:1, not a buffer; only @FILE and zero:N arguments can be written");
  EXPECT_EQ(bad({"0=local:4"}, {"0=x.bin"}), "--out 0=x.bin: argument 0 is local:4, not a buffer; only @FILE and zero:N arguments can be written");
  EXPECT_EQ(bad({"0=zero:4"}, {"1=x.bin"}), "--out 1=x.bin: argument 1 has no --arg");
  EXPECT_EQ(bad({"0=zero:4"}, {"0=x.bin", "0=y.bin"}), "--out 0 is given twice ('x.bin' and 'y.bin')");
  EXPECT_EQ(bad({"0=zero:4", "1=zero:4"}, {"0=x.bin", "1=./x.bin"}), "--out 1=./x.bin: argument 0 is written to the same file");
  EXPECT_EQ(bad({"0=zero:4"}, {"0="}), "--out '0=': expected a file name after '='");
  // Every buffer together: 60 + 40 = 100 is at a limit of 100; 60 + 41 over it.
  LaunchLimits lim;
  lim.maxTotalBytes = 100;
  EXPECT_TRUE(parseKernelArgs({"0=zero:60", "1=zero:40", "2=local:1000"}, {}, lim, err)) << err;
  EXPECT_EQ(bad({"0=zero:60", "1=zero:41"}, {}, lim), "--arg 1=zero:41: the buffer arguments need 101 bytes, over the limit of 100 (--max-memory)");
}

// ---- kernel parameters -----------------------------------------------------

TEST(ClTypeNames, IgcAndOpenClForms) {
  // IGC's kernel argument info (PATCH_TOKEN_KERNEL_ARGUMENT_INFO of ocloc -device skl):
  // ";N" is the size of the argument itself, 8 for every pointer.
  TypeInfo t = parseTypeName("int*;8");
  EXPECT_EQ(t.base, "int");
  EXPECT_TRUE(t.pointer);
  EXPECT_EQ(t.argSize, 8u);
  EXPECT_EQ(t.scalar, ScalarType::I32);
  EXPECT_EQ(t.components, 1u);
  EXPECT_EQ(t.valueSize(), 4u);

  t = parseTypeName("float4*;8");
  EXPECT_EQ(t.scalar, ScalarType::F32);
  EXPECT_EQ(t.components, 4u);
  EXPECT_EQ(t.valueSize(), 16u);

  t = parseTypeName("float3;16");  // a 3-component vector takes 4 components' room
  EXPECT_FALSE(t.pointer);
  EXPECT_EQ(t.components, 3u);
  EXPECT_EQ(t.slots, 4u);
  EXPECT_EQ(t.valueSize(), 16u);

  EXPECT_EQ(parseTypeName("uint;4").scalar, ScalarType::U32);
  EXPECT_EQ(parseTypeName("char*;8").scalar, ScalarType::I8);
  EXPECT_EQ(parseTypeName("uchar16*;8").components, 16u);
  EXPECT_EQ(parseTypeName("unsigned char*").scalar, ScalarType::U8);
  EXPECT_EQ(parseTypeName("half*;8").scalar, ScalarType::F16);
  t = parseTypeName("int8;32");  // eight ints, not an 8-bit int
  EXPECT_EQ(t.scalar, ScalarType::I32);
  EXPECT_EQ(t.components, 8u);
  EXPECT_EQ(t.valueSize(), 32u);
  EXPECT_EQ(parseTypeName("long16;128").valueSize(), 128u);
  EXPECT_EQ(parseTypeName("double3;32").valueSize(), 32u);

  t = parseTypeName("struct S*;8");
  EXPECT_EQ(t.base, "struct S");
  EXPECT_TRUE(t.pointer);
  EXPECT_FALSE(t.scalar);
  EXPECT_FALSE(t.valueSize());
  EXPECT_EQ(parseTypeName("struct S;8").valueSize(), 8u);  // by value: ";N" is its size
  EXPECT_EQ(parseTypeName("myint;4").valueSize(), 4u);     // a typedef name: size only
  EXPECT_FALSE(parseTypeName("myint;4").scalar);
  EXPECT_FALSE(parseTypeName("__global int[4]*;8").scalar);
  EXPECT_FALSE(parseTypeName("int5").scalar);
  EXPECT_FALSE(parseTypeName("unsigned int4").scalar);

  // OpenCL's clGetKernelArgInfo: no ";N".
  t = parseTypeName("int*");
  EXPECT_TRUE(t.pointer);
  EXPECT_FALSE(t.argSize);
  EXPECT_EQ(t.valueSize(), 4u);
  EXPECT_FALSE(parseTypeName("struct S").valueSize());

  EXPECT_EQ(parseAddressQualifier("__global"), AddressQualifier::Global);
  EXPECT_EQ(parseAddressQualifier("local"), AddressQualifier::Local);
  EXPECT_EQ(parseAddressQualifier("__constant"), AddressQualifier::Constant);
  EXPECT_EQ(parseAddressQualifier("__private"), AddressQualifier::Private);
  EXPECT_FALSE(parseAddressQualifier("__generic"));
}

namespace {

// A kernel as IGC describes it:
//   kernel void k(global int* a, global float4* b, uint n, local float* l, float x,
//                 struct S s, constant short* cs)
const std::vector<KernelParam> kParams = {
    {AddressQualifier::Global, "int*;8", "a"},     {AddressQualifier::Global, "float4*;8", "b"},
    {AddressQualifier::Private, "uint;4", "n"},    {AddressQualifier::Local, "float*;8", "l"},
    {AddressQualifier::Private, "float;4", "x"},   {AddressQualifier::Private, "struct S;8", "s"},
    {AddressQualifier::Constant, "short*;8", "cs"},
};

std::vector<std::string> problems(const std::vector<std::string>& args, const std::vector<KernelParam>& params = kParams) {
  std::string err;
  auto a = parseKernelArgs(args, {}, {}, err);
  EXPECT_TRUE(a) << err;
  return a ? checkKernelArgs(params, *a) : std::vector<std::string>{"parse failed"};
}

const std::vector<std::string> kGood = {"0=zero:8", "1=zero:32", "2=u32:5", "3=local:64", "4=f32:1.5", "5=u64:0", "6=zero:2"};

std::vector<std::string> with(size_t i, std::string spec) {
  auto v = kGood;
  v[i] = std::to_string(i) + "=" + spec;
  return v;
}

}  // namespace

TEST(ClCheckArgs, ArgumentsThatFit) {
  EXPECT_EQ(problems(kGood), std::vector<std::string>{});
  // Signedness is free: the bits are the same size.
  EXPECT_EQ(problems(with(2, "i32:-1")), std::vector<std::string>{});
  // A struct by value takes any scalar of its size, as raw bits.
  EXPECT_EQ(problems(with(5, "f64:1")), std::vector<std::string>{});
  // The same list through the runner's overload.
  std::vector<KernelArgValue> values;
  for (const auto& s : kGood) {
    std::string err;
    values.push_back(*parseArgValue(0, s.substr(2), {}, err));
  }
  EXPECT_EQ(checkKernelArgs(kParams, std::span<const KernelArgValue>(values)), std::vector<std::string>{});
}

// CL10: a by-value parameter takes @FILE of exactly its bytes (a float4, a struct of any
// size), which then is its value; a file of another size is refused.
TEST(ClCheckArgs, ByValueFromAFile) {
  const std::string f16 =
      writeFile("v16.bin", std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10", 16)).string();
  const std::string f4 = writeFile("v4.bin", std::string("\x01\x02\x03\x04", 4)).string();
  const std::vector<KernelParam> params = {{AddressQualifier::Private, "float4;16", "v"},
                                           {AddressQualifier::Private, "params_t;24", "p"},
                                           {AddressQualifier::Private, "params_t", "q"}};
  std::string err;
  auto a = parseKernelArgs({"0=@" + f16, "1=@" + f16, "2=@" + f4}, {}, {}, err);
  ASSERT_TRUE(a) << err;
  // p's 24 bytes are not 16; q's size is unknown here (a typedef name): it is checked where it is set.
  EXPECT_EQ(checkKernelArgs(params, *a),
            std::vector<std::string>{"argument 1 'p' is a params_t (24 bytes); @" + f16 + " gives 16 bytes"});
  takeByValueFiles(params, *a);
  const auto* v = std::get_if<ScalarArg>(&*a->values[0]);
  ASSERT_TRUE(v);
  EXPECT_EQ(scalarBytes(*v), std::vector<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
  EXPECT_EQ(argSpecText(*a->values[0]), "@" + f16);
  // Once taken, the value passes the runner's check as the same bytes (raw, any kind).
  std::vector<KernelArgValue> values = {*a->values[0]};
  EXPECT_EQ(checkKernelArgs({params[0]}, std::span<const KernelArgValue>(values)), std::vector<std::string>{});
  // zero:N is no file: a by-value parameter still refuses it.
  auto z = parseKernelArgs({"0=zero:16"}, {}, {}, err);
  ASSERT_TRUE(z) << err;
  EXPECT_EQ(checkKernelArgs({params[0]}, *z),
            std::vector<std::string>{"argument 0 'v' is a float4 (16 bytes); zero:16 is a buffer (use TYPE:VALUE, or @FILE of its bytes)"});
}

TEST(ClCheckArgs, Mismatches) {
  using V = std::vector<std::string>;
  EXPECT_EQ(problems(with(2, "i64:5")), V{"argument 2 'n' is a uint (4 bytes); i64:5 gives 8 bytes"});
  EXPECT_EQ(problems(with(2, "zero:4")),
            V{"argument 2 'n' is a uint (4 bytes); zero:4 is a buffer (use TYPE:VALUE, or @FILE of its bytes)"});
  EXPECT_EQ(problems(with(2, "local:4")),
            V{"argument 2 'n' is a uint (4 bytes); local:4 is a __local buffer (use TYPE:VALUE, or @FILE of its bytes)"});
  EXPECT_EQ(problems(with(2, "f32:1")), V{"argument 2 'n' is a uint (4 bytes); f32:1 is a floating-point value (use an integer type)"});
  EXPECT_EQ(problems(with(4, "i32:1")), V{"argument 4 'x' is a float (4 bytes); i32:1 is an integer (use f32:VALUE)"});
  EXPECT_EQ(problems(with(4, "f64:1")), V{"argument 4 'x' is a float (4 bytes); f64:1 gives 8 bytes"});
  EXPECT_EQ(problems(with(5, "u32:1")), V{"argument 5 's' is a struct S (8 bytes); u32:1 gives 4 bytes"});
  EXPECT_EQ(problems(with(0, "u32:5")), V{"argument 0 'a' is a __global int* buffer; u32:5 is a scalar (use @FILE or zero:N)"});
  EXPECT_EQ(problems(with(0, "local:8")), V{"argument 0 'a' is a __global int* buffer; local:8 is a __local buffer (use @FILE or zero:N)"});
  EXPECT_EQ(problems(with(6, "u16:1")), V{"argument 6 'cs' is a __constant short* buffer; u16:1 is a scalar (use @FILE or zero:N)"});
  EXPECT_EQ(problems(with(3, "zero:64")), V{"argument 3 'l' is a __local float*; zero:64 is a __global buffer (use local:N)"});
  EXPECT_EQ(problems(with(3, "u32:64")), V{"argument 3 'l' is a __local float*; u32:64 is a scalar (use local:N)"});
  // float4 elements are 16 bytes: 20 is one and a quarter.
  EXPECT_EQ(problems(with(1, "zero:20")),
            V{"argument 1 'b' is a __global float4* (16-byte elements); zero:20 gives 20 bytes, not a whole number of them"});
  EXPECT_EQ(problems(with(3, "local:6")),
            V{"argument 3 'l' is a __local float* (4-byte elements); local:6 gives 6 bytes, not a whole number of them"});

  // Count: one missing, one beyond; every problem in one list, in argument order.
  V args(kGood.begin(), kGood.end() - 1);
  args.push_back("7=u8:1");
  EXPECT_EQ(problems(args), (V{"--arg 7=u8:1: the kernel has 7 arguments (0 to 6)",
                               "argument 6 'cs' (a __constant short*) has no --arg"}));
  EXPECT_EQ(problems({"0=u8:1"}, {}), V{"--arg 0=u8:1: the kernel has no arguments"});
}

TEST(ClCheckArgs, VectorsHalfSamplersAndUnnamedParameters) {
  using V = std::vector<std::string>;
  const std::vector<KernelParam> params = {
      {AddressQualifier::Private, "float2;8", "v"},
      {AddressQualifier::Private, "half;2", "h"},
      {AddressQualifier::Private, "sampler_t;8", "smp"},
      {AddressQualifier::Global, "image2d_t;8", "img"},
      {AddressQualifier::Private, "struct S", ""},  // clGetKernelArgInfo: no size, no name
      {AddressQualifier::Global, "struct S*", ""},
  };
  std::vector<std::string> ok = {"0=u64:0x3f8000003f800000", "1=u16:0x3c00", "2=u32:0", "3=zero:4", "4=u32:1", "5=zero:3"};
  EXPECT_EQ(problems(ok, params), (V{"argument 2 'smp' is a sampler_t; visakit cl binds only buffers, __local buffers and scalars",
                                     "argument 3 'img' is an image2d_t; visakit cl binds only buffers, __local buffers and scalars"}));
  ok[0] = "0=f64:1";
  ok[1] = "1=f32:1";
  ok[4] = "4=u8:1";  // unknown size: the OpenCL runtime checks it
  ok[5] = "5=u8:1";
  EXPECT_EQ(problems(ok, params),
            (V{"argument 0 'v' is a float2 (8 bytes); f64:1 is a floating-point value (use an integer type for its bits)",
               "argument 1 'h' is a half (2 bytes); f32:1 gives 4 bytes",
               "argument 2 'smp' is a sampler_t; visakit cl binds only buffers, __local buffers and scalars",
               "argument 3 'img' is an image2d_t; visakit cl binds only buffers, __local buffers and scalars",
               "argument 5 is a __global struct S* buffer; u8:1 is a scalar (use @FILE or zero:N)"}));
}

// ---- --tolerance -----------------------------------------------------------

TEST(ClTolerance, UlpAndRel) {
  std::string err;
  auto t = parseTolerance("ulp:4", err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->kind, Tolerance::Kind::Ulp);
  EXPECT_EQ(t->ulps, 4u);
  t = parseTolerance("ulp:0x10", err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->ulps, 16u);
  t = parseTolerance("rel:1e-6", err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->kind, Tolerance::Kind::Rel);
  EXPECT_EQ(t->rel, 1e-6);
  t = parseTolerance("rel:0", err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->rel, 0.0);

  auto bad = [](std::string_view s) {
    std::string e;
    EXPECT_FALSE(parseTolerance(s, e)) << s;
    return e;
  };
  EXPECT_EQ(bad("abs:1"), "--tolerance 'abs:1': expected ulp:N or rel:X");
  EXPECT_EQ(bad("ulp"), "--tolerance 'ulp': expected ulp:N or rel:X");
  EXPECT_EQ(bad("ulp:"), "--tolerance 'ulp:': '' is not a whole number of ulps");
  EXPECT_EQ(bad("ulp:-1"), "--tolerance 'ulp:-1': '-1' is not a whole number of ulps");
  EXPECT_EQ(bad("ulp:1.5"), "--tolerance 'ulp:1.5': '1.5' is not a whole number of ulps");
  EXPECT_EQ(bad("ulp:18446744073709551616"), "--tolerance 'ulp:18446744073709551616': does not fit in 64 bits");
  EXPECT_EQ(bad("rel:-1"), "--tolerance 'rel:-1': '-1' is not a finite non-negative number");
  EXPECT_EQ(bad("rel:inf"), "--tolerance 'rel:inf': 'inf' is not a finite non-negative number");
  EXPECT_EQ(bad("rel:nan"), "--tolerance 'rel:nan': 'nan' is not a finite non-negative number");
  EXPECT_EQ(bad("rel:1e999"), "--tolerance 'rel:1e999': '1e999' is not a finite non-negative number");
  EXPECT_EQ(bad("rel:"), "--tolerance 'rel:': '' is not a finite non-negative number");
}
