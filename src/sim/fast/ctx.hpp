// Per-host-thread execution context: the simulated thread's state (flat
// register file, predicate bits, execution mask), memory spaces, scratch lane
// arrays, statistics and the observer hook. Reused for every simulated thread
// a host thread runs, so memory does not grow with the launch.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/fast/copy.hpp"
#include "sim/lanes.hpp"
#include "sim/memory.hpp"
#include "sim/observe.hpp"
#include "sim/fast/program.hpp"
#include "sim/sem/sem.hpp"
#include "visakit/sim.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace visakit::sim {

// Chapter 3 "Branch Instructions" modelled with one program counter per lane:
// the lanes at the smallest PC run (EM = those lanes); the others wait.
// It is the reference tier's thread state (sem/sem.hpp RefThread: registers,
// predicates, pc, em, waiting lanes, done, tid, steps, and what only the
// semantics of an instruction without a fast form use: address registers,
// subroutine frames, surface state, barrier, error), so that such an
// instruction runs here through its semantics (execRef, program.cpp).
struct ThreadState : RefThread {
  // Interleaving (dispatch.cpp): whether the instruction at pc was deferred once already.
  bool resumed = false;
  const DInst* deferredBy = nullptr;  // the last instruction that yielded (its ahead list is prefetched)

  // A thread switch (interleaving): every member, one by one, without
  // the temporary and the moved-from vectors of std::swap.
  void swap(ThreadState& o) noexcept {
    regs.swap(o.regs);
    preds.swap(o.preds);
    std::swap(pc, o.pc);
    std::swap(em, o.em);
    std::swap(waiting, o.waiting);
    std::swap(waitMin, o.waitMin);
    if (waiting | o.waiting) parked.swap(o.parked);  // (no lane waiting: both have no group)
    std::swap(done, o.done);
    std::swap(atBarrier, o.atBarrier);
    std::swap(tid, o.tid);
    std::swap(steps, o.steps);
    std::swap(resumed, o.resumed);
    std::swap(deferredBy, o.deferredBy);
    addrs.swap(o.addrs);
    calls.swap(o.calls);
    error.swap(o.error);
    surfState.swap(o.surfState);
    std::swap(prog, o.prog);
    std::swap(programs, o.programs);
    std::swap(ids, o.ids);
    fcalls.swap(o.fcalls);
    std::swap(ownScratch, o.ownScratch);
    std::swap(scratchBase, o.scratchBase);
    std::swap(scratchSize, o.scratchSize);
  }
};

struct Ctx : Observed {
  const Program* prog = nullptr;
  ThreadState t;
  std::vector<Space> spaces;  // by surface id; id 0 (SLM) is this host thread's
  Space urb;
  uint64_t steps = 0;
  // The semantics' view of this host thread's memory (execRef): spaces, URB,
  // statistics, the launch's binding table and stateless address space.
  RefMemory mem;
  Space noSpace;  // unbound: what an address in no allocation reaches
  // The first error of an instruction run through its semantics (execRef):
  // the run fails with it once the thread stops (dispatch.cpp).
  std::string failure;
  uint32_t failedTid = 0;

  // scratch lane arrays of the ALU pipeline
  std::array<i128, 32> ia{}, ib{}, ir{};
  std::array<double, 32> fa{}, fb{}, fr{};

  // statistics
  uint64_t instructions = 0, lanes = 0;
  uint64_t viaRef = 0;  // instructions run through their semantics (insn_ref.cpp)
  LineVector<std::array<uint64_t, 2>> spaceBytes;  // by Space::statIndex: read, written

  // Latency hiding: when canDefer, a memory instruction with scattered
  // addresses in a large surface may prefetch them and set `yield` instead of
  // running; the dispatcher then runs another simulated thread and comes back
  // to the same instruction (ThreadState::resumed), whose lines are then cached.
  bool canDefer = false;
  bool yield = false;

  // checks
  Observer* observer = nullptr;
  AccessBatch batch;

  // ---- register file ----
  template <class T>
  T reg(uint32_t off) const {
    T v;
    std::memcpy(&v, t.regs.data() + off, sizeof(T));
    return v;
  }
  template <class T>
  void setReg(uint32_t off, T v) {
    std::memcpy(t.regs.data() + off, &v, sizeof(T));
  }
  uint64_t regBits(uint32_t off, unsigned bytes) const {
    uint64_t v = 0;
    std::memcpy(&v, t.regs.data() + off, bytes);
    return v;
  }
  void setRegBits(uint32_t off, unsigned bytes, uint64_t v) { std::memcpy(t.regs.data() + off, &v, bytes); }

