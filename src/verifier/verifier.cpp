// The strict verifier: every rule the pages state, per instruction, driven by
// the instruction table; plus the framework rules of chapters 3-5.
#include <bit>
#include <set>

#include <fmt/format.h>

#include "verifier/rules.hpp"
#include "visakit/visakit.hpp"

namespace visakit {

namespace {

// What the verifier looks up in an instruction's row, computed once per row.
struct RowInfo {
  bool hasExec = false;
  int8_t labelField = -1;  // Label field, or -1
};

// Indexed like instructionTable().
const std::vector<RowInfo>& rowInfos() {
  static const std::vector<RowInfo> infos = [] {
    std::vector<RowInfo> v;
    for (const InstrDesc& r : instructionTable()) {
      RowInfo ri;
      ri.hasExec = r.find(FieldKind::ExecSize) >= 0;
      ri.labelField = static_cast<int8_t>(r.find(FieldKind::Label));
      v.push_back(ri);
    }
    return v;
  }();
  return infos;
}

// The page rules of each row (rules.hpp), by row index.
const std::vector<std::vector<void (*)(RuleCtx&)>>& rowRules() {
  static const std::vector<std::vector<void (*)(RuleCtx&)>> rules = [] {
    std::vector<std::vector<void (*)(RuleCtx&)>> v(instructionTable().size());
    for (auto family : {coreRules(), memRules(), aluRules(), lscRules(), ctlRules()})
      for (const RowRule& r : family)
        for (const InstrDesc& d : instructionTable())
          if (d.op == r.op && d.subOp == r.subOp) v[rowIndex(d)].push_back(r.check);
    return v;
  }();
  return rules;
}

class Verifier {
 public:
  Verifier(const Kernel& k, Diagnostics& d, const Options& o)
      : k_(k), d_(d), opts_(o), grf_(o.grfSize), rows_(rowInfos().data()), table_(instructionTable().data()) {
    // Kernel::varInfo of every general variable id, looked up per operand.
    vars_.resize(kNumPredefVars + k.vars.size());
    for (uint32_t id = 0; id < vars_.size(); ++id) {
      VarFacts& f = vars_[id];
      f.valid = k.varInfo(id, f.type, f.bytes, grf_);
    }
    for (int t = 0; t < kNumTypes; ++t) {
      typeSize_[t] = static_cast<uint8_t>(typeSize(static_cast<Type>(t)));
      grfElems_[t] = grf_ / typeSize_[t];
    }
  }

  void run() {
    decls();
    for (size_t i = 0; i < k_.code.size(); ++i) {
      idx_ = i;
      instruction(k_.code[i]);
    }
    labels();
    unwrittenReads();
  }

 private:
  const Kernel& k_;
  Diagnostics& d_;
  const Options& opts_;
  unsigned grf_;
  size_t idx_ = 0;
  bool inDecls_ = true;
  struct VarFacts {
    bool valid = false;
    Type type = Type::UD;
    uint32_t bytes = 0;
  };
  std::vector<VarFacts> vars_;  // by general variable id
  uint8_t typeSize_[kNumTypes];
  unsigned grfElems_[kNumTypes];  // elements of each type in a GRF
  const RowInfo* rows_;
  const InstrDesc* table_;

  const RowInfo& rowInfo(const InstrDesc& d) const { return rows_[&d - table_]; }

  unsigned tsize(Type t) const { return typeSize_[static_cast<unsigned>(t) & 15]; }

  // Where a diagnostic without a source line is: the kernel, and the instruction past the declarations.
  std::string whereOf(SrcLoc loc) const {
    if (loc.line) return {};
    return inDecls_ ? fmt::format("kernel '{}'", k_.name) : fmt::format("kernel '{}', instruction #{}", k_.name, idx_);
  }
  void err(SrcLoc loc, std::string msg) { d_.add(Severity::Error, loc, std::move(msg), whereOf(loc)); }
  void warn(const char* name, SrcLoc loc, std::string msg) { addNamedWarning(d_, opts_, name, loc, std::move(msg), whereOf(loc)); }

