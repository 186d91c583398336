// The --check observers: out of bounds, same address, races.
#include "sim/check.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "support/memory.hpp"

namespace visakit::sim {

void ZeroWords::allocate(size_t n) {
  release();
  const size_t bytes = n * sizeof(uint32_t);
#if defined(__linux__)
  constexpr size_t kMapFrom = size_t{1} << 20;
  if (bytes >= kMapFrom) {
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    adviseHugePages(m, bytes);
    p_ = static_cast<uint32_t*>(m);
    n_ = n;
    mapped_ = true;
    return;
  }
#endif
  p_ = static_cast<uint32_t*>(std::calloc(n, sizeof(uint32_t)));
  if (!p_) throw std::bad_alloc();
  n_ = n;
  mapped_ = false;
}

void ZeroWords::clear() {
  if (p_) std::memset(p_, 0, n_ * sizeof(uint32_t));
}

void ZeroWords::release() {
  if (!p_) return;
#if defined(__linux__)
  if (mapped_) munmap(p_, n_ * sizeof(uint32_t));
  else std::free(p_);
#else
  std::free(p_);
#endif
  p_ = nullptr;
  n_ = 0;
}

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

std::vector<uint8_t> registerBytesRead(const Kernel& k, const Layout& lay, unsigned grfSize) {
  std::vector<uint8_t> read(lay.regBytes, 0);
  auto mark = [&](uint64_t lo, uint64_t hi) {
    std::fill(read.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(lo, read.size())),
              read.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(hi, read.size())), 1);
  };
  for (const Instruction& inst : k.code) {
    if (inst.op == Opcode::FCALL || inst.op == Opcode::IFCALL || inst.op == Opcode::FADDR) return {};
    const InstrDesc* d = rowOf(inst);
    if (!d) return {};
    for (int f = 0; f < d->numFields; ++f) {
      const FieldDesc& fd = d->fields[f];
      if (fd.access != Access::Read && fd.access != Access::ReadWrite) continue;
      const Operand& o = inst.f[f];
      if (o.kind == Operand::Kind::Indirect || o.kind == Operand::Kind::AddressOf) return {};
      if (o.kind != Operand::Kind::General && o.kind != Operand::Kind::Raw) continue;
      if (o.id == kVarNull || o.id >= lay.vars.size() || !lay.vars[o.id].present) continue;
      const VarSlot& v = lay.vars[o.id];
      if (o.kind == Operand::Kind::Raw) {
        // (a footprint the row does not give: the rest of the variable)
        const uint32_t n = rawFootprint(*d, inst, f, grfSize);
        mark(uint64_t{v.offset} + o.offset, n ? uint64_t{v.offset} + o.offset + n : uint64_t{v.offset} + v.bytes);
        continue;
      }
      // Chapter 5 regions: elements first .. last of the variable's type.
      const unsigned ts = typeSize(v.type);
      const uint64_t first = uint64_t{o.row} * (grfSize / ts) + o.col;
      uint64_t last = v.bytes / ts;  // (a region that cannot be read: the whole variable after first)
      const unsigned exec = inst.execSize(), w = o.region.w, vs = o.region.vs, hs = o.region.hs;
      if (fd.flags & kScalar) last = first;
      else if (w != kRegionNull && vs != kRegionNull && hs != kRegionNull && w && exec % w == 0)
        last = first + uint64_t{exec / w - 1} * vs + uint64_t{w - 1} * hs;
      mark(uint64_t{v.offset} + first * ts, uint64_t{v.offset} + (last + 1) * ts);
    }
  }
  return read;
}

bool OobChecker::unused(const AccessBatch& b, uint32_t i) const {
  if (read_.empty() || !b.hasDests) return false;
  const RegDest& r = b.dests[i];
  if (!r.bytes || r.off + r.bytes > read_.size()) return false;
  return std::none_of(read_.begin() + r.off, read_.begin() + r.off + r.bytes, [](uint8_t x) { return x != 0; });
}

