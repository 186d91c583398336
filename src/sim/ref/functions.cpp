// Function calls in the reference tier (FCALL, IFCALL, FADDR pages; spec-decisions C2): the
// functions a kernel may call, decoded beside it, each call's callee resolved by name.
#include <algorithm>

#include <fmt/format.h>

#include "sim/launch.hpp"
#include "sim/ref/ref.hpp"

namespace visakit::sim {
namespace {

// The function names a kernel's FCALL and FADDR instructions give.
std::vector<std::string_view> namedFunctions(const Kernel& k) {
  std::vector<std::string_view> r;
  for (const Instruction& inst : k.code) {
    if (inst.op != Opcode::FCALL && inst.op != Opcode::FADDR) continue;
    const InstrDesc* d = rowOf(inst);
    const int f = d ? d->findName("Func_id") : -1;
    if (f >= 0 && inst.f[f].value < k.strings.size()) r.push_back(k.strings[inst.f[f].value]);
  }
  return r;
}

}  // namespace

std::vector<const Kernel*> reachableFunctions(const Kernel& k, const std::vector<const Kernel*>& functions) {
  std::vector<const Kernel*> r;
  std::vector<const Kernel*> todo{&k};
  while (!todo.empty()) {
    const Kernel* cur = todo.back();
    todo.pop_back();
    for (std::string_view n : namedFunctions(*cur))
      for (const Kernel* f : functions)
        if (f->name == n && std::find(r.begin(), r.end(), f) == r.end()) {
          r.push_back(f);
          todo.push_back(f);
        }
  }
  return r;
}

bool decodeModule(const Kernel& k, const LaunchConfig& cfg, std::vector<RefProgram>& progs, std::string& err) {
  const unsigned grfSize = cfg.grfSize;
  const std::vector<const Kernel*> callees = reachableFunctions(k, cfg.functions);
  progs.clear();
  progs.resize(1 + callees.size());  // never resized again: threads point into it
  if (!decodeReference(k, grfSize, progs[0], err)) return false;
  for (size_t i = 0; i < callees.size(); ++i)
    if (!decodeReference(*callees[i], grfSize, progs[i + 1], err)) {
      err = fmt::format("function '{}': {}", callees[i]->name, err);
      return false;
    }
  for (RefProgram& p : progs) {
    const Kernel& pk = *p.kernel;
    for (RefInst& d : p.code) {
      const Instruction& inst = *d.inst;
      // A function has no surfaces of its own: the launch binds the kernel's (C2).
      if (&p != &progs[0])
        for (int i = 0; i < d.row->numFields; ++i)
          if ((d.row->fields[i].kind == FieldKind::Surface && inst.f[i].id >= kNumPredefSurfaces) ||
              inst.f[i].kind == Operand::Kind::State) {
            err = fmt::format("function '{}', instruction #{}: uses a surface of its own (T{}); a called function may use "
                              "only the predefined surfaces (spec-decisions C2)", pk.name, d.index, inst.f[i].id);
            return false;
          }
      if (inst.op != Opcode::FCALL && inst.op != Opcode::FADDR) continue;
      const int f = d.row->findName("Func_id");
      const std::string& name = pk.strings[inst.f[f].value];
      auto it = std::find_if(callees.begin(), callees.end(), [&](const Kernel* c) { return c->name == name; });
      if (it == callees.end() && inst.op == Opcode::FADDR) {
        auto s = std::find_if(cfg.symbols.begin(), cfg.symbols.end(), [&](const auto& sym) { return sym.first == name; });
        if (s != cfg.symbols.end()) {
          d.address = s->second;
          continue;
        }
      }
      if (it == callees.end()) {
        err = fmt::format("{} '{}', instruction #{}: {} '{}': the module has no function of that name{} (an unresolved external "
                          "{}: a driver would fail to link it)",
                          pk.isFunction ? "function" : "kernel", pk.name, d.index, d.row->mnemonic, name,
                          inst.op == Opcode::FADDR ? " and the launch no symbol" : "",
                          inst.op == Opcode::FADDR ? "symbol" : "function");
        return false;
      }
      d.target = static_cast<uint32_t>(it - callees.begin() + 1);
      d.address = d.target;
      // FCALL page: "It is an error if <arg_size> and <return_size> do not match the callee's declared values".
      if (inst.op == Opcode::FCALL)
        for (const char* attr : {"ArgSize", "RetValSize"}) {
          const Attribute* a = (*it)->attr(attr);
          const uint64_t given = d.f[d.row->findName(attr[0] == 'A' ? "Arg_size" : "Return_size")].value;
          if (a && a->kind == Attribute::Kind::Int && static_cast<uint64_t>(a->intVal) != given) {
            err = fmt::format("{} '{}', instruction #{}: fcall '{}' with {} {}, but the function declares {}={} (FCALL page)",
                              pk.isFunction ? "function" : "kernel", pk.name, d.index, name,
                              attr[0] == 'A' ? "Arg_size" : "Return_size", given, attr, a->intVal);
            return false;
          }
        }
    }
  }
  return true;
}

}  // namespace visakit::sim
