// Shared pieces of the visakit commands: loading kernels, writing outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "visakit/visakit.hpp"

namespace visakit::cli {

// Exit codes (README "Exit codes").
constexpr int kExitOk = 0, kExitInvalid = 1, kExitUsage = 2, kExitFindings = 3;

// A surface's memory for `visakit run`: a file mapped private and writable
// (reads share the page cache, a page the kernel writes is copied on its first
// write, the file is never modified) or zero-filled anonymous memory (pages
// appear when first touched). 0 bytes map nothing.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr, o.size_ = 0; }
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  ~MappedFile();
  // Maps the regular file `path`, expected to hold `size` bytes (checked against the limits).
  static std::optional<MappedFile> file(const std::string& path, uint64_t size, std::string& err);
  static std::optional<MappedFile> zero(uint64_t size, std::string& err);
  std::span<uint8_t> bytes() const { return {static_cast<uint8_t*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// SIGINT/SIGTERM remove the outputs being written, then end the process.
void installSignalHandlers();
// Writes files together (path, bytes): each to a temporary file beside its target, renamed over
// it once every one is written, so that a failure leaves none written and no file is ever partial.
// A symlink is written through (its target replaced), an existing file keeps its permissions, and
// a target that is not a regular file (a device, a FIFO with a reader) is written in place, first.
bool writeFilesAtomic(const std::vector<std::pair<std::string, std::string_view>>& files, std::string& err);

// Writes `data` to `path` as writeFilesAtomic does, or to stdout when `path` is empty.
// Returns the exit code (kExitOk, or kExitInvalid after printing the error).
int writeOutput(const std::string& path, std::string_view data);
// Writes every (path, bytes) as writeFilesAtomic does; kExitOk, or kExitInvalid after printing the error.
int writeOutputs(const std::vector<std::pair<std::string, std::string_view>>& files);

// Loads text or binary (detected by content), parses and verifies.
// Prints diagnostics to stderr. Returns nullopt on any error.
struct Loaded {
  Module module;
  std::string source;    // text source ("" for binary)
  unsigned grfSize = 32;  // as resolveGrfSize gave it
};
std::optional<Loaded> loadAndVerify(const std::string& path, const Options& opts, bool verifyIt = true);

// --max-file-size, --max-kernels, --max-vars, --max-instructions, --Werror,
// and the GRF options (addGrfOptions).
void addInputOptions(CLI::App* cmd, Options& opts);
// --grf-size N or --platform NAME (one of them); grfSize is 0 when neither is given.
void addGrfOptions(CLI::App* cmd, unsigned& grfSize);
// The GRF size for FILE: the one given, else the platform the `//.platform`
// line of an IGC dump's .asm beside it names (FILE with its extension
// replaced by .asm), else 32 (docs/spec-decisions.md T9).
unsigned resolveGrfSize(const std::string& path, unsigned given);

// One function per command: registers options on `app`, returns the runner.
using Runner = std::function<int()>;
Runner addCheck(CLI::App& app);
Runner addFmt(CLI::App& app);
Runner addAsm(CLI::App& app);
Runner addDis(CLI::App& app);
Runner addRun(CLI::App& app);
Runner addCl(CLI::App& app);

}  // namespace visakit::cli
