// Lexer: identifiers (incl. %builtins), numbers, strings, punctuation,
// newlines (statements are line-based), // and /* */ comments.
#include "text/lexer.hpp"

#include <algorithm>

#include <array>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace visakit::text {
namespace {

// ASCII character classes (the program never sets a locale: "C" classes).
enum : uint8_t {
  kIdStart = 1,   // letters _ % $ @ ?
  kIdChar = 2,    // letters digits _ $ @ ?
  kDigit = 4,
  kHexDigit = 8,
  kSpace = 16,    // blanks other than '\n'
  kPunct = 32,    // ()<>,;.:=![]{}-+~*/&|^
  kNumMore = 64,  // may follow a number's first digit in the same token: digits . e E x X
};

constexpr std::array<uint8_t, 256> kClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kIdStart | kIdChar;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kIdStart | kIdChar;
  for (int c = '0'; c <= '9'; ++c) t[c] = kIdChar | kDigit | kHexDigit;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHexDigit;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHexDigit;
  for (char c : std::string_view("_$@?")) t[static_cast<unsigned char>(c)] |= kIdStart | kIdChar;
  t['%'] |= kIdStart;
  for (char c : std::string_view(" \t\r\f\v")) t[static_cast<unsigned char>(c)] |= kSpace;
  for (char c : std::string_view("()<>,;.:=![]{}-+~*/&|^")) t[static_cast<unsigned char>(c)] |= kPunct;
  for (char c : std::string_view("0123456789.eExX")) t[static_cast<unsigned char>(c)] |= kNumMore;
  return t;
}();

inline bool is(char c, uint8_t cls) { return (kClass[static_cast<unsigned char>(c)] & cls) != 0; }

// What a (non-blank) character starts, for the lexer's dispatch.
enum : uint8_t { kKindOther, kKindNewline, kKindIdent, kKindDigit, kKindPunct };
constexpr std::array<uint8_t, 256> kKind = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if (kClass[c] & kIdStart) t[c] = kKindIdent;
    else if (kClass[c] & kDigit) t[c] = kKindDigit;
    else if (kClass[c] & kPunct) t[c] = kKindPunct;
  }
  t['\n'] = kKindNewline;
  return t;
}();

}  // namespace

bool isIdentifier(std::string_view s) {
  if (s.empty() || kKind[static_cast<unsigned char>(s[0])] != kKindIdent) return false;
  return std::all_of(s.begin() + 1, s.end(), [](char c) { return is(c, kIdChar); });
}

