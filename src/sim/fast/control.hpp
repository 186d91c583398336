// Divergent control flow (chapter 3 "Branch Instructions", GOTO page) as one
// program counter per lane: the live lanes at the smallest PC run with
// EM = those lanes; lanes parked at a later PC rejoin when execution reaches it.
#pragma once


#include "sim/fast/ctx.hpp"
#include "sim/lanes.hpp"

namespace visakit::sim {

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
