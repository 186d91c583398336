// The OpenCL CPU runner when visakit is built without OpenCL (CMake found no
// ICD loader): every call reports that, at run time.
#ifndef VISAKIT_HAVE_OPENCL

#include "cl/ocl/cpu_runner.hpp"

#include <fmt/format.h>

namespace visakit::cl {

bool cpuRunnerAvailable() { return false; }

CpuRunResult runOnCpu(const CpuRunRequest&) {
  CpuRunResult r;
  r.error =
      "this visakit was built without OpenCL, so it cannot run kernels on the OpenCL CPU device "
      "(install ocl-icd-opencl-dev, opencl-headers and pocl-opencl-icd, as scripts/setup.sh does, and build again)";
  return r;
}

std::string clErrorName(int code) { return fmt::format("OpenCL error {}", code); }

}  // namespace visakit::cl

#endif
