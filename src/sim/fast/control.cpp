// LABEL, SUBROUTINE, JMP, GOTO, RET (their pages; chapter 3 "Branch Instructions").
#include "sim/fast/control.hpp"

namespace visakit::sim {

namespace {

uint32_t endOf(const Ctx& c) { return c.prog->codeEnd; }

// LABEL, SUBROUTINE pages: mark a block (a subroutine) start; rejoining happens in advance().
void execLabel(Ctx&, const DInst&) {}

// JMP page: "Jump to the basic block at <label>" for all running lanes.
void execJmp(Ctx& c, const DInst& d) { jumpUniform(c, d, c.t.pc + 1); }

// A GOTO whose lanes go both ways (out of line: execGoto's one-sided paths
// keep few registers).
[[gnu::noinline]] void splitGoto(ThreadState& t, const DInst& d, uint32_t jump, uint32_t stay, uint32_t end) {
  const uint32_t next = t.pc + 1;
  if (const uint32_t first = std::min(d.target, next); d.target != next && first < t.waitMin && first < end) {
    // One side is before every parked lane: it runs now and the other parks,
    // as pickNext would choose, without its search of the parked lanes.
    const bool back = d.target < next;
    park(t, back ? stay : jump, back ? next : d.target);
    t.em = back ? jump : stay;
    t.pc = first;
  } else {
    park(t, jump, d.target);
    park(t, stay, next);
    t.em = 0;
    pickNext(t, end);
  }
}

// GOTO page: active channels that are predicated go to the label, the others
// to the next instruction. A forward goto thus runs the others first and the
// jumping ones rejoin at the label; a backward goto runs the jumping ones
// (the loop body) first and the others wait at the next instruction.
void execGoto(Ctx& c, const DInst& d) {
  ThreadState& t = c.t;
  uint32_t jump;
  if (d.exec == 1) jump = uniformTaken(c, d) ? t.em : 0;
  else jump = (chEn(c, d) << d.maskOff) & t.em;
  c.lanes += laneCount(t.em);
  const uint32_t stay = t.em & ~jump, end = endOf(c);
  if (!jump) advance(t, t.pc + 1, end);
  else if (!stay) advance(t, d.target, end);
  else splitGoto(t, d, jump, stay, end);
}

// RET page: with exec size 1 the thread ends if the predicate is true; else
// the enabled channels end, and the thread with its last channel.
void execRet(Ctx& c, const DInst& d) {
  ThreadState& t = c.t;
  c.lanes += laneCount(t.em);
  if (d.exec == 1) {
    if (uniformTaken(c, d)) {
      t.em = 0;
      clearParked(t);
      t.done = true;
      return;
    }
  } else {
    t.em &= ~(chEn(c, d) << d.maskOff);
  }
  advance(t, t.pc + 1, endOf(c));
}

}  // namespace

void decodeControl(const Program&, const Instruction& inst, const std::vector<uint32_t>& labelPos, DInst& d) {
  auto target = [&](uint32_t id) { return id < labelPos.size() ? labelPos[id] : kNoPc - 1; };
  switch (inst.op) {
    case Opcode::LABEL:
    case Opcode::SUBROUTINE: d.fn = execLabel; return;
    case Opcode::JMP:
      d.fn = execJmp;
      d.control = true;
      d.target = target(inst.f[2].id);
      return;
    case Opcode::GOTO:
      d.fn = execGoto;
      d.control = true;
      d.target = target(inst.f[2].id);
      return;
    default:
      d.fn = execRet;
      d.control = true;
      return;
  }
}

}  // namespace visakit::sim
