// The functional simulator: runs a verified kernel over a thread space against
// real surface data (chapter 3 "Execution Model"; igc-dialect.md §4).
//
//   LaunchConfig cfg; cfg.threads = {4, 1};
//   std::vector<SurfaceBinding> s = {{"buf", bytes}};
//   RunResult r = sim::run(kernel, s, cfg);   // s[i].bytes now hold the results
//
// The kernel must have passed verify() with the same GRF size.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "visakit/kernel.hpp"

namespace visakit::sim {

// A byte buffer bound to a surface of the kernel by its declared name, its
// v_name, or T<id> (the predefined %scratch / T5 and T1, T2, TSS, %bss too).
struct SurfaceBinding {
  std::string name;
  std::vector<uint8_t> bytes;  // input contents; replaced by the final contents
  // Not a surface the kernel declares: memory the kernel reaches only through
  // the binding table (LaunchConfig::bindingTable) or the stateless address
  // space (LaunchConfig::addresses), named `name` in findings (an OpenCL buffer).
  bool allocation = false;
  // Memory the caller owns (a mapped file, say), used when memory.data() is not
  // null: the launch runs on it in place, `bytes` is not used. It must outlive
  // the run. Transactional runs work on a copy and copy the final contents
  // back into it only if the run succeeds.
  std::span<uint8_t> memory = {};

