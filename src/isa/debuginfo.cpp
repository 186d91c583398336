// Debug information: the source line and file in effect at each instruction
// (LOC and FILE pages: "remains in effect until the next LOC / FILE").
#include "visakit/kernel.hpp"

namespace visakit {

std::vector<SourcePos> sourcePositions(const Kernel& k) {
  std::vector<SourcePos> r(k.code.size());
  SourcePos cur;
  for (size_t i = 0; i < k.code.size(); ++i) {
    const Instruction& in = k.code[i];
    if (in.op == Opcode::LOC) cur.line = static_cast<uint32_t>(in.f[0].value);
    else if (in.op == Opcode::FILE) cur.file = static_cast<int32_t>(in.f[0].value);
    r[i] = cur;
  }
  return r;
}

}  // namespace visakit
