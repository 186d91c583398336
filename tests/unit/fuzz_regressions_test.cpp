// Replays every input a fuzzer once failed on (fuzz/regressions/<target>/)
// through the same code as the fuzz target: each must now pass cleanly.
#include <gtest/gtest.h>

#include "../../fuzz/targets.hpp"
#include "test_util.hpp"

namespace {

struct Case {
  std::string target;
  std::filesystem::path file;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* t : {"text", "binary", "run", "patch_tokens"}) {
    auto dir = std::filesystem::path(VISAKIT_SOURCE_DIR) / "fuzz/regressions" / t;
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back({t, e.path()});
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.file < b.file; });
  return out;
}

class FuzzRegression : public ::testing::TestWithParam<Case> {};

TEST_P(FuzzRegression, PassesTheTargetsChecks) {
  std::string data = vtest::readAll(GetParam().file);
  auto* p = reinterpret_cast<const uint8_t*>(data.data());
  if (GetParam().target == "text") visakit::fuzz::text(p, data.size());
  else if (GetParam().target == "binary") visakit::fuzz::binary(p, data.size());
  else if (GetParam().target == "patch_tokens") visakit::fuzz::patchTokens(p, data.size());
  else visakit::fuzz::run(p, data.size());
  SUCCEED();
}

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzRegression, ::testing::ValuesIn(cases()),
                         [](const auto& i) { return i.param.target + "_" + vtest::testName(i.param.file); });

}  // namespace
