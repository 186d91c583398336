// The atomic operations of DWORD_ATOMIC, SVM_ATOMIC and TYPED_ATOMIC (their
// pages' Op field, and IGC's CISAAtomicOpNames for the text), shared by the
// family-M files: text (syntax_mem.cpp), rules (rules_mem.cpp), semantics
// (sem/mem_legacy.cpp).
#pragma once

#include <cctype>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace visakit::memops {

// Op bits 0-4: the operation; bit 5: 16-bit; bit 6: 64-bit (SVM_ATOMIC only).
enum AtomicCode : uint8_t {
  kAdd = 0x0, kSub = 0x1, kInc = 0x2, kDec = 0x3, kMin = 0x4, kMax = 0x5, kXchg = 0x6, kCmpXchg = 0x7,
  kAnd = 0x8, kOr = 0x9, kXor = 0xa, kIMin = 0xb, kIMax = 0xc, kPreDec = 0xd,
  kFMax = 0x10, kFMin = 0x11, kFCmpWr = 0x12, kFAdd = 0x13, kFSub = 0x14,
};
constexpr uint8_t kOpBits = 0x1f, kOp16 = 0x20, kOp64 = 0x40;

// IGC's spellings (printed); 0xd is the pages' predec, which IGC has no name for.
inline const char* atomicName(unsigned code) {
  static constexpr const char* kNames[] = {"add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor",
                                           "minsint", "maxsint", "predec", nullptr, nullptr, "fmax", "fmin", "fcmpwr",
                                           "fadd", "fsub"};
  return code < std::size(kNames) ? kNames[code] : nullptr;
}

// IGC's spellings and the pages' (imin, imax; upper case as the pages' "ADD, SUB").
inline std::optional<unsigned> atomicByName(std::string_view s) {
  std::string low(s);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (low == "imin") return kIMin;
  if (low == "imax") return kIMax;
  for (unsigned c = 0; c <= kFSub; ++c)
    if (const char* n = atomicName(c); n && low == n) return c;
  return std::nullopt;
}

// The operations the pages' Op tables list (fadd and fsub are IGC's, not the pages').
inline bool onPage(unsigned code) { return code <= kPreDec || (code >= kFMax && code <= kFCmpWr); }
inline bool isFloatOp(unsigned code) { return code >= kFMax; }
inline bool isSignedOp(unsigned code) { return code == kIMin || code == kIMax; }
// "For the INC and DEC atomic operation it must be V0": src0 is read by the others.
inline bool usesSrc0(unsigned code) { return code != kInc && code != kDec && code != kPreDec; }
// "For the CMPXCHG and FCMPWR operation ... src1. For all other operations it must be V0".
inline bool usesSrc1(unsigned code) { return code == kCmpXchg || code == kFCmpWr; }

}  // namespace visakit::memops
