#include "cl/cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace visakit::cl {

namespace {

namespace fs = std::filesystem;

// The libraries of Intel's compiler that ocloc loads (libocloc, IGC, its front end and their
// LLVM): a new version of any of them may compile differently.
constexpr std::string_view kCompilerLibs[] = {"libocloc", "libigc", "libigdfcl", "libopencl-clang",
                                              "libiga", "libLLVM", "libclang-cpp"};

std::string identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return fmt::format("{} {} {}.{:09} {}:{}", path, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_dev, st.st_ino);
}

// The folders the dynamic loader looks in for ocloc's libraries: LD_LIBRARY_PATH, the lib
// folders beside ocloc's, the system's; each once, as its real path.
std::vector<std::string> libraryFolders(const fs::path& exe) {
  std::vector<std::string> cands;
  if (const char* l = std::getenv("LD_LIBRARY_PATH")) {
    std::string_view rest = l;
    for (size_t colon; !rest.empty(); rest.remove_prefix(colon == std::string_view::npos ? rest.size() : colon + 1)) {
      colon = rest.find(':');
      if (colon != 0) cands.emplace_back(rest.substr(0, colon));
    }
  }
#if defined(__x86_64__)
  const std::string triplet = "x86_64-linux-gnu";
#else
  const std::string triplet = "";
#endif
  const fs::path up = exe.parent_path().parent_path();
  for (const fs::path& p : {up / "lib", up / "lib64", up / "lib" / triplet, fs::path("/usr/local/lib"),
                            fs::path("/usr/lib") / triplet, fs::path("/lib") / triplet, fs::path("/usr/lib64"),
                            fs::path("/usr/lib")})
    cands.push_back(p.string());
  std::vector<std::string> out;
  for (const std::string& c : cands) {
    std::error_code ec;
    const fs::path real = fs::canonical(c, ec);
    if (ec || !fs::is_directory(real, ec)) continue;
    if (std::find(out.begin(), out.end(), real.string()) == out.end()) out.push_back(real.string());
  }
  return out;
}

// Whether `source` has a preprocessor #include (a line whose first non-blank is '#', then
// blanks, then "include").
bool includes(std::string_view source) {
  for (size_t at = 0; at < source.size();) {
    size_t end = source.find('\n', at);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(at, end - at);
    at = end + 1;
    const size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || line[hash] != '#') continue;
    const size_t word = line.find_first_not_of(" \t", hash + 1);
    if (word != std::string_view::npos && line.substr(word).starts_with("include")) return true;
  }
  return false;
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return h;
}

fs::path entryOf(const std::string& root, const std::string& key) {
  return fs::path(root) / "cl" / fmt::format("{:016x}", fnv1a(key));
}

// Removes the entries of the cache folder `dir` beyond maxEntries(), by their key files'
// modification times (their last use), oldest first; never `kept` (just stored) nor an entry
// used in the last minute (another run may be reading it). Also removes what killed runs left:
// entries being removed (`.tmp-gone-`) and compile folders (`.tmp-visakit-cl-`) unchanged for
// a day (no compile takes that long).
void trim(const fs::path& dir, const std::string& kept) {
  struct Entry {
    int64_t used;
    std::string name;
  };
  std::vector<Entry> all;
  std::vector<std::string> stale;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  const int64_t now = static_cast<int64_t>(::time(nullptr));
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name.starts_with(".tmp-gone-")) stale.emplace_back(name);
    if (struct stat st {}; name.starts_with(".tmp-visakit-cl-") && ::lstat((dir / e->d_name).c_str(), &st) == 0 &&
                           static_cast<int64_t>(st.st_mtim.tv_sec) < now - 24 * 3600)
      stale.emplace_back(name);
    if (name.size() != 16 || name.find_first_not_of("0123456789abcdef") != std::string_view::npos) continue;
    struct stat st {};
    if (::stat((dir / e->d_name / "key").c_str(), &st) != 0) continue;
    all.push_back({static_cast<int64_t>(st.st_mtim.tv_sec), std::string(name)});
  }
  ::closedir(d);
  std::error_code ec;
  for (const std::string& name : stale) fs::remove_all(dir / name, ec);
  const size_t max = maxEntries();
  if (all.size() <= max) return;
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  const int64_t recent = now - 60;
  size_t left = all.size();
  for (const Entry& e : all) {
    if (left <= max || e.used > recent) break;
    if (e.name == kept) continue;
    // (renamed away first, so that no run finds a half-removed entry)
    const fs::path gone = dir / (".tmp-gone-" + e.name);
    if (std::rename((dir / e.name).c_str(), gone.c_str()) != 0) continue;
    fs::remove_all(gone, ec);
    --left;
  }
}

}  // namespace

