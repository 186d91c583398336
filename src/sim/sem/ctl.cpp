// Family C in the reference tier: CALL and the RET of a called subroutine,
// FCALL, IFCALL, FRET, FADDR (functions of the module), SWITCHJMP, BARRIER /
// SBARRIER, MOVS (surface state), ADDR_ADD (address registers), and the
// instructions with nothing to simulate. NBARRIER, RAW_SEND and RAW_SENDS have
// no semantics: a kernel using them is "not supported by the simulator"
// (spec-decisions C12, C14).
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "sim/lanes.hpp"
#include "sim/ref/ref.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim {
namespace {

// Nested calls a thread may make (recursion is not permitted: CALL page,
// chapter 3; spec-decisions C1). Deeper is a failed run, not a host stack overflow.
constexpr size_t kMaxCallDepth = 1024;

bool uniformTaken(const Exec& e) { return e.predBits() & 1; }

// FENCE (a sequentially consistent simulation: every access is performed when
// its instruction ends; C4), WAIT (a launch has no thread dependencies: every
// TDR is invalid, WAIT page; C6), YIELD ("does not affect program correctness"),
// SAMPLR_CACHE_FLUSH (no sampler cache), FILE, LOC, LIFETIME (debug and
// liveness information).
void nothing(Exec&) {}

// BARRIER page: the thread waits until every thread of its group has executed
// a barrier; the interpreter releases the group (ref/run.cpp; C3).
void barrier(Exec& e) { e.thread().atBarrier = true; }

// SBARRIER page: .signal notifies, .wait waits for the others' signals. The
// group's threads run one at a time until each waits or ends, so the wait is
// where the thread stops, as at a BARRIER (C18).
void sbarrier(Exec& e) {
  if (e.value(e.field("Mode")) == 0) e.thread().atBarrier = true;
}

// CALL page, chapter 3 "Subroutine and Function Calls" (C1): exec size 1 calls
// with every running lane if predicate element 0 is true; exec size N calls
// with the running lanes that are enabled and predicated, if any. The caller's
// lanes (running and parked) wait in the frame; EM and the call mask start as
// the calling lanes.
void call(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  const uint32_t callers = e.exec() == 1 ? (uniformTaken(e) ? t.em : 0) : (e.chEn() << e.inst().maskOff) & t.em;
  if (!callers) {
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  if (t.calls.size() >= kMaxCallDepth) {
    t.error = fmt::format("more than {} nested calls (recursion is not permitted: CALL page)", kMaxCallDepth);
    return;
  }
  t.calls.push_back({t.pc + 1, t.em, callers, t.waiting, t.waitMin, t.parked});
  t.em = callers;
  clearParked(t);
  advance(t, e.inst().target, e.codeEnd);
}

// SWITCHJMP page: a jump of every running lane to Label[Index]; an index out of
// [0, Num_labels) ends the run (C11).
void switchjmp(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  const uint64_t n = e.value(e.field("Num_labels"));
  const i128 idx = e.intValue(e.field("Index"), 0);
  if (idx < 0 || idx >= static_cast<i128>(n)) {
    t.error = fmt::format("switchjmp index {} is out of range [0, {}) (SWITCHJMP page)", static_cast<int64_t>(idx), n);
    return;
  }
  advance(t, static_cast<uint32_t>(e.value(e.field("Label") + static_cast<int>(idx))), e.codeEnd);
}

// A state operand's element k (MOVS): the surface's binding-table index.
// The simulator keeps one per surface variable, its element 0 (the one a
// memory instruction's surface operand uses; C5).
bool stateElement(Exec& e, const Operand& o, unsigned k, const char* what) {
  if (o.col + k == 0) return true;
  e.thread().error = fmt::format("movs {} element {} of {}: the simulator keeps one binding-table index per state variable "
                                 "(element 0)", what, o.col + k, o.row ? fmt::format("S{}", o.id) : fmt::format("T{}", o.id));
  return false;
}

// MOVS page: dst[i] = src0[i] for the enabled channels; a state destination
// takes the value as its binding-table index, a state source gives its index.
void movs(Exec& e) {
  RefThread& t = e.thread();
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int d = e.dst(), s = e.src(0);
  const Operand& dst = e.ir().f[d];
  const Operand& src = e.ir().f[s];
  std::array<uint64_t, 32> v{};
  for (unsigned k = 0; k < e.exec(); ++k) {
    if (!((en >> k) & 1)) continue;
    if (src.kind != Operand::Kind::State) {
      v[k] = e.bits(s, k) & 0xffffffffu;
      continue;
    }
    if (!stateElement(e, src, k, "reads")) return;
    if (src.row != 0) {
      t.error = fmt::format("movs reads the state of sampler S{}: sampler state is not simulated", src.id);
      return;
    }
    if (src.id >= t.surfState.size() || t.surfState[src.id] == kNoSurface) {
      t.error = fmt::format("movs reads the state of T{}, which has no binding-table index: no MOVS gave it one", src.id);
      return;
    }
    v[k] = t.surfState[src.id];
  }
  for (unsigned k = 0; k < e.exec(); ++k) {
    if (!((en >> k) & 1)) continue;
    if (dst.kind != Operand::Kind::State) {
      e.setBits(d, k, v[k]);
      continue;
    }
    if (!stateElement(e, dst, k, "writes")) return;
    // A sampler's state: no instruction the simulator runs samples (C5).
    if (dst.row == 0 && dst.id < t.surfState.size()) t.surfState[dst.id] = static_cast<uint32_t>(v[k]);
  }
}

// ADDR_ADD page: dst[i] = src0[i] + src1[i]; "the ADDR_ADD instruction is just
// adding two integers representing GRF byte offsets". Address registers hold
// 16 bits: the sum wraps (C7); &V is the variable's register byte address.
void addrAdd(Exec& e) {
  RefThread& t = e.thread();
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int d = e.dst(), s0 = e.src(0), s1 = e.src(1);
  const Operand& a = e.ir().f[s0];
  if (a.kind == Operand::Kind::AddressOf) {
    if (a.row != 0) {
      t.error = fmt::format("addr_add takes the address of {}{}: the address of a state variable is not simulated",
                            a.row == 1 ? "T" : "S", a.id);
      return;
    }
    if (e.op(s0).base > 0xffff) {
      t.error = fmt::format("addr_add takes the address of a variable at register byte {}: address registers hold 16 bits",
                            e.op(s0).base);
      return;
    }
  }
  // An address source: channel k uses element k % width (chapter 5 "Address Operands": past the
  // operand's width "the same elements are replicated for the remaining channels").
  const unsigned aw = a.region.w == kRegionNull || a.region.w == 0 ? 1 : a.region.w;
  auto src0 = [&](unsigned k) -> i128 {
    if (a.kind != Operand::Kind::Address) return e.intValue(s0, k);
    const uint32_t el = e.op(s0).addr + k % aw;
    i128 v = el < t.addrs.size() ? t.addrs[el] : 0;
    return a.mod == Mod::Neg || a.mod == Mod::NegAbs ? -v : v;  // UW: abs changes nothing
  };
  std::array<uint16_t, 32> r{};
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1) r[k] = static_cast<uint16_t>(static_cast<uint64_t>(src0(k) + e.intValue(s1, k)));
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1) e.setBits(d, k, r[k]);
}

