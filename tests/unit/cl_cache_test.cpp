// visakit cl's compile cache (src/cl/cache.cpp, docs/spec-decisions.md CL31): a later run of
// the same source, device, options and compiler reads the kept compile; anything else that
// determines ocloc's output compiles again; what is not cached, and failures, store nothing.
// ocloc is the real one behind a wrapper on PATH that counts its runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>

#include "cl/ocloc.hpp"
#include "test_util.hpp"
#include "visakit/cl.hpp"

namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the lifetime of the object, then puts back what was there.
struct EnvVar {
  std::string name, old;
  bool had = false;
  EnvVar(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) had = true, old = v;
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~EnvVar() {
    if (had) ::setenv(name.c_str(), old.c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

// A private cache root and an ocloc on PATH that counts its runs before it runs the real one.
struct CacheSandbox {
  fs::path dir = fs::temp_directory_path() / ("visakit_clcache_" + std::to_string(::getpid()));
  fs::path cache = dir / "cache", bin = dir / "bin", count = dir / "count";
  std::string real = visakit::cl::findOcloc();  // (before the wrapper is on PATH)
  std::optional<EnvVar> root, path;
  CacheSandbox() {
    fs::remove_all(dir);
    fs::create_directories(bin);
    EXPECT_FALSE(real.empty()) << "ocloc not installed: run scripts/setup.sh (package intel-opencl-icd)";
    wrapper("echo run >> '" + count.string() + "'\nexec '" + real + "' \"$@\"\n");
    root.emplace("VISAKIT_CACHE_DIR", cache.string());
    path.emplace("PATH", bin.string() + ":" + (std::getenv("PATH") ? std::getenv("PATH") : ""));
  }
  ~CacheSandbox() {
    path.reset();
    root.reset();
    fs::remove_all(dir);
  }
  void wrapper(const std::string& body) const {
    const fs::path p = bin / "ocloc";
    fs::remove(p);
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
  }
  // How many times ocloc ran.
  size_t compiles() const {
    std::ifstream in(count);
    size_t n = 0;
    for (std::string l; std::getline(in, l);) ++n;
    return n;
  }
  // The folders in the cache's cl/ (entries and any temporary folder).
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(cache / "cl", ec), end; !ec && it != end; it.increment(ec))
      out.push_back(it->path().filename().string());
    return out;
  }
  std::string source(const std::string& name, const std::string& text) const {
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

// o[i] = v * i + 1 for each work-item i.
const char* kKernel = "__kernel void lin(__global int* o, int v) {\n  int i = get_global_id(0);\n  o[i] = v * i + 1;\n}\n// a\n";
constexpr int kItems = 64;

visakit::cl::Request request(const std::string& src, int v) {
  visakit::cl::Request rq;
  rq.input = src;
  rq.kernel = "lin";
  rq.global = std::to_string(kItems);
  rq.args = {"0=zero:" + std::to_string(4 * kItems), "1=i32:" + std::to_string(v)};
  rq.outs = {"0=unused"};
  rq.jobs = 1;
  return rq;
}

// The kernel's output as the model above says, against the run's bytes.
void expectLin(const visakit::cl::Result& r, int v) {
  ASSERT_EQ(r.exitCode, 0) << r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  const std::vector<uint8_t>& b = r.outputs[0].second;
  ASSERT_EQ(b.size(), 4u * kItems);
  for (int i = 0; i < kItems; ++i) {
    int32_t got;
    std::memcpy(&got, b.data() + 4 * i, 4);
    EXPECT_EQ(got, v * i + 1) << "work-item " << i;
  }
}

TEST(ClCache, ALaterRunReadsTheKeptCompile) {
  CacheSandbox sb;
  const std::string src = sb.source("lin.cl", kKernel);
  visakit::cl::Result first = visakit::cl::run(request(src, 3));
  expectLin(first, 3);
  EXPECT_EQ(first.compile, "compiled");
  EXPECT_EQ(sb.compiles(), 1u);
  ASSERT_EQ(sb.entries().size(), 1u);
  EXPECT_EQ(sb.entries()[0].size(), 16u);  // the key's hash, no temporary folder left
  // The kept dump is where the vISA is read from, and it stays (findings can name it).
  EXPECT_EQ(first.kernelFile.rfind((sb.cache / "cl").string(), 0), 0u) << first.kernelFile;
  EXPECT_FALSE(first.kernelFileRemoved);
  EXPECT_TRUE(fs::exists(first.kernelFile));

  visakit::cl::Result again = visakit::cl::run(request(src, -7));
  expectLin(again, -7);
  EXPECT_EQ(again.compile, "cached");
  EXPECT_EQ(again.kernelFile, first.kernelFile);
  EXPECT_EQ(sb.compiles(), 1u);
  EXPECT_EQ(sb.entries().size(), 1u);
}

TEST(ClCache, WhatDeterminesTheCompileCompilesAgain) {
  CacheSandbox sb;
  const std::string src = sb.source("lin.cl", kKernel);
  expectLin(visakit::cl::run(request(src, 2)), 2);
  size_t n = sb.compiles();
  ASSERT_EQ(n, 1u);
  // Each change compiles once, then the changed run is cached in its turn.
  auto once = [&](const visakit::cl::Request& rq, const char* what) {
    visakit::cl::Result r = visakit::cl::run(rq);
    expectLin(r, 2);
    EXPECT_EQ(r.compile, "compiled") << what;
    EXPECT_EQ(sb.compiles(), ++n) << what;
    r = visakit::cl::run(rq);
    expectLin(r, 2);
    EXPECT_EQ(r.compile, "cached") << what;
    EXPECT_EQ(sb.compiles(), n) << what;
  };
  std::string text = kKernel;
  text[text.size() - 2] = 'b';  // (the same length)
  sb.source("lin.cl", text);
  once(request(src, 2), "the source's text");
  visakit::cl::Request opts = request(src, 2);
  opts.buildOptions = "-DUNUSED=1";
  once(opts, "the build options");
  visakit::cl::Request dev = request(src, 2);
  dev.device = "dg2";
  once(dev, "the device");
  {
    EnvVar igc("IGC_VISAKIT_TEST_KEY", "1");
    once(request(src, 2), "an IGC_ variable");
  }
  // Another compiler: the executable's file changed.
  sb.wrapper("# another build\necho run >> '" + sb.count.string() + "'\nexec '" + sb.real + "' \"$@\"\n");
  once(request(src, 2), "the ocloc executable");
  EXPECT_EQ(sb.entries().size(), 6u);
}

TEST(ClCache, WhatIsNotCachedStoresNothing) {
  CacheSandbox sb;
  const std::string src = sb.source("lin.cl", kKernel);
  visakit::cl::Request rq = request(src, 4);
  rq.noCache = true;
  for (int i = 0; i < 2; ++i) {
    visakit::cl::Result r = visakit::cl::run(rq);
    expectLin(r, 4);
    EXPECT_EQ(r.compile, "compiled");
    EXPECT_TRUE(r.kernelFileRemoved);  // the compile's own temporary folder
  }
  EXPECT_EQ(sb.compiles(), 2u);
  EXPECT_TRUE(sb.entries().empty());
  // An #include: the included text is not in the key.
  sb.source("lin.h", "#define SCALE(v) (v)\n");
  const std::string inc = sb.source("inc.cl", "  #  include \"lin.h\"\n" + std::string(kKernel));
  visakit::cl::Request withInclude = request(inc, 4);
  withInclude.buildOptions = "-I " + sb.dir.string();
  for (int i = 0; i < 2; ++i) EXPECT_EQ(visakit::cl::run(withInclude).compile, "compiled");
  // NEOReadDebugKeys: ocloc then reads settings of any name.
  {
    EnvVar neo("NEOReadDebugKeys", "1");
    EXPECT_EQ(visakit::cl::run(request(src, 4)).compile, "compiled");
  }
  EXPECT_EQ(sb.compiles(), 5u);
  EXPECT_TRUE(sb.entries().empty());
  // A compile error: no entry, no temporary folder left.
  const std::string bad = sb.source("bad.cl", "__kernel void lin(__global int* o) { o[0] = nothing_here; }\n");
  visakit::cl::Result r = visakit::cl::run(request(bad, 1));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.error.find("nothing_here"), std::string::npos) << r.error;
  EXPECT_TRUE(sb.entries().empty());
}

TEST(ClCache, ACacheThatCannotBeWrittenOrReadStillRuns) {
  CacheSandbox sb;
  const std::string src = sb.source("lin.cl", kKernel);
  {
    // The root under a file: no folder can be made there; the compile is temporary.
    const std::string file = sb.source("afile", "x");
    EnvVar root("VISAKIT_CACHE_DIR", file + "/cache");
    for (int i = 0; i < 2; ++i) {
      visakit::cl::Result r = visakit::cl::run(request(src, 5));
      expectLin(r, 5);
      EXPECT_EQ(r.compile, "compiled");
      EXPECT_TRUE(r.kernelFileRemoved);
    }
  }
  // An entry whose key is not this compile's (altered, or another key of the same hash):
  // compiled again, and the entry is left as it is.
  expectLin(visakit::cl::run(request(src, 5)), 5);
  ASSERT_EQ(sb.entries().size(), 1u);
  const fs::path key = sb.cache / "cl" / sb.entries()[0] / "key";
  const std::string altered = vtest::readAll(key) + " ";
  std::ofstream(key, std::ios::binary) << altered;
  visakit::cl::Result r = visakit::cl::run(request(src, 5));
  expectLin(r, 5);
  EXPECT_EQ(r.compile, "compiled");
  EXPECT_EQ(vtest::readAll(key), altered);
  EXPECT_EQ(sb.entries().size(), 1u);
  EXPECT_EQ(sb.compiles(), 4u);
}

// The entry of the compile whose source ends with `tag` ("// x\n"), or "".
std::string entryWith(const CacheSandbox& sb, char tag) {
  for (const std::string& e : sb.entries()) {
    const std::string key = vtest::readAll(sb.cache / "cl" / e / "key");
    if (key.size() >= 2 && key[key.size() - 2] == tag) return e;
  }
  return "";
}

void setUsed(const CacheSandbox& sb, const std::string& entry, int secondsAgo) {
  const fs::path key = sb.cache / "cl" / entry / "key";
  fs::last_write_time(key, fs::file_time_type::clock::now() - std::chrono::seconds(secondsAgo));
}

TEST(ClCache, TheEntriesUsedLongestAgoGoBeyondTheLimit) {
  CacheSandbox sb;
  EnvVar limit("VISAKIT_CACHE_ENTRIES", "2");
  auto source = [&](char tag) {
    std::string text = kKernel;
    text[text.size() - 2] = tag;
    return sb.source(std::string(1, tag) + ".cl", text);
  };
  const std::string a = source('a'), b = source('b'), c = source('c');
  expectLin(visakit::cl::run(request(a, 1)), 1);
  expectLin(visakit::cl::run(request(b, 1)), 1);
  ASSERT_EQ(sb.entries().size(), 2u);
  const std::string ea = entryWith(sb, 'a'), eb = entryWith(sb, 'b');
  ASSERT_FALSE(ea.empty());
  ASSERT_FALSE(eb.empty());
  setUsed(sb, ea, 3600);
  setUsed(sb, eb, 1800);
  // b used now (a hit sets its time): a is the one used longest ago when c is stored.
  EXPECT_EQ(visakit::cl::run(request(b, 2)).compile, "cached");
  EXPECT_EQ(visakit::cl::run(request(c, 2)).compile, "compiled");
  EXPECT_EQ(sb.entries().size(), 2u);
  EXPECT_EQ(entryWith(sb, 'a'), "");
  EXPECT_EQ(entryWith(sb, 'b'), eb);
  EXPECT_FALSE(entryWith(sb, 'c').empty());
  EXPECT_EQ(sb.compiles(), 3u);
  // a again: compiled; nothing goes, b and c having been used within the minute.
  visakit::cl::Result again = visakit::cl::run(request(a, 3));
  expectLin(again, 3);
  EXPECT_EQ(again.compile, "compiled");
  EXPECT_EQ(sb.entries().size(), 3u);
}

// What killed runs leave: a compile folder (SIGKILL during ocloc) goes once it is unchanged for
// a day, a removed entry's folder at once; a recent compile folder (a compile under way) stays.
TEST(ClCache, AStoreRemovesWhatKilledRunsLeft) {
  CacheSandbox sb;
  const fs::path cl = sb.cache / "cl";
  const fs::path oldCompile = cl / ".tmp-visakit-cl-old", newCompile = cl / ".tmp-visakit-cl-new",
                 gone = cl / ".tmp-gone-0123456789abcdef";
  for (const fs::path& p : {oldCompile, newCompile, gone}) {
    fs::create_directories(p / "dump");
    std::ofstream(p / "dump" / "x.visaasm") << "x";
  }
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(oldCompile, now - std::chrono::hours(25));
  fs::last_write_time(newCompile, now - std::chrono::hours(23));
  fs::last_write_time(gone, now - std::chrono::hours(23));
  expectLin(visakit::cl::run(request(sb.source("k.cl", kKernel), 1)), 1);
  std::vector<std::string> names = sb.entries();
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], ".tmp-visakit-cl-new");
  EXPECT_EQ(names[1].size(), 16u);  // the stored entry
  EXPECT_EQ(names[1].find_first_not_of("0123456789abcdef"), std::string::npos) << names[1];
}

