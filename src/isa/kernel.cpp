// Kernel-level lookups shared by every consumer of the IR.
#include "visakit/kernel.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include <fmt/format.h>

#include "isa/lsc.hpp"

namespace visakit {

bool Kernel::varInfo(uint32_t id, Type& type, uint32_t& bytes) const {
  if (const PredefVar* p = predefVar(id)) {
    type = p->type;
    bytes = p->numElts * typeSize(p->type);
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
    case Footprint::Lsc: return lsc::footprint(d, inst, field, grfSize);
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
