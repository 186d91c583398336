#include "cl/compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace visakit::cl {
namespace {

// The value's place on one line of all values of the type: -(magnitude bits)
// for negative values, +(bits) for positive ones; +0 and -0 are both 0.
int64_t orderKey(uint64_t bits, unsigned width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

struct FloatClass {
  bool nan = false, inf = false;
};

FloatClass classify(uint64_t bits, unsigned width) {
  const unsigned mant = width == 16 ? 10 : width == 32 ? 23 : 52;
  const uint64_t expMask = ((uint64_t{1} << (width - 1 - mant)) - 1) << mant;
  const uint64_t mantMask = (uint64_t{1} << mant) - 1;
  FloatClass c;
  if ((bits & expMask) == expMask) {
    c.nan = (bits & mantMask) != 0;
    c.inf = !c.nan;
  }
  return c;
}

uint64_t ulpBits(uint64_t a, uint64_t b, unsigned width) {
  FloatClass ca = classify(a, width), cb = classify(b, width);
  if (ca.nan || cb.nan) return ca.nan && cb.nan ? 0 : kUlpInfinite;
  if (ca.inf || cb.inf) return a == b ? 0 : kUlpInfinite;
  int64_t ka = orderKey(a, width), kb = orderKey(b, width);
  // |ka - kb| < 2^64 always: the keys lie in [-(2^63 - 1), 2^63 - 1].
  return ka >= kb ? static_cast<uint64_t>(ka) - static_cast<uint64_t>(kb)
                  : static_cast<uint64_t>(kb) - static_cast<uint64_t>(ka);
}

double halfToDouble(uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else v = std::ldexp(mant + 1024, exp - 25);
  return (h & 0x8000) ? -v : v;
}

uint64_t loadLE(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

double asDouble(ScalarType t, uint64_t bits) {
  switch (t) {
    case ScalarType::F16: return halfToDouble(static_cast<uint16_t>(bits));
    case ScalarType::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    default: return std::bit_cast<double>(bits);
  }
}

}  // namespace

uint64_t ulpDistance(float a, float b) { return ulpBits(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b), 32); }
uint64_t ulpDistance(double a, double b) { return ulpBits(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b), 64); }
uint64_t ulpDistanceHalf(uint16_t a, uint16_t b) { return ulpBits(a, b, 16); }

bool floatsMatch(double a, double b, uint64_t ulps, const Tolerance& t) {
  switch (t.kind) {
    case Tolerance::Kind::Exact: return ulps == 0;
    case Tolerance::Kind::Ulp: return ulps != kUlpInfinite && ulps <= t.ulps;
    case Tolerance::Kind::Rel: {
      if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return ulps == 0;
      // In long double: the difference of two doubles cannot overflow there.
      long double la = a, lb = b;
      long double diff = std::fabs(la - lb);
      long double mag = std::max(std::fabs(la), std::fabs(lb));
      return diff <= static_cast<long double>(t.rel) * mag;
    }
  }
  return false;
}

std::string formatValue(ScalarType t, uint64_t bits) {
  switch (t) {
    case ScalarType::I8: return fmt::format("{}", static_cast<int8_t>(bits));
    case ScalarType::U8: return fmt::format("{}", static_cast<uint8_t>(bits));
    case ScalarType::I16: return fmt::format("{}", static_cast<int16_t>(bits));
    case ScalarType::U16: return fmt::format("{}", static_cast<uint16_t>(bits));
    case ScalarType::I32: return fmt::format("{}", static_cast<int32_t>(bits));
    case ScalarType::U32: return fmt::format("{}", static_cast<uint32_t>(bits));
    case ScalarType::I64: return fmt::format("{}", static_cast<int64_t>(bits));
    case ScalarType::U64: return fmt::format("{}", bits);
    case ScalarType::F16: {
      // Every half is a float exactly; the shortest float text reads back to it.
      float f = static_cast<float>(halfToDouble(static_cast<uint16_t>(bits)));
      return fmt::format("{} (0x{:04x})", f, bits & 0xffff);
    }
    case ScalarType::F32: return fmt::format("{} (0x{:08x})", std::bit_cast<float>(static_cast<uint32_t>(bits)), bits & 0xffffffffu);
    case ScalarType::F64: return fmt::format("{} (0x{:016x})", std::bit_cast<double>(bits), bits);
  }
  return "?";
}