  // Byte size of a general variable; false if the id names nothing.
  bool varBytes(uint32_t id, Type& t, uint32_t& bytes) const {
    if (id >= vars_.size() || !vars_[id].valid) return false;
    t = vars_[id].type;
    bytes = vars_[id].bytes;
    return true;
  }

  // Offset of a variable inside its root (alias chain), and the root's size.
  void rootOf(uint32_t id, uint32_t& offset, uint32_t& rootBytes) const {
    offset = 0;
    Type t;
    for (int guard = 0; guard < 64; ++guard) {
      const GenVar* v = k_.userVar(id);
      if (!v || v->aliasBase == 0) break;
      offset += v->aliasOffset;
      id = v->aliasBase;
    }
    if (!varBytes(id, t, rootBytes)) rootBytes = 0;
  }

  void decls() {
    inDecls_ = true;
    for (size_t i = 0; i < k_.vars.size(); ++i) {
      const GenVar& v = k_.vars[i];
      uint32_t id = static_cast<uint32_t>(kNumPredefVars + i);
      if (v.type == Type::V || v.type == Type::UV || v.type == Type::VF || v.type == Type::BOOL)
        err(v.loc, fmt::format("variable '{}' cannot have type {} (packed and bool types are for immediates)", v.name, typeName(v.type)));
      // Chapter 4 var_info: num_elements in [1, 4096].
      if (v.numElts < 1 || v.numElts > 4096)
        err(v.loc, fmt::format("variable '{}' has {} elements; the valid range is [1, 4096]", v.name, v.numElts));
      if (v.align > 9) err(v.loc, fmt::format("variable '{}' has an invalid alignment code {}", v.name, v.align));
      if (v.aliasBase) {
        Type bt;
        uint32_t bbytes;
        if (v.aliasBase == id || !varBytes(v.aliasBase, bt, bbytes)) {
          err(v.loc, fmt::format("alias base of '{}' is not a declared general variable", v.name));
          continue;
        }
        // Chapter 4: alias chains must end; "an error if the offset is not aligned to the type".
        uint32_t cur = v.aliasBase;
        for (int guard = 0; guard < 64 && cur; ++guard) {
          const GenVar* b = k_.userVar(cur);
          if (!b) break;
          if (cur == id) {
            err(v.loc, fmt::format("alias chain of '{}' is circular", v.name));
            break;
          }
          cur = b->aliasBase;
        }
        if (v.aliasOffset % typeSize(v.type))
          err(v.loc, fmt::format("alias offset {} of '{}' is not aligned to its type {}", v.aliasOffset, v.name, typeName(v.type)));
        uint32_t need = v.aliasOffset + v.numElts * typeSize(v.type);
        if (need > bbytes) {
          // (a predefined base is one GRF: a kernel for 64-byte GRFs read with 32 says so)
          const std::string base = k_.varName(v.aliasBase);
          const bool grf64 = grf_ == 32 && base.starts_with("%") && need <= 2 * bbytes;
          err(v.loc, fmt::format("alias '{}' covers bytes [{}, {}) but its base '{}' has {} bytes{}", v.name, v.aliasOffset,
                                 need, base, bbytes,
                                 grf64 ? " (with 32-byte GRFs; a kernel for a 64-byte-GRF platform needs --platform pvc)" : ""));
        }
      }
    }
    for (const SimpleVar& p : k_.preds) {
      unsigned n = p.numElts;
      if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
        err(p.loc, fmt::format("predicate '{}' has {} elements; it must have 1, 2, 4, 8, 16 or 32", p.name, n));
    }
    for (const SimpleVar& a : k_.addrs)
      if (a.numElts < 1 || a.numElts > 16) err(a.loc, fmt::format("address variable '{}' must have 1 to 16 elements", a.name));
    for (const SimpleVar& s : k_.surfaces)
      if (s.numElts < 1 || s.numElts > 128) err(s.loc, fmt::format("surface '{}' must have 1 to 128 elements", s.name));
    for (const SimpleVar& s : k_.samplers)
      if (s.numElts < 1 || s.numElts > 128) err(s.loc, fmt::format("sampler '{}' must have 1 to 128 elements", s.name));
    std::vector<std::pair<int, int>> ranges;
    for (const Input& in : k_.inputs) {
      uint32_t size = 0;
      std::string name;
      if (in.cls == Input::Class::General) {
        Type t;
        if (!k_.userVar(in.id) || !varBytes(in.id, t, size)) {
          err(in.loc, fmt::format("input names general variable V{} which is not declared", in.id));
          continue;
        }
        name = k_.varName(in.id);
      } else if (in.cls == Input::Class::Surface) {
        const SimpleVar* s = k_.surface(in.id);
        if (!s) {
          err(in.loc, fmt::format("input names surface T{} which is not declared (user surfaces start at T6)", in.id));
          continue;
        }
        size = s->numElts * 4u;
        name = k_.surfaceName(in.id);
      } else {
        if (in.id >= k_.samplers.size()) {
          err(in.loc, fmt::format("input names sampler S{} which is not declared", in.id));
          continue;
        }
        size = k_.samplers[in.id].numElts * 4u;
        name = fmt::format("S{}", in.id);
      }
      // igc-dialect.md §3.1: input size must equal the variable size.
      if (in.size != size) err(in.loc, fmt::format("input '{}' has size {} but the variable has {} bytes", name, in.size, size));
      if (in.offset < 0) err(in.loc, fmt::format("input '{}' has a negative offset", name));
      for (auto [b, e] : ranges)
        if (in.offset < e && b < in.offset + in.size) {
          err(in.loc, fmt::format("input '{}' at [{}, {}) overlaps another input", name, in.offset, in.offset + in.size));
          break;
        }
      ranges.emplace_back(in.offset, in.offset + in.size);
    }
    inDecls_ = false;
  }

