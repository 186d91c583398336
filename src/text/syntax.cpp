// The custom syntaxes by family (syntax.hpp).
#include "text/syntax.hpp"

namespace visakit::text {

const CustomSyntax* memSyntax();  // syntax_mem.cpp
const CustomSyntax& aluSyntax();  // syntax_alu.cpp
const CustomSyntax* lscSyntax();  // syntax_lsc.cpp

const CustomSyntax* customSyntax(Syntax s) {
  switch (s) {
    case Syntax::Generic:
    case Syntax::Label:
    case Syntax::Function: return nullptr;
    case Syntax::Mem: return memSyntax();
    case Syntax::Alu: return &aluSyntax();
    case Syntax::Lsc: return lscSyntax();
    case Syntax::Ctl: return &ctlSyntax();
  }
  return nullptr;
}

}  // namespace visakit::text
