// Native vs. simulated throughput of each workload (issue 5).
//
//   BM_Native/<workload>            the straightforward C++ loop (native.cpp)
//   BM_Sim/<workload>/jobs:<n>      the kernel bench/kernels/<workload>.visaasm through sim::run,
//                                   on 1 host thread and on all cores
//   BM_SimCheck/gather_1MiB/jobs:1  the same with --check on
//   BM_SimLaunch/<w>/jobs:1         (gather_*, dispatch) an empty kernel over the same surfaces and threads: the
//                                   fixed cost of a launch, i.e. the simulator's ceiling
//   BM_Pair/<workload>/jobs:1       native and simulated runs alternating, each timed: the ratio
//                                   of each pair (median), which the load of a shared machine
//                                   moves far less than the ratio of two separate benchmarks
//   BM_Scale/<w>/jobs:<n>           (gather_*, dispatch) the same for 1 against all host threads:
//                                   the speed-up of each pair (median)
//   BM_CheckCost/gather_1MiB/jobs:1 the same for --check on against off: the slow-down of each pair
//
// All report items_per_second (data elements per second) on identical data.
// Before timing, every simulated configuration is run once and its output
// compared byte for byte with the native output; a difference skips the
// benchmark with an error. bench/run.sh turns the JSON output into the table
// of docs/performance.md.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "workloads.hpp"

namespace visakit::bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Process CPU time (all threads), seconds.
double processCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// The workload's data set, or nullptr with the benchmark skipped if it could not be built.
Dataset* datasetOrSkip(benchmark::State& st, const std::string& wl) {
  Dataset& d = dataset(wl);
  if (d.error.empty()) return &d;
  st.SkipWithError(d.error.c_str());
  return nullptr;
}

// One run of the native loop, or of the simulator with cfg; false if it failed
// (the benchmark is then skipped with the error).
using RunOnce = std::function<bool(benchmark::State&)>;
RunOnce nativeRun(Dataset& d) {
  return [&d](benchmark::State&) {
    d.runNative(d);
    benchmark::DoNotOptimize(d.native[0].data());
    benchmark::ClobberMemory();
    return true;
  };
}
RunOnce simRun(const Kernel& k, Dataset& d, const sim::LaunchConfig& cfg) {
  return [&k, &d, cfg](benchmark::State& st) {
    sim::RunResult r = sim::run(k, d.surfaces, cfg);
    if (!r.ok()) {
      st.SkipWithError(("simulation failed: " + r.error).c_str());
      return false;
    }
    benchmark::DoNotOptimize(r.stats.instructions);
    return true;
  };
}
RunOnce simRun(Dataset& d, const sim::LaunchConfig& cfg) { return simRun(*d.kernel, d, cfg); }

void BM_Native(benchmark::State& st, const std::string& wl) {
  Dataset* dp = datasetOrSkip(st, wl);
  if (!dp) return;
  Dataset& d = *dp;
  const RunOnce once = nativeRun(d);
  for (auto _ : st) once(st);
  st.SetItemsProcessed(st.iterations() * d.items);
  st.SetLabel(d.unit);
}

// Counters of the verification run of each (workload, jobs, check), reported
// by every run of that benchmark (repetitions included).
std::map<std::string, benchmark::UserCounters>& verifiedCounters() {
  static std::map<std::string, benchmark::UserCounters> m;
  return m;
}

// One verified run of the configuration: output equal to the native result,
// no findings. Also measures the run's peak memory beyond what was resident.
bool verifyOnce(benchmark::State& st, Dataset& d, const sim::LaunchConfig& cfg) {
  auto key = std::make_pair(cfg.jobs, cfg.check);
  std::string ckey = d.name + "/" + std::to_string(cfg.jobs) + (cfg.check ? "/check" : "");
  if (d.verified.count(key)) {
    for (const auto& [n, c] : verifiedCounters()[ckey]) st.counters[n] = c;
    return true;
  }
  d.resetSim(d);
#if defined(__GLIBC__)
  malloc_trim(0);  // freed heap pages are returned, so that the peak shows what the run itself touches
#endif
  bool peakOk = resetPeakRss();
  uint64_t before = currentRssBytes();
  sim::RunResult r = sim::run(*d.kernel, d.surfaces, cfg);
  uint64_t peak = peakRssBytes();
  if (!r.ok()) {
    st.SkipWithError(("simulation failed: " + r.error).c_str());
    return false;
  }
  if (!r.findings.empty()) {
    std::string msg = std::string("unexpected --check finding: ") + sim::findingKindText(r.findings[0].kind);
    st.SkipWithError(msg.c_str());
    return false;
  }
  if (std::string e = d.compare(d, r); !e.empty()) {
    st.SkipWithError(e.c_str());
    return false;
  }
  d.verified.insert(key);
  st.counters.clear();
  st.counters["sim_threads"] = static_cast<double>(r.stats.threads);
  st.counters["insts_per_item"] = static_cast<double>(r.stats.instructions) / static_cast<double>(d.items);
  st.counters["surfaces_MiB"] = static_cast<double>(d.surfaceBytes()) / kMiB;
  if (peakOk && peak >= before) st.counters["peak_extra_MiB"] = static_cast<double>(peak - before) / kMiB;
  verifiedCounters()[ckey] = st.counters;
  return true;
}