  // ---- memory, with statistics and observation ----
  void beginAccesses(const DInst& d, uint32_t spaceId, Space* s) {
    if (observer) {
      // (in a called function: reported at the kernel's FCALL / IFCALL that led there, C2)
      batch.instIndex = t.fcalls.empty() ? d.index : t.fcalls.front().ret - 1;
      batch.spaceId = spaceId;
      batch.space = s;
      batch.n = 0;
      batch.anyOutOfBounds = false;
      batch.writesApart = true;
      batch.writes = 0;
      batch.writeEnd = 0;
      batch.runLanes = 0;
      batch.writeData = nullptr;
      batch.hasDests = false;
    }
  }
  void record(uint64_t addr, unsigned size, unsigned lane, bool write, bool ok, uint8_t sameBytes = 0) {
    if (!observer || batch.n >= kMaxAccesses) return;
    batch.items[batch.n++] = {addr, size, static_cast<uint8_t>(lane), write, ok, false, sameBytes};
    batch.anyOutOfBounds |= !ok;
    if (write && ok) {
      if (batch.writes++ && addr < batch.writeEnd) batch.writesApart = false;
      batch.writeEnd = addr + size;
    }
  }
  void endAccesses() {
    if (observer) observer->onAccesses(*this, batch);
  }
  // E2: out-of-bounds reads give zero. Record: tell the observer (unless the
  // executor has described the instruction's accesses already).
  template <bool Record = true>
  uint64_t read(Space& s, uint64_t addr, unsigned bytes, unsigned lane) {
    addr = spaceAddress(s, addr);  // E31 (SLM)
    bool ok = inBounds(s, addr, bytes);
    uint64_t v = 0;
    if (ok) {
      v = memLoad(s, addr, bytes);
      spaceBytes[s.statIndex][0] += bytes;
    }
    if constexpr (Record) record(addr, bytes, lane, false, ok);
    return v;
  }
  // E2: out-of-bounds writes are dropped.
  template <bool Record = true>
  void write(Space& s, uint64_t addr, unsigned bytes, unsigned lane, uint64_t v) {
    addr = spaceAddress(s, addr);  // E31 (SLM)
    bool ok = inBounds(s, addr, bytes);
    uint8_t same = 0;
    if (ok) {
      if constexpr (Record) same = observer ? unchangedBytes(s, addr, bytes, v) : 0;
      memStore(s, addr, bytes, v);
      spaceBytes[s.statIndex][1] += bytes;
    }
    if constexpr (Record) record(addr, bytes, lane, true, ok, same);
  }
};

// An instruction through its semantics (insn_ref.cpp).
void execRef(Ctx& c, const DInst& d);
// The semantics' loops of SVM_GATHER / SVM_SCATTER, of SVM_ATOMIC and
// DWORD_ATOMIC (svmAtomicFormOf), and of LSC_UNTYPED LOAD / STORE / atomics
// without an Exec (insn_messages.cpp); nullptr: not such an instruction.
Handler svmFormOf(const RefInst& r, DInst& d);
Handler svmAtomicFormOf(const RefInst& r, DInst& d);
Handler lscFormOf(const Program& p, const RefInst& r, DInst& d);

template <class F>
inline void forEachLane(uint32_t en, F f) {
  while (en) {
    unsigned k = static_cast<unsigned>(std::countr_zero(en));
    en &= en - 1;
    f(k);
  }
}

// The scalar UD operand of a memory instruction ("Offset(scalar)"): element 0
// of the variable, or the immediate (chapter 5 "Scalar Operands").
inline uint32_t scalarUD(const Ctx& c, const DOperand& o) {
  if (o.kind == DOperand::Kind::Reg) return c.reg<uint32_t>(o.off[0]);
  return static_cast<uint32_t>(o.imm[0]);
}

// Enabled lanes (statistics), inline: std::popcount is a libgcc call without
// POPCNT; a byte's count is looked up.
inline constexpr auto kByteBits = [] {
  std::array<uint8_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) t[i] = static_cast<uint8_t>(std::popcount(i));
  return t;
}();
inline unsigned laneCount(uint32_t x) {
  return kByteBits[x & 255] + kByteBits[(x >> 8) & 255] + kByteBits[(x >> 16) & 255] + kByteBits[x >> 24];
}

// Chapter 5 "Predication": bit n = channel n of an instruction of `exec` channels.
constexpr uint32_t execMaskBits(unsigned exec) { return exec >= 32 ? 0xffffffffu : (1u << exec) - 1; }

