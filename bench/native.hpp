// The native side of each workload: straightforward C++ loops, compiled at -O2
// without floating-point contraction (bench/CMakeLists.txt), in their own
// translation unit so that the benchmarks cannot fold them away.
#pragma once

#include <cstddef>
#include <cstdint>

namespace visakit::bench {

// dst[i] = src[idx[i]]
void nativeGather(const uint32_t* src, const uint32_t* idx, uint32_t* dst, size_t n);
// pix[4i + c] = plane_c[i]
void nativeScatter4(const float* r, const float* g, const float* b, const float* a, float* pix, size_t n);
// dst[perm[i]] = src[i]
void nativeQwScatter(const uint64_t* src, const uint32_t* perm, uint64_t* dst, size_t n);
// Vertices in blocks of 8 (vin: output k of vertex v at dword 8k + v of the block) to URB
// entries of 8 dwords per vertex: urb[8n + k] = output k of vertex n.
void nativeUrbWrite(const uint32_t* vin, uint32_t* urb, size_t vertices);
// y[i] = a * x[i] + y[i] (wrapping)
void nativeAxpyInt(uint32_t a, const uint32_t* x, uint32_t* y, size_t n);
// y[i] = a * x[i] + y[i] (two roundings)
void nativeAxpyFloat(float a, const float* x, float* y, size_t n);

}  // namespace visakit::bench
