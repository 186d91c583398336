// What the plan passes know of a decoded instruction's effects: the register
// bytes it reads and writes, from its row (Access, footprints) and its
// decoded operands. Shared by the passes of this folder.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/fast/ctx.hpp"

namespace visakit::sim::plan {

// Register bytes an instruction writes (its destination), or an empty range (prefetch.cpp).
ByteRange regWrites(const DInst& d);


// An ALU instruction (its row neither loads, stores, branches nor is a label).
// (Not one run through its semantics: its operands are not decoded.)
inline bool aluInst(const Program&, const DInst& d) {
  return d.fn && !d.viaRef && d.row && !d.row->has(InstrProps(kMayLoad | kMayStore | kControl | kNoExec));
}

// A NoMask, unpredicated ALU instruction that writes registers from registers
// and immediates only: every lane runs, and its result depends on those bytes
// alone (planStaticOffsets, planThreadStart). One destination (not ADDC, SUBB, MADW).
inline bool registerAlu(const Program& p, const DInst& d) {
  if (!aluInst(p, d) || !d.noMask || d.predId || d.dst2 || d.hiOff || d.dst.kind != DOperand::Kind::Reg || d.modeRounds)
    return false;
  for (const DOperand& o : d.src)
    if (o.kind != DOperand::Kind::Imm && o.kind != DOperand::Kind::None && o.kind != DOperand::Kind::Reg) return false;
  return true;
}

// f(lo, hi) for byte ranges that together are the bytes of the exec elements of
// register operand o: one range for a contiguous or broadcast operand, else one per element.
template <class F>
void eachElement(const DOperand& o, unsigned exec, F f) {
  const unsigned size = typeSize(o.type);
  if (exec && o.shape == DOperand::Shape::Contig) return f(o.off[0], uint64_t{o.off[0]} + uint64_t{exec} * size);
  if (exec && o.shape == DOperand::Shape::Bcast) return f(o.off[0], uint64_t{o.off[0]} + size);
  for (unsigned k = 0; k < exec; ++k) f(o.off[k], uint64_t{o.off[k]} + size);
}

// eachElement of an ALU destination, and of MADW's high halves (DInst::hiOff) after it.
template <class F>
void eachDstElement(const DInst& d, F f) {
  eachElement(d.dst, d.exec, f);
  if (d.hiOff) eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) { f(lo + d.hiOff, hi + d.hiOff); });
}

// Sets the flags m[lo, hi) to v; bytes past m are left out.
inline void setFlags(std::vector<uint8_t>& m, uint64_t lo, uint64_t hi, uint8_t v) {
  const uint64_t end = std::min<uint64_t>(hi, m.size());
  if (lo < end) std::fill(m.begin() + static_cast<ptrdiff_t>(lo), m.begin() + static_cast<ptrdiff_t>(end), v);
}

// f(lo, hi) for the register bytes [lo, hi) instruction d may write: an ALU
// destination's elements exactly (both of ADDC's and SUBB's, MADW's high
// halves too), else regWrites.
template <class F>
void eachWrite(const Program& p, const DInst& d, F f) {
  if (!d.fn) return f(0, p.regBytes);  // (not decoded: anything)
  if (d.viaRef) {  // each operand's bytes (decodeViaRef)
    for (unsigned w = 0; w < d.numRawWrites; ++w) f(d.rawWrites[w].lo, d.rawWrites[w].hi);
    return;
  }
  if (aluInst(p, d)) {
    if (d.dst.kind == DOperand::Kind::Reg) eachDstElement(d, f);
    if (d.dst2 && d.src[2].kind == DOperand::Kind::Reg) eachElement(d.src[2], d.exec, f);
    return;
  }
  const ByteRange w = regWrites(d);
  if (w.hi > w.lo) f(w.lo, w.hi);
}

// f(lo, hi) for the register bytes [lo, hi) whose values instruction d may
// read: an ALU source's elements; a memory instruction's scalar global offset
// and raw operands (DInst::rawReads). Control instructions read predicates only.
template <class F>
void eachRead(const Program& p, const DInst& d, F f) {
  if (!d.fn) return f(0, p.regBytes);  // (not decoded: anything)
  if (d.viaRef) {  // each operand's bytes (decodeViaRef)
    for (unsigned r = 0; r < d.numRawReads; ++r) f(d.rawReads[r].lo, d.rawReads[r].hi);
    return;
  }
  if (aluInst(p, d)) {
    for (unsigned s = 0; s < (d.dst2 ? 2u : 3u); ++s)
      if (d.src[s].kind == DOperand::Kind::Reg) eachElement(d.src[s], d.exec, f);
    if (d.modeRounds) f(d.cr0Off, uint64_t{d.cr0Off} + 4);  // (%cr0's rounding mode, E32)
    return;
  }
  if (d.control || d.row->has(kNoExec)) return;
  if (d.goff.kind == DOperand::Kind::Reg) f(d.goff.off[0], uint64_t{d.goff.off[0]} + 4);
  for (unsigned r = 0; r < d.numRawReads; ++r) f(d.rawReads[r].lo, d.rawReads[r].hi);
}

// f(lo, hi) for the register bytes [lo, hi) instruction d writes whole when
// it runs at the start of a thread, before any control instruction (the
// execution mask is the dispatch mask): an unpredicated ALU destination, or a
// load's raw destinations with every lane on (a load writes each enabled
// channel, zero out of bounds, E2: GATHER_SCALED.md). None for an instruction
// run through its semantics.
template <class F>
void eachWholeWrite(const Program& p, const DInst& d, uint32_t dispatchMask, F f) {
  const uint32_t lanes = execMaskBits(d.exec);
  if (!d.fn || d.viaRef || d.predId || (!d.noMask && ((dispatchMask >> d.maskOff) & lanes) != lanes)) return;
  if (aluInst(p, d) && d.dst.kind == DOperand::Kind::Reg) return eachDstElement(d, f);
  if (d.row->has(kMayLoad) && !d.row->has(kAtomic))
    for (unsigned w = 0; w < d.numRawWrites; ++w) f(d.rawWrites[w].lo, d.rawWrites[w].hi);
}

// A thread state to run instructions on at decode or launch: the register
// file holds `image` (zero past it), every lane is on.
inline std::unique_ptr<Ctx> scratchCtx(const Program& p, const std::vector<uint8_t>& image) {
  auto c = std::make_unique<Ctx>();
  c->prog = &p;
  startState(c->t, p, image);
  c->t.em = 0xffffffffu;
  return c;
}



}  // namespace visakit::sim::plan