// f(k, lane k's offset in off) for the enabled lanes k of en, of n lanes:
// all of them in one loop (LaneOffsets::each) when every lane is on.
template <class F>
inline void forEachLaneAt(uint32_t en, unsigned n, const LaneOffsets& off, F f) {
  if (en == execMaskBits(n)) return off.each(n, f);
  forEachLane(en, [&](unsigned k) { f(k, off[k]); });
}

// laneCount of the ChEn of an N-channel instruction: all on is the common case.
template <unsigned N>
inline unsigned laneCountOf(uint32_t en) {
  if (en == execMaskBits(N)) return N;
  if constexpr (N <= 8) return kByteBits[en & 255];
  else if constexpr (N <= 16) return kByteBits[en & 255] + kByteBits[(en >> 8) & 255];
  else return laneCount(en);
}

// Memory executors are instantiated per execution size N (exec_size), so their
// lane loops have a fixed trip count the compiler unrolls and vectorises, and
// per Obs: whether --check observers are attached. H::fn<N, Obs> is the handler.
template <class H, bool Obs>
Handler handlerForExec(unsigned exec) {
  switch (exec) {
    case 1: return &H::template fn<1, Obs>;
    case 2: return &H::template fn<2, Obs>;
    case 4: return &H::template fn<4, Obs>;
    case 8: return &H::template fn<8, Obs>;
    case 16: return &H::template fn<16, Obs>;
    default: return &H::template fn<32, Obs>;
  }
}
// DInst::fn without observers, DInst::checkedFn with them (the launch picks one).
template <class H>
void setMemoryHandlers(DInst& d) {
  d.fn = handlerForExec<H, false>(d.exec);
  d.checkedFn = handlerForExec<H, true>(d.exec);
}

// Fast path of a memory instruction, taken only when no observer is attached:
// if every enabled lane's element (addr[i], T) is aligned and in bounds (E2),
// the caller's tight loop does the accesses and the statistics are counted once.
// GATHER/SCATTER(4)_SCALED: address of each lane = global offset + element
// offset, mod 2^32 (E4); all read before any destination is written.
// GATHER4/SCATTER4_SCALED of one channel, R: the dword at address/4 (E5), the
// address with its low two bits cleared (DInst::addrMask).
template <unsigned N>
[[gnu::always_inline]] inline void maskAddresses(const DInst& d, uint32_t* addr) {
  if (d.addrMask != 0xffffffffu) [[unlikely]]
    for (unsigned i = 0; i < N; ++i) addr[i] &= d.addrMask;
}
template <unsigned N>
inline void laneAddresses(const Ctx& c, const DInst& d, uint32_t* addr) {
  const uint32_t g = scalarUD(c, d.goff);
  uint32_t off[N];
  copyFixed<sizeof off>(off, c.t.regs.data() + d.raw[0]);
  addScalar<N>(addr, off, g);
  maskAddresses<N>(d, addr);
}

// Lanes 0..N-1 address addr[0] + step * i (mod 2^32).
template <unsigned N>
inline bool contiguous(const uint32_t* addr, uint32_t step) {
  return isArithmetic<N>(addr, step);
}

// A contiguous run of `bytes` at addr in bounds (E2), below 2^32 (lane
// addresses wrap there, E4), and aligned to `align` unless the space is plain
// (then it is copied with memcpy).
inline bool runFast(const Space& s, uint64_t addr, uint64_t bytes, uint32_t align) {
  return addr + bytes <= s.size && addr + bytes <= (uint64_t{1} << 32) && (s.plain || (addr & (align - 1)) == 0);
}

// --check: lanes 0..n-1 access `bytes` each at addr + bytes * lane, all in
// bounds (after Ctx::beginAccesses).
inline void observeRun(Ctx& c, uint32_t n, uint32_t bytes, uint64_t addr, bool write) {
  AccessBatch& b = c.batch;
  b.runLanes = n;
  b.runSize = bytes;
  b.runAddr = addr;
  b.runWrite = write;
  b.writes = write ? n : 0;  // apart: no two lanes meet
  c.endAccesses();
}

