// What the simulator takes from the host machine: the host-thread pool
// (src/sim/pool.hpp: every worker of a job runs exactly once, worker 0 on the
// caller, the pool's threads are kept for the next job, callers on several
// threads at once each get all their workers, a withdrawn worker never runs), the line allocator of the host
// threads' state (src/sim/memory.hpp), the last-level cache size that
// decides which surfaces are DRAM-sized (src/sim/ctx.hpp), and the vector lane
// helpers whose SSE2 forms stand for a plain loop (src/sim/copy.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/fast/ctx.hpp"
#include "sim/memory.hpp"
#include "sim/pool.hpp"

using visakit::sim::HostPool;

namespace {

constexpr unsigned kMaxWorkers = 8;

// What one job saw: how often each worker index ran, and on which thread.
struct Tally {
  std::array<std::atomic<unsigned>, kMaxWorkers> runs{};
  std::array<std::thread::id, kMaxWorkers> on{};
  static void job(void* arg, unsigned j) {
    auto& t = *static_cast<Tally*>(arg);
    t.on[j] = std::this_thread::get_id();  // (each j is written by one thread, read after run returns)
    t.runs[j].fetch_add(1);
  }
};

void expectEachWorkerOnce(const Tally& t, unsigned n) {
  for (unsigned j = 0; j < kMaxWorkers; ++j) EXPECT_EQ(t.runs[j].load(), j < n ? 1u : 0u) << "worker " << j << " of " << n;
}

}  // namespace

TEST(HostPool, EveryWorkerRunsOnceAndWorkerZeroOnTheCaller) {
  for (unsigned n : {1u, 2u, 3u, 5u, 8u, 2u, 1u}) {
    Tally t;
    HostPool::instance().run(n, &Tally::job, &t);
    expectEachWorkerOnce(t, n);
    EXPECT_EQ(t.on[0], std::this_thread::get_id());
    std::set<std::thread::id> distinct(t.on.begin(), t.on.begin() + n);
    EXPECT_EQ(distinct.size(), n) << "each worker of a job has a host thread of its own";
  }
}

TEST(HostPool, KeepsItsThreadsForTheNextJob) {
  HostPool& pool = HostPool::instance();
  // The caller and one pool thread per core.
  const unsigned n = std::min(HostPool::maxThreads() + 1, kMaxWorkers);
  Tally first;
  pool.run(n, &Tally::job, &first);
  const unsigned started = pool.threads();
  EXPECT_GE(started, n - 1);
  for (int i = 0; i < 20; ++i) {
    Tally t;
    pool.run(n, &Tally::job, &t);
    expectEachWorkerOnce(t, n);
    // The same host threads run workers 1..n-1 again (none started, none lost).
    for (unsigned j = 1; j < n; ++j) EXPECT_EQ(t.on[j], first.on[j]) << "worker " << j;
  }
  EXPECT_EQ(pool.threads(), started);
}

TEST(HostPool, KeepsNoMoreThreadsThanCores) {
  // Workers past the cores get threads of their own for the job; the pool does not grow past them.
  HostPool& pool = HostPool::instance();
  for (int i = 0; i < 3; ++i) {
    Tally t;
    pool.run(kMaxWorkers, &Tally::job, &t);
    expectEachWorkerOnce(t, kMaxWorkers);
    std::set<std::thread::id> distinct(t.on.begin(), t.on.end());
    EXPECT_EQ(distinct.size(), kMaxWorkers);
  }
  EXPECT_LE(pool.threads(), HostPool::maxThreads());
}

