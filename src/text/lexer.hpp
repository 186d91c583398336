// Tokens of the .visaasm dialect (igc-dialect.md §1.1).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "visakit/diag.hpp"

namespace visakit::text {

enum class Tok : uint8_t { Ident, Int, Float, String, Punct, Newline, End };

struct Token {
  Tok kind = Tok::End;
  bool hex = false;       // Int written in hex
  SrcLoc loc;
  std::string_view text;  // exact source text (for String: without quotes)
  union {
    uint64_t intVal = 0;  // Int
    double floatVal;      // Float
  };
  bool is(char c) const { return kind == Tok::Punct && text[0] == c; }  // Punct text is one char
  bool isIdent(std::string_view s) const { return kind == Tok::Ident && text == s; }
};

// Splits the source into tokens one line at a time (statements are
// line-based), so that only the current line's tokens are ever held.
// Lexical errors go to diags.
class Lexer {
 public:
  Lexer(std::string_view src, Diagnostics& diags) : s_(src), diags_(diags), buf_(64) {}
  // Lexes the tokens up to and including the next Newline, or the End token
  // at the end of the source (again on every later call). The tokens stay
  // valid until the next call.
  std::span<const Token> line();
  size_t offset() const { return i_; }  // where the next line() starts

 private:
  std::string_view s_;
  Diagnostics& diags_;
  size_t i_ = 0;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
  std::vector<Token> buf_;  // the line's tokens; its size is the capacity
};

std::string describe(const Token& t);  // for "found 'x'" messages
// Whether `s` reads as one identifier token (a label's or a function's name).
bool isIdentifier(std::string_view s);

}  // namespace visakit::text