// --check: tells the observer the element accesses of the enabled lanes
// (`bytes` each at addr[i]; a write's elements the low bytes of the dwords at
// `data`, AccessBatch::writeData) before the executor performs them: as a run
// when every lane is on and they are consecutive and in bounds, else one entry
// per enabled lane (at most 32).
template <unsigned N>
inline void observeLanes(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr, unsigned bytes, bool write,
                         const uint8_t* data) {
  // Reads no checker can report (every one in bounds, of a space without a race
  // shadow: one the kernel never writes) are not passed on.
  if (!write && !s.shadow && s.size >= bytes) {
    const uint32_t limit = static_cast<uint32_t>(std::min<uint64_t>(s.size - bytes, 0xffffffffu));
    bool inside = true;
    if (en == execMaskBits(N)) inside = allAtMost<N>(addr, limit, 0);
    else forEachLane(en, [&](unsigned i) { inside = inside && addr[i] <= limit; });
    if (inside) return;
  }
  c.beginAccesses(d, d.surface, &s);
  AccessBatch& b = c.batch;
  if (write) b.writeData = data;
  if (N > 1 && en == execMaskBits(N) && contiguous<N>(addr, bytes) && runFast(s, addr[0], uint64_t{bytes} * N, 1)) {
    observeRun(c, N, bytes, addr[0], write);
    return;
  }
  MemAccess* items = b.items.data();
  uint32_t n = 0, writes = 0;
  uint64_t end = 0;
  bool oob = false, apart = true;
  forEachLane(en, [&](unsigned i) {
    const uint64_t at = spaceAddress(s, addr[i]);  // E31 (SLM)
    const bool ok = inBounds(s, at, bytes);
    oob |= !ok;
    items[n++] = {at, bytes, static_cast<uint8_t>(i), write, ok};
    if (write && ok) {
      if (writes++ && at < end) apart = false;
      end = at + bytes;
    }
  });
  b.n = n;
  b.anyOutOfBounds = oob;
  b.writes = writes;
  b.writesApart = apart;
  b.writeEnd = end;
  c.endAccesses();
}

template <class T, unsigned N>
inline bool lanesFast(const Space& s, uint32_t en, const uint32_t* addr) {
  if (s.size < sizeof(T)) return false;
  // The last address an element of T fits at (every uint32_t fits when the space is larger).
  const uint32_t limit = static_cast<uint32_t>(std::min<uint64_t>(s.size - sizeof(T), 0xffffffffu));
  if (en == execMaskBits(N)) return allAtMost<N>(addr, limit, sizeof(T) - 1);
  uint32_t bad = 0;
  for (unsigned i = 0; i < N; ++i)
    if ((en >> i) & 1) bad |= (addr[i] > limit ? 1u : 0u) | (addr[i] & (sizeof(T) - 1));
  return bad == 0;
}


// Relaxed atomic copies of `bytes` between a space shared with other host
// threads and the register file, in elements of T (aligned in the space),
// two dwords at a time where they are 8-byte aligned.
template <class T>
inline void atomicCopyIn(const uint8_t* from, uint8_t* regs, uint64_t bytes) {
  uint64_t i = 0;
  if (sizeof(T) == 4 && (reinterpret_cast<uintptr_t>(from) & 7) == 0)
    for (; i + 8 <= bytes; i += 8) {
      const uint64_t v = atomicLoad<uint64_t>(from + i);
      std::memcpy(regs + i, &v, 8);
    }
  for (; i < bytes; i += sizeof(T)) {
    const T v = atomicLoad<T>(from + i);
    std::memcpy(regs + i, &v, sizeof(T));
  }
}
template <class T>
inline void atomicCopyOut(uint8_t* to, const uint8_t* regs, uint64_t bytes) {
  uint64_t i = 0;
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  // 16 bytes per store where they are 16-byte aligned: an SSE store in inline
  // asm, which the hardware performs as one access (x86-64 with AVX: aligned
  // 16-byte accesses are atomic) and C++ does not see, so a race of the
  // simulated kernel is not a C++ data race (docs/spec-decisions.md).
  if (sizeof(T) == 4 && (reinterpret_cast<uintptr_t>(to) & 15) == 0)
#pragma GCC unroll 4
    for (; i + 16 <= bytes; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(regs + i));
      asm volatile("movdqa %1, %0" : "=m"(*reinterpret_cast<__m128i*>(to + i)) : "x"(v));
    }
#endif
  if (sizeof(T) == 4 && (reinterpret_cast<uintptr_t>(to + i) & 7) == 0)
    for (; i + 8 <= bytes; i += 8) {
      uint64_t v;
      std::memcpy(&v, regs + i, 8);
      atomicStore<uint64_t>(to + i, v);
    }
  for (; i < bytes; i += sizeof(T)) {
    T v;
    std::memcpy(&v, regs + i, sizeof(T));
    atomicStore<T>(to + i, v);
  }
}

