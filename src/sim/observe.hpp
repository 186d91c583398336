// What the checkers observe, the same for both simulator tiers: every memory
// instruction's element accesses, one batch per instruction (Oclgrind's
// memoryLoad / memoryStore callbacks, per instruction).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/memory.hpp"
#include "visakit/sim.hpp"

namespace visakit::sim {

// One element access of a memory instruction, as the observers see it.
struct MemAccess {
  uint64_t addr = 0;
  uint32_t size = 0;
  uint8_t lane = 0;
  bool write : 1 = false;
  bool inBounds : 1 = false;
  bool atomic : 1 = false;  // a read-modify-write of an atomic instruction (never a race)
  // A write's bytes that the memory holds already (bit k: byte k of the element; no
  // write/write race there, E23), where the access path stores before it tells.
  uint8_t sameBytes = 0;
};
static_assert(sizeof(MemAccess) == 16, "a batch's accesses stay 16 bytes each");

// Register bytes [off, off + bytes) of the thread, where a load puts its element
// (bytes 0: not told).
struct RegDest {
  uint32_t off = 0, bytes = 0;
};

constexpr uint32_t kUrbSpace = 0xffffffffu;
// Accesses of the stateless address space that fall in no allocation.
constexpr uint32_t kFlatSpace = 0xfffffffdu;
// Accesses the fast tier's executors put in a batch at most (SCATTER4 4 x 32,
// QW 8 x 16, URB 8 x 8); the reference tier grows the batch as it needs.
constexpr size_t kMaxAccesses = 256;

struct AccessBatch {
  uint32_t instIndex = 0;  // in Kernel::code
  uint32_t spaceId = 0;    // surface id, or kUrbSpace
  Space* space = nullptr;
  uint32_t n = 0;
  // Summary, so a checker can skip a batch it has nothing to say about.
  bool anyOutOfBounds = false;
  bool writesApart = true;  // each in-bounds write starts at or after the end of the one before
  uint32_t writes = 0;      // in-bounds writes
  uint64_t writeEnd = 0;
  // A run: lanes 0 .. runLanes-1 access runSize bytes each at runAddr + runSize * lane,
  // all in bounds, and `items` is not filled (n == 0). Else runLanes is 0.
  uint32_t runLanes = 0;
  uint32_t runSize = 0;
  uint64_t runAddr = 0;
  bool runWrite = false;
  // Writes told before they happen (the fast tier's GATHER/SCATTER_SCALED): lane i writes the
  // low `size` bytes of the dword at writeData + 4 i, and which of them the memory holds
  // (MemAccess::sameBytes) is worked out where a checker needs it. Else nullptr.
  const uint8_t* writeData = nullptr;
  std::vector<MemAccess> items = std::vector<MemAccess>(kMaxAccesses);
  // Loads of the semantics (sem/): where item i's element goes, dests[i], when
  // hasDests (the fast tier's own executors do not tell it).
  bool hasDests = false;
  std::vector<RegDest> dests = std::vector<RegDest>(kMaxAccesses);
};

// Findings of one host thread, merged at the end (one per instruction and kind).
struct FindingSink {
  struct Agg {
    uint64_t count = 0;
    uint32_t spaceId = 0;
    std::vector<FindingExample> examples;
  };
  std::map<std::pair<uint32_t, uint8_t>, Agg> items;
  unsigned maxExamples = 4;
  void add(uint32_t inst, Finding::Kind k, uint32_t spaceId, const FindingExample& e);
};

struct RaceShadow;
// Shadow bytes [from, to) of a race shadow.
struct ShadowRange {
  RaceShadow* shadow;
  uint64_t from, to;
};

// What a checker knows of the access's thread, and where it puts findings.
struct Observed {
  uint32_t threadId = 0;  // linear thread index in the launch
  FindingSink findings;
  // Barrier epochs (RaceChecker::useBarriers): the shadow bytes the current
  // thread group touched since its last barrier.
  std::vector<ShadowRange> sinceBarrier;
};

// Executors notify observers of every memory instruction's element accesses
// (one call per instruction), but for in-bounds reads of a space without a race
// shadow, which no checker can report; the checkers are observers.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void onAccesses(Observed& c, const AccessBatch& b) = 0;
};

}  // namespace visakit::sim
