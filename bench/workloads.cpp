// The workloads of the suite (issue 5): data, kernel, launch and native loop.
#include "workloads.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "native.hpp"
#include "visakit/visakit.hpp"

namespace visakit::bench {

namespace {

constexpr uint32_t kThreads = 16;  // simulated threads of the chunked workloads: a few per core

// ---- data ----
struct Rng {
  uint64_t s;
  uint64_t next() {  // splitmix64
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

template <class T>
T* as(std::vector<uint8_t>& v) {
  return reinterpret_cast<T*>(v.data());
}

std::vector<uint8_t> randomWords(size_t n, uint64_t seed) {
  std::vector<uint8_t> v(n * 4);
  Rng r{seed};
  auto* p = as<uint32_t>(v);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint32_t>(r.next());
  return v;
}

// Floats in [-1, 1), multiples of 2^-23 (a*x + y never lands on a denormal).
std::vector<uint8_t> randomFloats(size_t n, uint64_t seed) {
  std::vector<uint8_t> v(n * 4);
  Rng r{seed};
  auto* p = as<float>(v);
  for (size_t i = 0; i < n; ++i)
    p[i] = static_cast<float>(static_cast<int32_t>(r.next() >> 40) - (1 << 23)) / static_cast<float>(1 << 23);
  return v;
}

// ---- kernels ----
std::string kernelDir() {
  if (const char* e = std::getenv("VISAKIT_BENCH_KERNELS")) return e;
  return VISAKIT_BENCH_KERNELS;
}

// Parses and verifies bench/kernels/<file> once; nullptr and `err` on failure.
const Kernel* loadKernel(const std::string& file, std::string& err) {
  static std::map<std::string, std::unique_ptr<Module>> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return &it->second->kernels.at(0);
  std::string path = kernelDir() + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot read " + path;
    return nullptr;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string src = ss.str();
  Diagnostics d;
  auto m = parseText(src, d);
  if (!m || !verify(*m, d) || m->kernels.empty()) {
    err = d.render(path, src);
    if (err.empty()) err = path + ": no kernel";
    return nullptr;
  }
  auto owned = std::make_unique<Module>(std::move(*m));
  const Kernel* k = &owned->kernels[0];
  cache.emplace(file, std::move(owned));
  return k;
}

std::string firstDifference(const uint8_t* got, const uint8_t* want, size_t n, size_t elem) {
  if (std::memcmp(got, want, n) == 0) return "";
  size_t i = 0;
  while (got[i] == want[i]) ++i;
  i -= i % elem;
  uint64_t g = 0, w = 0;
  std::memcpy(&g, got + i, elem);
  std::memcpy(&w, want + i, elem);
  return fmt::format("simulated result differs from native at element {}: 0x{:x}, expected 0x{:x}", i / elem, g, w);
}

std::string compareSizes(size_t got, size_t want) {
  return got == want ? "" : fmt::format("simulated output has {} bytes, expected {}", got, want);
}

// Launch of `threads` simulated threads, `perGroup` per thread group.
void launch(Dataset& d, uint32_t threads, uint32_t perGroup, std::vector<std::pair<std::string, std::string>> args) {
  d.cfg.groups = {threads / perGroup, 1, 1};
  d.cfg.groupThreads = perGroup;
  d.cfg.maxSteps = ~uint64_t{0};
  d.cfg.args = std::move(args);
  d.cfg.args.emplace_back("Tpg", std::to_string(perGroup));
}

void zero(std::vector<uint8_t>& v) { std::fill(v.begin(), v.end(), 0); }

// ---- the workloads ----

// dst[i] = src[idx[i]]; `file` is gather.visaasm (chunked loop) or dispatch.visaasm (16 per thread).
std::unique_ptr<Dataset> makeGather(size_t n, bool perThread16) {
  auto d = std::make_unique<Dataset>();
  d->kernel = loadKernel(perThread16 ? "dispatch.visaasm" : "gather.visaasm", d->error);
  d->items = static_cast<int64_t>(n);
  d->unit = "elements";
  std::vector<uint8_t> idx = randomWords(n, 2);
  for (uint32_t* p = as<uint32_t>(idx); p != as<uint32_t>(idx) + n; ++p) *p &= static_cast<uint32_t>(n - 1);
  d->surfaces = {{"Src", randomWords(n, 1)}, {"Idx", std::move(idx)}, {"Dst", std::vector<uint8_t>(n * 4)}};
  d->native = {std::vector<uint8_t>(n * 4)};
  d->runNative = [n](Dataset& ds) {
    nativeGather(as<uint32_t>(ds.surfaces[0].bytes), as<uint32_t>(ds.surfaces[1].bytes), as<uint32_t>(ds.native[0]), n);
  };
  d->resetSim = [](Dataset& ds) { zero(ds.surface("Dst")); };
  d->compare = [](Dataset& ds, const sim::RunResult&) {
    auto& got = ds.surface("Dst");
    return firstDifference(got.data(), ds.native[0].data(), got.size(), 4);
  };
  if (perThread16) launch(*d, static_cast<uint32_t>(n / 16), 256, {});
  else launch(*d, kThreads, 1, {{"Chunk", std::to_string(n * 4 / kThreads)}});
  return d;
}

// pix[4i + c] = plane_c[i], SCATTER4_SCALED.RGBA.
std::unique_ptr<Dataset> makeScatter4(size_t n) {
  auto d = std::make_unique<Dataset>();
  d->kernel = loadKernel("scatter4.visaasm", d->error);
  d->items = static_cast<int64_t>(n);
  d->unit = "pixels";
  d->surfaces = {{"R", randomFloats(n, 11)}, {"G", randomFloats(n, 12)}, {"B", randomFloats(n, 13)},
                 {"A", randomFloats(n, 14)}, {"Pix", std::vector<uint8_t>(n * 16)}};
  d->native = {std::vector<uint8_t>(n * 16)};
  d->runNative = [n](Dataset& ds) {
    auto& s = ds.surfaces;
    nativeScatter4(as<float>(s[0].bytes), as<float>(s[1].bytes), as<float>(s[2].bytes), as<float>(s[3].bytes),
                   as<float>(ds.native[0]), n);
  };
  d->resetSim = [](Dataset& ds) { zero(ds.surface("Pix")); };
  d->compare = [](Dataset& ds, const sim::RunResult&) {
    auto& got = ds.surface("Pix");
    return firstDifference(got.data(), ds.native[0].data(), got.size(), 4);
  };
  launch(*d, kThreads, 1, {{"Chunk", std::to_string(n * 4 / kThreads)}});
  return d;
}

// dst[perm[i]] = src[i] over qwords, QW_SCATTER.1 SIMD8.
std::unique_ptr<Dataset> makeQwScatter(size_t n) {
  auto d = std::make_unique<Dataset>();
  d->kernel = loadKernel("qw_scatter.visaasm", d->error);
  d->items = static_cast<int64_t>(n);
  d->unit = "qwords";
  std::vector<uint8_t> perm(n * 4);
  auto* p = as<uint32_t>(perm);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint32_t>(i);
  Rng r{22};
  for (size_t i = n - 1; i > 0; --i) std::swap(p[i], p[r.next() % (i + 1)]);
  d->surfaces = {{"Src", randomWords(2 * n, 21)}, {"Perm", std::move(perm)}, {"Dst", std::vector<uint8_t>(n * 8)}};
  d->native = {std::vector<uint8_t>(n * 8)};
  d->runNative = [n](Dataset& ds) {
    nativeQwScatter(as<uint64_t>(ds.surfaces[0].bytes), as<uint32_t>(ds.surfaces[1].bytes), as<uint64_t>(ds.native[0]), n);
  };
  d->resetSim = [](Dataset& ds) { zero(ds.surface("Dst")); };
  d->compare = [](Dataset& ds, const sim::RunResult&) {
    auto& got = ds.surface("Dst");
    return firstDifference(got.data(), ds.native[0].data(), got.size(), 8);
  };
  launch(*d, kThreads, 1, {{"Chunk", std::to_string(n * 4 / kThreads)}});
  return d;
}

// 8 outputs of 8 vertices per URB_WRITE.
std::unique_ptr<Dataset> makeUrbWrite(size_t vertices) {
  auto d = std::make_unique<Dataset>();
  d->kernel = loadKernel("urb_write.visaasm", d->error);
  d->items = static_cast<int64_t>(vertices);
  d->unit = "vertices (x8 dwords)";
  d->surfaces = {{"Vin", randomWords(vertices * 8, 31)}};
  d->native = {std::vector<uint8_t>(vertices * 32)};
  d->runNative = [vertices](Dataset& ds) {
    nativeUrbWrite(as<uint32_t>(ds.surfaces[0].bytes), as<uint32_t>(ds.native[0]), vertices);
  };
  d->resetSim = [](Dataset&) {};
  d->compare = [](Dataset& ds, const sim::RunResult& r) {
    std::string e = compareSizes(r.urb.size(), ds.native[0].size());
    return e.empty() ? firstDifference(r.urb.data(), ds.native[0].data(), r.urb.size(), 4) : e;
  };
  d->cfg.urbBytes = vertices * 32;
  launch(*d, kThreads, 1, {{"Chunk", std::to_string(vertices * 32 / kThreads)}});
  return d;
}

// y = a*x + y in place. native[0]: the native loop's y; native[1]: y0; native[2]: a*x + y0.
std::unique_ptr<Dataset> makeAxpy(size_t n, bool isFloat) {
  auto d = std::make_unique<Dataset>();
  d->kernel = loadKernel(isFloat ? "alu_float.visaasm" : "alu_int.visaasm", d->error);
  d->items = static_cast<int64_t>(n);
  d->unit = "elements";
  std::vector<uint8_t> x = isFloat ? randomFloats(n, 41) : randomWords(n, 41);
  std::vector<uint8_t> y0 = isFloat ? randomFloats(n, 42) : randomWords(n, 42);
  std::vector<uint8_t> expect = y0;
  const float af = 1.5f;
  constexpr uint32_t ai = 3;
  if (isFloat) nativeAxpyFloat(af, as<float>(x), as<float>(expect), n);
  else nativeAxpyInt(ai, as<uint32_t>(x), as<uint32_t>(expect), n);
  d->surfaces = {{"X", std::move(x)}, {"Y", y0}};
  d->native = {y0, y0, std::move(expect)};
  if (isFloat)
    d->runNative = [n, af](Dataset& ds) { nativeAxpyFloat(af, as<float>(ds.surfaces[0].bytes), as<float>(ds.native[0]), n); };
  else
    d->runNative = [n](Dataset& ds) { nativeAxpyInt(ai, as<uint32_t>(ds.surfaces[0].bytes), as<uint32_t>(ds.native[0]), n); };
  d->resetSim = [](Dataset& ds) { ds.surface("Y") = ds.native[1]; };
  d->compare = [](Dataset& ds, const sim::RunResult&) {
    auto& got = ds.surface("Y");
    return firstDifference(got.data(), ds.native[2].data(), got.size(), 4);
  };
  launch(*d, kThreads, 1, {{"Chunk", std::to_string(n * 4 / kThreads)}, {"A", isFloat ? "1.5" : "3"}});
  return d;
}

struct Spec {
  std::string name;
  std::function<std::unique_ptr<Dataset>()> make;
};

const std::vector<Spec>& specs() {
  static const std::vector<Spec> s = {
      {"gather_1MiB", [] { return makeGather(size_t{1} << 18, false); }},     // Src 1 MiB
      {"gather_256MiB", [] { return makeGather(size_t{1} << 26, false); }},   // Src 256 MiB
      {"scatter4", [] { return makeScatter4(size_t{1} << 18); }},             // 4 x 1 MiB planes -> 4 MiB
      {"qw_scatter", [] { return makeQwScatter(size_t{1} << 17); }},          // 1 MiB -> 1 MiB
      {"urb_write", [] { return makeUrbWrite(size_t{1} << 16); }},            // 2 MiB -> 2 MiB URB
      {"alu_int", [] { return makeAxpy(size_t{1} << 18, false); }},           // 1 MiB x, y
      {"alu_float", [] { return makeAxpy(size_t{1} << 18, true); }},
      {"dispatch", [] { return makeGather(size_t{1} << 18, true); }},         // 16384 threads
  };
  return s;
}

}  // namespace

std::vector<uint8_t>& Dataset::surface(const std::string& n) {
  for (auto& s : surfaces)
    if (s.name == n) return s.bytes;
  throw std::out_of_range("no surface " + n);
}

uint64_t Dataset::surfaceBytes() const {
  uint64_t b = cfg.urbBytes.value_or(0);
  for (const auto& s : surfaces) b += s.bytes.size();
  return b;
}

const std::vector<std::string>& workloadNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : specs()) v.push_back(s.name);
    return v;
  }();
  return names;
}

Dataset& dataset(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Dataset>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return *it->second;
  cache.clear();  // one resident data set at a time
  for (const auto& s : specs())
    if (s.name == name) {
      std::unique_ptr<Dataset> d = s.make();
      d->name = name;
      if (d->error.empty()) d->runNative(*d);  // the expected result
      return *cache.emplace(name, std::move(d)).first->second;
    }
  throw std::out_of_range("no workload " + name);
}

const Kernel* benchKernel(const std::string& file, std::string& err) { return loadKernel(file, err); }

// ---- peak RSS ----
namespace {
uint64_t statusKb(const char* key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  size_t n = std::strlen(key);
  while (std::getline(f, line))
    if (line.compare(0, n, key) == 0) return std::strtoull(line.c_str() + n, nullptr, 10);
  return 0;
}
}  // namespace

bool resetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}
uint64_t currentRssBytes() { return statusKb("VmRSS:") * 1024; }
uint64_t peakRssBytes() { return statusKb("VmHWM:") * 1024; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.empty() ? 0 : v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

TempFolder::TempFolder(const std::string& prefix) {
  std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (mkdtemp(t.data())) path_ = t;
}

TempFolder::~TempFolder() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

}  // namespace visakit::bench