void BM_Sim(benchmark::State& st, const std::string& wl, unsigned jobs, bool check) {
  Dataset* dp = datasetOrSkip(st, wl);
  if (!dp) return;
  Dataset& d = *dp;
  sim::LaunchConfig cfg = d.cfg;
  cfg.jobs = jobs;
  cfg.check = check;
  if (!verifyOnce(st, d, cfg)) return;
  // Host CPUs the process kept busy while timing: with jobs > 1 and another
  // process on the machine, this shows that the cores were not all ours.
  const double cpu0 = processCpuSeconds();
  const auto wall0 = std::chrono::steady_clock::now();
  const RunOnce once = simRun(d, cfg);
  for (auto _ : st)
    if (!once(st)) break;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (wall > 0) st.counters["cpus_used"] = (processCpuSeconds() - cpu0) / wall;
  st.SetItemsProcessed(st.iterations() * d.items);
  st.counters["jobs"] = jobs;
  st.SetLabel(d.unit);
}

// Two ways of doing one workload run in alternation, the order swapped every
// pair, each run timed. Each pair gives time of `a` / time of `b`, taken within
// a few milliseconds of each other, so that the load of a shared machine moves
// both alike; `ratio` is the median over the pairs. Also reports each side's
// own rate over the same pairs (<aName>_items_per_second, <bName>_...).
// A run that fails (returns false) has skipped the benchmark; it stops there.
void alternate(benchmark::State& st, Dataset& d, const RunOnce& a, const RunOnce& b, const char* aName, const char* bName) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> ratios;
  double sec[2] = {0, 0};
  size_t pair = 0;
  for (auto _ : st) {
    double t[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const int which = (k == 0) == (pair % 2 == 1) ? 1 : 0;  // a first, then b first, ...
      const auto t0 = Clock::now();
      if (!(which ? b : a)(st)) return;
      t[which] = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    sec[0] += t[0];
    sec[1] += t[1];
    if (t[1] > 0) ratios.push_back(t[0] / t[1]);
    ++pair;
  }
  if (ratios.empty()) return;
  st.counters["ratio"] = median(ratios);
  st.counters["pairs"] = static_cast<double>(ratios.size());
  const double items = static_cast<double>(st.iterations()) * static_cast<double>(d.items);
  for (int k = 0; k < 2; ++k)
    if (sec[k] > 0) st.counters[std::string(k ? bName : aName) + "_items_per_second"] = items / sec[k];
  st.SetItemsProcessed(st.iterations() * d.items);  // (per pair)
  st.SetLabel(d.unit);
}

// BM_Pair: native vs. simulated on 1 host thread; ratio = simulated / native throughput.
void BM_Pair(benchmark::State& st, const std::string& wl) {
  Dataset* dp = datasetOrSkip(st, wl);
  if (!dp) return;
  Dataset& d = *dp;
  sim::LaunchConfig cfg = d.cfg;
  cfg.jobs = 1;
  cfg.check = false;
  if (!verifyOnce(st, d, cfg)) return;
  alternate(st, d, nativeRun(d), simRun(d, cfg), "native", "sim");
}

// BM_Scale: simulated on 1 host thread vs. on `jobs`; ratio = the speed-up.
void BM_Scale(benchmark::State& st, const std::string& wl, unsigned jobs) {
  Dataset* dp = datasetOrSkip(st, wl);
  if (!dp) return;
  Dataset& d = *dp;
  sim::LaunchConfig one = d.cfg, all = d.cfg;
  one.jobs = 1;
  all.jobs = jobs;
  one.check = all.check = false;
  if (!verifyOnce(st, d, one) || !verifyOnce(st, d, all)) return;
  alternate(st, d, simRun(d, one), simRun(d, all), "one_thread", "all_threads");
}