  const SrcLoc& at(const Operand& o, const Instruction& inst) const { return o.loc.line ? o.loc : inst.loc; }

  void instruction(const Instruction& inst) {
    const InstrDesc* d = rowOf(inst);
    if (!d) {
      err(inst.loc, inst.subOp >= 0 ? fmt::format("unknown sub-opcode 0x{:02x} of opcode 0x{:02x}", inst.subOp,
                                                  static_cast<unsigned>(inst.op))
                                    : fmt::format("unknown opcode 0x{:02x}", static_cast<unsigned>(inst.op)));
      return;
    }
    if (inst.op == Opcode::LABEL) {
      if (inst.f[0].id >= k_.labels.size()) err(inst.loc, fmt::format("label id {} names no label", inst.f[0].id));
      return;
    }
    unsigned exec = inst.execSize();
    unsigned off = emaskOffset(inst.emask);
    if (rowInfo(*d).hasExec) {
      if (inst.execCode > 5) {
        err(inst.loc, fmt::format("invalid execution size code {}", inst.execCode));
        return;
      }
      if (!(d->execSizes & (1u << inst.execCode))) {
        std::string legal;
        for (unsigned c = 0; c < 6; ++c)
          if (d->execSizes & (1u << c)) legal += (legal.empty() ? "" : ", ") + std::to_string(1u << c);
        err(inst.loc, fmt::format("execution size {} is not allowed for {} (allowed: {}; {} page)", exec, d->pageMnemonic,
                                  legal, d->page));
      }
      // Chapter 3 "Execution Mask": offset aligned to the execution size; offset + size <= 32.
      if ((off & (exec - 1)) != 0)  // exec is a power of two: off % exec
        err(inst.loc, fmt::format("mask offset {} (M{}) is not aligned to the execution size {}", off, (inst.emask & 7) + 1, exec));
      else if (off + exec > 32)
        err(inst.loc, fmt::format("mask offset {} + execution size {} exceeds 32 channels", off, exec));
    }
    if (inst.pred.id) {
      const SimpleVar* p = k_.pred(inst.pred.id);
      if (!p) err(inst.loc, fmt::format("predicate id {} names no predicate variable", inst.pred.id));
      else if (off + exec > p->numElts)
        err(inst.loc, fmt::format("predicate '{}' has {} elements but the instruction reads bits {}..{}", p->name, p->numElts,
                                  off, off + exec - 1));
      if (inst.pred.control == 3) err(inst.loc, "predicate control 3 is reserved");
    }
    if (inst.sat && !d->sat) err(inst.loc, fmt::format("'{}' does not take .sat", d->mnemonic));
    for (int i = 0; i < d->numFields; ++i) field(*d, inst, i, inst.f[i]);
    for (auto check : rowRules()[rowIndex(*d)]) {
      RuleCtx c(k_, *d, inst, grf_, d_, opts_, idx_);
      check(c);
    }
  }

