// SCATTER_SCALED (0x79), seed page SCATTER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> bytes
#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

template <class T>
bool scatterFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T>(s, en, addr)) return false;
  // Lane order, so the highest lane wins (E3).
  forEachLane(en, [&](unsigned i) { atomicStore<T>(s.data + addr[i], static_cast<T>(c.reg<uint32_t>(d.raw[1] + 4 * i))); });
  c.spaceBytes[s.statIndex][1] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

void execScatterScaled(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  Space& s = c.spaces[d.surface];
  uint32_t addr[32];
  laneAddresses(c, d, en, addr);  // unaligned allowed
  if (!c.observer) {
    if (d.numBlocks == 4 ? scatterFast<uint32_t>(c, d, s, en, addr)
        : d.numBlocks == 2 ? scatterFast<uint16_t>(c, d, s, en, addr)
        : d.numBlocks == 1 && scatterFast<uint8_t>(c, d, s, en, addr))
      return;
  }
  c.beginAccesses(d, d.surface, &s);
  // Lanes in page loop order: when two lanes write one address the highest wins (E3).
  forEachLane(en, [&](unsigned i) {
    // "For 1 and 2 byte accesses the upper bytes will be ignored."
    uint32_t v = c.reg<uint32_t>(d.raw[1] + 4 * i);
    c.write(s, addr[i], d.numBlocks, i, v);  // out of bounds: dropped (E2)
  });
  c.endAccesses();
}

}  // namespace

void decodeScatterScaled(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  d.fn = execScatterScaled;
}

}  // namespace visakit::sim
