// The host threads a launch runs on (issue 5): kept between launches, because
// starting and joining a std::thread costs 50-60 us on these machines, a
// quarter of a 2-thread launch of the 1 MiB gather. docs/architecture.md,
// "Scheduling".
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/memory.hpp"

namespace visakit::sim {

class HostPool {
 public:
  using Job = void (*)(void* arg, unsigned worker);

  // The process's pool. Its threads start on first use and are never joined:
  // the pool is never destroyed, so that nothing an idle thread touches goes
  // away at exit. A child process after fork() starts threads of its own.
  static HostPool& instance();

  // Runs job(arg, j) for j in [0, n): j = 0 on the calling thread, the others
  // on pool threads; returns when all n have returned. With `withdraw`, a
  // pool thread that has not started its worker when worker 0 returns does
  // not start it, and run returns when those that started have returned: for
  // a job any one worker can finish (the launches' workers take units from
  // shared counters), so that a short launch does not wait for a thread the
  // scheduler has not run yet. The pool keeps at most maxThreads() threads;
  // workers beyond them get threads of their own for this job. If another
  // launch holds the pool, this one starts and joins threads of its own instead.
  void run(unsigned n, Job job, void* arg, bool withdraw = false);

  // How long an idle pool thread, and a caller waiting for the pool threads,
  // spins before it sleeps in the kernel. A launch that follows within this
  // time starts without a wake-up through the scheduler, which costs about
  // 30-60 us on these VMs (docs/performance.md, "What was tried and left out"). OpenMP runtimes
  // make the same trade (libgomp spins for a comparable time by default).
  // Only a job with no more workers than the host has cores spins: with more,
  // a spinning thread would take a core from one still working.
  static constexpr std::chrono::microseconds kSpin{2000};

  // Pool threads started so far, and the most the pool keeps (the cores).
  unsigned threads() const;
  static unsigned maxThreads();

 private:
  HostPool() = default;
  // Pool thread j - 1 runs worker j. `go` moves on (release) once the job's
  // fields are written; only the threads a job needs are told. `claim`: the
  // thread takes a posted job (kPosted -> kRunning) unless the caller has
  // withdrawn it first (kPosted -> kWithdrawn).
  enum : uint32_t { kIdle, kPosted, kRunning, kWithdrawn };
  struct Slot {
    alignas(kLine) std::atomic<uint32_t> go{0};
    std::atomic<uint32_t> claim{kIdle};
  };
  void workerLoop(Slot& slot, unsigned j);
  bool startThread();    // one more pool thread; false if the system has none to give
  void forgetThreads();  // in a child after fork(): the parent's threads are not there

  mutable std::mutex busy_;  // held by the launch using the pool
  std::vector<std::unique_ptr<Slot>> slots_;
  Job job_ = nullptr;
  void* arg_ = nullptr;
  bool spin_ = true;  // the current job's workers, and its caller, spin before they sleep
  alignas(kLine) std::atomic<uint32_t> done_{0};  // pool threads that finished the current job
};

}  // namespace visakit::sim