  void field(const InstrDesc& d, const Instruction& inst, int fi, const Operand& o) {
    const FieldDesc& f = d.fields[fi];
    const SrcLoc& loc = at(o, inst);
    if ((f.flags & kCounted) && o.kind == Operand::Kind::None) return;  // past the count (rules check it)
    switch (f.kind) {
      case FieldKind::ExecSize:
      case FieldKind::Pred:
      case FieldKind::SubOp: return;
      case FieldKind::Enum:
      case FieldKind::Int:
        if (o.value < f.minVal || o.value > f.maxVal) {
          if (f.names == nullptr) {
            err(loc, fmt::format("{} {} is out of range [{}, {}] ({} page)", f.name, o.value, f.minVal, f.maxVal, d.page));
            return;
          }
          std::string legal;
          for (unsigned i = 0; i < f.names->count; ++i)
            if (f.names->names[i].value >= f.minVal && f.names->names[i].value <= f.maxVal)
              legal += (legal.empty() ? "." : ", .") + std::string(f.names->names[i].text);
          const char* name = f.names->textOf(o.value);
          err(loc, fmt::format("{} {} is not allowed for {} (allowed: {}; {} page)", f.name,
                               name ? fmt::format(".{}", name) : std::to_string(o.value), d.pageMnemonic, legal, d.page));
        }
        return;
      case FieldKind::Zero:
        if (o.value != 0) err(loc, fmt::format("{} must be zero ({} page: ignored and always zero)", f.name, d.page));
        return;
      case FieldKind::Surface:
        if (o.id >= kNumPredefSurfaces && !k_.surface(o.id))
          err(loc, fmt::format("surface T{} is not a declared surface variable", o.id));
        return;
      case FieldKind::Sampler:
        if (o.id >= k_.samplers.size() && o.id != 31) err(loc, fmt::format("sampler S{} is not a declared sampler variable", o.id));
        return;
      case FieldKind::Label:
        if (o.id >= k_.labels.size()) err(loc, fmt::format("label id {} names no label", o.id));
        return;
      case FieldKind::String:
        if (o.value >= k_.strings.size()) err(loc, fmt::format("{} names string {}, which the kernel does not hold", f.name, o.value));
        return;
      case FieldKind::Raw: raw(d, inst, fi, o, loc); return;
      case FieldKind::Vec: vector(d, inst, f, o, loc); return;
    }
  }

  void predOperand(const Instruction& inst, const Operand& o, const SrcLoc& loc) {
    const SimpleVar* p = k_.pred(o.id);
    if (!p) {
      err(loc, fmt::format("predicate id {} names no predicate variable", o.id));
      return;
    }
    unsigned need = emaskOffset(inst.emask) + inst.execSize();
    if (need > p->numElts)
      err(loc, fmt::format("predicate '{}' has {} elements but the instruction touches {}", p->name, p->numElts, need));
  }

