// Runs `visakit check` on every kernel in tests/verify/cases/ and compares the
// reported error lines with the lines marked `// expected-error` (clang -verify style).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include "test_util.hpp"

namespace fs = std::filesystem;

namespace {

using vtest::runCli;

std::vector<std::string> caseFiles() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(VISAKIT_SOURCE_DIR) / "tests/verify/cases"))
    if (e.path().extension() == ".visaasm") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class VerifyCase : public ::testing::TestWithParam<std::string> {};

TEST_P(VerifyCase, ReportsExactlyTheMarkedLines) {
  fs::path file = fs::path(VISAKIT_SOURCE_DIR) / "tests/verify/cases" / GetParam();
  std::ifstream in(file);
  std::string line, extra;
  std::set<int> expected;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find("// expected-error") != std::string::npos) expected.insert(n);
    if (n == 1 && line.rfind("// RUN-ARGS:", 0) == 0) extra = line.substr(12);
  }
  vtest::CliResult r = runCli("check " + extra + " '" + file.string() + "'");
  std::set<int> reported;
  std::regex errLine(R"(:(\d+):(\d+): error: )");
  for (std::sregex_iterator it(r.output.begin(), r.output.end(), errLine), end; it != end; ++it)
    reported.insert(std::stoi((*it)[1]));
  bool bad = GetParam().find("_bad.") != std::string::npos;
  if (bad) {
    ASSERT_FALSE(expected.empty()) << "a _bad case must mark at least one line";
    EXPECT_EQ(r.exit, 1) << r.output;
    EXPECT_EQ(reported, expected) << r.output;
  } else {
    EXPECT_EQ(r.exit, 0) << r.output;
    EXPECT_TRUE(reported.empty()) << r.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, VerifyCase, ::testing::ValuesIn(caseFiles()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param.substr(0, i.param.rfind('.'));
                           for (auto& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
