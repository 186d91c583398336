// Memory spaces: surfaces, SLM, URB. The bounds rule lives here and only here
// (spec-decisions E2). Memory shared between host threads is accessed with
// relaxed atomics (word-sized when aligned, bytewise otherwise), so a racing
// kernel is still free of C++ data races.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace visakit::sim {

// Allocates whole cache lines: a host thread's hot state (registers,
// predicates, counters) then shares no line with another's. Two host threads'
// small vectors, allocated one after another, otherwise met in one line, and
// every write of one took the line from the other (issue 5, 2-thread speed-up).
inline constexpr size_t kLine = 64;
template <class T>
struct LineAllocator {
  using value_type = T;
  LineAllocator() = default;
  template <class U>
  LineAllocator(const LineAllocator<U>&) {}
  static size_t bytesFor(size_t n) { return (n * sizeof(T) + kLine - 1) / kLine * kLine; }
  T* allocate(size_t n) { return static_cast<T*>(::operator new(bytesFor(n), std::align_val_t{kLine})); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{kLine}); }
  template <class U>
  bool operator==(const LineAllocator<U>&) const { return true; }
};
template <class T>
using LineVector = std::vector<T, LineAllocator<T>>;

// Byte storage aligned for 8-byte atomics.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(uint64_t size) { resize(size); }
  void resize(uint64_t size) {
    size_ = size;
    words_ = std::make_unique<uint64_t[]>((size + 7) / 8 + 1);  // zero-filled
  }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(words_.get()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words_.get()); }
  uint64_t size() const { return size_; }

 private:
  std::unique_ptr<uint64_t[]> words_;
  uint64_t size_ = 0;
};

struct RaceShadow;  // check.hpp

// One memory space as the executors see it.
struct Space {
  uint8_t* data = nullptr;
  uint64_t size = 0;
  uint32_t statIndex = 0;        // index into the per-run space statistics
  RaceShadow* shadow = nullptr;  // --check: race detector state
  bool bound = false;
  bool plain = false;  // no other host thread writes it during the launch: plain memcpy is race-free
  bool dram = false;   // at least deferMinBytes(): its misses are worth a thread switch (ctx.hpp)
  uint64_t addrMask = ~uint64_t{0};  // the address bits the space decodes (SLM: kSlmAddrMask)
};

// spec-decisions E31: SLM decodes the low 16 bits of a byte address (an SLM is
// at most 64 KB: chapter 4 SLMSize "0-64 ... in unit of 1KB"; chapter 3 leaves
// out-of-bound SLM accesses undefined). IGC sets bit 28 of every `__local`
// pointer it may compare with null (InlineLocalsResolution: "only the low 16
// bits ... of SLM addresses are significant"). An element's address is
// reduced once, before E2; an address already in bounds is unchanged.
constexpr uint64_t kSlmAddrMask = 0xffff;
inline uint64_t spaceAddress(const Space& s, uint64_t addr) { return addr & s.addrMask; }

