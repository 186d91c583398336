// What GATHER_SCALED and SCATTER_SCALED share (their seed pages): ChEn, the
// observers (--check), then every lane on first, in a small frame, else the
// element loop of the instruction, H::lanes<N>. H supplies lanes<N> and
// moveDwords<N> (the data of all N dword lanes, a run or in-bounds lanes).
#pragma once

#include <cstring>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {

template <class H, bool Write>
struct ScaledAccess {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    if (!en) return;
    if constexpr (Obs) {
      if (en == execMaskBits(N) && quietRead<N>(c, d)) return;
      observeScaled<N>(c, d, en, Write);
    }
    if (en == execMaskBits(N)) return allOn<N>(c, d);
    H::template lanes<N>(c, d, en);
  }
  // Every lane on, no observer: the common cases first, in a small frame.
  template <unsigned N>
  [[gnu::always_inline]] static void allOn(Ctx& c, const DInst& d) {
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    if (const Dwords k = dwordLanes<N>(c, d, s, addr); k != Dwords::No) {
      if (k == Dwords::Dram) return dramLanes<N>(c, d, s, addr);
      if (!Write && k == Dwords::Run && s.dram) prefetchStream(s, addr[0], 4 * N);
      moveAll<N>(c, d, s, k, addr);
      if (d.numAhead) prefetchAheadOutOfLine(c, d);  // (a run or lanes off DRAM never yield)
      return;
    }
    H::template lanes<N>(c, d, execMaskBits(N));
  }
  // The data of all N dword lanes (a run or in-bounds lanes), counted.
  template <unsigned N>
  [[gnu::always_inline]] static void moveAll(Ctx& c, const DInst& d, Space& s, Dwords k, const uint32_t* addr) {
    H::template moveDwords<N>(s, k, addr, c.t.regs.data() + d.raw[1]);
    c.lanes += N;
    c.spaceBytes[s.statIndex][kStatWrite] += 4 * N;
  }
  // --check, every lane on, a read of a space without a race shadow: when the
  // data path's own test finds every lane in bounds and aligned (a run or
  // in-bounds lanes), no checker has anything to report (observeLanes), so the
  // instruction runs unobserved (true). False: nothing done yet.
  template <unsigned N>
  [[gnu::always_inline]] static bool quietRead(Ctx& c, const DInst& d) {
    if constexpr (Write) {
      return false;
    } else {
      Space& s = c.spaces[d.surface];
      if (s.shadow) return false;
      uint32_t addr[N];
      const Dwords k = dwordLanes<N>(c, d, s, addr);
      if (k != Dwords::Run && k != Dwords::Lanes) return false;
      moveAll<N>(c, d, s, k, addr);
      return true;
    }
  }
  // Every lane on, dwords scattered over a DRAM surface: yield once with their
  // lines prefetched (deferScattered), then, in bounds and aligned, the lanes'
  // tight loop; else the element loop, which must not yield a second time.
  template <unsigned N>
  [[gnu::noinline]] static void dramLanes(Ctx& c, const DInst& d, Space& s, const uint32_t* addr) {
    const bool resumed = c.t.resumed;
    if (deferScattered<N>(c, d, s, addr, Write)) return;  // runs again later, its lines cached
    if (!resumed) prefetchAhead(c, d);
    if (dwordLanesFit<N>(s, addr)) return moveAll<N>(c, d, s, Dwords::Lanes, addr);
    c.t.resumed = true;  // decided above: lanes() neither yields nor prefetches ahead
    H::template lanes<N>(c, d, execMaskBits(N));
  }
  template <unsigned N>
  static void allOnBody(Ctx& c, const DInst& d) {
    allOn<N>(c, d);
  }
  template <unsigned N>
  static void allOnChecked(Ctx& c, const DInst& d) {
    if (quietRead<N>(c, d)) return;
    observeScaled<N>(c, d, execMaskBits(N), Write);
    allOn<N>(c, d);
  }
  // mergedRun: `bytes` of consecutive dwords at `at` from or to the registers.
  static constexpr int kStatWrite = Write ? 1 : 0;
  static void copyRun(Space& s, uint64_t at, uint8_t* regs, uint64_t bytes) {
    if constexpr (Write) {
      if (s.plain) std::memcpy(s.data + at, regs, bytes);
      else atomicCopyOut<uint32_t>(s.data + at, regs, bytes);
    } else {
      if (s.plain) std::memcpy(regs, s.data + at, bytes);
      else atomicCopyIn<uint32_t>(s.data + at, regs, bytes);
    }
  }
};

// Every handler form of a ScaledAccess instruction: plain, observed, fused, merged.
template <class H>
void setScaledHandlers(DInst& d) {
  setMemoryHandlers<H>(d);
  d.fusedFn = fusedForExec<H>(d.exec);
  d.mergedFn = fusedForExec<H, Fused::Merged>(d.exec);
  d.checkedFusedFn = fusedForExec<H, Fused::Checked>(d.exec);
  d.allOnFn = fusedForExec<H, Fused::AllOn>(d.exec);
}

}  // namespace visakit::sim
