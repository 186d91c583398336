// The reference tier's interpreter: thread groups on host threads; within a
// group, its threads run one at a time, each until it ends or waits at a
// barrier (chapter 3 "Thread Organization"); an instruction at a time through
// its semantics.
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "sim/launch.hpp"
#include "sim/lanes.hpp"
#include "sim/pool.hpp"
#include "sim/ref/ref.hpp"

namespace visakit::sim {
namespace {

struct RefShared {
  const Launch* l = nullptr;
  const RefProgram* p = nullptr;               // the kernel's program
  std::span<const RefProgram* const> progs;  // it and the functions it may call (C2)
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex errMu;
  std::string error;
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

struct RefWorker : Observed {
  unsigned index = 0;  // host thread j of the launch
  std::vector<uint8_t> payload;  // scratch for an explicit launch's thread payload
  std::vector<Space> spaces;
  Space urb;
  Buffer slm;
  RaceShadow slmShadow;
  LineVector<std::array<uint64_t, 2>> spaceBytes;
  RefMemory mem;
  Space noSpace;  // unbound: what an address in no allocation reaches
  AccessBatch batch;
  uint64_t instructions = 0, lanes = 0;
  std::vector<RefThread> threads;  // the group's (or the one thread's) states
};

// Thread `tid`'s state at its start: the register image (zero, E29, but for
// the inputs), its ids in the predefined variables (chapter 3 "Thread
// Organization"), every predicate and address element zero, the first SIMD
// lanes on (E8).
void initThread(const RefShared& sh, RefThread& t, uint32_t tid, uint32_t slot, std::vector<uint8_t>& grf) {
  const Launch& l = *sh.l;
  const RefProgram& p = *sh.p;
  t.regs.assign(p.layout.regBytes, 0);
  std::copy(l.regImage.begin(), l.regImage.end(), t.regs.begin());
  const ThreadCoord tc = coordOf(l, tid);
  const uint64_t ids[] = {static_cast<uint16_t>(tc.x), static_cast<uint16_t>(tc.y), tc.gx, tc.gy, tc.gz};
  std::copy(std::begin(ids), std::end(ids), t.ids.begin());
  const unsigned vars[] = {kVarThreadX, kVarThreadY, kVarGroupX, kVarGroupY, kVarGroupZ};
  for (unsigned i = 0; i < 5; ++i) {
    const VarSlot& s = p.layout.vars[vars[i]];
    if (s.present) std::memcpy(t.regs.data() + s.offset, &ids[i], s.bytes);
  }
  t.preds.assign(p.numPreds + 1, 0);
  t.addrs.assign(p.numAddrElems, 0);
  t.pc = 0;
  t.em = l.dispatchMask;
  if (l.cfg->payload) t.em = loadPayload(*l.cfg->payload, l.payload, tc, slot, grf, t.regs.data());  // (launch.hpp)
  clearParked(t);
  t.done = p.code.empty();
  t.atBarrier = false;
  t.tid = tid;
  t.steps = 0;
  t.calls.clear();
  t.error.clear();
  t.prog = sh.p;
  t.programs = sh.progs;
  t.fcalls.clear();
  t.surfState.assign(l.numSurf, kNoSurface);
}

// Runs thread t until it ends, waits at a barrier, or the launch stops.
void runThread(RefShared& sh, RefWorker& w, RefThread& t) {
  const LaunchConfig& cfg = *sh.l->cfg;
  w.threadId = t.tid;
  Observer* observer = cfg.check ? const_cast<ObserverList*>(&sh.l->observers) : nullptr;
  while (!t.done && !t.atBarrier) {
    const RefProgram& p = *t.prog;  // the kernel, or the function it called
    const uint32_t end = static_cast<uint32_t>(p.code.size());
    if (++t.steps > cfg.maxSteps) {
      sh.fail(fmt::format("thread {} did not finish within {} instructions (--max-steps); stopped at line {}", t.tid,
                          cfg.maxSteps, p.kernel->code[t.pc].loc.line),
              RunResult::StepLimit{t.tid, t.fcalls.empty() ? t.pc : t.fcalls.front().ret - 1});
      return;
    }
    if ((t.steps & 0xffff) == 0 && sh.stop.load(std::memory_order_relaxed)) return;
    const RefInst& d = p.code[t.pc];
    Exec e(d, t, w.mem, w, observer, p.grfSize);
    e.codeEnd = end;
    if (observer) e.batch = &w.batch;
    const uint32_t pc = t.pc;
    d.fn(e);
    e.endAccesses();
    if (!t.error.empty()) [[unlikely]] {
      sh.fail(fmt::format("thread {}, instruction #{} (line {}): {}", t.tid, pc, p.kernel->code[pc].loc.line, t.error));
      return;
    }
    ++w.instructions;
    w.lanes += e.lanes;
    if (!d.row->has(kControl) && !t.atBarrier) advance(t, pc + 1, end);
  }
}

// Runs unit u: a thread group (its threads take turns, each until it ends or
// waits at a barrier; when every thread still running waits, they go on
// together), or one thread.
void runUnit(RefShared& sh, RefWorker& w, uint64_t u) {
  const Launch& l = *sh.l;
  const uint32_t n = l.unitIsGroup ? static_cast<uint32_t>(l.dims.perGroup) : 1;
  const uint64_t first = l.unitIsGroup ? u * l.dims.perGroup : u;
  if (l.unitIsGroup) {
    // SLM: one zero-filled block per thread group.
    if (w.slm.size()) std::fill(w.slm.data(), w.slm.data() + w.slm.size(), 0);  // (sized only when the kernel uses SLM)
    if (w.spaces[kSurfSlm].shadow) w.slmShadow.reset(l.slmBytes);
    w.sinceBarrier.clear();
  }
  w.threads.resize(n);
  // Concurrency slot: host thread j runs its group's threads in slots j * n .. j * n + n - 1.
  for (uint32_t i = 0; i < n; ++i) {
    initThread(sh, w.threads[i], static_cast<uint32_t>(first + i), w.index * n + i, w.payload);
    takeSlot(l, w.spaces, w.threads[i], w.index * n + i);
  }
  for (;;) {
    bool waiting = false;
    for (RefThread& t : w.threads) {
      if (sh.stop.load(std::memory_order_relaxed)) return;
      runThread(sh, w, t);
      waiting |= t.atBarrier;
    }
    if (!waiting) return;
    // BARRIER page: every thread of the group has arrived (or ended). With
    // --check, what they did before it is ordered before what they do after
    // it (RaceChecker::barrier; spec-decisions C3).
    if (l.cfg->check) {
      std::vector<uint8_t> arrived(n);
      bool ended = false;
      for (uint32_t i = 0; i < n; ++i) {
        arrived[i] = w.threads[i].atBarrier;
        ended |= w.threads[i].done;
      }
      const_cast<RaceChecker&>(l.race).barrier(w, static_cast<uint32_t>(u), static_cast<uint32_t>(first), arrived, ended);
    }
    for (RefThread& t : w.threads)
      if (t.atBarrier) {
        t.atBarrier = false;
        advance(t, t.pc + 1, static_cast<uint32_t>(t.prog->code.size()));
      }
  }
}

void workerMain(RefShared& sh, RefWorker& w) {
  const Launch& l = *sh.l;
  for (;;) {
    if (sh.stop.load(std::memory_order_relaxed)) return;
    uint64_t u = sh.next.fetch_add(1, std::memory_order_relaxed);
    if (u >= l.units) return;
    runUnit(sh, w, u);
  }
}

}  // namespace

RunResult runReference(const Kernel& k, std::vector<SurfaceBinding>& surfaces, const LaunchConfig& cfg) {
  Launch l;
  if (auto err = prepareLaunch(l, k, surfaces, cfg)) return *err;
  RunResult res;
  std::vector<RefProgram> progs;
  std::string err;
  if (!decodeModule(k, cfg, progs, err)) {
    res.status = RunResult::Status::LaunchError;
    res.error = err;
    return res;
  }
  RefShared sh;
  sh.l = &l;
  std::vector<const RefProgram*> module;
  for (const RefProgram& p : progs) module.push_back(&p);
  sh.p = &progs[0];
  sh.progs = module;
  const unsigned jobs = l.jobs;
  std::vector<std::unique_ptr<RefWorker>> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    auto w = std::make_unique<RefWorker>();
    w->index = j;
    w->spaces = l.spaces;
    w->urb = l.urbSpace;
    w->spaceBytes.assign(std::max<size_t>(1, l.statNames.size()), {0, 0});
    w->findings.maxExamples = std::max(1u, cfg.maxExamples);
    if (l.use.usesSlm) {
      w->slm.resize(l.slmBytes);
      Space& s = w->spaces[kSurfSlm];
      s.data = w->slm.data();
      s.size = l.slmBytes;
      s.bound = true;
      s.plain = true;  // one group at a time on this host thread
      if (cfg.check) {
        s.shadow = &w->slmShadow;
        w->slmShadow.exclusive = true;  // this host thread's groups only
      }
    }
    w->mem.spaces = &w->spaces;
    w->mem.urb = &w->urb;
    w->mem.spaceBytes = &w->spaceBytes;
    w->mem.bindingTable = &l.bindingTable;
    w->mem.flat = &l.flat;
    w->mem.noSpace = &w->noSpace;
    workers.push_back(std::move(w));
  }
  {
    struct Job {
      RefShared& sh;
      std::vector<std::unique_ptr<RefWorker>>& workers;
    } job{sh, workers};
    HostPool::instance().run(jobs, [](void* arg, unsigned j) {
      auto& jb = *static_cast<Job*>(arg);
      workerMain(jb.sh, *jb.workers[j]);
    }, &job, /*withdraw=*/true);  // (workers take units from shared counters)
  }
  if (!sh.error.empty()) {
    res.status = RunResult::Status::Failed;
    res.error = sh.error;
    res.stepLimit = sh.stepLimit;
    return res;
  }
  std::vector<WorkerTotals> totals;
  for (auto& w : workers) {
    WorkerTotals t;
    t.instructions = w->instructions;
    t.lanes = w->lanes;
    t.spaceBytes.assign(w->spaceBytes.begin(), w->spaceBytes.end());
    t.findings = &w->findings;
    totals.push_back(std::move(t));
  }
  finishLaunch(l, surfaces, totals, res);
  res.stats.tier = "reference";
  return res;
}

}  // namespace visakit::sim
