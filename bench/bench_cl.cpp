// `visakit cl` against the OpenCL implementations users run kernels on today,
// on the OpenCL C corpus (tests/cl) with each case's own launch and inputs:
//
//   BM_Cl/<case>/jobs:<n>   the case's kernel as Intel's compiler compiled it for the case's
//                           first device, run by visakit::cl::run (the fast tier) on n host
//                           threads; the same kernel run by pocl (Debian's CPU OpenCL) with n
//                           threads; with n = 1 also visakit's reference tier, and with n = the
//                           most also Oclgrind (one thread, it has no other; a kernel it cannot
//                           run is timed without it, and the label says why).
//
// Each side's figure is the median wall time of a launch over the repetitions:
// visakit's sim::run (cl::Result::runSeconds; not the load of the dump) in one
// cl::Session, after a first launch that prepares the kernel (its time is
// visakit_cold_seconds), pocl's and Oclgrind's from clEnqueueNDRangeKernel to
// completion (not the build, and after a first launch), each on the
// case's initial bytes. Counters: <side>_seconds, pocl_ratio = pocl's time /
// visakit's (visakit's throughput as a share of pocl's), oclgrind_ratio = Oclgrind's
// time / visakit's (how many times faster visakit is), reference_ratio likewise.
// Before timing, visakit's outputs are compared with pocl's byte for byte (cases
// the corpus compares with a model or within a tolerance are only timed); a
// difference or a failed run skips the case with the error.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "../tests/cl/corpus.hpp"
#include "cl/launch_args.hpp"
#include "cl/ocl/cpu_runner.hpp"
#include "visakit/cl.hpp"
#include "workloads.hpp"