  void raw(const InstrDesc& d, const Instruction& inst, int fi, const Operand& o, const SrcLoc& loc) {
    const FieldDesc& f = d.fields[fi];
    if (o.kind != Operand::Kind::Raw) {
      err(loc, fmt::format("{} of {} must be a raw operand", f.name, d.pageMnemonic));
      return;
    }
    if (o.id == kVarNull) {
      if (o.offset != 0) err(loc, "%null must have 0 as offset");
      if (!(f.flags & kNullOk)) err(loc, fmt::format("{} of {} cannot be %null", f.name, d.pageMnemonic));
      return;
    }
    Type t;
    uint32_t bytes;
    if (!varBytes(o.id, t, bytes)) {
      err(loc, fmt::format("raw operand names variable V{} which is not declared", o.id));
      return;
    }
    if (f.types && !(f.types & bit(t))) {
      const std::string what = fmt::format("{} of {} must have type {}, but '{}' has type {} ({} page)", f.name, d.pageMnemonic,
                                           typeListText(f.types), k_.varName(o.id), typeName(t), d.page);
      // A27: IGC's SIMD8 intel_sub_group_block_read_uc / write_uc move 8 bytes of a B variable
      // as two dwords; the message moves the variable's bytes whatever its type.
      const std::string_view page = d.page, field = f.name;
      const bool data = (page == "GATHER_SCALED" && field == "Dst") || (page == "SCATTER_SCALED" && field == "Src");
      if (data && (t == Type::B || t == Type::UB))
        warn("raw-type", loc, what + "; its bytes are moved as dwords");
      else
        err(loc, what);
    }
    // igc-dialect.md §3.1: raw operands of GRF-sized variables are GRF-aligned.
    uint32_t rootOff, rootBytes;
    rootOf(o.id, rootOff, rootBytes);
    if (rootBytes >= grf_ && ((rootOff + o.offset) & (grf_ - 1)) != 0)  // grf_ is 32 or 64
      err(loc, fmt::format("raw operand '{}.{}' is not GRF-aligned (offset {} in a {}-byte GRF)", k_.varName(o.id), o.offset,
                           rootOff + o.offset, grf_));
    uint32_t need = rawFootprint(d, inst, fi, grf_);
    if (o.offset + need > bytes) {
      const std::string what = fmt::format("{} '{}.{}' needs {} bytes but '{}' has only {} bytes from offset {} ({} page)", f.name,
                                           k_.varName(o.id), o.offset, need, k_.varName(o.id),
                                           o.offset < bytes ? bytes - o.offset : 0, o.offset, d.page);
      // A27: IGC at -cl-opt-disable stores an 8-byte frame pointer with a 16-byte block
      // store; a read of less than one GRF past the variable reads the bytes that follow it.
      if (std::string_view(d.page) == "SVM_BLOCK_ST" && f.access == Access::Read && o.offset + need - bytes < grf_)
        warn("raw-src-size", loc, what + "; the bytes after it in the register file are read");
      else
        err(loc, what);
    }
  }

