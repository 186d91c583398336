// Kernel-level lookups shared by every consumer of the IR.
#include "visakit/kernel.hpp"

#include <string>

#include <fmt/format.h>

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

const Attribute* Kernel::attr(std::string_view n) const {
  for (const auto& a : attrs)
    if (a.name == n) return &a;
  return nullptr;
}

}  // namespace visakit
