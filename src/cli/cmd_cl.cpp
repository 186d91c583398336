// visakit cl INPUT --kernel NAME --global X[,Y[,Z]] ...: run an OpenCL kernel
// as Intel's compiler compiled it (include/visakit/cl.hpp).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/common.hpp"
#include "visakit/cl.hpp"

namespace visakit::cli {
namespace {

constexpr int kExitDiffers = 4;

std::string ids(const std::array<uint64_t, 3>& v) { return fmt::format("({},{},{})", v[0], v[1], v[2]); }

int runCl(const cl::Request& rq, bool json, bool visaWarnings) {
  cl::Result r = cl::run(rq);
  // CL24: the verifier's named warnings are about IGC's vISA, not the user's
  // kernel: counted, and shown with --visa-warnings.
  if (visaWarnings)
    for (const std::string& w : r.warnings) std::cerr << w;
  else if (r.warningCount)
    std::cerr << fmt::format("visakit: note: {} warning{} on IGC's vISA (where it departs from the pages; "
                             "--visa-warnings shows them)\n",
                             r.warningCount, r.warningCount == 1 ? "" : "s");
  for (const std::string& n : r.notes) std::cerr << "visakit: note: " << n << "\n";
  nlohmann::json j;
  if (json) {
    if (!r.notes.empty()) j["notes"] = r.notes;
    j["kernel"] = rq.kernel;
    j["ok"] = r.exitCode == 0 || r.exitCode == 3 || r.exitCode == 4;
    j["exit_code"] = r.exitCode;
    if (!r.error.empty()) j["error"] = r.error;
  }
  if (r.exitCode == kExitUsage || r.exitCode == kExitInvalid) {
    if (json) std::cout << j.dump(2) << "\n";
    // (a message that names its file LLVM-style, "FILE: error: byte 4: ...", has its own prefix)
    const size_t first = r.error.find('\n'), at = r.error.find(": error: ");
    const bool located = at != std::string::npos && at < first && r.error.find(' ') > at;
    std::cerr << (located ? "" : "visakit: error: ") << r.error << (r.error.ends_with('\n') ? "" : "\n");
    return r.exitCode;
  }
  // The kernel's printf output (K12) on stdout, as the OpenCL runtime prints it (in the JSON with --json).
  if (!json) std::cout << r.printfText << std::flush;
  if (!r.printfError.empty()) std::cerr << "visakit: printf: " << r.printfError << "\n";
  // Findings in OpenCL terms: at the OpenCL C line when the vISA has line
  // information, else at the vISA line.
  for (const cl::ClFinding& f : r.findings) {
    const std::string visaAt =
        r.kernelFileRemoved
            ? fmt::format("instruction #{}{} of the kernel's .visaasm (--keep-dumps DIR keeps it)", f.finding.instruction,
                          f.finding.loc.line ? fmt::format(", line {}", f.finding.loc.line) : "")
            : r.kernelFile + (f.finding.loc.line ? fmt::format(":{}:{}", f.finding.loc.line, f.finding.loc.col) : "");
    const std::string what = fmt::format("{} in {} ({} time{})", sim::findingKindText(f.finding.kind), f.memory,
                                         f.finding.count, f.finding.count == 1 ? "" : "s");
    if (f.sourceLine) {
      std::cerr << fmt::format("{}:{}: error: {}\n", f.sourceFile, f.sourceLine, what);
      if (!f.sourceText.empty()) std::cerr << fmt::format("{:>5} | {}\n", f.sourceLine, f.sourceText);
      std::cerr << fmt::format("    vISA: {}\n", visaAt);
    } else if (r.kernelFileRemoved) {
      std::cerr << fmt::format("{}: error: {}\n    vISA: {}\n", rq.input, what, visaAt);
    } else {
      std::cerr << fmt::format("{}: error: {}\n", visaAt, what);
    }
    for (size_t i = 0; i < f.finding.examples.size() && i < f.workItems.size() && i < f.places.size(); ++i) {
      const cl::WorkItem& w = f.workItems[i];
      std::cerr << fmt::format("    work-item global {} local {} group {}: {} ({} bytes)\n", ids(w.global), ids(w.local),
                               ids(w.group), f.places[i], f.finding.examples[i].size);
      if (i < f.others.size()) std::cerr << fmt::format("      {}\n", f.others[i]);
    }
  }
  if (!r.findings.empty())
    std::cerr << fmt::format("visakit: check: {} finding{}\n", r.findings.size(), r.findings.size() == 1 ? "" : "s");
  for (const cl::ArgComparison& c : r.comparisons) {
    if (c.equal()) continue;
    std::cerr << fmt::format("visakit: compare: argument {} '{}': {} of {} elements differ from the OpenCL CPU device's\n",
                             c.arg, c.name, c.differing, c.compared);
    for (const std::string& d : c.firstDifferences) std::cerr << "    " << d << "\n";
  }
  if (!r.compareError.empty())
    std::cerr << "visakit: compare: nothing compared: " << r.compareError
              << (r.compareCrashed ? "; the findings above may say why" : "") << "\n";
  if (r.compared && r.exitCode != kExitDiffers) std::cerr << "visakit: compare: every output equals the OpenCL CPU device's\n";
  if (json) {
    if (!r.compile.empty()) j["compile"] = r.compile;
    j["vISA"] = r.kernelFile;
    j["platform"] = r.platform;
    j["simd"] = r.simd;
    j["local_size"] = r.local;
    j["instructions"] = r.stats.instructions;
    j["visa_warnings"] = r.warningCount;
    j["tier"] = r.stats.tier;
    j["via_semantics"] = r.stats.viaSemantics;
    j["run_seconds"] = r.runSeconds;
    if (!r.printfText.empty()) j["printf"] = r.printfText;
    j["findings"] = nlohmann::json::array();
    for (const cl::ClFinding& f : r.findings) {
      nlohmann::json jf = {{"kind", sim::findingKindText(f.finding.kind)}, {"memory", f.memory},
                           {"instruction", f.finding.instruction}, {"line", f.finding.loc.line}, {"count", f.finding.count}};
      if (f.sourceLine) jf["source"] = {{"file", f.sourceFile}, {"line", f.sourceLine}};
      jf["work_items"] = nlohmann::json::array();
      for (size_t i = 0; i < f.workItems.size(); ++i) {
        const cl::WorkItem& w = f.workItems[i];
        jf["work_items"].push_back({{"global", w.global}, {"local", w.local}, {"group", w.group},
                                    {"where", i < f.places.size() ? f.places[i] : ""},
                                    {"other", i < f.others.size() ? f.others[i] : ""},
                                    {"address", f.finding.examples[i].address}});
      }
      j["findings"].push_back(jf);
    }
    if (!r.compareError.empty()) j["compare_error"] = r.compareError;
    if (r.compared) {
      j["comparisons"] = nlohmann::json::array();
      for (const cl::ArgComparison& c : r.comparisons)
        j["comparisons"].push_back({{"argument", c.arg}, {"name", c.name}, {"compared", c.compared},
                                    {"differing", c.differing}, {"first", c.firstDifferences}});
    }
    std::cout << j.dump(2) << "\n";
  }
  // Outputs: written only after a run that finished (findings and differences included), all or none.
  std::vector<std::pair<std::string, std::string_view>> files;
  for (size_t i = 0; i < r.outputs.size() && i < rq.outs.size(); ++i) {
    const std::string& spec = rq.outs[i];
    const auto& bytes = r.outputs[i].second;
    files.emplace_back(spec.substr(spec.find('=') + 1), std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  if (!files.empty() && writeOutputs(files) != kExitOk) return kExitInvalid;
  return r.exitCode;
}

}  // namespace

Runner addCl(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "cl",
      "Run an OpenCL kernel as Intel's compiler compiled it: INPUT is an OpenCL C file (compiled with ocloc for\n"
      "--device, with IGC's vISA dumps) or a directory of IGC dumps from one ocloc compile.\n"
      "Exit codes: 0 ok, 1 kernel, build or launch error (nothing written), 2 usage error, 3 --check findings,\n"
      "4 --compare differences.\n"
      "An OpenCL C input's compile is kept in the compile cache ($VISAKIT_CACHE_DIR, else $XDG_CACHE_HOME/visakit,\n"
      "else ~/.cache/visakit; at most $VISAKIT_CACHE_ENTRIES compiles, default 256, the ones used longest ago\n"
      "removed first) and read from there by a later run of the same source, device, options and compiler.");
  struct Args {
    cl::Request rq;
    bool json = false, visaWarnings = false;
  };
  auto a = std::make_shared<Args>();
  cl::Request& rq = a->rq;
  cmd->add_option("INPUT", rq.input, "OpenCL C file, or a directory of IGC dumps")->required();
  cmd->add_option("--kernel", rq.kernel, "the kernel's name")->required();
  cmd->add_option("--global", rq.global, "X[,Y[,Z]]: the global work size")->required();
  cmd->add_option("--local", rq.local, "X[,Y[,Z]]: the work-group size (default: chosen, see docs)");
  cmd->add_option("--offset", rq.offset, "X[,Y[,Z]]: the global work offset");
  cmd->add_option("--device", rq.device, "ocloc's -device for an OpenCL C input: skl (default), tgllp, dg2, acm-g10, pvc, ...");
  cmd->add_option("--build-options", rq.buildOptions, "OPTS: OpenCL build options");
  cmd->add_option("--keep-dumps", rq.keepDumps,
                  "DIR: keep the compile's IGC dumps in DIR (a new folder; INPUT may then be DIR in later runs)");
  cmd->add_flag("--no-cache", rq.noCache, "compile the OpenCL C input even if the compile cache holds it, and keep nothing there");
  cmd->add_option("--arg", rq.args,
                  "I=SPEC: argument I (from 0): @FILE (a __global buffer with FILE's bytes, or a by-value argument's\n"
                  "bytes: a float4, a struct), zero:N (N zero bytes), local:N (a __local buffer),\n"
                  "TYPE:VALUE (a scalar; TYPE i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--out", rq.outs, "I=FILE: write argument I's buffer to FILE after the run")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--check", rq.check, "report out-of-bounds accesses and races by argument and work-item (exit 3)");
  cmd->add_flag("--compare", rq.compare, "run the kernel on the OpenCL CPU device (pocl) too and compare the outputs (exit 4)");
  cmd->add_option("--tolerance", rq.tolerance, "ulp:N or rel:X: for floating-point outputs of --compare (default exact)");
  cmd->add_option("--compare-timeout", rq.compareTimeoutSeconds,
                  "SECONDS: stop the OpenCL CPU device's run of --compare after this long (0: no limit)")
      ->capture_default_str();
  cmd->add_flag("--reference", rq.reference, "run in the reference tier (the plain interpreter)");
  cmd->add_flag("--visa-warnings", a->visaWarnings,
                "print the verifier's warnings on IGC's vISA (where it departs from the pages; counted otherwise)");
  cmd->add_flag("--json", a->json, "print the run's summary, findings and comparison as JSON on stdout");
  cmd->add_option("--jobs", rq.jobs, "N host threads (default: all cores)");
  cmd->add_option("--grf-size", rq.grfSize, "GRF bytes of a dump whose platform is not known (a known platform's must agree; default: from the dump's platform, 64 for pvc)")
      ->check(CLI::IsMember({32, 64}));
  auto count = [](const std::string& v) {
    return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos ? std::string() : "a count, not '" + v + "'";
  };
  cmd->add_option("--max-work-items", rq.maxWorkItems, "N: the most work-items of the NDRange")->check(count)->capture_default_str();
  cmd->add_option("--max-buffer-size", rq.maxBufferBytes, "N: the most bytes of one buffer argument")->check(count)->capture_default_str();
  cmd->add_option("--max-memory", rq.maxMemoryBytes, "N: the most bytes of the buffer arguments together, and of the launch")
      ->check(count)
      ->capture_default_str();
  cmd->add_option("--max-threads", rq.maxThreads, "N: the most hardware threads of the launch")->check(count)->capture_default_str();
  cmd->add_option("--max-steps", rq.maxSteps, "N: instructions per hardware thread before the run fails")
      ->check([](const std::string& v) {
        return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos ? std::string()
                                                                                    : "a count of instructions (0, 1, 2, ...), not '" + v + "'";
      })
      ->capture_default_str();
  return [a]() { return runCl(a->rq, a->json, a->visaWarnings); };
}

}  // namespace visakit::cli