// Copies N elements of T between a space and the register file: memcpy when
// no other host thread can write the space (Space::plain), else relaxed atomics.
template <class T, unsigned N>
inline void copyIn(const Space& s, uint64_t addr, uint8_t* regs) {
  if (s.plain) copyFixed<N * sizeof(T)>(regs, s.data + addr);
  else atomicCopyIn<T>(s.data + addr, regs, N * sizeof(T));
}
template <class T, unsigned N>
inline void copyOut(Space& s, uint64_t addr, const uint8_t* regs) {
  if (s.plain) copyFixed<N * sizeof(T)>(s.data + addr, regs);
  else atomicCopyOut<T>(s.data + addr, regs, N * sizeof(T));
}

// Prefetch (a hint, no effect on results) of the cache lines of lanes
// addr[0..N) of space s, with no test per lane: an out-of-bounds lane's
// address (under 4 GiB past the space) is formed as an integer, so no
// out-of-bounds pointer exists, and a prefetch never faults (GCC manual,
// __builtin_prefetch). Reads go to L2 (prefetcht1): gather_256MiB 0.626 ->
// 0.658 against L1 (docs/performance.md). Always inlined: g++
// otherwise finds a function that only prefetches "const" and deletes its calls.
template <unsigned N>
[[gnu::always_inline]] inline void prefetchLines(const Space& s, const uint32_t* addr, bool write) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(s.data);
  auto at = [&](unsigned i) { return reinterpret_cast<const void*>(base + addr[i]); };
  if (write) {
#pragma GCC unroll 32
    for (unsigned i = 0; i < N; ++i) __builtin_prefetch(at(i), 1);
  } else {
#pragma GCC unroll 32
    for (unsigned i = 0; i < N; ++i) __builtin_prefetch(at(i), 0, 2);
  }
}

// A run of consecutive dwords read from a DRAM surface is taken for a stream:
// the lines kStreamAhead bytes past it go to L2 now, so that a later run does
// not wait for DRAM, nor the lanes whose addresses it loads (the hardware
// prefetcher alone fell behind: gather_256MiB 0.68 -> 0.95, docs/performance.md).
// The address is an integer, as in prefetchLines.
constexpr uint64_t kStreamAhead = 2048;
[[gnu::always_inline]] inline void prefetchStream(const Space& s, uint64_t at, uint64_t bytes) {
  const uintptr_t from = reinterpret_cast<uintptr_t>(s.data) + at + kStreamAhead;
  for (uint64_t o = 0; o < bytes; o += 64) __builtin_prefetch(reinterpret_cast<const void*>(from + o), 0, 2);
}

// The lines of memory instruction e, whose address operands are final already (planPrefetch).
template <unsigned N>
[[gnu::always_inline]] inline void prefetchLanes(const Ctx& c, const DInst& e) {
  uint32_t addr[N];
  if (e.addrKind == DInst::AddrKind::Qw) copyFixed<sizeof addr>(addr, c.t.regs.data() + e.raw[0]);
  else laneAddresses<N>(c, e, addr);
  // Consecutive elements (a dword, or an SCATTER4 pixel of its channels) are a
  // stream: the hardware prefetcher follows it.
  if (contiguous<N>(addr, e.chMask ? 4 * laneCount(e.chMask & 15u) : 4)) return;
  prefetchLines<N>(c.spaces[e.surface], addr, e.storeAccess);
}
// Only the instructions on DRAM surfaces (Space::dram) are in DInst::ahead
// (fitToLaunch): smaller surfaces stay in the last-level cache, where
// out-of-order execution already overlaps the misses of one instruction, so
// prefetching them costs more than it saves.
[[gnu::always_inline]] inline void prefetchAhead(const Ctx& c, const DInst& d) {
  for (unsigned k = 0; k < d.numAhead; ++k) {
    const DInst& e = c.prog->code[d.ahead[k]];
    switch (e.exec) {
      case 8: prefetchLanes<8>(c, e); break;
      case 16: prefetchLanes<16>(c, e); break;
      case 32: prefetchLanes<32>(c, e); break;
      default: break;
    }
  }
}

// prefetchAhead out of line, for the small-frame fast paths. The empty asm
// with a memory clobber keeps g++ from taking the function for pure and
// deleting its calls.
[[gnu::noinline]] inline void prefetchAheadOutOfLine(const Ctx& c, const DInst& d) {
  prefetchAhead(c, d);
  asm volatile("" ::: "memory");
}

