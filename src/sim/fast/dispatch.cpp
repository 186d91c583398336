// The dispatcher: binds memory, lays out the thread space (chapter 3 "Thread
// Organization"), runs thread groups on a pool of host threads and merges
// statistics and findings.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/check.hpp"
#include "sim/fast/control.hpp"
#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"
#include "sim/launch.hpp"
#include "sim/pool.hpp"
#include "sim/ref/ref.hpp"
#include "visakit/sim.hpp"

namespace visakit::sim {

const char* findingKindText(Finding::Kind k) {
  switch (k) {
    case Finding::Kind::OutOfBoundsRead: return "out of bounds read";
    case Finding::Kind::OutOfBoundsWrite: return "out of bounds write";
    case Finding::Kind::SameAddress: return "two lanes write the same address";
    case Finding::Kind::RaceWriteWrite: return "data race (write/write)";
    case Finding::Kind::RaceReadWrite: return "data race (read/write)";
  }
  return "?";
}

namespace {

struct Shared {
  const Program* prog = nullptr;  // the kernel's
  const LaunchConfig* cfg = nullptr;
  const Launch* l = nullptr;
  Dims dims;
  uint32_t dispatchMask = 0;
  // An explicit launch (LaunchConfig::payload): each thread's start takes its
  // payload (launch.hpp loadPayload). Host thread j's threads run in
  // concurrency slots j * slotsPer .. j * slotsPer + slotsPer - 1 (the threads
  // of a group, as in the reference tier; the threads in flight otherwise).
  const PayloadSource* payload = nullptr;
  uint32_t slotsPer = 1;
  bool barriers = false;  // a group's threads run together and meet at barriers (runGroup)
  bool interleave = false;  // up to kInterleave threads in flight per host thread (no SLM, no --check, a DRAM surface)
  bool gang = false;  // kGang threads at a time per host thread (runGang): independent threads, enough of them
  bool calls = false;  // the kernel calls functions (FCALL, IFCALL): a thread may end in one
  // The decoded program's plans: the register bytes every thread starts with
  // (zero, E29, but for the inputs and the folded start; whole 16-byte
  // blocks), the thread start, the straight plan.
  const PreparedForm* form = nullptr;
  std::vector<Space> spaces;  // template; SLM filled per worker
  Space urb;
  uint64_t slmBytes = 0;
  uint32_t slmStat = 0;
  bool unitIsGroup = true;
  bool anyDram = false;  // a bound surface is Space::dram: only then can an instruction yield
  uint64_t units = 0;
  // Host thread j takes units from its own contiguous range first, `batch` at a
  // time, then from the others' (once its own is done): a launch that follows on
  // the same surfaces finds each host thread's part in that thread's caches.
  struct alignas(kLine) Range {
    std::atomic<uint64_t> next{0};
    uint64_t end = 0;
  };
  std::unique_ptr<Range[]> ranges;
  unsigned jobs = 1;
  uint64_t batch = 1;
  std::atomic<bool> stop{false};
  std::mutex errMu;
  std::string error;
  ObserverList* observers = nullptr;  // --check: the launch's (Launch::observers)
  size_t numStats = 0;

