#include "cli/common.hpp"

#include "support/files.hpp"

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
// The temporary files being written, removed by the SIGINT/SIGTERM handler so
// that an interrupted run leaves neither a partial output nor a stray file.
constexpr int kMaxOutputs = 64;
char gTmpPaths[kMaxOutputs][4096];
volatile std::sig_atomic_t gTmpCount = 0;

extern "C" void onFatalSignal(int sig) {
  for (int i = 0; i < gTmpCount; ++i) ::unlink(gTmpPaths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}
}  // namespace

void installSignalHandlers() {
  std::signal(SIGINT, onFatalSignal);
  std::signal(SIGTERM, onFatalSignal);
}

bool writeFilesAtomic(const std::vector<std::pair<std::string, std::string_view>>& files, std::string& err) {
  if (files.size() > static_cast<size_t>(kMaxOutputs)) {
    err = fmt::format("cannot write {} files at once (at most {})", files.size(), kMaxOutputs);
    return false;
  }
  struct Out {
    std::string path, target, tmp;  // tmp empty: written in place
    std::string_view data;
  };
  std::vector<Out> outs;
  auto fail = [&](const std::string& path, const std::string& why) {
    err = fmt::format("cannot write '{}': {}", path, why);
    for (const Out& o : outs)
      if (!o.tmp.empty()) ::unlink(o.tmp.c_str());
    gTmpCount = 0;
    return false;
  };
  for (const auto& [path, data] : files) {
    std::error_code ec;
    std::string target = std::filesystem::weakly_canonical(path, ec).string();  // (through symlinks)
    if (ec || target.empty()) target = path;
    struct stat st {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return fail(path, "it is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
      outs.push_back({path, target, "", data});
      continue;
    }
    std::string tmp = fmt::format("{}.tmp.{}.{}", target, ::getpid(), outs.size());
    if (tmp.size() >= sizeof gTmpPaths[0]) return fail(path, "path too long");
    std::snprintf(gTmpPaths[gTmpCount], sizeof gTmpPaths[0], "%s", tmp.c_str());
    gTmpCount = gTmpCount + 1;
    outs.push_back({path, target, tmp, data});
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return fail(path, std::strerror(errno));
    bool ok = !exists || ::fchmod(fd, st.st_mode & 07777) == 0;  // (the file's permissions, not the umask's)
    ok = writeAll(fd, data) && ok;
    const int e = errno;
    ok = ::close(fd) == 0 && ok;
    if (!ok) return fail(path, std::strerror(e ? e : errno));
  }
  // Devices and FIFOs first (they cannot be replaced), then the renames.
  for (const Out& o : outs) {
    if (!o.tmp.empty()) continue;
    const int fd = ::open(o.target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // (a FIFO without a reader fails, not waits)
    if (fd < 0) return fail(o.path, std::strerror(errno));
    ::fcntl(fd, F_SETFL, 0);
    bool ok = writeAll(fd, o.data);
    const int e = errno;
    ok = ::close(fd) == 0 && ok;
    if (!ok) return fail(o.path, std::strerror(e ? e : errno));
  }
  for (const Out& o : outs)
    if (!o.tmp.empty() && std::rename(o.tmp.c_str(), o.target.c_str()) != 0) return fail(o.path, std::strerror(errno));
  gTmpCount = 0;
  return true;
}

int writeOutputs(const std::vector<std::pair<std::string, std::string_view>>& files) {
  std::string err;
  if (!writeFilesAtomic(files, err)) {
    std::cerr << "visakit: error: " << err << "\n";
    return kExitInvalid;
  }
  return kExitOk;
}

int writeOutput(const std::string& path, std::string_view data) {
  if (path.empty()) {
    std::cout << data;
    return std::cout.flush() ? kExitOk : kExitInvalid;
  }
  return writeOutputs({{path, data}});
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
  if (!readFileLimited(path, opts.limits.maxFileBytes, data, err)) {
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
