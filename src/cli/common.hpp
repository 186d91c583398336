// Shared pieces of the visakit commands: loading kernels, writing outputs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "visakit/visakit.hpp"

namespace visakit::cli {

// Exit codes (README "Exit codes").
constexpr int kExitOk = 0, kExitInvalid = 1, kExitUsage = 2, kExitFindings = 3;

bool readFile(const std::string& path, std::string& out, std::string& err);
// SIGINT/SIGTERM remove an output being written, then end the process.
void installSignalHandlers();
// Writes via a temporary file in the same folder and a rename: never a partial file.
bool writeFileAtomic(const std::string& path, std::string_view data, std::string& err);

// Writes `data` to `path` atomically, or to stdout when `path` is empty.
// Returns the exit code (kExitOk, or kExitInvalid after printing the error).
int writeOutput(const std::string& path, std::string_view data);

// Loads text or binary (detected by content), parses and verifies.
// Prints diagnostics to stderr. Returns nullopt on any error.
struct Loaded {
  Module module;
  std::string source;  // text source ("" for binary)
};
std::optional<Loaded> loadAndVerify(const std::string& path, const Options& opts, bool verifyIt = true);

// --max-file-size, --max-kernels, --max-vars, --max-instructions, --grf-size.
void addInputOptions(CLI::App* cmd, Options& opts);

// One function per command: registers options on `app`, returns the runner.
using Runner = std::function<int()>;
Runner addCheck(CLI::App& app);
Runner addFmt(CLI::App& app);
Runner addAsm(CLI::App& app);
Runner addDis(CLI::App& app);
Runner addRun(CLI::App& app);
Runner addCl(CLI::App& app);

}  // namespace visakit::cli
