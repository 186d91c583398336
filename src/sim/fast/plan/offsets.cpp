// Pass: static offsets (planStaticOffsets). Precondition: decoded. The
// kernel's straight-line start is run once on a scratch state, only its
// NoMask, unpredicated ALU instructions whose sources are immediates or bytes
// already known; bytes a later instruction writes are forgotten. Result:
// DInst::offRun where a scaled message's Element_offset holds consecutive
// dwords known here, so the fast form needs no per-lane test.
#include <algorithm>

#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"

namespace visakit::sim {

using namespace plan;

void planStaticOffsets(Program& p) {
  // Known register bytes and their values, by running the instructions of the
  // straight-line start that only read known bytes (the first label or control
  // instruction ends it: every later instruction is reached through all of it).
  auto c = scratchCtx(p, {});
  std::vector<uint8_t> known(p.regBytes, 0);
  auto allKnown = [&](uint64_t lo, uint64_t hi) {  // bytes [lo, hi)
    return hi <= known.size() && std::all_of(known.begin() + lo, known.begin() + hi, [](uint8_t k) { return k; });
  };
  uint64_t knownLo = known.size(), knownHi = 0;  // the known bytes lie in [knownLo, knownHi)
  auto forget = [&](uint64_t lo, uint64_t hi) {
    if (lo < knownHi && knownLo < hi) setFlags(known, std::max(lo, knownLo), std::min(hi, knownHi), 0);
  };
  auto forgetWrites = [&](const DInst& d) { eachWrite(p, d, forget); };
  auto evaluable = [&](const DInst& d) {
    if (!registerAlu(p, d)) return false;
    bool ok = true;
    for (const DOperand& o : d.src)
      if (o.kind == DOperand::Kind::Reg)
        eachElement(o, d.exec, [&](uint64_t lo, uint64_t hi) { ok = ok && allKnown(lo, hi); });
    eachElement(d.dst, d.exec, [&](uint64_t, uint64_t hi) { ok = ok && hi <= known.size(); });
    return ok;
  };
  // Element_offset of a scaled memory instruction: consecutive known dwords.
  auto staticRun = [&](DInst& d) {
    if (d.addrKind != DInst::AddrKind::Scaled || !allKnown(d.raw[0], d.raw[0] + 4u * d.exec)) return;
    uint32_t off[32];
    std::memcpy(off, c->t.regs.data() + d.raw[0], 4u * d.exec);
    for (unsigned i = 0; i < d.exec; ++i)
      if (off[i] != off[0] + 4 * i) return;
    d.offRun = true;
    d.offBase = off[0];
  };
  size_t i = 0;
  for (; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    if (d.control || d.join) break;
    staticRun(d);
    if (evaluable(d)) {
      d.fn(*c, d);
      eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) {
        setFlags(known, lo, hi, 1);
        knownLo = std::min(knownLo, lo);
        knownHi = std::max(knownHi, hi);
      });
    } else {
      forgetWrites(d);
    }
  }
  // After the start: known bytes no later instruction writes.
  for (size_t j = i; j < p.code.size(); ++j) forgetWrites(p.code[j]);
  for (size_t j = i; j < p.code.size(); ++j) staticRun(p.code[j]);
}

}  // namespace visakit::sim
