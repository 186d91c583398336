// The host-thread pool (pool.hpp).
#include "sim/pool.hpp"

#include <algorithm>
#include <system_error>
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
// spins for HostPool::kSpin if `spin`, then sleeps in the kernel
// (std::atomic::wait).
uint32_t awaitChange(const std::atomic<uint32_t>& a, uint32_t old, bool spin) {
  const auto until = std::chrono::steady_clock::now() + HostPool::kSpin;
  for (unsigned i = 1; spin; ++i) {
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

unsigned HostPool::maxThreads() {
  static const unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, 256u);
  return cores;
}

unsigned HostPool::threads() const {
  std::lock_guard<std::mutex> g(busy_);
  return static_cast<unsigned>(slots_.size());
}

void HostPool::workerLoop(Slot& slot, unsigned j) {
  uint32_t seen = 0;
  bool spin = true;
  for (;;) {
    seen = awaitChange(slot.go, seen, spin);
    uint32_t posted = kPosted;
    if (!slot.claim.compare_exchange_strong(posted, kRunning, std::memory_order_acq_rel)) continue;  // withdrawn
    job_(arg_, j);
    spin = spin_;  // (the job's fields stay put until its running workers are all done)
    done_.fetch_add(1, std::memory_order_acq_rel);
    done_.notify_one();
  }
}

bool HostPool::startThread() {
  slots_.reserve(slots_.size() + 1);  // (the push_back after the start cannot throw)
  auto s = std::make_unique<Slot>();
  Slot& slot = *s;
  const auto j = static_cast<unsigned>(slots_.size()) + 1;
  try {
    std::thread([this, &slot, j] { workerLoop(slot, j); }).detach();
  } catch (const std::system_error&) {
    return false;  // the system has no thread to give
  }
  slots_.push_back(std::move(s));
  return true;
}

void HostPool::run(unsigned n, Job job, void* arg, bool withdraw) {
  if (n <= 1) {
    job(arg, 0);
    return;
  }
  // Workers [1, pooled] run on the pool's threads, the rest on threads of their
  // own; a worker whose thread cannot be started runs on the caller after worker 0.
  std::unique_lock<std::mutex> own(busy_, std::try_to_lock);
  unsigned pooled = 0;  // (none if another launch has the pool; its slots are not ours to look at)
  if (own.owns_lock()) {
    pooled = std::min(n - 1, maxThreads());
    while (slots_.size() < pooled && startThread()) {
    }
    pooled = std::min(pooled, static_cast<unsigned>(slots_.size()));
  }
  std::vector<std::thread> extra;
  std::vector<unsigned> onCaller;
  for (unsigned j = pooled + 1; j < n; ++j) {
    try {
      extra.emplace_back([job, arg, j] { job(arg, j); });
    } catch (const std::system_error&) {
      onCaller.push_back(j);
    }
  }
  if (pooled) {
    job_ = job;
    arg_ = arg;
    spin_ = n <= maxThreads();
    done_.store(0, std::memory_order_relaxed);
    for (unsigned j = 1; j <= pooled; ++j) {
      Slot& s = *slots_[j - 1];
      s.claim.store(kPosted, std::memory_order_release);
      s.go.fetch_add(1, std::memory_order_release);
      s.go.notify_one();
    }
  }
  job(arg, 0);
  for (unsigned j : onCaller) job(arg, j);
  for (auto& t : extra) t.join();
  // With `withdraw`, the workers no pool thread has started are withdrawn; the others are waited for.
  uint32_t running = pooled;
  for (unsigned j = 1; withdraw && j <= pooled; ++j) {
    uint32_t posted = kPosted;
    if (slots_[j - 1]->claim.compare_exchange_strong(posted, kWithdrawn, std::memory_order_acq_rel)) --running;
  }
  for (uint32_t d = done_.load(std::memory_order_acquire); pooled && d != running;) d = awaitChange(done_, d, spin_);
}

}  // namespace visakit::sim