namespace visakit::bench {
namespace {

namespace fs = std::filesystem;

constexpr int kRuns = 5;  // launches timed per side

const corpus::Corpus& theCorpus() {
  static const corpus::Corpus c = corpus::read(fs::path(VISAKIT_BENCH_SOURCE_DIR) / "tests/cl");
  return c;
}

// A private folder for the data files, the dumps and Oclgrind's ICD file, removed at exit.
const fs::path& scratch() {
  static const TempFolder s("visakit-bench-cl");
  return s.path();
}

// The case's inputs as visakit cl's --arg specs (@FILE) and as the runner's values.
struct Inputs {
  std::vector<std::string> specs;
  std::vector<cl::KernelArgValue> values;
  std::optional<cl::LaunchShape> shape;
  uint64_t workItems = 1;
};
std::optional<Inputs> inputsOf(const corpus::Case& c, std::string& err) {
  Inputs in;
  cl::LaunchLimits limits;
  in.shape = cl::parseLaunchShape(c.global, c.local.empty() ? std::nullopt : std::optional<std::string_view>(c.local),
                                  c.offset.empty() ? std::nullopt : std::optional<std::string_view>(c.offset), limits, err);
  if (!in.shape) return std::nullopt;
  for (unsigned d = 0; d < in.shape->dims; ++d) in.workItems *= in.shape->global[d];
  for (const auto& [i, spec] : c.args) {
    std::string s = spec;
    if (s[0] == '@') {
      const fs::path f = scratch() / (s.substr(1) + ".bin");
      if (!fs::exists(f)) {
        const auto& b = theCorpus().data.at(s.substr(1));
        std::ofstream(f, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
      }
      s = "@" + f.string();
    }
    in.specs.push_back(fmt::format("{}={}", i, s));
    auto v = cl::parseArgValue(i, s, limits, err);
    if (!v) return std::nullopt;
    if (in.values.size() <= i) in.values.resize(i + 1, cl::LocalArg{});
    in.values[i] = std::move(*v);
  }
  return in;
}

// The folder of the case's dumps for `device`, compiled on first use; "" with err on failure.
std::string dumpsOf(const corpus::Case& c, const std::string& device, const Inputs& in, std::string& err) {
  const fs::path dir = scratch() / "dumps" / (c.stem + "-" + device);
  if (fs::exists(dir)) return dir.string();
  fs::create_directories(dir.parent_path());
  cl::Request rq;
  rq.input = c.file;
  rq.kernel = c.kernel;
  rq.device = device;
  rq.buildOptions = c.buildOptions;
  rq.global = c.global;
  rq.local = c.local;
  rq.offset = c.offset;
  rq.args = in.specs;
  rq.keepDumps = dir.string();
  rq.noCache = true;  // (the dumps are kept here; the user's compile cache is left alone)
  rq.jobs = 1;
  cl::Result r = cl::run(rq);
  if (r.exitCode != 0) {
    err = "compiling with ocloc: " + r.error;
    return "";
  }
  return dir.string();
}

// Oclgrind's ICD file, in a folder of its own (the runner's icdVendors).
std::string oclgrindVendors() {
  if (std::string_view(VISAKIT_BENCH_OCLGRIND_ICD).empty()) return "";
  const fs::path dir = scratch() / "oclgrind-icd";
  if (!fs::exists(dir)) {
    fs::create_directories(dir);
    std::ofstream(dir / "oclgrind.icd") << VISAKIT_BENCH_OCLGRIND_ICD << "\n";
  }
  return dir.string();
}

void BM_Cl(benchmark::State& st, const corpus::Case& c, unsigned jobs, bool oclgrind, bool reference) {
  std::string err;
  const std::string device = c.devices.empty() ? "skl" : c.devices.front();
  auto in = inputsOf(c, err);
  if (!in) return st.SkipWithError(err.c_str());
  const std::string dumps = dumpsOf(c, device, *in, err);
  if (dumps.empty()) return st.SkipWithError(err.c_str());

  cl::Request rq;
  rq.input = dumps;
  rq.kernel = c.kernel;
  rq.global = c.global;
  rq.local = c.local;
  rq.offset = c.offset;
  rq.args = in->specs;
  for (unsigned o : c.outs) rq.outs.push_back(fmt::format("{}={}", o, (scratch() / fmt::format("out{}.bin", o)).string()));
  rq.jobs = jobs;

  cl::CpuRunRequest q;
  q.source = std::string(std::istreambuf_iterator<char>(std::ifstream(c.file, std::ios::binary).rdbuf()), {});
  q.kernel = c.kernel;
  q.buildOptions = c.buildOptions;
  q.launch = *in->shape;
  q.args = in->values;
  q.jobs = jobs;
  q.timedLaunches = kRuns;
  q.timeoutSeconds = 600;

  std::vector<double> visakit, ref;
  double poclSec = 0, oclgrindSec = 0, cold = 0;
  std::string oclgrindError;
  for (auto _ : st) {
    cl::CpuRunResult pocl = cl::runOnCpu(q);
    if (!pocl.ok) return st.SkipWithError(("pocl: " + pocl.error.substr(0, pocl.error.find('\n'))).c_str());
    poclSec = median(std::vector<double>(pocl.launchSeconds.begin() + 1, pocl.launchSeconds.end()));
    // One session, as an OpenCL runtime keeps a built program: the first
    // launch prepares the kernel (cold), the next kRuns reuse it (as pocl's
    // timed launches follow its first, which compiled the kernel).
    // (First a launch of its own, untimed: pocl's runner forked this process,
    // and the first writes to each page after a fork fault.)
    if (cl::Result r = cl::run(rq); r.exitCode != 0)
      return st.SkipWithError(("visakit cl: " + r.error.substr(0, r.error.find('\n'))).c_str());
    cl::Session session;
    for (int k = 0; k <= kRuns; ++k) {
      cl::Result r = session.run(rq);
      if (r.exitCode != 0) return st.SkipWithError(("visakit cl: " + r.error.substr(0, r.error.find('\n'))).c_str());
      if (r.stats.tier != "fast") return st.SkipWithError(("visakit cl ran in the " + r.stats.tier + " tier").c_str());
      if (!c.model && !c.ulps)
        for (size_t o = 0; o < c.outs.size(); ++o) {
          const auto& want = pocl.buffers.at(c.outs[o]);
          if (!want || r.outputs.at(o).second != *want)
            return st.SkipWithError(
                fmt::format("argument {}: visakit's bytes differ from pocl's (launch {})", c.outs[o], k + 1).c_str());
        }
      if (k == 0) cold = r.runSeconds;
      else visakit.push_back(r.runSeconds);
    }
    if (session.preparedHits() != kRuns) return st.SkipWithError("visakit cl: a launch did not reuse the prepared kernel");
    if (reference) {
      cl::Request rr = rq;
      rr.reference = true;
      cl::Result r = session.run(rr);
      if (r.exitCode != 0) return st.SkipWithError(("visakit cl --reference: " + r.error.substr(0, r.error.find('\n'))).c_str());
      ref.push_back(r.runSeconds);
    }
    if (oclgrind) {  // (a kernel Oclgrind cannot run is timed without it; the label says why)
      cl::CpuRunRequest g = q;
      g.platform = "Oclgrind";
      g.icdVendors = oclgrindVendors();
      g.timedLaunches = 1;
      g.jobs = 0;
      cl::CpuRunResult o;
      if (g.icdVendors.empty()) o.error = "CMake found no liboclgrind-rt-icd.so (package oclgrind)";
      else o = cl::runOnCpu(g);
      if (o.ok) oclgrindSec = o.launchSeconds.back();
      else oclgrindError = o.error.substr(0, o.error.find('\n'));
    }
  }
  const double v = median(visakit);
  st.counters["work_items"] = static_cast<double>(in->workItems);
  st.counters["visakit_seconds"] = v;
  st.counters["visakit_cold_seconds"] = cold;
  st.counters["pocl_seconds"] = poclSec;
  st.counters["pocl_ratio"] = poclSec / v;
  if (oclgrind && oclgrindError.empty()) {
    st.counters["oclgrind_seconds"] = oclgrindSec;
    st.counters["oclgrind_ratio"] = oclgrindSec / v;
  }
  if (reference) {
    st.counters["reference_seconds"] = median(ref);
    st.counters["reference_ratio"] = median(ref) / v;
  }
  st.SetLabel(oclgrindError.empty() ? device : device + "; Oclgrind: " + oclgrindError);
}

int registerAll() {
  const unsigned most = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> jobs = {1};
  if (most > 1) jobs.push_back(most);
  for (const corpus::Case& c : theCorpus().cases)
    for (unsigned j : jobs)
      benchmark::RegisterBenchmark(fmt::format("BM_Cl/{}/jobs:{}", c.name, j).c_str(),
                                   [&c, j, most](benchmark::State& st) { BM_Cl(st, c, j, j == most, j == 1); })
          ->Iterations(1)
          ->Repetitions(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return 0;
}

[[maybe_unused]] const int registered = registerAll();

}  // namespace
}  // namespace visakit::bench
