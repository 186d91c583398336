// URB_WRITE (0x72), seed page URB_WRITE.md, addressing per E7: for each
// enabled vertex slot v, row = handle[v] + global_offset + per_slot_offset[v]
// (16-byte rows, "in 128-bit units"; 0 for %null), and for each output
// k < num_out whose channel-mask bit k is set (all for %null): URB dword
// row*4 + k = vertex_data dword k*(GRF/4) + v ("each GRF represents an output
// parameter, and each dword in the GRF stores the value of the corresponding vertex").
#include <cstring>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

template <bool Obs>
void execUrbWrite(Ctx& c, const DInst& d) {
  uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  if (!en) return;
  Space& s = c.urb;
  const unsigned perGrf = c.prog->grfSize / 4;
  // raw: 0 Channel_mask, 1 URB_handle, 2 Per_slot_offset, 3 Vertex_data
  if (!Obs && d.exec <= 8) {
    // Fast path: every enabled vertex's rows in bounds (E2). The page allows exec 8 only.
    const uint8_t* regs = c.t.regs.data();
    uint32_t handle[8], pso[8] = {}, cmask[8];
    copyFixed<sizeof handle>(handle, regs + d.raw[1]);
    if (!d.rawNull[2]) copyFixed<sizeof pso>(pso, regs + d.raw[2]);
    if (!d.rawNull[0]) copyFixed<sizeof cmask>(cmask, regs + d.raw[0]);
    uint64_t row[8], hi = 0;
    for (unsigned v = 0; v < 8; ++v) {
      row[v] = uint64_t{handle[v]} + d.urbGlobal + pso[v];
      hi = (en >> v) & 1 && row[v] > hi ? row[v] : hi;
    }
    if ((hi * 4 + d.numOut) * 4 <= s.size) {
      const unsigned nOut = d.numOut;
      const uint32_t outs = (1u << nOut) - 1;
      const uint8_t* vd = regs + d.raw[3];
      uint64_t dwords = 0;
      forEachLane(en, [&](unsigned v) {
        const uint32_t mask = (d.rawNull[0] ? 0xff : cmask[v]) & outs;
        dwords += laneCount(mask);
        // Vertex v's outputs: dword k of its row from GRF k of Vertex_data.
        auto output = [&](unsigned k) {
          uint32_t x;
          std::memcpy(&x, vd + 4 * (k * perGrf + v), 4);
          return x;
        };
        uint8_t* dst = s.data + row[v] * 16;
        if (mask == outs && s.plain && nOut == 8) {  // two vector stores, built in registers
          store4(dst, output(0), output(1), output(2), output(3));
          store4(dst + 16, output(4), output(5), output(6), output(7));
          return;
        }
        uint32_t out[8];
        for (unsigned k = 0; k < nOut; ++k) out[k] = output(k);
        if (mask == outs && s.plain) {
          std::memcpy(dst, out, 4 * nOut);
          return;
        }
        forEachLane(mask, [&](unsigned k) { atomicStore<uint32_t>(dst + 4 * k, out[k]); });
      });
      c.spaceBytes[s.statIndex][1] += dwords * 4;
      return;
    }
  }
  c.beginAccesses(d, kUrbSpace, &s);
  forEachLane(en, [&](unsigned v) {
    uint64_t row = uint64_t{c.reg<uint32_t>(d.raw[1] + 4 * v)} + d.urbGlobal +
                   (d.rawNull[2] ? 0 : c.reg<uint32_t>(d.raw[2] + 4 * v));
    uint32_t mask = d.rawNull[0] ? 0xff : c.reg<uint32_t>(d.raw[0] + 4 * v) & 0xff;
    for (unsigned k = 0; k < d.numOut; ++k) {
      if (!((mask >> k) & 1)) continue;
      uint32_t val = c.reg<uint32_t>(d.raw[3] + 4 * (k * perGrf + v));
      c.write(s, (row * 4 + k) * 4, 4, v, val);  // out of bounds: dropped (E2)
    }
  });
  c.endAccesses();
}

}  // namespace

void decodeUrbWrite(const Program& p, const Instruction& inst, DInst& d) {
  decodeMemory(p, inst, d, {"Channel_mask", "URB_handle", "Per_slot_offset", "Vertex_data"});
  const InstrDesc& desc = *lookup(inst.op);
  d.numOut = static_cast<uint8_t>(inst.f[fieldIndex(desc, "Num_out")].value);
  // A dword per vertex slot, then Vertex_data: a GRF per output.
  d.urbGlobal = static_cast<uint32_t>(inst.f[fieldIndex(desc, "Global_offset")].value);
  d.fn = execUrbWrite<false>;
  d.checkedFn = execUrbWrite<true>;
}

}  // namespace visakit::sim
