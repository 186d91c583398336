#include "cl/dump.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace visakit::cl {

namespace fs = std::filesystem;

namespace {

bool isHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Reads a run of decimal digits at `s`, moving past it.
bool number(std::string_view& s, unsigned& out) {
  size_t n = 0;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
  if (n == 0 || n > 9) return false;
  std::from_chars(s.data(), s.data() + n, out);
  s.remove_prefix(n);
  return true;
}

bool eat(std::string_view& s, std::string_view p) {
  if (!s.starts_with(p)) return false;
  s.remove_prefix(p.size());
  return true;
}

struct Parsed {
  std::string program;  // OCL_asm<hash>
  bool progbin = false;
  bool kernelFile = false;
  unsigned retry = 0, simd = 0, entry = 0;
  int function = -1;  // _f<K>: a function the kernel calls, compiled apart
  std::string ext;
};

// OCL_asm<hash>.progbin, OCL_asm<hash>[_<retry>]_simd<N>_entry_<NNNN>[_f<K>].<ext>; false for others.
bool parseName(std::string_view n, Parsed& p) {
  std::string_view s = n;
  if (!eat(s, "OCL_asm")) return false;
  size_t h = 0;
  while (h < s.size() && isHex(s[h])) ++h;
  if (h == 0) return false;
  p.program = std::string(n.substr(0, 7 + h));
  s.remove_prefix(h);
  if (s == ".progbin") return p.progbin = true, true;
  if (!eat(s, "_")) return false;
  if (!s.starts_with("simd")) {
    if (!number(s, p.retry) || !eat(s, "_")) return false;
  }
  if (!eat(s, "simd") || !number(s, p.simd) || !eat(s, "_entry_") || !number(s, p.entry)) return false;
  if (eat(s, "_f")) {
    unsigned f = 0;
    if (!number(s, f)) return false;
    p.function = static_cast<int>(f);
  }
  if (!eat(s, ".")) return false;
  p.ext = std::string(s);
  if (p.function >= 0) return p.ext == "visaasm" && (p.kernelFile = true);
  if (p.ext != "visaasm" && p.ext != "isa" && p.ext != "cos" && p.ext != "asm") return false;
  p.kernelFile = true;
  return true;
}

// The first line of `path` starting with `prefix` (at most `maxLines` read; 0 = all).
std::string findLine(const std::string& path, std::string_view prefix, unsigned maxLines) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  for (unsigned i = 0; (maxLines == 0 || i < maxLines) && std::getline(in, line); ++i) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  }
  return {};
}

std::string visaasmName(const std::string& path) {
  std::string rest = findLine(path, ".kernel ", 64);
  if (rest.size() >= 2 && rest.front() == '"') {
    size_t q = rest.find('"', 1);
    if (q != std::string::npos) return rest.substr(1, q - 1);
  }
  return {};
}

std::string cosName(const std::string& path) {
  std::string rest = findLine(path, "** Kernel Patch Lists : Kernel Name = ", 0);
  if (rest.size() > 3 && rest.ends_with(" **")) return rest.substr(0, rest.size() - 3);
  return {};
}

}  // namespace