  std::optional<RunResult::StepLimit> stepLimit;
  void fail(std::string msg, std::optional<RunResult::StepLimit> at = std::nullopt) {
    std::lock_guard<std::mutex> g(errMu);
    if (error.empty()) {
      error = std::move(msg);
      stepLimit = at;
    }
    stop.store(true);
  }
};

// Simulated threads run in lock step per host thread when they are independent
// and short (runGang, runStraight). 4 measured best on dispatch (about +5 %
// over 2; 3, 6 and 8 in between; docs/performance.md).
constexpr unsigned kGang = 4;

struct alignas(kLine) Worker {  // (its counters share no line with another's)
  Ctx c;
  // The other threads of a lock-step gang (runGang): no SLM, no --check.
  struct alignas(kLine) GangCtx : Ctx {};  // (no line shared with another host thread's)
  std::array<std::unique_ptr<GangCtx>, kGang - 1> gang;
  ThreadCoord coord;          // of thread lastTid
  uint32_t lastTid = kNoPc;
  unsigned index = 0;  // host thread j of the launch
  Buffer slm;
  RaceShadow slmShadow;
  std::vector<uint8_t> grf;          // an explicit launch's payload, per thread (loadPayload)
  std::vector<ThreadState> group;    // the states of a group's threads (runGroup)
};

// A host thread's context for the launch: its thread state, the bound spaces,
// statistics by space.
void startCtx(Ctx& c, const Shared& sh) {
  const Program& prog = *sh.prog;
  c.prog = &prog;
  c.t.regs = sh.form->regFiles.take();
  startState(c.t, prog, sh.form->regImage);
  c.spaces = sh.spaces;
  c.urb = sh.urb;
  c.spaceBytes.assign(std::max<size_t>(1, sh.numStats), {0, 0});
  // (the semantics' view of it, for the instructions run through them: insn_ref.cpp)
  c.mem.spaces = &c.spaces;
  c.mem.urb = &c.urb;
  c.mem.spaceBytes = &c.spaceBytes;
  c.mem.bindingTable = &sh.l->bindingTable;
  c.mem.flat = &sh.l->flat;
  c.mem.noSpace = &c.noSpace;
}

// The first failure of ctx c's thread (an instruction run through its
// semantics, insn_ref.cpp) fails the launch.
[[gnu::noinline]] void passFailure(Shared& sh, Ctx& c) {
  sh.fail(std::move(c.failure));
  c.failure.clear();
}
[[gnu::always_inline]] inline void takeFailure(Shared& sh, Ctx& c) {
  if (!c.failure.empty()) [[unlikely]] passFailure(sh, c);
}

// The coordinates of the next linear thread (x fastest, then y, then the group
// ids x, y, z), as threadCoord() would give them.
[[gnu::always_inline]] inline void stepCoord(const Shared& sh, ThreadCoord& t) {
  const auto& g = sh.l->groupGrid;
  if (++t.x < sh.dims.tx) return;
  t.x = 0;
  if (++t.y < sh.dims.ty) return;
  t.y = 0;
  if (++t.gx < g[0]) return;
  t.gx = 0;
  if (++t.gy < g[1]) return;
  t.gy = 0;
  ++t.gz;
}

// A thread that ended in a function it called (a RET there, or a failure):
// the kernel's register file and state back, as the outermost call left them.
[[gnu::noinline]] void leaveFunctions(ThreadState& t) {
  RefThread::FuncFrame& f = t.fcalls.front();
  t.regs = std::move(f.regs);
  t.preds = std::move(f.preds);
  t.addrs = std::move(f.addrs);
  t.calls = std::move(f.calls);
  t.prog = f.prog;
  t.fcalls.clear();
}

// Starts simulated thread `tid` in the current state c.t (in concurrency slot
// `slot` of an explicit launch).
[[gnu::always_inline]] inline void initThread(Shared& sh, Worker& w, Ctx& c, uint32_t tid, uint32_t slot = 0) {
  const Program& p = *sh.prog;
  ThreadState& t = c.t;
  if (sh.calls && !t.fcalls.empty()) [[unlikely]] leaveFunctions(t);
  // Every variable starts at zero (E29; the padding past them is never written),
  // the kernel inputs at their values, with the folded start already done
  // (planThreadStart). The state holds the image since startState: only the
  // bytes an instruction may have written are copied again.
  const uint8_t* img = sh.form->regImage.data();
  uint8_t* regs = t.regs.data();
  for (const ByteRange& r : sh.form->start.rewrite)
    for (uint32_t b = r.lo; b < r.hi; b += 16) std::memcpy(regs + b, img + b, 16);
  c.lanes += sh.form->start.foldedLanes;  // (their steps are counted where they stand)
  if (t.preds.size() <= 2) {  // (predicate ids 1..numPreds; most kernels have at most one)
    t.preds.front() = 0;
    t.preds.back() = 0;
  } else {
    std::fill(t.preds.begin(), t.preds.end(), 0);
  }
  // Coordinates: one step from the previous thread's when they follow each other.
  ThreadCoord& tc = w.coord;
  if (w.lastTid != kNoPc && tid == w.lastTid + 1) stepCoord(sh, tc);
  else tc = coordOf(*sh.l, tid);
  w.lastTid = tid;
  // Chapter 3 "Thread Organization": the thread's ids in the predefined variables
  // (those an instruction reads), then the values of the start computed from them.
  const std::array<uint32_t, 5> ids = {static_cast<uint16_t>(tc.x), static_cast<uint16_t>(tc.y), tc.gx, tc.gy,
                                       tc.gz};  // (in kThreadIdVars order)
  for (const ThreadStart::Id& id : sh.form->start.ids) c.setRegBits(id.offset, id.bytes, ids[id.which]);
  // E8: the first N lanes of the execution mask are on at entry; an explicit
  // launch's thread: its payload and dispatch mask.
  t.em = sh.dispatchMask;
  if (sh.payload) {
    t.em = loadPayload(*sh.payload, sh.l->payload, tc, slot, w.grf, regs);
    if (t.em != sh.dispatchMask) [[unlikely]] {
      // A thread with fewer lanes: the start's writes the plan counted on
      // (ThreadStart::rewrite, for the dispatch mask) may not all happen: every
      // byte an instruction may write from the image (the others hold it).
      for (const ByteRange& r : sh.form->start.written) std::memcpy(regs + r.lo, img + r.lo, r.hi - r.lo);
      for (const ThreadStart::Id& id : sh.form->start.ids) c.setRegBits(id.offset, id.bytes, ids[id.which]);
      t.em = loadPayload(*sh.payload, sh.l->payload, tc, slot, w.grf, regs);
    }
    takeSlot(*sh.l, c.spaces, t, slot);
  }
  // What only the semantics of instructions without a fast form use (address
  // registers, subroutine frames, surface state, the ids a called function
  // reads), as the reference tier starts them. (A kernel that calls functions
  // has them: FCALL runs through its semantics.)
  if (p.refState) {
    std::fill(t.addrs.begin(), t.addrs.end(), 0);
    std::fill(t.surfState.begin(), t.surfState.end(), kNoSurface);
    t.calls.clear();
    t.error.clear();
    if (sh.calls) std::copy(ids.begin(), ids.end(), t.ids.begin());  // (a callee's own, FCALL page)
  }
  t.atBarrier = false;
  for (const ThreadAffine& a : sh.form->start.affine)
    c.setReg(a.offset, a.c0 + a.coef[0] * ids[0] + a.coef[1] * ids[1] + a.coef[2] * ids[2] + a.coef[3] * ids[3] +
                           a.coef[4] * ids[4]);
  t.tid = tid;
  t.steps = 0;
  t.resumed = false;
  t.deferredBy = nullptr;
  t.pc = 0;
  clearParked(t);
  t.done = p.code.empty();
}

// Runs the current thread c.t until it finishes (true), or yields to another
// simulated thread (false: it continues later at the same instruction).
// Without CanYield the caller knows that nothing yields (Ctx::canDefer off, or
// no DRAM surface), and the straight-line loop does not look.
template <bool CanYield>
[[gnu::always_inline]] inline bool runSlice(Shared& sh, Ctx& c) {
  ThreadState& t = c.t;
  c.threadId = t.tid;
  const Program* p = &programOf(*sh.prog, t);  // the kernel's, or a function's it called
  c.prog = p;
  uint32_t end = p->codeEnd;
  const uint64_t maxSteps = sh.cfg->maxSteps;
  uint64_t steps = t.steps;
  const DInst* code = p->code.data();
  // A call or its return (FCALL, IFCALL, FRET: their semantics) changes the program.
  auto follow = [&] {
    if (t.prog == &p->ref) [[likely]] return;
    p = &programOf(*sh.prog, t);
    c.prog = p;
    end = p->codeEnd;
    code = p->code.data();
  };
  while (!t.done) {
    if (t.atBarrier) {  // waits for its group (runGroup): it goes on from here later
      t.steps = steps;
      return true;
    }
    // No rejoin point ahead (no lane parked at or before the next control
    // instruction, lanes.hpp): the straight-line instructions up to it run
    // back to back, then that control instruction (which never yields).
    if (const uint32_t n = code[t.pc].straight; (!t.waiting || t.waitMin > t.pc + n) && steps + n + 1 < maxSteps) {
      const DInst* first = code + t.pc;
      // (stepFn: a run never yields; folded instructions after it are skipped, nextStep)
      const DInst* last = first + n;
      for (const DInst* d = first; d < last; d = nextStep(d)) {
        d->stepFn(c, *d);
        if (CanYield && c.yield) {  // deferred: not executed, so not counted
          c.yield = false;
          t.pc = static_cast<uint32_t>(d - code);
          t.steps = steps + static_cast<uint64_t>(d - first);
          return false;
        }
      }
      steps += n;
      if (sh.stop.load(std::memory_order_relaxed)) return true;
      const uint32_t pc = t.pc + n;
      if (pc == end || !t.em) {
        advance(t, pc, end);
        continue;
      }
      t.pc = pc;
      steps += code[pc].tailSteps;  // (at most 2: room was left above)
      code[pc].tailFn(c, code[pc]);
      follow();
      continue;
    }
    if (++steps > maxSteps) {
      // (in a called function: at the kernel's FCALL / IFCALL that led there, C2)
      sh.fail(fmt::format("thread {} did not finish within {} instructions (--max-steps); stopped at line {}", t.tid,
                          maxSteps, p->kernel->code[t.pc].loc.line),
              RunResult::StepLimit{t.tid, t.fcalls.empty() ? t.pc : t.fcalls.front().ret - 1});
      return true;
    }
    if ((steps & 0xffff) == 0 && sh.stop.load(std::memory_order_relaxed)) return true;
    const DInst& d = code[t.pc];
    // A run (DInst::runLen; never yields) as the straight-line loop does it,
    // then the rejoin at its end (advance). (Lanes park at labels and after
    // control instructions, which no run holds; the test keeps it so.)
    if (const unsigned r = d.runLen; r > 1 && (!t.waiting || t.waitMin >= t.pc + r) && steps + r <= maxSteps) {
      d.fusedFn(c, d);
      if (((steps + r - 1) ^ steps) > 0xffff && sh.stop.load(std::memory_order_relaxed)) return true;
      steps += r - 1;
      advance(t, t.pc + r, end);
      continue;
    }
    d.fn(c, d);
    if (c.yield) {  // deferred: not executed, so not counted
      c.yield = false;
      t.steps = steps - 1;
      return false;
    }
    if (!d.control) advance(t, t.pc + 1, end);
    else follow();
  }
  c.instructions += steps;
  return true;
}

// K threads of a straight kernel (PreparedForm::straightSteps) in lock step, as
// runGang, with nothing to check on the way: every instruction but the RET
// is straight-line, so the execution mask stays the dispatch mask, and the
// thread's steps (room left under --max-steps) are the code's length.
template <unsigned K>
void runStraight(Shared& sh, Ctx* const* g) {
  for (const StraightStep& s : sh.form->straightPlan)
    for (unsigned i = 0; i < K; ++i) s.fn(*g[i], *s.d);
  for (unsigned i = 0; i < K; ++i) {
    g[i]->instructions += sh.form->straightSteps;
    g[i]->lanes += sh.form->straightRetLanes;  // (RET page: the thread ends)
    g[i]->t.done = true;
  }
}

// K simulated threads in lock step, all started at the first instruction:
// each instruction of a straight-line run, and then its tail, runs for one
// thread and at once for the next. Their work is independent, so the host
// core overlaps one thread's memory and register-file latencies with the
// others' (a thread of dispatch.visaasm is longer than the core's window), and
// one pass of the dispatcher serves K threads. Where their paths part
// (control flow, lanes waiting, --max-steps near), each goes on alone
// (runSlice). Each thread runs its own instructions in its own order; only
// the order between threads of their accesses to a surface changes (E30).
// Only for threads on their own: no SLM (E10 runs a group's threads one after
// another), no --check, nothing that yields; and only for kernels without a
// loop, whose threads are short. A loop's thread is a long stream of
// independent work already: there lock step gained 1-3 % on one host thread,
// and on two it was slower in most runs (docs/performance.md, "What was tried and left out").
template <unsigned K>
void runGang(Shared& sh, Ctx* const* g) {
  const Program& p = *sh.prog;
  const DInst* code = p.code.data();
  const uint32_t end = p.codeEnd;
  const uint64_t maxSteps = sh.cfg->maxSteps;
  for (unsigned i = 0; i < K; ++i) g[i]->threadId = g[i]->t.tid;
  uint64_t steps = 0;  // the same for all while together
  auto together = [&] {
    const uint32_t pc = g[0]->t.pc;
    for (unsigned i = 0; i < K; ++i)
      if (g[i]->t.done || g[i]->t.pc != pc || g[i]->t.waiting) return false;
    return true;
  };
  while (together()) {
    const uint32_t pc0 = g[0]->t.pc, n = code[pc0].straight;
    if (steps + n + 1 >= maxSteps) break;  // (room for a two-step tail, as runSlice)
    const DInst* last = code + pc0 + n;
    for (const DInst* d = code + pc0; d < last; d = nextStep(d))
      for (unsigned i = 0; i < K; ++i) d->stepFn(*g[i], *d);
    steps += n;
    if (sh.stop.load(std::memory_order_relaxed)) return;
    const uint32_t pc = pc0 + n;
    bool anyOff = false;
    for (unsigned i = 0; i < K; ++i) anyOff |= !g[i]->t.em;
    if (pc == end || anyOff) {
      for (unsigned i = 0; i < K; ++i) advance(g[i]->t, pc, end);
      continue;
    }
    steps += code[pc].tailSteps;
    for (unsigned i = 0; i < K; ++i) {
      g[i]->t.pc = pc;
      code[pc].tailFn(*g[i], code[pc]);
    }
  }
  for (unsigned i = 0; i < K; ++i) {
    g[i]->t.steps = steps;
    runSlice<false>(sh, *g[i]);
  }
}

}  // namespace

std::optional<uint64_t> parseCacheSize(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  uint64_t unit = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'M' || text.back() == 'G')) {
    unit = uint64_t{1} << (text.back() == 'K' ? 10 : text.back() == 'M' ? 20 : 30);
    text.remove_suffix(1);
  }
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size() || n > (~uint64_t{0} >> 30)) return std::nullopt;
  return n * unit;
}