  void vector(const InstrDesc& d, const Instruction& inst, const FieldDesc& f, const Operand& o, const SrcLoc& loc) {
    bool isDst = f.access == Access::Write || f.access == Access::ReadWrite;
    VecClass c;
    switch (o.kind) {
      case Operand::Kind::General: c = VecClass::General; break;
      case Operand::Kind::Address: c = VecClass::Address; break;
      case Operand::Kind::Predicate: c = VecClass::Predicate; break;
      case Operand::Kind::Indirect: c = VecClass::Indirect; break;
      case Operand::Kind::AddressOf: c = VecClass::AddressOf; break;
      case Operand::Kind::Immediate: c = VecClass::Immediate; break;
      case Operand::Kind::State: c = VecClass::State; break;
      default:
        err(loc, fmt::format("{} of {} must be a vector operand", f.name, d.mnemonic));
        return;
    }
    if (o.kind == Operand::Kind::Predicate && inst.op == Opcode::MOV && !isDst) {
      // MOV page: a predicate src0 needs exec size 1, no predication or .sat, and a UB/UW/UD
      // destination at least as wide as the predicate.
      const SimpleVar* p = k_.pred(o.id);
      Type dt;
      uint32_t dbytes;
      const Operand& dst = inst.f[d.findName("Dst")];
      if (inst.execSize() != 1) err(loc, "mov from a predicate needs execution size 1 (MOV page)");
      if (inst.pred.id || inst.sat) err(loc, "mov from a predicate cannot be predicated or saturated (MOV page)");
      if (!p) err(loc, fmt::format("predicate id {} names no predicate variable", o.id));
      else if (dst.kind == Operand::Kind::General && varBytes(dst.id, dt, dbytes) &&
               (!(types(Type::UB, Type::UW, Type::UD, Type::B, Type::W, Type::D) & bit(dt)) || typeSize(dt) * 8 < p->numElts))
        err(loc, fmt::format("mov from predicate '{}' ({} elements) needs a UB, UW or UD destination of at least {} bits",
                             p->name, p->numElts, p->numElts));  // (B, W, D: the named warning mov-pred-type, rules_alu.cpp)
      return;
    }
    if (!(f.classes & cls(c))) {
      if (c == VecClass::Immediate) err(loc, fmt::format("{} of {} cannot be an immediate", f.name, d.mnemonic));
      else if (c == VecClass::Predicate) err(loc, fmt::format("a predicate cannot be the {} of {}", f.name, d.mnemonic));
      else if (f.classes == kP) err(loc, fmt::format("{} of {} must be a predicate variable", f.name, d.mnemonic));
      else err(loc, fmt::format("{} of {} must be a general variable{}", f.name, d.mnemonic,
                                (f.classes & kImm) ? " or an immediate" : ""));
      return;
    }
    if (o.kind == Operand::Kind::Predicate) {
      predOperand(inst, o, loc);
      return;
    }
    // Modifiers (chapter 5 "modifiers"): not only on logic ops; -/abs on arithmetic.
    if (o.mod != Mod::None) {
      bool ok = o.mod == Mod::Not ? (f.flags & kNotMod) : (o.mod != Mod::Sat && (f.flags & kArithMod));
      // (IGC's `rotate(x, -n)`: ROL/ROR with (-) on a source; its finalizer drops it, A38)
      if (!ok && (d.op == Opcode::ROL || d.op == Opcode::ROR) && o.mod == Mod::Neg)
        warn("rot-modifier", loc,
             fmt::format("the (-) modifier is not allowed on {} ({} page: no source modifier); IGC's finalizer drops it, and so "
                         "does visakit",
                         d.mnemonic, d.page));
      else if (!ok)
        err(loc, fmt::format("this source modifier is not allowed on {}", d.mnemonic));
    }
    if (o.kind == Operand::Kind::Immediate) {
      bool packed = o.type == Type::V || o.type == Type::UV || o.type == Type::VF;
      if (f.types && !(f.types & bit(o.type)) && !(packed && d.cls != InstrClass::Memory)) {
        // A UB, UW or UD immediate where the page wants UQ (IGC's `svm_scatter4scaled.RGB (M1, 16) 0x0:ud ...`):
        // its value, zero-extended (spec-decisions A27).
        if (f.types == bit(Type::UQ) && (o.type == Type::UB || o.type == Type::UW || o.type == Type::UD))
          warn("imm-type", loc, fmt::format("{} of {} must have type UQ, found immediate of type {}; its value is zero-extended ({} page)",
                                            f.name, d.pageMnemonic, typeName(o.type), d.page));
        else
          err(loc, fmt::format("{} of {} must have type {}, found immediate of type {} ({} page)", f.name, d.pageMnemonic,
                               typeListText(f.types), typeName(o.type), d.page));
      }
      return;
    }
    if (o.kind != Operand::Kind::General) return;  // Address, Indirect, AddressOf, State: addressOperand

    Type t;
    uint32_t bytes;
    if (!varBytes(o.id, t, bytes)) {
      err(loc, fmt::format("operand names variable V{} which is not declared", o.id));
      return;
    }
    if (o.id == kVarNull && !isDst) {
      err(loc, "%null cannot be a source operand");
      return;
    }
    if (f.types && !(f.types & bit(t)))
      err(loc, fmt::format("{} of {} must have type {}, but '{}' has type {}", f.name, d.pageMnemonic, typeListText(f.types),
                           k_.varName(o.id), typeName(t)));
    unsigned exec = inst.execSize();
    unsigned ts = tsize(t);
    if (o.col * ts >= grf_) err(loc, fmt::format("column offset {} crosses the GRF boundary", o.col));
    uint64_t first = uint64_t{o.row} * grfElems_[static_cast<unsigned>(t) & 15] + o.col;
    uint64_t last = first;
    if (f.flags & kScalar) {
      // "Offset(scalar)": one element, region <0;1,0>.
      if (!(o.region.vs == 0 && o.region.w == 1 && o.region.hs == 0))
        err(loc, fmt::format("{} of {} must be a scalar (region <0;1,0>) or an immediate", f.name, d.pageMnemonic));
    } else if (isDst) {
      // Chapter 5 region rule 5: dst HorzStride must not be 0.
      if (o.region.hs == 0) err(loc, "horizontal stride of a destination must not be 0");
      else if (o.region.hs != 1 && o.region.hs != 2 && o.region.hs != 4)
        err(loc, fmt::format("horizontal stride {} is not allowed (1, 2 or 4)", o.region.hs));
      last = first + uint64_t{exec - 1} * o.region.hs;
    } else {
      // Chapter 5 "General Restrictions on Region Parameters".
      unsigned vs = o.region.vs, w = o.region.w, hs = o.region.hs;
      bool ok = true;
      if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
        err(loc, fmt::format("region width {} is not allowed (1, 2, 4, 8 or 16)", w));
        ok = false;
      }
      if (hs != 0 && hs != 1 && hs != 2 && hs != 4) {
        err(loc, fmt::format("horizontal stride {} is not allowed (0, 1, 2 or 4)", hs));
        ok = false;
      }
      if (vs == kRegionNull) {
        err(loc, "a source region needs a vertical stride");
        ok = false;
      }
      if (ok && w > exec) {
        err(loc, fmt::format("region width {} is greater than the execution size {}", w, exec));
        ok = false;
      }
      // w is 1, 2, 4, 8 or 16 here: exec / w by a shift.
      if (ok) last = first + uint64_t{(exec >> std::countr_zero(w)) - 1} * vs + uint64_t{w - 1} * hs;
    }
    if ((last + 1) * ts > bytes)
      err(loc, fmt::format("operand reaches element {} of '{}', which has {} elements of type {}", last, k_.varName(o.id),
                           bytes / ts, typeName(t)));
  }