CompareResult compareBuffers(std::span<const uint8_t> actual, std::span<const uint8_t> reference,
                             std::string_view typeName, const CompareOptions& opts) {
  CompareResult r;
  r.type = parseTypeName(typeName);
  r.actualBytes = actual.size();
  r.referenceBytes = reference.size();
  const uint64_t n = std::min(actual.size(), reference.size());

  const std::optional<ScalarType> scalar = r.type.scalar;
  const unsigned compSize = scalar ? scalarTypeSize(*scalar) : 1;
  const unsigned comps = scalar ? r.type.components : 1;
  const unsigned slots = scalar ? r.type.slots : 1;
  const uint64_t elemSize = uint64_t{compSize} * slots;
  const uint64_t whole = n / elemSize;  // whole elements in the common prefix
  if (!scalar) r.elementText = "bytes";
  else if (comps == 1) r.elementText = r.type.base;
  else r.elementText = fmt::format("{} (per component)", r.type.base);

  // One element per work-item: element e is the work-item of linear global id e.
  // (The count from the global sizes themselves, not LaunchShape::workItems, which a caller may leave stale.)
  uint64_t items = 1;
  bool itemsFit = opts.launch != nullptr;
  for (unsigned i = 0; itemsFit && i < 3; ++i)
    itemsFit = opts.launch->global[i] != 0 && !__builtin_mul_overflow(items, opts.launch->global[i], &items);
  const bool perItem = itemsFit && scalar && r.actualBytes == r.referenceBytes && r.actualBytes % elemSize == 0 &&
                       r.actualBytes / elemSize == items;
  auto workItemOf = [&](uint64_t e) -> std::optional<std::array<uint64_t, 3>> {
    if (!perItem) return std::nullopt;
    const auto& g = opts.launch->global;
    const auto& o = opts.launch->offset;
    return std::array<uint64_t, 3>{o[0] + e % g[0], o[1] + (e / g[0]) % g[1], o[2] + e / (g[0] * g[1])};
  };

  auto record = [&](Difference d) {
    ++r.differing;
    if (r.first.size() < opts.maxReported) r.first.push_back(std::move(d));
  };

  for (uint64_t e = 0; e < whole; ++e) {
    for (unsigned c = 0; c < comps; ++c) {
      const uint64_t off = e * elemSize + uint64_t{c} * compSize;
      const uint64_t a = loadLE(actual.data() + off, compSize);
      const uint64_t b = loadLE(reference.data() + off, compSize);
      ++r.compared;
      if (!scalar) {
        if (a != b) {
          Difference d;
          d.element = e;
          d.byteOffset = off;
          d.asBytes = true;
          d.actual = fmt::format("0x{:02x}", a);
          d.reference = fmt::format("0x{:02x}", b);
          record(std::move(d));
        }
        continue;
      }
      bool match;
      std::optional<uint64_t> ulps;
      if (isFloat(*scalar)) {
        ulps = ulpBits(a, b, 8 * compSize);
        r.maxUlps = std::max(r.maxUlps, *ulps);
        match = floatsMatch(asDouble(*scalar, a), asDouble(*scalar, b), *ulps, opts.tolerance);
      } else {
        match = a == b;
      }
      if (match) continue;
      Difference d;
      d.element = e;
      d.component = c;
      d.byteOffset = off;
      d.actual = formatValue(*scalar, a);
      d.reference = formatValue(*scalar, b);
      d.ulps = ulps;
      d.workItem = workItemOf(e);
      record(std::move(d));
    }
  }
  // The bytes after the last whole element (a buffer that is not a whole number of elements).
  for (uint64_t off = whole * elemSize; off < n; ++off) {
    ++r.compared;
    if (actual[off] == reference[off]) continue;
    Difference d;
    d.element = off / elemSize;
    d.byteOffset = off;
    d.asBytes = true;
    d.actual = fmt::format("0x{:02x}", actual[off]);
    d.reference = fmt::format("0x{:02x}", reference[off]);
    record(std::move(d));
  }
  return r;
}

std::string formatDifference(const Difference& d, const CompareResult& r) {
  static constexpr const char* kXyzw = "xyzw";
  std::string where;
  if (d.asBytes) {
    where = fmt::format("byte {}", d.byteOffset);
  } else if (r.type.components > 1) {
    where = r.type.components <= 4 ? fmt::format("element {}.{}", d.element, kXyzw[d.component])
                                   : fmt::format("element {}.s{:x}", d.element, d.component);
  } else {
    where = fmt::format("element {}", d.element);
  }
  if (d.workItem) where += fmt::format(" (work-item {},{},{})", (*d.workItem)[0], (*d.workItem)[1], (*d.workItem)[2]);
  std::string s = fmt::format("{}: {} vs reference {}", where, d.actual, d.reference);
  if (d.ulps) s += *d.ulps == kUlpInfinite ? std::string(", not comparable in ulps") : fmt::format(", {} ulp", *d.ulps);
  return s;
}

}  // namespace visakit::cl
