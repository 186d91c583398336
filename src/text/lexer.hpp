// Tokens of the .visaasm dialect (igc-dialect.md §1.1).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "visakit/diag.hpp"

namespace visakit::text {

enum class Tok : uint8_t { Ident, Int, Float, String, Punct, Newline, End };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // exact source text (for String: without quotes)
  uint64_t intVal = 0;    // Int
  double floatVal = 0;    // Float
  bool hex = false;       // Int written in hex
  SrcLoc loc;
  bool is(char c) const { return kind == Tok::Punct && text.size() == 1 && text[0] == c; }
  bool isIdent(std::string_view s) const { return kind == Tok::Ident && text == s; }
};

// Splits the whole source into tokens; lexical errors go to diags.
std::vector<Token> lex(std::string_view src, Diagnostics& diags);

std::string describe(const Token& t);  // for "found 'x'" messages

}  // namespace visakit::text