uint64_t lastLevelCacheBytes() {
  // Linux's sysfs gives the size of one cache instance. glibc's sysconf can
  // give more: 384 MiB for the 32 MiB L3 of a Zen 5 VM, which took
  // 256 MiB surfaces for cache-resident and turned latency hiding off.
  uint64_t best = 0;
  unsigned bestLevel = 0;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", i);
    std::ifstream levelFile(dir + "level"), sizeFile(dir + "size"), typeFile(dir + "type");
    if (!levelFile || !sizeFile) break;
    unsigned level = 0;
    std::string size, type;
    levelFile >> level;
    std::getline(sizeFile, size);
    std::getline(typeFile, type);
    auto bytes = parseCacheSize(size);
    if (type != "Instruction" && bytes && level > bestLevel) {
      bestLevel = level;
      best = *bytes;
    }
  }
  if (best) return best;
  long l3 = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return l3 > 0 ? static_cast<uint64_t>(l3) : 0;
}

uint64_t deferMinBytes() {
  static const uint64_t bytes = std::max<uint64_t>(lastLevelCacheBytes(), uint64_t{8} << 20);
  return bytes;
}

namespace {

// Simulated threads a host thread interleaves (no SLM, no --check): while one
// waits for its scattered lines, the other runs (a GPU's latency hiding). Two
// beat 3, 4 and 6 on gather_256MiB (docs/performance.md): a thread's
// lines are then prefetched one pass of the other thread ahead.
constexpr unsigned kInterleave = 2;

// A thread group whose threads meet at barriers (BARRIER page; chapter 3
// "Thread Organization"), as the reference tier runs one: its threads take
// turns in linear order, each until it ends or waits at a barrier; when every
// thread still running waits, they go on together. With --check, what they did
// before is ordered before what they do after (RaceChecker::barrier; C3).
void runGroup(Shared& sh, Worker& w, uint64_t u) {
  const Launch& l = *sh.l;
  const uint32_t n = static_cast<uint32_t>(sh.dims.perGroup);
  const uint64_t first = u * sh.dims.perGroup;
  Ctx& c = w.c;
  if (w.group.size() != n) {
    w.group.resize(n);
    for (ThreadState& t : w.group) {
      t.regs = sh.form->regFiles.take();
      startState(t, *sh.prog, sh.form->regImage);
    }
  }
  c.sinceBarrier.clear();
  for (uint32_t i = 0; i < n; ++i) {
    c.t.swap(w.group[i]);
    initThread(sh, w, c, static_cast<uint32_t>(first + i), w.index * sh.slotsPer + i);
    c.t.swap(w.group[i]);
  }
  for (;;) {
    bool waiting = false;
    for (ThreadState& t : w.group) {
      if (sh.stop.load(std::memory_order_relaxed)) return;
      if (t.done) continue;
      c.t.swap(t);
      runSlice<false>(sh, c);
      c.t.swap(t);
      takeFailure(sh, c);
      waiting |= t.atBarrier;
    }
    if (!waiting) return;
    if (c.observer) {
      std::vector<uint8_t> arrived(n);
      bool ended = false;
      for (uint32_t i = 0; i < n; ++i) {
        arrived[i] = w.group[i].atBarrier;
        ended |= w.group[i].done;
      }
      const_cast<RaceChecker&>(l.race).barrier(c, static_cast<uint32_t>(u), static_cast<uint32_t>(first), arrived, ended);
    }
    for (ThreadState& t : w.group)
      if (t.atBarrier) {
        t.atBarrier = false;
        advance(t, t.pc + 1, programOf(*sh.prog, t).codeEnd);
      }
  }
}

// Host thread w's contexts for the launch, set up on that host thread (their
// register files zeroed and first touched there, in parallel with the others).
void startWorker(const Shared& sh, Worker& w) {
  const LaunchConfig& cfg = *sh.cfg;
  Ctx& c = w.c;
  startCtx(c, sh);
  c.findings.maxExamples = std::max(1u, cfg.maxExamples);
  if (sh.prog->usesSlm) {
    w.slm.resize(sh.slmBytes);
    Space& s = c.spaces[kSurfSlm];
    s.data = w.slm.data();
    s.size = sh.slmBytes;
    s.bound = true;
    s.plain = true;  // one group at a time on this host thread
    if (cfg.check) {
      s.shadow = &w.slmShadow;
      w.slmShadow.exclusive = true;  // this host thread's groups only
    }
  }
  if (cfg.check) c.observer = sh.observers;
  if (sh.gang)
    for (auto& b : w.gang) {
      b = std::make_unique<Worker::GangCtx>();
      startCtx(*b, sh);
    }
}

void workerMain(Shared& sh, Worker& w) {
  const Dims& dm = sh.dims;
  uint64_t u = 0, last = 0;
  unsigned k = 0;  // ranges looked at: own, then the next ones
  auto nextUnit = [&](uint64_t& unit) {
    if (sh.stop.load(std::memory_order_relaxed)) return false;
    while (u == last) {
      if (k == sh.jobs) {
        u = last = 0;
        return false;
      }
      Shared::Range& r = sh.ranges[(w.index + k) % sh.jobs];
      u = r.next.fetch_add(sh.batch, std::memory_order_relaxed);
      if (u < r.end) {
        last = std::min(u + sh.batch, r.end);
      } else {
        u = last = 0;
        ++k;
      }
    }
    unit = u++;
    return true;
  };
  uint64_t unit = 0;
  const uint32_t slot0 = w.index * sh.slotsPer;  // (an explicit launch's concurrency slots)
  if (!sh.interleave) {
    // One thread after another: the threads of a group in linear order (E10);
    // with --check, threads are not interleaved either, and without a DRAM
    // surface no instruction would yield.
    w.c.canDefer = false;
    if (w.gang[0]) {  // threads on their own (no SLM), no --check: kGang at a time
      Ctx* g[kGang] = {&w.c};
      for (unsigned i = 1; i < kGang; ++i) g[i] = w.gang[i - 1].get();
      for (;;) {
        unsigned n = 0;
        while (n < kGang && nextUnit(unit)) {
          initThread(sh, w, *g[n], static_cast<uint32_t>(unit), slot0 + n);
          ++n;
        }
        if (n == kGang) {
          // (the straight plan takes the dispatch mask: an explicit launch's thread with fewer lanes goes the general way)
          bool full = true;
          for (unsigned i = 0; i < kGang; ++i) full = full && g[i]->t.em == sh.dispatchMask;
          if (sh.form->straightSteps && full) runStraight<kGang>(sh, g);
          else runGang<kGang>(sh, g);
          for (unsigned i = 0; i < kGang; ++i) takeFailure(sh, *g[i]);  // (the lowest thread id's first)
          continue;
        }
        for (unsigned i = 0; i < n; ++i) {
          runSlice<false>(sh, *g[i]);
          takeFailure(sh, *g[i]);
        }
        return;
      }
    }
    while (nextUnit(unit)) {
      if (sh.unitIsGroup) {
        // SLM: one zero-filled block per thread group.
        if (w.slm.size()) std::fill(w.slm.data(), w.slm.data() + w.slm.size(), 0);  // (sized only when the kernel uses SLM)
        if (w.c.spaces[kSurfSlm].shadow) w.slmShadow.reset(sh.slmBytes);
        if (sh.barriers) {
          runGroup(sh, w, unit);
          continue;
        }
      }
      const uint32_t n = sh.unitIsGroup ? static_cast<uint32_t>(dm.perGroup) : 1;
      const uint64_t first = sh.unitIsGroup ? unit * dm.perGroup : unit;
      for (uint32_t i = 0; i < n && !sh.stop.load(std::memory_order_relaxed); ++i) {
        initThread(sh, w, w.c, static_cast<uint32_t>(first + i), slot0 + i);
        runSlice<false>(sh, w.c);
        takeFailure(sh, w.c);
      }
    }
    return;
  }
  // Independent threads: up to kInterleave in flight. Slot `cur` runs in c.t,
  // the others wait in `parked`. A finished thread's slot takes the next unit in
  // place; a yield moves on round robin, starting a thread in an empty slot
  // while units remain. Threads that never yield cost no switch at all.
  std::array<ThreadState, kInterleave> parked;
  std::array<bool, kInterleave> live{};
  for (ThreadState& t : parked) startState(t, *sh.prog, sh.form->regImage);
  bool exhausted = !nextUnit(unit);
  if (exhausted) return;
  unsigned cur = 0, inFlight = 1;
  w.c.t.swap(parked[cur]);
  initThread(sh, w, w.c, static_cast<uint32_t>(unit), slot0 + cur);
  live[cur] = true;
  while (!sh.stop.load(std::memory_order_relaxed)) {
    w.c.canDefer = inFlight > 1 || !exhausted;
    if (runSlice<true>(sh, w.c)) {
      takeFailure(sh, w.c);
      if (!exhausted && nextUnit(unit)) {
        initThread(sh, w, w.c, static_cast<uint32_t>(unit), slot0 + cur);
        continue;
      }
      exhausted = true;
      live[cur] = false;
      if (--inFlight == 0) break;
    }
    // Next slot round robin: a live one, or an empty one for a new thread.
    w.c.t.swap(parked[cur]);
    for (;;) {
      cur = (cur + 1) % kInterleave;
      if (live[cur]) break;
      if (!exhausted && nextUnit(unit)) {
        w.c.t.swap(parked[cur]);
        initThread(sh, w, w.c, static_cast<uint32_t>(unit), slot0 + cur);
        w.c.t.swap(parked[cur]);
        live[cur] = true;
        ++inFlight;
        break;
      }
      exhausted = true;
    }
    w.c.t.swap(parked[cur]);
  }
  w.c.t.swap(parked[cur]);  // c.t back to a state of the right sizes
}

}  // namespace

