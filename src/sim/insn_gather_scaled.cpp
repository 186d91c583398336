// GATHER_SCALED (0x78), seed page GATHER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) dst[i] = surface[offset + element_offset[i]];  // <num_blocks> bytes
#include "sim/ctx.hpp"

namespace visakit::sim {
namespace {

template <class T>
bool gatherFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T>(s, en, addr)) return false;
  forEachLane(en, [&](unsigned i) { c.setReg<uint32_t>(d.raw[1] + 4 * i, atomicLoad<T>(s.data + addr[i])); });
  c.spaceBytes[s.statIndex][0] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

void execGatherScaled(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  Space& s = c.spaces[d.surface];
  uint32_t addr[32];
  // "The first Exec_size elements of the operand will be used as the byte
  // offsets": read them all before the destination (which may overlap) is written.
  laneAddresses(c, d, en, addr);
  if (!c.observer) {
    if (d.numBlocks == 4 ? gatherFast<uint32_t>(c, d, s, en, addr)
        : d.numBlocks == 2 ? gatherFast<uint16_t>(c, d, s, en, addr)
        : d.numBlocks == 1 && gatherFast<uint8_t>(c, d, s, en, addr))
      return;
  }
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