  // A general variable that no instruction writes (through it or an alias of the same root),
  // that is not an input and whose address is not taken, has no defined value: a read of it
  // is the named warning unwritten-read, once per variable (its first read). Chapter 4: a
  // variable's initial value is undefined. Indirect destinations may write any variable: none then.
  void unwrittenReads() {
    auto root = [&](uint32_t id) {
      for (int n = 0; n < 64; ++n) {  // (the alias chain, at most 64 links as rootOf follows it)
        const GenVar* v = k_.userVar(id);
        if (!v || v->aliasBase == 0) break;
        id = v->aliasBase;
      }
      return id;
    };
    std::vector<uint8_t> written(vars_.size(), 0);
    auto markWritten = [&](uint32_t id) {
      if (const uint32_t r = root(id); r < written.size()) written[r] = 1;  // (an alias of nothing: an error already)
    };
    for (const Input& in : k_.inputs)
      if (in.cls == Input::Class::General) markWritten(in.id);
    for (const Instruction& inst : k_.code) {
      const InstrDesc* d = rowOf(inst);
      if (!d) return;
      for (int f = 0; f < d->numFields; ++f) {
        const Operand& o = inst.f[f];
        const Access a = d->fields[f].access;
        if (o.kind == Operand::Kind::Indirect && (a == Access::Write || a == Access::ReadWrite)) return;
        if (o.kind == Operand::Kind::AddressOf) markWritten(o.id);
        if ((o.kind == Operand::Kind::General || o.kind == Operand::Kind::Raw) && (a == Access::Write || a == Access::ReadWrite))
          markWritten(o.id);
      }
    }
    std::vector<uint8_t> said(vars_.size(), 0);
    for (size_t i = 0; i < k_.code.size(); ++i) {
      idx_ = i;
      const Instruction& inst = k_.code[i];
      const InstrDesc* d = rowOf(inst);
      // (IGC's `cmp.eq P V V` of an undefined V: a predicate whose value does not depend on V's)
      if (d && inst.op == Opcode::CMP) {
        const int s0 = d->findName("Src0"), s1 = d->findName("Src1");
        if (s0 >= 0 && s1 >= 0 && inst.f[s0] == inst.f[s1]) continue;
      }
      for (int f = 0; d && f < d->numFields; ++f) {
        const Operand& o = inst.f[f];
        if (d->fields[f].access != Access::Read || (o.kind != Operand::Kind::General && o.kind != Operand::Kind::Raw)) continue;
        if (o.id < kNumPredefVars || o.id >= written.size() || !vars_[o.id].valid) continue;
        const uint32_t r = root(o.id);
        if (r < kNumPredefVars || r >= written.size() || written[r] || said[r]) continue;
        said[r] = 1;
        warn("unwritten-read", o.loc,
             r == o.id ? fmt::format("reads '{}', which no instruction writes and which is not an input (its value is undefined)",
                                     k_.varName(o.id))
                       : fmt::format("reads '{}', an alias of '{}', which no instruction writes and which is not an input (its value "
                                     "is undefined)",
                                     k_.varName(o.id), k_.varName(r)));
      }
    }
  }

