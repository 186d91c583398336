#include "cl/progbin.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace visakit::cl {

namespace {

uint32_t rd32(std::span<const uint8_t> b, uint64_t at) {
  size_t i = size_t(at);
  return uint32_t(b[i]) | uint32_t(b[i + 1]) << 8 | uint32_t(b[i + 2]) << 16 | uint32_t(b[i + 3]) << 24;
}

struct Reader {
  std::span<const uint8_t> b;
  std::string_view file;
  std::string& err;
  bool fail(uint64_t at, const std::string& msg) {
    err = fmt::format("{}: error: byte {}: {}", file, at, msg);
    return false;
  }
  // `n` bytes at `at` are in the file.
  bool have(uint64_t at, uint64_t n, std::string_view what) {
    if (at <= b.size() && n <= b.size() - at) return true;
    return fail(at, fmt::format("{} needs {} bytes, the file has {} left", what, n, at <= b.size() ? b.size() - at : 0));
  }
};

constexpr uint64_t kProgramHeaderBytes = 28;
constexpr uint64_t kKernelHeaderBytes = 40;

}  // namespace

std::string_view deviceFamilyName(uint32_t device) {
  switch (device) {
    case 11: return "Gen8";
    case 12: return "Gen9";
    case 13: return "Gen10";
    case 15: return "Gen11";
    case 16: return "Gen11LP";
    case 17: return "Gen12";
    case 18: return "Gen12LP";
    case 0xc05: return "XeHP";
    case 0xc07: return "XeHPG";
    case 0xc08: return "XeHPC";
    default: return "";
  }
}

std::vector<uint32_t> KernelBinary::bindingTable() const {
  std::vector<uint32_t> out;
  if (!patchList.bindingTable) return out;
  const auto& bt = *patchList.bindingTable;
  for (uint32_t i = 0; i < bt.count; ++i) {
    uint64_t at = uint64_t(bt.offset) + 4ull * i;
    if (at + 4 > surfaceStateHeap.size()) break;
    out.push_back(rd32(surfaceStateHeap, at));
  }
  return out;
}

const KernelBinary* ProgramBinary::kernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

// PROGRAM_SYMBOL_TABLE: {Token, Size, NumEntries} then NumEntries x {u32 type, offset, size;
// char name[1024]} (1036 bytes; Size 1048 for one entry, observed).
bool ProgramBinary::symbols(std::vector<ProgramSymbol>& out, std::string& err) const {
  constexpr size_t kHeader = 12, kEntry = 12 + 1024;
  out.clear();
  for (const KernelBinary& k : kernels)
    for (const RawToken& t : k.patchList.tokens) {
      if (t.id != static_cast<uint32_t>(Token::ProgramSymbolTable)) continue;
      const std::vector<uint8_t>& b = t.bytes;
      const uint64_t n = b.size() >= kHeader ? rd32(b, 8) : 0;
      if (b.size() < kHeader || n > (b.size() - kHeader) / kEntry) {
        err = fmt::format("kernel '{}': byte {}: PATCH_TOKEN_PROGRAM_SYMBOL_TABLE of {} bytes does not hold its {} entries",
                          k.name, t.offset, b.size(), n);
        return false;
      }
      for (uint64_t i = 0; i < n; ++i) {
        const size_t at = kHeader + i * kEntry;
        const char* name = reinterpret_cast<const char*>(b.data() + at + 12);
        out.push_back({std::string(name, strnlen(name, 1024)), rd32(b, at), rd32(b, at + 4), rd32(b, at + 8)});
      }
    }
  return true;
}

