// The rule registry and RuleCtx's reporting.
#include "verifier/rules.hpp"

#include <fmt/format.h>

namespace visakit {

void RuleCtx::error(SrcLoc loc, std::string msg) { d_.add(Severity::Error, loc, std::move(msg), loc.line ? std::string() : where_); }

void RuleCtx::warning(const char* name, SrcLoc loc, std::string msg) {
  d_.add(opts_.warningsAsErrors ? Severity::Error : Severity::Warning, loc, fmt::format("{} [-W{}]", msg, name),
         loc.line ? std::string() : where_);
}

std::span<const RowRule> coreRules() { return {}; }

}  // namespace visakit