// ---- functions (FCALL, IFCALL, FRET, FADDR pages; chapter 3; C2) ----

// The first `bytes` of predefined variable `id` from one register file to another, where both
// programs lay it out (a program has it only if it names it); `clear`: zero the source's bytes.
void copyPredef(const RefProgram& from, LineVector<uint8_t>& fromRegs, const RefProgram& to, LineVector<uint8_t>& toRegs,
                unsigned id, unsigned bytes, bool clear) {
  const VarSlot& a = from.layout.vars[id];
  const VarSlot& b = to.layout.vars[id];
  if (!a.present) return;
  const unsigned n = std::min({bytes, a.bytes, b.present ? b.bytes : 0u});
  if (n) std::memcpy(toRegs.data() + b.offset, fromRegs.data() + a.offset, n);
  if (clear) std::memset(fromRegs.data() + a.offset, 0, std::min(bytes, a.bytes));
}

// The calling lanes of FCALL / IFCALL: as CALL's (C1).
uint32_t functionCallers(Exec& e) {
  const RefThread& t = e.thread();
  return e.exec() == 1 ? (uniformTaken(e) ? t.em : 0) : (e.chEn() << e.inst().maskOff) & t.em;
}

// FCALL page: the callee runs with a register file of its own (every variable zero, E29, but its
// ids); "copies the first <arg_size> GRFs of %arg from the caller to the callee, destroying its
// contents in the caller" (zeroed here), and %sp, %fp; EM = call mask = the calling lanes.
void enterFunction(Exec& e, uint32_t callee, unsigned argGrfs, unsigned retGrfs, uint32_t callers) {
  RefThread& t = e.thread();
  if (t.fcalls.size() >= kMaxCallDepth) {
    t.error = fmt::format("more than {} nested function calls", kMaxCallDepth);
    return;
  }
  const RefProgram& from = *t.prog;
  const RefProgram& to = *t.programs[callee];
  RefThread::FuncFrame f{t.prog, t.pc + 1, t.em, callers, t.waiting, t.waitMin, t.parked, retGrfs * e.grfSize(),
                         std::move(t.regs), std::move(t.preds), std::move(t.addrs), std::move(t.calls)};
  t.regs.assign(to.layout.regBytes, 0);
  t.preds.assign(to.numPreds + 1, 0);
  t.addrs.assign(to.numAddrElems, 0);
  t.calls.clear();
  const unsigned ids[] = {kVarThreadX, kVarThreadY, kVarGroupX, kVarGroupY, kVarGroupZ};
  for (unsigned i = 0; i < 5; ++i)
    if (const VarSlot& s = to.layout.vars[ids[i]]; s.present) std::memcpy(t.regs.data() + s.offset, &t.ids[i], s.bytes);
  copyPredef(from, f.regs, to, t.regs, kVarArg, argGrfs * e.grfSize(), true);
  copyPredef(from, f.regs, to, t.regs, kVarSp, 8, false);
  copyPredef(from, f.regs, to, t.regs, kVarFp, 8, false);
  t.fcalls.push_back(std::move(f));
  t.prog = &to;
  t.em = callers;
  clearParked(t);
  advance(t, 0, static_cast<uint32_t>(to.code.size()));
}

