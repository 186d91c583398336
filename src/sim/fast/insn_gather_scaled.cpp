// GATHER_SCALED (0x78), seed page GATHER_SCALED.md:
//   for (i = 0; i < exec_size; ++i)
//     if (ChEn[i]) dst[i] = surface[offset + element_offset[i]];  // <num_blocks> bytes
#include <algorithm>
#include <cstring>

#include "sim/fast/scaled.hpp"

namespace visakit::sim {
namespace {

template <class T, unsigned N>
bool gatherFast(Ctx& c, const DInst& d, Space& s, uint32_t en, const uint32_t* addr) {
  if (!lanesFast<T, N>(s, en, addr)) return false;
  uint8_t* dst = c.t.regs.data() + d.raw[1];
  if (en == execMaskBits(N)) {
    gatherLanes<T, N>(s.data, addr, dst);
    c.spaceBytes[s.statIndex][0] += N * sizeof(T);
    return true;
  }
  forEachLane(en, [&](unsigned i) {
    uint32_t v = atomicLoad<T>(s.data + addr[i]);
    std::memcpy(dst + 4 * i, &v, 4);
  });
  c.spaceBytes[s.statIndex][0] += uint64_t{laneCount(en)} * sizeof(T);
  return true;
}

struct Gather : ScaledAccess<Gather, false> {
  template <unsigned N>
  [[gnu::always_inline]] static void moveDwords(Space& s, Dwords k, const uint32_t* addr, uint8_t* regs) {
    if (k == Dwords::Run) copyIn<uint32_t, N>(s, addr[0], regs);
    else if (s.plain) gatherDwordsPlain<N>(s.data, addr, regs);
    else gatherLanes<uint32_t, N>(s.data, addr, regs);
  }
  template <unsigned N>
  [[gnu::noinline]] static void lanes(Ctx& c, const DInst& d, uint32_t en) {
    if (!en) return;
    Space& s = c.spaces[d.surface];
    uint32_t addr[N];
    // "The first Exec_size elements of the operand will be used as the byte
    // offsets": read them all before the destination (which may overlap) is written.
    laneAddresses<N>(c, d, addr);
    if (!startScaled<N>(c, d, s, en, addr, false)) return;
    if (dwordRun<N>(d, s, en, addr)) {
      copyIn<uint32_t, N>(s, addr[0], c.t.regs.data() + d.raw[1]);
      c.spaceBytes[s.statIndex][0] += 4 * N;
      return;
    }
    if (d.numBlocks == 4 ? gatherFast<uint32_t, N>(c, d, s, en, addr)
        : d.numBlocks == 2 ? gatherFast<uint16_t, N>(c, d, s, en, addr)
        : d.numBlocks == 1 && gatherFast<uint8_t, N>(c, d, s, en, addr))
      return;
    forEachLane(en, [&](unsigned i) {
      // 1, 2 or 4 bytes, unaligned allowed; out of bounds reads zero (E2); the
      // upper bytes of a 1- or 2-byte read are zero (E1).
      uint64_t v = c.read<false>(s, addr[i], d.numBlocks, i);
      c.setReg<uint32_t>(d.raw[1] + 4 * i, static_cast<uint32_t>(v));
    });
    // Disabled channels keep their old destination values (E9).
  }
};

}  // namespace

void decodeGatherScaled(const Program& p, const Instruction& inst, DInst& d) {
  d.addrKind = DInst::AddrKind::Scaled;  // (planPrefetch: how its lane addresses are formed)
  decodeMemory(p, inst, d, {"Element_offset", "Dst"});
  setScaledHandlers<Gather>(d);
  d.lanesFn = fusedForExec<Gather, Fused::Lanes>(d.exec);
  d.checkedLanesFn = fusedForExec<Gather, Fused::CheckedLanes>(d.exec);
}

}  // namespace visakit::sim

