// Memory hints for big buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace visakit {

// Asks the kernel to back the 2 MiB-aligned interior of [p, p + bytes) with
// huge pages: a fresh 40 MB buffer then costs a few page faults instead of
// ten thousand. Only a hint; nothing happens where it is not supported.
inline void adviseHugePages([[maybe_unused]] const void* p, [[maybe_unused]] size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace visakit