TEST(HostPool, CallersOnSeveralThreadsEachGetAllTheirWorkers) {
  // One caller holds the pool at a time; the others start threads of their own.
  constexpr int kCallers = 4, kJobs = 50;
  std::atomic<int> bad{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&bad, c] {
      for (int i = 0; i < kJobs; ++i) {
        Tally t;
        const unsigned n = 2 + static_cast<unsigned>((c + i) % 3);
        HostPool::instance().run(n, &Tally::job, &t);
        for (unsigned j = 0; j < kMaxWorkers; ++j)
          if (t.runs[j].load() != (j < n ? 1u : 0u)) bad.fetch_add(1);
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(HostPool, WithdrawnWorkersNeverTouchTheJobAfterRun) {
  // withdraw: a pool thread that had not started its worker when worker 0
  // returned never starts it. Each job's state lives on this loop's stack and is
  // gone when run returns: a worker that ran after that would be a use after
  // scope (the asan and tsan presets), a count above 1, or a lost unit.
  // Worker 0 returning at once leaves the pool threads little time to start.
  HostPool& pool = HostPool::instance();
  const unsigned n = std::min(HostPool::maxThreads() + 1, kMaxWorkers);
  unsigned withdrawn = 0;
  for (int i = 0; i < 500; ++i) {
    struct Shared {
      Tally t;
      std::atomic<unsigned> next{0}, done{0};
    } sh;
    auto job = [](void* arg, unsigned j) {
      auto& s = *static_cast<Shared*>(arg);
      Tally::job(&s.t, j);
      if (j == 0 && s.next.load() == 0) return;  // worker 0 leaves the units to the others, if they come
      while (s.next.fetch_add(1) < 64) s.done.fetch_add(1);
    };
    pool.run(n, job, &sh, /*withdraw=*/true);
    EXPECT_EQ(sh.t.runs[0].load(), 1u);
    for (unsigned j = 1; j < kMaxWorkers; ++j) EXPECT_LE(sh.t.runs[j].load(), 1u) << "worker " << j;
    for (unsigned j = 1; j < n; ++j) withdrawn += sh.t.runs[j].load() == 0;
    // The units are all done exactly once, or none were taken (every other worker withdrawn).
    EXPECT_TRUE(sh.done.load() == 64 || sh.next.load() == 0) << sh.done.load();
  }
  // (Which workers are withdrawn is the scheduler's choice; it is printed, not asserted.)
  std::printf("withdrawn workers: %u of %u\n", withdrawn, 500 * (n - 1));
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VISAKIT_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define VISAKIT_TSAN 1
#endif

TEST(HostPool, WorkersWhoseThreadsCannotStartRunOnTheCaller) {
#if defined(VISAKIT_TSAN)
  GTEST_SKIP() << "ThreadSanitizer does not support starting threads after a multi-threaded fork";
#else
  // A child process that may have no thread besides its own (RLIMIT_NPROC 1 for
  // an unprivileged user): every worker still runs exactly once.
  Tally warm;
  HostPool::instance().run(2, &Tally::job, &warm);  // the parent has a pool thread, which the child has not
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    rlimit one{1, 1};
    if (setrlimit(RLIMIT_NPROC, &one) != 0 || setgid(65534) != 0 || setuid(65534) != 0) _exit(77);
    Tally t;
    HostPool::instance().run(4, &Tally::job, &t);
    for (unsigned j = 0; j < kMaxWorkers; ++j)
      if (t.runs[j].load() != (j < 4 ? 1u : 0u)) _exit(1);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "cannot drop privileges here";
  EXPECT_EQ(WEXITSTATUS(status), 0);
#endif
}

TEST(LineAllocator, EveryVectorHasWholeCacheLinesOfItsOwn) {
  using visakit::sim::kLine;
  using visakit::sim::LineVector;
  for (size_t n : {size_t{1}, size_t{3}, size_t{64}, size_t{65}, size_t{1000}}) {
    LineVector<uint8_t> a(n, 1), b(n, 2);
    LineVector<uint32_t> c(n, 3);
    for (const void* p : {static_cast<const void*>(a.data()), static_cast<const void*>(b.data()), static_cast<const void*>(c.data())})
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kLine, 0u) << n;
    // Two vectors never share a line: their lines are disjoint ranges.
    const auto lineA = reinterpret_cast<uintptr_t>(a.data()) / kLine, lineB = reinterpret_cast<uintptr_t>(b.data()) / kLine;
    const auto linesA = (n + kLine - 1) / kLine, linesB = linesA;
    EXPECT_TRUE(lineA + linesA <= lineB || lineB + linesB <= lineA) << n;
    EXPECT_EQ(a[n - 1], 1);
    EXPECT_EQ(b[n - 1], 2);
    EXPECT_EQ(c[n - 1], 3u);
  }
}

TEST(CacheSize, SysfsSizesParse) {
  using visakit::sim::parseCacheSize;
  EXPECT_EQ(parseCacheSize("32768K"), uint64_t{32} << 20);
  EXPECT_EQ(parseCacheSize("32768K\n"), uint64_t{32} << 20);
  EXPECT_EQ(parseCacheSize("1M"), uint64_t{1} << 20);
  EXPECT_EQ(parseCacheSize("2G"), uint64_t{2} << 30);
  EXPECT_EQ(parseCacheSize("512"), 512u);
  for (const char* bad : {"", "K", "12X", "-1K", "1.5M", " 1K", "99999999999999999999K"})
    EXPECT_EQ(parseCacheSize(bad), std::nullopt) << bad;
}

TEST(CacheSize, IsOneL3InstanceAsSysfsGivesIt) {
  // Read here independently: the L3 of cpu0 as sysfs lists it ("32768K"). glibc's
  // sysconf gave 384 MiB for this 32 MiB cache on a Zen 5 VM (docs/performance.md, "What was tried and left out").
  std::ifstream level("/sys/devices/system/cpu/cpu0/cache/index3/level"), size("/sys/devices/system/cpu/cpu0/cache/index3/size");
  std::string lv, sz;
  if (!(level >> lv) || lv != "3" || !(size >> sz) || sz.size() < 2 || sz.back() != 'K' ||
      std::ifstream("/sys/devices/system/cpu/cpu0/cache/index4/level"))
    GTEST_SKIP() << "no single L3 of the form NNNK listed in sysfs here";
  const uint64_t want = std::stoull(sz.substr(0, sz.size() - 1)) * 1024;
  EXPECT_EQ(visakit::sim::lastLevelCacheBytes(), want);
}

TEST(CacheSize, DramThresholdIsAtLeastEightMiB) {
  // Surfaces from this size on are DRAM-sized (latency hiding); never below 8 MiB.
  EXPECT_GE(visakit::sim::deferMinBytes(), uint64_t{8} << 20);
  const uint64_t llc = visakit::sim::lastLevelCacheBytes();
  if (llc >= (uint64_t{8} << 20)) {
    EXPECT_EQ(visakit::sim::deferMinBytes(), llc);
  }
}

// copy.hpp's allAtMost<N> (the in-bounds test of every dword lane of a
// GATHER/SCATTER_SCALED, four lanes per SSE2 compare) against its definition,
// lane by lane, at limits on both sides of 2^31 (the signed-compare trick).
template <unsigned N>
void checkAllAtMost(std::mt19937& rng) {
  auto reference = [](const uint32_t* a, uint32_t limit, uint32_t mask) {
    for (unsigned i = 0; i < N; ++i)
      if (a[i] > limit || (a[i] & mask)) return false;
    return true;
  };
  const uint32_t limits[] = {0, 3, 60, 0xffffc, 0xffffd, 0x12344, 0x7ffffffc, 0x80000000u, 0xfffffffbu, 0xffffffffu};
  unsigned agreedTrue = 0, agreedFalse = 0;
  for (uint32_t limit : limits)
    for (uint32_t mask : {0u, 1u, 3u, 7u})
      for (int round = 0; round < 300; ++round) {
        uint32_t a[N];
        // Lanes inside [0, limit] most of the time, one pushed past it or
        // misaligned now and then.
        for (unsigned i = 0; i < N; ++i) a[i] = limit ? static_cast<uint32_t>(rng() % (uint64_t{limit} + 1)) : 0;
        if (round % 3 == 0)
          for (unsigned i = 0; i < N; ++i) a[i] &= ~mask;
        if (round % 5 == 1) a[rng() % N] = limit + 1 + static_cast<uint32_t>(rng() % 8);
        if (round % 7 == 2) a[rng() % N] |= mask & 1;
        const bool want = reference(a, limit, mask);
        ASSERT_EQ(visakit::sim::allAtMost<N>(a, limit, mask), want) << "limit " << limit << " mask " << mask;
        (want ? agreedTrue : agreedFalse)++;
      }
  EXPECT_GT(agreedTrue, 100u);  // both answers were exercised
  EXPECT_GT(agreedFalse, 100u);
}

TEST(LaneHelpers, AllAtMostAgreesWithItsDefinition) {
  std::mt19937 rng(7);
  checkAllAtMost<4>(rng);
  checkAllAtMost<8>(rng);
  checkAllAtMost<16>(rng);
  checkAllAtMost<32>(rng);
}
