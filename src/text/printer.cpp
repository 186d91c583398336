// Canonical text printer, in the dialect Intel's compiler prints
// (igc-dialect.md §1): print(parse(print(k))) == print(k).
#include <fmt/format.h>

#include "text/syntax.hpp"
#include "visakit/visakit.hpp"

namespace visakit {
namespace {

std::string attrText(const Attribute& a) {
  switch (a.kind) {
    case Attribute::Kind::Bool: return a.name;
    case Attribute::Kind::Int: return fmt::format("{}={}", a.name, a.intVal);
    default: return fmt::format("{}=\"{}\"", a.name, a.strVal);
  }
}

std::string attrList(const std::vector<Attribute>& attrs) {
  if (attrs.empty()) return {};
  std::string r = " attrs={";
  for (size_t i = 0; i < attrs.size(); ++i) r += (i ? "," : "") + attrText(attrs[i]);
  return r + "}";
}

std::string predName(const Kernel& k, uint32_t id) {
  const SimpleVar* p = k.pred(id);
  return p && !p->name.empty() ? p->name : fmt::format("P{}", id);
}

std::string regionText(const Region& r) {
  auto v = [](uint8_t x) { return x == kRegionNull ? 0 : x; };
  if (r.vs == kRegionNull && r.w == kRegionNull) return fmt::format("<{}>", v(r.hs));
  if (r.vs == kRegionNull) return fmt::format("<{},{}>", v(r.w), v(r.hs));  // VxH indirect source
  return fmt::format("<{};{},{}>", v(r.vs), v(r.w), v(r.hs));
}

const char* modText(Mod m) {
  switch (m) {
    case Mod::Abs: return "(abs)";
    case Mod::Neg: return "(-)";
    case Mod::NegAbs: return "(-abs)";
    case Mod::Not: return "(~)";
    default: return "";
  }
}

std::string addrName(const Kernel& k, uint32_t id) {
  return id < k.addrs.size() && !k.addrs[id].name.empty() ? k.addrs[id].name : fmt::format("A{}", id);
}

}  // namespace

std::string text::operandText(const Kernel& k, const FieldDesc& f, const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::General:
      return fmt::format("{}{}({},{}){}", modText(o.mod), k.varName(o.id), o.row, o.col, regionText(o.region));
    case Operand::Kind::Address:
      return fmt::format("{}({})<{}>", addrName(k, o.id), o.col, o.region.w == kRegionNull ? 1 : o.region.w);
    case Operand::Kind::Indirect: {
      int16_t off = static_cast<int16_t>(static_cast<uint16_t>(o.value));
      return fmt::format("{}r[{}({}),{}]{}:{}", modText(o.mod), addrName(k, o.id), o.col, off, regionText(o.region),
                         typeName(o.type));
    }
    case Operand::Kind::AddressOf: {
      std::string n = o.row == 1 ? k.surfaceName(o.id) : o.row == 2 ? fmt::format("S{}", o.id) : k.varName(o.id);
      return o.offset ? fmt::format("&{}[{}]", n, o.offset) : "&" + n;
    }
    case Operand::Kind::State:
      return fmt::format("{}({})", o.row == 1 ? fmt::format("S{}", o.id) : k.surfaceName(o.id), o.col);
    case Operand::Kind::Predicate: return modText(o.mod) + predName(k, o.id);
    case Operand::Kind::Immediate:
      return fmt::format("0x{:x}:{}", typeSize(o.type) == 8 ? o.value : (o.value & 0xffffffffu), typeName(o.type));
    case Operand::Kind::Raw: return fmt::format("{}.{}", k.varName(o.id), o.offset);
    case Operand::Kind::Surface: return k.surfaceName(o.id);
    case Operand::Kind::Sampler: return fmt::format("S{}", o.id);
    case Operand::Kind::Label:
      return o.id < k.labels.size() ? k.labels[o.id].name : fmt::format("L{}", o.id);
    case Operand::Kind::Int: {
      if (f.kind == FieldKind::Enum && f.names)
        if (const char* t = f.names->textOf(o.value)) return t;
      if (f.kind == FieldKind::Int && (f.flags & kSigned) && f.width < 8) {
        uint64_t sign = uint64_t{1} << (8 * f.width - 1);
        if (o.value & sign) return fmt::format("-{}", (sign << 1) - o.value);
      }
      return std::to_string(o.value);
    }
    case Operand::Kind::None: break;
  }
  return "?";
}

std::string text::execSizeText(const Instruction& inst) {
  return fmt::format("(M{}{}, {})", (inst.emask & 7) + 1, inst.emask & 8 ? "_NM" : "", inst.execSize());
}

using text::operandText;