void fcall(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  const uint32_t callers = functionCallers(e);
  if (!callers) {
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  enterFunction(e, e.inst().target, static_cast<unsigned>(e.value(e.field("Arg_size"))),
                static_cast<unsigned>(e.value(e.field("Return_size"))), callers);
}

// IFCALL page: the callee is the function whose address (FADDR) Func_addr holds; "undefined if
// <func_addr> is not the address of any of the functions": the run fails.
void ifcall(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  const uint32_t callers = functionCallers(e);
  if (!callers) {
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  const uint64_t addr = e.bits(e.field("Func_addr"), 0) & 0xffffffffu;
  if (addr == 0 || addr >= t.programs.size()) {
    t.error = fmt::format("ifcall to function address {}: no function the kernel may call has it (FADDR gives 1..{})", addr,
                          t.programs.size() - 1);
    return;
  }
  enterFunction(e, static_cast<uint32_t>(addr), static_cast<unsigned>(e.value(e.field("Arg_size"))),
                static_cast<unsigned>(e.value(e.field("Return_size"))), callers);
}

// FADDR page: a function's address is its place among the functions the kernel may call, from 1;
// a symbol the launch resolves has its address (C21).
void faddr(Exec& e) { e.storeInt(e.dst(), 0, e.inst().address); }

// FRET page: as RET in a subroutine (C1) with the function's call mask; on return the first
// Return_size GRFs of %retval (FCALL page) and %sp, %fp go back to the caller, whose register
// file and lanes come back. FRET outside a function ends the thread as RET does (E19).
void fret(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  const uint32_t off = e.exec() == 1 ? (uniformTaken(e) ? t.em : 0) : (e.chEn() << e.inst().maskOff) & t.em;
  if (t.fcalls.empty()) {
    if (e.exec() == 1 && off) {
      t.em = 0;
      clearParked(t);
      t.done = true;
      return;
    }
    if (e.exec() != 1) t.em &= ~off;
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  RefThread::FuncFrame& f = t.fcalls.back();
  bool back;
  if (e.exec() == 1) {
    back = off != 0;
  } else {
    f.callMask &= ~off;
    t.em &= ~off;
    back = f.callMask == 0 || (t.em == 0 && t.waiting == 0);
  }
  if (!back) {
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  RefThread::FuncFrame saved = std::move(f);
  t.fcalls.pop_back();
  const RefProgram& from = *t.prog;
  const RefProgram& to = *saved.prog;
  copyPredef(from, t.regs, to, saved.regs, kVarRetval, saved.retBytes, false);
  copyPredef(from, t.regs, to, saved.regs, kVarSp, 8, false);
  copyPredef(from, t.regs, to, saved.regs, kVarFp, 8, false);
  t.regs = std::move(saved.regs);
  t.preds = std::move(saved.preds);
  t.addrs = std::move(saved.addrs);
  t.calls = std::move(saved.calls);
  t.prog = saved.prog;
  t.em = saved.em;
  t.waiting = saved.waiting;
  t.waitMin = saved.waitMin;
  t.parked = saved.parked;
  advance(t, saved.ret, static_cast<uint32_t>(to.code.size()));
}

constexpr SemEntry kCtl[] = {
    {Opcode::FCALL, -1, fcall},
    {Opcode::IFCALL, -1, ifcall},
    {Opcode::FRET, -1, fret},
    {Opcode::FADDR, -1, faddr},
    {Opcode::ADDR_ADD, -1, addrAdd},
    {Opcode::MOVS, -1, movs},
    {Opcode::CALL, -1, call},
    {Opcode::SWITCHJMP, -1, switchjmp},
    {Opcode::BARRIER, -1, barrier},
    {Opcode::SBARRIER, -1, sbarrier},
    {Opcode::FENCE, -1, nothing},
    {Opcode::WAIT, -1, nothing},
    {Opcode::YIELD, -1, nothing},
    {Opcode::SAMPLR_CACHE_FLUSH, -1, nothing},
    {Opcode::FILE, -1, nothing},
    {Opcode::LOC, -1, nothing},
    {Opcode::LIFETIME, -1, nothing},
};

}  // namespace

// RET page in a called subroutine (C1): exec size 1 returns every lane if
// predicate element 0 is true; exec size N turns the enabled predicated lanes
// off (EM and call mask) and returns when the call mask is empty. The caller's
// EM and parked lanes come back; execution goes on after the CALL.
void returnFromCall(Exec& e) {
  RefThread& t = e.thread();
  e.countLanes(t.em);
  RefThread::Frame& f = t.calls.back();
  bool back;
  if (e.exec() == 1) {
    back = uniformTaken(e);
  } else {
    const uint32_t off = (e.chEn() << e.inst().maskOff) & t.em;
    f.callMask &= ~off;
    t.em &= ~off;
    back = f.callMask == 0 || (t.em == 0 && t.waiting == 0);
  }
  if (!back) {
    advance(t, t.pc + 1, e.codeEnd);
    return;
  }
  const RefThread::Frame saved = f;
  t.calls.pop_back();
  t.em = saved.em;
  t.waiting = saved.waiting;
  t.waitMin = saved.waitMin;
  t.parked = saved.parked;
  advance(t, saved.ret, e.codeEnd);
}

std::span<const SemEntry> ctlSemantics() { return kCtl; }

}  // namespace visakit::sim