// GATHER4_SCALED (0x72), GATHER4_SCALED page (mem_legacy.cpp gather4Scaled):
//   for (c = 0; c < 4; ++c) if (ch_mask[c]) {
//     for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//       address = offset + element_offset[i];
//       dst[ch_pos * max(exec_size, GRF_SIZE / 4) + i] = surface[(address/4)+c];  // 4 bytes
//     }
//     ch_pos++;
//   }
// The R channel alone is GATHER_SCALED.4 at the address with its low two bits
// cleared (DInst::addrMask; E5): the same executor. Other channel masks here.
namespace visakit::sim {
namespace {

struct Gather4 {
  template <unsigned N, bool Obs>
  static void fn(Ctx& c, const DInst& d) {
    const uint32_t en = chEnOf<N>(c, d);
    c.lanes += laneCountOf<N>(en);
    if (!en) return;
    Space& s = c.spaces[d.surface];
    const unsigned stride = std::max<unsigned>(d.exec, c.prog->grfSize / 4);
    const unsigned chs = d.chMask & 15;
    uint32_t addr[N], dw[N];
    laneAddresses<N>(c, d, addr);  // (every offset read before a destination is written)
    for (unsigned i = 0; i < N; ++i) dw[i] = addr[i] / 4;  // E5; the dword index does not wrap (E17)
    uint8_t* dst = c.t.regs.data() + d.raw[1];
    if (!Obs) {
      // Every enabled lane's highest channel in bounds: the loads without a test each.
      const bool all = en == execMaskBits(N);
      uint32_t hi = 0;
      if (all) {
        for (unsigned i = 0; i < N; ++i) hi = std::max(hi, dw[i]);
      } else {
        forEachLane(en, [&](unsigned i) { hi = std::max(hi, dw[i]); });
      }
      const unsigned top = 31 - static_cast<unsigned>(std::countl_zero(chs));
      if ((uint64_t{hi} + top) * 4 + 4 <= s.size) {
        if (all && contiguous<N>(dw, 0)) {
          // Every lane at one pixel (a row of a tile every work-item reads):
          // each enabled channel's dword to every lane of its plane.
          unsigned pos = 0;
          for (unsigned ch = 0; ch <= top; ++ch) {
            if (!((chs >> ch) & 1)) continue;
            uint32_t plane[N];
            std::fill_n(plane, N, atomicLoad<uint32_t>(s.data + (uint64_t{dw[0]} + ch) * 4));
            std::memcpy(dst + 4 * pos * stride, plane, sizeof plane);
            ++pos;
          }
          c.spaceBytes[s.statIndex][0] += uint64_t{N} * pos * 4;
          return;
        }
        if (all && chs == 3 && contiguous<N>(dw, 2)) {
          // R and G of consecutive pixels: one run of 2 x exec dwords, pixel i's
          // channel ch to channel plane ch.
          uint8_t px[8 * N];
          const uint8_t* in = s.data + uint64_t{dw[0]} * 4;
          if (!s.plain) {
            atomicCopyIn<uint32_t>(in, px, sizeof px);
            in = px;
          }
          deinterleave2<N>(dst, in, stride);
          c.spaceBytes[s.statIndex][0] += 8 * N;
          return;
        }
        if (all && chs == 15) {
          // All four channels of every lane: each pixel's 16 bytes, transposed to the planes.
          if (s.plain) {
            gatherPixels4<N>(dst, stride, [&](unsigned i) { return s.data + uint64_t{dw[i]} * 4; });
          } else {
            uint8_t px[16 * N];
            for (unsigned i = 0; i < N; ++i) atomicCopyIn<uint32_t>(s.data + uint64_t{dw[i]} * 4, px + 16 * i, 16);
            gatherPixels4<N>(dst, stride, [&](unsigned i) { return static_cast<const uint8_t*>(px + 16 * i); });
          }
          c.spaceBytes[s.statIndex][0] += 16 * N;
          return;
        }
        unsigned pos = 0;
        for (unsigned ch = 0; ch <= top; ++ch) {
          if (!((chs >> ch) & 1)) continue;
          uint8_t* plane = dst + 4 * pos * stride;
          forEachLane(en, [&](unsigned i) {
            const uint32_t v = atomicLoad<uint32_t>(s.data + (uint64_t{dw[i]} + ch) * 4);
            std::memcpy(plane + 4 * i, &v, 4);
          });
          ++pos;
        }
        c.spaceBytes[s.statIndex][0] += uint64_t{laneCount(en)} * laneCount(chs) * 4;
        return;
      }
    }
    // Element by element (out of bounds reads zero, E2), observed as one batch;
    // all loads before any destination is written (M9).
    c.beginAccesses(d, d.surface, &s);
    uint32_t v[4 * N];
    unsigned pos = 0;
    for (unsigned ch = 0; ch < 4; ++ch) {
      if (!((chs >> ch) & 1)) continue;
      forEachLane(en, [&](unsigned i) {
        v[pos * N + i] = static_cast<uint32_t>(c.read<Obs>(s, (uint64_t{dw[i]} + ch) * 4, 4, i));
      });
      ++pos;
    }
    c.endAccesses();
    for (unsigned p = 0; p < pos; ++p)
      forEachLane(en, [&](unsigned i) { std::memcpy(dst + 4 * (p * stride + i), &v[p * N + i], 4); });
  }
};

}  // namespace

void decodeGather4Scaled(const Program& p, const Instruction& inst, DInst& d) {
  d.addrKind = DInst::AddrKind::Scaled;  // (planPrefetch: how its lane addresses are formed)
  decodeMemory(p, inst, d, {"Element_offset", "Dst"});
  if ((d.chMask & 15) == 1) {  // R: GATHER_SCALED.4 at address & ~3
    d.numBlocks = 4;
    d.addrMask = ~3u;
    setScaledHandlers<Gather>(d);
    return;
  }
  setMemoryHandlers<Gather4>(d);
}

}  // namespace visakit::sim
