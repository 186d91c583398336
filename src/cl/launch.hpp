// The launch of an OpenCL kernel as IGC compiled it: its patch tokens (the
// launch ABI, docs/spec-decisions.md P1-P12, K1-) and the arguments turned
// into a simulator launch: one allocation per buffer (and program-scope
// buffer, private memory, scratch), the binding table, the stateless address
// space, the SLM, and every hardware thread's payload (r0, local ids,
// cross-thread data).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cl/launch_args.hpp"
#include "cl/patch_tokens.hpp"
#include "cl/progbin.hpp"
#include "visakit/sim.hpp"

namespace visakit::cl {

struct KernelLaunchInput {
  const Kernel* kernel = nullptr;       // the dumped vISA of the chosen SIMD variant
  unsigned grfSize = 32;
  std::string platform;                 // the dump's platform (or ocloc's device name): K7's %sr0 layout
  unsigned simd = 0;                    // the variant's SIMD width
  const KernelPatchList* patches = nullptr;
  const ProgramScope* program = nullptr;                // program-scope buffers (may be null)
  std::span<const ProgramSymbol> symbols;               // the program's symbol table (P13; may be empty)
  std::span<const uint8_t> surfaceStateHeap;            // the kernel's SSH from the .progbin (may be empty)
  LaunchShape shape;                                    // local chosen (prepareKernelLaunch fills it if absent)
  std::span<const std::optional<KernelArgValue>> args;  // by argument index
  unsigned jobs = 1;                                    // host threads (scratch and private slots)
};

// Where an argument's memory is.
struct ArgMemory {
  int binding = -1;        // index in PreparedLaunch::bindings (buffers), or -1
  uint64_t address = 0;    // its address in the stateless address space
  uint64_t slmOffset = 0;  // __local arguments: their offset in the group's SLM,
  uint64_t slmBytes = 0;   // their size (0: not a __local argument)
  std::string name;        // "argument 1 'acc'" (__local arguments: what findings call them)
};

class ThreadPayloads;

struct PreparedLaunch {
  std::vector<sim::SurfaceBinding> bindings;
  std::vector<ArgMemory> argMemory;  // by argument index
  sim::LaunchConfig cfg;             // memory, grid and payload (set cfg.check / jobs / reference as wanted)
  std::shared_ptr<ThreadPayloads> payload;
  LaunchShape shape;                 // with the local size used
  std::vector<uint8_t> crossThread;  // the cross-thread data every thread gets
  unsigned simd = 0;
  uint32_t threadsPerGroup = 1;            // hardware threads of a work-group
  std::array<uint32_t, 3> grid{1, 1, 1};   // work-groups
  // Local ids of lane `lane` of hardware thread `thread` of a work-group.
  std::array<uint64_t, 3> localId(uint32_t thread, uint32_t lane) const;
};

// Builds the launch; false with err on a launch the kernel cannot take (an
// argument that does not fit, a work-group size the kernel requires otherwise,
// too much memory).
bool prepareKernelLaunch(const KernelLaunchInput& in, PreparedLaunch& out, std::string& err);

}  // namespace visakit::cl
