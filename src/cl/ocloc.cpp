#include "cl/ocloc.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

extern char** environ;

namespace visakit::cl {

namespace {

// ---- The registry the signal handler reads: fixed storage, atomics, no allocation.

constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 live
  char path[kPathMax];
};
Slot gDirs[kSlots];
std::atomic<pid_t> gChildren[kSlots];
struct sigaction gOld[2];  // SIGINT, SIGTERM as they were

// Removes `name` under the directory `parent` (a file, or a directory with everything in it),
// with system calls only, so that the signal handler can use it. Directories deeper than
// `depth` levels are left. True when `name` is gone.
bool removeAt(int parent, const char* name, int depth) {
  if (::unlinkat(parent, name, 0) == 0 || errno == ENOENT) return true;
  int fd = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  if (depth > 0) {
    alignas(8) char buf[1024];
    // Read the entries again from the start until a pass removes nothing.
    for (bool removed = true; removed;) {
      removed = false;
      if (::lseek(fd, 0, SEEK_SET) != 0) break;
      for (;;) {
        long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0) break;
        for (long off = 0; off + 19 < n;) {
          unsigned short reclen;
          std::memcpy(&reclen, buf + off + 16, sizeof reclen);  // linux_dirent64: ino, off, reclen, type, name
          if (reclen == 0) break;
          const char* entry = buf + off + 19;
          if (std::strcmp(entry, ".") != 0 && std::strcmp(entry, "..") != 0 && removeAt(fd, entry, depth - 1))
            removed = true;
          off += reclen;
        }
      }
    }
  }
  ::close(fd);
  return ::unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

void removeTree(const char* path) { removeAt(AT_FDCWD, path, 8); }

extern "C" void onOclocSignal(int sig, siginfo_t* info, void* ctx) {
  int savedErrno = errno;
  for (auto& c : gChildren) {
    pid_t pid = c.exchange(0);
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  for (auto& s : gDirs)
    if (s.state.load() == 2) removeTree(s.path);
  const struct sigaction& old = gOld[sig == SIGINT ? 0 : 1];
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
    old.sa_sigaction(sig, info, ctx);
  } else if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
  } else {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
  }
  errno = savedErrno;
}

// SIGINT and SIGTERM held back while it lives (a pending one arrives at its end).
struct HoldSignals {
  sigset_t old;
  HoldSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &set, &old);
  }
  ~HoldSignals() { ::pthread_sigmask(SIG_SETMASK, &old, nullptr); }
};

// Puts our handler in front of whatever handles SIGINT and SIGTERM now (run at every TempDir,
// so a handler installed after the first TempDir is chained too). Ignored signals stay ignored.
void installHandlers() {
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  HoldSignals hold;
  const int sigs[2] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; ++i) {
    struct sigaction cur {};
    ::sigaction(sigs[i], nullptr, &cur);
    if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == onOclocSignal) continue;
    if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN) continue;
    gOld[i] = cur;
    struct sigaction act {};
    act.sa_sigaction = onOclocSignal;
    act.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGINT);
    sigaddset(&act.sa_mask, SIGTERM);
    ::sigaction(sigs[i], &act, nullptr);
  }
}


int claimSlot(const std::string& path) {
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (gDirs[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(gDirs[i].path, path.c_str(), path.size() + 1);
      gDirs[i].state.store(2);
      return i;
    }
  }
  return -1;
}

bool readSmall(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool executable(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// What ocloc said, at most about `max` characters: its first lines (the first
// errors, which the later ones often follow from) and its last (its summary),
// whole lines, with the number of lines left out between them.
std::string headAndTail(const std::string& s, size_t max) {
  std::string t = s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() <= max) return t;
  size_t head = t.rfind('\n', max * 3 / 4);
  if (head == std::string::npos) head = max * 3 / 4;
  size_t tail = t.find('\n', t.size() - max / 4);
  if (tail == std::string::npos || tail < head) tail = t.size() - max / 4;
  const auto left = std::count(t.begin() + static_cast<std::ptrdiff_t>(head), t.begin() + static_cast<std::ptrdiff_t>(tail), '\n');
  return t.substr(0, head) + fmt::format("\n... ({} lines left out) ...", left > 0 ? left - 1 : 0) + t.substr(tail);
}

}  // namespace

// ---- TempDir

std::optional<TempDir> TempDir::create(const std::string& prefix, std::string& err, const std::string& parent) {
  installHandlers();
  const char* base = std::getenv("TMPDIR");
  std::string root = !parent.empty() ? parent : base && *base ? base : "/tmp";
  std::string templ = root + "/" + prefix + "XXXXXX";
  if (templ.size() + 1 > kPathMax) {
    err = fmt::format("temporary directory path too long: '{}'", templ);
    return std::nullopt;
  }
  HoldSignals hold;
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    err = fmt::format("cannot make a temporary directory '{}': {}", templ, std::strerror(errno));
    return std::nullopt;
  }
  TempDir d;
  d.path_ = buf.data();
  d.slot_ = claimSlot(d.path_);
  if (d.slot_ < 0) {
    ::rmdir(d.path_.c_str());
    err = fmt::format("more than {} temporary directories at once", kSlots);
    return std::nullopt;
  }
  return std::optional<TempDir>(std::move(d));
}

