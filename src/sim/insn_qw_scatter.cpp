// QW_SCATTER (0x87), seed page QW_SCATTER.md:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i])
//     for (j = 0; j < num_blocks; ++j) Surface[Offset[i] + j] = src[j*exec_size+i];  // 8 bytes
// with the byte address Offset[i] + 8*j (E6).
#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

void execQwScatter(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  Space& s = c.spaces[d.surface];
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
  d.fn = execQwScatter;
}

}  // namespace visakit::sim
