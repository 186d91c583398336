// The instructions without a fast form run in the fast tier through their
// semantics (src/sim/sem, one semantics for both tiers): an Exec over the
// thread's state, which is the reference tier's (ThreadState is a RefThread),
// and this host thread's memory (Ctx::mem), observed as in the reference tier.
// Also the forms too small for that: the instructions that do nothing, MOVS
// of an immediate to a surface's state, BARRIER; two forms of the semantics'
// element rules for operands the vector forms do not read: a MOV that copies
// bits with an indirect operand, ADDR_ADD of a variable's address. The
// semantics' loops of messages without an Exec are insn_messages.cpp.
#include <fmt/format.h>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

// The semantics set t.error: the run fails with it (as the reference tier's
// message), once the thread stops; the thread ends here, so nothing it would
// do later happens, but for the instructions of the straight-line stretch the
// dispatcher has begun (a failed run's bytes are whatever was written so far).
[[gnu::noinline]] void refFailed(Ctx& c, const DInst& d) {
  ThreadState& t = c.t;
  if (c.failure.empty()) {
    c.failure = fmt::format("thread {}, instruction #{} (line {}): {}", t.tid, d.index, c.prog->kernel->code[d.index].loc.line,
                            t.error);
    c.failedTid = t.tid;
  }
  t.em = 0;
  clearParked(t);
  t.atBarrier = false;
  t.done = true;
}

[[gnu::always_inline]] inline void runSemantics(Ctx& c, const DInst& d) {
  const RefInst& r = *d.ref;
  Exec e(r, c.t, c.mem, c, c.observer, c.prog->grfSize);
  e.codeEnd = c.prog->codeEnd;
  if (c.observer) e.batch = &c.batch;
  r.fn(e);
  e.endAccesses();
  c.lanes += e.lanes;
  ++c.viaRef;
}

// An instruction that may wait for its thread group (SBARRIER): the thread
// stays there while it waits (the group's threads then go on, dispatch.cpp),
// else goes on to the next instruction.
void execRefBarrier(Ctx& c, const DInst& d) {
  runSemantics(c, d);
  if (!c.t.error.empty()) [[unlikely]] return refFailed(c, d);
  if (!c.t.atBarrier) advance(c.t, c.t.pc + 1, c.prog->codeEnd);
}

// FENCE (every access is performed when its instruction ends; C4), WAIT (no
// thread dependencies; C6), YIELD, SAMPLR_CACHE_FLUSH, FILE, LOC, LIFETIME:
// nothing to simulate (their semantics are `nothing`, sem/ctl.cpp).
void execNothing(Ctx&, const DInst&) {}

// LSC_FENCE: no effect either (L17); its semantics count its lanes (sem/lsc.cpp fence).
void execLanesOnly(Ctx& c, const DInst& d) { c.lanes += laneCount(chEn(c, d)); }

// MOVS page, one lane, NoMask, unpredicated, an immediate to a surface's
// state: the surface's binding-table index (sem/ctl.cpp movs; C5). A memory
// instruction the state reaches uses the table's surface, resolved at decode
// (plan/surfaces.cpp); the state is kept for the instructions that run
// through their semantics.
void execMovsState(Ctx& c, const DInst& d) {
  c.t.surfState[d.surface] = static_cast<uint32_t>(d.src[0].imm[0]);
  c.lanes += 1;
}

// BARRIER page: the thread waits until every thread of its group has
// executed a barrier (dispatch.cpp releases the group; C3).
void execBarrier(Ctx& c, const DInst&) { c.t.atBarrier = true; }

}  // namespace

// An instruction through its semantics. Past one that is not control the
// dispatcher moves on; a control one (CALL, RET after a CALL, SWITCHJMP, ...)
// moves the program counter itself (DInst::control).
void execRef(Ctx& c, const DInst& d) {
  runSemantics(c, d);
  if (!c.t.error.empty()) [[unlikely]] refFailed(c, d);
}