void OobChecker::onAccesses(Observed& c, const AccessBatch& b) {
  if (!b.anyOutOfBounds) return;
  for (uint32_t i = 0; i < b.n; ++i) {
    const MemAccess& a = b.items[i];
    if (a.inBounds) continue;
    if (!a.write && !a.atomic && unused(b, i)) continue;  // (E33)
    FindingExample e;
    e.thread = c.threadId;
    e.lane = a.lane;
    e.address = a.addr;
    e.size = a.size;
    c.findings.add(b.instIndex, a.write ? Finding::Kind::OutOfBoundsWrite : Finding::Kind::OutOfBoundsRead, b.spaceId, e);
  }
}

// E3: whether the later (in store order) of writes x and y of one batch puts,
// where they overlap, the bytes that were there: those of the last write before
// it (the order then cannot change the memory). The later store's
// MemAccess::sameBytes says so, or else the data told with the batch.
static bool sameBytesWritten(const AccessBatch& b, uint32_t x, uint32_t y) {
  const uint32_t li = std::max(x, y);
  const MemAccess &later = b.items[li], &other = b.items[std::min(x, y)];
  const uint64_t lo = std::max(later.addr, other.addr), hi = std::min(later.addr + later.size, other.addr + other.size);
  for (uint64_t a = lo; a < hi; ++a) {
    if (!b.writeData) {
      if (a - later.addr >= 8 || !((later.sameBytes >> (a - later.addr)) & 1)) return false;
      continue;
    }
    // (the last write of byte a before `later`: `other` or one between them)
    const MemAccess* w = &other;
    for (uint32_t j = li; j-- > std::min(x, y) + 1;) {
      const MemAccess& c = b.items[j];
      if (c.write && c.inBounds && !c.atomic && c.addr <= a && a < c.addr + c.size) {
        w = &c;
        break;
      }
    }
    if (b.writeData[4 * later.lane + (a - later.addr)] != b.writeData[4 * w->lane + (a - w->addr)]) return false;
  }
  return true;
}

void SameAddressChecker::onAccesses(Observed& c, const AccessBatch& b) {
  // In-bounds writes in address order; an overlap between different lanes is a finding.
  if (b.writes < 2 || b.writesApart) return;
  // (the reference tier's batches may exceed kMaxAccesses; atomics of one
  // instruction to one address are its purpose, not a finding)
  thread_local std::vector<uint32_t> idx;
  if (idx.size() < b.n) idx.resize(std::max<size_t>(b.n, kMaxAccesses));
  uint32_t n = 0;
  bool sorted = true;  // already in address order (contiguous stores): no sort needed
  for (uint32_t i = 0; i < b.n; ++i)
    if (b.items[i].write && b.items[i].inBounds && !b.items[i].atomic) {
      if (n && b.items[i].addr <= b.items[idx[n - 1]].addr) sorted = false;
      idx[n++] = i;
    }
  if (n < 2) return;
  if (!sorted)
    std::sort(idx.begin(), idx.begin() + n, [&](uint32_t x, uint32_t y) {
      const MemAccess &p = b.items[x], &q = b.items[y];
      return p.addr != q.addr ? p.addr < q.addr : p.lane < q.lane;
    });
  // Sweep: track the access reaching furthest so far.
  uint32_t far = idx[0];
  for (uint32_t k = 1; k < n; ++k) {
    const MemAccess& cur = b.items[idx[k]];
    const MemAccess& f = b.items[far];
    if (cur.addr < f.addr + f.size && cur.lane != f.lane && !sameBytesWritten(b, idx[k], far)) {
      FindingExample e;
      e.thread = c.threadId;
      e.lane = std::max(cur.lane, f.lane);
      e.otherLane = std::min(cur.lane, f.lane);
      e.address = cur.addr;
      e.size = cur.size;
      c.findings.add(b.instIndex, Finding::Kind::SameAddress, b.spaceId, e);
    }
    if (cur.addr + cur.size > f.addr + f.size) far = idx[k];
  }
}