// Latency hiding (Ctx::canDefer): true if the instruction should yield now:
// its N lanes (addr, in space s) are scattered over a large surface. Then the
// lines of its own lanes and of the instructions ahead are prefetched first.
// Surfaces at least this large are taken to live in DRAM (the size of one
// last-level cache, at least 8 MiB): only their misses are worth a thread switch.
uint64_t deferMinBytes();
uint64_t lastLevelCacheBytes();  // 0 if unknown
// A sysfs cache size ("32768K", "1M", "512"); nullopt if it is not one.
std::optional<uint64_t> parseCacheSize(std::string_view text);

inline bool coveredByDeferral(const ThreadState& t, const DInst& d) {
  return t.deferredBy && t.deferredBy->index == d.coveredBy;
}

template <unsigned N>
[[gnu::always_inline]] inline bool deferScattered(Ctx& c, const DInst& d, const Space& s, const uint32_t* addr, bool write) {
  if (!s.dram) return false;  // (only an instruction on a DRAM surface is ever resumed)
  if (c.t.resumed) {
    c.t.resumed = false;
    return false;
  }
  if (!c.canDefer) return false;
  // Its lines were prefetched with the instruction that yielded before it.
  if (coveredByDeferral(c.t, d) || contiguous<N>(addr, 4)) return false;
  prefetchLines<N>(s, addr, write);
  prefetchAhead(c, d);
  c.t.resumed = true;
  c.t.deferredBy = &d;
  c.yield = true;
  return true;
}

// The start GATHER_SCALED and SCATTER_SCALED share, after their lane
// addresses: a scattered access may yield (false: the instruction runs later)
// or prefetch the instructions ahead. Counts the enabled lanes of an
// instruction that runs.
template <unsigned N>
[[gnu::always_inline]] inline bool startScaled(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr, bool write) {
  const bool resumed = c.t.resumed;
  if (deferScattered<N>(c, d, s, addr, write)) return false;  // runs again later, its lines cached
  if (!resumed) prefetchAhead(c, d);
  c.lanes += laneCountOf<N>(en);
  return true;
}

// --check, GATHER/SCATTER_SCALED: the observers see the enabled lanes'
// accesses before the instruction runs (the same data path as without them).
template <unsigned N>
inline void observeScaled(Ctx& c, const DInst& d, uint32_t en, bool write) {
  if (d.offRun && d.numBlocks == 4 && en == execMaskBits(N)) {  // consecutive dwords known at decode
    Space& s = c.spaces[d.surface];
    const uint64_t at = static_cast<uint32_t>(scalarUD(c, d.goff) + d.offBase) & d.addrMask;
    if (runFast(s, at, 4 * N, 1)) {
      if (!write && !s.shadow) return;  // nothing to report (observeLanes)
      c.beginAccesses(d, d.surface, &s);
      if (write) c.batch.writeData = c.t.regs.data() + d.raw[1];
      observeRun(c, N, 4, at, write);
      return;
    }
  }
  uint32_t addr[N];
  laneAddresses<N>(c, d, addr);
  observeLanes<N>(c, d, c.spaces[d.surface], en, addr, d.numBlocks, write, c.t.regs.data() + d.raw[1]);
}

// Every dword lane addr[0..N) in bounds (E2) and aligned.
template <unsigned N>
[[gnu::always_inline]] inline bool dwordLanesFit(const Space& s, const uint32_t* addr) {
  return s.size >= 4 && allAtMost<N>(addr, static_cast<uint32_t>(std::min<uint64_t>(s.size - 4, 0xffffffffu)), 3);
}

// The first test of GATHER/SCATTER_SCALED without observers when every lane is
// on, taken when the elements are dwords:
// Run: the lanes are consecutive and the run is in bounds (E2), one copy at
// addr[0] (no two lanes meet; a run never yields). Lanes: on a surface whose
// accesses are not deferred (not DRAM), every lane in bounds and aligned, at addr.
// Dram: scattered lanes on a DRAM surface, addr worked out; the caller yields
// or takes them as Lanes (dramLanes).
enum class Dwords : uint8_t { No, Run, Lanes, Dram };
template <unsigned N>
[[gnu::always_inline]] inline Dwords dwordLanes(const Ctx& c, const DInst& d, const Space& s, uint32_t* addr) {
  if (d.numBlocks != 4) return Dwords::No;
  if (d.offRun) {  // consecutive offsets known at decode (planStaticOffsets)
    addr[0] = (scalarUD(c, d.goff) + d.offBase) & d.addrMask;
    return runFast(s, addr[0], 4 * N, 4) ? Dwords::Run : Dwords::No;
  }
  uint32_t off[N];
  copyFixed<sizeof off>(off, c.t.regs.data() + d.raw[0]);
  const uint32_t g = scalarUD(c, d.goff);  // address = g + offset, mod 2^32 (E4)
  if (contiguous<N>(off, 4)) {
    addr[0] = (g + off[0]) & d.addrMask;  // (consecutive dwords stay so, masked)
    return runFast(s, addr[0], 4 * N, 4) ? Dwords::Run : Dwords::No;
  }
  addScalar<N>(addr, off, g);
  maskAddresses<N>(d, addr);
  if (s.dram) return Dwords::Dram;
  return dwordLanesFit<N>(s, addr) ? Dwords::Lanes : Dwords::No;
}

