// The OpenCL CPU runner (src/cl/ocl/cpu_runner.hpp) on pocl: small kernels run
// through the ICD loader, their results checked against plain C++ loops.
//
// scripts/setup.sh installs pocl, so these tests never skip: a machine without
// the platform fails them, with the runner's message. Built without OpenCL
// (CMake found no ICD loader), only the run-time report of its absence is tested.
//
// Under the sanitizer presets the tests run with OCL_ICD_VENDORS=pocl.icd
// (CMakePresets.json test presets): Intel's ICD, also installed, opens a library with
// RTLD_DEEPBIND, which ASan and TSan refuse. pocl runs in a child process (the
// runner's default), so pocl's own allocations, which it never frees, end with
// the child instead of being reported as leaks; for the one in-process run the
// asan preset suppresses them (tests/lsan.supp).
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cl/ocl/cpu_runner.hpp"

using namespace visakit::cl;

namespace {

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

KernelArgValue arg(std::string_view spec) {
  std::string err;
  auto v = parseArgValue(0, spec, LaunchLimits{}, err);
  EXPECT_TRUE(v) << spec << ": " << err;
  return v ? std::move(*v) : KernelArgValue{LocalArg{1}};
}

template <class T>
KernelArgValue buffer(const std::vector<T>& v) {
  BufferArg b;
  b.spec = "@test";
  b.bytes.resize(v.size() * sizeof(T));
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

template <class T>
std::vector<T> asVector(const std::optional<std::vector<uint8_t>>& b) {
  std::vector<T> v;
  if (!b) return v;
  v.resize(b->size() / sizeof(T));
  std::memcpy(v.data(), b->data(), v.size() * sizeof(T));
  return v;
}

LaunchShape shape(std::string_view global, std::optional<std::string_view> local = std::nullopt,
                  std::optional<std::string_view> offset = std::nullopt) {
  std::string err;
  auto s = parseLaunchShape(global, local, offset, LaunchLimits{}, err);
  EXPECT_TRUE(s) << err;
  return s.value_or(LaunchShape{});
}

CpuRunResult run(const std::string& source, const std::string& kernel, const LaunchShape& launch,
                 const std::vector<KernelArgValue>& args, unsigned timeout = 0) {
  CpuRunRequest q;
  q.source = source;
  q.kernel = kernel;
  q.launch = launch;
  q.args = args;
  q.timeoutSeconds = timeout;
  return runOnCpu(q);
}

// saxpy with contraction off: the device rounds a * x and then the sum, as the C++ loop does.
const char* kSaxpy = R"(
#pragma OPENCL FP_CONTRACT OFF
kernel void saxpy(float a, global const float* x, global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)";

}  // namespace

#ifdef VISAKIT_HAVE_OPENCL

TEST(ClCpuRunner, ErrorNames) {
  // The codes of the OpenCL specification's cl.h and cl_ext.h.
  EXPECT_EQ(clErrorName(0), "CL_SUCCESS");
  EXPECT_EQ(clErrorName(-5), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(clErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(clErrorName(-30), "CL_INVALID_VALUE");
  EXPECT_EQ(clErrorName(-46), "CL_INVALID_KERNEL_NAME");
  EXPECT_EQ(clErrorName(-51), "CL_INVALID_ARG_SIZE");
  EXPECT_EQ(clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(clErrorName(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  EXPECT_EQ(clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(clErrorName(-9999), "OpenCL error -9999");
  EXPECT_TRUE(cpuRunnerAvailable());
}

TEST(ClCpuRunner, Saxpy) {
  const size_t n = 1024;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = 0.1f * static_cast<float>(i);
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  const float a = 2.5f;
  CpuRunResult r = run(kSaxpy, "saxpy", shape("1024", "64"), {arg("f32:2.5"), buffer(x), buffer(y)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.platform.find(kCpuPlatformName), std::string::npos) << r.platform;
  ASSERT_EQ(r.buffers.size(), 3u);
  EXPECT_FALSE(r.buffers[0]);  // the scalar
  EXPECT_EQ(asVector<float>(r.buffers[1]), x);  // read back unchanged
  std::vector<float> want = y;
  for (size_t i = 0; i < n; ++i) want[i] = a * x[i] + y[i];
  std::vector<float> got = asVector<float>(r.buffers[2]);
  ASSERT_EQ(got.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want[i])) << "element " << i;
  // The parameters, as pocl reports them.
  ASSERT_EQ(r.params.size(), 3u);
  EXPECT_EQ(r.params[0].address, AddressQualifier::Private);
  EXPECT_EQ(r.params[0].typeName, "float");
  EXPECT_EQ(r.params[0].name, "a");
  EXPECT_EQ(r.params[1].address, AddressQualifier::Global);
  EXPECT_EQ(r.params[1].typeName, "float*");
  EXPECT_EQ(r.params[2].name, "y");
}

TEST(ClCpuRunner, OneHostThreadGivesTheSameBytes) {
  // pocl with one host thread (jobs = 1) and with its default: the same sums.
  const char* src = "kernel void sq(global uint* a) { size_t i = get_global_id(0); a[i] = (uint)(i * i + 3); }";
  std::vector<uint32_t> want(4096);
  for (uint32_t i = 0; i < want.size(); ++i) want[i] = i * i + 3;
  for (unsigned jobs : {1u, 0u}) {
    CpuRunRequest q;
    q.source = src;
    q.kernel = "sq";
    q.launch = shape("4096", "64");
    std::vector<KernelArgValue> args = {arg("zero:16384")};
    q.args = args;
    q.jobs = jobs;
    CpuRunResult r = runOnCpu(q);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(asVector<uint32_t>(r.buffers[0]), want) << "jobs " << jobs;
  }
}

TEST(ClCpuRunner, LocalReduction) {
  const char* src = R"(
kernel void groupsum(global const uint* in, global uint* out, local uint* tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
)";
  const uint32_t n = 1024, group = 64;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i * i * 2654435761u + 7;  // wraps: uint arithmetic
  CpuRunResult r = run(src, "groupsum", shape("1024", "64"), {buffer(in), arg("zero:64"), arg("local:256")});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint32_t> want(n / group, 0);
  for (uint32_t i = 0; i < n; ++i) want[i / group] += in[i];
  EXPECT_EQ(asVector<uint32_t>(r.buffers[1]), want);
  EXPECT_FALSE(r.buffers[2]);  // __local: nothing to read back
}

TEST(ClCpuRunner, TwoDimensionsWithAnOffset) {
  const char* src = R"(
kernel void coords(global uint* out, uint width) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  out[y * width + x] = (uint)(get_global_id(0) * 1000 + get_global_id(1) * 10 + get_local_id(0) % 2);
}
)";
  CpuRunResult r = run(src, "coords", shape("6,3", "2,3", "7,11"), {arg("zero:72"), arg("u32:6")});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint32_t> want(18);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 6; ++x) want[y * 6 + x] = (x + 7) * 1000 + (y + 11) * 10 + x % 2;
  EXPECT_EQ(asVector<uint32_t>(r.buffers[0]), want);

  // No --local: the implementation chooses the work-groups; the ids are the same.
  const char* src3 = R"(
kernel void ids(global ulong* out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = ((z - 3) * get_global_size(1) + (y - 2)) * get_global_size(0) + (x - 1);
  out[i] = x * 10000 + y * 100 + z;
}
)";
  r = run(src3, "ids", shape("4,3,2", std::nullopt, "1,2,3"), {arg("zero:192")});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint64_t> ids;
  for (uint64_t z = 3; z < 5; ++z)
    for (uint64_t y = 2; y < 5; ++y)
      for (uint64_t x = 1; x < 5; ++x) ids.push_back(x * 10000 + y * 100 + z);
  EXPECT_EQ(asVector<uint64_t>(r.buffers[0]), ids);
}

TEST(ClCpuRunner, ScalarsOfEveryType) {
  const char* src = R"(
kernel void scalars(global ulong* out, char a, uchar b, short c, ushort d, int e, uint f,
                    long g, ulong h, float i, double j) {
  out[0] = (ulong)(long)a; out[1] = b; out[2] = (ulong)(long)c; out[3] = d;
  out[4] = (ulong)(long)e; out[5] = f; out[6] = (ulong)g; out[7] = h;
  out[8] = as_uint(i); out[9] = as_ulong(j);
}
)";
  CpuRunResult r = run(src, "scalars", shape("1"),
                       {arg("zero:80"), arg("i8:-5"), arg("u8:250"), arg("i16:-300"), arg("u16:65000"),
                        arg("i32:-70000"), arg("u32:4000000000"), arg("i64:-5000000000"),
                        arg("u64:18000000000000000000"), arg("f32:1.5"), arg("f64:-0.1")});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint64_t> want = {
      static_cast<uint64_t>(int64_t{-5}),     250, static_cast<uint64_t>(int64_t{-300}), 65000,
      static_cast<uint64_t>(int64_t{-70000}), 4000000000u,
      static_cast<uint64_t>(int64_t{-5000000000}), 18000000000000000000u,
      0x3fc00000u,                                          // 1.5f
      std::bit_cast<uint64_t>(-0.1),                        // the C++ compiler's -0.1
  };
  EXPECT_EQ(asVector<uint64_t>(r.buffers[0]), want);
}

TEST(ClCpuRunner, BuildErrorsCarryTheLog) {
  CpuRunResult r = run("kernel void k(global int* a) { a[0] = ; }", "k", shape("1"), {arg("zero:4")});
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "the OpenCL CPU device could not build the program (CL_BUILD_PROGRAM_FAILURE):\n");
  EXPECT_HAS(r.error, "expected expression");
  EXPECT_TRUE(r.buffers.empty());

  CpuRunRequest q;
  q.source = kSaxpy;
  q.kernel = "saxpy";
  q.buildOptions = "-not-an-option";
  q.launch = shape("4");
  std::vector<KernelArgValue> args = {arg("f32:1"), arg("zero:16"), arg("zero:16")};
  q.args = args;
  r = runOnCpu(q);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "could not build the program (CL_INVALID_BUILD_OPTIONS)");
}

