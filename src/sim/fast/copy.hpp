// Fixed-size copies of lane arrays. g++ -O2 expands a 32- to 128-byte memcpy
// into `rep movs`, whose start-up costs more than the copy; 16-byte vector
// moves do not.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace visakit::sim {

template <size_t Bytes>
inline void copyFixed(void* dst, const void* src) {
#if defined(__SSE2__)
  if constexpr (Bytes % 16 == 0) {
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
#pragma GCC unroll 8
    for (size_t i = 0; i < Bytes; i += 16)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    return;
  }
#endif
  std::memcpy(dst, src, Bytes);
}

// addr[i] = g + off[i] (mod 2^32), i < N.
template <unsigned N>
inline void addScalar(uint32_t* addr, const uint32_t* off, uint32_t g) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    const __m128i vg = _mm_set1_epi32(static_cast<int>(g));
#pragma GCC unroll 8
    for (unsigned i = 0; i < N; i += 4)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(addr + i),
                       _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(off + i)), vg));
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i) addr[i] = g + off[i];
}

// addr[i] == addr[0] + step * i (mod 2^32) for every i < N.
template <unsigned N>
inline bool isArithmetic(const uint32_t* addr, uint32_t step) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    if (addr[1] - addr[0] != step) return false;  // scattered lanes mostly fail here, in one compare
    __m128i want = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(addr[0])),
                                 _mm_setr_epi32(0, static_cast<int>(step), static_cast<int>(2 * step), static_cast<int>(3 * step)));
    const __m128i inc = _mm_set1_epi32(static_cast<int>(4 * step));
    __m128i diff = _mm_setzero_si128();
#pragma GCC unroll 8
    for (unsigned i = 0; i < N; i += 4) {
      diff = _mm_or_si128(diff, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(addr + i)), want));
      want = _mm_add_epi32(want, inc);
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi32(diff, _mm_setzero_si128())) == 0xffff;
  }
#endif
  uint32_t bad = 0;
  for (unsigned i = 0; i < N; ++i) bad |= addr[i] ^ (addr[0] + step * i);
  return bad == 0;
}

// Every addr[i] (i < N) is at most `limit` and has no bit of `alignMask` set.
template <unsigned N>
inline bool allAtMost(const uint32_t* addr, uint32_t limit, uint32_t alignMask) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    // Unsigned a > limit as a signed compare of the values with the sign bit flipped.
    const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
    const __m128i lim = _mm_set1_epi32(static_cast<int>(limit ^ 0x80000000u));
    const __m128i am = _mm_set1_epi32(static_cast<int>(alignMask));
    __m128i bad = _mm_setzero_si128();
#pragma GCC unroll 8
    for (unsigned i = 0; i < N; i += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(addr + i));
      bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpgt_epi32(_mm_xor_si128(v, flip), lim), _mm_and_si128(v, am)));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi32(bad, _mm_setzero_si128())) == 0xffff;
  }
#endif
  uint32_t bad = 0;
  for (unsigned i = 0; i < N; ++i) bad |= (addr[i] > limit ? 1u : 0u) | (addr[i] & alignMask);
  return bad == 0;
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

// dst[i] = the dword at base + addr[i], i < N, with plain loads (a space no
// other host thread writes): each load goes straight into a vector lane, four
// lanes are packed and stored as one 16-byte vector (see store4).
template <unsigned N>
[[gnu::always_inline]] inline void gatherDwordsPlain(const uint8_t* base, const uint32_t* addr, uint8_t* dst) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    // The lane addresses are read from memory: inlined where they were just
    // computed in vector registers, g++ would otherwise take each out of them
    // with shuffles, which costs more than a load.
    asm("" : : "r"(addr) : "memory");
    auto lane = [&](unsigned i) {
      int v;
      std::memcpy(&v, base + addr[i], 4);
      return _mm_cvtsi32_si128(v);
    };
#pragma GCC unroll 8
    for (unsigned i = 0; i < N; i += 4) {
      const __m128i lo = _mm_unpacklo_epi32(lane(i), lane(i + 1)), hi = _mm_unpacklo_epi32(lane(i + 2), lane(i + 3));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 4 * i), _mm_unpacklo_epi64(lo, hi));
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i) std::memcpy(dst + 4 * i, base + addr[i], 4);
}

