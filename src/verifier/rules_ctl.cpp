// Family C's page rules the fields cannot state: address, indirect, address-of
// and state operands (chapter 5), MOVS's operand combinations, calls (label
// kinds, {NoMask}, no recursion), SWITCHJMP's label table, FENCE's mask,
// LIFETIME's variable, FILE's name, NBARRIER's id.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "verifier/rules.hpp"

namespace visakit {
namespace {

std::string addrName(const Kernel& k, uint32_t id) {
  return id < k.addrs.size() && !k.addrs[id].name.empty() ? k.addrs[id].name : fmt::format("A{}", id);
}

// The elements of a surface (row 0) or sampler (row 1) state variable; 0 if the id names none.
unsigned stateElements(const Kernel& k, unsigned row, uint32_t id) {
  if (row == 1) return id < k.samplers.size() ? k.samplers[id].numElts : 0;
  if (id < kNumPredefSurfaces) return 1;
  const SimpleVar* s = k.surface(id);
  return s ? s->numElts : 0;
}

// Chapter 5 "Address Operands", "Indirect Operands", "State Operands"; the
// address-of operand (chapter 8): the variable it names, the elements it uses.
void operands(RuleCtx& c) {
  const Kernel& k = c.kernel();
  const Instruction& inst = c.inst();
  const InstrDesc& d = c.row();
  const unsigned exec = d.find(FieldKind::ExecSize) >= 0 ? inst.execSize() : 1;
  for (int i = 0; i < d.numFields; ++i) {
    const FieldDesc& f = d.fields[i];
    const Operand& o = inst.f[i];
    if (f.kind != FieldKind::Vec) continue;
    const bool dst = f.access == Access::Write || f.access == Access::ReadWrite;
    const SrcLoc& loc = c.locOf(o);
    switch (o.kind) {
      case Operand::Kind::Address: {
        if (o.id >= k.addrs.size()) {
          c.error(loc, fmt::format("address id {} names no address variable", o.id));
          break;
        }
        // "When used as the destination, an address operand's width is ignored": exec elements are written.
        unsigned w = o.region.w == kRegionNull ? 1 : o.region.w;
        if (!dst && w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
          c.error(loc, fmt::format("address operand width {} is not allowed (1, 2, 4, 8 or 16; chapter 5 \"Address Operands\")", w));
        unsigned used = dst ? exec : w;
        if (o.col + used > k.addrs[o.id].numElts)
          c.error(loc, fmt::format("address operand {}({}) uses elements {}..{} but '{}' has {} (chapter 5 \"Address Operands\")",
                                   addrName(k, o.id), o.col, o.col, o.col + used - 1, addrName(k, o.id), k.addrs[o.id].numElts));
        break;
      }
      case Operand::Kind::Indirect: {
        if (o.id >= k.addrs.size()) {
          c.error(loc, fmt::format("indirect operand names address id {}, which names no address variable", o.id));
          break;
        }
        const int16_t off = static_cast<int16_t>(static_cast<uint16_t>(o.value));
        if (off < -512 || off > 511)
          c.error(loc, fmt::format("indirect offset {} is out of range [-512, 511] (chapter 5 \"Indirect Operands\")", off));
        if (o.type == Type::V || o.type == Type::UV || o.type == Type::VF || o.type == Type::BOOL)
          c.error(loc, fmt::format("an indirect operand cannot have type {} (chapter 5 \"Indirect Operands\")", typeName(o.type)));
        // A multi-address (VxH) source uses ExecSize / Width address elements, one per row.
        unsigned used = 1;
        if (!dst && o.region.vs == kRegionNull) {
          unsigned w = o.region.w == kRegionNull || o.region.w == 0 ? 1 : o.region.w;
          if (w > exec) c.error(loc, fmt::format("region width {} is greater than the execution size {}", w, exec));
          else used = exec / w;
        }
        if (o.col + used > k.addrs[o.id].numElts)
          c.error(loc, fmt::format("indirect operand uses elements {}..{} of '{}', which has {} (chapter 5 \"Indirect Operands\")",
                                   o.col, o.col + used - 1, addrName(k, o.id), k.addrs[o.id].numElts));
        break;
      }
      case Operand::Kind::AddressOf: {
        if (o.row == 0) {
          Type t;
          uint32_t bytes;
          if (!k.varInfo(o.id, t, bytes, c.grfSize()))
            c.error(loc, fmt::format("address-of names variable V{}, which is not declared", o.id));
          else if (o.offset >= bytes)
            c.error(loc, fmt::format("address-of offset {} is outside '{}' ({} bytes)", o.offset, k.varName(o.id), bytes));
        } else if (stateElements(k, o.row - 1u, o.id) == 0) {
          c.error(loc, fmt::format("address-of names {}{}, which is not declared", o.row == 1 ? "T" : "S", o.id));
        }
        break;
      }
      case Operand::Kind::State: {
        unsigned n = stateElements(k, o.row, o.id);
        const char* what = o.row == 1 ? "sampler S" : "surface T";
        if (n == 0) c.error(loc, fmt::format("state operand names {}{}, which is not declared", what, o.id));
        else if (o.col + exec > n)
          c.error(loc, fmt::format("state operand {}{}({}) uses elements {}..{} but the variable has {} "
                                   "(chapter 5 \"State Operands\")",
                                   o.row == 1 ? "S" : "T", o.id, o.col, o.col, o.col + exec - 1, n));
        break;
      }
      default: break;
    }
  }
}

// ADDR_ADD page: "Src0 must neither be a pre-defined variable nor a pre-defined
// surface, except for %arg and %retval" (V8 and V9 here).
void addrAddSrc0(RuleCtx& c) {
  const Operand& s = c.field("Src0");
  if (s.kind != Operand::Kind::AddressOf) return;
  if (s.row == 0 && s.id < kNumPredefVars && s.id != 8 && s.id != 9)
    c.error(c.locOf(s), fmt::format("addr_add cannot take the address of the predefined variable {} (only %arg and %retval; "
                                    "ADDR_ADD page)", c.kernel().varName(s.id)));
  if (s.row == 1 && s.id < kNumPredefSurfaces)
    c.error(c.locOf(s), fmt::format("addr_add cannot take the address of the predefined surface {} (ADDR_ADD page)",
                                    c.kernel().surfaceName(s.id)));
}

// MOVS page Notes: state <- state of the same storage class; general <- state;
// state <- general, indirect or immediate.
void movsClasses(RuleCtx& c) {
  const Operand& d = c.field("Dst");
  const Operand& s = c.field("Src0");
  const bool ds = d.kind == Operand::Kind::State, ss = s.kind == Operand::Kind::State;
  if (ds && ss && d.row != s.row)
    c.error(c.locOf(s), "movs between state operands needs variables of the same storage class (surface or sampler; MOVS page)");
  if (!ds && !ss) c.error(c.locOf(s), "movs to a general operand needs a state source (MOVS page)");
}

// Scalar calls and returns "must be marked with {NoMask}" (CALL, FCALL,
// IFCALL, FRET pages). Not RET: IGC ends every kernel with `ret (M1, 1)`
// (spec-decisions C9).
void scalarCallNoMask(RuleCtx& c) {
  if (c.inst().execSize() == 1 && !emaskNoMask(c.inst().emask))
    c.error(c.inst().loc, fmt::format("a scalar {} must be marked NoMask (M1_NM; {} page)", c.row().mnemonic, c.row().page));
}

// The subroutine (label id of its SUBROUTINE) whose body holds instruction i; -1 before the first.
int64_t subroutineAt(const Kernel& k, size_t i) {
  for (size_t j = i + 1; j-- > 0;)
    if (k.code[j].op == Opcode::SUBROUTINE) return k.code[j].f[0].id;
  return -1;
}

// CALL page: the label is a subroutine label (FCCALL: an FC label); CALL
// page, chapter 3: "recursion is not permitted" (the static call graph).
void callTarget(RuleCtx& c) {
  const Kernel& k = c.kernel();
  const Operand& l = c.field("Label");
  if (l.id >= k.labels.size()) return;
  const LabelDecl& ld = k.labels[l.id];
  if (ld.kind == 2) return;  // fccall: a kernel the FC linker resolves
  if (ld.defined && ld.kind != 1) {
    c.error(c.locOf(l), fmt::format("call target '{}' is a block label; it must be a subroutine (.function; CALL page)", ld.name));
    return;
  }
  // Subroutines reachable from the target; the one holding this call among them is a cycle.
  const size_t self = static_cast<size_t>(&c.inst() - k.code.data());
  const int64_t caller = subroutineAt(k, self);
  if (caller < 0) return;
  std::vector<uint8_t> seen(k.labels.size());
  std::vector<uint32_t> todo{l.id};
  while (!todo.empty()) {
    uint32_t s = todo.back();
    todo.pop_back();
    if (s == caller) {
      c.error(c.locOf(l), fmt::format("call to '{}' is recursive (it reaches '{}' again): recursion is not permitted (CALL page)",
                                      ld.name, k.labels[static_cast<size_t>(caller)].name));
      return;
    }
    if (seen[s]) continue;
    seen[s] = 1;
    size_t start = k.code.size();
    for (size_t j = 0; j < k.code.size(); ++j)
      if (k.code[j].op == Opcode::SUBROUTINE && k.code[j].f[0].id == s) start = j;
    for (size_t j = start + 1; j < k.code.size() && k.code[j].op != Opcode::SUBROUTINE; ++j)
      if (k.code[j].op == Opcode::CALL && k.code[j].f[2].id < k.labels.size() && k.labels[k.code[j].f[2].id].kind == 1)
        todo.push_back(k.code[j].f[2].id);
  }
}

// FCALL, IFCALL pages: Arg_size in [0, sizeof(%arg)], Return_size in [0, sizeof(%retval)], in GRFs.
void callSizes(RuleCtx& c) {
  // (32 and 12 GRFs whatever their size: 4_visa_header.md V8, V9)
  const unsigned argGrfs = predefVar(8)->numElts * 4 / 32, retGrfs = predefVar(9)->numElts * 4 / 32;
  const Operand& a = c.field("Arg_size");
  const Operand& r = c.field("Return_size");
  if (a.value > argGrfs)
    c.error(c.locOf(a), fmt::format("Arg_size {} is more than %arg's {} GRFs ({} page)", a.value, argGrfs, c.row().page));
  if (r.value > retGrfs)
    c.error(c.locOf(r), fmt::format("Return_size {} is more than %retval's {} GRFs ({} page)", r.value, retGrfs, c.row().page));
}

// SWITCHJMP page: Num_labels labels, each a block label defined in the kernel.
void switchjmpLabels(RuleCtx& c) {
  const Kernel& k = c.kernel();
  const Instruction& inst = c.inst();
  const InstrDesc& d = c.row();
  unsigned present = 0;
  for (int i = 0; i < d.numFields; ++i) {
    if (!(d.fields[i].flags & kCounted) || inst.f[i].kind == Operand::Kind::None) continue;
    ++present;
    const Operand& l = inst.f[i];
    if (l.id >= k.labels.size()) continue;
    const LabelDecl& ld = k.labels[l.id];
    bool placed = std::any_of(k.code.begin(), k.code.end(),
                              [&](const Instruction& x) { return x.op == Opcode::LABEL && x.f[0].id == l.id; });
    if (!placed) c.error(c.locOf(l), fmt::format("undefined label '{}'", ld.name));
    else if (ld.kind != 0) c.error(c.locOf(l), fmt::format("switchjmp label '{}' must be a block label (SWITCHJMP page)", ld.name));
  }
  const Operand& n = c.field("Num_labels");
  if (n.value != present)
    c.error(c.locOf(n), fmt::format("Num_labels is {} but the instruction has {} labels (SWITCHJMP page)", n.value, present));
}

// FENCE page: bit 7 is a software-only scheduling barrier that generates no
// fence; with other bits set the text (fence_sw) cannot hold them (C8).
void fenceMask(RuleCtx& c) {
  const Operand& m = c.field("Mask");
  if ((m.value & 0x80) && (m.value & 0x7f))
    c.error(c.locOf(m), fmt::format("fence mask 0x{:02x}: bit 7 (fence_sw, no fence is generated) takes no other bits (FENCE page)",
                                    m.value));
}

// LIFETIME page: properties bit 0 and bits 4-5 (0 general, 1 address, 2 predicate); the variable of that class.
void lifetimeVariable(RuleCtx& c) {
  const Kernel& k = c.kernel();
  const Operand& p = c.field("Properties");
  const Operand& v = c.field("Variable");
  const unsigned cls = (p.value >> 4) & 3;
  if ((p.value & ~uint64_t{0x31}) || cls == 3) {
    c.error(c.locOf(p), fmt::format("lifetime properties 0x{:02x}: only bit 0 and the class in bits 4-5 (0 general, 1 address, "
                                    "2 predicate) may be set (LIFETIME page)", p.value));
    return;
  }
  Type t;
  uint32_t bytes;
  bool ok = cls == 0 ? k.varInfo(static_cast<uint32_t>(v.value), t, bytes)
            : cls == 1 ? v.value < k.addrs.size()
                       : k.pred(static_cast<uint32_t>(v.value)) != nullptr;
  if (!ok)
    c.error(c.locOf(v), fmt::format("lifetime names {} variable id {}, which is not declared",
                                    cls == 0 ? "general" : cls == 1 ? "address" : "predicate", v.value));
}

// FILE page: "with a maximum length of 255 characters".
void fileName(RuleCtx& c) {
  const Operand& f = c.field("File_name");
  if (f.value < c.kernel().strings.size() && c.kernel().strings[f.value].size() > 255)
    c.error(c.locOf(f), fmt::format("file name of {} characters; at most 255 (FILE page)", c.kernel().strings[f.value].size()));
}

// NBARRIER page: Id in [0-31]; Num_producers / Num_consumers (IGC: Num_threads) at least 1.
void nbarrierValues(RuleCtx& c) {
  const Operand& id = c.field("Id");
  if (id.kind == Operand::Kind::Immediate && id.value > 31)
    c.error(c.locOf(id), fmt::format("named barrier id {} is out of range [0, 31] (NBARRIER page)", id.value));
  const Operand& n = c.field("Num_threads");
  if (c.field("Mode").value == 1 && n.kind == Operand::Kind::Immediate && n.value == 0)
    c.error(c.locOf(n), "nbarrier.signal needs at least 1 thread (NBARRIER page)");
}

constexpr RowRule kRules[] = {
    {Opcode::ADDR_ADD, -1, addrAddSrc0},  {Opcode::MOVS, -1, movsClasses},
    {Opcode::CALL, -1, scalarCallNoMask}, {Opcode::CALL, -1, callTarget},    {Opcode::FCALL, -1, scalarCallNoMask},
    {Opcode::IFCALL, -1, scalarCallNoMask}, {Opcode::FRET, -1, scalarCallNoMask},
    {Opcode::FCALL, -1, callSizes},     {Opcode::IFCALL, -1, callSizes},     {Opcode::SWITCHJMP, -1, switchjmpLabels},
    {Opcode::FENCE, -1, fenceMask},     {Opcode::LIFETIME, -1, lifetimeVariable}, {Opcode::FILE, -1, fileName},
    {Opcode::NBARRIER, -1, nbarrierValues},
};

}  // namespace

// The rules above, and the operand rule for every row (of any family) with a field that may hold an
// address, indirect, address-of or state operand.
std::span<const RowRule> ctlRules() {
  static const std::vector<RowRule> all = [] {
    std::vector<RowRule> v(std::begin(kRules), std::end(kRules));
    for (const InstrDesc& d : instructionTable())
      for (const FieldDesc& f : d.fieldList())
        if (f.kind == FieldKind::Vec && (f.classes & (kA | kI | kAO | kS))) {
          v.push_back({d.op, d.subOp, operands});
          break;
        }
    return v;
  }();
  return all;
}

}  // namespace visakit
