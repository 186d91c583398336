// Lexer: identifiers (incl. %builtins), numbers, strings, punctuation,
// newlines (statements are line-based), // and /* */ comments.
#include "text/lexer.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

namespace visakit::text {
namespace {

// ASCII classes inline (the program never sets a locale, so <cctype> is the "C" one).
inline bool asciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool asciiDigit(char c) { return c >= '0' && c <= '9'; }

bool identStart(char c) {
  return asciiAlpha(c) || c == '_' || c == '%' || c == '$' || c == '@' || c == '?';
}
bool identChar(char c) {
  return asciiAlpha(c) || asciiDigit(c) || c == '_' || c == '$' || c == '@' || c == '?';
}

}  // namespace

std::vector<Token> lex(std::string_view s, Diagnostics& diags) {
  std::vector<Token> out;
  out.reserve(s.size() / 6 + 16);
  size_t i = 0;
  uint32_t line = 1;
  size_t lineStart = 0;
  auto loc = [&](size_t pos, size_t len) {
    return SrcLoc{line, static_cast<uint32_t>(pos - lineStart + 1), static_cast<uint32_t>(len)};
  };
  auto push = [&](Tok k, size_t start, size_t len) {
    Token t;
    t.kind = k;
    t.text = s.substr(start, len);
    t.loc = loc(start, len);
    out.push_back(t);
    return &out.back();
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      push(Tok::Newline, i, 1);
      ++i;
      ++line;
      lineStart = i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n'))) {
      // A backslash at the end of a line continues the statement.
      i += s[i + 1] == '\n' ? 2 : 3;
      ++line;
      lineStart = i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      SrcLoc start = loc(i, 2);
      i += 2;
      bool closed = false;
      while (i < s.size()) {
        if (s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/') {
          i += 2;
          closed = true;
          break;
        }
        if (s[i] == '\n') {
          ++line;
          lineStart = i + 1;
        }
        ++i;
      }
      if (!closed) diags.error(start, "unterminated /* comment");
      continue;
    }
    if (identStart(c)) {
      size_t st = i++;
      while (i < s.size() && identChar(s[i])) ++i;
      push(Tok::Ident, st, i - st);
      continue;
    }
    if (asciiDigit(c)) {
      size_t st = i;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        size_t ds = i;
        while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) ++i;
        Token* t = push(Tok::Int, st, i - st);
        t->hex = true;
        auto r = std::from_chars(s.data() + ds, s.data() + i, t->intVal, 16);
        if (ds == i || r.ec != std::errc()) diags.error(t->loc, fmt::format("invalid hexadecimal number '{}'", t->text));
        continue;
      }
      while (i < s.size() && asciiDigit(s[i])) ++i;
      bool isFloat = false;
      if (i + 1 < s.size() && s[i] == '.' && asciiDigit(s[i + 1])) {
        isFloat = true;
        ++i;
        while (i < s.size() && asciiDigit(s[i])) ++i;
      }
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && asciiDigit(s[j])) {
          isFloat = true;
          i = j;
          while (i < s.size() && asciiDigit(s[i])) ++i;
        }
      }
      Token* t = push(isFloat ? Tok::Float : Tok::Int, st, i - st);
      if (isFloat) {
        std::string tmp(t->text);
        t->floatVal = std::strtod(tmp.c_str(), nullptr);
      } else {
        auto r = std::from_chars(s.data() + st, s.data() + i, t->intVal, 10);
        if (r.ec != std::errc()) diags.error(t->loc, fmt::format("number '{}' is too large", t->text));
      }
      continue;
    }
    if (c == '"') {
      size_t st = i++;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= s.size() || s[i] != '"') {
        diags.error(loc(st, 1), "unterminated string literal");
        continue;
      }
      Token* t = push(Tok::String, st + 1, i - st - 1);
      t->loc = loc(st, i - st + 1);
      ++i;
      continue;
    }
    if (std::string_view("()<>,;.:=![]{}-+~*/&|^").find(c) != std::string_view::npos) {
      push(Tok::Punct, i, 1);
      ++i;
      continue;
    }
    diags.error(loc(i, 1), fmt::format("invalid character '{}'", static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126
                                                                   ? fmt::format("\\x{:02x}", static_cast<unsigned char>(c))
                                                                   : std::string(1, c)));
    ++i;
  }
  Token end;
  end.kind = Tok::End;
  end.loc = loc(i, 1);
  out.push_back(end);
  return out;
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Newline: return "end of line";
    case Tok::End: return "end of file";
    case Tok::String: return fmt::format("\"{}\"", t.text);
    default: return fmt::format("'{}'", t.text);
  }
}

}  // namespace visakit::text
