// The host-thread pool (pool.hpp).
#include "sim/pool.hpp"

#include <thread>

#include <pthread.h>

namespace visakit::sim {

namespace {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Waits until `a` differs from `old` and returns the new value (acquire):
// spins for HostPool::kSpin, then sleeps in the kernel (std::atomic::wait).
uint32_t awaitChange(const std::atomic<uint32_t>& a, uint32_t old) {
  const auto until = std::chrono::steady_clock::now() + HostPool::kSpin;
  for (unsigned i = 1;; ++i) {
    if (const uint32_t v = a.load(std::memory_order_acquire); v != old) return v;
    cpuRelax();
    if (i % 256 == 0 && std::chrono::steady_clock::now() >= until) break;
  }
  for (;;) {
    a.wait(old, std::memory_order_acquire);
    if (const uint32_t v = a.load(std::memory_order_acquire); v != old) return v;
  }
}

}  // namespace

HostPool& HostPool::instance() {
  static HostPool* const pool = [] {
    auto* p = new HostPool;  // never deleted (pool.hpp)
    pthread_atfork(nullptr, nullptr, [] { instance().forgetThreads(); });
    return p;
  }();
  return *pool;
}

void HostPool::forgetThreads() {
  // The slots stay allocated: a parent's thread may not have let go of its slot.
  for (auto& s : slots_) (void)s.release();
  slots_.clear();
}

unsigned HostPool::threads() const {
  std::lock_guard<std::mutex> g(busy_);
  return static_cast<unsigned>(slots_.size());
}

void HostPool::workerLoop(Slot& slot, unsigned j) {
  uint32_t seen = 0;
  for (;;) {
    seen = awaitChange(slot.go, seen);
    job_(arg_, j);
    done_.fetch_add(1, std::memory_order_acq_rel);
    done_.notify_one();
  }
}

void HostPool::run(unsigned n, Job job, void* arg) {
  if (n <= 1) {
    job(arg, 0);
    return;
  }
  std::unique_lock<std::mutex> own(busy_, std::try_to_lock);
  if (!own.owns_lock()) {
    // Another launch (from another calling thread) has the pool.
    std::vector<std::thread> extra;
    for (unsigned j = 1; j < n; ++j) extra.emplace_back([job, arg, j] { job(arg, j); });
    job(arg, 0);
    for (auto& t : extra) t.join();
    return;
  }
  while (slots_.size() < n - 1) {
    slots_.push_back(std::make_unique<Slot>());
    Slot& slot = *slots_.back();
    const auto j = static_cast<unsigned>(slots_.size());
    std::thread([this, &slot, j] { workerLoop(slot, j); }).detach();
  }
  job_ = job;
  arg_ = arg;
  done_.store(0, std::memory_order_relaxed);
  for (unsigned j = 1; j < n; ++j) {
    Slot& s = *slots_[j - 1];
    s.go.fetch_add(1, std::memory_order_release);
    s.go.notify_one();
  }
  job(arg, 0);
  for (uint32_t d = done_.load(std::memory_order_acquire); d != n - 1;) d = awaitChange(done_, d);
}

}  // namespace visakit::sim
