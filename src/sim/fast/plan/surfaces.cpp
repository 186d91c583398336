// Pass: surface state (planSurfaceState). Precondition: decoded, the launch's
// binding table known. A surface operand whose state a MOVS set uses the
// binding table's surface (MOVS page; sem/exec.cpp boundSurface, C5). Where
// the state at a memory instruction is known at decode (the kernel's start:
// none; a NoMask one-lane MOVS of an immediate before it in the same
// straight-line code, as IGC writes one before each message), its fast form
// uses that surface; else the instruction runs through its semantics, which
// read the thread's state (DInst::viaRef).
#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"
#include "sim/launch.hpp"

namespace visakit::sim {

void planSurfaceState(Program& p, const Launch& l) {
  constexpr uint32_t kUnknown = 0xfffffffeu;
  const std::vector<uint8_t>& stateSet = l.use.stateSet;
  bool anySet = false;
  for (uint8_t s : stateSet) anySet |= s != 0;
  if (!anySet) return;  // every surface operand is its own binding
  std::vector<uint32_t> state(stateSet.size(), kNoSurface);  // at a thread's start: no state (C5)
  auto forget = [&] {
    for (size_t id = 0; id < state.size(); ++id)
      if (stateSet[id]) state[id] = kUnknown;
  };
  for (uint32_t i = 0; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    const Instruction& inst = p.kernel->code[i];
    if (d.join) forget();  // (reached from elsewhere)
    if (inst.op == Opcode::MOVS) {
      const Operand& dst = inst.f[1];
      if (!d.viaRef) state[d.surface] = static_cast<uint32_t>(d.src[0].imm[0]);
      else if (dst.kind == Operand::Kind::State && dst.row == 0 && dst.id < state.size()) state[dst.id] = kUnknown;
    } else if (!d.viaRef && d.addrKind != DInst::AddrKind::None && d.surface < state.size() && stateSet[d.surface]) {
      const uint32_t s = state[d.surface];
      if (s == kUnknown) {
        d.viaRef = true;
      } else if (s != kNoSurface) {
        const uint32_t target = s < l.bindingTable.size() ? l.bindingTable[s] : kNoSurface;
        if (target == kNoSurface || target >= l.spaces.size()) d.viaRef = true;  // (the semantics report it, C5)
        else d.surface = target;
      }
    }
    // (After a control instruction, lanes waiting elsewhere may go on here with
    // another thread's history: forgotten, as at a join.)
    if (d.control || (d.viaRef && d.row && d.row->has(kControl))) forget();
  }
}

}  // namespace visakit::sim