// Pixel-major copy of 2 channel planes: dword 2i + ch of out = dword i of
// plane ch, i < N, the planes `stride` dwords apart.
template <unsigned N>
inline void interleave2(uint8_t* out, const uint8_t* planes, unsigned stride) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + 4 * i));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + 4 * (stride + i)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 8 * i), _mm_unpacklo_epi32(x, y));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 8 * i + 16), _mm_unpackhi_epi32(x, y));
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i)
    for (unsigned ch = 0; ch < 2; ++ch) std::memcpy(out + 4 * (2 * i + ch), planes + 4 * (ch * stride + i), 4);
}
// The inverse of interleave2: dword i of plane ch = dword 2i + ch of in.
template <unsigned N>
inline void deinterleave2(uint8_t* planes, const uint8_t* in, unsigned stride) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4) {
      const __m128 a = _mm_loadu_ps(reinterpret_cast<const float*>(in + 8 * i));
      const __m128 b = _mm_loadu_ps(reinterpret_cast<const float*>(in + 8 * i + 16));
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * i), _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * (stride + i)), _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i)
    for (unsigned ch = 0; ch < 2; ++ch) std::memcpy(planes + 4 * (ch * stride + i), in + 4 * (2 * i + ch), 4);
}
// Four channel planes (`stride` dwords apart) from the 16-byte pixels
// pixel(i), i < N: dword i of plane ch = dword ch of pixel i. `pixel(i)`
// gives a pointer to 16 bytes (loaded as they are).
template <unsigned N, class Px>
inline void gatherPixels4(uint8_t* planes, unsigned stride, Px pixel) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4) {
      auto load = [&](unsigned k) { return _mm_loadu_ps(reinterpret_cast<const float*>(pixel(i + k))); };
      __m128 r = load(0), g = load(1), b = load(2), a = load(3);
      _MM_TRANSPOSE4_PS(r, g, b, a);
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * i), r);
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * (stride + i)), g);
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * (2 * stride + i)), b);
      _mm_storeu_ps(reinterpret_cast<float*>(planes + 4 * (3 * stride + i)), a);
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i)
    for (unsigned ch = 0; ch < 4; ++ch) std::memcpy(planes + 4 * (ch * stride + i), pixel(i) + 4 * ch, 4);
}
// The 16-byte pixels of four channel planes: put(i, p) with p the 16 bytes of
// pixel i (dword ch = dword i of plane ch), i < N in order.
template <unsigned N, class Put>
inline void scatterPixels4(const uint8_t* planes, unsigned stride, Put put) {
  alignas(16) uint8_t px[64];
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4) {
      auto load = [&](unsigned ch) { return _mm_loadu_ps(reinterpret_cast<const float*>(planes + 4 * (ch * stride + i))); };
      __m128 r = load(0), g = load(1), b = load(2), a = load(3);
      _MM_TRANSPOSE4_PS(r, g, b, a);
      _mm_store_ps(reinterpret_cast<float*>(px), r);
      _mm_store_ps(reinterpret_cast<float*>(px + 16), g);
      _mm_store_ps(reinterpret_cast<float*>(px + 32), b);
      _mm_store_ps(reinterpret_cast<float*>(px + 48), a);
      for (unsigned k = 0; k < 4; ++k) put(i + k, px + 16 * k);
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i) {
    for (unsigned ch = 0; ch < 4; ++ch) std::memcpy(px + 4 * ch, planes + 4 * (ch * stride + i), 4);
    put(i, px);
  }
}

// Pixel-major copy of 4 channel planes: dword 4i + ch of out = dword i of
// plane ch, i < N, the planes `stride` dwords apart.
template <unsigned N>
inline void interleave4(uint8_t* out, const uint8_t* planes, unsigned stride) {
#if defined(__SSE2__)
  if constexpr (N % 4 == 0) {
    for (unsigned i = 0; i < N; i += 4) {
      auto load = [&](unsigned ch) {
        return _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + 4 * (ch * stride + i))));
      };
      __m128 r = load(0), g = load(1), b = load(2), a = load(3);
      _MM_TRANSPOSE4_PS(r, g, b, a);
      _mm_storeu_ps(reinterpret_cast<float*>(out + 16 * i), r);
      _mm_storeu_ps(reinterpret_cast<float*>(out + 16 * i + 16), g);
      _mm_storeu_ps(reinterpret_cast<float*>(out + 16 * i + 32), b);
      _mm_storeu_ps(reinterpret_cast<float*>(out + 16 * i + 48), a);
    }
    return;
  }
#endif
  for (unsigned i = 0; i < N; ++i)
    for (unsigned ch = 0; ch < 4; ++ch) std::memcpy(out + 4 * (4 * i + ch), planes + 4 * (ch * stride + i), 4);
}

}  // namespace visakit::sim
