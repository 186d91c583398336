// The OpenCL C corpus (tests/cl/*.cl; README.md there) as data: every file's
// cases (its `// CASE` lines and the directives that qualify them) and its
// DATA buffers, generated as the README states. Read by the corpus test
// (corpus_test.cpp) and the benchmarks (bench/bench_cl.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace visakit::corpus {

struct Case {
  std::string name, file, stem;  // stem: the dump folder's name (file stem, -bN, -4gb)
  std::string kernel, global, local, offset, buildOptions;
  std::vector<std::pair<unsigned, std::string>> args;  // I, SPEC (DATA names still @name)
  std::vector<unsigned> outs;
  std::vector<std::string> devices;
  bool model = false, broken = false, also4gb = false;
  uint64_t ulps = 0;  // EXPECT-TOLERANCE ulp:N
};

struct Corpus {
  std::vector<Case> cases;                              // in file order, then line order; BROKEN ones left out
  std::map<std::string, std::vector<uint8_t>> data;     // DATA name -> bytes
};

// The corpus in `dir` (its .cl files, by name).
Corpus read(const std::filesystem::path& dir);

// `count` elements of `type` from generator words `g` ("rand", seed, lo, hi; ...).
std::vector<uint8_t> generate(const std::string& type, uint64_t count, const std::vector<std::string>& g);

}  // namespace visakit::corpus
