// visakit asm / dis: between the text form and the binary object format
// (chapter 4; igc-dialect.md §2).
#include <iostream>

#include <fmt/format.h>

#include "binary/format.hpp"
#include "cli/common.hpp"

namespace visakit::cli {
namespace {

struct Args {
  std::string in, out;
  Options opts;
};

// IN with its extension replaced by .isa (or .isa appended when it has none).
std::string isaPathFor(const std::string& in) {
  size_t slash = in.find_last_of('/');
  size_t dot = in.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1) return in + ".isa";
  return in.substr(0, dot) + ".isa";
}

}  // namespace

Runner addAsm(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "asm",
      "Assemble IN (.visaasm text; a binary input is re-encoded) into a vISA 4.1 binary object:\n"
      "parse, verify, encode. Writes OUT, or IN with its extension replaced by .isa.\n"
      "Exit codes: 0 ok, 1 invalid input or output error, 2 usage error.");
  auto a = std::make_shared<Args>();
  cmd->add_option("IN", a->in, "kernel file (.visaasm text, or .isa binary; detected by content)")->required();
  cmd->add_option("-o,--output", a->out, "output file (written atomically); default IN with extension .isa");
  addInputOptions(cmd, a->opts);
  return [a]() {
    auto l = loadAndVerify(a->in, a->opts);
    if (!l) return kExitInvalid;
    if (auto e = binary::encodeLimitError(l->module)) {
      std::cerr << fmt::format("{}: error: cannot encode: {}\n", a->in, *e);
      return kExitInvalid;
    }
    std::vector<uint8_t> bytes = writeBinary(l->module);
    return writeOutput(a->out.empty() ? isaPathFor(a->in) : a->out,
                       std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  };
}

Runner addDis(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "dis",
      "Disassemble IN (a vISA binary object, versions 3.4 to 4.1; text is accepted too) into\n"
      "canonical .visaasm text: decode, verify, print. Prints to stdout, or writes OUT.\n"
      "Exit codes: 0 ok, 1 invalid input or output error, 2 usage error.");
  auto a = std::make_shared<Args>();
  cmd->add_option("IN", a->in, "binary object (.isa) or text kernel, detected by content")->required();
  cmd->add_option("-o,--output", a->out, "write the text here (atomically) instead of stdout");
  addInputOptions(cmd, a->opts);
  return [a]() {
    auto l = loadAndVerify(a->in, a->opts);
    if (!l) return kExitInvalid;
    return writeOutput(a->out, printText(l->module));
  };
}

}  // namespace visakit::cli
