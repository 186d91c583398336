// visakit: assemble, check, encode, read back and run vISA kernels.
#include <iostream>

#include "cli/common.hpp"

int main(int argc, char** argv) {
  using namespace visakit::cli;
  installSignalHandlers();
  CLI::App app{"visakit: assemble, verify, encode, disassemble and run Intel vISA kernels on the CPU.\n"
               "Exit codes: 0 success, 1 invalid input or failed run, 2 usage error, 3 --check findings,\n"
               "4 cl --compare differences."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "visakit 0.1.0");
  std::vector<std::pair<CLI::App*, Runner>> cmds;
  auto reg = [&](Runner (*add)(CLI::App&)) {
    size_t before = app.get_subcommands({}).size();
    Runner r = add(app);
    cmds.emplace_back(app.get_subcommands({})[before], std::move(r));
  };
  reg(addCheck);
  reg(addFmt);
  reg(addAsm);
  reg(addDis);
  reg(addRun);
  reg(addCl);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kExitUsage;
  }
  for (auto& [sub, run] : cmds)
    if (sub->parsed()) return run();
  return kExitUsage;
}
