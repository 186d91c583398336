// The seed memory instructions, each as its page's pseudo-code: GATHER_SCALED,
// SCATTER_SCALED, SCATTER4_SCALED, QW_SCATTER, URB_WRITE.
#include <algorithm>
#include <array>

#include "sim/sem/sem.hpp"

namespace visakit::sim {
namespace {

// The scalar UD global offset ("Offset(scalar) ... Must have type UD"):
// element 0 of the variable, or the immediate (chapter 5 "Scalar Operands").
uint32_t globalOffset(const Exec& e) { return static_cast<uint32_t>(e.bits(e.field("Offset"), 0)); }

uint32_t surfaceId(const Exec& e) { return e.op(e.field("Surface")).id; }

// GATHER_SCALED page:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) dst[i] = surface[offset + element_offset[i]];  // <num_blocks> bytes
// The address wraps mod 2^32 (E4); out of bounds reads zero (E2); the upper
// bytes of a 1- or 2-byte read are zero (E1); disabled lanes keep their old
// destination (E9). Every offset is read before the destination (which may
// overlap them) is written.
void gatherScaled(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  uint32_t id = surfaceId(e);
  Space& s = e.boundSurface(id);  // a MOVS state selects through the binding table
  const unsigned nb = 1u << (e.value(e.field("Num_blocks")) & 3);
  const int offs = e.field("Element_offset"), dst = e.field("Dst");
  const uint32_t g = globalOffset(e);
  std::array<uint32_t, 32> addr{};
  for (unsigned i = 0; i < e.exec(); ++i) addr[i] = g + e.rawU32(offs, i);
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) e.setRawU32(dst, i, static_cast<uint32_t>(e.load(s, id, addr[i], nb, i)));
  e.endAccesses();
}

// SCATTER_SCALED page:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) surface[offset + element_offset[i]] = src[i];  // <num_blocks> low bytes
// A later lane's write wins (E3).
void scatterScaled(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  uint32_t id = surfaceId(e);
  Space& s = e.boundSurface(id);  // a MOVS state selects through the binding table
  const unsigned nb = 1u << (e.value(e.field("Num_blocks")) & 3);
  const int offs = e.field("Element_offset"), src = e.field("Src");
  const uint32_t g = globalOffset(e);
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) e.store(s, id, uint32_t{g + e.rawU32(offs, i)}, nb, i, e.rawU32(src, i));
  e.endAccesses();
}

// SCATTER4_SCALED page:
//   ch_pos = 0;
//   for (c = 0; c < 4; ++c) if (ch_mask[c]) {
//     for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//       ch_start = ch_pos * max(exec_size, GRF_SIZE / 4);
//       surface[(address/4)+c] = src[ch_start+i];  // 4 bytes
//     }
//     ch_pos++;
//   }
// address = offset + element_offset[i] (mod 2^32, E4); the dword index
// address/4 truncates (E5) and does not wrap (E17).
void scatter4Scaled(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  uint32_t id = surfaceId(e);
  Space& s = e.boundSurface(id);  // a MOVS state selects through the binding table
  const unsigned mask = static_cast<unsigned>(e.value(e.field("Channels")) & 15);
  const unsigned stride = std::max<unsigned>(e.exec(), e.grfSize() / 4);
  const int offs = e.field("Element_offset"), src = e.field("Src");
  const uint32_t g = globalOffset(e);
  std::array<uint32_t, 32> addr{};
  for (unsigned i = 0; i < e.exec(); ++i) addr[i] = g + e.rawU32(offs, i);
  unsigned pos = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!((mask >> c) & 1)) continue;
    for (unsigned i = 0; i < e.exec(); ++i)
      if ((en >> i) & 1) e.store(s, id, (uint64_t{addr[i] / 4} + c) * 4, 4, i, e.rawU32(src, pos * stride + i));
    ++pos;
  }
  e.endAccesses();
}

// QW_SCATTER page:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i])
//     for (j = 0; j < num_blocks; ++j) Surface[Offset[i] + j] = src[j*exec_size+i];  // 8 bytes
// with the byte address Offset[i] + 8*j (E6), not wrapped (E17).
void qwScatter(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  uint32_t id = surfaceId(e);
  Space& s = e.boundSurface(id);  // a MOVS state selects through the binding table
  const unsigned nb = 1u << (e.value(e.field("Num_blocks")) & 3);
  const int offs = e.field("Offset"), src = e.field("Src");
  for (unsigned i = 0; i < e.exec(); ++i) {
    if (!((en >> i) & 1)) continue;
    const uint64_t base = e.rawU32(offs, i);
    for (unsigned j = 0; j < nb; ++j) e.store(s, id, base + 8 * j, 8, i, e.rawBits(src, 8 * (j * e.exec() + i), 8));
  }
  e.endAccesses();
}

// URB_WRITE page, addressing per E7: for each enabled vertex slot v,
// row = handle[v] + global_offset + per_slot_offset[v] (16-byte rows, "in
// 128-bit units"; 0 for %null), and for each output k < num_out whose
// channel-mask bit k is set (all for %null): URB dword row*4 + k =
// vertex_data dword k*(GRF/4) + v ("each GRF represents an output parameter,
// and each dword in the GRF stores the value of the corresponding vertex").
void urbWrite(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  Space& s = e.urb();
  const unsigned numOut = static_cast<unsigned>(e.value(e.field("Num_out")));
  const uint64_t goff = e.value(e.field("Global_offset"));
  const int mask = e.field("Channel_mask"), handle = e.field("URB_handle"), pso = e.field("Per_slot_offset"),
            data = e.field("Vertex_data");
  for (unsigned v = 0; v < e.exec(); ++v) {
    if (!((en >> v) & 1)) continue;
    const uint64_t row = uint64_t{e.rawU32(handle, v)} + goff + (e.rawNull(pso) ? 0 : e.rawU32(pso, v));
    const unsigned cm = e.rawNull(mask) ? 0xff : e.rawU32(mask, v) & 0xff;
    for (unsigned k = 0; k < numOut; ++k)
      if ((cm >> k) & 1) e.store(s, kUrbSpace, (row * 4 + k) * 4, 4, v, e.rawU32(data, k * (e.grfSize() / 4) + v));
  }
  e.endAccesses();
}

constexpr SemEntry kMemory[] = {
    {Opcode::GATHER_SCALED, -1, gatherScaled},
    {Opcode::SCATTER_SCALED, -1, scatterScaled},
    {Opcode::SCATTER4_SCALED, -1, scatter4Scaled},
    {Opcode::QW_SCATTER, -1, qwScatter},
    {Opcode::URB_WRITE, -1, urbWrite},
};

}  // namespace

std::span<const SemEntry> memorySemantics() { return kMemory; }

}  // namespace visakit::sim
