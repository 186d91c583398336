// Whole runs as a user times them: processes from start to output written.
//
//   BM_Process/<w>/jobs:1            (gather_1MiB, gather_256MiB) `visakit run bench/kernels/gather.visaasm`
//                                    on the workload's Src and Idx files, writing Dst (--out), against
//                                    visakit-bench-native-gather (bench/process/) on the same files,
//                                    alternating; ratio = the median of native time / visakit time
//                                    per pair; mem_ratio = the median of visakit's / native's peak RSS
//   BM_Process/gather_1MiB/reference the same with `visakit run --reference`
//   BM_ClProcess/saxpy               `visakit cl tests/cl/saxpy.cl` (kernel saxpy, 1,024 work-items)
//                                    from start to y written, reading the compile a private compile
//                                    cache keeps, against the same run with --no-cache (ocloc
//                                    compiles), alternating; ratio = the median of the compiling run's
//                                    time / the cached run's per pair
//
// Both outputs are compared byte for byte with the in-process native result first;
// a difference or a failed process skips the benchmark with the error.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <fstream>
#include <string>
#include <vector>

#include "native.hpp"
#include "workloads.hpp"

extern char** environ;

namespace visakit::bench {
namespace {

namespace fs = std::filesystem;

struct ProcRun {
  bool ok = false;
  std::string error;
  double seconds = 0;
  double maxRssMiB = 0;
};

// Waits for child `pid` to end (retrying when a signal interrupts the wait).
bool waitUntilExit(pid_t pid, int& status) {
  for (;;) {
    if (waitpid(pid, &status, 0) == pid) return true;
    if (errno != EINTR) return false;
  }
}

// Runs argv to completion through visakit-bench-spawn (bench/process/spawn.cpp), stdout and
// stderr to `log`, with our environment plus `env` (NAME=VALUE): its wall time and peak RSS
// as the spawner measured them.
ProcRun runProcess(const std::vector<std::string>& argv, const fs::path& dir, const std::vector<std::string>& env = {}) {
  ProcRun r;
  const fs::path log = dir / "log.txt", result = dir / "result.txt";
  std::vector<std::string> full = {VISAKIT_BENCH_SPAWN, result.string()};
  full.insert(full.end(), argv.begin(), argv.end());
  std::vector<char*> args;
  for (const auto& a : full) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  std::vector<std::string> envs;
  for (char** e = environ; e && *e; ++e)
    if (std::none_of(env.begin(), env.end(), [&](const std::string& v) { return std::string_view(*e).starts_with(v.substr(0, v.find('=') + 1)); }))
      envs.emplace_back(*e);
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.error = "cannot start " + full[0];
    return r;
  }
  int status = 0;
  if (!waitUntilExit(pid, status)) {
    r.error = "cannot wait for " + full[0];
    return r;
  }
  long rssKiB = 0;
  std::ifstream res(result);
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && (res >> r.seconds >> rssKiB);
  r.maxRssMiB = static_cast<double>(rssKiB) / 1024.0;
  if (!r.ok) {
    std::ifstream in(log);
    std::string first;
    std::getline(in, first);
    r.error = fs::path(argv[0]).filename().string() + " failed: " + first;
  }
  return r;
}

bool writeFile(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

bool sameFile(const fs::path& p, const std::vector<uint8_t>& want) {
  std::ifstream in(p, std::ios::binary);
  std::vector<uint8_t> got(want.size() + 1);
  in.read(reinterpret_cast<char*>(got.data()), static_cast<std::streamsize>(got.size()));
  return static_cast<size_t>(in.gcount()) == want.size() && std::equal(want.begin(), want.end(), got.begin());
}

// The benchmark's iterations as pairs of whole processes a and b run alternately (a first, then
// b first, ...): counters `ratio` (the median of a's time / b's per pair), `mem_ratio` (of b's peak
// RSS / a's), `pairs`, and the medians <name>_seconds and <name>_maxrss_MiB of each. False (the
// benchmark skipped with the error) when a process fails.
bool alternate(benchmark::State& st, const std::vector<std::string>& a, const std::vector<std::string>& b,
               const fs::path& dir, const std::vector<std::string>& env, const std::string& nameA, const std::string& nameB) {
  std::vector<double> ratios, mem, t[2], rss[2];
  size_t pair = 0;
  for (auto _ : st) {
    ProcRun r[2];
    for (int k = 0; k < 2; ++k) {
      const int which = (k == 0) == (pair % 2 == 1) ? 1 : 0;
      r[which] = runProcess(which ? b : a, dir, env);
      if (!r[which].ok) {
        st.SkipWithError(r[which].error.c_str());
        return false;
      }
    }
    ratios.push_back(r[0].seconds / r[1].seconds);
    mem.push_back(r[1].maxRssMiB / r[0].maxRssMiB);
    for (int k = 0; k < 2; ++k) {
      t[k].push_back(r[k].seconds);
      rss[k].push_back(r[k].maxRssMiB);
    }
    ++pair;
  }
  st.counters["ratio"] = median(ratios);
  st.counters["mem_ratio"] = median(mem);
  st.counters["pairs"] = static_cast<double>(pair);
  const std::string* names[2] = {&nameA, &nameB};
  for (int k = 0; k < 2; ++k) {
    st.counters[*names[k] + "_seconds"] = median(t[k]);
    st.counters[*names[k] + "_maxrss_MiB"] = median(rss[k]);
  }
  return true;
}

// The workload's input files, written once per workload into a private folder
// (the previous workload's folder goes).
struct Files {
  std::string workload;
  std::unique_ptr<TempFolder> folder;
  fs::path dir;
};
Files& filesOf(Dataset& d, std::string& err) {
  static Files f;
  if (f.workload == d.name) return f;
  f.workload.clear();
  f.folder = std::make_unique<TempFolder>("visakit-bench");
  f.dir = f.folder->path();
  if (f.dir.empty()) {
    err = "cannot make a temporary folder";
    return f;
  }
  if (!writeFile(f.dir / "src.bin", d.surface("Src")) || !writeFile(f.dir / "idx.bin", d.surface("Idx"))) {
    err = "cannot write the input files";
    return f;
  }
  f.workload = d.name;
  return f;
}

void BM_Process(benchmark::State& st, const std::string& wl, bool reference) {
  Dataset& d = dataset(wl);
  std::string err = d.error;
  if (!err.empty()) return st.SkipWithError(err.c_str());
  Files& files = filesOf(d, err);
  if (!err.empty()) return st.SkipWithError(err.c_str());
  d.runNative(d);  // the expected Dst
  const uint64_t dstBytes = d.surface("Dst").size();
  std::string chunk;
  for (const auto& [n, v] : d.cfg.args)
    if (n == "Chunk") chunk = v;
  const fs::path out = files.dir / "dst.bin";
  std::vector<std::string> sim = {VISAKIT_BENCH_CLI, "run", std::string(VISAKIT_BENCH_KERNELS) + "/gather.visaasm",
                                  "--groups", std::to_string(d.cfg.groups[0]), "--group-threads",
                                  std::to_string(d.cfg.groupThreads), "--arg", "Tpg=" + std::to_string(d.cfg.groupThreads),
                                  "--arg", "Chunk=" + chunk, "--surface", "Src=" + (files.dir / "src.bin").string(),
                                  "--surface", "Idx=" + (files.dir / "idx.bin").string(), "--surface",
                                  "Dst=zero:" + std::to_string(dstBytes), "--out", "Dst=" + out.string(), "--jobs", "1"};
  if (reference) sim.push_back("--reference");
  const std::vector<std::string> native = {VISAKIT_BENCH_NATIVE_GATHER, (files.dir / "src.bin").string(),
                                           (files.dir / "idx.bin").string(), out.string()};
  for (int side = 0; side < 2; ++side) {  // each output checked once
    const std::vector<std::string>& argv = side ? sim : native;
    fs::remove(out);
    ProcRun r = runProcess(argv, files.dir);
    if (!r.ok) return st.SkipWithError(r.error.c_str());
    if (!sameFile(out, d.native[0]))
      return st.SkipWithError((fs::path(argv[0]).filename().string() + ": output differs from the native result").c_str());
  }
  if (!alternate(st, native, sim, files.dir, {}, "native", "sim")) return;
  st.SetItemsProcessed(st.iterations() * d.items);  // (per pair)
  st.SetLabel(d.unit);
}

// y = 1.5 * x + y over 1,024 floats, through `visakit cl` on the OpenCL C source: a cached
// compile against ocloc's (see the top of the file).
void BM_ClProcess(benchmark::State& st) {
  TempFolder folder("visakit-bench-cl");
  const fs::path dir = folder.path();
  if (dir.empty()) return st.SkipWithError("cannot make a temporary folder");
  constexpr size_t n = 1024;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.25f - 3.0f;
    y[i] = static_cast<float>(i % 89) * -0.5f + 7.0f;
  }
  auto bytesOf = [](const std::vector<float>& v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  if (!writeFile(dir / "x.bin", bytesOf(x)) || !writeFile(dir / "y.bin", bytesOf(y)))
    return st.SkipWithError("cannot write the input files");
  std::vector<float> want = y;
  nativeAxpyFloat(1.5f, x.data(), want.data(), n);
  const fs::path out = dir / "y_out.bin";
  const std::vector<std::string> cached = {VISAKIT_BENCH_CLI, "cl", std::string(VISAKIT_BENCH_SOURCE_DIR) + "/tests/cl/saxpy.cl",
                                           "--kernel", "saxpy", "--global", std::to_string(n), "--local", "256",
                                           "--arg", "0=f32:1.5", "--arg", "1=@" + (dir / "x.bin").string(),
                                           "--arg", "2=@" + (dir / "y.bin").string(), "--out", "2=" + out.string()};
  std::vector<std::string> compiling = cached;
  compiling.push_back("--no-cache");
  const std::vector<std::string> env = {"VISAKIT_CACHE_DIR=" + (dir / "cache").string()};
  for (int side = 0; side < 2; ++side) {  // the first run fills the cache; each output checked once
    fs::remove(out);
    ProcRun r = runProcess(side ? compiling : cached, dir, env);
    if (!r.ok) return st.SkipWithError(r.error.c_str());
    if (!sameFile(out, bytesOf(want))) return st.SkipWithError("visakit cl: output differs from the native result");
  }
  alternate(st, compiling, cached, dir, env, "compiling", "cached");
}

int registerAll() {
  for (const std::string wl : {"gather_1MiB", "gather_256MiB"}) {
    const bool large = wl == "gather_256MiB";
    for (bool ref : {false, true}) {
      if (ref && large) continue;
      auto* b = benchmark::RegisterBenchmark(("BM_Process/" + wl + "/jobs:1" + (ref ? "/reference" : "")).c_str(),
                                             [wl, ref](benchmark::State& st) { BM_Process(st, wl, ref); });
      b->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(1);
      if (large) b->Iterations(5);
      else b->MinTime(2.0);
    }
  }
  benchmark::RegisterBenchmark("BM_ClProcess/saxpy", BM_ClProcess)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(1)->Iterations(9);
  return 0;
}

[[maybe_unused]] const int registered = registerAll();

}  // namespace
}  // namespace visakit::bench
