// Diagnostics: file:line:col: error: message, the source line and a caret.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "visakit/kernel.hpp"

namespace visakit {

enum class Severity : uint8_t { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SrcLoc loc;
  std::string message;
  std::string where;  // binary input: "kernel 'k', instruction #3" (no line)
};

class Diagnostics {
 public:
  // The errors render() shows (LLVM's -ferror-limit default); the text parser stops after them.
  static constexpr unsigned kErrorLimit = 20;
  void error(SrcLoc loc, std::string msg) { add(Severity::Error, loc, std::move(msg)); }
  void warning(SrcLoc loc, std::string msg) { add(Severity::Warning, loc, std::move(msg)); }
  void note(SrcLoc loc, std::string msg) { add(Severity::Note, loc, std::move(msg)); }
  void add(Severity s, SrcLoc loc, std::string msg, std::string where = {});
  // Context for diagnostics without a source line (binary input).
  void setWhere(std::string w) { where_ = std::move(w); }

  bool hasErrors() const { return errors_ > 0; }
  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  void clear() { diags_.clear(); errors_ = warnings_ = 0; }

  // Renders the diagnostics LLVM-style against `source` (may be empty): the first kErrorLimit
  // errors in source order and every warning and note, then a count of the errors not shown; a
  // line longer than 160 characters is shown as 160 of them around the column, a message longer
  // than 1024 as its start and end.
  std::string render(std::string_view path, std::string_view source) const;

 private:
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0, warnings_ = 0;
  std::string where_;
};

}  // namespace visakit
