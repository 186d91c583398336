// Pass: prefetch lists (planPrefetch). Precondition: decoded, memory
// instructions marked with their address kind (DInst::addrKind, set by their
// fast forms). Result: DInst::ahead, later memory instructions of the same
// straight-line code whose address registers nothing in between writes, so
// that their lines are fetched while this one runs (docs/architecture.md).
#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"

namespace visakit::sim {
namespace plan {

// Register bytes an instruction writes (its destination), or nullopt-like empty.
ByteRange regWrites(const DInst& d) {
  if (d.addrKind != DInst::AddrKind::None || d.control || d.viaRef) {
    // A memory instruction writes its raw destinations (the row's effects); control instructions none;
    // one run through its semantics, its operands' bytes (decodeViaRef).
    ByteRange w{0xffffffffu, 0};
    for (unsigned i = 0; i < d.numRawWrites; ++i) w = {std::min(w.lo, d.rawWrites[i].lo), std::max(w.hi, d.rawWrites[i].hi)};
    return w.lo < w.hi ? w : ByteRange{};
  }
  if (d.fn == nullptr || d.dst.kind != DOperand::Kind::Reg) return {};
  uint32_t lo = 0xffffffffu, hi = 0;
  for (unsigned k = 0; k < d.exec; ++k) {
    lo = std::min(lo, d.dst.off[k]);
    hi = std::max(hi, d.dst.off[k] + 8 + d.hiOff);  // at most 8 bytes per element (and MADW's high half)
  }
  return lo < hi ? ByteRange{lo, hi} : ByteRange{};
}

namespace {

// Register bytes an instruction's addresses are formed from.
std::array<ByteRange, 2> addrReads(const DInst& d) {
  std::array<ByteRange, 2> r{};
  r[0] = {d.raw[0], d.raw[0] + 4u * d.exec};
  if (d.addrKind == DInst::AddrKind::Scaled && d.goff.kind == DOperand::Kind::Reg) r[1] = {d.goff.off[0], d.goff.off[0] + 4};
  return r;
}

}  // namespace

}  // namespace plan

using namespace plan;

void planPrefetch(Program& p) {
  constexpr size_t kWindow = 24;  // instructions looked at past each memory instruction
  std::vector<uint8_t> planned(p.code.size(), 0);
  for (size_t i = 0; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    if (d.addrKind == DInst::AddrKind::None) continue;
    std::vector<ByteRange> written;
    for (size_t j = i + 1; j < p.code.size() && j <= i + kWindow && d.numAhead < d.ahead.size(); ++j) {
      written.push_back(regWrites(p.code[j - 1]));
      const DInst& e = p.code[j];
      if (e.control || e.join) break;  // straight-line code only
      // (consecutive offsets known at decode are a stream the hardware prefetcher follows)
      if (e.addrKind == DInst::AddrKind::None || planned[j] || e.offRun) continue;
      bool ready = true;
      for (const ByteRange& r : addrReads(e))
        for (const ByteRange& w : written) ready = ready && !(r.hi > r.lo && w.meets(r));
      if (!ready) continue;
      d.ahead[d.numAhead++] = static_cast<uint32_t>(j);
      planned[j] = 1;
    }
  }
}

}  // namespace visakit::sim