RunResult run(const Kernel& k, std::vector<SurfaceBinding>& surfaces, const LaunchConfig& cfg) {
  if (cfg.reference) return runReference(k, surfaces, cfg);
  Launch l;
  if (auto err = prepareLaunch(l, k, surfaces, cfg)) return *err;
  RunResult res;
  // ---- memory: the launch's spaces, and which are DRAM-sized (latency hiding) ----
  std::vector<Space> spaces = l.spaces;
  bool anyDram = false;
  for (Space& s : spaces)
    if (s.bound) {
      s.dram = s.size >= cfg.hideLatencyFromBytes.value_or(deferMinBytes());
      anyDram |= s.dram;
    }
  // ---- the decoded program and the plans: the launch's own, or kept from an earlier one ----
  const std::shared_ptr<const PreparedForm> form = preparedForm(k, l, spaces, cfg.prepared);
  if (!form->prog.unsupported.empty()) return runReference(k, surfaces, cfg);
  const Program& prog = form->prog;

  Shared sh;
  sh.prog = &prog;
  sh.calls = !prog.functions.empty();
  sh.form = form.get();
  sh.cfg = &cfg;
  sh.l = &l;
  sh.dims = l.dims;
  sh.dispatchMask = l.dispatchMask;
  sh.payload = cfg.payload;

  // ---- schedule: groups are the unit (they share SLM, they meet at barriers); else every thread is ----
  sh.unitIsGroup = l.unitIsGroup;
  sh.barriers = l.use.usesBarrier;
  sh.units = l.units;
  // An explicit launch gives each host thread as many concurrency slots as a
  // group has threads: more threads in flight (a gang, interleaving) only where they fit, or no slot shows.
  sh.slotsPer = static_cast<uint32_t>(l.dims.perGroup);
  const bool anySlot = !form->observesSlot;
  auto slotsFor = [&](unsigned inFlight) { return anySlot || sh.slotsPer >= inFlight; };
  const unsigned jobs = l.jobs;
  // Units are taken from the ranges in batches, so that many short threads do
  // not all meet on one counter; small enough that the host threads stay balanced.
  sh.batch = std::clamp<uint64_t>(sh.units / (uint64_t{jobs} * 64), 1, 64);
  sh.jobs = jobs;
  sh.ranges = std::make_unique<Shared::Range[]>(jobs);
  for (unsigned j = 0; j < jobs; ++j) {
    sh.ranges[j].next.store(sh.units * j / jobs, std::memory_order_relaxed);
    sh.ranges[j].end = sh.units * (j + 1) / jobs;
  }
  sh.spaces = std::move(spaces);
  sh.anyDram = anyDram;
  sh.slmBytes = l.slmBytes;
  sh.interleave = !sh.unitIsGroup && !cfg.check && sh.anyDram && slotsFor(kInterleave);
  sh.urb = l.urbSpace;
  sh.numStats = l.statNames.size();
  sh.observers = &l.observers;

  // (with at least kGang threads per host thread: a gang's contexts cost a register file each)
  sh.gang = !sh.unitIsGroup && !prog.loops && !cfg.check && !sh.anyDram && slotsFor(kGang) && sh.units >= uint64_t{jobs} * kGang;

  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    workers.push_back(std::make_unique<Worker>());
    workers.back()->index = j;
  }
  {
    // Worker 0 runs on the calling thread, the others on the pool's threads
    // (HostPool: a thread start costs tens of microseconds here).
    struct Job {
      Shared& sh;
      std::vector<std::unique_ptr<Worker>>& workers;
    } job{sh, workers};
    HostPool::instance().run(jobs, [](void* arg, unsigned j) {
      auto& jb = *static_cast<Job*>(arg);
      startWorker(jb.sh, *jb.workers[j]);
      workerMain(jb.sh, *jb.workers[j]);
    }, &job, /*withdraw=*/true);  // (workers take units from shared counters)
  }
  // (the register files, for the form's next launch: the kernel's)
  auto giveBack = [&](ThreadState& t) {
    if (!t.fcalls.empty()) leaveFunctions(t);
    form->regFiles.give(std::move(t.regs));
  };
  for (auto& w : workers) {
    giveBack(w->c.t);
    for (auto& b : w->gang)
      if (b) giveBack(b->t);
    for (ThreadState& t : w->group) giveBack(t);
  }
  if (!sh.error.empty()) {
    res.status = RunResult::Status::Failed;
    res.error = sh.error;
    res.stepLimit = sh.stepLimit;
    return res;
  }

  // ---- merge ----
  std::vector<WorkerTotals> totals;
  for (auto& w : workers) {
    WorkerTotals t;
    t.instructions = w->c.instructions;
    t.lanes = w->c.lanes;
    t.spaceBytes.assign(w->c.spaceBytes.begin(), w->c.spaceBytes.end());
    t.spaceBytes.resize(sh.numStats, {0, 0});
    for (auto& b : w->gang)
      if (b) {
        t.instructions += b->instructions;
        t.lanes += b->lanes;
        for (size_t i = 0; i < sh.numStats; ++i)
          for (int rw = 0; rw < 2; ++rw) t.spaceBytes[i][rw] += b->spaceBytes[i][rw];
      }
    t.findings = &w->c.findings;
    totals.push_back(std::move(t));
  }
  finishLaunch(l, surfaces, totals, res);
  res.stats.tier = "fast";
  for (auto& w : workers) {
    res.stats.viaSemantics += w->c.viaRef;
    for (auto& b : w->gang)
      if (b) res.stats.viaSemantics += b->viaRef;
  }
  return res;
}

}  // namespace visakit::sim