TEST(ClCpuRunner, KernelsAndArgumentsThatDoNotFit) {
  CpuRunResult r = run(kSaxpy, "nope", shape("4"), {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "the program has no kernel named 'nope' (kernels: saxpy)");

  r = run(kSaxpy, "saxpy", shape("4"), {arg("i64:5"), arg("zero:16")});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "argument 0 'a' is a float (4 bytes); i64:5 gives 8 bytes\n"
            "argument 2 'y' (a __global float*) has no --arg");

  r = run(kSaxpy, "saxpy", shape("4"), {arg("f32:1"), arg("zero:16"), arg("local:16")});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "argument 2 'y' is a __global float* buffer; local:16 is a __local buffer (use @FILE or zero:N)");
}

TEST(ClCpuRunner, LaunchesOverTheDevicesLimits) {
  const char* src = "kernel void k(global int* a, local int* t) { t[0] = 1; a[0] = t[0]; }";
  // 1 TiB of __local memory: more than any CPU device has.
  CpuRunResult r = run(src, "k", shape("1"), {arg("zero:4"), KernelArgValue{LocalArg{uint64_t{1} << 40}}});
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "argument 1: local:1099511627776 makes the kernel's __local memory more than the OpenCL CPU device's");
  // 2^20 work-items in one group (LaunchShape's own limit is the CLI's; the device has its own).
  LaunchShape big;
  big.global = {1u << 20, 1, 1};
  big.local = std::array<uint64_t, 3>{1u << 20, 1, 1};
  big.workItems = 1u << 20;
  r = run(src, "k", big, {arg("zero:4"), arg("local:4")});
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "--local: 1048576 work-items in dimension 0, over the OpenCL CPU device's limit of");
}

