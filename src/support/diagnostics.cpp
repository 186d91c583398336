// LLVM-style rendering: path:line:col: error: message, source line, caret.
#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "visakit/diag.hpp"

namespace visakit {

void Diagnostics::add(Severity s, SrcLoc loc, std::string msg, std::string where) {
  if (s == Severity::Error) ++errors_;
  if (s == Severity::Warning) ++warnings_;
  diags_.push_back({s, loc, std::move(msg), where.empty() ? where_ : std::move(where)});
}

namespace {
std::string_view lineOf(std::string_view src, uint32_t line) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line; ++l) {
    pos = src.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  size_t end = src.find('\n', pos);
  std::string_view r = src.substr(pos, end == std::string_view::npos ? src.size() - pos : end - pos);
  if (!r.empty() && r.back() == '\r') r.remove_suffix(1);
  return r;
}
}  // namespace

std::string Diagnostics::render(std::string_view path, std::string_view source) const {
  std::string out;
  // In source order; diagnostics without a line keep their order, last.
  std::vector<const Diagnostic*> sorted;
  for (const auto& d : diags_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    uint32_t la = a->loc.line ? a->loc.line : UINT32_MAX, lb = b->loc.line ? b->loc.line : UINT32_MAX;
    return la < lb;
  });
  unsigned errorsShown = 0, errorsLeft = 0;
  for (const Diagnostic* dp : sorted) {
    const Diagnostic& d = *dp;
    if (d.severity == Severity::Error && errorsShown++ >= kErrorLimit) {
      ++errorsLeft;
      continue;
    }
    const char* sev = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    // (a message quoting a huge name: its start and end)
    const std::string msg = d.message.size() <= 1024 ? d.message : d.message.substr(0, 800) + " ... " + d.message.substr(d.message.size() - 200);
    if (d.loc.line > 0) {
      out += fmt::format("{}:{}:{}: {}: {}\n", path, d.loc.line, d.loc.col, sev, msg);
      std::string_view text = lineOf(source, d.loc.line);
      uint32_t skipped = 0;  // (a long line: the part around the column)
      constexpr uint32_t kShown = 160;
      if (text.size() > kShown) {
        const uint32_t at = d.loc.col > 0 ? d.loc.col - 1 : 0;
        skipped = std::min<uint32_t>(at > kShown / 2 ? at - kShown / 2 : 0, static_cast<uint32_t>(text.size() - kShown));
        text = text.substr(skipped, kShown);
      }
      if (!text.empty()) {
        std::string shown;
        for (char c : text) shown += (c == '\t') ? ' ' : (static_cast<unsigned char>(c) < 32 ? '?' : c);
        out += shown + "\n";
        uint32_t col = d.loc.col > skipped ? d.loc.col - 1 - skipped : 0;
        if (col > shown.size()) col = static_cast<uint32_t>(shown.size());
        uint32_t len = d.loc.len > 1 ? d.loc.len : 1;
        if (col + len > shown.size() + 1) len = 1;
        out += std::string(col, ' ') + "^" + std::string(len - 1, '~') + "\n";
      }
    } else if (!d.where.empty()) {
      out += fmt::format("{}: {}: {}: {}\n", path, d.where, sev, msg);
    } else {
      out += fmt::format("{}: {}: {}\n", path, sev, msg);
    }
  }
  if (errorsLeft)
    out += fmt::format("{}: note: {} more error{} not shown (the first {} are)\n", path, errorsLeft, errorsLeft == 1 ? "" : "s",
                       kErrorLimit);
  return out;
}

}  // namespace visakit
