// cl::Session: launches that share the loaded vISA and the prepared kernel
// give the bytes a launch of their own gives. IGC's dump of add.cl for pvc
// (tests/fixtures/cl-dumps/add-pvc): b[i] = a[i] + c, worked out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "visakit/cl.hpp"

namespace {

namespace fs = std::filesystem;

struct Folder {
  fs::path dir = fs::temp_directory_path() / ("visakit_cl_session_" + std::to_string(::getpid()));
  Folder() { fs::create_directories(dir); }
  ~Folder() { fs::remove_all(dir); }
};

constexpr int kItems = 100;

std::vector<int32_t> intsOf(const std::vector<uint8_t>& b) {
  std::vector<int32_t> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

visakit::cl::Request request(const Folder& f, int c, const std::string& global) {
  const fs::path a = f.dir / "a.bin";
  if (!fs::exists(a)) {
    std::ofstream o(a, std::ios::binary);
    for (int32_t i = 0; i < kItems; ++i) {
      const int32_t v = 1000 * i - 7;
      o.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  visakit::cl::Request rq;
  rq.input = (fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-dumps/add-pvc").string();
  rq.kernel = "add";
  rq.global = global;
  rq.args = {"0=@" + a.string(), "1=zero:" + std::to_string(4 * kItems), "2=i32:" + std::to_string(c)};
  rq.outs = {"1=" + (f.dir / "b.bin").string()};
  rq.jobs = 2;
  return rq;
}

// b[i] = a[i] + c for the first `n` work-items, 0 past them.
std::vector<int32_t> expected(int c, int n) {
  std::vector<int32_t> v(kItems, 0);
  for (int i = 0; i < n; ++i) v[i] = 1000 * i - 7 + c;
  return v;
}

std::vector<int32_t> outputOf(const visakit::cl::Result& r) {
  EXPECT_EQ(r.exitCode, 0) << r.error;
  if (r.outputs.size() != 1) {
    ADD_FAILURE() << "no output";
    return {};
  }
  return intsOf(r.outputs[0].second);
}

TEST(ClSession, RepeatedLaunchesReuseThePreparedKernel) {
  Folder f;
  visakit::cl::Session s;
  EXPECT_EQ(outputOf(s.run(request(f, 5, "100"))), expected(5, kItems));
  EXPECT_EQ(s.preparedHits(), 0u);
  EXPECT_EQ(outputOf(s.run(request(f, 5, "100"))), expected(5, kItems));
  EXPECT_EQ(s.preparedHits(), 1u);
  // A scalar argument comes in each thread's payload, which the plans do not
  // fold: the prepared kernel serves it too, with the new value.
  EXPECT_EQ(outputOf(s.run(request(f, -40, "100"))), expected(-40, kItems));
  EXPECT_EQ(s.preparedHits(), 2u);
  // Another NDRange: the same bytes as a launch of its own.
  const visakit::cl::Result alone = visakit::cl::run(request(f, 9, "64"));
  EXPECT_EQ(outputOf(alone), expected(9, 64));
  const visakit::cl::Result shared = s.run(request(f, 9, "64"));
  EXPECT_EQ(outputOf(shared), expected(9, 64));
  EXPECT_EQ(shared.stats.instructions, alone.stats.instructions);
  EXPECT_EQ(shared.stats.lanes, alone.stats.lanes);
  EXPECT_EQ(shared.grfSize, 64u);
}

TEST(ClSession, ErrorsAreThoseOfALaunchOfItsOwn) {
  Folder f;
  visakit::cl::Session s;
  EXPECT_EQ(outputOf(s.run(request(f, 1, "100"))), expected(1, kItems));
  visakit::cl::Request bad = request(f, 1, "100");
  bad.kernel = "nope";
  const visakit::cl::Result r = s.run(bad);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.error, visakit::cl::run(bad).error);
  EXPECT_EQ(outputOf(s.run(request(f, 2, "100"))), expected(2, kItems));
  EXPECT_EQ(s.preparedHits(), 1u);
}

}  // namespace
