// GATHER_SCALED (0x78), seed page GATHER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) dst[i] = surface[offset + element_offset[i]];  // <num_blocks> bytes
#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

void execGatherScaled(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += static_cast<unsigned>(std::popcount(en));
  if (!en) return;
  Space& s = c.spaces[d.surface];
  const uint32_t g = scalarUD(c, d.goff);
  uint32_t addr[32];
  // "The first Exec_size elements of the operand will be used as the byte
  // offsets": read them all before the destination (which may overlap) is written.
  forEachLane(en, [&](unsigned i) { addr[i] = g + c.reg<uint32_t>(d.raw[0] + 4 * i); });  // E4: mod 2^32
  c.beginAccesses(d, d.surface, &s);
  forEachLane(en, [&](unsigned i) {
    // 1, 2 or 4 bytes, unaligned allowed; out of bounds reads zero (E2); the
    // upper bytes of a 1- or 2-byte read are zero (E1).
    uint64_t v = c.read(s, addr[i], d.numBlocks, i);
    c.setReg<uint32_t>(d.raw[1] + 4 * i, static_cast<uint32_t>(v));
  });
  c.endAccesses();
  // Disabled channels keep their old destination values (E9).
}

}  // namespace

void decodeGatherScaled(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Element_offset", "Dst"});
  d.fn = execGatherScaled;
}

}  // namespace visakit::sim