TEST(ClCpuRunner, AKernelThatCrashesOnlyEndsItsChild) {
  // A store to address 16: the child process ends by SIGSEGV (the child restores the
  // default action, also over a sanitizer's handler); this process goes on.
  const char* src = "kernel void k(global int* a, ulong addr) { *((global int*)addr) = 1; a[0] = 2; }";
  CpuRunResult r = run(src, "k", shape("1"), {arg("zero:4"), arg("u64:16")});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "the OpenCL CPU run of kernel 'k' ended by signal 11 (Segmentation fault); the kernel may do what OpenCL "
            "leaves undefined (an access out of bounds, a barrier that not every work-item reaches)");
  // The next run is fine.
  std::vector<float> x = {1, 2, 3, 4};
  r = run(kSaxpy, "saxpy", shape("4"), {arg("f32:2"), buffer(x), buffer(x)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(asVector<float>(r.buffers[2]), (std::vector<float>{3, 6, 9, 12}));
}

TEST(ClCpuRunner, AKernelThatNeverEndsIsStopped) {
  const char* src = "kernel void spin(global volatile int* a) { while (a[0] == 0) { a[1]++; } }";
  CpuRunResult r = run(src, "spin", shape("1"), {arg("zero:8")}, 3);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "kernel 'spin' did not finish within 3 s on the OpenCL CPU device; it was stopped");
}

TEST(ClCpuRunner, NoPlatform) {
  // The ICD loader of the child finds no platform at all.
  const char* old = std::getenv("OCL_ICD_VENDORS");
  std::string saved = old ? old : "";
  ::setenv("OCL_ICD_VENDORS", "/nonexistent/visakit-none.icd", 1);
  std::vector<float> x = {1};
  CpuRunResult r = run(kSaxpy, "saxpy", shape("1"), {arg("f32:2"), buffer(x), buffer(x)});
  if (old) ::setenv("OCL_ICD_VENDORS", saved.c_str(), 1);
  else ::unsetenv("OCL_ICD_VENDORS");
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "no OpenCL platform named 'Portable Computing Language' (pocl; install pocl-opencl-icd");
}

