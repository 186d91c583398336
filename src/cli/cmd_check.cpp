// visakit check FILE...: parse (or decode) and verify.
#include <iostream>

#include "cli/common.hpp"

namespace visakit::cli {

Runner addCheck(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "Parse (text) or decode (binary) each FILE and verify it against the vISA pages.\n"
                                          "Exit codes: 0 all valid, 1 some file invalid, 2 usage error.");
  auto files = std::make_shared<std::vector<std::string>>();
  auto opts = std::make_shared<Options>();
  cmd->add_option("FILE", *files, "kernel files (.visaasm text or .isa binary, detected by content)")->required();
  addInputOptions(cmd, *opts);
  return [files, opts]() {
    int rc = kExitOk;
    for (const auto& f : *files)
      if (!loadAndVerify(f, *opts)) rc = kExitInvalid;
    return rc;
  };
}

Runner addFmt(CLI::App& app) {
  auto* cmd = app.add_subcommand("fmt", "Print FILE as canonical vISA text (to stdout, or -o FILE).\n"
                                        "Exit codes: 0 ok, 1 invalid input or output error, 2 usage error.");
  struct Args {
    std::string in, out;
    Options opts;
    bool noVerify = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("FILE", a->in, "kernel file (.visaasm or .isa)")->required();
  cmd->add_option("-o,--output", a->out, "write here instead of stdout (atomically)");
  addInputOptions(cmd, a->opts);
  cmd->add_flag("--no-verify", a->noVerify, "print even if the kernel breaks verifier rules (syntax must be valid)");
  return [a]() {
    auto l = loadAndVerify(a->in, a->opts, !a->noVerify);
    if (!l) return kExitInvalid;
    return writeOutput(a->out, printText(l->module));
  };
}

}  // namespace visakit::cli
