// Pass: runs (formRuns, inside fitToLaunch). Precondition: decoded and the
// launch's surfaces known (which are DRAM-sized, which race-shadowed under
// --check). Result: consecutive instructions with one fused form and the same
// channel enables run in one call (DInst::runLen, fusedRun); where their
// operands continue each other, as one merged run (mergedRun, mergedDense,
// mergedLanes), only where no instruction writes what a later one of the run
// reads first; the two SIMD16 halves of a SIMD32 ALU instruction as that
// instruction at exec_size 32 (halvesOfOne). Also: the observing
// handlers under --check, the prefetch lists kept for DRAM surfaces, and what
// the straight-line loop calls (stepFn).
#include "sim/fast/ctx.hpp"
#include "sim/fast/plan/plan.hpp"

namespace visakit::sim {
namespace {

// A run [i, j) of one dense ALU handler (alu.cpp, mergedDense) whose
// destination, src0 and a vector src1 each continue the instruction before by
// exec dwords, and whose scalar src1 is one immediate (a register could be
// written by an earlier instruction of the run).
bool mergeableDense(const Program& p, size_t i, size_t j) {
  const DInst& h = p.code[i];
  const uint32_t step = 4u * h.exec;
  const DOperand& hb = h.src[1];
  for (size_t k = i + 1; k < j; ++k) {
    const DInst& e = p.code[k];
    const uint32_t n = static_cast<uint32_t>(k - i) * step;
    if (e.dst.off[0] != h.dst.off[0] + n || e.src[0].off[0] != h.src[0].off[0] + n || e.src[1].kind != hb.kind ||
        e.src[1].load32 != hb.load32)
      return false;
    if (hb.kind == DOperand::Kind::None) continue;  // a one-source operation
    if (hb.load32 == DOperand::Load32::Imm) {
      if (e.src[1].imm32[0] != hb.imm32[0]) return false;
    } else if (hb.load32 != DOperand::Load32::Contig || e.src[1].off[0] != hb.off[0] + n) {
      return false;
    }
  }
  return true;
}

// The halves of a form that reads and writes each lane in place or writes a
// predicate alone (DInst::halvesInPlace: wideInPlace, wideSelInPlace,
// wideCmpDirect to a predicate on 64-bit lanes; uniformCmp): the same
// operation, types, modifiers, predicate (its bits of lanes 0-31 then; no .any
// or .all) and destination predicate; each region operand 16 qwords past the
// first half's; a source that is one value the same in both, a register one
// not written by the first half (the pair reads it once, first). Each half
// reads and writes each lane in place (pickWideDirect), so lanes 0-31 in
// order give the halves' results.
bool inPlaceHalves(const DInst& h, const DInst& e) {
  constexpr uint32_t step = 8 * 16;
  if (h.relop != e.relop || h.shiftMask != e.shiftMask || h.predId != e.predId || h.predInv != e.predInv ||
      h.predCtl != 0 || e.predCtl != 0 || h.dst.kind != e.dst.kind)
    return false;
  ByteRange written{};
  if (h.dst.kind == DOperand::Kind::Pred) {
    if (e.dst.predId != h.dst.predId) return false;
  } else {
    if (e.dst.type != h.dst.type || e.dst.off[0] != h.dst.off[0] + step) return false;
    written = ByteRange{h.dst.off[0], h.dst.off[0] + step};
  }
  for (unsigned s = 0; s < 2; ++s) {
    const DOperand &a = h.src[s], &b = e.src[s];
    if (a.kind != b.kind || a.type != b.type || a.mod != b.mod || oneValue(a) != oneValue(b)) return false;
    if (a.kind == DOperand::Kind::Imm) {
      if (a.imm != b.imm || a.imm64 != b.imm64) return false;
    } else if (a.kind == DOperand::Kind::Reg && oneValue(a)) {
      if (b.off[0] != a.off[0] || written.meets(ByteRange{a.off[0], a.off[0] + typeSize(a.type)})) return false;
    } else if (a.kind == DOperand::Kind::Reg && b.off[0] != a.off[0] + step) {
      return false;
    }
  }
  return true;
}

// Instructions i and i + 1 as the halves of one SIMD32 ALU instruction (IGC's
// SIMD32 code: lanes 0-15, then 16-31 of variables declared one after the
// other): one handler (and one form without %cr0's mode, E32) with a 32-lane
// form (DInst::halvesFn), exec_size 16 at mask offsets 0 and 16, the same
// NoMask. A dense handler's: no predicate, operands that continue each other
// (mergeableDense, so the second half reads nothing the first writes before
// it is read, as one loop over 32 lanes in order does). An in-place form's:
// inPlaceHalves.
bool halvesOfOne(const Program& p, size_t i) {
  if (i + 1 >= p.code.size()) return false;
  const DInst &h = p.code[i], &e = p.code[i + 1];
  if (!h.halvesFn || e.fn != h.fn || e.nearFn != h.nearFn || h.exec != 16 || e.exec != 16 || h.maskOff != 0 ||
      e.maskOff != 16 || h.noMask != e.noMask)
    return false;
  if (h.halvesInPlace) return inPlaceHalves(h, e);
  return !h.predId && !e.predId && mergeableDense(p, i, i + 2);
}

// A run [i, j) of GATHER_SCALED.4 with lane addresses (ctx.hpp, mergedLanes):
// Element_offset and destination continue each other by exec dwords, one
// surface and scalar offset; no destination meets a later instruction's
// offsets or the scalar offset (they are all read first).
bool mergeableLanes(const Program& p, size_t i, size_t j) {
  const DInst& h = p.code[i];
  if (h.addrMask != 0xffffffffu) return false;
  const uint32_t step = 4u * h.exec;
  const ByteRange offs{h.raw[0], h.raw[0] + static_cast<uint32_t>(j - i) * step};
  for (size_t k = i; k < j; ++k) {
    const DInst& e = p.code[k];
    const uint32_t n = static_cast<uint32_t>(k - i) * step;
    if (e.offRun || e.numBlocks != 4 || e.addrMask != h.addrMask || e.surface != h.surface || e.goff.kind != h.goff.kind ||
        e.goff.off[0] != h.goff.off[0] || e.goff.imm[0] != h.goff.imm[0] || e.raw[0] != h.raw[0] + n ||
        e.raw[1] != h.raw[1] + n)
      return false;
    const ByteRange dst{e.raw[1], e.raw[1] + step};
    if (e.raw[1] != e.raw[0] && dst.meets(offs)) return false;  // (in place, each reads its own lanes first)
    if (e.goff.kind == DOperand::Kind::Reg && dst.meets(ByteRange{e.goff.off[0], e.goff.off[0] + 4})) return false;
  }
  return true;
}

// A run [i, j) of GATHER/SCATTER_SCALED (same handler) that is one dword run
// (mergedRun): offsets known at decode and consecutive across the run, the raw
// operands consecutive, one surface and scalar offset (which no GATHER of the
// run writes), nothing to prefetch ahead. A dense ALU run: mergeableDense.
bool mergeable(const Program& p, size_t i, size_t j) {
  const DInst& h = p.code[i];
  if (h.addrKind == DInst::AddrKind::None) return mergeableDense(p, i, j);
  if (h.addrMask != 0xffffffffu) return false;
  const uint32_t step = 4u * h.exec;
  for (size_t k = i; k < j; ++k) {
    const DInst& e = p.code[k];
    const uint32_t n = static_cast<uint32_t>(k - i);
    if (!e.offRun || e.numBlocks != 4 || e.addrMask != h.addrMask || e.numAhead || e.surface != h.surface || e.goff.kind != h.goff.kind ||
        e.goff.off[0] != h.goff.off[0] || e.goff.imm[0] != h.goff.imm[0] || e.offBase != h.offBase + n * step ||
        e.raw[1] != h.raw[1] + n * step)
      return false;
    if (!e.storeAccess && e.goff.kind == DOperand::Kind::Reg && e.goff.off[0] + 4 > e.raw[1] && e.goff.off[0] < e.raw[1] + step)
      return false;  // this GATHER writes the scalar offset the later ones read
  }
  return true;
}

// Runs of instructions one fusedRun does (DInst::runLen): consecutive
// instructions with a fused form, the same handler and the same channel-enable
// fields, none that can yield (on a DRAM surface, offsets not known consecutive).
// Within such a run, the longest stretches that are one dword run each become
// a mergedRun.
void formRuns(Program& p, const std::vector<Space>& spaces, bool check) {
  // (A DRAM access yields only when its lanes are scattered, never with offsets known consecutive.)
  auto fusable = [&](const DInst& e) {
    return e.fusedFn &&
           (e.addrKind == DInst::AddrKind::None || e.surface == kSurfSlm || !spaces[e.surface].dram || e.offRun);
  };
  auto sameEnables = [](const DInst& a, const DInst& b) {
    return a.exec == b.exec && a.noMask == b.noMask && a.maskOff == b.maskOff && a.predId == b.predId &&
           a.predCtl == b.predCtl && a.predInv == b.predInv;
  };
  for (size_t i = 0; i < p.code.size();) {
    DInst& h = p.code[i];
    if (halvesOfOne(p, i)) {  // (the handler at exec_size 32: ChEn of lanes 0-31 from mask offset 0)
      h.runLen = 2;
      h.fusedFn = h.halvesFn;
      i += 2;
      continue;
    }
    size_t j = i + 1;
    if (fusable(h))
      while (j < p.code.size() && j - i < 255 && p.code[j].fn == h.fn && sameEnables(p.code[j], h) && fusable(p.code[j])) ++j;
    // Split [i, j) into merged runs (the longest at each point) and fused runs between them.
    size_t f = i;  // start of the current fused run
    auto close = [&](size_t end) {
      if (end > f) p.code[f].runLen = static_cast<uint8_t>(end - f);
    };
    for (size_t k = i; k < j;) {
      size_t m = k + 1;
      Handler merged = p.code[k].mergedFn;
      if (merged && (!check || p.code[k].addrKind == DInst::AddrKind::None))
        while (m < j && mergeable(p, k, m + 1)) ++m;
      // (--check: only reads of a surface without a race shadow, which the kernel never writes)
      const uint32_t id = p.code[k].surface;
      if (m - k < 2 && p.code[k].lanesFn && (!check || (id != kSurfSlm && !spaces[id].shadow))) {
        merged = check ? p.code[k].checkedLanesFn : p.code[k].lanesFn;
        while (m < j && m - k < kMaxLanesRun && mergeableLanes(p, k, m + 1)) ++m;
      }
      if (m - k < 2) {
        ++k;
        continue;
      }
      close(k);
      p.code[k].runLen = static_cast<uint8_t>(m - k);
      p.code[k].fusedFn = merged;
      k = f = m;
    }
    close(j);
    i = j;
  }
}

// Fits the decoded program to the launch: with --check, the memory handlers
// (and their fused forms) that tell the observers; each DInst::ahead keeps only the instructions on
// DRAM surfaces (Space::dram; never SLM), none with --check.
}  // namespace

void fitToLaunch(Program& p, const std::vector<Space>& spaces, bool check) {
  for (DInst& d : p.code) {
    if (check && d.checkedFn) {
      d.fn = d.checkedFn;
      d.fusedFn = d.checkedFusedFn;
      d.allOnFn = nullptr;  // (its observers see every access)
    }
    unsigned n = 0;
    for (unsigned k = 0; k < d.numAhead; ++k) {
      DInst& e = p.code[d.ahead[k]];
      if (check || e.surface == kSurfSlm || !spaces[e.surface].dram) continue;
      d.ahead[n++] = d.ahead[k];
      e.coveredBy = d.index;  // (planPrefetch puts an instruction in one ahead list at most)
    }
    d.numAhead = static_cast<uint8_t>(n);
  }
  formRuns(p, spaces, check);
  // What the straight-line loop calls, and how far it moves on.
  for (size_t i = p.code.size(); i-- > 0;) {
    DInst& d = p.code[i];
    d.stepFn = d.runLen > 1 ? d.fusedFn : d.fn;
    d.advBytes = static_cast<uint32_t>(d.runLen * sizeof(DInst));
    if (i + d.runLen < p.code.size() && p.code[i + d.runLen].folded) d.advBytes += p.code[i + d.runLen].advBytes;
  }
}

}  // namespace visakit::sim
