// LABEL, SUBROUTINE, JMP, GOTO, RET (their pages; chapter 3 "Branch
// Instructions") over the per-lane program counters of lanes.hpp.
#include "sim/lanes.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim {
namespace {

// LABEL, SUBROUTINE pages: mark a block (a subroutine) start; lanes rejoin there (advance).
void label(Exec&) {}

// Execution size 1 makes a branch uniform (GOTO, JMP, RET pages): element 0
// of the (combined, inverted) predicate decides for every lane (E19).
bool uniformTaken(const Exec& e) { return e.predBits() & 1; }

// JMP page: "Jump to the basic block at <label>" for all running lanes.
void jmp(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  advance(t, uniformTaken(e) ? e.inst().target : t.pc + 1, e.codeEnd);
}

// GOTO page: active channels that are predicated go to the label, the others
// to the next instruction. A forward goto thus runs the others first and the
// jumping ones rejoin at the label; a backward goto runs the jumping ones
// (the loop body) first and the others wait at the next instruction.
void gotoLabel(Exec& e) {
  RefThread& t = e.thread();
  uint32_t jump;
  if (e.exec() == 1) jump = uniformTaken(e) ? t.em : 0;
  else jump = (e.chEn() << e.inst().maskOff) & t.em;
  e.countLanes(t.em);
  const uint32_t stay = t.em & ~jump, next = t.pc + 1;
  if (!jump) {
    advance(t, next, e.codeEnd);
  } else if (!stay) {
    advance(t, e.inst().target, e.codeEnd);
  } else {
    park(t, jump, e.inst().target);
    park(t, stay, next);
    t.em = 0;
    pickNext(t, e.codeEnd);
  }
}

// RET page: with exec size 1 the thread ends if the predicate is true; else
// the enabled channels end, and the thread with its last channel. Inside a
// called subroutine it returns to the caller instead (returnFromCall, sem/ctl.cpp).
void ret(Exec& e) {
  RefThread& t = e.thread();
  if (!t.calls.empty()) {
    returnFromCall(e);
    return;
  }
  e.countLanes(t.em);
  if (e.exec() == 1) {
    if (uniformTaken(e)) {
      t.em = 0;
      clearParked(t);
      t.done = true;
      return;
    }
  } else {
    t.em &= ~(e.chEn() << e.inst().maskOff);
  }
  advance(t, t.pc + 1, e.codeEnd);
}

constexpr SemEntry kControl[] = {
    {Opcode::LABEL, -1, label},
    {Opcode::SUBROUTINE, -1, label},
    {Opcode::JMP, -1, jmp},
    {Opcode::GOTO, -1, gotoLabel},
    {Opcode::RET, -1, ret},
};

}  // namespace

std::span<const SemEntry> controlSemantics() { return kControl; }

}  // namespace visakit::sim