void decodeNoEffect(const Program&, const Instruction& inst, DInst& d) {
  d.fn = inst.op == Opcode::LSC_FENCE ? execLanesOnly : execNothing;
}

bool decodeMovsState(const Program& p, const Instruction& inst, DInst& d) {
  const Operand& dst = inst.f[1];
  const Operand& src = inst.f[2];
  if (d.exec != 1 || !d.noMask || d.predId || dst.kind != Operand::Kind::State || dst.row != 0 || dst.col != 0 ||
      dst.id >= kNumPredefSurfaces + p.kernel->surfaces.size() || src.kind != Operand::Kind::Immediate)
    return false;
  d.fn = execMovsState;
  d.surface = dst.id;
  d.src[0] = decodeVector(p, src, 1, false, true);
  return true;
}

void decodeBarrier(const Program&, const Instruction&, DInst& d) {
  d.fn = execBarrier;
  d.control = true;  // (the dispatcher neither moves on nor goes on with the thread)
}

namespace {

// MOV without a conversion (movCopiesBits, as sem/alu.cpp mov) where an
// operand is indirect, which the vector forms do not read: the element offsets
// of the semantics (elementOffset), worked out at decode but for an indirect
// operand's address element, which is read here; every source element read
// before any destination element is written.
inline uint32_t laneOffset(const RefThread& t, const DOperand& o, unsigned k) {
  if (o.addrElt == DOperand::kNoAddrElt) return o.off[k];
  const uint32_t a = o.addrElt + (k >> o.addrShift);
  return (a < t.addrs.size() ? t.addrs[a] : 0u) + o.off[k];
}
template <unsigned Bytes>
void movBits(Ctx& c, const DInst& d) {
  const uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  const DOperand& s = d.src[0];
  std::array<uint64_t, 32> v;  // (a disabled lane's element is not read: reading has no effect)
  if (s.kind == DOperand::Kind::Imm) forEachLane(en, [&](unsigned k) { v[k] = s.imm[k % s.immPeriod]; });
  else forEachLane(en, [&](unsigned k) { v[k] = readRegBits(c.t, laneOffset(c.t, s, k), Bytes); });
  if (d.dst.kind == DOperand::Kind::Null) return;
  forEachLane(en, [&](unsigned k) { writeRegBits(c.t, laneOffset(c.t, d.dst, k), Bytes, v[k]); });
}
// Operand o of such a MOV as movBits reads it; false if it cannot.
bool movBitsOperand(const RefOperand& o, unsigned exec, DOperand& out) {
  out.type = o.type;
  if (o.kind == Operand::Kind::Immediate) {
    out.kind = DOperand::Kind::Imm;
    out.imm = o.imm;
    out.immPeriod = o.immPeriod;
    return true;
  }
  out.kind = o.null ? DOperand::Kind::Null : DOperand::Kind::Reg;
  const RefThread noAddrs;  // (an indirect operand's offsets but for its address element)
  uint32_t off[LaneOffsets::size()];
  const unsigned n = std::min(std::max(exec, 1u), LaneOffsets::size());
  for (unsigned k = 0; k < n; ++k) off[k] = elementOffset(o, noAddrs, k);
  out.off.assign(off, n);
  if (o.kind != Operand::Kind::Indirect) return true;
  const bool vxh = o.vs == kRegionNull;  // each group of w lanes takes the next address element
  const unsigned w = o.w ? o.w : 1;
  if ((vxh && !std::has_single_bit(w)) || o.addr + exec >= DOperand::kNoAddrElt) return false;
  out.addrElt = static_cast<uint16_t>(o.addr);
  out.addrShift = vxh ? static_cast<uint8_t>(std::countr_zero(w)) : 31;
  return true;
}
bool isMovBits(const RefInst& r) {
  if (r.row->op != Opcode::MOV || r.dst < 0 || r.numSrc != 1 || r.src[0] < 0) return false;
  const RefOperand& s = r.f[static_cast<size_t>(r.src[0])];
  const RefOperand& o = r.f[static_cast<size_t>(r.dst)];
  const bool srcOk = s.kind == Operand::Kind::General || s.kind == Operand::Kind::Indirect || s.kind == Operand::Kind::Immediate;
  const bool dstOk = o.kind == Operand::Kind::General || o.kind == Operand::Kind::Indirect;
  return srcOk && dstOk && movCopiesBits(s, o, r.sat);
}
Handler movBitsOf(const RefInst& r, DInst& d) {
  if (!isMovBits(r) || !movBitsOperand(r.f[static_cast<size_t>(r.src[0])], d.exec, d.src[0]) ||
      !movBitsOperand(r.f[static_cast<size_t>(r.dst)], d.exec, d.dst))
    return nullptr;
  switch (typeSize(d.dst.type)) {
    case 1: return movBits<1>;
    case 2: return movBits<2>;
    case 4: return movBits<4>;
    case 8: return movBits<8>;
    default: return nullptr;
  }
}

// ADDR_ADD of a variable's address and an integer operand (sem/ctl.cpp
// addrAdd, with the address known at decode to fit 16 bits): each enabled
// lane's sum, wrapped to 16 bits (C7), into address element
// d.dst.addrElt + d.dst.off[k]. Of the operand only the low 16 bits of its
// extended value count.
void addrAddOf(Ctx& c, const DInst& d) {
  const uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  const DOperand& s = d.src[1];
  const uint64_t base = d.src[0].imm[0];
  const unsigned bytes = typeSize(s.type);
  std::array<uint16_t, 32> r;
  forEachLane(en, [&](unsigned k) {
    const uint64_t v = s.kind == DOperand::Kind::Imm ? s.imm[k % s.immPeriod] : readRegBits(c.t, s.off[k], bytes);
    r[k] = static_cast<uint16_t>(base + static_cast<uint64_t>(extendInt(v, s.type)));
  });
  forEachLane(en, [&](unsigned k) {
    const uint32_t a = d.dst.addrElt + d.dst.off[k];
    if (a < c.t.addrs.size()) c.t.addrs[a] = r[k];
  });
}
Handler addrAddFormOf(const RefInst& r, DInst& d) {
  if (r.row->op != Opcode::ADDR_ADD || r.dst < 0 || r.numSrc != 2 || r.src[0] < 0 || r.src[1] < 0) return nullptr;
  const Operand& a = r.inst->f[static_cast<size_t>(r.src[0])];
  const RefOperand& s0 = r.f[static_cast<size_t>(r.src[0])];
  const RefOperand& s1 = r.f[static_cast<size_t>(r.src[1])];
  const RefOperand& o = r.f[static_cast<size_t>(r.dst)];
  if (a.kind != Operand::Kind::AddressOf || a.row != 0 || s0.base > 0xffff || s0.mod != Mod::None ||
      (s1.kind != Operand::Kind::General && s1.kind != Operand::Kind::Immediate) || s1.mod != Mod::None ||
      !isIntType(s1.type) || s1.type == Type::BOOL || o.kind != Operand::Kind::Address || o.addr >= DOperand::kNoAddrElt ||
      !movBitsOperand(s1, d.exec, d.src[1]))
    return nullptr;
  d.src[0].kind = DOperand::Kind::Imm;
  d.src[0].imm[0] = s0.base;
  d.dst.kind = DOperand::Kind::None;
  d.dst.addrElt = static_cast<uint16_t>(o.addr);
  d.dst.off.assignSteps(0, o.hs ? o.hs : 1u);  // lane k's element k * hs (sem/exec.cpp setBits)
  return addrAddOf;
}

}  // namespace

