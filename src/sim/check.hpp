// --check: the checkers are observers of the executors' memory accesses.
#pragma once

#include <atomic>
#include <memory>

#include "sim/ctx.hpp"

namespace visakit::sim {

// Race detector state of one memory space: per byte, the thread that last
// wrote it and the thread(s) that read it (ids + 1; 0 none). Atomics, so the
// detector itself is free of data races.
struct RaceShadow {
  static constexpr uint32_t kMany = 0xffffffffu;
  std::unique_ptr<std::atomic<uint32_t>[]> writer, reader;
  uint64_t size = 0;
  void reset(uint64_t n) {
    if (n != size || !writer) {
      writer = std::make_unique<std::atomic<uint32_t>[]>(n ? n : 1);
      reader = std::make_unique<std::atomic<uint32_t>[]>(n ? n : 1);
      size = n;
    }
    for (uint64_t i = 0; i < n; ++i) {
      writer[i].store(0, std::memory_order_relaxed);
      reader[i].store(0, std::memory_order_relaxed);
    }
  }
};

// Out-of-bounds element accesses (E2).
class OobChecker : public Observer {
 public:
  void onAccesses(Ctx& c, const AccessBatch& b) override;
};

// Two lanes writing the same byte in one instruction (E3).
class SameAddressChecker : public Observer {
 public:
  void onAccesses(Ctx& c, const AccessBatch& b) override;
};

// Write/write and read/write of the same bytes by different threads.
class RaceChecker : public Observer {
 public:
  void onAccesses(Ctx& c, const AccessBatch& b) override;
};

class ObserverList : public Observer {
 public:
  void add(Observer* o) { list_.push_back(o); }
  void onAccesses(Ctx& c, const AccessBatch& b) override {
    for (Observer* o : list_) o->onAccesses(c, b);
  }

 private:
  std::vector<Observer*> list_;
};

}  // namespace visakit::sim