TEST(ClCpuRunner, TimedLaunchesLeaveTheFirstRunsBuffers) {
  // a[i] += 1 launched 1 + 3 times: the buffers are the first launch's (each timed
  // launch starts again from {1, 2, 3, 4}), and every launch is timed.
  const char* src = "kernel void inc(global int* a) { a[get_global_id(0)] += 1; }";
  std::vector<int32_t> a = {1, 2, 3, 4};
  CpuRunRequest q;
  q.source = src;
  q.kernel = "inc";
  q.launch = shape("4");
  std::vector<KernelArgValue> args = {buffer(a)};
  q.args = args;
  q.timedLaunches = 3;
  CpuRunResult r = runOnCpu(q);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(asVector<int32_t>(r.buffers[0]), (std::vector<int32_t>{2, 3, 4, 5}));
  ASSERT_EQ(r.launchSeconds.size(), 4u);
  for (double s : r.launchSeconds) EXPECT_GT(s, 0.0);
}

TEST(ClCpuRunner, AnotherPlatformByName) {
  // Oclgrind (scripts/setup.sh installs it) through an ICD folder of its own, as the
  // benchmarks run it: the same saxpy, on the platform asked for.
  ASSERT_STRNE(VISAKIT_OCLGRIND_ICD, "") << "CMake found no liboclgrind-rt-icd.so (package oclgrind)";
  const std::string dir = ::testing::TempDir() + "visakit_oclgrind_icd";
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  {
    FILE* f = std::fopen((dir + "/oclgrind.icd").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "%s\n", VISAKIT_OCLGRIND_ICD);
    std::fclose(f);
  }
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  CpuRunRequest q;
  q.source = kSaxpy;
  q.kernel = "saxpy";
  q.launch = shape("4");
  std::vector<KernelArgValue> args = {arg("f32:0.5"), buffer(x), buffer(y)};
  q.args = args;
  q.platform = "Oclgrind";
  q.icdVendors = dir;
  CpuRunResult r = runOnCpu(q);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.platform, "Oclgrind");
  EXPECT_EQ(asVector<float>(r.buffers[2]), (std::vector<float>{10.5f, 21, 31.5f, 42}));
  ASSERT_EQ(r.launchSeconds.size(), 1u);

  // Oclgrind lists a kernel that calls ctz (a built-in it lacks) but cannot create it.
  CpuRunRequest c = q;
  c.source = "__kernel void ctzk(__global uint* p) { p[0] = ctz(p[0]); }";
  c.kernel = "ctzk";
  c.buildOptions = "-cl-std=CL2.0";  // (ctz is OpenCL C 2.0)
  std::vector<KernelArgValue> ctzArgs = {arg("zero:4")};
  c.args = ctzArgs;
  c.launch = shape("1");
  r = runOnCpu(c);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "the OpenCL device could not create kernel 'ctzk', though the program lists it (CL_INVALID_KERNEL_NAME");

  q.platform = "visakit-no-such-platform";
  r = runOnCpu(q);
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "no OpenCL platform named 'visakit-no-such-platform'; the ICD loader found 'Oclgrind'");
}

TEST(ClCpuRunner, InThisProcess) {
  // isolate = false: the same results without a child. pocl keeps its compiler's
  // allocations until the process ends: the asan test preset suppresses leaks
  // inside libpocl and libLLVM (tests/lsan.supp).
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  CpuRunRequest q;
  q.source = kSaxpy;
  q.kernel = "saxpy";
  q.launch = shape("4", "2");
  std::vector<KernelArgValue> args = {arg("f32:0.5"), buffer(x), buffer(y)};
  q.args = args;
  q.isolate = false;
  CpuRunResult r = runOnCpu(q);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(asVector<float>(r.buffers[2]), (std::vector<float>{10.5f, 21, 31.5f, 42}));
}

#else  // !VISAKIT_HAVE_OPENCL

TEST(ClCpuRunner, AbsentRunnerSaysSo) {
  EXPECT_FALSE(cpuRunnerAvailable());
  CpuRunResult r = run(kSaxpy, "saxpy", shape("4"), {arg("f32:1"), arg("zero:16"), arg("zero:16")});
  EXPECT_FALSE(r.ok);
  EXPECT_HAS(r.error, "this visakit was built without OpenCL");
  EXPECT_TRUE(r.buffers.empty());
}

#endif
