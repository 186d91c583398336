// The corpus reader (corpus.hpp); the directives and generators of tests/cl/README.md.
#include "corpus.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace visakit::corpus {

namespace fs = std::filesystem;

namespace {

// splitmix64 (tests/cl/README.md "DATA generators").
struct SplitMix {
  uint64_t s;
  uint64_t next() {
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

unsigned typeBytes(const std::string& t) {
  if (t == "i8" || t == "u8") return 1;
  if (t == "i16" || t == "u16") return 2;
  if (t == "i32" || t == "u32" || t == "f32") return 4;
  return 8;
}

uint64_t parseInt(const std::string& s) {
  bool neg = !s.empty() && s[0] == '-';
  std::string t = neg ? s.substr(1) : s;
  uint64_t v = std::stoull(t, nullptr, t.rfind("0x", 0) == 0 ? 16 : 10);
  return neg ? ~v + 1 : v;
}

void put(std::vector<uint8_t>& out, const std::string& type, uint64_t intBits, double d) {
  unsigned n = typeBytes(type);
  uint64_t bits = intBits;
  if (type == "f32") {
    float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
  } else if (type == "f64") {
    std::memcpy(&bits, &d, 8);
  }
  for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> generate(const std::string& type, uint64_t count, const std::vector<std::string>& g) {
  std::vector<uint8_t> out;
  const bool flt = type == "f32" || type == "f64";
  const std::string& kind = g.at(0);
  SplitMix sm{kind == "rand" || kind == "frand" ? parseInt(g.at(1)) : 0};
  for (uint64_t i = 0; i < count; ++i) {
    if (kind == "iota") {
      if (flt) put(out, type, 0, std::stod(g.at(1)) + static_cast<double>(i) * std::stod(g.at(2)));
      else put(out, type, parseInt(g.at(1)) + i * parseInt(g.at(2)), 0);
    } else if (kind == "const") {
      if (flt) put(out, type, 0, std::stod(g.at(1)));
      else put(out, type, parseInt(g.at(1)), 0);
    } else if (kind == "rand") {  // rand <seed> <lo> <hi>
      uint64_t lo = parseInt(g.at(2)), hi = parseInt(g.at(3)), range = hi - lo + 1, x = sm.next();
      put(out, type, range == 0 ? lo + x : lo + x % range, 0);
    } else if (kind == "frand") {  // frand <seed> <lo> <hi>
      double lo = std::stod(g.at(2)), hi = std::stod(g.at(3));
      double u = static_cast<double>(sm.next() >> 11) * 0x1p-53;
      put(out, type, 0, lo + (hi - lo) * u);
    } else if (kind == "list") {
      const std::string& v = g.at(1 + i);
      if (flt) put(out, type, 0, std::stod(v));
      else put(out, type, parseInt(v), 0);
    } else {
      throw std::runtime_error("unknown generator " + kind);
    }
  }
  return out;
}

namespace {

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> w;
  std::istringstream in(s);
  for (std::string t; in >> t;) w.push_back(t);
  return w;
}

}  // namespace

Corpus read(const fs::path& dir) {
  Corpus corpus;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream file(f, std::ios::binary);
    std::stringstream in;
    in << file.rdbuf();
    std::vector<std::string> devices = {"skl", "tgllp", "dg2", "acm-g10", "pvc"};
    bool also4gb = false;
    std::vector<Case> fileCases;
    std::vector<std::string> optionValues;  // distinct --build-options, in CASE order
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("// DEVICES:", 0) == 0) devices = words(line.substr(11));
      if (line.rfind("// ALSO-4GB", 0) == 0) also4gb = true;
      if (line.rfind("// DATA ", 0) == 0) {
        size_t colon = line.find(':');
        std::string name = line.substr(8, colon - 8);
        std::vector<std::string> w = words(line.substr(colon + 1));
        std::vector<std::string> gen(w.begin() + 2, w.end());
        corpus.data[name] = generate(w[0], std::stoull(w[1]), gen);
      }
      if (line.rfind("// CASE ", 0) == 0) {
        Case c;
        size_t colon = line.find(':');
        c.name = line.substr(8, colon - 8);
        c.file = f.string();
        std::string rest = line.substr(colon + 1);
        std::smatch m;
        if (std::regex_search(rest, m, std::regex("--build-options \"([^\"]*)\""))) {
          c.buildOptions = m[1];
          rest = m.prefix().str() + m.suffix().str();
        }
        std::vector<std::string> w = words(rest);
        for (size_t i = 0; i + 1 < w.size(); ++i) {
          if (w[i] == "--kernel") c.kernel = w[i + 1];
          if (w[i] == "--global") c.global = w[i + 1];
          if (w[i] == "--local") c.local = w[i + 1];
          if (w[i] == "--offset") c.offset = w[i + 1];
          if (w[i] == "--arg") {
            size_t eq = w[i + 1].find('=');
            c.args.emplace_back(static_cast<unsigned>(std::stoul(w[i + 1].substr(0, eq))), w[i + 1].substr(eq + 1));
          }
          if (w[i] == "--out") c.outs.push_back(static_cast<unsigned>(std::stoul(w[i + 1])));
        }
        auto it = std::find(optionValues.begin(), optionValues.end(), c.buildOptions);
        size_t idx = static_cast<size_t>(it - optionValues.begin());
        if (it == optionValues.end()) optionValues.push_back(c.buildOptions);
        c.stem = f.stem().string() + (idx ? fmt::format("-b{}", idx) : "");
        fileCases.push_back(c);
      }
      if (!fileCases.empty()) {
        if (line.rfind("// EXPECT: model", 0) == 0) fileCases.back().model = true;
        if (line.rfind("// BROKEN:", 0) == 0) fileCases.back().broken = true;
        if (line.rfind("// EXPECT-TOLERANCE: ulp:", 0) == 0) fileCases.back().ulps = std::stoull(line.substr(25));
      }
    }
    for (Case& c : fileCases) {
      c.devices = devices;
      c.also4gb = also4gb;
      if (!c.broken) corpus.cases.push_back(c);
    }
  }
  return corpus;
}

}  // namespace visakit::corpus
