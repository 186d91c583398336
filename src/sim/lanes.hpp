// Divergent control flow (chapter 3 "Branch Instructions", GOTO page) as one
// program counter per lane: the live lanes at the smallest PC run with
// EM = those lanes; lanes parked at a later PC rejoin when execution reaches
// it. The same model for both tiers' thread states (the fast tier's
// ThreadState, the reference tier's RefThread): members pc, em, waiting,
// waitMin, parked, done.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace visakit::sim {

constexpr uint32_t kNoPc = 0xffffffffu;

// The parked lanes as groups, one PC each: lanes[k] wait at pc[k], for
// k < n, by PC from the largest down, so that the group that runs next (the
// smallest PC, waitMin) is the last. The groups' lanes are the state's
// `waiting` mask, each lane in one group.
struct ParkedGroups {
  std::array<uint32_t, 32> pc{}, lanes{};
  uint32_t n = 0;
  void swap(ParkedGroups& o) noexcept {  // (the groups in use only)
    const uint32_t m = std::max(n, o.n);
    std::swap_ranges(pc.begin(), pc.begin() + m, o.pc.begin());
    std::swap_ranges(lanes.begin(), lanes.begin() + m, o.lanes.begin());
    std::swap(n, o.n);
  }
};

// No lane parked.
template <class State>
inline void clearParked(State& t) {
  t.waiting = 0;
  t.waitMin = kNoPc;
  t.parked.n = 0;
}

// Takes `lanes` out of the groups they are parked in.
template <class State>
void unpark(State& t, uint32_t lanes) {
  ParkedGroups& g = t.parked;
  uint32_t kept = 0;
  for (uint32_t k = 0; k < g.n; ++k)
    if (const uint32_t l = g.lanes[k] & ~lanes) {
      g.pc[kept] = g.pc[k];
      g.lanes[kept++] = l;
    }
  g.n = kept;
  t.waiting &= ~lanes;
  t.waitMin = kept ? g.pc[kept - 1] : kNoPc;
}

// Park `lanes` at `pc` (a lane parked already moves there).
template <class State>
inline void park(State& t, uint32_t lanes, uint32_t pc) {
  if (!lanes) return;
  if (lanes & t.waiting) [[unlikely]] unpark(t, lanes & t.waiting);
  t.waiting |= lanes;
  ParkedGroups& g = t.parked;
  uint32_t i = g.n;
  while (i > 0 && g.pc[i - 1] < pc) --i;  // groups i.. wait at smaller PCs
  if (i > 0 && g.pc[i - 1] == pc) {
    g.lanes[i - 1] |= lanes;
    return;
  }
  for (uint32_t k = g.n; k > i; --k) {
    g.pc[k] = g.pc[k - 1];
    g.lanes[k] = g.lanes[k - 1];
  }
  g.pc[i] = pc;
  g.lanes[i] = lanes;
  ++g.n;
  if (pc < t.waitMin) t.waitMin = pc;
}

// Runs the parked lanes with the smallest PC; the thread is done when none is left.
// (Out of line, as the rejoin below: the callers' common paths keep few registers.)
template <class State>
[[gnu::noinline]] void pickNext(State& t, uint32_t end) {
  ParkedGroups& g = t.parked;
  for (;;) {
    if (!g.n) {
      t.em = 0;
      t.done = true;
      return;
    }
    const uint32_t pc = g.pc[--g.n], lanes = g.lanes[g.n];
    t.waiting &= ~lanes;
    t.waitMin = g.n ? g.pc[g.n - 1] : kNoPc;
    if (pc >= end) continue;  // parked at the end: finished
    t.pc = pc;
    t.em = lanes;
    return;
  }
}

// The running lanes reach `pc`, at or past the smallest parked PC: lanes
// waiting there rejoin them; a jump beyond them runs them first.
template <class State>
[[gnu::noinline]] void rejoin(State& t, uint32_t pc, uint32_t end) {
  park(t, t.em, pc);
  t.em = 0;
  pickNext(t, end);
}

// Continue the running lanes at `pc` (pc + 1 after an ordinary instruction).
template <class State>
inline void advance(State& t, uint32_t pc, uint32_t end) {
  if (t.em == 0) {
    pickNext(t, end);
    return;
  }
  if (pc >= end) {  // these lanes ran off the end of the kernel
    t.em = 0;
    pickNext(t, end);
    return;
  }
  t.pc = pc;
  if (!t.waiting || pc < t.waitMin) return;
  rejoin(t, pc, end);
}

}  // namespace visakit::sim
