// SCATTER4_SCALED (0x75), seed page SCATTER4_SCALED.md:
//   ch_pos = 0;
//   for (c = 0; c < 4; ++c) if (ch_mask[c]) {
//     for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//       ch_start = ch_pos * max(exec_size, GRF_SIZE / 4);
//       surface[(address/4)+c] = src[ch_start+i];  // 4 bytes
//     }
//     ch_pos++;
//   }
#include <algorithm>
#include <cstring>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

struct Scatter4 {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    uint32_t en = chEnOf<N>(c, d);
    c.lanes += laneCountOf<N>(en);
    if (!en) return;
    Space& s = c.spaces[d.surface];
    const unsigned stride = std::max<unsigned>(d.exec, c.prog->grfSize / 4);
    uint32_t addr[N];
    laneAddresses<N>(c, d, addr);
    if (const unsigned chs = d.chMask & 15; !Obs && chs) {
      prefetchAhead(c, d);
      // Fast path (no observer): one bounds check on the largest dword index.
      uint32_t dw[N];
      for (unsigned i = 0; i < N; ++i) dw[i] = addr[i] / 4;
      const unsigned top = 31 - static_cast<unsigned>(std::countl_zero(chs));
      const uint8_t* src = c.t.regs.data() + d.raw[1];
      if (const unsigned k = chs == 15 ? 4 : chs == 3 ? 2 : 0;
          k && en == execMaskBits(N) && contiguous<N>(dw, k) && runFast(s, uint64_t{dw[0]} * 4, 4 * k * N, 4)) {
        // All four channels (or R and G) of consecutive pixels: one run of k x
        // exec dwords, pixel i's channel ch from channel plane ch (a transpose;
        // no two writes meet).
        uint8_t px[16 * N];
        uint8_t* out = s.plain ? s.data + uint64_t{dw[0]} * 4 : px;
        if (k == 4) interleave4<N>(out, src, stride);
        else interleave2<N>(out, src, stride);
        if (!s.plain) atomicCopyOut<uint32_t>(s.data + uint64_t{dw[0]} * 4, px, 4 * k * N);
        c.spaceBytes[s.statIndex][1] += 4 * k * N;
        return;
      }
      uint32_t hi = 0;
      forEachLane(en, [&](unsigned i) { hi = std::max(hi, dw[i]); });
      if (const auto step = static_cast<int32_t>(dw[N > 1 ? 1 : 0] - dw[0]);
          chs == 15 && en == execMaskBits(N) && (step >= 4 || step <= -4) && contiguous<N>(dw, static_cast<uint32_t>(step)) &&
          (uint64_t{hi} + 3) * 4 + 4 <= s.size) {
        // All four channels of pixels at least 16 bytes apart, in bounds: each
        // pixel's 16 bytes at once (no two pixels meet, so the order is not seen).
        scatterPixels4<N>(src, stride, [&](unsigned i, const uint8_t* p) {
          if (s.plain) std::memcpy(s.data + uint64_t{dw[i]} * 4, p, 16);
          else atomicCopyOut<uint32_t>(s.data + uint64_t{dw[i]} * 4, p, 16);
        });
        c.spaceBytes[s.statIndex][1] += 16 * N;
        return;
      }
      if ((uint64_t{hi} + top) * 4 + 4 <= s.size) {
        unsigned pos = 0;
        for (unsigned ch = 0; ch <= top; ++ch) {
          if (!((chs >> ch) & 1)) continue;
          forEachLane(en, [&](unsigned i) {
            atomicStore<uint32_t>(s.data + (uint64_t{dw[i]} + ch) * 4, c.reg<uint32_t>(d.raw[1] + 4 * (pos * stride + i)));
          });
          ++pos;
        }
        c.spaceBytes[s.statIndex][1] += uint64_t{laneCount(en)} * laneCount(chs) * 4;
        return;
      }
    }
    c.beginAccesses(d, d.surface, &s);
    unsigned pos = 0;
    for (unsigned ch = 0; ch < 4; ++ch) {
      if (!((d.chMask >> ch) & 1)) continue;
      forEachLane(en, [&](unsigned i) {
        // E5: dword index address/4 (truncation); the dword index itself does not wrap (E17).
        uint64_t byteAddr = (uint64_t{addr[i] / 4} + ch) * 4;
        uint32_t v = c.reg<uint32_t>(d.raw[1] + 4 * (pos * stride + i));
        c.write(s, byteAddr, 4, i, v);  // out of bounds: dropped (E2); later writes win (E3)
      });
      ++pos;
    }
    c.endAccesses();
  }
};

}  // namespace

void decodeScatter4Scaled(const Program& p, const Instruction& inst, DInst& d) {
  d.addrKind = DInst::AddrKind::Scaled;  // (planPrefetch: how its lane addresses are formed)
  decodeMemory(p, inst, d, {"Element_offset", "Src"});
  if ((d.chMask & 15) == 1) return decodeScatter4R(p, inst, d);  // (R alone: SCATTER_SCALED.4's executor)
  // (an enabled channel's plane is max(exec_size, GRF_SIZE / 4) dwords)
  setMemoryHandlers<Scatter4>(d);
}

}  // namespace visakit::sim
