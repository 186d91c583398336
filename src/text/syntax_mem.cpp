// The text of the family-M rows the generic layout cannot write (Syntax::Mem),
// as IGC prints them (IsaDisassembly.cpp) and its grammar reads them (CISA.y):
//
//   [(P)] dword_atomic.<op>[.16] (M, N) <surface> <offsets> <src0> <src1> <dst>
//   [(P)] svm_atomic.<op>[.16|.64] (M, N) <addresses> <dst> <src0> <src1>
//   [(P)] typed_atomic.<op>[.16] (M, N) <surface> <u> <v> <r> <lod> <src0> <src1> <dst>
//   oword_ld[.mod] (<owords>) <surface> <offset> <dst>        (also oword_ld_unaligned, oword_st)
//   svm_block_ld[.unaligned] (<owords>) <address> <dst>        (also svm_block_st)
//   gather.<elt_size> (M, N)[.mod] <surface> <global_offset> <element_offset> <dst>   (also scatter)
//   media_ld.<mods> (<width>,<height>) <surface> <plane> <x_offset> <y_offset> <dst>  (also media_st)
//
// The operands are the fields at their text positions, read and printed as the
// generic layout does.
#include <fmt/format.h>

#include "isa/mem_ops.hpp"
#include "text/syntax.hpp"

