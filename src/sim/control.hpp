// Divergent control flow (chapter 3 "Branch Instructions", GOTO page) as one
// program counter per lane: the live lanes at the smallest PC run with
// EM = those lanes; lanes parked at a later PC rejoin when execution reaches it.
#pragma once

#include <bit>

#include "sim/ctx.hpp"

namespace visakit::sim {

// Park `lanes` at `pc`.
inline void park(ThreadState& t, uint32_t lanes, uint32_t pc) {
  if (!lanes) return;
  t.waiting |= lanes;
  while (lanes) {
    unsigned l = static_cast<unsigned>(std::countr_zero(lanes));
    lanes &= lanes - 1;
    t.lanePc[l] = pc;
  }
  if (pc < t.waitMin) t.waitMin = pc;
}

// Runs the parked lanes with the smallest PC; the thread is done when none is left.
void pickNext(ThreadState& t, uint32_t end);

// Continue the running lanes at `pc` (pc + 1 after an ordinary instruction).
inline void advance(ThreadState& t, uint32_t pc, uint32_t end) {
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

// Execution size 1 makes a branch uniform (GOTO, JMP, RET pages): element 0
// of the (combined, inverted) predicate decides for every lane (E19). With one
// element, .any and .all are that element itself.
[[gnu::always_inline]] inline bool uniformTaken(const Ctx& c, const DInst& d) {
  if (!d.predId) return true;
  if (d.exec == 1) return ((c.t.preds[d.predId] >> d.maskOff) & 1u) != uint32_t{d.predInv};
  return predMask(c, d) & 1;
}

// JMP page: "Jump to the basic block at <label>" for all running lanes when
// uniformTaken; else on to `next`.
[[gnu::always_inline]] inline void jumpUniform(Ctx& c, const DInst& j, uint32_t next) {
  c.lanes += laneCount(c.t.em);
  advance(c.t, uniformTaken(c, j) ? j.target : next, c.prog->codeEnd);
}

}  // namespace visakit::sim