  void labels() {
    std::vector<bool> defined(k_.labels.size());
    for (const Instruction& i : k_.code)
      if ((i.op == Opcode::LABEL || i.op == Opcode::SUBROUTINE) && i.f[0].id < defined.size()) defined[i.f[0].id] = true;
    std::set<uint32_t> reported;
    for (size_t i = 0; i < k_.code.size(); ++i) {
      idx_ = i;
      const Instruction& inst = k_.code[i];
      const InstrDesc* d = rowOf(inst);
      if (!d || inst.op == Opcode::LABEL) continue;
      int li = rowInfo(*d).labelField;
      if (li < 0) continue;
      uint32_t id = inst.f[li].id;
      // An FC label (FCCALL page) names a kernel of another compilation unit: never defined here.
      if (id < defined.size() && !defined[id] && k_.labels[id].kind != 2 && reported.insert(id).second)
        err(at(inst.f[li], inst), fmt::format("undefined label '{}'", k_.labels[id].name));
    }
  }
};

}  // namespace

bool verify(const Module& m, Diagnostics& diags, const Options& opts) {
  unsigned before = diags.errorCount();
  if (opts.grfSize != 32 && opts.grfSize != 64) {
    diags.error({}, fmt::format("GRF size must be 32 or 64, not {}", opts.grfSize));
    return false;
  }
  for (const Kernel& k : m.kernels) Verifier(k, diags, opts).run();
  return diags.errorCount() == before;
}

}  // namespace visakit
