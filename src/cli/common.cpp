#include "cli/common.hpp"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

std::optional<MappedFile> MappedFile::file(const std::string& path, uint64_t size, std::string& err) {
  err.clear();
  // O_NONBLOCK: a FIFO put in place of the file does not block the open.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    err = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) err = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
  else if (!S_ISREG(st.st_mode)) err = fmt::format("cannot open '{}': not a regular file", path);
  else if (static_cast<uint64_t>(st.st_size) != size) err = fmt::format("cannot open '{}': its size changed", path);
  else if (size != static_cast<size_t>(size)) err = fmt::format("cannot map '{}': {} bytes is too large", path, size);
  if (!err.empty()) {
    ::close(fd);
    return std::nullopt;
  }
  MappedFile m;
  if (size) {
    // Private and writable: the kernel's writes go to copies of the pages, never to the file.
    // No MAP_POPULATE: it would copy every page of a writable private mapping.
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      err = fmt::format("cannot map '{}': {}", path, std::strerror(errno));
      ::close(fd);
      return std::nullopt;
    }
    m.data_ = p;
    m.size_ = size;
    ::madvise(p, size, MADV_WILLNEED);  // read-ahead; only a hint
  }
  ::close(fd);
  return m;
}

std::optional<MappedFile> MappedFile::zero(uint64_t size, std::string& err) {
  MappedFile m;
  if (!size) return m;
  if (size != static_cast<size_t>(size)) {
    err = fmt::format("cannot allocate {} bytes: too large", size);
    return std::nullopt;
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    err = fmt::format("cannot allocate {} bytes: {}", size, std::strerror(errno));
    return std::nullopt;
  }
  m.data_ = p;
  m.size_ = size;
  return m;
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

void addGrfOptions(CLI::App* cmd, unsigned& grfSize) {
  grfSize = 0;  // not given: resolveGrfSize
  CLI::Option* grf = cmd->add_option("--grf-size", grfSize,
                                     "GRF size in bytes (default: from --platform, else from the `//.platform` line of "
                                     "the .asm IGC dumped beside FILE, for a function's X_f<K> file its kernel's X.asm, else 32)")
                         ->check(CLI::IsMember({32, 64}));
  cmd->add_option_function<std::string>(
         "--platform",
         [&grfSize](const std::string& p) {
           auto g = grfSizeOfPlatform(p);
           if (!g) throw CLI::ValidationError("--platform", "unknown platform '" + p + "' (skl, tgllp, dg2, acm-g10, pvc, ...)");
           grfSize = *g;
         },
         "NAME: the GRF size of this platform (an ocloc device name or IGC's `.platform` name: 64 for pvc, else 32)")
      ->excludes(grf);
}

unsigned resolveGrfSize(const std::string& path, unsigned given) {
  if (given) return given;
  // An IGC dump: X.visaasm or X.isa with X.asm beside it, whose header names the platform; a
  // function's X_f<K>.visaasm has none of its own: its kernel's X.asm (spec-decisions C2).
  std::filesystem::path asmPath(path);
  asmPath.replace_extension(".asm");
  if (asmPath == std::filesystem::path(path)) return 32;
  if (std::error_code ec; !std::filesystem::exists(asmPath, ec)) {
    const std::string stem = asmPath.stem().string();
    const size_t f = stem.rfind("_f");
    if (f != std::string::npos && f + 2 < stem.size() &&
        stem.find_first_not_of("0123456789", f + 2) == std::string::npos)
      asmPath.replace_filename(stem.substr(0, f) + ".asm");
  }
  std::ifstream in(asmPath);
  std::string line;
  for (int n = 0; n < 64 && std::getline(in, line); ++n)
    if (line.rfind("//.platform ", 0) == 0) {
      std::string name = line.substr(12);
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
      if (auto g = grfSizeOfPlatform(name)) return *g;
    }
  return 32;
}

void addInputOptions(CLI::App* cmd, Options& opts) {
  addGrfOptions(cmd, opts.grfSize);
  cmd->add_flag("--Werror", opts.warningsAsErrors, "treat warnings (what Intel's compiler emits though a page forbids it) as errors");
  cmd->add_option("--max-file-size", opts.limits.maxFileBytes, "largest input file in bytes")->capture_default_str();
  cmd->add_option("--max-kernels", opts.limits.maxKernels, "most kernels and functions in one file")->capture_default_str();
  cmd->add_option("--max-vars", opts.limits.maxVars, "most declarations in one kernel")->capture_default_str();
  cmd->add_option("--max-instructions", opts.limits.maxInstructions, "most instructions in one kernel")->capture_default_str();
}

std::optional<Loaded> loadAndVerify(const std::string& path, const Options& given, bool verifyIt) {
  Loaded l;
  Options opts = given;
  opts.grfSize = l.grfSize = resolveGrfSize(path, given.grfSize);
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
    // An IGC dump's X.isa has X.visaasm beside it, the form to read when the object is cut short (B6).
    std::filesystem::path text(path);
    text.replace_extension(".visaasm");
    if (text != std::filesystem::path(path) && std::filesystem::is_regular_file(text, ec)) opts.textForm = text.string();
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
