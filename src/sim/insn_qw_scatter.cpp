// QW_SCATTER (0x87), seed page QW_SCATTER.md:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i])
//     for (j = 0; j < num_blocks; ++j) Surface[Offset[i] + j] = src[j*exec_size+i];  // 8 bytes
// with the byte address Offset[i] + 8*j (E6).
#include <cstring>

#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

template <bool Obs>
void execQwScatter(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  if (!en) return;
  Space& s = c.spaces[d.surface];
  const uint8_t* regs = c.t.regs.data();
  if constexpr (!Obs) {
    uint32_t base[32], hi = 0, any = 0;
    std::memcpy(base, regs + d.raw[0], sizeof base);
    const bool resumed = c.t.resumed;
    if (d.exec == 8 ? deferScattered<8>(c, d, s, base, true) : d.exec == 16 && deferScattered<16>(c, d, s, base, true))
      return;  // runs again later, its lines cached
    if (!resumed) prefetchAhead(c, d);
    c.lanes += laneCount(en);
    // Fast path: every enabled lane's blocks aligned and in bounds (E2).
    for (unsigned i = 0; i < 32; ++i) {
      uint32_t a = (en >> i) & 1 ? base[i] : 0;
      hi = a > hi ? a : hi;
      any |= a;
    }
    if ((s.plain || (any & 7) == 0) && uint64_t{hi} + 8u * d.numBlocks <= s.size) {
      forEachLane(en, [&](unsigned i) {
        for (unsigned j = 0; j < d.numBlocks; ++j)
          copyOut<uint64_t, 1>(s, uint64_t{base[i]} + 8 * j, regs + d.raw[1] + 8 * (j * d.exec + i));
      });
      c.spaceBytes[s.statIndex][1] += uint64_t{laneCount(en)} * 8 * d.numBlocks;
      return;
    }
  } else {
    c.lanes += laneCount(en);
  }
  c.beginAccesses(d, d.surface, &s);
  forEachLane(en, [&](unsigned i) {
    uint64_t base = c.reg<uint32_t>(d.raw[0] + 4 * i);  // "byte offsets ... Must have type UD"
    for (unsigned j = 0; j < d.numBlocks; ++j) {
      uint64_t v = c.reg<uint64_t>(d.raw[1] + 8 * (j * d.exec + i));
      c.write(s, base + 8 * j, 8, i, v);  // out of bounds: dropped (E2); later writes win (E3)
    }
  });
  c.endAccesses();
}

}  // namespace

void decodeQwScatter(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Offset", "Src"});
  d.fn = execQwScatter<false>;
  d.checkedFn = execQwScatter<true>;
}

}  // namespace visakit::sim