// Lane i of N reads the T at base + addr[i] into dword i of dst (zero-extended).
template <class T, unsigned N>
[[gnu::always_inline]] inline void gatherLanes(const uint8_t* base, const uint32_t* addr, uint8_t* dst) {
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4)
      store4(dst + 4 * i, atomicLoad<T>(base + addr[i]), atomicLoad<T>(base + addr[i + 1]), atomicLoad<T>(base + addr[i + 2]),
             atomicLoad<T>(base + addr[i + 3]));
  } else {
    for (unsigned i = 0; i < N; ++i) {
      uint32_t v = atomicLoad<T>(base + addr[i]);
      std::memcpy(dst + 4 * i, &v, 4);
    }
  }
}

// Every lane on and dword elements at consecutive addresses, in bounds: one
// copy does the instruction (no two lanes meet).
template <unsigned N>
inline bool dwordRun(const DInst& d, const Space& s, uint32_t en, const uint32_t* addr) {
  return d.numBlocks == 4 && en == execMaskBits(N) && contiguous<N>(addr, 4) && runFast(s, addr[0], 4 * N, 4);
}

// Chapter 5 "Predication" EvaluateChEn: bit n = channel n of the instruction.
// `all`: the instruction's lanes (an instruction of exec_size N run as one of
// 2N lanes, the SIMD32 halves of formRuns: its 2N).
inline uint32_t predMask(const Ctx& c, const DInst& d, uint32_t all) {
  uint32_t p = (c.t.preds[d.predId] >> d.maskOff) & all;  // PMask[n] = Pred[n + offset]
  if (d.predCtl == 1) p = p ? all : 0;                     // .any
  else if (d.predCtl == 2) p = p == all ? all : 0;         // .all
  if (d.predInv) p = ~p & all;                             // combine first, then invert
  return p;
}
inline uint32_t predMask(const Ctx& c, const DInst& d) { return predMask(c, d, execMaskBits(d.exec)); }
// predMask out of line: most instructions have no predicate, and inlined its
// loads were hoisted above the test (about 15 host instructions each).
[[gnu::noinline]] inline uint32_t predMaskOutOfLine(const Ctx& c, const DInst& d, uint32_t all) { return predMask(c, d, all); }
inline uint32_t chEn(const Ctx& c, const DInst& d) {
  uint32_t all = execMaskBits(d.exec);
  uint32_t en = d.noMask ? all : (c.t.em >> d.maskOff) & all;  // NoMask ignores EM, not the predicate
  if (d.predId) [[unlikely]] en &= predMaskOutOfLine(c, d, all);
  return en;
}
// chEn of an instruction of exec_size N (or of two halves run as one, formRuns: N lanes).
template <unsigned N>
[[gnu::always_inline]] inline uint32_t chEnOf(const Ctx& c, const DInst& d) {
  constexpr uint32_t all = execMaskBits(N);
  uint32_t en = d.noMask ? all : (c.t.em >> d.maskOff) & all;
  if (d.predId) [[unlikely]] en &= predMaskOutOfLine(c, d, all);
  return en;
}

