// SCATTER_SCALED (0x79), seed page SCATTER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> bytes
#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

void execScatterScaled(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += static_cast<unsigned>(std::popcount(en));
  if (!en) return;
  Space& s = c.spaces[d.surface];
  const uint32_t g = scalarUD(c, d.goff);
  c.beginAccesses(d, d.surface, &s);
  // Lanes in page loop order: when two lanes write one address the highest wins (E3).
  forEachLane(en, [&](unsigned i) {
    uint32_t addr = g + c.reg<uint32_t>(d.raw[0] + 4 * i);  // E4: mod 2^32, unaligned allowed
    // "For 1 and 2 byte accesses the upper bytes will be ignored."
    uint32_t v = c.reg<uint32_t>(d.raw[1] + 4 * i);
    c.write(s, addr, d.numBlocks, i, v);  // out of bounds: dropped (E2)
  });
  c.endAccesses();
}

}  // namespace

void decodeScatterScaled(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  d.fn = execScatterScaled;
}

}  // namespace visakit::sim