std::string printInstruction(const Kernel& k, const Instruction& inst) {
  const InstrDesc* d = rowOf(inst);
  if (!d) return fmt::format("<opcode 0x{:02x}>", static_cast<unsigned>(inst.op));
  if (d->syntax == Syntax::Label) return operandText(k, d->fields[0], inst.f[0]) + ":";
  if (const text::CustomSyntax* cs = text::customSyntax(d->syntax)) return cs->print(k, *d, inst);
  if (d->syntax == Syntax::Function) {
    std::string n = operandText(k, d->fields[0], inst.f[0]);
    return fmt::format(".function \"{}\"\n\n{}:", n, n);
  }
  std::string s;
  if (inst.pred.id != 0) {
    s += fmt::format("({}{}{}) ", inst.pred.invert ? "!" : "", predName(k, inst.pred.id),
                     inst.pred.control == 1 ? ".any" : inst.pred.control == 2 ? ".all" : "");
  }
  s += d->mnemonic;
  for (int sfx = 0;; ++sfx) {
    int fi = -1;
    for (int i = 0; i < d->numFields; ++i)
      if (d->fields[i].suffix == sfx) fi = i;
    if (fi < 0) break;
    s += "." + operandText(k, d->fields[fi], inst.f[fi]);
  }
  if (inst.sat) s += ".sat";
  for (int i = 0; i < d->numFields; ++i)
    if (d->fields[i].flags & kParen) s += fmt::format(" ({})", operandText(k, d->fields[i], inst.f[i]));
  if (d->find(FieldKind::ExecSize) >= 0) s += " " + text::execSizeText(inst);
  for (int pos = 0; pos < d->numTextOperands(); ++pos) {
    int fi = d->atTextPos(pos);
    s += " " + operandText(k, d->fields[fi], inst.f[fi]);
  }
  return s;
}

std::string printText(const Module& m) {
  std::string out = fmt::format(".version {}.{}\n", m.major, m.minor);
  for (const Kernel& k : m.kernels) {
    out += fmt::format("{} \"{}\"\n", k.isFunction ? ".global_function" : ".kernel", k.name);
    for (const GenVar& v : k.vars) {
      out += fmt::format(".decl {} v_type=G type={} num_elts={}", v.name, typeName(v.type), v.numElts);
      if (v.align) out += fmt::format(" align={}", alignName(v.align));
      if (v.aliasBase) out += fmt::format(" alias=<{}, {}>", k.varName(v.aliasBase), v.aliasOffset);
      out += attrList(v.attrs) + "\n";
    }
    for (const SimpleVar& a : k.addrs) out += fmt::format(".decl {} v_type=A num_elts={}{}\n", a.name, a.numElts, attrList(a.attrs));
    for (size_t i = 0; i < k.preds.size(); ++i)
      out += fmt::format(".decl {} v_type=P num_elts={}{}\n", predName(k, static_cast<uint32_t>(i + 1)), k.preds[i].numElts,
                         attrList(k.preds[i].attrs));
    // Samplers and surfaces print as S<id>/T<id> with their name in v_name (spec-decisions T3).
    for (size_t i = 0; i < k.samplers.size(); ++i) {
      std::string n = fmt::format("S{}", i);
      out += fmt::format(".decl {} v_type=S num_elts={}{}{}\n", n, k.samplers[i].numElts,
                         k.samplers[i].name != n && !k.samplers[i].name.empty() ? " v_name=" + k.samplers[i].name : "",
                         attrList(k.samplers[i].attrs));
    }
    for (size_t i = 0; i < k.surfaces.size(); ++i) {
      std::string n = k.surfaceName(static_cast<uint32_t>(i + kNumPredefSurfaces));
      out += fmt::format(".decl {} v_type=T num_elts={}{}{}\n", n, k.surfaces[i].numElts,
                         k.surfaces[i].name != n && !k.surfaces[i].name.empty() ? " v_name=" + k.surfaces[i].name : "",
                         attrList(k.surfaces[i].attrs));
    }
    for (const Input& in : k.inputs) {
      std::string n = in.cls == Input::Class::General   ? k.varName(in.id)
                      : in.cls == Input::Class::Surface ? k.surfaceName(in.id)
                                                        : fmt::format("S{}", in.id);
      out += fmt::format(".input {} offset={} size={}\n", n, in.offset, in.size);
    }
    for (const Attribute& a : k.attrs) out += ".kernel_attr " + attrText(a) + "\n";
    for (const Instruction& inst : k.code) {
      if (inst.op == Opcode::LABEL || inst.op == Opcode::SUBROUTINE) out += "\n" + printInstruction(k, inst) + "\n";
      else out += "    " + printInstruction(k, inst) + "\n";
    }
  }
  return out;
}

}  // namespace visakit
