// GATHER_SCALED (0x78), seed page GATHER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) dst[i] = surface[offset + element_offset[i]];  // <num_blocks> bytes
#include <cstring>

#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

template <class T, unsigned N>
bool gatherFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T, N>(s, en, addr)) return false;
  uint8_t* dst = c.t.regs.data() + d.raw[1];
  if (en == execMaskBits(N)) {
    gatherLanes<T, N>(s.data, addr, dst);
    c.spaceBytes[s.statIndex][0] += N * sizeof(T);
    return true;
  }
  forEachLane(en, [&](unsigned i) {
    uint32_t v = atomicLoad<T>(s.data + addr[i]);
    std::memcpy(dst + 4 * i, &v, 4);
  });
  c.spaceBytes[s.statIndex][0] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

struct Gather {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    if (!en) return;
    if constexpr (Obs) observeScaled<N>(c, d, en, false);
    if (en == execMaskBits(N)) return allOn<N>(c, d);
    lanes<N>(c, d, en);
  }
  // Every lane on, no observer: the common cases first, in a small frame.
  template <unsigned N>
  [[gnu::always_inline]] static void allOn(Ctx& c, const DInst& d) {
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    if (const Dwords k = dwordLanes<N>(c, d, s, addr); k != Dwords::No) {
      uint8_t* dst = c.t.regs.data() + d.raw[1];
      if (k == Dwords::Run) copyIn<uint32_t, N>(s, addr[0], dst);
      else gatherLanes<uint32_t, N>(s.data, addr, dst);
      c.lanes += N;
      c.spaceBytes[s.statIndex][0] += 4 * N;
      if (d.numAhead) prefetchAheadOutOfLine(c, d);  // (a run or lanes off DRAM never yield)
      return;
    }
    lanes<N>(c, d, execMaskBits(N));
  }
  template <unsigned N>
  static void allOnBody(Ctx& c, const DInst& d) {
    allOn<N>(c, d);
  }
  template <unsigned N>
  static void allOnChecked(Ctx& c, const DInst& d) {
    observeScaled<N>(c, d, execMaskBits(N), false);
    allOn<N>(c, d);
  }
  static constexpr int kStatWrite = 0;
  static void copyRun(const Space& s, uint64_t at, uint8_t* regs, uint64_t bytes) {
    if (s.plain) std::memcpy(regs, s.data + at, bytes);
    else atomicCopyIn<uint32_t>(s.data + at, regs, bytes);
  }
  template <unsigned N>
  [[gnu::noinline]] static void lanes(Ctx& c, const DInst& d, uint32_t en) {
    if (!en) return;
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    // "The first Exec_size elements of the operand will be used as the byte
    // offsets": read them all before the destination (which may overlap) is written.
    laneAddresses<N>(c, d, addr);
    if (!startScaled<N>(c, d, s, en, addr, false)) return;
    if (dwordRun<N>(d, s, en, addr)) {
      copyIn<uint32_t, N>(s, addr[0], c.t.regs.data() + d.raw[1]);
      c.spaceBytes[s.statIndex][0] += 4 * N;
      return;
    }
    if (d.numBlocks == 4 ? gatherFast<uint32_t, N>(c, d, s, en, addr)
        : d.numBlocks == 2 ? gatherFast<uint16_t, N>(c, d, s, en, addr)
        : d.numBlocks == 1 && gatherFast<uint8_t, N>(c, d, s, en, addr))
      return;
    forEachLane(en, [&](unsigned i) {
      // 1, 2 or 4 bytes, unaligned allowed; out of bounds reads zero (E2); the
      // upper bytes of a 1- or 2-byte read are zero (E1).
      uint64_t v = c.read<false>(s, addr[i], d.numBlocks, i);
      c.setReg<uint32_t>(d.raw[1] + 4 * i, static_cast<uint32_t>(v));
    });
    // Disabled channels keep their old destination values (E9).
  }
};

}  // namespace

void decodeGatherScaled(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Element_offset", "Dst"});
  setMemoryHandlers<Gather>(d);
  d.fusedFn = fusedForExec<Gather>(d.exec);
  d.mergedFn = fusedForExec<Gather, Fused::Merged>(d.exec);
  d.checkedFusedFn = fusedForExec<Gather, Fused::Checked>(d.exec);
}

}  // namespace visakit::sim
