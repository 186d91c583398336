// TEMPORARY: replaced by cmd_binary.cpp (asm, dis) and cmd_run.cpp (run).
#include "cli/common.hpp"
namespace visakit::cli {
Runner addAsm(CLI::App& app) { app.add_subcommand("asm", "assemble"); return [] { return 1; }; }
Runner addDis(CLI::App& app) { app.add_subcommand("dis", "disassemble"); return [] { return 1; }; }
Runner addRun(CLI::App& app) { app.add_subcommand("run", "run"); return [] { return 1; }; }
}