std::string cacheRoot() {
  fs::path root;
  if (const char* d = std::getenv("VISAKIT_CACHE_DIR"); d && *d) root = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) root = fs::path(x) / "visakit";
  else if (const char* h = std::getenv("HOME"); h && *h) root = fs::path(h) / ".cache" / "visakit";
  else return {};
  // (absolute: ocloc runs in another folder, and the dump's path is kept)
  std::error_code ec;
  fs::path abs = fs::absolute(root, ec);
  return ec ? std::string() : abs.string();
}

std::optional<std::string> compileKey(const OclocRequest& req, const std::string& exe, const std::string& source) {
  if (includes(source)) return std::nullopt;
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view v(*e);
    if (v.starts_with("NEOReadDebugKeys=")) return std::nullopt;  // ocloc then reads debug keys of any name
    if (v.starts_with("IGC_") && !v.starts_with("IGC_ShaderDumpEnable=") && !v.starts_with("IGC_DumpToCustomDir="))
      env.emplace_back(v);
  }
  std::sort(env.begin(), env.end());
  std::error_code ec;
  const fs::path real = fs::canonical(exe, ec);
  if (ec) return std::nullopt;
  std::vector<std::string> libs;
  for (const std::string& dir : libraryFolders(real)) {
    // (readdir: a system library folder has a thousand entries or more, on every run)
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name = e->d_name;
      if (std::any_of(std::begin(kCompilerLibs), std::end(kCompilerLibs), [&](std::string_view p) { return name.starts_with(p); }))
        if (std::string id = identity(dir + "/" + e->d_name); !id.empty()) libs.push_back(std::move(id));
    }
    ::closedir(d);
  }
  std::sort(libs.begin(), libs.end());
  std::string key = "visakit cl compile cache 1\n";
  key += fmt::format("device {}\noptions {}:{}\nocloc {}\n", req.device, req.options.size(), req.options, identity(real.string()));
  for (const std::string& l : libs) key += "lib " + l + "\n";
  for (const std::string& e : env) key += fmt::format("env {}:{}\n", e.size(), e);
  key += fmt::format("source {}\n", source.size());
  key += source;
  return key;
}

std::string findCached(const std::string& root, const std::string& key) {
  const fs::path entry = entryOf(root, key);
  std::ifstream in(entry / "key", std::ios::binary);
  if (!in) return {};
  std::ostringstream kept;
  kept << in.rdbuf();
  std::error_code ec;
  if (kept.str() != key || !fs::is_directory(entry / "dump", ec)) return {};
  ::utimensat(AT_FDCWD, (entry / "key").c_str(), nullptr, 0);  // (its last use; a read-only cache keeps the old time)
  return (entry / "dump").string();
}

size_t maxEntries() {
  if (const char* v = std::getenv("VISAKIT_CACHE_ENTRIES"); v && *v) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (errno == 0 && *end == '\0' && n >= 1 && v[0] != '-') return static_cast<size_t>(n);
  }
  return 256;
}

std::string cacheWorkFolder(const std::string& root) {
  std::error_code ec;
  const fs::path dir = fs::path(root) / "cl";
  fs::create_directories(dir, ec);
  return !ec && fs::is_directory(dir, ec) && ::access(dir.c_str(), W_OK | X_OK) == 0 ? dir.string() : std::string();
}

bool storeCompile(const std::string& root, const std::string& key, OclocRun& run) {
  if (!run.dir) return false;
  const fs::path tmp = run.dir->path(), entry = entryOf(root, key);
  {
    std::ofstream out(tmp / "key", std::ios::binary);
    out << key;
    out.close();
    if (!out) return false;
  }
  // (a rename onto an entry another run stored first fails: this compile stays temporary)
  if (std::rename(tmp.c_str(), entry.c_str()) != 0) return false;
  run.dir->release();
  run.dir.reset();
  run.dumpDir = (entry / "dump").string();
  trim(entry.parent_path(), entry.filename().string());
  return true;
}

}  // namespace visakit::cl
