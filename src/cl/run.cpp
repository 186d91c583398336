// visakit::cl::run (include/visakit/cl.hpp): compile or read the dumps, load
// the kernel's vISA and patch tokens, launch it in the simulator, and compare
// with the OpenCL CPU device when asked.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cl/cache.hpp"
#include "cl/compare.hpp"
#include "cl/dump.hpp"
#include "cl/launch.hpp"
#include "cl/launch_args.hpp"
#include "cl/ocloc.hpp"
#include "cl/printf.hpp"
#include "cl/progbin.hpp"
#include "support/files.hpp"
#include "visakit/cl.hpp"
#include "visakit/visakit.hpp"
#if VISAKIT_HAVE_OPENCL
#include "cl/ocl/cpu_runner.hpp"
#endif

namespace visakit::cl {
namespace {

namespace fs = std::filesystem;

// A dump's or a source's file, within the input size limit (a file that is a device, /dev/zero,
// ends in an error too); err says why not.
bool readFile(const std::string& path, std::string& out, std::string& err) {
  return readFileLimited(path, Limits{}.maxFileBytes, out, err, "the limit of an input file");
}
bool readFile(const std::string& path, std::string& out) {
  std::string err;
  return readFile(path, out, err);
}

Result failed(int code, std::string msg) {
  Result r;
  r.exitCode = code;
  r.error = std::move(msg);
  return r;
}

// K11: the platform's GRF size (64 on Xe-HPC); the device's when the dump names none.
unsigned grfOfPlatform(std::string_view platform, std::string_view device) {
  if (auto g = grfSizeOfPlatform(platform)) return *g;
  if (auto g = grfSizeOfPlatform(device)) return *g;
  return 32;
}

// CL21: the compile keeps line tables (LOC and FILE in the vISA) so that
// findings name the OpenCL C line; IGC's code is otherwise the same.
std::string withLineTables(const std::string& options) {
  std::istringstream in(options);
  for (std::string w; in >> w;)
    if (w.rfind("-g", 0) == 0) return options;
  return options.empty() ? "-gline-tables-only" : options + " -gline-tables-only";
}

// The options the OpenCL CPU device builds with (--compare): Intel's own, -cl-intel-*
// (ocloc's, as -cl-intel-greater-than-4GB-buffer-required), left out; they are not
// OpenCL's, and pocl refuses them (CL_INVALID_BUILD_OPTIONS).
std::string withoutIntelOptions(const std::string& options) {
  std::istringstream in(options);
  std::string out;
  for (std::string w; in >> w;)
    if (w.rfind("-cl-intel-", 0) != 0) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The line `line` (1-based) of `text`, without its newline ("" if none).
std::string lineOf(const std::string& text, uint32_t line) {
  size_t at = 0;
  for (uint32_t n = 1; n < line; ++n) {
    at = text.find('\n', at);
    if (at == std::string::npos) return "";
    ++at;
  }
  size_t end = text.find('\n', at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// CL32: every svm_block_ld of an IGC dump is read as `.unaligned` (address dword-aligned): the
// IGC that wrote it keeps the flag in bit 7 of Properties and prints `.unaligned` for bit 3
// only, so its text never says it; the finalizer then sends the unaligned oword block read.
void igcSvmBlockLoadsUnaligned(Module& m) {
  for (Kernel& k : m.kernels)
    for (Instruction& inst : k.code) {
      if (inst.op != Opcode::SVM || inst.subOp != 1) continue;
      const InstrDesc* row = rowOf(inst);
      if (const int p = row ? row->findName("Properties") : -1; p >= 0) inst.f[p].value |= 8;
    }
}

std::vector<KernelParam> paramsOf(const KernelPatchList& pl) {
  std::vector<KernelParam> ps;
  for (const KernelArgInfo& a : pl.argInfo) {
    if (ps.size() <= a.argumentNumber) ps.resize(a.argumentNumber + 1);
    KernelParam& p = ps[a.argumentNumber];
    p.address = parseAddressQualifier(a.addressQualifier).value_or(AddressQualifier::Private);
    p.typeName = a.typeName;
    p.name = a.name;
  }
  return ps;
}

}  // namespace

static Result runIn(Session::Impl* session, const Request& rq);

// What a Session keeps: each vISA file's module (by its path, text and GRF size;
// the Kernel objects the prepared forms name live as long as the session) and
// the prepared forms.
struct Session::Impl {
  struct Loaded {
    std::string path, text;  // (the warnings name the path)
    unsigned grfSize = 0;
    std::unique_ptr<Module> mod;
    std::string warnings;
    uint64_t warningCount = 0;
  };
  static constexpr size_t kKeep = 16;  // modules; past it the oldest goes, with the prepared forms
  std::vector<Loaded> loaded;
  sim::PreparedKernels prepared;

  const Loaded* find(const std::string& path, const std::string& text, unsigned grfSize) const {
    for (const Loaded& l : loaded)
      if (l.grfSize == grfSize && l.path == path && l.text == text) return &l;
    return nullptr;
  }
  const Loaded& keep(Loaded l) {
    if (loaded.size() == kKeep) {
      prepared.clear();  // (its forms may name the module's kernels)
      loaded.erase(loaded.begin());
    }
    loaded.push_back(std::move(l));
    return loaded.back();
  }
};

Session::Session() : impl_(std::make_unique<Impl>()) {}
Session::~Session() = default;
uint64_t Session::preparedHits() const { return impl_->prepared.hits(); }
Result Session::run(const Request& rq) { return runIn(impl_.get(), rq); }
Result run(const Request& rq) { return runIn(nullptr, rq); }

static Result runIn(Session::Impl* session, const Request& rq) {
  Result res;
  std::string err;
  // ---- the launch description (usage errors: exit 2) ----
  LaunchLimits limits;
  limits.maxWorkItems = rq.maxWorkItems;
  limits.maxBufferBytes = rq.maxBufferBytes;
  limits.maxTotalBytes = rq.maxMemoryBytes;
  if (rq.kernel.empty()) return failed(2, "--kernel NAME is required");
  if (rq.global.empty()) return failed(2, "--global X[,Y[,Z]] is required");
  auto shape = parseLaunchShape(rq.global, rq.local.empty() ? std::nullopt : std::optional<std::string_view>(rq.local),
                                rq.offset.empty() ? std::nullopt : std::optional<std::string_view>(rq.offset), limits, err);
  if (!shape) return failed(2, err);
  auto args = parseKernelArgs(rq.args, rq.outs, limits, err);
  if (!args) return failed(2, err);
  Tolerance tol;
  if (!rq.tolerance.empty()) {
    auto t = parseTolerance(rq.tolerance, err);
    if (!t) return failed(2, err);
    tol = *t;
  }

  // ---- the dumps: compiled now, or given ----
  std::optional<OclocRun> ocloc;  // a compile of this run (its folder removed at the end unless cached)
  bool compiled = false;          // the input is OpenCL C (compiled now or earlier: the cache)
  std::string dumpDir, source;
  std::error_code ec;
  if (fs::is_directory(rq.input, ec)) {
    if (!rq.device.empty()) return failed(2, "--device is for an OpenCL C input; a dump directory was compiled for its own");
    if (!rq.keepDumps.empty()) return failed(2, "--keep-dumps is for an OpenCL C input (a dump directory is kept already)");
    if (rq.noCache) return failed(2, "--no-cache is for an OpenCL C input (a dump directory is not compiled)");
    dumpDir = rq.input;
  } else {
    if (std::string why; !readFile(rq.input, source, why)) return failed(1, why);
    compiled = true;
    OclocRequest oreq;
    oreq.source = rq.input;
    oreq.device = rq.device.empty() ? "skl" : rq.device;
    oreq.options = withLineTables(rq.buildOptions);
    // CL31: the compile cache, keyed by everything that determines ocloc's dumps.
    oreq.ocloc = oclocExecutable(oreq, err);
    if (oreq.ocloc.empty()) return failed(1, err);
    const std::string root = rq.noCache ? "" : cacheRoot();
    const std::optional<std::string> key = root.empty() ? std::nullopt : compileKey(oreq, oreq.ocloc, source);
    if (key) dumpDir = findCached(root, *key);
    res.compile = dumpDir.empty() ? "compiled" : "cached";
    if (dumpDir.empty()) {
      if (key) oreq.workIn = cacheWorkFolder(root);
      ocloc.emplace();
      if (!runOcloc(oreq, *ocloc, err)) return failed(1, err);
      // (kept only if the file still holds the text the key has: not edited during the compile)
      if (std::string now; key && !oreq.workIn.empty() && readFile(rq.input, now) && now == source)
        storeCompile(root, *key, *ocloc);
      dumpDir = ocloc->dumpDir;
    }
    if (!rq.keepDumps.empty()) {
      // CL23: written once the compile succeeded, into a folder of its own (never over one).
      if (fs::exists(rq.keepDumps, ec))
        return failed(1, fmt::format("--keep-dumps {}: it exists; give a new folder", rq.keepDumps));
      if (const fs::path up = fs::path(rq.keepDumps).parent_path(); !up.empty() && !fs::is_directory(up, ec))
        return failed(1, fmt::format("--keep-dumps {}: there is no folder '{}' to make it in", rq.keepDumps, up.string()));
      fs::copy(dumpDir, rq.keepDumps, fs::copy_options::recursive, ec);
      if (ec) {
        const std::string why = ec.message();
        fs::remove_all(rq.keepDumps, ec);
        return failed(1, fmt::format("--keep-dumps {}: cannot copy the dumps there: {}", rq.keepDumps, why));
      }
      dumpDir = rq.keepDumps;
    }
  }
  DumpProgram prog;
  if (!scanDump(dumpDir, prog, err)) return failed(1, err);
  const DumpKernel* dk = findKernel(prog, rq.kernel, err);
  if (!dk) {
    // (a compile's dumps are in a temporary folder: name the source instead)
    if (compiled)
      if (size_t at = err.find(dumpDir); at != std::string::npos) err.replace(at, dumpDir.size(), rq.input);
    return failed(1, err);
  }
  res.platform = prog.platform;
  res.simd = dk->chosen.simd;
  res.grfSize = rq.grfSize ? rq.grfSize : grfOfPlatform(prog.platform, rq.device);
  // (the dump's platform fixes its registers: another size would lay the kernel out wrongly)
  if (auto g = grfSizeOfPlatform(prog.platform); g && rq.grfSize && *g != rq.grfSize)
    return failed(2, fmt::format("--grf-size {}: the dump is for {}, whose GRFs are {} bytes", rq.grfSize, prog.platform, *g));

  // ---- the patch tokens: the program binary, else the kernel's .cos ----
  ProgramBinary bin;
  std::vector<ProgramSymbol> symbols;
  CosFile cos;
  const KernelPatchList* patches = nullptr;
  const ProgramScope* program = nullptr;
  std::span<const uint8_t> ssh;
  std::string bytes;
  if (!prog.progbin.empty()) {
    if (std::string why; !readFile(prog.progbin, bytes, why)) return failed(1, why);
    if (!parseProgbin({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, prog.progbin, bin, err))
      return failed(1, err);
    const KernelBinary* kb = bin.kernel(rq.kernel);
    if (!kb) return failed(1, fmt::format("'{}' has no kernel '{}'", prog.progbin, rq.kernel));
    if (!bin.symbols(symbols, err)) return failed(1, fmt::format("{}: error: {}", prog.progbin, err));
    patches = &kb->patchList;
    program = &bin.program;
    ssh = kb->surfaceStateHeap;
  } else {
    if (dk->chosen.cos.empty() || !readFile(dk->chosen.cos, bytes))
      return failed(1, fmt::format("no patch tokens for '{}' (neither a .progbin nor a .cos)", rq.kernel));
    if (!parseCos(bytes, dk->chosen.cos, cos, err)) return failed(1, err);
    patches = &cos.kernel;
    program = cos.programScopePrinted ? &cos.program : nullptr;
  }
  const std::vector<KernelParam> params = paramsOf(*patches);
  if (auto problems = checkKernelArgs(params, *args); !problems.empty())
    return failed(1, fmt::format("{} (kernel '{}')", fmt::join(problems, "; "), rq.kernel));
  takeByValueFiles(params, *args);

  // ---- the kernel's vISA ----
  res.kernelFile = dk->chosen.visaasm;
  res.kernelFileRemoved = ocloc && ocloc->dir && rq.keepDumps.empty();
  if (res.kernelFile.empty()) {
    if (dk->chosen.isa.empty()) return failed(1, fmt::format("kernel '{}' has no .visaasm in '{}' (IGC wrote no vISA for it)", rq.kernel, dumpDir));
    return failed(1, fmt::format("kernel '{}' has no .visaasm in '{}' (the .isa files of this IGC are cut short; "
                                 "visakit reads the .visaasm)", rq.kernel, dumpDir));
  }
  // The kernel's file, then the functions it calls that IGC put in files of their own.
  std::vector<std::pair<std::string, std::string>> files = {{res.kernelFile, ""}};
  for (const auto& [n, path] : dk->chosen.functions) files.emplace_back(path, "");
  std::string text;  // (what a Session compares: every file's text)
  for (auto& [path, t] : files) {
    if (std::string why; !readFile(path, t, why)) return failed(1, why);
    text += t;
    text += '\0';
  }
  const Session::Impl::Loaded* loaded = session ? session->find(res.kernelFile, text, res.grfSize) : nullptr;
  Session::Impl::Loaded own;
  if (!loaded) {
    Options opts;
    opts.grfSize = res.grfSize;
    std::unique_ptr<Module> whole;
    for (const auto& [path, t] : files) {
      Diagnostics diags;
      auto mod = parseText(t, diags, opts);
      if (mod) verify(*mod, diags, opts);
      if (diags.hasErrors()) {
        // The errors alone (CL24: the warnings on IGC's vISA are counted, as after a run).
        Diagnostics errors;
        for (const Diagnostic& d : diags.all())
          if (d.severity != Severity::Warning) errors.add(d.severity, d.loc, d.message, d.where);
        const std::string also =
            diags.warningCount() ? fmt::format("(and {} warning{} on it, not shown)\n", diags.warningCount(), diags.warningCount() == 1 ? "" : "s")
                                 : "";
        return failed(1, fmt::format("the kernel's vISA{} does not load:\n{}{}{}",
                                     compiled ? " (ocloc's dump of " + rq.input + ")" : "", errors.render(path, t), also,
                                     res.kernelFileRemoved ? "(the dump's folder is removed now: --keep-dumps DIR keeps it)" : ""));
      }
      if (diags.warningCount()) {
        own.warnings += diags.render(path, t);
        own.warningCount += diags.warningCount();
      }
      igcSvmBlockLoadsUnaligned(*mod);
      if (!whole) whole = std::make_unique<Module>(std::move(*mod));
      else for (Kernel& f : mod->kernels) whole->kernels.push_back(std::move(f));
    }
    own.mod = std::move(whole);
    own.grfSize = res.grfSize;
    if (session) {
      own.path = res.kernelFile;
      own.text = std::move(text);
      loaded = &session->keep(std::move(own));
    } else {
      loaded = &own;
    }
  }
  if (loaded->warningCount) {
    res.warnings.push_back(loaded->warnings);
    res.warningCount = loaded->warningCount;
  }
  const Module* mod = loaded->mod.get();
  const Kernel* k = nullptr;
  for (const Kernel& kk : mod->kernels)
    if (!kk.isFunction && kk.name == rq.kernel) k = &kk;
  if (!k) return failed(1, fmt::format("'{}' does not hold kernel '{}'", res.kernelFile, rq.kernel));

  // E22: F denormals are kept in arithmetic whatever %cr0 says; IGC's prolog sets their mode
  // (bit 7) unless the build asks to flush them (-cl-denorms-are-zero): say that it is not simulated.
  for (const Instruction& inst : k->code) {
    if (inst.op != Opcode::OR || inst.f.size() < 5) continue;
    const Operand &dst = inst.f[2], &imm = inst.f[4];
    if (dst.kind == Operand::Kind::General && dst.id == kVarCr0 && imm.kind == Operand::Kind::Immediate) {
      if (!(imm.value & 0x80)) res.notes.push_back("the kernel sets %cr0 to flush float denormals (-cl-denorms-are-zero); "
                                                   "visakit keeps them (spec-decisions E22)");
      break;
    }
  }

  // ---- the launch ----
  KernelLaunchInput in;
  in.kernel = k;
  in.grfSize = res.grfSize;
  in.platform = res.platform.empty() ? rq.device : res.platform;
  in.simd = res.simd;
  in.patches = patches;
  in.program = program;
  in.symbols = symbols;
  in.surfaceStateHeap = ssh;
  in.shape = *shape;
  in.args = args->values;
  in.jobs = rq.jobs ? rq.jobs : std::max(1u, std::thread::hardware_concurrency());
  PreparedLaunch pl;
  if (!prepareKernelLaunch(in, pl, err)) return failed(1, err);
  res.local = *pl.shape.local;

  // ---- the reference run on the OpenCL CPU device first (it forks: before our threads) ----
  std::vector<std::optional<std::vector<uint8_t>>> reference;
  if (rq.compare) {
#if VISAKIT_HAVE_OPENCL
    if (source.empty()) {
      std::string cl = (fs::path(dumpDir) / (prog.name + ".cl")).string();
      if (!readFile(cl, source))
        return failed(1, fmt::format("--compare needs the kernel's OpenCL C source; the dump has no '{}'", cl));
    }
    std::vector<KernelArgValue> values;
    for (size_t i = 0; i < args->values.size(); ++i) {
      if (!args->values[i]) return failed(1, fmt::format("--compare: argument {} has no --arg", i));
      values.push_back(*args->values[i]);
    }
    CpuRunRequest cr;
    cr.source = source;
    cr.kernel = rq.kernel;
    cr.buildOptions = withoutIntelOptions(rq.buildOptions);
    cr.launch = pl.shape;
    cr.args = values;
    cr.timeoutSeconds = rq.compareTimeoutSeconds;
    CpuRunResult cres = runOnCpu(cr);
    // A kernel that crashes pocl often runs out of bounds: under --check the run goes on, and
    // its findings say where (the comparison is then not made; CL25).
    if (!cres.ok) {
      std::string why = "the OpenCL CPU device could not run the kernel: " + cres.error;
      if (cres.timedOut)
        return failed(1, "--compare: " + why + " (--compare-timeout sets the limit; without --compare, --max-steps stops a kernel that does not end)");
      if (!rq.check)
        return failed(1, "--compare: " + why + (cres.crashed ? " (--check shows the kernel's out-of-bounds accesses)" : ""));
      res.compareError = std::move(why);
      res.compareCrashed = cres.crashed;
    }
    reference = std::move(cres.buffers);
#else
    return failed(1, "--compare needs OpenCL (visakit was built without it: install ocl-icd-opencl-dev and pocl-opencl-icd, "
                     "then rebuild)");
#endif
  }

  // ---- the simulation ----
  pl.cfg.check = rq.check;
  pl.cfg.maxThreads = rq.maxThreads;
  pl.cfg.maxMemoryBytes = rq.maxMemoryBytes;
  pl.cfg.reference = rq.reference;
  for (const Kernel& f : mod->kernels)
    if (f.isFunction) pl.cfg.functions.push_back(&f);  // what its FCALLs may call
  pl.cfg.jobs = rq.jobs;
  pl.cfg.maxSteps = rq.maxSteps;
  pl.cfg.maxExamples = rq.maxExamples;
  pl.cfg.prepared = session ? &session->prepared : nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  sim::RunResult rr = sim::run(*k, pl.bindings, pl.cfg);
  res.runSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // In OpenCL terms: the work-item of lane `lane` of the launch's hardware thread `thread`,
  // and the OpenCL C file and line of instruction `inst` (CL21; an empty file: none).
  auto workItemOf = [&](uint64_t thread, unsigned lane) {
    WorkItem w;
    const uint32_t tpg = pl.threadsPerGroup;
    const uint64_t g = thread / tpg;
    const auto grid = pl.grid;
    w.group = {g % grid[0], g / grid[0] % grid[1], g / (uint64_t{grid[0]} * grid[1])};
    w.local = pl.localId(static_cast<uint32_t>(thread % tpg), lane);
    for (unsigned d = 0; d < 3; ++d) w.global[d] = w.group[d] * res.local[d] + w.local[d] + pl.shape.offset[d];
    return w;
  };
  // The work-group and the local ids of hardware thread `thread`'s work-items (its first and
  // last lane within the group).
  auto threadItems = [&](uint32_t thread) {
    const uint64_t items = res.local[0] * res.local[1] * res.local[2], first = uint64_t{thread % pl.threadsPerGroup} * pl.simd;
    const unsigned lanes = static_cast<unsigned>(std::clamp<uint64_t>(items > first ? items - first : 1, 1, pl.simd));
    const WorkItem a = workItemOf(thread, 0), b = workItemOf(thread, lanes - 1);
    return fmt::format("work-group ({},{},{}) with local ids ({},{},{}) to ({},{},{})", a.group[0], a.group[1], a.group[2],
                       a.local[0], a.local[1], a.local[2], b.local[0], b.local[1], b.local[2]);
  };
  const std::vector<SourcePos> lines = sourcePositions(*k);
  auto sourceOf = [&](uint32_t inst) -> std::pair<std::string, uint32_t> {
    if (inst >= lines.size() || !lines[inst].line) return {};
    const int32_t file = lines[inst].file;
    std::string name = file >= 0 && static_cast<size_t>(file) < k->strings.size() ? k->strings[file] : "";
    // A compile of ours names its temporary copy of the one input file: name the input.
    // A dump folder's compile named one that is gone by now: IGC's copy in the folder.
    if (compiled) name = rq.input;
    else if (std::error_code ec; !name.empty() && !fs::exists(name, ec))
      if (std::string copy = (fs::path(dumpDir) / (prog.name + ".cl")).string(); fs::exists(copy, ec)) name = copy;
    return {name, lines[inst].line};
  };
  if (!rr.ok()) {
    if (!rr.stepLimit) return failed(1, rr.error);
    // --max-steps (CL29): the work-group and work-items of the thread, and where it was.
    const auto [thread, inst] = *rr.stepLimit;
    const auto [file, line] = sourceOf(inst);
    const unsigned visaLine = inst < k->code.size() ? k->code[inst].loc.line : 0;
    std::string at = res.kernelFileRemoved
                         ? fmt::format("instruction #{}, line {} of the kernel's .visaasm (--keep-dumps DIR keeps it)", inst, visaLine)
                         : fmt::format("{}:{}", res.kernelFile, visaLine);
    if (!file.empty()) at = fmt::format("{}:{} (vISA: {})", file, line, at);
    return failed(1, fmt::format("the work-items of {} did not finish within {} instructions of their hardware thread "
                                 "(--max-steps); stopped at {}",
                                 threadItems(thread), rq.maxSteps, at));
  }
  res.stats = rr.stats;

  // Findings in OpenCL terms: the memory by argument, the work-items by their
  // ids, the OpenCL C line (CL21), the allocation nearest an address in no
  // allocation (CL22).
  struct Near {
    std::string name;
    uint64_t base = 0, bytes = 0;
  };
  auto nearestAllocation = [&](uint64_t address) -> std::optional<Near> {
    std::optional<Near> best;
    uint64_t bestGap = 0;
    for (const auto& [name, base] : pl.cfg.addresses) {
      uint64_t bytes = 0;
      for (const sim::SurfaceBinding& b : pl.bindings)
        if (b.name == name) bytes = b.bytes.size();
      // (past the end of one below, or before the start of one above; the one below on a tie)
      const uint64_t gap = base <= address ? address - std::min(address, base + bytes) : base - address;
      if (!best || gap < bestGap || (gap == bestGap && base <= address && best->base > address)) {
        best = Near{name, base, bytes};
        bestGap = gap;
      }
    }
    return best;
  };
  // An address more than this below every allocation: a null or wild pointer, not an index before one.
  constexpr uint64_t kWildGap = 64 * 1024;
  // The __local argument an SLM byte in none lies past the end of (the nearest below).
  auto localArgBelow = [&](uint64_t byte) -> const ArgMemory* {
    const ArgMemory* best = nullptr;
    for (const ArgMemory& m : pl.argMemory)
      if (m.slmBytes && m.slmOffset + m.slmBytes <= byte && (!best || m.slmOffset > best->slmOffset)) best = &m;
    return best;
  };
  // A byte of the group's SLM in a __local argument (K10): the argument.
  auto localArgAt = [&](uint64_t byte) -> const ArgMemory* {
    for (const ArgMemory& m : pl.argMemory)
      if (m.slmBytes && byte >= m.slmOffset && byte - m.slmOffset < m.slmBytes) return &m;
    return nullptr;
  };
  for (const sim::Finding& f : rr.findings) {
    ClFinding cf;
    cf.finding = f;
    const bool stateless = f.space == sim::kStatelessName, slm = f.space == "%slm";
    cf.memory = slm ? "__local memory" : stateless ? "no allocation" : f.space;
    // (every example in one __local argument: the finding names it)
    const ArgMemory* local = slm && !f.examples.empty() ? localArgAt(f.examples.front().address) : nullptr;
    for (const sim::FindingExample& e : f.examples)
      if (local && localArgAt(e.address) != local) local = nullptr;
    if (local) cf.memory = local->name + " (__local)";
    // The example's lane is a channel of the instruction; its execution mask
    // offset (M5 = channel 16) makes it a lane of the hardware thread (K4).
    const unsigned channel0 = f.instruction < k->code.size() ? emaskOffset(k->code[f.instruction].emask) : 0;
    for (const sim::FindingExample& e : f.examples) {
      cf.workItems.push_back(workItemOf(e.thread, channel0 + e.lane));
      // The other access (CL30): a race's hardware thread, whose lane the shadow does not keep;
      // the other lane of a same-address write.
      if (f.kind == sim::Finding::Kind::RaceWriteWrite || f.kind == sim::Finding::Kind::RaceReadWrite) {
        cf.others.push_back(e.otherThread == 0xffffffffu ? "also accessed by several other hardware threads"
                                                         : "also accessed by the work-items of " + threadItems(e.otherThread));
      } else if (f.kind == sim::Finding::Kind::SameAddress) {
        const WorkItem o = workItemOf(e.thread, channel0 + e.otherLane);
        cf.others.push_back(fmt::format("also written by work-item global ({},{},{}) local ({},{},{})", o.global[0], o.global[1],
                                        o.global[2], o.local[0], o.local[1], o.local[2]));
      }
      std::string place = fmt::format("byte {} of {}", e.address, cf.memory);
      // (a surface's 32-bit offset from a negative index: the index's bytes as well)
      if (!slm && !stateless && e.address >= (uint64_t{1} << 31) && e.address < (uint64_t{1} << 32))
        place += fmt::format(" ({} as a signed 32-bit offset)", static_cast<int64_t>(e.address) - (int64_t{1} << 32));
      if (const ArgMemory* m = slm ? localArgAt(e.address) : nullptr) {
        place = fmt::format("byte {} of {}", e.address - m->slmOffset, m->name);
      } else if (const ArgMemory* b = slm && !local ? localArgBelow(e.address) : nullptr) {
        place += fmt::format(": byte {} of {}, which is {} bytes long", e.address - b->slmOffset, b->name, b->slmBytes);
      }
      if (stateless) {
        place = fmt::format("address 0x{:x}, in no allocation", e.address);
        if (auto n = nearestAllocation(e.address); n && n->base <= e.address) {
          place = fmt::format("address 0x{:x}: byte {} of {}", e.address, e.address - n->base, n->name);
          if (cf.memory == "no allocation") cf.memory = "no allocation, past the end of " + n->name;
        } else if (n && (n->base - e.address <= kWildGap || std::any_of(pl.cfg.addresses.begin(), pl.cfg.addresses.end(),
                                                                           [&](const auto& a) { return a.second <= e.address; }))) {
          place = fmt::format("address 0x{:x}: {} bytes before the start of {}", e.address, n->base - e.address, n->name);
          if (cf.memory == "no allocation") cf.memory = "no allocation, before the start of " + n->name;
        } else if (cf.memory == "no allocation") {
          cf.memory = "no allocation (below every buffer: a null or wild pointer)";
        }
      }
      cf.places.push_back(std::move(place));
    }
    if (auto [name, line] = sourceOf(f.instruction); line) {
      cf.sourceLine = line;
      cf.sourceFile = name;
      std::string text = compiled ? source : "";
      if (text.empty() && !name.empty()) readFile(name, text);
      cf.sourceText = lineOf(text, cf.sourceLine);
    }
    res.findings.push_back(std::move(cf));
  }

  // ---- printf (K12): the records, formatted ----
  for (const sim::SurfaceBinding& b : pl.bindings)
    if (b.name == "printf buffer") formatPrintfBuffer(b.bytes, patches->strings, res.printfText, res.printfError);

  // ---- outputs and the comparison ----
  auto bufferOf = [&](unsigned a) -> const std::vector<uint8_t>* {
    if (a >= pl.argMemory.size() || pl.argMemory[a].binding < 0) return nullptr;
    return &pl.bindings[static_cast<size_t>(pl.argMemory[a].binding)].bytes;
  };
  for (const auto& [a, file] : args->outs) {
    const std::vector<uint8_t>* b = bufferOf(a);
    if (!b) return failed(1, fmt::format("--out {}={}: the kernel does not use argument {} as a buffer", a, file, a));
    res.outputs.emplace_back(a, *b);
  }
  if (!res.compareError.empty()) {
    if (rr.findings.empty()) return failed(1, "--compare: " + res.compareError);
  } else if (rq.compare) {
    res.compared = true;
    for (unsigned a = 0; a < reference.size(); ++a) {
      const std::vector<uint8_t>* ours = bufferOf(a);
      if (!reference[a] || !ours) continue;
      CompareOptions co;
      co.tolerance = tol;
      co.launch = &pl.shape;
      CompareResult c = compareBuffers(*ours, *reference[a], a < params.size() ? params[a].typeName : "", co);
      ArgComparison ac;
      ac.arg = a;
      ac.name = a < params.size() ? params[a].name : "";
      ac.compared = c.compared;
      ac.differing = c.differing + (c.actualBytes != c.referenceBytes);
      for (const Difference& d : c.first) ac.firstDifferences.push_back(formatDifference(d, c));
      res.comparisons.push_back(std::move(ac));
    }
  }
  if (rq.check && !rr.findings.empty()) res.exitCode = 3;
  for (const ArgComparison& c : res.comparisons)
    if (!c.equal()) res.exitCode = 4;
  return res;
}

}  // namespace visakit::cl
