// Helpers shared by the test harnesses: files, running the CLI.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "visakit/visakit.hpp"

namespace vtest {

namespace fs = std::filesystem;

using Bytes = std::vector<uint8_t>;

// `text` parsed and verified with GRF size `grf`; an empty module (and a test
// failure with the diagnostics) if it does not load.
inline visakit::Module buildModule(const std::string& text, unsigned grf = 32) {
  visakit::Diagnostics d;
  visakit::Options o;
  o.grfSize = grf;
  auto m = visakit::parseText(text, d, o);
  if (!m || !visakit::verify(*m, d, o)) {
    ADD_FAILURE() << d.render("kernel", text);
    return {};
  }
  return std::move(*m);
}
inline std::string_view view(const Bytes& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }
inline Bytes bytesOf(const std::string& s) { return Bytes(s.begin(), s.end()); }

inline std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CliResult {
  int exit = -1;
  std::string output;  // stdout and stderr together
};

// Runs the visakit CLI with `args` (already shell-quoted) through the shell.
inline CliResult runCli(const std::string& args) {
  CliResult r;
  std::string cmd = std::string(VISAKIT_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  r.exit = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Every file with extension `ext` under the given folders of the source tree.
inline std::vector<fs::path> sourceFiles(std::initializer_list<const char*> dirs, const std::string& ext) {
  std::vector<fs::path> out;
  for (const char* d : dirs) {
    fs::path dir = fs::path(VISAKIT_SOURCE_DIR) / d;
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ext) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string testName(const fs::path& p) {
  std::string n = p.parent_path().filename().string() + "_" + p.stem().string();
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

// A test with a folder of its own (named after the suite, the process and the
// test), made empty before the test and removed after it.
class TempDirTest : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() /
          ("visakit_" + std::string(info->test_suite_name()) + "_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  // Writes `data` to dir/name; its path.
  std::string write(const std::string& name, const std::string& data) {
    std::ofstream(dir / name, std::ios::binary) << data;
    return (dir / name).string();
  }
  std::string read(const std::string& name) { return readAll(dir / name); }
};

}  // namespace vtest
