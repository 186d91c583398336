// The register file of a simulated thread: every general variable at a byte
// offset, the same for both tiers (chapter 4 "Variables"; chapter 5
// implementation note on GRF alignment).
#pragma once

#include <cstdint>
#include <vector>

#include "visakit/kernel.hpp"

namespace visakit::sim {

// Predefined variables both tiers set at a thread's start (chapter 3 "Thread Payload").
constexpr unsigned kVarR0 = 7, kVarHwId = 12, kVarSr0 = 13;
// The predefined variables a function call copies between register files (FCALL page).
constexpr unsigned kVarArg = 8, kVarRetval = 9, kVarSp = 10, kVarFp = 11;

// Bytes [lo, hi) of the register file.
struct ByteRange {
  uint32_t lo = 0, hi = 0;
  bool meets(const ByteRange& o) const { return lo < o.hi && o.lo < hi; }
};

// Bytes past the last variable, so a 32-lane dword operand can be loaded whole.
constexpr uint32_t kRegPad = 256;

struct VarSlot {
  uint32_t offset = 0;  // byte offset in the register file
  uint32_t bytes = 0;
  Type type = Type::UD;
  bool present = false;
};

struct Layout {
  std::vector<VarSlot> vars;  // by general variable id
  uint32_t usedBytes = 0;     // bytes of laid-out variables
  uint32_t regBytes = 0;      // register file size per thread (+ kRegPad)
};

// Every general variable placed per its alignment, aliases resolved to their
// base's bytes; predefined variables only when the kernel names them.
Layout layoutVars(const Kernel& k, unsigned grfSize);

// The variable whose bytes `id` names, its alias chain followed (chapter 4,
// alias chains; at most 64 links); `offset` gets the alias offsets' sum.
uint32_t aliasRoot(const Kernel& k, uint32_t id, uint32_t* offset = nullptr);

}  // namespace visakit::sim