  // The bytes the launch runs on: `memory` when set, else `bytes`.
  std::span<uint8_t> contents() { return memory.data() ? memory : std::span<uint8_t>(bytes); }
  std::span<const uint8_t> contents() const {
    return memory.data() ? std::span<const uint8_t>(memory) : std::span<const uint8_t>(bytes);
  }
};

// An explicit launch (visakit cl): the thread groups and each hardware
// thread's start, the bytes of its GRF payload from r0 (chapter 3 "Thread
// Payload": %r0 holds bytes [0, GRF); a general variable declared `.input V
// offset=O size=S` holds bytes [O, O+S)) and its dispatch mask.
class PayloadSource {
 public:
  virtual ~PayloadSource() = default;
  virtual std::array<uint32_t, 3> groups() const = 0;
  virtual uint32_t threadsPerGroup() const = 0;
  // `grf` is sized by the caller (at least the highest input's end, zero-filled).
  // `slot`: the thread's concurrency slot (0 .. host threads x threads per group - 1),
  // for memory a thread owns while it runs (scratch).
  virtual void threadStart(const std::array<uint32_t, 3>& group, uint32_t thread, uint32_t slot,
                           std::vector<uint8_t>& grf, uint32_t& dispatchMask) const = 0;
  // The %sr0 value of the thread running in concurrency slot `slot` (0 .. the
  // launch's threads in flight - 1); nullopt: zero.
  virtual std::optional<std::array<uint32_t, 4>> stateRegister(uint32_t slot) const = 0;
  // The %hw_id of the thread running in concurrency slot `slot` (4_visa_header.md:
  // "a unique identifier for all concurrent threads"); nullopt: zero.
  virtual std::optional<uint32_t> hardwareThreadId(uint32_t slot) const {
    (void)slot;
    return std::nullopt;
  }
  // Memory the thread of concurrency slot `slot` owns while it runs (scratch,
  // private memory): bytes [offset, offset + size) of the bound surface or
  // allocation `name`. It passes to the slot's next thread when the thread
  // ends, so --check does not count two threads of one slot as a race; an
  // LSC `ss` access to %scratch is relative to the slot's %scratch bytes
  // (spec-decisions L9, E23).
  struct SlotMemory {
    std::string name;
    uint64_t offset = 0, size = 0;
  };
  virtual std::vector<SlotMemory> slotMemory(uint32_t slot) const {
    (void)slot;
    return {};
  }
};

constexpr uint64_t kDefaultMaxSteps = 10'000'000;

// Kernels decoded and planned by the fast tier, kept between launches, as a
// runtime keeps a compiled kernel: a launch given a cache
// (LaunchConfig::prepared) that repeats an earlier launch of the same Kernel
// object in everything its decoding and plans read (the GRF size, the register
// image, the dispatch mask, the binding table, which spaces are bound,
// DRAM-sized or observed, --check, --max-steps, folding) runs the kept form;
// any other launch prepares its own and keeps it too. Both tiers also take
// the kernel's register layout from it. Results never depend on it. A kernel must outlive the cache and not change while the cache holds
// it. Launches may share one cache from several threads.
class PreparedKernels {
 public:
  PreparedKernels();
  ~PreparedKernels();
  PreparedKernels(const PreparedKernels&) = delete;
  PreparedKernels& operator=(const PreparedKernels&) = delete;
  size_t size() const;  // prepared forms kept
  uint64_t hits() const;  // launches that ran a kept form
  void clear();
  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct LaunchConfig {
  // Media-walker thread space of each thread group (%thread_x, %thread_y).
  std::array<uint32_t, 2> threads{1, 1};
  // Thread groups (%group_id_x/y/z).
  std::array<uint32_t, 3> groups{1, 1, 1};
  // Threads per group; 0: threads[0] * threads[1]. When set and --threads is
  // not, thread i of a group sees %thread_x = i, %thread_y = 0.
  uint32_t groupThreads = 0;
  unsigned grfSize = 32;
  unsigned simd = 0;   // dispatch SIMD width 1..32; 0: SimdSize attribute, else 32
  // Host threads; 0: all cores. The calling thread is one of them; the others
  // come from a process-wide pool kept between launches, whose idle threads
  // spin for 2 ms before they sleep (a wake-up costs tens of microseconds).
  unsigned jobs = 0;
  std::optional<uint64_t> slmBytes;  // nullopt: the SLMSize attribute, else none
  std::optional<uint64_t> urbBytes;  // nullopt: no URB
  uint64_t maxSteps = kDefaultMaxSteps;  // instructions per simulated thread
  // Launch limits (issue 6): defaults no real launch meets; exceeding one is a launch error.
  uint64_t maxThreads = uint64_t{1} << 24;         // simulated threads in the launch
  uint64_t maxSurfaceBytes = uint64_t{1} << 32;    // one bound surface, the SLM of a group, the URB
  uint64_t maxMemoryBytes = uint64_t{16} << 30;    // everything the launch allocates
  bool check = false;                    // run the checkers (OOB, same address, races)
  // The reference tier: a plain interpreter, one instruction and one lane at a
  // time, the oracle the fast tier must agree with byte for byte. The fast
  // tier also hands a kernel to it when it uses an instruction without a fast form.
  bool reference = false;
  // Surfaces the kernel writes are updated only if the run succeeds (it costs a
  // copy of each). Off: the kernel runs on the bindings' bytes in place, and after
  // a failed run (max steps, interrupted) they hold whatever was written so far.
  bool transactional = false;
  // Latency hiding: a host thread interleaves simulated threads, switching on
  // scattered accesses to surfaces at least this large, and prefetches the
  // accesses of later instructions to them (no SLM, no --check).
  // nullopt: the last-level cache's size, at least 8 MiB. Results do not depend on it.
  std::optional<uint64_t> hideLatencyFromBytes;
  // The kernel's start that is the same in every thread (NoMask, unpredicated
  // ALU instructions on immediates and inputs) is done once per launch instead
  // of in every thread, and one-lane values affine in the thread's ids are
  // written at its start. Results do not depend on it (off: for comparison).
  bool foldConstantStart = true;
  unsigned maxExamples = 4;              // addresses kept per finding
  // The binding table a MOVS sets a surface's state to (MOVS page): BTI and
  // the name of the bound surface that index selects.
  std::vector<std::pair<uint32_t, std::string>> bindingTable;
  // The stateless address space (SVM, LSC flat, %scratch without a binding):
  // a bound surface's name and the address of its first byte.
  std::vector<std::pair<std::string, uint64_t>> addresses;
  // An explicit launch: groups, threads per group and each thread's payload
  // come from it (threads, groups, groupThreads, simd and args are not used).
  const PayloadSource* payload = nullptr;
  // The functions (.global_function) of the kernel's module, which its FCALL and IFCALL instructions
  // may call (by name; spec-decisions C2).
  std::vector<const Kernel*> functions;
  // Names a FADDR may take that are not functions of the module, with the address it stores: what
  // a program's linker resolves (an OpenCL program's program-scope variables; spec-decisions C21).
  std::vector<std::pair<std::string, uint64_t>> symbols;
  // General-variable kernel inputs (.input): name and value text
  // ("5", "-1", "0x10", "1.5", or a comma-separated list, one per element).
  std::vector<std::pair<std::string, std::string>> args;
  // Where the fast tier keeps the kernel's decoded and planned form for later
  // launches (nullptr: prepared for this launch alone).
  PreparedKernels* prepared = nullptr;
};

struct FindingExample {
  uint32_t thread = 0;       // linear thread index in the launch
  uint32_t lane = 0;         // channel of the instruction (0 .. exec_size-1)
  uint64_t address = 0;      // byte address in the surface / SLM / URB
  uint32_t size = 0;         // bytes of the element
  uint32_t otherThread = 0;  // races: the other thread
  uint32_t otherLane = 0;    // same address: the other lane
  bool operator<(const FindingExample& o) const {
    return std::tie(thread, lane, address) < std::tie(o.thread, o.lane, o.address);
  }
};

// Finding::space of an access to an address in no allocation of the stateless address space.
constexpr const char* kStatelessName = "stateless";

struct Finding {
  enum class Kind : uint8_t { OutOfBoundsRead, OutOfBoundsWrite, SameAddress, RaceWriteWrite, RaceReadWrite };
  Kind kind = Kind::OutOfBoundsRead;
  uint32_t instruction = 0;  // index in Kernel::code
  SrcLoc loc;
  std::string space;         // surface name, "%slm" or "URB"
  uint64_t spaceSize = 0;
  uint64_t count = 0;        // occurrences (elements)
  std::vector<FindingExample> examples;  // the first few, by (thread, lane, address)
};
const char* findingKindText(Finding::Kind k);

struct SpaceStats {
  std::string name;
  uint64_t bytesRead = 0, bytesWritten = 0;  // in-bounds bytes
};

struct Stats {
  uint64_t threads = 0;
  uint64_t instructions = 0;  // instructions issued, all threads
  uint64_t lanes = 0;         // enabled channels of the issued instructions
  std::vector<SpaceStats> spaces;
  // The tier that ran the launch: "fast", or "reference" (LaunchConfig::reference,
  // or a kernel the fast tier hands over: one that calls functions (FCALL / IFCALL)
  // or names one (FADDR), or has an instruction the simulator does not support).
  std::string tier;
  // Fast tier: instructions issued (of `instructions`) that had no fast form
  // and ran through their semantics (the reference tier's), one at a time.
  uint64_t viaSemantics = 0;
};

struct ThreadCoord {
  uint32_t x = 0, y = 0;         // %thread_x, %thread_y
  uint32_t gx = 0, gy = 0, gz = 0;  // %group_id_x/y/z
};

struct RunResult {
  enum class Status : uint8_t { Ok, LaunchError, Failed };
  Status status = Status::Ok;
  std::string error;            // LaunchError / Failed: the message
  Stats stats;
  std::vector<Finding> findings;  // sorted by instruction, then kind
  std::vector<uint8_t> urb;       // final URB contents
  // A run --max-steps stopped: the thread and the instruction (Kernel::code index) it was at.
  struct StepLimit {
    uint32_t thread = 0, instruction = 0;
  };
  std::optional<StepLimit> stepLimit;
  bool ok() const { return status == Status::Ok; }
};

// Coordinates of linear thread `t` of a launch (for reports).
ThreadCoord threadCoord(const LaunchConfig& cfg, uint32_t t);

// Runs `k` (verified with cfg.grfSize) on the surfaces' contents() in place (see
// LaunchConfig::transactional for all-or-nothing updates).
RunResult run(const Kernel& k, std::vector<SurfaceBinding>& surfaces, const LaunchConfig& cfg);

// Surface id a binding name refers to, or nullopt.
std::optional<uint32_t> surfaceByBindingName(const Kernel& k, std::string_view name);

}  // namespace visakit::sim
