// Rows whose text is not the generic "[(P)] mnemonic{.suffix}[.sat] [(M, N)]
// operands" (InstrDesc::syntax other than Generic) have their own reader and
// printer here, written against the parser's and printer's building blocks,
// as LLVM's custom operand parsers sit beside its generated matcher. Each
// family's syntax lives in a file of its own (syntax_*.cpp); customSyntax()
// names them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "text/lexer.hpp"
#include "visakit/kernel.hpp"

namespace visakit::text {

// What a custom syntax reads with: the parser's token stream and its operand
// readers. fail() reports at a token and abandons the statement.
class TextReader {
 public:
  virtual ~TextReader() = default;
  virtual const Token& peek(size_t ahead = 0) = 0;
  virtual const Token& next() = 0;
  virtual bool atEol() = 0;
  [[noreturn]] virtual void fail(const Token& t, const std::string& msg) = 0;
  virtual void expectPunct(char c, std::string_view what) = 0;
  virtual const Token& expectIdent(std::string_view what) = 0;
  virtual uint64_t expectInt(std::string_view what, uint64_t max) = 0;
  // A field in its generic text form (a vector, raw, surface, ... operand).
  virtual void field(const FieldDesc& f, Operand& o) = 0;
  // "(M1, 16)" into the instruction's execution size and mask.
  virtual void execSize(Instruction& inst) = 0;
  // A general variable's id by name (declared, predefined or V<n>).
  virtual uint32_t generalVar(const Token& name) = 0;
  virtual uint32_t surfaceVar(const Token& name) = 0;
  // A declared variable of any class by name: cls 'G' (general, predefined
  // too), 'A', 'P', 'S' or 'T'; false if the name names none.
  virtual bool variable(const Token& name, char& cls, uint32_t& id) = 0;
  // The kernel being read (its labels' kinds, its strings).
  virtual Kernel& kernel() = 0;
};

// The text of a field as the generic printer writes it.
std::string operandText(const Kernel& k, const FieldDesc& f, const Operand& o);
// "(M1, 16)".
std::string execSizeText(const Instruction& inst);

struct CustomSyntax {
  // Reads the rest of the statement after the mnemonic `mn` (the predicate, if
  // any, is already in `inst`; so are op, subOp and loc).
  void (*parse)(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn);
  // The whole instruction's text, predicate included.
  std::string (*print)(const Kernel& k, const InstrDesc& d, const Instruction& inst);
};

// nullptr for Generic, Label and Function (the parser and printer's own).
const CustomSyntax* customSyntax(Syntax s);
const CustomSyntax& ctlSyntax();  // syntax_ctl.cpp

}  // namespace visakit::text
