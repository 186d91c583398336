#include "cli/common.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

namespace visakit::cli {

bool readFile(const std::string& path, std::string& out, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    err = fmt::format("cannot read '{}'", path);
    return false;
  }
  out = ss.str();
  return true;
}

namespace {
// The temporary file being written, removed by the SIGINT/SIGTERM handler so
// that an interrupted run leaves neither a partial output nor a stray file.
char gTmpPath[4096];
volatile std::sig_atomic_t gTmpActive = 0;

extern "C" void onFatalSignal(int sig) {
  if (gTmpActive) ::unlink(gTmpPath);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

struct TmpGuard {
  explicit TmpGuard(const std::string& p) {
    std::snprintf(gTmpPath, sizeof gTmpPath, "%s", p.c_str());
    gTmpActive = 1;
  }
  ~TmpGuard() { gTmpActive = 0; }
};
}  // namespace

void installSignalHandlers() {
  std::signal(SIGINT, onFatalSignal);
  std::signal(SIGTERM, onFatalSignal);
}

bool writeFileAtomic(const std::string& path, std::string_view data, std::string& err) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  if (tmp.size() >= sizeof gTmpPath) {
    err = fmt::format("cannot write '{}': path too long", path);
    return false;
  }
  TmpGuard guard(tmp);
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    err = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

int writeOutput(const std::string& path, std::string_view data) {
  if (path.empty()) {
    std::cout << data;
    return std::cout.flush() ? kExitOk : kExitInvalid;
  }
  std::string err;
  if (!writeFileAtomic(path, data, err)) {
    std::cerr << "visakit: error: " << err << "\n";
    return kExitInvalid;
  }
  return kExitOk;
}

void addInputOptions(CLI::App* cmd, Options& opts) {
  cmd->add_option("--grf-size", opts.grfSize, "GRF size in bytes")->check(CLI::IsMember({32, 64}))->default_val(32);
  cmd->add_flag("--Werror", opts.warningsAsErrors, "treat warnings (what Intel's compiler emits though a page forbids it) as errors");
  cmd->add_option("--max-file-size", opts.limits.maxFileBytes, "largest input file in bytes")->capture_default_str();
  cmd->add_option("--max-kernels", opts.limits.maxKernels, "most kernels and functions in one file")->capture_default_str();
  cmd->add_option("--max-vars", opts.limits.maxVars, "most declarations in one kernel")->capture_default_str();
  cmd->add_option("--max-instructions", opts.limits.maxInstructions, "most instructions in one kernel")->capture_default_str();
}

std::optional<Loaded> loadAndVerify(const std::string& path, const Options& opts, bool verifyIt) {
  Loaded l;
  std::string err;
  std::string data;
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > opts.limits.maxFileBytes) {
    std::cerr << fmt::format("visakit: error: '{}' is {} bytes, over the limit of {} (--max-file-size)\n", path, size,
                             opts.limits.maxFileBytes);
    return std::nullopt;
  }
  if (!readFile(path, data, err)) {
    std::cerr << "visakit: error: " << err << "\n";
    return std::nullopt;
  }
  Diagnostics diags;
  std::optional<Module> m;
  if (looksBinary(data)) {
    m = readBinary(data, diags, opts);
  } else {
    l.source = std::move(data);
    Module partial;
    m = parseText(l.source, diags, opts, &partial);
    // Report the rest of the file's errors too, from what did parse.
    if (!m && verifyIt) verify(partial, diags, opts);
  }
  if (m && verifyIt) verify(*m, diags, opts);
  std::cerr << diags.render(path, l.source);
  if (diags.hasErrors()) {
    if (diags.warningCount())
      std::cerr << fmt::format("{} warning{} and ", diags.warningCount(), diags.warningCount() == 1 ? "" : "s");
    std::cerr << fmt::format("{} error{} generated.\n", diags.errorCount(), diags.errorCount() == 1 ? "" : "s");
    return std::nullopt;
  }
  if (diags.warningCount())
    std::cerr << fmt::format("{} warning{} generated.\n", diags.warningCount(), diags.warningCount() == 1 ? "" : "s");
  l.module = std::move(*m);
  return l;
}

}  // namespace visakit::cli
