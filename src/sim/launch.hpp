// A launch, prepared the same way for both tiers: the launch checked against
// its limits, the surfaces bound by name, the kernel inputs and the register
// image every thread starts from, the memory spaces and their statistics and
// race shadows, the checkers; and, after the run, the workers' statistics and
// findings merged into the result.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/check.hpp"
#include "sim/layout.hpp"
#include "sim/observe.hpp"
#include "visakit/sim.hpp"

namespace visakit::sim {

struct RefThread;  // sem/sem.hpp

struct Launch;

struct Dims {
  uint32_t tx = 1, ty = 1;  // threads per group (walker)
  uint64_t perGroup = 1;
  uint64_t groups = 1, total = 1;  // total saturates at 2^64 - 1
};
Dims dimsOf(const LaunchConfig& cfg);
// The coordinates of linear thread t (ids of an explicit launch: x = the
// thread's index in its group, y = 0).
ThreadCoord coordOf(const Launch& l, uint64_t t);
std::string surfaceDisplayName(const Kernel& k, uint32_t id);

// What a kernel touches, from its rows' effects: the surfaces it names, those
// it stores to, the SLM, the URB.
struct KernelUse {
  std::vector<uint8_t> usesSurface;    // by surface id
  std::vector<uint8_t> writesSurface;  // by surface id: a row that may store names it
  std::vector<uint8_t> stateSet;       // by surface id: a MOVS gives it a binding-table index
  bool usesSlm = false, usesUrb = false;
  bool usesBarrier = false;  // a row with kBarrier: the group's threads run together (BARRIER page)
  // LSC messages (isa/lsc.hpp lsc::reach): the binding-table indices they
  // name (bti(N)), and whether one may store through the binding table or the
  // stateless address space (what --bti and --address name is then written).
  std::vector<uint32_t> btis;
  bool storesViaTable = false, storesFlat = false;
};
KernelUse kernelUse(const Kernel& k);
// The functions `k` may call: the ones its FCALL and FADDR instructions name, and theirs (ref/functions.cpp).
std::vector<const Kernel*> reachableFunctions(const Kernel& k, const std::vector<const Kernel*>& functions);

// An explicit launch's thread start (LaunchConfig::payload; chapter 3 "Thread
// Payload"): %r0 holds payload bytes [0, GRF), each general input its bytes
// [offset, offset + size), %sr0 the concurrency slot's state; the same for
// both tiers.
struct PayloadCopy {
  uint32_t from = 0, to = 0, bytes = 0;  // payload offset, register offset, bytes
};
struct PayloadLayout {
  size_t grfBytes = 0;              // the payload buffer the source fills (its highest input's end)
  std::vector<PayloadCopy> copies;  // %r0, then each general input the layout has
  PayloadCopy sr0;                  // bytes 0: the kernel names no %sr0
  PayloadCopy hwId;                 // bytes 0: the kernel names no %hw_id
  // The register bytes a thread's payload writes (copies and %sr0).
  std::vector<ByteRange> written() const;
};
PayloadLayout payloadLayout(const Kernel& k, const Layout& p, unsigned grfSize);
// Writes the payload of the thread at `tc` running in concurrency slot `slot`
// into `regs` (laid out per `pl`); `grf` is scratch. Returns its dispatch mask.
uint32_t loadPayload(const PayloadSource& ps, const PayloadLayout& pl, const ThreadCoord& tc, uint32_t slot,
                     std::vector<uint8_t>& grf, uint8_t* regs);

// A general-variable input's value (--arg) at its register offset.
struct InputImage {
  uint32_t offset;
  std::vector<uint8_t> bytes;
};

struct Launch {
  const Kernel* k = nullptr;
  const LaunchConfig* cfg = nullptr;
  Dims dims;
  unsigned simd = 32;
  uint32_t dispatchMask = 0;  // E8: the first `simd` lanes
  unsigned jobs = 1;          // host threads
  uint64_t units = 0;         // scheduling units: groups when the kernel uses SLM, else threads
  bool unitIsGroup = false;
  Layout layout;
  KernelUse use;
  std::vector<InputImage> inputs;
  PayloadLayout payload;  // an explicit launch's (cfg->payload)
  // The register bytes every thread starts with: zero (E29) but for the inputs; whole 16-byte blocks.
  std::vector<uint8_t> regImage;
  uint32_t numSurf = 0;        // surface ids 0 .. numSurf-1; allocations (SurfaceBinding::allocation) follow
  std::vector<int> bindingOf;  // space id -> index in the bindings, or -1
  std::vector<std::string> spaceNames;  // by space id: what findings call it
  std::array<uint32_t, 3> groupGrid{1, 1, 1};  // thread groups in x, y, z
  uint64_t slmBytes = 0;
  std::vector<std::vector<uint8_t>> copies;  // transactional: the written surfaces' copies
  std::vector<RaceShadow> shadows;           // by surface id; the last one is the URB's
  std::vector<Space> spaces;                 // by surface id; %slm is set per worker
  std::vector<std::string> statNames;        // by Space::statIndex
  std::vector<uint8_t> urb;
  Space urbSpace;
  // The binding table (BTI -> surface id) a MOVS makes a surface operand use,
  // and the stateless address space; empty unless the launch gives them.
  std::vector<uint32_t> bindingTable;
  std::vector<FlatRange> flat;
  // An explicit launch's memory each concurrency slot owns (PayloadSource::slotMemory),
  // by slot (0 .. jobs x the threads a host thread runs at once - 1).
  struct SlotRange {
    uint32_t spaceId = 0;
    uint64_t offset = 0, size = 0;
  };
  std::vector<std::vector<SlotRange>> slotMemory;
  // Whether the kernel may write space `id` (a race shadow, atomics).
  bool writes(uint32_t id) const;
  // A bound space by its name (an allocation's, or a surface's binding name).
  std::optional<uint32_t> spaceByName(std::string_view name) const;
  // The checkers (--check).
  OobChecker oob;
  SameAddressChecker same;
  RaceChecker race;
  ObserverList observers;
};

// What a launch takes from its kernel alone: the register layout and what the
// kernel touches. A launch with a PreparedKernels (LaunchConfig::prepared)
// takes the ones it keeps for the kernel object and GRF size (plan/prepared.cpp).
struct KernelFacts {
  Layout layout;
  KernelUse use;
};
std::shared_ptr<const KernelFacts> kernelFacts(const Kernel& k, unsigned grfSize, PreparedKernels* cache);

// What one host thread counted.
struct WorkerTotals {
  uint64_t instructions = 0, lanes = 0;
  std::vector<std::array<uint64_t, 2>> spaceBytes;  // by Space::statIndex: read, written
  FindingSink* findings = nullptr;
};

// Checks the launch and binds its memory; nullopt if it can run, else the
// launch error. `regBytes`: the first bytes of the register image that must
// exist (the layout's used bytes).
std::optional<RunResult> prepareLaunch(Launch& l, const Kernel& k, std::vector<SurfaceBinding>& surfaces,
                                       const LaunchConfig& cfg);
// The statistics and findings of the workers into `res`; the written surfaces'
// final bytes into the bindings (transactional).
void finishLaunch(Launch& l, std::vector<SurfaceBinding>& surfaces, const std::vector<WorkerTotals>& workers,
                  RunResult& res);

// Thread t takes concurrency slot `slot` of an explicit launch: the %scratch
// bytes the slot owns (PayloadSource::slotMemory; LSC `ss` addresses are relative
// to them, spec-decisions L9) and, under --check, the slot's memory with no
// thread's accesses on it, its previous thread having ended (E23). Both tiers.
void takeSlot(const Launch& l, std::vector<Space>& spaces, RefThread& t, uint32_t slot);

}  // namespace visakit::sim
