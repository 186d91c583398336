// Kernel-level lookups shared by every consumer of the IR.
#include "visakit/kernel.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include <fmt/format.h>

#include "isa/lsc.hpp"

namespace visakit {

bool Kernel::varInfo(uint32_t id, Type& type, uint32_t& bytes, unsigned grfSize) const {
  if (const PredefVar* p = predefVar(id)) {
    type = p->type;
    // %r0 is one GRF; %arg (32 GRFs) and %retval (12) are counted in GRFs: their
    // element counts are PrePVC's, doubled for 64-byte GRFs (4_visa_header.md, V8, V9).
    bytes = id == 7 ? grfSize : p->numElts * typeSize(p->type) * (id == 8 || id == 9 ? grfSize / 32 : 1);
    return true;
  }
  if (const GenVar* v = userVar(id)) {
    type = v->type;
    bytes = v->numElts * typeSize(v->type);
    return true;
  }
  return false;
}

std::string Kernel::varName(uint32_t id) const {
  if (const PredefVar* p = predefVar(id)) return p->name;
  if (const GenVar* v = userVar(id); v && !v->name.empty()) return v->name;
  return fmt::format("V{}", id);
}

std::string Kernel::surfaceName(uint32_t id) const {
  if (id < kNumPredefSurfaces) return std::string(predefSurfaceName(id));
  return fmt::format("T{}", id);
}

const InstrDesc* rowOf(const Instruction& inst) {
  return inst.subOp >= 0 ? lookup(static_cast<uint8_t>(inst.op), static_cast<uint8_t>(inst.subOp)) : lookup(inst.op);
}

uint32_t rawFootprint(const InstrDesc& d, const Instruction& inst, int field, unsigned grfSize) {
  unsigned exec = inst.execSize();
  auto value = [&](const char* name) -> uint32_t {
    int i = d.findName(name);
    return i >= 0 ? static_cast<uint32_t>(inst.f[i].value) : 0;
  };
  switch (d.fields[field].footprint) {
    case Footprint::ExecDwords: return exec * 4;
    case Footprint::ExecQwords: return exec * 8;
    // SCATTER4_SCALED: channels x max(exec_size, GRF_SIZE/4) dwords.
    case Footprint::Scatter4Src:
      return static_cast<uint32_t>(std::popcount(value("Channels") & 15u)) * std::max(exec, grfSize / 4) * 4;
    // QW_SCATTER: src[j*exec_size+i], 8 bytes each, num_blocks blocks.
    case Footprint::QwSrc: return (1u << (value("Num_blocks") & 3)) * exec * 8;
    // URB_WRITE: "First 8 elements".
    case Footprint::Urb8Dwords: return 32;
    // URB_WRITE: "num_out GRFs".
    case Footprint::UrbVertexData: return value("Num_out") * grfSize;
    // OWORD_LD/ST: "Number of owords"; SVM_BLOCK_LD/ST: Properties bits 0-2.
    case Footprint::Owords: return 16u << ((value("Size") | value("Properties")) & 7);
    // SVM_GATHER/SCATTER: dst[j*exec_size+i] of block_size bytes; 1-byte blocks: max(4, num_blocks) bytes per lane.
    case Footprint::SvmData: {
      const uint32_t nb = 1u << (value("Num_blocks") & 3), bs = value("Block_size") == 2 ? 8 : value("Block_size") == 1 ? 4 : 1;
      return bs == 1 ? exec * std::max(4u, nb) : nb * exec * bs;
    }
    // DWORD/SVM/TYPED_ATOMIC: exec_size dwords (16-bit: unpacked), qwords for .64.
    case Footprint::AtomicData: return exec * ((value("Op") & 0x40) ? 8 : 4);
    // GATHER/SCATTER: Num_elts 0b00 8, 0b01 16, 0b10 1 elements (dwords).
    case Footprint::GatherElts: return (value("Num_elts") & 3) == 1 ? 64 : (value("Num_elts") & 3) == 2 ? 4 : 32;
    // MEDIA_LD/ST: Block_height rows of the register pitch (4, or the next power of 2 of Block_width).
    case Footprint::MediaBlock: return value("Block_height") * std::max(4u, std::bit_ceil(value("Block_width")));
    case Footprint::Lsc: return lsc::footprint(d, inst, field, grfSize);
    // RAW_SEND(S) pages: the payloads and the response in GRFs.
    case Footprint::RawSendSrc: return value("NumSrc") * grfSize;
    case Footprint::RawSendsSrc0: return value("NumSrc0") * grfSize;
    case Footprint::RawSendsSrc1: return value("NumSrc1") * grfSize;
    case Footprint::RawSendDst: return value("NumDst") * grfSize;
    case Footprint::None: break;
  }
  return 0;
}

const Attribute* Kernel::attr(std::string_view n) const {
  for (const auto& a : attrs)
    if (a.name == n) return &a;
  return nullptr;
}

}  // namespace visakit
