// SCATTER_SCALED (0x79), seed page SCATTER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> bytes
#include <cstring>

#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

template <class T, unsigned N>
bool scatterFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T, N>(s, en, addr)) return false;
  const uint8_t* src = c.t.regs.data() + d.raw[1];
  // Lane order, so the highest lane wins (E3).
  forEachLane(en, [&](unsigned i) {
    uint32_t v;
    std::memcpy(&v, src + 4 * i, 4);
    atomicStore<T>(s.data + addr[i], static_cast<T>(v));
  });
  c.spaceBytes[s.statIndex][1] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

struct Scatter {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    if constexpr (!Obs) {
      // The common case first, in a small frame: one run, nothing to prefetch ahead.
      Space& s = c.spaces[d.surface];
      if (uint64_t at; !d.numAhead && denseRun<N>(c, d, s, en, at)) {
        c.lanes += N;
        copyOut<uint32_t, N>(s, at, c.t.regs.data() + d.raw[1]);
        c.spaceBytes[s.statIndex][1] += 4 * N;
        return;
      }
    }
    lanes<N, Obs>(c, d, en);
  }
  template <unsigned N, bool Obs>
  [[gnu::noinline]] static void lanes(Ctx& c, const DInst& d, uint32_t en) {
    if (!en) return;
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    laneAddresses<N>(c, d, addr);  // unaligned allowed
    if (!startScaled<N, Obs>(c, d, s, en, addr, true)) return;
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
}

}  // namespace visakit::sim
