// SCATTER_SCALED (0x79), seed page SCATTER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> bytes
#include <cstring>

#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

// The enabled lanes' elements (the low bytes of dword i of src) to base + addr[i],
// in lane order, so the highest lane wins (E3).
template <class T, unsigned N>
void scatterLanes(uint8_t* base, const uint32_t* addr, const uint8_t* src, uint32_t en) {
  auto one = [&](unsigned i) {
    uint32_t v;
    std::memcpy(&v, src + 4 * i, 4);
    atomicStore<T>(base + addr[i], static_cast<T>(v));
  };
  if (en == execMaskBits(N)) {
    for (unsigned i = 0; i < N; ++i) one(i);
  } else {
    forEachLane(en, one);
  }
}

template <class T, unsigned N>
bool scatterFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T, N>(s, en, addr)) return false;
  scatterLanes<T, N>(s.data, addr, c.t.regs.data() + d.raw[1], en);
  c.spaceBytes[s.statIndex][1] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

struct Scatter {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    if (!en) return;
    if constexpr (Obs) observeScaled<N>(c, d, en, true);
    if (en == execMaskBits(N)) return allOn<N>(c, d);
    lanes<N>(c, d, en);
  }
  // Every lane on, no observer: the common cases first, in a small frame.
  template <unsigned N>
  [[gnu::always_inline]] static void allOn(Ctx& c, const DInst& d) {
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    if (const Dwords k = dwordLanes<N>(c, d, s, addr); k != Dwords::No) {
      const uint8_t* src = c.t.regs.data() + d.raw[1];
      if (k == Dwords::Run) copyOut<uint32_t, N>(s, addr[0], src);
      else scatterLanes<uint32_t, N>(s.data, addr, src, execMaskBits(N));
      c.lanes += N;
      c.spaceBytes[s.statIndex][1] += 4 * N;
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
    observeScaled<N>(c, d, execMaskBits(N), true);
    allOn<N>(c, d);
  }
  static constexpr int kStatWrite = 1;
  static void copyRun(Space& s, uint64_t at, const uint8_t* regs, uint64_t bytes) {
    if (s.plain) std::memcpy(s.data + at, regs, bytes);
    else atomicCopyOut<uint32_t>(s.data + at, regs, bytes);
  }
  template <unsigned N>
  [[gnu::noinline]] static void lanes(Ctx& c, const DInst& d, uint32_t en) {
    if (!en) return;
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    laneAddresses<N>(c, d, addr);  // unaligned allowed
    if (!startScaled<N>(c, d, s, en, addr, true)) return;
    if (dwordRun<N>(d, s, en, addr)) {
      copyOut<uint32_t, N>(s, addr[0], c.t.regs.data() + d.raw[1]);
      c.spaceBytes[s.statIndex][1] += 4 * N;
      return;
    }
    if (d.numBlocks == 4 ? scatterFast<uint32_t, N>(c, d, s, en, addr)
        : d.numBlocks == 2 ? scatterFast<uint16_t, N>(c, d, s, en, addr)
        : d.numBlocks == 1 && scatterFast<uint8_t, N>(c, d, s, en, addr))
      return;
    // Lanes in page loop order: when two lanes write one address the highest wins (E3).
    forEachLane(en, [&](unsigned i) {
      // "For 1 and 2 byte accesses the upper bytes will be ignored."
      uint32_t v = c.reg<uint32_t>(d.raw[1] + 4 * i);
      c.write<false>(s, addr[i], d.numBlocks, i, v);  // out of bounds: dropped (E2)
    });
  }
};

}  // namespace

void decodeScatterScaled(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  setMemoryHandlers<Scatter>(d);
  d.fusedFn = fusedForExec<Scatter>(d.exec);
  d.mergedFn = fusedForExec<Scatter, Fused::Merged>(d.exec);
  d.checkedFusedFn = fusedForExec<Scatter, Fused::Checked>(d.exec);
}

}  // namespace visakit::sim
