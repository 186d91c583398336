// Pass: the straight plan (planStraight). Precondition: fitToLaunch done. A
// kernel that is one straight-line run changes no execution mask, so an
// unpredicated instruction's ChEn is the same in every thread: every lane
// under NoMask, else the dispatch mask at its offset (chapter 3 "Execution
// mask", chapter 5 EvaluateChEn). Result: the steps runStraight calls.
#include "sim/fast/ctx.hpp"
#include "sim/fast/plan/plan.hpp"

namespace visakit::sim {

uint64_t planStraight(const Program& prog, const Kernel& k, uint32_t dispatchMask, uint64_t maxSteps, uint64_t& retLanes,
                      std::vector<StraightStep>& plan) {
  retLanes = 0;
  plan.clear();
  if (prog.code.empty()) return 0;
  const DInst& ret = prog.code.back();
  const bool retLast = k.code.back().op == Opcode::RET && ret.exec == 1 && !ret.predId;
  const uint32_t end = static_cast<uint32_t>(prog.code.size()) - (retLast ? 1 : 0);
  if (prog.code[0].straight != end || prog.code.size() + 1 >= maxSteps) return 0;
  retLanes = retLast ? laneCount(dispatchMask) : 0;
  const DInst* d = prog.code.data();
  while (d < prog.code.data() + end && d->folded) ++d;
  for (; d < prog.code.data() + end; d = nextStep(d)) {
    const uint32_t all = execMaskBits(d->exec);
    const bool allOn = !d->predId && (d->noMask || ((dispatchMask >> d->maskOff) & all) == all);
    plan.push_back({d->runLen == 1 && allOn && d->allOnFn ? d->allOnFn : d->stepFn, d});
  }
  return prog.code.size();
}

}  // namespace visakit::sim
