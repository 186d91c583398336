// Divergent control flow (chapter 3 "Branch Instructions", GOTO page) as one
// program counter per lane: the live lanes at the smallest PC run with
// EM = those lanes; lanes parked at a later PC rejoin when execution reaches
// it. The same model for both tiers' thread states (the fast tier's
// ThreadState, the reference tier's RefThread): members pc, em, waiting,
// waitMin, lanePc, done.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace visakit::sim {

constexpr uint32_t kNoPc = 0xffffffffu;

// Park `lanes` at `pc`.
template <class State>
inline void park(State& t, uint32_t lanes, uint32_t pc) {
  if (!lanes) return;
  t.waiting |= lanes;
  while (lanes) {
    unsigned l = static_cast<unsigned>(std::countr_zero(lanes));
    lanes &= lanes - 1;
    t.lanePc[l] = pc;
  }
  if (pc < t.waitMin) t.waitMin = pc;
}

// The waiting lanes whose PC is `pc`; the smallest PC of the other waiting
// lanes into `next` (kept if none is smaller).
template <class Pcs>
inline uint32_t lanesAtPlain(const Pcs& lanePc, uint32_t waiting, uint32_t pc, uint32_t& next) {
  uint32_t lanes = 0;
  for (uint32_t w = waiting; w;) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(w));
    w &= w - 1;
    if (lanePc[l] == pc) lanes |= 1u << l;
    else next = std::min(next, lanePc[l]);
  }
  return lanes;
}

// Runs the parked lanes with the smallest PC; the thread is done when none is left.
template <class State>
void pickNext(State& t, uint32_t end) {
  for (;;) {
    if (!t.waiting) {
      t.em = 0;
      t.done = true;
      return;
    }
    uint32_t pc = t.waitMin, lanes, next = kNoPc;
    if constexpr (requires { t.lanesAt(pc, next); }) lanes = t.lanesAt(pc, next);  // (the fast tier's state: four lanes at a time)
    else lanes = lanesAtPlain(t.lanePc, t.waiting, pc, next);
    t.waiting &= ~lanes;
    t.waitMin = next;
    if (pc >= end) continue;  // parked at the end: finished
    t.pc = pc;
    t.em = lanes;
    return;
  }
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
  // Lanes waiting here (pc == waitMin) rejoin; a jump beyond them runs them first.
  park(t, t.em, pc);
  t.em = 0;
  pickNext(t, end);
}

}  // namespace visakit::sim
