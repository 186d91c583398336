// Native reference loops (see native.hpp). Compiled with -O2 -ffp-contract=off.
#include "native.hpp"

namespace visakit::bench {

void nativeGather(const uint32_t* src, const uint32_t* idx, uint32_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = src[idx[i]];
}

void nativeScatter4(const float* r, const float* g, const float* b, const float* a, float* pix, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    pix[4 * i + 0] = r[i];
    pix[4 * i + 1] = g[i];
    pix[4 * i + 2] = b[i];
    pix[4 * i + 3] = a[i];
  }
}

void nativeQwScatter(const uint64_t* src, const uint32_t* perm, uint64_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[perm[i]] = src[i];
}

void nativeUrbWrite(const uint32_t* vin, uint32_t* urb, size_t vertices) {
  for (size_t blk = 0; blk < vertices / 8; ++blk) {
    const uint32_t* in = vin + 64 * blk;
    uint32_t* out = urb + 64 * blk;
    for (size_t v = 0; v < 8; ++v)
      for (size_t k = 0; k < 8; ++k) out[8 * v + k] = in[8 * k + v];
  }
}

void nativeAxpyInt(uint32_t a, const uint32_t* x, uint32_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

void nativeAxpyFloat(float a, const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

}  // namespace visakit::bench