// BM_CheckCost: simulated with --check on vs. off (1 host thread); ratio = the slow-down.
void BM_CheckCost(benchmark::State& st, const std::string& wl) {
  Dataset* dp = datasetOrSkip(st, wl);
  if (!dp) return;
  Dataset& d = *dp;
  sim::LaunchConfig on = d.cfg, off = d.cfg;
  on.jobs = off.jobs = 1;
  on.check = true;
  off.check = false;
  if (!verifyOnce(st, d, on) || !verifyOnce(st, d, off)) return;
  alternate(st, d, simRun(d, on), simRun(d, off), "check_on", "check_off");
}

// The empty kernel (launch_only.visaasm) with the workload's surfaces and thread space.
void BM_SimLaunch(benchmark::State& st, const std::string& wl) {
  Dataset& d = dataset(wl);
  std::string err;
  const Kernel* k = benchKernel("launch_only.visaasm", err);
  if (!d.error.empty() || !k) {
    st.SkipWithError(d.error.empty() ? err.c_str() : d.error.c_str());
    return;
  }
  sim::LaunchConfig cfg = d.cfg;
  cfg.jobs = 1;
  cfg.args.clear();
  const RunOnce once = simRun(*k, d, cfg);
  for (auto _ : st)
    if (!once(st)) break;
  st.SetItemsProcessed(st.iterations() * d.items);
  st.SetLabel(d.unit);
}

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

// The 256 MiB workload takes seconds per run: one iteration, one repetition.
bool isLarge(const std::string& wl) { return wl == "gather_256MiB"; }
double minTimeOf(const std::string& wl) { return isLarge(wl) ? 0.05 : 0.3; }

void configure(benchmark::internal::Benchmark* b, const std::string& wl) {
  b->UseRealTime()->MinTime(minTimeOf(wl))->Unit(benchmark::kMillisecond);
  if (isLarge(wl)) b->Repetitions(1);
}

// A paired benchmark: as configure(), but three pairs of the large workload (seconds each).
void configurePaired(benchmark::internal::Benchmark* b, const std::string& wl) {
  if (isLarge(wl)) b->UseRealTime()->Iterations(3)->Repetitions(1)->Unit(benchmark::kMillisecond);
  else configure(b, wl);
}

int registerAll() {
  std::vector<unsigned> jobs = {1};
  if (allCores() > 1) jobs.push_back(allCores());
  for (const std::string& wl : workloadNames()) {
    configure(benchmark::RegisterBenchmark(("BM_Native/" + wl).c_str(), [wl](benchmark::State& st) { BM_Native(st, wl); }),
              wl);
    for (unsigned j : jobs)
      configure(benchmark::RegisterBenchmark(("BM_Sim/" + wl + "/jobs:" + std::to_string(j)).c_str(),
                                             [wl, j](benchmark::State& st) { BM_Sim(st, wl, j, false); }),
                wl);
    configurePaired(benchmark::RegisterBenchmark(("BM_Pair/" + wl + "/jobs:1").c_str(),
                                                 [wl](benchmark::State& st) { BM_Pair(st, wl); }),
                    wl);
    if ((wl.rfind("gather_", 0) == 0 || wl == "dispatch") && allCores() > 1) {
      const unsigned n = allCores();
      configurePaired(benchmark::RegisterBenchmark(("BM_Scale/" + wl + "/jobs:" + std::to_string(n)).c_str(),
                                                   [wl, n](benchmark::State& st) { BM_Scale(st, wl, n); }),
                      wl);
    }
    if (wl.rfind("gather_", 0) == 0 || wl == "dispatch")
      configure(benchmark::RegisterBenchmark(("BM_SimLaunch/" + wl + "/jobs:1").c_str(),
                                             [wl](benchmark::State& st) { BM_SimLaunch(st, wl); }),
                wl);
    if (wl == "gather_1MiB") {
      configure(benchmark::RegisterBenchmark(("BM_SimCheck/" + wl + "/jobs:1").c_str(),
                                             [wl](benchmark::State& st) { BM_Sim(st, wl, 1, true); }),
                wl);
      configure(benchmark::RegisterBenchmark(("BM_CheckCost/" + wl + "/jobs:1").c_str(),
                                             [wl](benchmark::State& st) { BM_CheckCost(st, wl); }),
                wl);
    }
  }
  return 0;
}

[[maybe_unused]] const int registered = registerAll();

}  // namespace
}  // namespace visakit::bench
