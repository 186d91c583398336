// Shared pieces of the vISA binary object codec (chapter 4 "The Virtual ISA
// Object Format"; byte layouts in igc-dialect.md §2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "visakit/kernel.hpp"

namespace visakit::binary {

// Chapter 4 common_isa_header: magic 'CISA' (0x41534943), little-endian.
constexpr uint32_t kMagic = 0x41534943;
// igc-dialect.md §2.1: Intel's last writer wrote 4.1; its reader accepts 3.4-4.1.
constexpr uint8_t kWriteMajor = 4, kWriteMinor = 1;
constexpr unsigned version(unsigned major, unsigned minor) { return major * 256 + minor; }
constexpr unsigned kMinRead = version(3, 4), kMaxRead = version(4, 1);

// igc-dialect.md §2.3: the string pool Intel's writer made holds the names of
// predefined variables V0..V20 (%null..%msg0; not V21 %scratchloc), then the
// six predefined surfaces, then the bindless sampler.
constexpr unsigned kPoolPredefVars = 21;
constexpr const char* kBindlessSamplerName = "S31";

// Vector operand classes (tag bits 0-2, igc-dialect.md §2.4).
enum OperandClass : uint8_t {
  kClassGeneral = 0, kClassAddress = 1, kClassPredicate = 2, kClassIndirect = 3,
  kClassAddressOf = 4, kClassImmediate = 5, kClassState = 6,
};
constexpr uint8_t kModSat = 4;  // modifier 4 on a destination tag = .sat

// Attribute kinds by name (IGC's VISAAttributes.h list): the binary form holds
// only a name and raw bytes, so the kind read back is decided by the name.
enum class AttrNameKind : uint8_t { Unknown, Bool, Int, Str };
AttrNameKind attrNameKind(std::string_view name);

// Why `m` cannot be written in the binary format (a count or length that does
// not fit its field), or nullopt. writeBinary returns no bytes in that case.
std::optional<std::string> encodeLimitError(const Module& m);

}  // namespace visakit::binary
