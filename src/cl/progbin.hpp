// The patch-token program binary IGC dumps as OCL_asm<hash>.progbin (ICBE version 1081):
// program header, program-scope patch list (with the constant and global data inline),
// then per kernel a header, its name, heaps and patch list. Every read is bounds-checked.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cl/patch_tokens.hpp"

namespace visakit::cl {

constexpr uint32_t kProgramMagic = 0x494E5443;  // "CTNI" in the file
constexpr uint32_t kIcbeVersion = 1081;

struct KernelBinary {
  uint64_t offset = 0;  // byte offset of the kernel's header in the file
  KernelHeader header;
  std::string name;
  std::vector<uint8_t> kernelHeap, generalStateHeap, dynamicStateHeap, surfaceStateHeap;
  KernelPatchList patchList;  // name and header filled in too
  // Binding-table entries (surface state offsets) read from the surface state heap.
  std::vector<uint32_t> bindingTable() const;
};

// An entry of PROGRAM_SYMBOL_TABLE (spec-decisions P13): a program-scope variable of the program's
// global (type 3) or constant (type 4) buffer, at `offset` in it, or another kind of symbol.
struct ProgramSymbol {
  std::string name;
  uint32_t type = 0, offset = 0, size = 0;
  static constexpr uint32_t kGlobalVariable = 3, kConstantVariable = 4;
};

struct ProgramBinary {
  uint32_t version = 0;
  uint32_t device = 0;  // GFXCORE_FAMILY: 12 Gen9, 18 Gen12LP, 0xc07 XeHPG, 0xc08 XeHPC, ...
  uint32_t gpuPointerSize = 0, steppingId = 0;
  ProgramScope program;
  std::vector<KernelBinary> kernels;
  const KernelBinary* kernel(std::string_view name) const;
  // The entries of every kernel's PROGRAM_SYMBOL_TABLE (IGC writes it in the kernel
  // Intel_Symbol_Table_Void_Program); false with err when one does not fit its token.
  bool symbols(std::vector<ProgramSymbol>& out, std::string& err) const;
};

// "Gen9", "XeHPC", ... for the device field; "" if unknown.
std::string_view deviceFamilyName(uint32_t device);

// On error returns false with "<file>: error: byte N: <message>" in err, and `out` empty.
bool parseProgbin(std::span<const uint8_t> bytes, std::string_view file, ProgramBinary& out, std::string& err);

}  // namespace visakit::cl
