// The rule registry and RuleCtx's reporting.
#include "verifier/rules.hpp"

#include <fmt/format.h>

namespace visakit {

std::string RuleCtx::whereOf(SrcLoc loc) const {
  return loc.line ? std::string() : fmt::format("kernel '{}', instruction #{}", k_.name, index_);
}
void RuleCtx::error(SrcLoc loc, std::string msg) { d_.add(Severity::Error, loc, std::move(msg), whereOf(loc)); }

void addNamedWarning(Diagnostics& d, const Options& o, const char* name, SrcLoc loc, std::string msg, std::string where) {
  d.add(o.warningsAsErrors ? Severity::Error : Severity::Warning, loc, fmt::format("{} [-W{}]", msg, name), std::move(where));
}

void RuleCtx::warning(const char* name, SrcLoc loc, std::string msg) {
  addNamedWarning(d_, opts_, name, loc, std::move(msg), whereOf(loc));
}

std::span<const RowRule> coreRules() { return {}; }

}  // namespace visakit
