// The public library API of visakit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "visakit/diag.hpp"
#include "visakit/isa.hpp"
#include "visakit/kernel.hpp"

namespace visakit {

// Limits on untrusted input (issue 6): defaults no real kernel meets,
// overridable from the CLI. Exceeding one is an error, never a crash.
struct Limits {
  uint64_t maxFileBytes = 256ull << 20;  // input file size
  uint32_t maxKernels = 4096;            // kernels + functions per file
  uint32_t maxVars = 1u << 20;           // declarations (all classes) per kernel
  uint32_t maxInstructions = 1u << 24;   // instructions per kernel
};

struct Options {
  unsigned grfSize = 32;  // bytes per GRF row: 32 or 64
  Limits limits;
  // Named warnings ("warning: ... [-Wname]", where Intel's compiler emits what
  // a page forbids) are errors (-Werror).
  bool warningsAsErrors = false;
  // Binary input: where the same kernel's text is (the .visaasm IGC dumped
  // beside a .isa), named by the error for an object IGC 1.0.12504 cut short
  // (spec-decisions B6).
  std::string textForm;
};

// Text front end (chapter 8 assembly syntax, in IGC's dialect). Returns
// std::nullopt if any error was reported; all errors of the file are reported.
// If `partial` is given it receives what did parse (statements with errors
// left out), so that the verifier can report the file's other errors too.
std::optional<Module> parseText(std::string_view source, Diagnostics& diags,
                                const Options& opts = {}, Module* partial = nullptr);

// Canonical text in the same dialect. print(parse(print(m))) == print(m).
std::string printText(const Module& m);
std::string printInstruction(const Kernel& k, const Instruction& inst);

// Verifier: every rule of the pages. Returns true if no error was reported.
bool verify(const Module& m, Diagnostics& diags, const Options& opts = {});

// Binary object format (chapter 4; igc-dialect.md §2).
bool looksBinary(std::string_view bytes);
std::vector<uint8_t> writeBinary(const Module& m);
std::optional<Module> readBinary(std::string_view bytes, Diagnostics& diags, const Options& opts = {});
// Single instruction codec (used by golden tests).
void encodeInstruction(const Instruction& inst, std::vector<uint8_t>& out);
// Decodes one instruction at `pos`; on error reports and returns false.
bool decodeInstruction(std::string_view bytes, size_t& pos, Instruction& inst, std::string& err,
                       unsigned major = 4, unsigned minor = 1);

// The GRF size of a platform, by ocloc's device name (skl, tgllp, dg2,
// acm-g10, pvc, ...) or IGC's `.platform` name (SKL, TGLLP, DG2, PVCXT), any
// case: 64 on Xe-HPC, 32 on the others. nullopt: a name not known.
std::optional<unsigned> grfSizeOfPlatform(std::string_view name);

}  // namespace visakit