namespace {

// The shadow words an access of thread `me` (id + 1) meets: which are ordered
// with it, and what a read makes of the reader word. Without barrier epochs
// (perGroup 0) only 0 and `me` are ordered; with them, so is the word of
// `me`'s group sealed at a barrier (RaceChecker, spec-decisions C3).
struct Tokens {
  uint32_t me = 0;
  uint32_t perGroup = 0, group = 0;
  uint32_t sealed = 0, groupMany = 0;
  bool ordered(uint32_t w) const { return w == 0 || w == me || (perGroup && w == sealed); }
  uint32_t afterRead(uint32_t r) const {
    if (r == 0 || r == me || (perGroup && r == sealed)) return me;
    if (!perGroup || r == RaceShadow::kMany) return RaceShadow::kMany;
    if (r == groupMany || ((r & RaceChecker::kTagMask) == 0 && (r - 1) / perGroup == group)) return groupMany;
    return RaceShadow::kMany;
  }
  // The other thread to report (0xffffffff: several, or a group's sealed accesses).
  uint32_t reported(uint32_t other) const {
    return other == RaceShadow::kMany || (perGroup && (other & RaceChecker::kTagMask)) ? 0xffffffffu : other - 1;
  }
};

// One element access against the shadow words of its bytes: W is the writer
// word of a byte, R its reader word, as plain references (exclusive) or atomic_ref.
// Returns the other word met first that is not ordered with the access, or 0.
// sameByte(k): whether the write leaves byte from + k as the memory holds it (asked
// where it meets another thread's write only).
template <class Word, class Same>
uint32_t raceAccess(uint32_t* writers, uint32_t* readers, uint64_t from, uint64_t to, bool write, Same sameByte,
                    const Tokens& tk, Finding::Kind& kind) {
  uint32_t other = 0;
  const uint32_t me = tk.me;
  for (uint64_t byte = from; byte < to; ++byte) {
    Word writer(writers[byte]), reader(readers[byte]);
    if (write) {
      uint32_t old = writer.load();
      if (old != me) old = writer.exchange(me);
      // (a byte the write leaves as it is: no write/write race there, E23)
      if (!tk.ordered(old) && !other && !sameByte(byte - from)) {
        other = old;
        kind = Finding::Kind::RaceWriteWrite;
      }
      uint32_t r = reader.load();
      if (!tk.ordered(r) && !other) other = r;
    } else {
      uint32_t r = reader.load();
      for (;;) {
        uint32_t n = tk.afterRead(r);
        if (n == r || reader.compareExchange(r, n)) break;
      }
      uint32_t w = writer.load();
      if (!tk.ordered(w) && !other) other = w;
    }
  }
  return other;
}

// Barrier epochs: the bytes [from, to) of `sh` the group touched.
void logRange(Observed& c, RaceShadow* sh, uint64_t from, uint64_t to) {
  std::vector<ShadowRange>& v = c.sinceBarrier;
  if (!v.empty() && v.back().shadow == sh && from <= v.back().to && to >= v.back().from) {
    v.back().from = std::min(v.back().from, from);
    v.back().to = std::max(v.back().to, to);
    return;
  }
  v.push_back({sh, from, to});
}

// Relaxed: the detector needs each shadow word to be atomic, not ordering.
struct SharedWord {
  std::atomic_ref<uint32_t> a;
  explicit SharedWord(uint32_t& w) : a(w) {}
  uint32_t load() const { return a.load(std::memory_order_relaxed); }
  uint32_t exchange(uint32_t v) { return a.exchange(v, std::memory_order_relaxed); }
  bool compareExchange(uint32_t& expected, uint32_t v) {
    return a.compare_exchange_weak(expected, v, std::memory_order_relaxed);
  }
};
struct PlainWord {
  uint32_t& w;
  explicit PlainWord(uint32_t& x) : w(x) {}
  uint32_t load() const { return w; }
  uint32_t exchange(uint32_t v) {
    uint32_t old = w;
    w = v;
    return old;
  }
  bool compareExchange(uint32_t&, uint32_t v) {
    w = v;
    return true;
  }
};

// Exclusive shadow, a write: every byte last written by this thread or by
// none, and read by this thread or by none. Then the write races with nothing;
// the bytes are marked this thread's.
inline bool alreadyMine(uint32_t* writers, const uint32_t* readers, uint64_t from, uint64_t to, uint32_t me, bool noReads) {
  // x is 0 or me exactly when x * (x ^ me) is 0 (a 64-bit product of 32-bit values cannot wrap to 0).
  auto other = [me](uint32_t x) { return uint64_t{x} * (x ^ me); };
  uint32_t* w = writers + from;
  const uint32_t* r = readers + from;
  const uint64_t n = to - from;
  uint64_t k = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128(), mine = _mm_set1_epi32(static_cast<int>(me));
  if (noReads) {
    // The first write of fresh bytes (no writer, no reader yet), the common
    // case: one OR over the writer words decides it.
    __m128i any = zero;
#pragma GCC unroll 4
    for (; k + 4 <= n; k += 4) any = _mm_or_si128(any, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k)));
    uint32_t tail = 0;
    for (uint64_t j = k; j < n; ++j) tail |= w[j];
    if (tail == 0 && _mm_movemask_epi8(_mm_cmpeq_epi32(any, zero)) == 0xffff) {
#pragma GCC unroll 4
      for (k = 0; k + 4 <= n; k += 4) _mm_storeu_si128(reinterpret_cast<__m128i*>(w + k), mine);
      for (; k < n; ++k) w[k] = me;
      return true;
    }
    k = 0;
  }
  // Four words per compare: each 0 or me (a dword access, or a run of them).
  __m128i ok = _mm_set1_epi32(-1);
  if (noReads) {  // the reader words are all 0
    for (; k + 4 <= n; k += 4) {
      const __m128i vw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k));
      ok = _mm_and_si128(ok, _mm_or_si128(_mm_cmpeq_epi32(vw, zero), _mm_cmpeq_epi32(vw, mine)));
    }
  }
  for (; k + 4 <= n; k += 4) {
    const __m128i vw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k));
    const __m128i vr = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + k));
    ok = _mm_and_si128(ok, _mm_and_si128(_mm_or_si128(_mm_cmpeq_epi32(vw, zero), _mm_cmpeq_epi32(vw, mine)),
                                         _mm_or_si128(_mm_cmpeq_epi32(vr, zero), _mm_cmpeq_epi32(vr, mine))));
  }
  if (_mm_movemask_epi8(ok) != 0xffff) return false;
