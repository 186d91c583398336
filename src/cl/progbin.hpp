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

struct ProgramBinary {
  uint32_t version = 0;
  uint32_t device = 0;  // GFXCORE_FAMILY: 12 Gen9, 18 Gen12LP, 0xc07 XeHPG, 0xc08 XeHPC, ...
  uint32_t gpuPointerSize = 0, steppingId = 0;
  ProgramScope program;
  std::vector<KernelBinary> kernels;
  const KernelBinary* kernel(std::string_view name) const;
};

// "Gen9", "XeHPC", ... for the device field; "" if unknown.
std::string_view deviceFamilyName(uint32_t device);

// On error returns false with "<file>: error: byte N: <message>" in err, and `out` empty.
bool parseProgbin(std::span<const uint8_t> bytes, std::string_view file, ProgramBinary& out, std::string& err);

}  // namespace visakit::cl