// One allocation of the stateless (flat) address space: surface `spaceId`
// at bytes [base, base + size) (chapter 3 "Stateless Access").
struct FlatRange {
  uint64_t base = 0, size = 0;
  uint32_t spaceId = 0;
};
// The allocation holding the bytes [addr, addr + bytes) of the stateless space
// f (sorted by base): the last one starting at or below addr, if they all lie
// inside it; nullptr: none (spec-decisions M8).
inline const FlatRange* flatRange(const std::vector<FlatRange>& f, uint64_t addr, unsigned bytes) {
  size_t lo = 0, hi = f.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (f[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return nullptr;
  const FlatRange& r = f[lo - 1];
  return addr - r.base < r.size && bytes <= r.size - (addr - r.base) ? &r : nullptr;
}
constexpr uint32_t kNoSurface = 0xffffffffu;

// E2 / the pages' "Out-of-bound Access": an element access is in bounds only
// if all its bytes are inside the space.
inline bool inBounds(const Space& s, uint64_t addr, unsigned bytes) {
  return addr <= s.size && bytes <= s.size - addr;
}

template <class T>
inline T atomicLoad(const uint8_t* p) {
  return std::atomic_ref<T>(*const_cast<T*>(reinterpret_cast<const T*>(p))).load(std::memory_order_relaxed);
}
template <class T>
inline void atomicStore(uint8_t* p, T v) {
  std::atomic_ref<T>(*reinterpret_cast<T*>(p)).store(v, std::memory_order_relaxed);
}

// Reads `bytes` (1, 2, 4 or 8) little-endian bytes at addr; the access must be in bounds.
inline uint64_t memLoad(const Space& s, uint64_t addr, unsigned bytes) {
  const uint8_t* p = s.data + addr;
  if ((addr & (bytes - 1)) == 0) {
    switch (bytes) {
      case 1: return atomicLoad<uint8_t>(p);
      case 2: return atomicLoad<uint16_t>(p);
      case 4: return atomicLoad<uint32_t>(p);
      case 8: return atomicLoad<uint64_t>(p);
      default: break;
    }
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{atomicLoad<uint8_t>(p + i)} << (8 * i);
  return v;
}

// --check (MemAccess::sameBytes): bit k set where storing the low `bytes` bytes
// (at most 8) of v at addr would leave byte k as it is.
inline uint8_t unchangedBytes(const Space& s, uint64_t addr, unsigned bytes, uint64_t v) {
  const uint64_t old = memLoad(s, addr, bytes);
  uint8_t m = 0;
  for (unsigned k = 0; k < bytes; ++k) m |= static_cast<uint8_t>(((old ^ v) >> (8 * k) & 0xff) == 0) << k;
  return m;
}

// Writes the low `bytes` bytes of v little-endian at addr; must be in bounds.
inline void memStore(Space& s, uint64_t addr, unsigned bytes, uint64_t v) {
  uint8_t* p = s.data + addr;
  if ((addr & (bytes - 1)) == 0) {
    switch (bytes) {
      case 1: atomicStore<uint8_t>(p, static_cast<uint8_t>(v)); return;
      case 2: atomicStore<uint16_t>(p, static_cast<uint16_t>(v)); return;
      case 4: atomicStore<uint32_t>(p, static_cast<uint32_t>(v)); return;
      case 8: atomicStore<uint64_t>(p, v); return;
      default: break;
    }
  }
  for (unsigned i = 0; i < bytes; ++i) atomicStore<uint8_t>(p + i, static_cast<uint8_t>(v >> (8 * i)));
}

// An atomic read-modify-write of `bytes` (4 or 8, aligned) at addr, atomic
// across host threads: new = f(old); returns old. Unaligned or other sizes
// go byte by byte under one process-wide lock (the pages require alignment).
template <class F>
inline uint64_t atomicRmw(Space& s, uint64_t addr, unsigned bytes, F f) {
  uint8_t* p = s.data + addr;
  if (bytes == 4 && (addr & 3) == 0) {
    std::atomic_ref<uint32_t> a(*reinterpret_cast<uint32_t*>(p));
    uint32_t old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, static_cast<uint32_t>(f(old)), std::memory_order_acq_rel)) {
    }
    return old;
  }
  if (bytes == 8 && (addr & 7) == 0) {
    std::atomic_ref<uint64_t> a(*reinterpret_cast<uint64_t*>(p));
    uint64_t old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, f(old), std::memory_order_acq_rel)) {
    }
    return old;
  }
  static std::atomic_flag lock = ATOMIC_FLAG_INIT;
  while (lock.test_and_set(std::memory_order_acquire)) {
  }
  uint64_t old = memLoad(s, addr, bytes);
  memStore(s, addr, bytes, f(old));
  lock.clear(std::memory_order_release);
  return old;
}

}  // namespace visakit::sim
