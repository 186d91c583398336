// The --check observers: out of bounds, same address, races.
#include "sim/check.hpp"

#include <algorithm>

namespace visakit::sim {

void FindingSink::add(uint32_t inst, Finding::Kind k, uint32_t spaceId, const FindingExample& e) {
  Agg& a = items[{inst, static_cast<uint8_t>(k)}];
  a.spaceId = spaceId;
  ++a.count;
  // Keep the first few by (thread, lane, address), whatever the host order.
  if (a.examples.size() < maxExamples || e < a.examples.back()) {
    a.examples.insert(std::upper_bound(a.examples.begin(), a.examples.end(), e), e);
    if (a.examples.size() > maxExamples) a.examples.pop_back();
  }
}

void OobChecker::onAccesses(Ctx& c, const AccessBatch& b) {
  for (uint32_t i = 0; i < b.n; ++i) {
    const Access& a = b.items[i];
    if (a.inBounds) continue;
    FindingExample e;
    e.thread = c.threadId;
    e.lane = a.lane;
    e.address = a.addr;
    e.size = a.size;
    c.findings.add(b.inst->index, a.write ? Finding::Kind::OutOfBoundsWrite : Finding::Kind::OutOfBoundsRead, b.spaceId, e);
  }
}

void SameAddressChecker::onAccesses(Ctx& c, const AccessBatch& b) {
  // In-bounds writes sorted by address; an overlap between different lanes is a finding.
  std::array<uint16_t, kMaxAccesses> idx;
  uint32_t n = 0;
  for (uint32_t i = 0; i < b.n; ++i)
    if (b.items[i].write && b.items[i].inBounds) idx[n++] = static_cast<uint16_t>(i);
  if (n < 2) return;
  std::sort(idx.begin(), idx.begin() + n, [&](uint16_t x, uint16_t y) {
    const Access &p = b.items[x], &q = b.items[y];
    return p.addr != q.addr ? p.addr < q.addr : p.lane < q.lane;
  });
  // Sweep: track the access reaching furthest so far.
  uint32_t far = idx[0];
  for (uint32_t k = 1; k < n; ++k) {
    const Access& cur = b.items[idx[k]];
    const Access& f = b.items[far];
    if (cur.addr < f.addr + f.size && cur.lane != f.lane) {
      FindingExample e;
      e.thread = c.threadId;
      e.lane = std::max(cur.lane, f.lane);
      e.otherLane = std::min(cur.lane, f.lane);
      e.address = cur.addr;
      e.size = cur.size;
      c.findings.add(b.inst->index, Finding::Kind::SameAddress, b.spaceId, e);
    }
    if (cur.addr + cur.size > f.addr + f.size) far = idx[k];
  }
}

void RaceChecker::onAccesses(Ctx& c, const AccessBatch& b) {
  RaceShadow* sh = b.space ? b.space->shadow : nullptr;
  if (!sh) return;
  const uint32_t me = c.threadId + 1;
  // Relaxed: the detector needs each shadow word to be atomic, not ordering.
  for (uint32_t i = 0; i < b.n; ++i) {
    const Access& a = b.items[i];
    if (!a.inBounds) continue;
    uint32_t other = 0;
    Finding::Kind kind = Finding::Kind::RaceReadWrite;
    for (uint64_t byte = a.addr; byte < a.addr + a.size && byte < sh->size; ++byte) {
      if (a.write) {
        uint32_t old = sh->writer[byte].exchange(me, std::memory_order_relaxed);
        if (old && old != me && !other) {
          other = old;
          kind = Finding::Kind::RaceWriteWrite;
        }
        uint32_t r = sh->reader[byte].load(std::memory_order_relaxed);
        if (r && r != me && !other) other = r;
      } else {
        uint32_t r = sh->reader[byte].load(std::memory_order_relaxed);
        while (r != me && r != RaceShadow::kMany) {
          uint32_t want = r == 0 ? me : RaceShadow::kMany;
          if (sh->reader[byte].compare_exchange_weak(r, want, std::memory_order_relaxed)) break;
        }
        uint32_t w = sh->writer[byte].load(std::memory_order_relaxed);
        if (w && w != me && !other) other = w;
      }
    }
    if (!other) continue;
    FindingExample e;
    e.thread = c.threadId;
    e.lane = a.lane;
    e.address = a.addr;
    e.size = a.size;
    e.otherThread = other == RaceShadow::kMany ? 0xffffffffu : other - 1;
    c.findings.add(b.inst->index, kind, b.spaceId, e);
  }
}

}  // namespace visakit::sim