namespace visakit::text {
namespace {

using namespace memops;

Operand& fieldOf(const InstrDesc& d, Instruction& inst, const char* name) { return inst.f[d.findName(name)]; }
uint64_t valueOf(const InstrDesc& d, const Instruction& inst, const char* name) {
  int i = d.findName(name);
  return i >= 0 ? inst.f[i].value : 0;
}

void setInt(const InstrDesc& d, Instruction& inst, const char* name, uint64_t v, SrcLoc loc) {
  Operand& o = fieldOf(d, inst, name);
  o.kind = Operand::Kind::Int;
  o.value = v;
  o.loc = loc;
}

// ".x": the token after the dot (an identifier or a number).
const Token& suffix(TextReader& r, const InstrDesc& d) {
  r.expectPunct('.', fmt::format("after '{}'", d.mnemonic));
  const Token& t = r.peek();
  if (t.kind != Tok::Ident && t.kind != Tok::Int) r.fail(t, fmt::format("expected a suffix of '{}', found {}", d.mnemonic, describe(t)));
  return r.next();
}
bool peekSuffix(TextReader& r, std::string_view s) { return r.peek().is('.') && r.peek(1).text == s; }

// An Enum field written as a suffix or in parentheses: one of its value names.
uint64_t enumValue(TextReader& r, const InstrDesc& d, const Token& t, const char* field) {
  const FieldDesc& f = d.fields[d.findName(field)];
  if (auto v = f.names->valueOf(t.text)) return *v;
  if (t.kind == Tok::Int && t.intVal <= 0xff) return t.intVal;  // the field's bits (MEDIA_LD page: "<mods> is the bits")
  std::string choices;
  for (unsigned i = 0; i < f.names->count; ++i) choices += (choices.empty() ? "" : ", ") + std::string(f.names->names[i].text);
  r.fail(t, fmt::format("invalid {} '{}' of '{}' (expected {})", f.name, t.text, d.mnemonic, choices));
  return 0;  // (fail does not return)
}

// "(N)": the number of owords, N in 1, 2, 4, 8, 16 (code 0-4).
uint64_t owords(TextReader& r, const InstrDesc& d) {
  r.expectPunct('(', "to start the number of owords");
  const Token& n = r.peek();
  static constexpr char kSizes[][3] = {"1", "2", "4", "8", "16"};
  uint64_t code = 5;
  for (uint64_t c = 0; c < 5; ++c)
    if (n.kind == Tok::Int && !n.hex && n.text == kSizes[c]) code = c;
  if (code == 5) r.fail(n, fmt::format("invalid number of owords {} of '{}' (expected 1, 2, 4, 8 or 16)", describe(n), d.mnemonic));
  r.next();
  r.expectPunct(')', "to end the number of owords");
  return code;
}

void operands(TextReader& r, const InstrDesc& d, Instruction& inst) {
  const int n = d.numTextOperands();
  for (int pos = 0; pos < n; ++pos) {
    int fi = d.atTextPos(pos);
    if (r.atEol())
      r.fail(r.peek(), fmt::format("missing operand '{}' of '{}' (expected {} operands)", d.fields[fi].name, d.mnemonic, n));
    r.field(d.fields[fi], inst.f[fi]);
  }
}

bool isAtomic(const InstrDesc& d) {
  return d.op == Opcode::DWORD_ATOMIC || d.op == Opcode::TYPED_ATOMIC || (d.op == Opcode::SVM && d.subOp == 5);
}

void parse(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  if (d.subOp >= 0) setInt(d, inst, "SubOp", static_cast<uint64_t>(d.subOp), mn.loc);
  if (isAtomic(d)) {
    // <op>[.16|.64] (SVM_ATOMIC also .32, the default; DWORD/TYPED_ATOMIC .16 only).
    const Token& op = suffix(r, d);
    auto code = atomicByName(op.text);
    if (!code || op.kind != Tok::Ident) r.fail(op, fmt::format("unknown atomic operation '.{}' of '{}'", op.text, d.mnemonic));
    uint64_t v = *code;
    if (r.peek().is('.')) {
      const Token& w = suffix(r, d);
      const bool svm = d.op == Opcode::SVM;
      if (w.kind == Tok::Int && w.text == "16") v |= kOp16;
      else if (svm && w.kind == Tok::Int && w.text == "64") v |= kOp64;
      else if (!(svm && w.kind == Tok::Int && w.text == "32"))
        r.fail(w, fmt::format("invalid width '.{}' of '{}' (expected {})", w.text, d.mnemonic, svm ? ".16, .32 or .64" : ".16"));
    }
    setInt(d, inst, "Op", v, op.loc);
    r.execSize(inst);
    operands(r, d, inst);
    return;
  }
  switch (d.op) {
    case Opcode::OWORD_LD:
    case Opcode::OWORD_LD_UNALIGNED:
    case Opcode::OWORD_ST: {
      bool mod = false;
      SrcLoc modLoc = mn.loc;
      if (d.op != Opcode::OWORD_ST && peekSuffix(r, "mod")) {
        modLoc = suffix(r, d).loc;
        mod = true;
      }
      if (d.op != Opcode::OWORD_ST) setInt(d, inst, "Is_modified", mod, modLoc);
      SrcLoc at = r.peek().loc;
      setInt(d, inst, "Size", owords(r, d), at);
      break;
    }
    case Opcode::SVM: {  // SVM_BLOCK_LD / SVM_BLOCK_ST: Properties = owords | unaligned << 3
      uint64_t props = 0;
      if (peekSuffix(r, "unaligned")) {
        suffix(r, d);
        props = 8;
      }
      SrcLoc at = r.peek().loc;
      setInt(d, inst, "Properties", props | owords(r, d), at);
      break;
    }
    case Opcode::GATHER:
    case Opcode::SCATTER: {
      // IGC prints ".mod" before the element size; its grammar reads it after "(M, N)": both are read.
      bool mod = false;
      SrcLoc modLoc = mn.loc;
      if (d.op == Opcode::GATHER && peekSuffix(r, "mod")) {
        modLoc = suffix(r, d).loc;
        mod = true;
      }
      const Token& elt = suffix(r, d);
      setInt(d, inst, "Elt_size", enumValue(r, d, elt, "Elt_size"), elt.loc);
      // "(M, N)": the mask and N = 8, 16 or 1 go to Num_elts (bits 0-1 size, bits 4-7 mask).
      const Token& open = r.peek();
      SrcLoc at = open.loc;
      Instruction tmp;
      r.execSize(tmp);
      const unsigned n = tmp.execSize();
      if (n != 8 && n != 16 && n != 1)
        r.fail(open, fmt::format("'{}' takes 1, 8 or 16 elements, not {} ({} page)", d.mnemonic, n, d.page));
      setInt(d, inst, "Num_elts", (n == 8 ? 0u : n == 16 ? 1u : 2u) | unsigned{tmp.emask} << 4, at);
      if (d.op == Opcode::GATHER && !mod && peekSuffix(r, "mod")) {
        modLoc = suffix(r, d).loc;
        mod = true;
      }
      if (d.op == Opcode::GATHER) setInt(d, inst, "Is_modified", mod, modLoc);
      break;
    }
    case Opcode::MEDIA_LD:
    case Opcode::MEDIA_ST: {
      const Token& m = suffix(r, d);
      setInt(d, inst, "Modifiers", enumValue(r, d, m, "Modifiers"), m.loc);
      r.expectPunct('(', "to start the block width and height");
      SrcLoc at = r.peek().loc;
      setInt(d, inst, "Block_width", r.expectInt("block width", 255), at);
      r.expectPunct(',', "between the block width and height");
      at = r.peek().loc;
      setInt(d, inst, "Block_height", r.expectInt("block height", 255), at);
      r.expectPunct(')', "to end the block width and height");
      break;
    }
    default: r.fail(mn, fmt::format("'{}' has no text form", d.mnemonic));
  }
  operands(r, d, inst);
}

std::string predText(const Kernel& k, const Instruction& inst) {
  if (!inst.pred.id) return {};
  const SimpleVar* p = k.pred(inst.pred.id);
  std::string n = p && !p->name.empty() ? p->name : fmt::format("P{}", inst.pred.id);
  return fmt::format("({}{}{}) ", inst.pred.invert ? "!" : "", n,
                     inst.pred.control == 1 ? ".any" : inst.pred.control == 2 ? ".all" : "");
}

std::string operandsText(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  std::string s;
  for (int pos = 0; pos < d.numTextOperands(); ++pos) {
    int fi = d.atTextPos(pos);
    s += " " + operandText(k, d.fields[fi], inst.f[fi]);
  }
  return s;
}

std::string enumText(const InstrDesc& d, const Instruction& inst, const char* field) {
  const FieldDesc& f = d.fields[d.findName(field)];
  uint64_t v = valueOf(d, inst, field);
  const char* t = f.names ? f.names->textOf(v) : nullptr;
  return t ? t : std::to_string(v);
}

std::string print(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  std::string s = predText(k, inst) + d.mnemonic;
  if (isAtomic(d)) {
    const uint64_t v = valueOf(d, inst, "Op");
    const char* n = atomicName(v & kOpBits);
    s += n ? fmt::format(".{}", n) : fmt::format(".op{}", v & kOpBits);
    if (v & kOp16) s += ".16";
    else if (v & kOp64) s += ".64";
    return s + " " + execSizeText(inst) + operandsText(k, d, inst);
  }
  switch (d.op) {
    case Opcode::OWORD_LD:
    case Opcode::OWORD_LD_UNALIGNED:
    case Opcode::OWORD_ST:
      if (d.op != Opcode::OWORD_ST && (valueOf(d, inst, "Is_modified") & 1)) s += ".mod";
      s += fmt::format(" ({})", enumText(d, inst, "Size"));
      break;
    case Opcode::SVM: {
      const uint64_t p = valueOf(d, inst, "Properties");
      if (p & 8) s += ".unaligned";
      s += fmt::format(" ({})", 1u << (p & 7));
      break;
    }
    case Opcode::GATHER:
    case Opcode::SCATTER: {
      const uint64_t n = valueOf(d, inst, "Num_elts");
      Instruction tmp;
      tmp.execCode = (n & 3) == 0 ? 3 : (n & 3) == 1 ? 4 : 0;
      tmp.emask = static_cast<uint8_t>(n >> 4);
      s += fmt::format(".{} {}", enumText(d, inst, "Elt_size"), execSizeText(tmp));
      if (d.op == Opcode::GATHER && (valueOf(d, inst, "Is_modified") & 1)) s += ".mod";
      break;
    }
    case Opcode::MEDIA_LD:
    case Opcode::MEDIA_ST:
      s += fmt::format(".{} ({},{})", enumText(d, inst, "Modifiers"), valueOf(d, inst, "Block_width"),
                       valueOf(d, inst, "Block_height"));
      break;
    default: break;
  }
  return s + operandsText(k, d, inst);
}

constexpr CustomSyntax kMem{parse, print};

}  // namespace

const CustomSyntax* memSyntax() { return &kMem; }

}  // namespace visakit::text