namespace {

bool scanInto(const std::string& dir, DumpProgram& out, std::string& err) {
  out.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err = fmt::format("'{}' is not a directory", dir);
    return false;
  }
  std::set<std::string> programs;
  std::map<unsigned, std::map<std::pair<unsigned, unsigned>, KernelVariant>> entries;
  bool any = false;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    err = fmt::format("cannot read '{}': {}", dir, ec.message());
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      err = fmt::format("cannot read '{}': {}", dir, ec.message());
      return false;
    }
    std::string fname = it->path().filename().string();
    if (fname.starts_with("OCL_asm")) any = true;
    Parsed p;
    if (!parseName(fname, p)) continue;
    programs.insert(p.program);
    std::string path = it->path().string();
    if (p.progbin) {
      out.progbin = path;
      out.name = p.program;
      continue;
    }
    KernelVariant& v = entries[p.entry][{p.retry, p.simd}];
    v.retry = p.retry;
    v.simd = p.simd;
    if (p.function >= 0) {
      v.functions.emplace(static_cast<unsigned>(p.function), path);
      continue;
    }
    (p.ext == "visaasm" ? v.visaasm : p.ext == "isa" ? v.isa : p.ext == "cos" ? v.cos : v.asmFile) = path;
  }
  if (!any) {
    err = fmt::format("no IGC dump files (OCL_asm*) in '{}'", dir);
    return false;
  }
  if (programs.size() > 1) {
    err = fmt::format("several programs in '{}': {}", dir, fmt::join(programs, ", "));
    return false;
  }
  if (out.progbin.empty()) {
    err = fmt::format("no program binary (OCL_asm<hash>.progbin) in '{}'", dir);
    return false;
  }
  if (entries.empty()) {
    err = fmt::format("no kernel files (OCL_asm<hash>_simd<N>_entry_<NNNN>.*) in '{}'", dir);
    return false;
  }
  for (auto& [entry, variants] : entries) {
    DumpKernel k;
    k.entry = entry;
    std::vector<const KernelVariant*> withCos;
    for (auto& [key, v] : variants) {
      k.variants.push_back(v);
      if (!v.cos.empty()) withCos.push_back(&v);
    }
    auto list = [&] {
      std::vector<std::string> names;
      for (const auto& v : k.variants)
        names.push_back(v.retry ? fmt::format("retry {} simd{}", v.retry, v.simd) : fmt::format("simd{}", v.simd));
      return fmt::format("{}", fmt::join(names, ", "));
    };
    if (withCos.size() > 1) {
      err = fmt::format("kernel entry {:04}: several SIMD variants have a .cos ({}): cannot tell which one the "
                        "program binary holds", entry, list());
      return false;
    }
    if (withCos.empty() && k.variants.size() > 1) {
      err = fmt::format("kernel entry {:04}: no SIMD variant has a .cos ({}): cannot tell which one the program "
                        "binary holds", entry, list());
      return false;
    }
    k.chosen = withCos.empty() ? k.variants.front() : *withCos.front();
    // IGC's retry writes a .cos for every kernel, but recompiles only those it retries: a
    // kernel whose retry variant has no code of its own keeps its earlier compile's (the
    // latest earlier one of the same SIMD width).
    if (k.chosen.visaasm.empty() && k.chosen.isa.empty() && k.chosen.retry > 0) {
      const KernelVariant* from = nullptr;
      for (const KernelVariant& v : k.variants)
        if (v.simd == k.chosen.simd && v.retry < k.chosen.retry && !v.visaasm.empty() && (!from || v.retry > from->retry)) from = &v;
      if (from) {
        const std::string cos = k.chosen.cos;
        k.chosen = *from;
        k.chosen.cos = cos;
      }
    }
    std::string fromVisa = k.chosen.visaasm.empty() ? std::string() : visaasmName(k.chosen.visaasm);
    std::string fromCos = k.chosen.cos.empty() ? std::string() : cosName(k.chosen.cos);
    if (!fromVisa.empty() && !fromCos.empty() && fromVisa != fromCos) {
      err = fmt::format("kernel entry {:04}: the .visaasm names it '{}', the .cos '{}'", entry, fromVisa, fromCos);
      return false;
    }
    k.name = !fromVisa.empty() ? fromVisa : fromCos;
    if (k.name.empty()) {
      err = fmt::format("kernel entry {:04}: no kernel name in its .visaasm or .cos", entry);
      return false;
    }
    for (const auto& other : out.kernels)
      if (other.name == k.name) {
        err = fmt::format("kernel '{}' appears as entries {:04} and {:04}", k.name, other.entry, entry);
        return false;
      }
    if (out.platform.empty() && !k.chosen.asmFile.empty()) out.platform = findLine(k.chosen.asmFile, "//.platform ", 16);
    out.kernels.push_back(std::move(k));
  }
  return true;
}

}  // namespace

bool scanDump(const std::string& dir, DumpProgram& out, std::string& err) {
  DumpProgram tmp;
  if (!scanInto(dir, tmp, err)) {
    out = DumpProgram{};
    return false;
  }
  out = std::move(tmp);
  return true;
}

const DumpKernel* findKernel(const DumpProgram& p, std::string_view name, std::string& err) {
  for (const auto& k : p.kernels)
    if (k.name == name) return &k;
  std::vector<std::string> names;
  for (const auto& k : p.kernels) names.push_back(k.name);
  err = fmt::format("kernel '{}' not found in '{}'; it has: {}", name, p.dir, fmt::join(names, ", "));
  return nullptr;
}

}  // namespace visakit::cl