std::span<const Token> Lexer::line() {
  // Locals, not members: stores to tokens cannot alias them.
  const char* const e = s_.data() + s_.size();
  const char* p = s_.data() + i_;
  const char* ls = s_.data() + lineStart_;  // the line's first character
  uint32_t line = line_;
  Token* t0 = buf_.data();
  Token* tp = t0;
  Token* tend = t0 + buf_.size();
  auto loc = [&](const char* at, size_t len) {
    return SrcLoc{line, static_cast<uint32_t>(at - ls + 1), static_cast<uint32_t>(len)};
  };
  auto push = [&](Tok k, const char* st, size_t len) -> Token& {
    if (tp == tend) [[unlikely]] {
      size_t used = static_cast<size_t>(tp - t0);
      buf_.resize(2 * buf_.size());
      t0 = buf_.data();
      tp = t0 + used;
      tend = t0 + buf_.size();
    }
    Token& t = *tp++;
    t.kind = k;
    t.hex = false;
    t.loc = loc(st, len);
    t.text = std::string_view(st, len);
    // intVal / floatVal are set by the number paths only: nothing reads them
    // in other tokens.
    return t;
  };
  auto finish = [&]() -> std::span<const Token> {
    i_ = static_cast<size_t>(p - s_.data());
    line_ = line;
    lineStart_ = static_cast<size_t>(ls - s_.data());
    return {t0, static_cast<size_t>(tp - t0)};
  };
  for (;;) {
    // Blanks are all <= ' ': most characters are ruled out by one compare.
    while (p < e && static_cast<unsigned char>(*p) <= ' ' && is(*p, kSpace)) ++p;
    if (p == e) break;
    const char c = *p;
    // Most frequent first: punctuation, identifiers, numbers.
    const uint8_t kind = kKind[static_cast<unsigned char>(c)];
    if (kind == kKindPunct) {
      if (c == '/' && e - p > 1 && p[1] == '/') {
        const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
        p = nl ? static_cast<const char*>(nl) : e;
        continue;
      }
      if (c == '/' && e - p > 1 && p[1] == '*') {
        SrcLoc start = loc(p, 2);
        p += 2;
        bool closed = false;
        while (p < e) {
          if (*p == '*' && e - p > 1 && p[1] == '/') {
            p += 2;
            closed = true;
            break;
          }
          if (*p == '\n') {
            ++line;
            ls = p + 1;
          }
          ++p;
        }
        if (!closed) diags_.error(start, "unterminated /* comment");
        continue;
      }
      push(Tok::Punct, p, 1);
      ++p;
      continue;
    }
    if (kind == kKindIdent) {
      const char* st = p++;
      while (p < e && is(*p, kIdChar)) ++p;
      push(Tok::Ident, st, static_cast<size_t>(p - st));
      continue;
    }
    if (kind == kKindDigit) {
      const char* st = p;
      if (e - p < 2 || !is(p[1], kNumMore)) {  // a one-digit number, the most common
        push(Tok::Int, p, 1).intVal = static_cast<unsigned>(c - '0');
        ++p;
        continue;
      }
      if (c == '0' && e - p > 1 && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        const char* ds = p;
        uint64_t v = 0;
        bool overflow = false;
        for (; p < e && is(*p, kHexDigit); ++p) {
          char h = *p;
          unsigned d = h <= '9' ? static_cast<unsigned>(h - '0') : static_cast<unsigned>((h | 0x20) - 'a' + 10);
          if (v >> 60) overflow = true;
          v = v << 4 | d;
        }
        Token& t = push(Tok::Int, st, static_cast<size_t>(p - st));
        t.hex = true;
        // Like std::from_chars: the value is left 0 if there is none or it overflows.
        t.intVal = ds == p || overflow ? 0 : v;
        if (ds == p || overflow) diags_.error(t.loc, fmt::format("invalid hexadecimal number '{}'", t.text));
        continue;
      }
      uint64_t v = 0;
      bool overflow = false;
      for (; p < e && is(*p, kDigit); ++p)
        overflow |= __builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<unsigned>(*p - '0'), &v);
      bool isFloat = false;
      if (e - p > 1 && *p == '.' && is(p[1], kDigit)) {
        isFloat = true;
        ++p;
        while (p < e && is(*p, kDigit)) ++p;
      }
      if (p < e && (*p == 'e' || *p == 'E')) {
        const char* j = p + 1;
        if (j < e && (*j == '+' || *j == '-')) ++j;
        if (j < e && is(*j, kDigit)) {
          isFloat = true;
          p = j;
          while (p < e && is(*p, kDigit)) ++p;
        }
      }
      Token& t = push(isFloat ? Tok::Float : Tok::Int, st, static_cast<size_t>(p - st));
      if (isFloat) {
        std::string tmp(t.text);
        t.floatVal = std::strtod(tmp.c_str(), nullptr);
      } else if (overflow) {
        t.intVal = 0;
        diags_.error(t.loc, fmt::format("number '{}' is too large", t.text));
      } else {
        t.intVal = v;
      }
      continue;
    }
    if (kind == kKindNewline) {
      push(Tok::Newline, p, 1);
      ++p;
      ++line;
      ls = p;
      return finish();
    }
    if (c == '\\' && e - p > 1 && (p[1] == '\n' || (p[1] == '\r' && e - p > 2 && p[2] == '\n'))) {
      // A backslash at the end of a line continues the statement.
      p += p[1] == '\n' ? 2 : 3;
      ++line;
      ls = p;
      continue;
    }
    if (c == '"') {
      const char* st = p++;
      while (p < e && *p != '"' && *p != '\n') ++p;
      if (p == e || *p != '"') {
        diags_.error(loc(st, 1), "unterminated string literal");
        continue;
      }
      Token& t = push(Tok::String, st + 1, static_cast<size_t>(p - st - 1));
      t.loc = loc(st, static_cast<size_t>(p - st + 1));
      // (a name the binary form cannot hold: its strings end at a NUL, chapter 4)
      if (const void* nul = std::memchr(st + 1, '\0', static_cast<size_t>(p - st - 1)))
        diags_.error(loc(static_cast<const char*>(nul), 1), "a string may not hold a NUL byte (\\x00)");
      ++p;
      continue;
    }
    diags_.error(loc(p, 1), fmt::format("invalid character '{}'", static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126
                                                                    ? fmt::format("\\x{:02x}", static_cast<unsigned char>(c))
                                                                    : std::string(1, c)));
    ++p;
  }
  Token& end = push(Tok::End, p, 0);
  end.text = {};
  end.loc = loc(p, 1);
  return finish();
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
