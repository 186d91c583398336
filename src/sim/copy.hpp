// Fixed-size copies of lane arrays. g++ -O2 expands a 32- to 128-byte memcpy
// into `rep movs`, whose start-up costs more than the copy; 16-byte vector
// moves do not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace visakit::sim {

template <size_t Bytes>
inline void copyFixed(void* dst, const void* src) {
#if defined(__SSE2__)
  if constexpr (Bytes % 16 == 0) {
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    for (size_t i = 0; i < Bytes; i += 16)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    return;
  }
#endif
  std::memcpy(dst, src, Bytes);
}

// Stores four dwords as one 16-byte vector, so that a later 16-byte load of
// them is forwarded from the store buffer (four 4-byte stores are not).
inline void store4(void* dst, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
#if defined(__SSE2__)
  _mm_storeu_si128(static_cast<__m128i*>(dst), _mm_set_epi32(static_cast<int>(d), static_cast<int>(c),
                                                             static_cast<int>(b), static_cast<int>(a)));
#else
  const uint32_t v[4] = {a, b, c, d};
  std::memcpy(dst, v, sizeof v);
#endif
}

}  // namespace visakit::sim
