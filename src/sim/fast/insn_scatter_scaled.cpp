// SCATTER_SCALED (0x79), seed page SCATTER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> bytes
#include <cstring>

#include "sim/fast/scaled.hpp"

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

struct Scatter : ScaledAccess<Scatter, true> {
  template <unsigned N>
  static void moveDwords(Space& s, Dwords k, const uint32_t* addr, uint8_t* regs) {
    if (k == Dwords::Run) copyOut<uint32_t, N>(s, addr[0], regs);
    else scatterLanes<uint32_t, N>(s.data, addr, regs, execMaskBits(N));
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
  d.addrKind = DInst::AddrKind::Scaled;  // (planPrefetch: how its lane addresses are formed)
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  setScaledHandlers<Scatter>(d);
}

}  // namespace visakit::sim

namespace visakit::sim {

// SCATTER4_SCALED of the R channel alone (insn_scatter4_scaled.cpp): surface
// dword address/4 = src[i] (E5), SCATTER_SCALED.4 at the address with its low
// two bits cleared (DInst::addrMask).
void decodeScatter4R(const Program& p, const Instruction& inst, DInst& d) {
  d.addrKind = DInst::AddrKind::Scaled;
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  d.numBlocks = 4;
  d.addrMask = ~3u;
  setScaledHandlers<Scatter>(d);
}

}  // namespace visakit::sim
