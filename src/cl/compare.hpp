// visakit cl --compare: two output buffers of one kernel argument, element by
// element in the argument's type (docs/spec-decisions.md, "visakit cl:
// arguments and comparison"). Pure functions, no OpenCL dependency.
//
//   CompareOptions o;
//   o.tolerance = *parseTolerance("ulp:2", err);
//   CompareResult r = compareBuffers(ours, reference, "float4*;8", o);
//   for (const auto& d : r.first) std::cerr << formatDifference(d) << "\n";
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cl/launch_args.hpp"

namespace visakit::cl {

// The distance of a NaN from a number, and of an infinity from anything but itself.
constexpr uint64_t kUlpInfinite = ~uint64_t{0};

// Units in the last place between two values of one floating-point type: the
// number of representable values one passes going from a to b, where +0 and -0
// are one value (distance 0), the smallest denormals of either sign are 1 from
// zero (so -denorm_min to +denorm_min is 2), and the largest finite value is the
// last before infinity. Two NaNs (any sign or payload) are 0 apart; a NaN and
// anything else, and an infinity and anything but the same infinity, are
// kUlpInfinite apart (no tolerance accepts them).
uint64_t ulpDistance(float a, float b);
uint64_t ulpDistance(double a, double b);
uint64_t ulpDistanceHalf(uint16_t a, uint16_t b);  // IEEE binary16 bit patterns

// Whether two values of a floating-point type match under a tolerance: Exact
// is ulp distance 0; Ulp N is a distance <= N (never kUlpInfinite); Rel X is
// |a - b| <= X * max(|a|, |b|) for finite values, and for NaN and infinities
// the same rules as the distance (both NaN: match; an infinity: only itself).
bool floatsMatch(double a, double b, uint64_t ulps, const Tolerance& t);

// A value of type t, whose bits are the low bytes of `bits`, as text: integers
// in decimal; floats as the shortest decimal that reads back to the value and
// their bits ("1.5 (0x3fc00000)", "nan (0x7fc00000)", "-0 (0x80000000)").
std::string formatValue(ScalarType t, uint64_t bits);

struct Difference {
  uint64_t element = 0;    // the element's index (a vector is one element)
  unsigned component = 0;  // the component in a vector (0 for scalars)
  uint64_t byteOffset = 0; // where the component starts in the buffer
  bool asBytes = false;    // compared as a byte (no known type, or the bytes after the last whole element)
  std::string actual, reference;   // the values, printed in the type (formatValue)
  std::optional<uint64_t> ulps;    // floating-point types: the ulp distance
  // The work-item whose linear global id is the element's index, when the
  // buffer holds exactly one element per work-item of the launch.
  std::optional<std::array<uint64_t, 3>> workItem;
};

struct CompareOptions {
  Tolerance tolerance;        // applies to floating-point elements only; integers and bytes are exact
  size_t maxReported = 10;    // the first K differences are kept
  const LaunchShape* launch = nullptr;  // to name work-items (Difference::workItem); its global sizes and offsets
};

struct CompareResult {
  TypeInfo type;                 // from the argument's type name
  std::string elementText;       // what was compared: "float4 (per component)", "int", "bytes"
  uint64_t compared = 0;         // components (or bytes) compared
  uint64_t differing = 0;        // of those, how many differ (beyond the tolerance)
  std::vector<Difference> first; // the first maxReported of them, in buffer order
  uint64_t maxUlps = 0;          // floating-point types: the largest ulp distance seen (kUlpInfinite if any NaN/inf mismatch)
  uint64_t actualBytes = 0, referenceBytes = 0;  // sizes; only the common prefix is compared
  bool equal() const { return differing == 0 && actualBytes == referenceBytes; }
};

// Compares `actual` (visakit's run) with `reference` (the OpenCL CPU device's)
// as elements of the pointee of `typeName` (kernel argument info: "float4*;8",
// "uint*", "struct S*;8"). Built-in scalars and vectors are compared per
// component (the padding component of a 3-component vector is skipped);
// anything else, and the bytes after the last whole element, byte by byte.
CompareResult compareBuffers(std::span<const uint8_t> actual, std::span<const uint8_t> reference,
                             std::string_view typeName, const CompareOptions& opts);

// One line for a difference: "element 5.y (work-item 5,0,0): 1.5 (0x3fc00000)
// vs reference 1.5000001 (0x3fc00001), 1 ulp".
std::string formatDifference(const Difference& d, const CompareResult& r);

}  // namespace visakit::cl