// A relative cache folder is the current folder's: ocloc, run in a folder of its own, still
// writes the dumps where the key says, and a later run reads them.
TEST(ClCache, ARelativeCacheFolderIsTheCurrentFolders) {
  CacheSandbox sb;
  const fs::path cwd = fs::current_path();
  fs::current_path(sb.dir);
  EnvVar rel("VISAKIT_CACHE_DIR", "relative-cache");
  const std::string src = sb.source("k.cl", kKernel);
  visakit::cl::Result first = visakit::cl::run(request(src, 3));
  visakit::cl::Result second = visakit::cl::run(request(src, 4));
  fs::current_path(cwd);
  expectLin(first, 3);
  EXPECT_EQ(first.compile, "compiled");
  expectLin(second, 4);
  EXPECT_EQ(second.compile, "cached");
  EXPECT_EQ(sb.compiles(), 1u);
  EXPECT_TRUE(fs::is_directory(sb.dir / "relative-cache" / "cl"));
}

TEST(ClCache, CliFlagAndJson) {
  CacheSandbox sb;
  const std::string src = sb.source("lin.cl", kKernel);
  const std::string args = " --kernel lin --global 64 --arg 0=zero:256 --arg 1=i32:1 --json";
  auto first = vtest::runCli("cl " + src + args);
  EXPECT_EQ(first.exit, 0) << first.output;
  EXPECT_NE(first.output.find("\"compile\": \"compiled\""), std::string::npos) << first.output;
  auto again = vtest::runCli("cl " + src + args);
  EXPECT_NE(again.output.find("\"compile\": \"cached\""), std::string::npos) << again.output;
  auto fresh = vtest::runCli("cl " + src + args + " --no-cache");
  EXPECT_NE(fresh.output.find("\"compile\": \"compiled\""), std::string::npos) << fresh.output;
  EXPECT_EQ(sb.compiles(), 2u);
  // A dump folder is not compiled: --no-cache there is a usage error.
  auto dumps = vtest::runCli("cl " + sb.dir.string() + args + " --no-cache");
  EXPECT_EQ(dumps.exit, 2) << dumps.output;
  EXPECT_NE(dumps.output.find("--no-cache is for an OpenCL C input"), std::string::npos) << dumps.output;
  auto help = vtest::runCli("cl --help");
  EXPECT_NE(help.output.find("--no-cache"), std::string::npos);
  EXPECT_NE(help.output.find("compile cache"), std::string::npos);
}

// SIGINT while ocloc compiles into the cache: its temporary folder there is removed, no entry is left.
TEST(ClCache, SigintDuringTheCompileLeavesNoEntry) {
  CacheSandbox sb;
  const fs::path pidFile = sb.dir / "ocloc.pid";
  sb.wrapper("echo $$ > '" + pidFile.string() + "'\nexec sleep 30\n");
  const std::string src = sb.source("lin.cl", kKernel);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    visakit::cl::run(request(src, 1));
    ::_exit(5);
  }
  bool started = false;
  for (int i = 0; i < 500 && !started; ++i) {
    ::usleep(10000);
    started = fs::exists(pidFile) && fs::file_size(pidFile) > 0;
  }
  ASSERT_TRUE(started);
  EXPECT_EQ(sb.entries().size(), 1u);  // the compile's temporary folder
  ::kill(pid, SIGINT);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) << st;
  EXPECT_TRUE(sb.entries().empty());
}

}  // namespace
