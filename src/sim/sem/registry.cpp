// The semantics table: every family's entries, by opcode and sub-opcode.
#include <algorithm>
#include <array>
#include <vector>

#include "sim/sem/sem.hpp"

namespace visakit::sim {

SemFn semanticsOf(const InstrDesc& row) {
  static const std::vector<SemEntry> all = [] {
    std::vector<SemEntry> v;
    for (auto family : {aluSemantics(), aluExtSemantics(), controlSemantics(), memorySemantics(), memLegacySemantics(),
                        lscSemantics(), ctlSemantics()})
      v.insert(v.end(), family.begin(), family.end());
    return v;
  }();
  for (const SemEntry& e : all)
    if (e.op == row.op && e.subOp == row.subOp) return e.fn;
  return nullptr;
}

}  // namespace visakit::sim
