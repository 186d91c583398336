// The ALU rows whose text the generic layout cannot express, as IGC 12504
// reads (CISA.l, CISA.y) and prints them (IsaDisassembly.cpp
// printInstructionCommon):
//   - MIN_MAX: the mnemonic is the Op field, `min` or `max` (page: MIN / MAX);
//   - BFN: `bfn.xNN`, the BooleanFuncCtrl byte in hex after ".x" (IGC's lexer
//     `bfn"."x[[:xdigit:]]+`; its printer writes lower-case hex, no leading zero);
//   - ADD3O: `add3.o` (page: ADD3O), which the lexer splits as `add3` `.o`: the
//     ADD3 row reads the `.o` suffix and becomes ADD3O.
// After the mnemonic and its suffixes, the rest is the generic layout.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "text/syntax.hpp"
#include "visakit/visakit.hpp"

namespace visakit::text {
namespace {

// "(M1, 16)" and the operands in text order.
void rest(TextReader& r, const InstrDesc& d, Instruction& inst) {
  r.execSize(inst);
  const int n = d.numTextOperands();
  for (int pos = 0; pos < n; ++pos) {
    int fi = d.atTextPos(pos);
    if (r.atEol())
      r.fail(r.peek(), fmt::format("missing operand '{}' of '{}' (expected {} operands)", d.fields[fi].name, d.mnemonic, n));
    r.field(d.fields[fi], inst.f[fi]);
  }
}

bool isHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

void parse(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  const InstrDesc* row = &d;
  bool bfnSeen = false;
  if (d.op == Opcode::FMINMAX) {
    // MIN_MAX page: "MIN ... | MAX ..."; IGC: min, max.
    int op = -1;
    if (mn.text == "min" || mn.text == "MIN") op = 0;
    else if (mn.text == "max" || mn.text == "MAX") op = 1;
    else r.fail(mn, fmt::format("'{}' is spelled 'min' or 'max'", mn.text));
    int fi = d.findName("Op");
    inst.f[fi].kind = Operand::Kind::Int;
    inst.f[fi].value = static_cast<uint64_t>(op);
    inst.f[fi].loc = mn.loc;
  }
  while (r.peek().is('.')) {
    r.next();
    const Token& sfx = r.peek();
    if (sfx.kind != Tok::Ident) r.fail(sfx, fmt::format("expected suffix after '.', found {}", describe(sfx)));
    r.next();
    std::string_view t = sfx.text;
    if (t == "sat" && row->sat && !inst.sat) {
      inst.sat = true;
    } else if (t == "o" && row->op == Opcode::ADD3 && !inst.sat) {
      // IGC: add3.o is ADD3O (its predicate is the overflow it writes).
      row = lookup(Opcode::ADD3O);
      inst.op = Opcode::ADD3O;
    } else if (row->op == Opcode::BFN && !bfnSeen && t.size() >= 2 && t.size() <= 9 && t[0] == 'x' &&
               std::all_of(t.begin() + 1, t.end(), isHex)) {
      // BFN page: "BFN.x[BooleanFuncCtrl]", a hex byte (IGC: any number of hex digits).
      const unsigned long v = std::stoul(std::string(t.substr(1)), nullptr, 16);
      if (v > 0xff) r.fail(sfx, fmt::format("BooleanFuncCtrl 0x{:x} of bfn is not a byte (BFN page)", v));
      int fi = row->findName("BooleanFuncCtrl");
      inst.f[fi].kind = Operand::Kind::Int;
      inst.f[fi].value = v;
      inst.f[fi].loc = sfx.loc;
      bfnSeen = true;
    } else {
      r.fail(sfx, fmt::format("unexpected suffix '.{}' on '{}'", t, row->mnemonic));
    }
  }
  if (row->op == Opcode::BFN && !bfnSeen)
    r.fail(mn, "'bfn' needs its BooleanFuncCtrl suffix: bfn.xNN, NN a hex byte (BFN page)");
  rest(r, *row, inst);
}

std::string print(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  std::string s;
  if (inst.pred.id != 0) {
    const SimpleVar* p = k.pred(inst.pred.id);
    s += fmt::format("({}{}{}) ", inst.pred.invert ? "!" : "",
                     p && !p->name.empty() ? p->name : fmt::format("P{}", inst.pred.id),
                     inst.pred.control == 1 ? ".any" : inst.pred.control == 2 ? ".all" : "");
  }
  if (d.op == Opcode::FMINMAX) s += inst.f[d.findName("Op")].value ? "max" : "min";
  else s += d.mnemonic;
  if (d.op == Opcode::BFN) s += fmt::format(".x{:x}", inst.f[d.findName("BooleanFuncCtrl")].value & 0xff);
  if (inst.sat) s += ".sat";
  s += " " + execSizeText(inst);
  for (int pos = 0; pos < d.numTextOperands(); ++pos) {
    int fi = d.atTextPos(pos);
    s += " " + operandText(k, d.fields[fi], inst.f[fi]);
  }
  return s;
}

const CustomSyntax kAlu{parse, print};

}  // namespace

const CustomSyntax& aluSyntax() { return kAlu; }

}  // namespace visakit::text
