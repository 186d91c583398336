// Platforms and their GRF size (docs/spec-decisions.md K11).
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "visakit/visakit.hpp"

namespace visakit {

std::optional<unsigned> grfSizeOfPlatform(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // ocloc's -device names and the `//.platform` names of IGC's .asm files.
  static constexpr std::array<std::string_view, 14> k32 = {"skl",   "kbl",  "glk",     "cfl",     "icllp",
                                                          "tgllp", "dg1",  "rkl",     "adls",    "adlp",
                                                          "dg2",   "acm-g10", "acm-g11", "acm-g12"};
  static constexpr std::array<std::string_view, 3> k64 = {"pvc", "pvcxt", "xe_hpc"};
  if (std::find(k64.begin(), k64.end(), n) != k64.end()) return 64;
  if (std::find(k32.begin(), k32.end(), n) != k32.end()) return 32;
  return std::nullopt;
}

}  // namespace visakit
