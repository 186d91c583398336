// Workload data sets shared by the native and the simulated benchmark of a
// workload: identical input bytes, the native result as the expected output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "visakit/sim.hpp"

namespace visakit::bench {

struct Dataset {
  std::string name;
  std::string error;                 // set if the data set could not be built (kernel did not verify)
  const Kernel* kernel = nullptr;    // the workload's kernel in bench/kernels/
  std::vector<sim::SurfaceBinding> surfaces;  // the simulator's surfaces (the native loop reads its inputs here too)
  sim::LaunchConfig cfg;             // jobs / check are set per benchmark
  int64_t items = 0;                 // data elements per run
  std::string unit;                  // what an item is
  std::vector<std::vector<uint8_t>> native;  // buffers owned by the native loop
  std::function<void(Dataset&)> runNative;
  std::function<void(Dataset&)> resetSim;  // restores the simulator's output / in-place surfaces
  // Compares the simulator's result with the native one; "" if identical.
  std::function<std::string(Dataset&, const sim::RunResult&)> compare;
  std::set<std::pair<unsigned, bool>> verified;  // (jobs, check) runs already verified

  std::vector<uint8_t>& surface(const std::string& n);
  uint64_t surfaceBytes() const;
};

// The data set of workload `name`, built on first use. Data sets of other
// workloads are released first, so that at most one is resident.
Dataset& dataset(const std::string& name);

// bench/kernels/<file>, parsed and verified once; nullptr and `err` on failure.
const Kernel* benchKernel(const std::string& file, std::string& err);

// Names of all workloads, in the order the suite runs them.
const std::vector<std::string>& workloadNames();

// Peak-RSS bookkeeping (Linux /proc): resets the high-water mark; returns
// false if that is not possible.
bool resetPeakRss();
uint64_t currentRssBytes();
uint64_t peakRssBytes();

// The median of v (the mean of the two middle values for an even count; 0 for none).
double median(std::vector<double> v);

// A new folder of its own under the system's temporary folder (named
// PREFIX-XXXXXX), removed with its contents when this goes; path() is empty if
// it could not be made.
class TempFolder {
 public:
  explicit TempFolder(const std::string& prefix);
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace visakit::bench
