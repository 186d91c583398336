// visakit run KERNEL ...: execute a kernel over a thread space against real data.
#include <charconv>
#include <filesystem>
#include <iostream>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/common.hpp"
#include "visakit/sim.hpp"

namespace visakit::cli {
namespace {

struct RunArgs {
  std::string file, kernel;
  std::string threads, groups, groupThreads, slm, urb, dumpUrb, simd, jobs, maxSteps, maxErrors, maxThreads, maxSurfaceBytes, maxMemoryBytes;
  std::vector<std::string> surfaces, outs, args, btis, addresses;
  unsigned grfSize = 32;
  bool check = false, stats = false, json = false, reference = false;
};

struct CliError {
  int code;
  std::string msg;
};

[[noreturn]] void fail(int code, std::string msg) { throw CliError{code, std::move(msg)}; }

uint64_t parseNumber(std::string_view opt, std::string_view s, uint64_t min, uint64_t max) {
  std::string_view t = s;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size())
    fail(kExitInvalid, fmt::format("{} '{}': not a number (decimal or 0x hexadecimal)", opt, s));
  if (v < min || v > max) fail(kExitInvalid, fmt::format("{} {}: must be in the range [{}, {}]", opt, s, min, max));
  return v;
}

// "X[,Y[,Z]]"
std::vector<uint32_t> parseDims(std::string_view opt, std::string_view s, size_t maxDims) {
  std::vector<uint32_t> out;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    std::string_view part = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    out.push_back(static_cast<uint32_t>(parseNumber(opt, part, 1, 0xffffffffu)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (out.size() > maxDims)
    fail(kExitInvalid, fmt::format("{} '{}': at most {} dimensions", opt, s, maxDims));
  return out;
}

std::pair<std::string, std::string> splitBinding(std::string_view opt, const std::string& s) {
  size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    fail(kExitUsage, fmt::format("{} '{}': expected NAME=VALUE", opt, s));
  return {s.substr(0, eq), s.substr(eq + 1)};
}

std::string hex(uint64_t v) { return fmt::format("0x{:x}", v); }

std::string exampleText(const sim::LaunchConfig& cfg, const sim::Finding& f, const sim::FindingExample& e) {
  sim::ThreadCoord tc = sim::threadCoord(cfg, e.thread);
  std::string who = fmt::format("thread {} (x={}, y={}, group {},{},{}) lane {}", e.thread, tc.x, tc.y, tc.gx, tc.gy,
                                tc.gz, e.lane);
  std::string where = fmt::format("address {}{} ({} byte{})", hex(e.address),
                                  e.size > 1 ? ".." + hex(e.address + e.size - 1) : "", e.size, e.size == 1 ? "" : "s");
  switch (f.kind) {
    case sim::Finding::Kind::SameAddress:
      return fmt::format("{}: {}, also written by lane {}", who, where, e.otherLane);
    case sim::Finding::Kind::RaceWriteWrite:
    case sim::Finding::Kind::RaceReadWrite:
      if (e.otherThread == 0xffffffffu) return fmt::format("{}: {}, also accessed by other threads", who, where);
      return fmt::format("{}: {}, also {} by thread {}", who, where,
                         f.kind == sim::Finding::Kind::RaceWriteWrite ? "written" : "accessed", e.otherThread);
    default: return fmt::format("{}: {}", who, where);
  }
}

std::string spaceText(const sim::Finding& f) {
  if (f.space == "URB" || f.space == "%slm") return fmt::format("{} ({} bytes)", f.space, f.spaceSize);
  if (f.space == sim::kStatelessName) return "the stateless address space, in no allocation";
  return fmt::format("surface '{}' ({} bytes)", f.space, f.spaceSize);
}

int runCommand(const RunArgs& a) {
  sim::LaunchConfig cfg;
  if (!a.threads.empty()) {
    auto d = parseDims("--threads", a.threads, 2);
    cfg.threads = {d[0], d.size() > 1 ? d[1] : 1};
  }
  if (!a.groups.empty()) {
    auto d = parseDims("--groups", a.groups, 3);
    cfg.groups = {d[0], d.size() > 1 ? d[1] : 1, d.size() > 2 ? d[2] : 1};
  }
  if (!a.groupThreads.empty()) cfg.groupThreads = static_cast<uint32_t>(parseNumber("--group-threads", a.groupThreads, 1, 0xffff));
  if (!a.maxThreads.empty()) cfg.maxThreads = parseNumber("--max-threads", a.maxThreads, 1, ~uint64_t{0});
  if (!a.maxSurfaceBytes.empty()) cfg.maxSurfaceBytes = parseNumber("--max-surface-size", a.maxSurfaceBytes, 0, ~uint64_t{0});
  if (!a.maxMemoryBytes.empty()) cfg.maxMemoryBytes = parseNumber("--max-memory", a.maxMemoryBytes, 0, ~uint64_t{0});
  if (!a.slm.empty()) cfg.slmBytes = parseNumber("--slm", a.slm, 0, ~uint64_t{0});
  if (!a.urb.empty()) cfg.urbBytes = parseNumber("--urb", a.urb, 0, ~uint64_t{0});
  if (!a.simd.empty()) cfg.simd = static_cast<unsigned>(parseNumber("--simd", a.simd, 1, 32));
  if (!a.jobs.empty()) cfg.jobs = static_cast<unsigned>(parseNumber("--jobs", a.jobs, 1, 1024));
  if (!a.maxSteps.empty()) cfg.maxSteps = parseNumber("--max-steps", a.maxSteps, 1, ~uint64_t{0});
  uint64_t maxErrors = a.maxErrors.empty() ? 20 : parseNumber("--max-errors", a.maxErrors, 1, 1u << 30);
  cfg.check = a.check;
  cfg.reference = a.reference;
  for (const auto& s : a.args) cfg.args.push_back(splitBinding("--arg", s));
  for (const auto& s : a.btis) {
    auto [bti, name] = splitBinding("--bti", s);
    cfg.bindingTable.emplace_back(static_cast<uint32_t>(parseNumber("--bti", bti, 0, 255)), name);
  }
  for (const auto& s : a.addresses) {
    auto [name, base] = splitBinding("--address", s);
    cfg.addresses.emplace_back(name, parseNumber("--address", base, 0, ~uint64_t{0}));
  }

  Options opts;
  opts.grfSize = a.grfSize;
  auto loaded = loadAndVerify(a.file, opts);
  if (!loaded) return kExitInvalid;
  cfg.grfSize = loaded->grfSize;
  const Kernel* k = nullptr;
  std::vector<std::string> names;
  for (const Kernel& kk : loaded->module.kernels) {
    if (kk.isFunction) continue;
    names.push_back(kk.name);
    if (a.kernel.empty() ? true : kk.name == a.kernel) {
      if (!k || !a.kernel.empty()) k = &kk;
    }
  }
  if (!a.kernel.empty() && (!k || k->name != a.kernel))
    fail(kExitInvalid, fmt::format("'{}' has no kernel named '{}' (kernels: {})", a.file, a.kernel, fmt::join(names, ", ")));
  if (!k) fail(kExitInvalid, fmt::format("'{}' has no kernel", a.file));
  if (a.kernel.empty() && names.size() > 1)
    fail(kExitInvalid, fmt::format("'{}' has {} kernels; choose one with --kernel ({})", a.file, names.size(), fmt::join(names, ", ")));
  for (const Kernel& kk : loaded->module.kernels)
    if (kk.isFunction) cfg.functions.push_back(&kk);  // what FCALL / IFCALL may call

  // Surfaces: NAME=FILE (mapped private: the file is never modified) or
  // NAME=zero:BYTES (anonymous memory). The bindings point into `maps`.
  std::vector<sim::SurfaceBinding> bindings;
  std::vector<MappedFile> maps;
  maps.reserve(a.surfaces.size());
  uint64_t boundBytes = 0;
  for (const auto& s : a.surfaces) {
    auto [name, what] = splitBinding("--surface", s);
    sim::SurfaceBinding b;
    b.name = name;
    // Sizes are checked before anything is allocated (issue 6 limits).
    uint64_t size = 0;
    bool zero = what.rfind("zero:", 0) == 0;
    if (zero) {
      size = parseNumber("--surface " + name + "=zero", what.substr(5), 0, UINT64_MAX);
    } else {
      std::error_code ec;
      size = std::filesystem::file_size(what, ec);
      if (ec) fail(kExitInvalid, fmt::format("--surface {}: cannot open '{}': {}", name, what, ec.message()));
    }
    if (size > cfg.maxSurfaceBytes)
      fail(kExitInvalid, fmt::format("--surface {}: {} bytes, over the limit of {} (--max-surface-size)", name, size, cfg.maxSurfaceBytes));
    boundBytes += size;
    if (boundBytes > cfg.maxMemoryBytes)
      fail(kExitInvalid, fmt::format("--surface {}: the bound surfaces need {} bytes, over the limit of {} (--max-memory)", name,
                                     boundBytes, cfg.maxMemoryBytes));
    if (!sim::surfaceByBindingName(*k, name)) {
      std::vector<std::string> decl;
      for (const auto& sv : k->surfaces) decl.push_back(sv.name);
      fail(kExitInvalid, fmt::format("--surface {}: the kernel has no surface named '{}' (it declares: {})", name, name,
                                     decl.empty() ? std::string("none") : fmt::format("{}", fmt::join(decl, ", "))));
    }
    std::string err;
    auto m = zero ? MappedFile::zero(size, err) : MappedFile::file(what, size, err);
    if (!m) fail(kExitInvalid, fmt::format("--surface {}: {}", name, err));
    b.memory = m->bytes();  // (0 bytes: empty, so the empty `bytes` is used)
    maps.push_back(std::move(*m));
    bindings.push_back(std::move(b));
  }
  std::vector<std::pair<size_t, std::string>> outs;
  for (const auto& o : a.outs) {
    auto [name, file] = splitBinding("--out", o);
    auto id = sim::surfaceByBindingName(*k, name);
    size_t idx = bindings.size();
    for (size_t i = 0; i < bindings.size(); ++i)
      if (id && sim::surfaceByBindingName(*k, bindings[i].name) == id) idx = i;
    if (!id) fail(kExitInvalid, fmt::format("--out {}: the kernel has no surface named '{}'", name, name));
    if (idx == bindings.size()) fail(kExitInvalid, fmt::format("--out {}: surface '{}' is not bound (add --surface {}=...)", name, name, name));
    outs.emplace_back(idx, file);
  }
  if (!a.dumpUrb.empty() && !cfg.urbBytes) fail(kExitInvalid, "--dump-urb needs --urb BYTES");

  sim::RunResult r = sim::run(*k, bindings, cfg);
  nlohmann::json j;
  if (a.json) {
    j["kernel"] = k->name;
    j["ok"] = r.ok();
    if (!r.ok()) j["error"] = r.error;
  }
  if (!r.ok()) {
    if (a.json) std::cout << j.dump(2) << "\n";
    std::cerr << "visakit: error: " << r.error << "\n";
    return kExitInvalid;
  }

  // Findings: one report per instruction and kind.
  size_t shown = 0;
  for (const auto& f : r.findings) {
    if (shown++ >= maxErrors) break;
    std::string line = f.loc.line ? fmt::format("{}:{}:{}: ", a.file, f.loc.line, f.loc.col) : fmt::format("{}: instruction #{}: ", a.file, f.instruction);
    std::cerr << line << "error: " << sim::findingKindText(f.kind) << " in " << spaceText(f)
              << fmt::format(" ({} time{})", f.count, f.count == 1 ? "" : "s") << "\n";
    std::cerr << "    " << printInstruction(*k, k->code[f.instruction]) << "\n";
    for (const auto& e : f.examples) std::cerr << "    " << exampleText(cfg, f, e) << "\n";
    if (f.count > f.examples.size()) std::cerr << fmt::format("    ... and {} more\n", f.count - f.examples.size());
  }
  if (r.findings.size() > maxErrors)
    std::cerr << fmt::format("visakit: {} more findings not shown (--max-errors {})\n", r.findings.size() - maxErrors, maxErrors);
  if (!r.findings.empty())
    std::cerr << fmt::format("visakit: check: {} finding{}\n", r.findings.size(), r.findings.size() == 1 ? "" : "s");

  if (a.json) {
    j["threads"] = r.stats.threads;
    j["instructions"] = r.stats.instructions;
    j["lanes"] = r.stats.lanes;
    j["tier"] = r.stats.tier;
    j["via_semantics"] = r.stats.viaSemantics;
    j["spaces"] = nlohmann::json::array();
    for (const auto& s : r.stats.spaces)
      j["spaces"].push_back({{"name", s.name}, {"bytes_read", s.bytesRead}, {"bytes_written", s.bytesWritten}});
    j["findings"] = nlohmann::json::array();
    for (const auto& f : r.findings) {
      nlohmann::json jf = {{"kind", sim::findingKindText(f.kind)}, {"instruction", f.instruction}, {"line", f.loc.line},
                           {"space", f.space}, {"space_size", f.spaceSize}, {"count", f.count}};
      jf["text"] = printInstruction(*k, k->code[f.instruction]);
      jf["examples"] = nlohmann::json::array();
      for (const auto& e : f.examples) {
        nlohmann::json je = {{"thread", e.thread}, {"lane", e.lane}, {"address", e.address}, {"size", e.size}};
        if (f.kind == sim::Finding::Kind::SameAddress) je["other_lane"] = e.otherLane;
        if (f.kind == sim::Finding::Kind::RaceReadWrite || f.kind == sim::Finding::Kind::RaceWriteWrite)
          je["other_thread"] = e.otherThread == 0xffffffffu ? nlohmann::json(nullptr) : nlohmann::json(e.otherThread);
        jf["examples"].push_back(je);
      }
      j["findings"].push_back(jf);
    }
    std::cout << j.dump(2) << "\n";
  } else if (a.stats) {
    std::cout << fmt::format("threads: {}\ninstructions: {}\nlanes: {}\ntier: {}", r.stats.threads, r.stats.instructions,
                             r.stats.lanes, r.stats.tier);
    if (r.stats.tier == "fast" && r.stats.viaSemantics)
      std::cout << fmt::format(" ({} of the instructions without a fast form, through their semantics)", r.stats.viaSemantics);
    std::cout << "\n";
    for (const auto& s : r.stats.spaces)
      std::cout << fmt::format("{}: {} bytes read, {} bytes written\n", s.name, s.bytesRead, s.bytesWritten);
  }

  // Results: only after a successful run.
  int rc = r.findings.empty() ? kExitOk : kExitFindings;
  auto bytesOf = [](std::span<const uint8_t> b) {
    return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
  };
  // (writeOutputs replaces each FILE by a rename: an output over its own input reads the intact
  // mapping; all or none are written)
  std::vector<std::pair<std::string, std::string_view>> files;
  for (const auto& [idx, file] : outs) files.emplace_back(file, bytesOf(std::as_const(bindings[idx]).contents()));
  if (!a.dumpUrb.empty()) files.emplace_back(a.dumpUrb, bytesOf(r.urb));
  if (!files.empty() && writeOutputs(files) != kExitOk) return kExitInvalid;
  return rc;
}

}  // namespace

Runner addRun(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run",
      "Execute a kernel on the CPU over a thread space against real data, and write the results.\n"
      "Launch: a grid of thread groups (--groups), each a 2-D media-walker thread space (--threads)\n"
      "or N threads (--group-threads). Each thread sees %thread_x/%thread_y (its place in its group)\n"
      "and %group_id_x/y/z. Surfaces are byte buffers bound by name; %slm is one zero-filled block per\n"
      "group; the URB is one zero-filled buffer. Semantics: the vISA pages and docs/spec-decisions.md.\n"
      "Exit codes: 0 ok, 1 invalid kernel, launch error or failed run (nothing written),\n"
      "2 usage error, 3 --check findings (results are still written).");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("KERNEL", a->file, "kernel file (.visaasm text or .isa binary)")->required();
  cmd->add_option("--kernel", a->kernel, "which kernel of the file to run (required if it has several)");
  cmd->add_option("--threads", a->threads, "X[,Y]: media-walker thread space (per group); default 1,1");
  cmd->add_option("--groups", a->groups, "X[,Y[,Z]]: thread groups; default 1,1,1");
  cmd->add_option("--group-threads", a->groupThreads, "N: threads per group (%thread_x = 0..N-1); default X*Y of --threads");
  cmd->add_option("--surface", a->surfaces,
                  "NAME=FILE or NAME=zero:BYTES: bind a surface by its declared name, v_name or T<id>\n"
                  "(%scratch is the stateless surface); FILE is mapped, never modified (written pages are copies)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--out", a->outs, "NAME=FILE: after a successful run, write the surface's final bytes to FILE")->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--arg", a->args,
                  "NAME=VALUE: set a general-variable kernel input (.input); VALUE is an integer (decimal,\n"
                  "0x hex, negative), a float for f/df/hf, or a comma-separated list (one per element)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--bti", a->btis,
                  "N=NAME: binding-table index N selects surface NAME (a MOVS gives a surface operand an index)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--address", a->addresses,
                  "NAME=ADDR: place surface NAME at ADDR in the stateless address space (SVM, LSC flat)")
      ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--slm", a->slm, "BYTES of shared local memory per thread group (default: the SLMSize attribute)");
  cmd->add_option("--urb", a->urb, "BYTES of URB (16-byte rows), zero-filled");
  cmd->add_option("--dump-urb", a->dumpUrb, "FILE: write the URB's final bytes after a successful run");
  addGrfOptions(cmd, a->grfSize);
  cmd->add_option("--simd", a->simd, "N: dispatch SIMD width, the first N lanes of the execution mask are on at entry\n"
                                     "(default: the SimdSize attribute, else 32)");
  cmd->add_option("--jobs", a->jobs, "N host threads running thread groups in parallel (default: all cores)");
  cmd->add_flag("--reference", a->reference,
                "run in the reference tier: the plain interpreter the fast tier is checked against (slower)");
  cmd->add_flag("--check", a->check,
                "report out-of-bounds accesses, two lanes writing one address in one instruction and\n"
                "races between threads (exit 3 if any)");
  cmd->add_option("--max-errors", a->maxErrors, "N: report at most N distinct findings (default 20)");
  cmd->add_flag("--stats", a->stats, "print instructions and lanes executed, bytes read and written per surface");
  cmd->add_flag("--json", a->json, "print the statistics and findings as JSON on stdout");
  cmd->add_option("--max-threads", a->maxThreads, fmt::format("N: most simulated threads in one launch (default {})", sim::LaunchConfig{}.maxThreads));
  cmd->add_option("--max-surface-size", a->maxSurfaceBytes, fmt::format("BYTES: largest surface, SLM or URB (default {})", sim::LaunchConfig{}.maxSurfaceBytes));
  cmd->add_option("--max-memory", a->maxMemoryBytes, fmt::format("BYTES: most memory the launch may allocate (default {})", sim::LaunchConfig{}.maxMemoryBytes));
  cmd->add_option("--max-steps", a->maxSteps,
                  fmt::format("N: stop a thread that has run N instructions, as a failed run (default {})", sim::kDefaultMaxSteps));
  return [a]() {
    try {
      return runCommand(*a);
    } catch (const CliError& e) {
      std::cerr << "visakit: error: " << e.msg << "\n";
      return e.code;
    }
  };
}

}  // namespace visakit::cli
