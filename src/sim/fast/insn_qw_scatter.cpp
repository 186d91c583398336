// QW_SCATTER (0x87), seed page QW_SCATTER.md:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i])
//     for (j = 0; j < num_blocks; ++j) Surface[Offset[i] + j] = src[j*exec_size+i];  // 8 bytes
// with the byte address Offset[i] + 8*j (E6).
#include <algorithm>
#include <cstring>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

struct QwScatter {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    if (!en) return;
    if (!Obs && en == execMaskBits(N) && allOnOneBlock<N>(c, d)) return;
    lanes<N, Obs>(c, d, en);
  }
  // No observer, every lane on, one qword each, off DRAM (nothing yields), and
  // every lane in bounds and aligned unless the space is plain (E2): the stores
  // in lane order (E3), in a small frame. False: nothing done.
  template <unsigned N>
  [[gnu::always_inline]] static bool allOnOneBlock(Ctx& c, const DInst& d) {
    Space& s = c.spaces[d.surface];
    if (d.numBlocks != 1 || s.dram || s.size < 8) return false;
    const uint8_t* regs = c.t.regs.data();
    uint32_t base[N];
    copyFixed<sizeof base>(base, regs + d.raw[0]);
    if (!allAtMost<N>(base, static_cast<uint32_t>(std::min<uint64_t>(s.size - 8, 0xffffffffu)), s.plain ? 0 : 7))
      return false;
    if (d.numAhead) prefetchAheadOutOfLine(c, d);
    storeAllLanes<N>(s, base, regs + d.raw[1]);
    c.lanes += N;
    c.spaceBytes[s.statIndex][1] += 8 * N;
    return true;
  }
  // Every lane's qword at its offset, in bounds (and aligned unless the space
  // is plain), in lane order (E3). The surface shares no byte with the
  // registers, so no source changes under the stores.
  template <unsigned N>
  [[gnu::always_inline]] static void storeAllLanes(Space& s, const uint32_t* base, const uint8_t* src) {
    uint8_t* out = s.data;  // (read once: the stores below could alias Space for all g++ knows)
    if (s.plain) {
#pragma GCC unroll 8
      for (unsigned i = 0; i < N; ++i) std::memcpy(out + base[i], src + 8 * i, 8);
    } else {
      for (unsigned i = 0; i < N; ++i) atomicCopyOut<uint64_t>(out + base[i], src + 8 * i, 8);
    }
  }
  // Any other case: some lanes, several blocks, DRAM (may yield), out of bounds, observed.
  template <unsigned N, bool Obs>
  [[gnu::noinline]] static void lanes(Ctx& c, const DInst& d, uint32_t en) {
    Space& s = c.spaces[d.surface];
    const uint8_t* regs = c.t.regs.data();
    if constexpr (!Obs) {
      uint32_t base[N];
      copyFixed<sizeof base>(base, regs + d.raw[0]);
      const bool resumed = c.t.resumed;
      if (deferScattered<N>(c, d, s, base, true)) return;  // runs again later, its lines cached
      if (!resumed) prefetchAhead(c, d);
      c.lanes += laneCountOf<N>(en);
      // Fast path: every enabled lane's blocks in bounds (E2), and aligned unless the space is plain.
      const uint64_t bytes = 8u * d.numBlocks;
      const uint32_t align = s.plain ? 0 : 7;
      bool fast = s.size >= bytes;
      const uint32_t limit = static_cast<uint32_t>(std::min<uint64_t>(fast ? s.size - bytes : 0, 0xffffffffu));
      if (fast && en == execMaskBits(N)) {
        fast = allAtMost<N>(base, limit, align);
      } else if (fast) {
        forEachLane(en, [&](unsigned i) { fast = fast && base[i] <= limit && (base[i] & align) == 0; });
      }
      if (fast) {
        const uint8_t* src = regs + d.raw[1];
        const unsigned blocks = d.numBlocks;
        if (blocks == 1 && en == execMaskBits(N)) {
          storeAllLanes<N>(s, base, src);  // (a DRAM surface: the case allOnOneBlock leaves)
        } else {
          forEachLane(en, [&](unsigned i) {
            for (unsigned j = 0; j < blocks; ++j) copyOut<uint64_t, 1>(s, uint64_t{base[i]} + 8 * j, src + 8 * (j * N + i));
          });
        }
        c.spaceBytes[s.statIndex][1] += uint64_t{laneCountOf<N>(en)} * bytes;
        return;
      }
    } else {
      c.lanes += laneCountOf<N>(en);
    }
    c.beginAccesses(d, d.surface, &s);
    forEachLane(en, [&](unsigned i) {
      uint64_t base = c.reg<uint32_t>(d.raw[0] + 4 * i);  // "byte offsets ... Must have type UD"
      for (unsigned j = 0; j < d.numBlocks; ++j) {
        uint64_t v = c.reg<uint64_t>(d.raw[1] + 8 * (j * N + i));
        c.write(s, base + 8 * j, 8, i, v);  // out of bounds: dropped (E2); later writes win (E3)
      }
    });
    c.endAccesses();
  }
};

}  // namespace

void decodeQwScatter(const Program& p, const Instruction& inst, DInst& d) {
  d.addrKind = DInst::AddrKind::Qw;  // (planPrefetch: how its lane addresses are formed)
  decodeMemory(p, inst, d, {"Offset", "Src"});
  setMemoryHandlers<QwScatter>(d);
}

}  // namespace visakit::sim