// A run of instructions (fitToLaunch, DInst::runLen) with the same handler
// and the same channel-enable fields: ChEn is worked out once. All on: Body
// does each instruction, in order; else each one's own handler runs. Used for
// handlers that never yield.
template <unsigned N, void (*Body)(Ctx&, const DInst&)>
void fusedRun(Ctx& c, const DInst& d) {
  const DInst* p = &d;
  if (chEnOf<N>(c, d) != execMaskBits(N)) {
    for (unsigned k = 0; k < d.runLen; ++k) p[k].fn(c, p[k]);
    return;
  }
  for (unsigned k = 0; k < d.runLen; ++k) Body(c, p[k]);
}
// A merged run (DInst::merged): GATHER/SCATTER_SCALED instructions whose
// Element_offsets, known at decode, and raw operands continue each other, so
// that with every lane on they are one run of runLen x 4N bytes at
// offset + offBase: one copy (H::copyRun) when it is in bounds, else fusedRun.
template <unsigned N, class H>
void mergedRun(Ctx& c, const DInst& d) {
  if (chEnOf<N>(c, d) == execMaskBits(N)) {
    Space& s = c.spaces[d.surface];
    const uint64_t at = static_cast<uint32_t>(scalarUD(c, d.goff) + d.offBase);  // mod 2^32 (E4)
    const uint64_t bytes = uint64_t{4} * N * d.runLen;
    if (runFast(s, at, bytes, 4)) {
      if (!H::kStatWrite && s.dram) prefetchStream(s, at, bytes);
      H::copyRun(s, at, c.t.regs.data() + d.raw[1], bytes);
      c.lanes += uint64_t{N} * d.runLen;
      c.spaceBytes[s.statIndex][H::kStatWrite] += bytes;
      return;
    }
  }
  fusedRun<N, &H::template allOnBody<N>>(c, d);
}
// A merged lanes run (formRuns, mergeableLanes): GATHER_SCALED.4 instructions
// whose Element_offset and destination operands continue each other, on one
// surface off DRAM and one scalar offset, none writing what a later one
// reads. Every lane on: all their lane addresses and one bounds test, then
// each instruction's loads in order, the same as one after another. Else (a
// lane off, out of bounds or unaligned) each instruction as fusedRun does it.
// Checked (--check, a surface the kernel never writes): in bounds, no checker
// has anything to report (as quietRead); else each instruction observed.
constexpr unsigned kMaxLanesRun = 8;  // instructions (formRuns keeps runs of lanes this short)
template <unsigned N, class H, bool Checked = false>
void mergedLanes(Ctx& c, const DInst& d) {
  Space& s = c.spaces[d.surface];
  if (N % 4 == 0 && chEnOf<N>(c, d) == execMaskBits(N) && s.size >= 4) {
    const unsigned n = d.runLen;
    uint32_t addr[N * kMaxLanesRun];
    const uint32_t g = scalarUD(c, d.goff);  // address = g + offset, mod 2^32 (E4)
    const uint8_t* regs = c.t.regs.data();
    bool fit = true;
    for (unsigned k = 0; k < n; ++k) {
      uint32_t off[N];
      copyFixed<sizeof off>(off, regs + d.raw[0] + 4 * N * k);
      addScalar<N>(addr + N * k, off, g);
      fit = fit && dwordLanesFit<N>(s, addr + N * k);
    }
    if (fit) {
      for (unsigned k = 0; k < n; ++k)
        H::template moveDwords<N>(s, Dwords::Lanes, addr + N * k, c.t.regs.data() + d.raw[1] + 4 * N * k);
      c.lanes += uint64_t{N} * n;
      c.spaceBytes[s.statIndex][H::kStatWrite] += uint64_t{4} * N * n;
      return;
    }
  }
  if constexpr (Checked) fusedRun<N, &H::template allOnChecked<N>>(c, d);
  else fusedRun<N, &H::template allOnBody<N>>(c, d);
}

// pick.template operator()<N>() for execution size N (1, 2, 4, 8, 16 or 32); nullptr for another.
template <class F>
Handler byExecSize(unsigned exec, F pick) {
  switch (exec) {
    case 1: return pick.template operator()<1>();
    case 2: return pick.template operator()<2>();
    case 4: return pick.template operator()<4>();
    case 8: return pick.template operator()<8>();
    case 16: return pick.template operator()<16>();
    case 32: return pick.template operator()<32>();
    default: return nullptr;
  }
}

// fusedRun over H::allOnBody<N>; Merged: mergedRun; Lanes: mergedLanes
// (CheckedLanes: observed); Checked: fusedRun over H::allOnChecked<N> (observed);
// AllOn: H::allOnBody<N> alone (DInst::allOnFn).
enum class Fused : uint8_t { Plain, Merged, Lanes, CheckedLanes, Checked, AllOn };
template <class H, Fused F = Fused::Plain>
Handler fusedForExec(unsigned exec) {
  auto pick = [&]<unsigned N>() -> Handler {
    if constexpr (F == Fused::Merged) return &mergedRun<N, H>;
    else if constexpr (F == Fused::Lanes) return &mergedLanes<N, H>;
    else if constexpr (F == Fused::CheckedLanes) return &mergedLanes<N, H, true>;
    else if constexpr (F == Fused::Checked) return &fusedRun<N, &H::template allOnChecked<N>>;
    else if constexpr (F == Fused::AllOn) return &H::template allOnBody<N>;
    else return &fusedRun<N, &H::template allOnBody<N>>;
  };
  return byExecSize(exec, pick);
}

}  // namespace visakit::sim