void decodeViaRef(const Program& p, const Instruction& inst, const RefInst& r, DInst& d) {
  const InstrDesc& row = *r.row;
  d.viaRef = true;
  d.ref = &r;
  // (a memory instruction whose fast form gave way, plan/surfaces.cpp: none of its handlers)
  d.checkedFn = d.fusedFn = d.mergedFn = d.lanesFn = d.checkedLanesFn = d.checkedFusedFn = d.allOnFn = d.cmpJmpFn = nullptr;
  d.addrKind = DInst::AddrKind::None;
  d.offRun = false;
  d.numAhead = 0;
  d.control = row.has(kControl) || row.has(kBarrier);
  d.fn = !row.has(kControl) && row.has(kBarrier) ? execRefBarrier : execRef;
  if (Handler f = movBitsOf(r, d)) d.fn = f;
  else if (Handler g = addrAddFormOf(r, d)) d.fn = g;
  else if (Handler h = svmFormOf(r, d)) d.fn = h;
  else if (Handler a = svmAtomicFormOf(r, d)) d.fn = a;
  else if (Handler l = lscFormOf(p, r, d)) d.fn = l;
  // Register effects: each operand's bytes, hulled with its variable's (a
  // semantics may read any element of it); an indirect operand may be any byte.
  d.numRawReads = d.numRawWrites = 0;
  auto add = [](std::array<ByteRange, 4>& a, uint8_t& n, ByteRange r) {
    if (r.hi <= r.lo) return;
    if (n < a.size()) {
      a[n++] = r;
      return;
    }
    a[n - 1] = {std::min(a[n - 1].lo, r.lo), std::max(a[n - 1].hi, r.hi)};
  };
  const ByteRange all{0, p.regBytes};
  for (int fi = 0; fi < row.numFields; ++fi) {
    const FieldDesc& f = row.fields[fi];
    const Operand& o = inst.f[fi];
    const bool reads = f.access == Access::Read || f.access == Access::ReadWrite;
    const bool writes = f.access == Access::Write || f.access == Access::ReadWrite;
    ByteRange range;
    switch (o.kind) {
      case Operand::Kind::General:
      case Operand::Kind::Raw: {
        if (o.id == kVarNull || o.id >= p.vars.size()) continue;
        const VarSlot& s = p.vars[o.id];
        range = {s.offset, s.offset + s.bytes};
        if (o.kind == Operand::Kind::Raw) {
          const uint32_t lo = rawOffset(p, o);
          range = {std::min(range.lo, lo), std::max(range.hi, lo + rawFootprint(row, inst, fi, p.grfSize))};
        } else if (f.kind == FieldKind::Vec) {
          const DOperand v = decodeVector(p, o, std::max<unsigned>(1, d.exec), writes, false);
          for (unsigned k = 0; k < std::max<unsigned>(1, d.exec); ++k)
            range = {std::min(range.lo, v.off[k]), std::max(range.hi, v.off[k] + typeSize(v.type))};
        }
        break;
      }
      case Operand::Kind::Indirect: range = all; break;
      default: continue;  // immediates, predicates, address registers, state, labels: no register bytes
    }
    range.hi = std::min(range.hi, p.regBytes);
    if (reads) add(d.rawReads, d.numRawReads, range);
    if (writes) add(d.rawWrites, d.numRawWrites, range);
  }
  // FCALL page (C2): a call copies the caller's %arg (then zeroed), %sp and
  // %fp to the callee, and %retval, %sp and %fp back at FRET.
  auto var = [&](unsigned id) {
    const VarSlot s = id < p.vars.size() ? p.vars[id] : VarSlot{};
    return s.present ? ByteRange{s.offset, std::min(s.offset + s.bytes, p.regBytes)} : ByteRange{};
  };
  if (row.op == Opcode::FCALL || row.op == Opcode::IFCALL) {
    for (unsigned id : {kVarArg, kVarSp, kVarFp}) add(d.rawReads, d.numRawReads, var(id));
    for (unsigned id : {kVarArg, kVarRetval, kVarSp, kVarFp}) add(d.rawWrites, d.numRawWrites, var(id));
  } else if (row.op == Opcode::FRET) {
    for (unsigned id : {kVarRetval, kVarSp, kVarFp}) add(d.rawReads, d.numRawReads, var(id));
  }
}

}  // namespace visakit::sim