namespace {

bool parseInto(std::span<const uint8_t> bytes, std::string_view file, ProgramBinary& out, std::string& err) {
  Reader r{bytes, file, err};
  if (!r.have(0, kProgramHeaderBytes, "the program header")) return false;
  if (rd32(bytes, 0) != kProgramMagic)
    return r.fail(0, fmt::format("magic {:08x} is not 'CTNI' (0x494e5443): not a patch-token program binary",
                                 rd32(bytes, 0)));
  out.version = rd32(bytes, 4);
  if (out.version != kIcbeVersion)
    return r.fail(4, fmt::format("version {}: only version {} (IGC 1.0.12504's layout) is read", out.version,
                                 kIcbeVersion));
  out.device = rd32(bytes, 8);
  out.gpuPointerSize = rd32(bytes, 12);
  if (out.gpuPointerSize != 4 && out.gpuPointerSize != 8)
    return r.fail(12, fmt::format("GPU pointer size {} (4 or 8 expected)", out.gpuPointerSize));
  uint32_t numKernels = rd32(bytes, 16);
  out.steppingId = rd32(bytes, 20);
  uint32_t listSize = rd32(bytes, 24);
  uint64_t pos = kProgramHeaderBytes;
  if (!r.have(pos, listSize, "the program-scope patch list")) return false;
  std::string e;
  if (!decodeProgramPatchList(bytes.subspan(size_t(pos), listSize), pos, out.program, e)) {
    err = fmt::format("{}: error: program scope: {}", file, e);
    return false;
  }
  pos += listSize;

  for (uint32_t k = 0; k < numKernels; ++k) {
    KernelBinary kb;
    kb.offset = pos;
    if (!r.have(pos, kKernelHeaderBytes, fmt::format("the header of kernel {} of {}", k + 1, numKernels)))
      return false;
    KernelHeader& h = kb.header;
    h.checkSum = rd32(bytes, pos);
    h.shaderHashCode = rd32(bytes, pos + 4) | uint64_t(rd32(bytes, pos + 8)) << 32;
    h.kernelNameSize = rd32(bytes, pos + 12);
    h.patchListSize = rd32(bytes, pos + 16);
    h.kernelHeapSize = rd32(bytes, pos + 20);
    h.generalStateHeapSize = rd32(bytes, pos + 24);
    h.dynamicStateHeapSize = rd32(bytes, pos + 28);
    h.surfaceStateHeapSize = rd32(bytes, pos + 32);
    h.kernelUnpaddedSize = rd32(bytes, pos + 36);
    pos += kKernelHeaderBytes;

    if (!r.have(pos, h.kernelNameSize, "the kernel name")) return false;
    auto nameBytes = bytes.subspan(size_t(pos), h.kernelNameSize);
    auto nul = std::find(nameBytes.begin(), nameBytes.end(), uint8_t(0));
    if (nul == nameBytes.end()) return r.fail(pos, "the kernel name has no terminating NUL within its size");
    kb.name.assign(nameBytes.begin(), nul);
    if (kb.name.empty()) return r.fail(pos, "empty kernel name");
    pos += h.kernelNameSize;

    struct Heap {
      uint32_t size;
      std::vector<uint8_t>* dst;
      const char* what;
    } heaps[] = {{h.kernelHeapSize, &kb.kernelHeap, "the kernel heap"},
                 {h.generalStateHeapSize, &kb.generalStateHeap, "the general state heap"},
                 {h.dynamicStateHeapSize, &kb.dynamicStateHeap, "the dynamic state heap"},
                 {h.surfaceStateHeapSize, &kb.surfaceStateHeap, "the surface state heap"}};
    for (const Heap& hp : heaps) {
      if (!r.have(pos, hp.size, fmt::format("{} of kernel '{}'", hp.what, kb.name))) return false;
      hp.dst->assign(bytes.begin() + ptrdiff_t(pos), bytes.begin() + ptrdiff_t(pos + hp.size));
      pos += hp.size;
    }
    if (!r.have(pos, h.patchListSize, fmt::format("the patch list of kernel '{}'", kb.name))) return false;
    kb.patchList.name = kb.name;
    kb.patchList.header = h;
    if (!decodeKernelPatchList(bytes.subspan(size_t(pos), h.patchListSize), pos, kb.patchList, e)) {
      err = fmt::format("{}: error: kernel '{}': {}", file, kb.name, e);
      return false;
    }
    pos += h.patchListSize;
    out.kernels.push_back(std::move(kb));
  }
  if (pos != bytes.size())
    return r.fail(pos, fmt::format("{} bytes after the last of the {} kernels", bytes.size() - pos, numKernels));
  return true;
}

}  // namespace

bool parseProgbin(std::span<const uint8_t> bytes, std::string_view file, ProgramBinary& out, std::string& err) {
  ProgramBinary tmp;
  if (!parseInto(bytes, file, tmp, err)) {
    out = ProgramBinary{};
    return false;
  }
  out = std::move(tmp);
  return true;
}

}  // namespace visakit::cl
