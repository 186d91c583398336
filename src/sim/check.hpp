// --check: the checkers are observers of the executors' memory accesses.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>

#include "sim/layout.hpp"
#include "sim/observe.hpp"

namespace visakit::sim {

// Zero-filled words from the OS: large arrays are mapped, so a page costs
// nothing until it is touched (and is a huge page where the system allows).
class ZeroWords {
 public:
  ZeroWords() = default;
  ZeroWords(const ZeroWords&) = delete;
  ZeroWords& operator=(const ZeroWords&) = delete;
  ~ZeroWords() { release(); }
  void allocate(size_t n);  // n fresh zero words
  void clear();             // all words back to zero
  uint32_t* data() { return p_; }
  size_t size() const { return n_; }

 private:
  void release();
  uint32_t* p_ = nullptr;
  size_t n_ = 0;
  bool mapped_ = false;
};

// Race detector state of one memory space: per byte, the thread that last
// wrote it and the thread(s) that read it (ids + 1; 0 none). Shared between
// host threads it is accessed through atomic_ref, so the detector itself is
// free of data races; used by one host thread (exclusive), plainly.
struct RaceShadow {
  static constexpr uint32_t kMany = 0xffffffffu;
  ZeroWords words;  // [0, size) writers, [size, 2 size) readers
  uint64_t size = 0;
  bool exclusive = false;
  bool noReads = true;  // exclusive: no read recorded yet, the reader words are all 0
  void reset(uint64_t n) {
    noReads = true;
    if (n != size || !words.data()) {
      words.allocate(2 * (n ? n : 1));
      size = n;
    } else {
      words.clear();
    }
  }
  uint32_t* writers() { return words.data(); }
  uint32_t* readers() { return words.data() + size; }
  // Bytes [from, to) pass to a new owner: no thread has touched them (a
  // thread slot's memory at the start of its next thread, spec-decisions E23).
  void forget(uint64_t from, uint64_t to) {
    to = std::min(to, size);
    if (from >= to) return;
    if (exclusive) {
      std::fill(writers() + from, writers() + to, 0u);
      std::fill(readers() + from, readers() + to, 0u);
      return;
    }
    for (uint64_t i = from; i < to; ++i) {  // (other host threads' words are atomic_ref too)
      std::atomic_ref<uint32_t>(writers()[i]).store(0, std::memory_order_relaxed);
      std::atomic_ref<uint32_t>(readers()[i]).store(0, std::memory_order_relaxed);
    }
  }
};

// The register bytes some instruction of `k` may read (a source region, a raw
// operand's footprint), by byte of the register file laid out as `lay`; empty
// when that cannot be told: an indirect or address-of operand, a function call.
std::vector<uint8_t> registerBytesRead(const Kernel& k, const Layout& lay, unsigned grfSize);

// Out-of-bounds element accesses (E2). With useReads, an out-of-bounds read
// whose element goes only to register bytes no instruction reads is not one
// (spec-decisions E33: IGC's block reads past the end of small buffers).
class OobChecker : public Observer {
 public:
  void onAccesses(Observed& c, const AccessBatch& b) override;
  void useReads(std::vector<uint8_t> read) { read_ = std::move(read); }

 private:
  bool unused(const AccessBatch& b, uint32_t i) const;
  std::vector<uint8_t> read_;
};

// Two lanes writing the same byte in one instruction (E3).
class SameAddressChecker : public Observer {
 public:
  void onAccesses(Observed& c, const AccessBatch& b) override;
};

// Write/write and read/write of the same bytes by different threads.
//
// Barrier epochs (spec-decisions C3): threads of one thread group that met at
// a barrier after an access do not race with it. With useBarriers(perGroup),
// the accesses a group makes are logged (Observed::sinceBarrier) and, when
// its threads meet at a barrier, barrier() seals the shadow words of the
// threads that arrived: a sealed word names the group, not a thread, and
// races only with other groups. Shadow words then hold a thread (id + 1,
// below 2^30), kSealed | group, kGroupMany | group (readers: two or more
// threads of that group) or kMany.
class RaceChecker : public Observer {
 public:
  static constexpr uint32_t kSealed = 0x40000000u, kGroupMany = 0x80000000u, kTagMask = 0xc0000000u;
  void onAccesses(Observed& c, const AccessBatch& b) override;
  // Groups of `perGroup` consecutive threads (0: no barrier epochs; the launch
  // must have fewer than 2^30 threads).
  void useBarriers(uint32_t perGroup) { perGroup_ = perGroup; }
  // The threads `first` + i of group `group` with arrived[i] met at a barrier;
  // `ended`: some thread of the group has ended (its reads are not sealed).
  void barrier(Observed& c, uint32_t group, uint32_t first, const std::vector<uint8_t>& arrived, bool ended);

 private:
  uint32_t perGroup_ = 0;
};

class ObserverList : public Observer {
 public:
  void add(Observer* o) { list_.push_back(o); }
  void onAccesses(Observed& c, const AccessBatch& b) override {
    for (Observer* o : list_) o->onAccesses(c, b);
  }

 private:
  std::vector<Observer*> list_;
};

}  // namespace visakit::sim