#endif
  uint64_t bad = 0;
  for (uint64_t j = k; j < n; ++j) bad |= other(w[j]) | other(r[j]);
  if (bad) return false;
#if defined(__SSE2__)
  for (k = 0; k + 4 <= n; k += 4) _mm_storeu_si128(reinterpret_cast<__m128i*>(w + k), mine);
#endif
  for (; k < n; ++k) w[k] = me;
  return true;
}

}  // namespace

void RaceChecker::onAccesses(Observed& c, const AccessBatch& b) {
  RaceShadow* sh = b.space ? b.space->shadow : nullptr;
  if (!sh) return;
  const uint32_t me = c.threadId + 1;
  Tokens tk;
  tk.me = me;
  if (perGroup_) {
    tk.perGroup = perGroup_;
    tk.group = c.threadId / perGroup_;
    tk.sealed = kSealed | tk.group;
    tk.groupMany = kGroupMany | tk.group;
  }
  uint32_t* writers = sh->writers();
  uint32_t* readers = sh->readers();
  // A run written by this thread only so far: all of it at once.
  if (b.runLanes && b.runWrite && sh->exclusive &&
      alreadyMine(writers, readers, b.runAddr, b.runAddr + uint64_t{b.runSize} * b.runLanes, me, sh->noReads)) {
    if (perGroup_) logRange(c, sh, b.runAddr, b.runAddr + uint64_t{b.runSize} * b.runLanes);
    return;
  }
  const uint32_t count = b.runLanes ? b.runLanes : b.n;
  for (uint32_t i = 0; i < count; ++i) {
    const MemAccess a = b.runLanes ? MemAccess{b.runAddr + uint64_t{b.runSize} * i, b.runSize, static_cast<uint8_t>(i), b.runWrite, true}
                                : b.items[i];
    if (!a.inBounds || a.atomic) continue;  // atomics synchronise (their pages)
    Finding::Kind kind = Finding::Kind::RaceReadWrite;
    const uint64_t to = std::min<uint64_t>(a.addr + a.size, sh->size);
    if (perGroup_) logRange(c, sh, a.addr, to);
    uint32_t other;
    if (sh->exclusive && a.write && alreadyMine(writers, readers, a.addr, to, me, sh->noReads)) continue;
    if (!a.write && sh->exclusive) sh->noReads = false;
    // Told before the store (AccessBatch::writeData): the memory holds the byte the write
    // meets, for no earlier lane of the instruction wrote it (the byte's writer would be this
    // thread): the same byte as the other tier, which compares at the store.
    auto same = [&](uint64_t k) {
      if (k < 8 && ((a.sameBytes >> k) & 1)) return true;
      if (!b.writeData || !b.space || k >= 4) return false;
      return memLoad(*b.space, a.addr + k, 1) == b.writeData[4 * a.lane + k];
    };
    other = sh->exclusive ? raceAccess<PlainWord>(writers, readers, a.addr, to, a.write, same, tk, kind)
                          : raceAccess<SharedWord>(writers, readers, a.addr, to, a.write, same, tk, kind);
    if (!other) continue;
    FindingExample e;
    e.thread = c.threadId;
    e.lane = a.lane;
    e.address = a.addr;
    e.size = a.size;
    e.otherThread = tk.reported(other);
    c.findings.add(b.instIndex, kind, b.spaceId, e);
  }
}

