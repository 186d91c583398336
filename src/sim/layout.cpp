// The register file of a simulated thread, the same for both tiers.
#include "sim/layout.hpp"

#include <algorithm>
#include <array>

namespace visakit::sim {

Layout layoutVars(const Kernel& k, unsigned grf) {
  Layout p;
  uint32_t n = static_cast<uint32_t>(kNumPredefVars + k.vars.size());
  p.vars.assign(n, VarSlot{});
  uint32_t top = 0;
  auto place = [&](uint32_t id, uint32_t bytes, Type t, uint32_t align) {
    top = (top + align - 1) / align * align;
    p.vars[id] = {top, bytes, t, true};
    top += std::max<uint32_t>(bytes, 1);
  };
  // Predefined variables (igc-dialect.md §1.2): thread-private storage of their
  // declared size, laid out only when the kernel names them (a smaller file to clear per thread).
  // (addressed: the root variables whose address an instruction takes, below)
  std::array<bool, kNumPredefVars> named{};
  std::vector<bool> addressed(n);
  auto mark = [&](uint32_t id) {
    if (id < kNumPredefVars) named[id] = true;
  };
  for (const Instruction& inst : k.code)
    for (size_t i = 0; i < inst.f.size(); ++i) {
      const Operand& o = inst.f[i];
      const bool addressOf = o.kind == Operand::Kind::AddressOf && o.row == 0;
      if (o.kind == Operand::Kind::General || o.kind == Operand::Kind::Raw || addressOf) mark(o.id);
      if (addressOf)
        if (const uint32_t root = aliasRoot(k, o.id); root < n) addressed[root] = true;
    }
  for (const Input& in : k.inputs)
    if (in.cls == Input::Class::General) mark(in.id);
  for (const GenVar& v : k.vars)
    if (v.aliasBase) mark(v.aliasBase);
  for (uint32_t id = 0; id < kNumPredefVars; ++id)
    if (const PredefVar* pv = predefVar(id); pv && named[id]) {
      Type t;
      uint32_t bytes;
      k.varInfo(id, t, bytes, grf);
      place(id, bytes, t, grf);
    }
  // Root variables: at least GRF-aligned (chapter 5 implementation note), more if align= says so.
  // Those whose address an instruction takes first, so that their addresses fit the address
  // registers' 16 bits (C7) however many bytes the kernel's other variables take.
  for (const bool first : {true, false})
    for (uint32_t i = 0; i < k.vars.size(); ++i) {
      const GenVar& v = k.vars[i];
      if (v.aliasBase || addressed[kNumPredefVars + i] != first) continue;
      place(kNumPredefVars + i, v.numElts * typeSize(v.type), v.type, std::max(alignBytes(v.align, grf), grf));
    }
  // Aliases: views of their base at base + alias_offset (chapter 4, alias chains).
  for (uint32_t i = 0; i < k.vars.size(); ++i) {
    const GenVar& v = k.vars[i];
    if (!v.aliasBase) continue;
    uint32_t off = 0;
    const uint32_t id = aliasRoot(k, kNumPredefVars + i, &off);
    if (id < n && p.vars[id].present)
      p.vars[kNumPredefVars + i] = {p.vars[id].offset + off, v.numElts * typeSize(v.type), v.type, true};
  }
  p.usedBytes = top;
  p.regBytes = (top + 63) / 64 * 64 + kRegPad;
  return p;
}

uint32_t aliasRoot(const Kernel& k, uint32_t id, uint32_t* offset) {
  uint32_t off = 0;
  for (int guard = 0; guard < 64; ++guard) {
    const GenVar* g = k.userVar(id);
    if (!g || !g->aliasBase) break;
    off += g->aliasOffset;
    id = g->aliasBase;
  }
  if (offset) *offset = off;
  return id;
}

}  // namespace visakit::sim