TempDir::TempDir(TempDir&& o) noexcept : path_(std::move(o.path_)), slot_(o.slot_) { o.slot_ = -1; }

TempDir& TempDir::operator=(TempDir&& o) noexcept {
  if (this != &o) {
    remove();
    path_ = std::move(o.path_);
    slot_ = o.slot_;
    o.slot_ = -1;
  }
  return *this;
}

TempDir::~TempDir() { remove(); }

void TempDir::remove() {
  if (slot_ < 0) return;
  removeTree(path_.c_str());
  release();
}

void TempDir::release() {
  if (slot_ < 0) return;
  gDirs[slot_].state.store(0);
  slot_ = -1;
}

// ---- ocloc

std::string findOcloc() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    size_t colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/ocloc";
    if (executable(cand)) return cand;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

std::string oclocExecutable(const OclocRequest& req, std::string& err) {
  std::string exe = req.ocloc.empty() ? findOcloc() : req.ocloc;
  if (!exe.empty() && executable(exe)) return exe;
  err = req.ocloc.empty() ? "ocloc not found: install the Debian package intel-opencl-icd"
                          : fmt::format("ocloc not found at '{}': install the Debian package intel-opencl-icd", req.ocloc);
  return {};
}

bool runOcloc(const OclocRequest& req, OclocRun& out, std::string& err) {
  namespace fs = std::filesystem;
  out = OclocRun{};
  const std::string exe = oclocExecutable(req, err);
  if (exe.empty()) return false;
  std::error_code ec;
  if (!fs::is_regular_file(req.source, ec)) {
    err = fmt::format("cannot read '{}': no such file", req.source);
    return false;
  }
  std::string source = fs::absolute(req.source, ec).string();
  if (req.device.empty()) {
    err = "no device given (ocloc -device: skl, tgllp, dg2, pvc, ...)";
    return false;
  }
  auto dir = TempDir::create(req.workIn.empty() ? "visakit-cl-" : ".tmp-visakit-cl-", err, req.workIn);
  if (!dir) return false;
  std::string root = dir->path();
  out.dumpDir = root + "/dump";
  std::string outDir = root + "/out";
  if (::mkdir(out.dumpDir.c_str(), 0700) != 0 || ::mkdir(outDir.c_str(), 0700) != 0) {
    err = fmt::format("cannot make directories in '{}': {}", root, std::strerror(errno));
    return false;
  }
  std::string outFile = root + "/ocloc.stdout", errFile = root + "/ocloc.stderr";

  // (no -q: it drops the build log, which is what a failed compile has to say)
  std::vector<std::string> args = {exe, "compile", "-file", source, "-device", req.device, "-out_dir", outDir};
  if (!req.options.empty()) {
    args.push_back("-options");
    args.push_back(req.options);
  }
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view v(*e);
    if (v.starts_with("IGC_ShaderDumpEnable=") || v.starts_with("IGC_DumpToCustomDir=")) continue;
    env.emplace_back(v);
  }
  env.push_back("IGC_ShaderDumpEnable=1");
  env.push_back("IGC_DumpToCustomDir=" + out.dumpDir);
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addchdir_np(&fa, root.c_str());
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t pid = -1;
  int childSlot = -1;
  int rc;
  {
    // No signal between the start of the child and its registration.
    HoldSignals hold;
    rc = ::posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
    if (rc == 0)
      for (int i = 0; i < kSlots && childSlot < 0; ++i) {
        pid_t expected = 0;
        if (gChildren[i].compare_exchange_strong(expected, pid)) childSlot = i;
      }
  }
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    err = fmt::format("cannot start '{}': {}", exe, std::strerror(rc));
    return false;
  }
  // Polled rather than a blocking waitpid, so that a SIGINT is handled at once also where
  // signal delivery waits for an intercepted sleep (ThreadSanitizer).
  int st = 0;
  pid_t w;
  while ((w = ::waitpid(pid, &st, WNOHANG)) == 0 || (w < 0 && errno == EINTR)) ::usleep(2000);
  if (childSlot >= 0) {
    pid_t expected = pid;
    gChildren[childSlot].compare_exchange_strong(expected, 0);
  }
  readSmall(outFile, out.stdoutText);
  readSmall(errFile, out.stderrText);
  std::string said = headAndTail(out.stderrText + out.stdoutText, 4000);
  if (w < 0) {
    err = "ocloc was interrupted";
    return false;
  }
  if (WIFSIGNALED(st)) {
    err = fmt::format("ocloc was killed by signal {}{}{}", WTERMSIG(st), said.empty() ? "" : ":\n", said);
    return false;
  }
  out.exitCode = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (out.exitCode != 0) {
    err = fmt::format("ocloc failed (exit status {}){}{}", out.exitCode, said.empty() ? "" : ":\n", said);
    return false;
  }
  out.dir = std::move(dir);
  return true;
}

}  // namespace visakit::cl
