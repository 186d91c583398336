// Printer round trips: print(parse(print(k))) == print(k), parse(print(k)) == k,
// and IGC's printed files format the same as their sources.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> validKernels() {
  std::vector<fs::path> out = vtest::sourceFiles({"examples", "tests/sim/cases", "bench/kernels"}, ".visaasm");
  for (auto& p : vtest::sourceFiles({"tests/verify/cases"}, ".visaasm"))
    if (p.filename().string().find("_ok.") != std::string::npos) out.push_back(p);
  return out;
}

class RoundTrip : public ::testing::TestWithParam<fs::path> {};

TEST_P(RoundTrip, PrintIsAFixedPointAndReparsesEqual) {
  std::string src = vtest::readAll(GetParam());
  Options opts;
  if (src.find("--grf-size 64") != std::string::npos) opts.grfSize = 64;
  Diagnostics d;
  auto m = parseText(src, d, opts);
  ASSERT_TRUE(m) << d.render(GetParam().string(), src);
  std::string p1 = printText(*m);
  Diagnostics d2;
  auto m2 = parseText(p1, d2, opts);
  ASSERT_TRUE(m2) << d2.render("printed", p1);
  EXPECT_EQ(printText(*m2), p1);
  // Equal up to source locations (not part of equality) and surface spelling.
  EXPECT_TRUE(*m2 == *m) << p1;
}

INSTANTIATE_TEST_SUITE_P(Kernels, RoundTrip, ::testing::ValuesIn(validKernels()),
                         [](const auto& i) { return vtest::testName(i.param); });

const char* kIgc[] = {"gather_scaled", "scatter_scaled", "scatter4_scaled", "qw_scatter", "urb_write"};

class IgcPrinted : public ::testing::TestWithParam<const char*> {};

TEST_P(IgcPrinted, LoadsUnchangedAndFormatsLikeItsSource) {
  fs::path dir = fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/igc-isa";
  std::string printed = (dir / (std::string(GetParam()) + ".printed.visaasm")).string();
  std::string source = (dir / (std::string(GetParam()) + ".visaasm")).string();
  auto check = vtest::runCli("check '" + printed + "'");
  EXPECT_EQ(check.exit, 0) << check.output;
  auto a = vtest::runCli("fmt '" + printed + "'");
  auto b = vtest::runCli("fmt '" + source + "'");
  ASSERT_EQ(a.exit, 0) << a.output;
  ASSERT_EQ(b.exit, 0) << b.output;
  EXPECT_EQ(a.output, b.output);
  // Intel's printer names the surface T6 and keeps the user's name as v_name.
  if (std::string(GetParam()) != "urb_write") {
    EXPECT_NE(a.output.find(".decl T6 v_type=T num_elts=1 v_name=Buf\n"), std::string::npos) << a.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, IgcPrinted, ::testing::ValuesIn(kIgc));

}  // namespace
