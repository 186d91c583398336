// visakit cl --compare / --reference: runs an OpenCL C kernel on the system's
// OpenCL CPU device, pocl ("Portable Computing Language"), through the ICD
// loader. Built only when CMake finds OpenCL (VISAKIT_HAVE_OPENCL); otherwise
// cpuRunnerAvailable() is false and runOnCpu() returns an error saying so.
// This header has no OpenCL dependency.
//
//   CpuRunRequest q;
//   q.source = text; q.kernel = "saxpy"; q.launch = *shape; q.args = values;
//   CpuRunResult r = runOnCpu(q);
//   if (!r.ok) error(r.error);   // r.buffers[i]: argument i's bytes after the run
//
// By default the run happens in a child process (fork): a kernel that writes
// out of bounds or never ends cannot corrupt or stop the caller, and the
// OpenCL implementation's own allocations end with the child. Call it before
// the process starts threads of its own (a fork copies only the calling thread).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cl/launch_args.hpp"

namespace visakit::cl {

// The substring of the OpenCL platform name that selects pocl.
constexpr std::string_view kCpuPlatformName = "Portable Computing Language";

struct CpuRunRequest {
  std::string source;        // OpenCL C source text
  std::string kernel;        // the kernel's name
  std::string buildOptions;  // clBuildProgram options ("-cl-kernel-arg-info" is added)
  LaunchShape launch;
  std::span<const KernelArgValue> args;  // one per kernel parameter, in order
  bool isolate = true;        // run in a child process (see above); false: in this process
  unsigned timeoutSeconds = 0;  // isolated runs only: stop the child after this long; 0: no limit
  unsigned jobs = 0;  // isolated runs only: pocl's host threads (POCL_MAX_PTHREAD_COUNT in the child); 0: pocl's default
  // The OpenCL platform to run on: the first whose name contains this (pocl by default;
  // "Oclgrind" for the benchmarks), and its CPU device.
  std::string platform = std::string(kCpuPlatformName);
  // Isolated runs only: the ICD loader's folder of .icd files (OCL_ICD_VENDORS in the
  // child) instead of the system's; "": the system's.
  std::string icdVendors;
  // After the run, launch the kernel this many more times, each on the arguments'
  // initial bytes, for CpuRunResult::launchSeconds (the buffers are the first run's).
  unsigned timedLaunches = 0;
};

struct CpuRunResult {
  bool ok = false;
  std::string error;  // when !ok: one message; the build log for a failed build
  bool timedOut = false;  // stopped after CpuRunRequest::timeoutSeconds
  bool crashed = false;   // the run's process ended by a signal
  // Argument i's bytes after the run for a buffer argument (@FILE, zero:N); nullopt for the others.
  std::vector<std::optional<std::vector<uint8_t>>> buffers;
  // The kernel's parameters as the device reports them (empty if it cannot).
  std::vector<KernelParam> params;
  std::string platform, device;  // the names of the platform and device used
  // Wall time of each launch from clEnqueueNDRangeKernel to its completion: the
  // run's, then CpuRunRequest::timedLaunches more.
  std::vector<double> launchSeconds;
};

bool cpuRunnerAvailable();
CpuRunResult runOnCpu(const CpuRunRequest& request);

// "CL_INVALID_VALUE" for -30, ...; "OpenCL error N" for a code no header names.
std::string clErrorName(int code);

}  // namespace visakit::cl
