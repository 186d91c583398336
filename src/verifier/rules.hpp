// Rules of a page that the table's fields cannot state (a relation between
// fields, a value that depends on another), one function per row, in the
// family files rules_*.cpp. The generic checks of the fields (types, ranges,
// operand classes, footprints) run first.
#pragma once

#include <span>
#include <string>

#include "visakit/visakit.hpp"

namespace visakit {

// A named warning: what Intel's compiler emits though a page forbids it
// (spec-decisions A27), "MSG [-WNAME]"; an error under Options::warningsAsErrors.
void addNamedWarning(Diagnostics& d, const Options& o, const char* name, SrcLoc loc, std::string msg, std::string where);

class RuleCtx {
 public:
  // (index: the instruction's number in the kernel, for a diagnostic without a source line)
  RuleCtx(const Kernel& k, const InstrDesc& row, const Instruction& inst, unsigned grfSize, Diagnostics& d,
          const Options& o, size_t index)
      : k_(k), row_(row), inst_(inst), grf_(grfSize), d_(d), opts_(o), index_(index) {}
  const Kernel& kernel() const { return k_; }
  const InstrDesc& row() const { return row_; }
  const Instruction& inst() const { return inst_; }
  unsigned grfSize() const { return grf_; }
  // The operand of the field with the page's name (the row must have it).
  const Operand& field(const char* name) const { return inst_.f[row_.findName(name)]; }
  const SrcLoc& locOf(const Operand& o) const { return o.loc.line ? o.loc : inst_.loc; }
  void error(SrcLoc loc, std::string msg);
  // A named warning (addNamedWarning).
  void warning(const char* name, SrcLoc loc, std::string msg);

 private:
  const Kernel& k_;
  const InstrDesc& row_;
  const Instruction& inst_;
  unsigned grf_;
  Diagnostics& d_;
  const Options& opts_;
  size_t index_;
  std::string whereOf(SrcLoc loc) const;
};

struct RowRule {
  Opcode op;
  int16_t subOp;  // -1: the opcode's rows without sub-opcodes
  void (*check)(RuleCtx& c);
};
// Each family's rules (rules_*.cpp).
std::span<const RowRule> coreRules();
std::span<const RowRule> memRules();
std::span<const RowRule> aluRules();
std::span<const RowRule> lscRules();
std::span<const RowRule> ctlRules();

}  // namespace visakit
