// Running OpenCL kernels exactly as Intel's compiler compiled them:
//
//   visakit::cl::Request r;
//   r.input = "saxpy.cl"; r.kernel = "saxpy"; r.device = "skl";
//   r.global = "1024"; r.args = {"0=f32:2.0", "1=@x.bin", "2=@y.bin"}; r.outs = {"2=y.out"};
//   visakit::cl::Result res = visakit::cl::run(r);
//   // res.exitCode, res.outputs (argument 2's bytes), res.findings, res.comparisons
//
// INPUT is an OpenCL C file (compiled with `ocloc` for `device`, IGC's vISA
// dumps into a private temporary directory) or a directory of IGC dumps from
// one `ocloc` compile. The kernel's vISA (.visaasm) and patch tokens (.progbin,
// else .cos) give its launch; it runs in visakit's simulator; optionally the
// same kernel runs under the system's OpenCL CPU device (pocl) and the outputs
// are compared. Exit codes as the CLI's: 0 ok, 1 error (nothing written), 2
// usage, 3 --check findings, 4 --compare differences.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "visakit/sim.hpp"

namespace visakit::cl {

struct Request {
  std::string input;
  std::string kernel;
  std::string device;                  // for an OpenCL C input; "" = skl
  std::string buildOptions;
  std::string global, local, offset;   // "X[,Y[,Z]]"; local and offset may be ""
  std::vector<std::string> args;       // "I=SPEC"
  std::vector<std::string> outs;       // "I=FILE": Result::outputs holds these arguments' bytes
  std::string tolerance;               // "", "ulp:N" or "rel:X"
  std::string keepDumps;               // an OpenCL C input: copy the compile's dump folder here (a new folder)
  bool noCache = false;                // an OpenCL C input: compile it even if the compile cache holds it, and store nothing
  bool check = false;
  bool reference = false;
  bool compare = false;
  unsigned jobs = 0;                   // host threads; 0: all cores
  unsigned grfSize = 0;                // 0: the dump's platform's (64 for Xe-HPC, else 32)
  uint64_t maxSteps = sim::kDefaultMaxSteps;
  unsigned maxExamples = 4;
  unsigned compareTimeoutSeconds = 300;  // --compare: the OpenCL CPU device's run is stopped after this long; 0: no limit
  // Limits a launch must stay within (an error before anything is allocated otherwise).
  uint64_t maxWorkItems = uint64_t{1} << 32;    // work-items of the NDRange
  uint64_t maxBufferBytes = uint64_t{1} << 32;  // one buffer argument
  uint64_t maxMemoryBytes = uint64_t{16} << 30; // the buffer arguments together, and the launch's memory
  uint64_t maxThreads = uint64_t{1} << 24;      // hardware threads of the launch
};

// A --check finding in OpenCL terms.
struct WorkItem {
  std::array<uint64_t, 3> global{}, local{}, group{};
};
struct ClFinding {
  sim::Finding finding;                 // as the simulator reports it
  std::string memory;                   // "argument 1 'src'", "__local memory", ...
  std::vector<WorkItem> workItems;      // one per example
  std::vector<std::string> places;      // one per example: "byte 1024 of argument 0 'in'", ...
  std::vector<std::string> others;      // races and same-address writes, one per example: "also written by work-item ..."
  std::string sourceFile;               // the OpenCL C file, when the vISA has line information (LOC, FILE)
  uint32_t sourceLine = 0;              // its line (0: none)
  std::string sourceText;               // that line's text, when the file could be read
};

struct ArgComparison {
  unsigned arg = 0;
  std::string name;
  uint64_t compared = 0, differing = 0;
  std::vector<std::string> firstDifferences;  // formatted, with the work-item where known
  bool equal() const { return differing == 0; }
};

struct Result {
  int exitCode = 0;
  std::string error;                     // exitCode 1 or 2: the message
  std::vector<std::string> warnings;     // the verifier's warnings on IGC's vISA, rendered
  uint64_t warningCount = 0;             // how many
  std::string compile;                   // an OpenCL C input: "compiled" (by ocloc now) or "cached" (the compile cache's); else ""
  std::string kernelFile;                // the .visaasm that ran
  bool kernelFileRemoved = false;        // it was in the compile's temporary folder (no --keep-dumps)
  std::string platform;                  // the dump's platform
  unsigned simd = 0, grfSize = 0;
  std::array<uint64_t, 3> local{};       // the work-group size used
  std::vector<std::pair<unsigned, std::vector<uint8_t>>> outputs;  // the --out arguments, in order
  sim::Stats stats;
  double runSeconds = 0;                 // wall time of the simulation (the launch, not the load or compile)
  std::vector<ClFinding> findings;
  bool compared = false;
  std::vector<ArgComparison> comparisons;
  // --compare with --check when the OpenCL CPU device could not run the kernel (it crashed):
  // why; the run's findings are kept (exit 3) and nothing is compared. Without findings the
  // run fails (exit 1).
  std::string compareError;
  bool compareCrashed = false;  // compareError: the device's run ended by a signal (the findings may say why)
  std::vector<std::string> notes;  // what the run does not simulate as the kernel asks (printed as notes)
  // The kernel's printf output (K12), formatted as Intel's runtime prints it after the run;
  // printfError: the buffer overflowed or holds a record the formatter cannot read.
  std::string printfText, printfError;
};

// Runs one launch and keeps nothing for later ones (a Session, below, does).
Result run(const Request& r);

// Launches that share what they load, as an OpenCL runtime keeps a built
// program: the kernel's vISA parsed and verified once per file (its path,
// content and GRF size), and the fast tier's decoded and planned form of each
// launch that repeats an earlier one (sim::PreparedKernels). Results are those
// of run(). A Session runs one launch at a time.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Result run(const Request& r);
  uint64_t preparedHits() const;  // launches that ran a kept decoded form
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace visakit::cl