void RaceChecker::barrier(Observed& c, uint32_t group, uint32_t first, const std::vector<uint8_t>& arrived, bool ended) {
  if (perGroup_) {
    const uint32_t sealed = kSealed | group, many = kGroupMany | group;
    // A thread of the group that arrived (id + 1 in the shadow words).
    auto met = [&](uint32_t w) {
      return w != 0 && (w & kTagMask) == 0 && w - 1 >= first && w - 1 - first < arrived.size() && arrived[w - 1 - first];
    };
    for (const ShadowRange& r : c.sinceBarrier) {
      RaceShadow& sh = *r.shadow;
      for (uint64_t b = r.from; b < r.to; ++b) {
        uint32_t& wr = sh.writers()[b];
        uint32_t& rd = sh.readers()[b];
        if (sh.exclusive) {
          if (met(wr)) wr = sealed;
          if (met(rd) || (rd == many && !ended)) rd = sealed;
          continue;
        }
        // Shared with other host threads' groups: only this group's words change.
        std::atomic_ref<uint32_t> aw(wr), ar(rd);
        uint32_t w = aw.load(std::memory_order_relaxed);
        while (met(w) && !aw.compare_exchange_weak(w, sealed, std::memory_order_relaxed)) {
        }
        uint32_t x = ar.load(std::memory_order_relaxed);
        while ((met(x) || (x == many && !ended)) && !ar.compare_exchange_weak(x, sealed, std::memory_order_relaxed)) {
        }
      }
    }
  }
  c.sinceBarrier.clear();
}

}  // namespace visakit::sim
