// The OpenCL C corpus (tests/cl/*.cl, README.md there): every case runs under
// `visakit cl` on the dumps Intel's compiler made for each of its devices
// (the cl_dumps fixture, scripts/cl-dumps.sh), in the fast tier (its JSON
// summary's "tier" says it ran there), the reference tier and the fast tier
// under --check, whose outputs must be the same bytes and raise no finding;
// and every --out buffer must equal the same kernel's output on pocl
// (Debian's CPU OpenCL, through the runner) byte for byte, or the case's
// Python model's; a case with EXPECT-TOLERANCE compares f32 within N ulp.
// Expected bytes never come from visakit.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "../unit/test_util.hpp"
#include "corpus.hpp"
#include "cl/launch_args.hpp"
#include "cl/ocl/cpu_runner.hpp"
#include "visakit/cl.hpp"
#include "visakit/visakit.hpp"

namespace fs = std::filesystem;
using namespace visakit::cl;
namespace corpus = visakit::corpus;

namespace visakit::corpus {
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
}  // namespace visakit::corpus

namespace {

using corpus::Case;

const corpus::Corpus& theCorpus() {
  static const corpus::Corpus c = corpus::read(fs::path(VISAKIT_SOURCE_DIR) / "tests/cl");
  return c;
}
const std::vector<Case>& cases() { return theCorpus().cases; }
const std::map<std::string, std::vector<uint8_t>>& dataBytes() { return theCorpus().data; }

fs::path dumpsRoot() { return fs::path(VISAKIT_CL_DUMPS); }

std::string quote(const std::string& s) { return "'" + s + "'"; }

// The expected bytes of each --out: pocl's, or the model's.
std::vector<std::vector<uint8_t>> expected(const Case& c, const fs::path& tmp) {
  std::vector<std::vector<uint8_t>> out;
  if (c.model) {
    std::string cmd = "python3 " + quote((fs::path(VISAKIT_SOURCE_DIR) / "tests/cl/models" / (c.name + ".py")).string());
    for (size_t i = 0; i < c.outs.size(); ++i) cmd += " " + quote((tmp / fmt::format("model{}.bin", i)).string());
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    for (size_t i = 0; i < c.outs.size(); ++i) {
      std::string b = vtest::readAll(tmp / fmt::format("model{}.bin", i));
      out.emplace_back(b.begin(), b.end());
    }
    return out;
  }
  std::string err;
  LaunchLimits limits;
  auto shape = parseLaunchShape(c.global, c.local.empty() ? std::nullopt : std::optional<std::string_view>(c.local),
                                c.offset.empty() ? std::nullopt : std::optional<std::string_view>(c.offset), limits, err);
  EXPECT_TRUE(shape) << err;
  std::vector<KernelArgValue> values;
  for (const auto& [i, spec] : c.args) {
    std::string s = spec;
    if (s[0] == '@') s = "@" + (tmp / (s.substr(1) + ".bin")).string();
    auto v = parseArgValue(i, s, limits, err);
    EXPECT_TRUE(v) << err;
    if (values.size() <= i) values.resize(i + 1, LocalArg{});
    values[i] = *v;
  }
  CpuRunRequest r;
  r.source = vtest::readAll(c.file);
  r.kernel = c.kernel;
  r.buildOptions = c.buildOptions;
  r.launch = *shape;
  r.args = values;
  CpuRunResult res = runOnCpu(r);
  EXPECT_TRUE(res.ok) << res.error;
  for (unsigned o : c.outs) out.push_back(o < res.buffers.size() && res.buffers[o] ? *res.buffers[o] : std::vector<uint8_t>{});
  return out;
}

uint64_t ulpKey(uint32_t b) { return b & 0x80000000u ? ~uint64_t{b & 0x7fffffffu} + 1 : b; }

void compare(const Case& c, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  if (!c.ulps) {
    size_t firstDiff = 0;
    while (firstDiff < got.size() && got[firstDiff] == want[firstDiff]) ++firstDiff;
    EXPECT_EQ(firstDiff, got.size()) << what << ": first difference at byte " << firstDiff << " of " << got.size();
    return;
  }
  size_t bad = 0;
  for (size_t i = 0; i + 4 <= got.size(); i += 4) {
    uint32_t a, b;
    std::memcpy(&a, &got[i], 4);
    std::memcpy(&b, &want[i], 4);
    const bool nanA = (a & 0x7fffffffu) > 0x7f800000u, nanB = (b & 0x7fffffffu) > 0x7f800000u;
    if (a == b || (nanA && nanB)) continue;
    int64_t d = static_cast<int64_t>(ulpKey(a) - ulpKey(b));
    if (static_cast<uint64_t>(d < 0 ? -d : d) > c.ulps) ++bad;
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " elements differ by more than " << c.ulps << " ulp";
}

// The devices a case runs on: all its DEVICES, or with VISAKIT_CORPUS_DEVICES=one
// (the sanitizer test presets) one of them, chosen by the case's name so that
// the corpus as a whole still covers every device.
bool envIs(const char* name, std::string_view value) {
  const char* e = std::getenv(name);
  return e && e == value;
}
bool oneDevice() { return envIs("VISAKIT_CORPUS_DEVICES", "one"); }
std::vector<std::string> devicesToRun(const Case& c) {
  if (!oneDevice() || c.devices.empty()) return c.devices;
  size_t h = 0;
  for (char ch : c.name) h = h * 31 + static_cast<unsigned char>(ch);
  return {c.devices[h % c.devices.size()]};
}

// Which of a case's three runs (0 the fast tier, 1 the reference tier, 2 the
// fast tier under --check) a preset makes. VISAKIT_CORPUS_TIERS=fast (the asan
// test preset): 0 and 2; the unit tests run the reference tier's launches
// there. VISAKIT_CORPUS_TIERS=check (tsan): 2 alone, whose launches run the
// launch layer, the host threads and the observers' shared shadow; the unit
// tests' sim cases run the fast tier without --check on two host threads.
bool runsVariant(int variant) {
  if (envIs("VISAKIT_CORPUS_TIERS", "fast")) return variant != 1;
  if (envIs("VISAKIT_CORPUS_TIERS", "check")) return variant == 2;
  return true;
}

class ClCorpus : public ::testing::TestWithParam<Case> {};

TEST_P(ClCorpus, EveryDeviceAndTierEqualsTheReference) {
  const Case& c = GetParam();
  fs::path tmp = fs::temp_directory_path() / fmt::format("visakit_corpus_{}_{}", ::getpid(), c.name);
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  for (const auto& [i, spec] : c.args)
    if (spec[0] == '@') {
      const auto& b = dataBytes().at(spec.substr(1));
      std::ofstream(tmp / (spec.substr(1) + ".bin"), std::ios::binary)
          .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    }
  const std::vector<std::vector<uint8_t>> want = expected(c, tmp);
  std::vector<std::string> stems = {c.stem};
  if (c.also4gb) stems.push_back(c.stem + "-4gb");
  for (const std::string& dev : devicesToRun(c))
    for (const std::string& stem : stems) {
      std::vector<std::string> fastOutputs;  // the fast tier's, which the other runs' must equal byte for byte
      for (int variant = 0; variant < 3; ++variant) {
        // The fast tier, the reference tier, and the fast tier under --check (a clean kernel has no finding).
        const bool reference = variant == 1, check = variant == 2;
        if (!runsVariant(variant)) continue;
        const std::string what = fmt::format("{} on {} ({}, {} tier{})", c.name, dev, stem, reference ? "reference" : "fast",
                                             check ? ", --check" : "");
        std::string cmd = "cl " + quote((dumpsRoot() / dev / stem).string()) + " --kernel " + c.kernel + " --global " + c.global;
        if (!c.local.empty()) cmd += " --local " + c.local;
        if (!c.offset.empty()) cmd += " --offset " + c.offset;
        for (const auto& [i, spec] : c.args)
          cmd += fmt::format(" --arg {}={}", i, spec[0] == '@' ? "@" + quote((tmp / (spec.substr(1) + ".bin")).string()) : spec);
        for (size_t o = 0; o < c.outs.size(); ++o)
          cmd += fmt::format(" --out {}={}", c.outs[o], quote((tmp / fmt::format("out{}.bin", o)).string()));
        if (reference) cmd += " --reference";
        if (check) cmd += " --check";
        cmd += " --json";  // (which tier ran: "tier")
        for (size_t o = 0; o < c.outs.size(); ++o) fs::remove(tmp / fmt::format("out{}.bin", o));
        vtest::CliResult r = vtest::runCli(cmd);
        EXPECT_EQ(r.exit, 0) << what << "\n" << cmd << "\n" << r.output.substr(0, 4000);
        // Every kernel of the corpus runs in the fast tier unless --reference asks for the other.
        const std::string tier = reference ? "reference" : "fast";
        EXPECT_NE(r.output.find("\"tier\": \"" + tier + "\""), std::string::npos) << what << ": not run in the " << tier << " tier\n"
                                                                               << r.output.substr(0, 4000);
        if (r.exit != 0) continue;
        for (size_t o = 0; o < c.outs.size(); ++o) {
          std::string g = vtest::readAll(tmp / fmt::format("out{}.bin", o));
          compare(c, std::vector<uint8_t>(g.begin(), g.end()), want[o], fmt::format("{}: argument {}", what, c.outs[o]));
          if (variant == 0) {
            fastOutputs.push_back(g);
          } else if (o < fastOutputs.size()) {
            EXPECT_TRUE(g == fastOutputs[o]) << what << ": argument " << c.outs[o] << " differs from the fast tier's";
          }
        }
      }
      // Two launches in one cl::Session: the second runs the prepared kernel
      // the first left (sim::PreparedKernels) and gives the same bytes. (Not
      // in the sanitizer presets, which run one device per case: their
      // SimPrepared and ClSession unit tests cover the session; this keeps
      // their runs short.)
      if (fastOutputs.size() != c.outs.size() || oneDevice()) continue;
      visakit::cl::Request rq;
      rq.input = (dumpsRoot() / dev / stem).string();
      rq.kernel = c.kernel;
      rq.global = c.global;
      rq.local = c.local;
      rq.offset = c.offset;
      for (const auto& [i, spec] : c.args)
        rq.args.push_back(fmt::format("{}={}", i, spec[0] == '@' ? "@" + (tmp / (spec.substr(1) + ".bin")).string() : spec));
      for (unsigned o : c.outs) rq.outs.push_back(fmt::format("{}=unused{}.bin", o, o));  // (not written: Result::outputs)
      visakit::cl::Session session;
      for (int launch = 0; launch < 2; ++launch) {
        const visakit::cl::Result r = session.run(rq);
        ASSERT_EQ(r.exitCode, 0) << c.name << " on " << dev << " in a session: " << r.error;
        ASSERT_EQ(r.outputs.size(), c.outs.size());
        for (size_t o = 0; o < c.outs.size(); ++o)
          EXPECT_TRUE(std::string(r.outputs[o].second.begin(), r.outputs[o].second.end()) == fastOutputs[o])
              << c.name << " on " << dev << " (" << stem << "), launch " << launch + 1 << " of a session: argument " << c.outs[o]
              << " differs from visakit cl's";
      }
      EXPECT_EQ(session.preparedHits(), 1u) << c.name << " on " << dev << ": the second launch did not reuse the prepared kernel";
    }
  fs::remove_all(tmp);
}

std::string caseName(const ::testing::TestParamInfo<Case>& i) {
  std::string n = i.param.name;
  for (auto& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cases, ClCorpus, ::testing::ValuesIn(cases()), caseName);

// The DATA generators as tests/cl/README.md states them: `rand <seed> <lo> <hi>`
// and `frand <seed> <lo> <hi>` (the seed is not the low bound). splitmix64
// seeded with 0 gives 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f
// (the published reference sequence).
TEST(ClCorpusData, GeneratorsReadSeedThenBounds) {
  auto u64s = [](const std::vector<uint8_t>& b) {
    std::vector<uint64_t> v(b.size() / 8);
    std::memcpy(v.data(), b.data(), b.size());
    return v;
  };
  // lo = 0, hi = 2^64 - 1: the range is all 2^64 values, the element is x itself.
  EXPECT_EQ(u64s(corpus::generate("u64", 3, {"rand", "0", "0", "0xffffffffffffffff"})),
            (std::vector<uint64_t>{0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full}));
  // 10 + x mod 10: 16294208416658607535 mod 10 = 5, 7960286522194355700 mod 10 = 0.
  EXPECT_EQ(corpus::generate("u32", 2, {"rand", "0", "10", "19"}), (std::vector<uint8_t>{15, 0, 0, 0, 10, 0, 0, 0}));
  // u = (x >> 11) * 2^-53 = 0.88331080821364..., d = 2 + 2u = 3.7666216164272...,
  // to f32 0x40711054 (sign 0, exponent 128, mantissa 0x711054).
  EXPECT_EQ(corpus::generate("f32", 1, {"frand", "0", "2.0", "4.0"}), (std::vector<uint8_t>{0x54, 0x10, 0x71, 0x40}));
}

// Every .visaasm IGC dumped for the corpus, on every device: it loads and
// verifies (the GRF size from the platform its .asm names, spec-decisions
// T9, else the device's), printing it is a fixed point, and its binary encoding decodes to the
// same text.
std::vector<fs::path> dumpedKernels(const std::string& device) {
  std::vector<fs::path> v;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dumpsRoot() / device, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".visaasm") v.push_back(it->path());
  std::sort(v.begin(), v.end());
  return v;
}

class ClDumps : public ::testing::TestWithParam<std::string> {};

TEST_P(ClDumps, EveryVisaasmVerifiesPrintsAndRoundTrips) {
  const std::vector<fs::path> files = dumpedKernels(GetParam());
  ASSERT_GE(files.size(), 60u) << "the cl_dumps fixture made no dumps for " << GetParam();
  for (const fs::path& f : files) {
    // (a variant IGC compiled and then dropped has no .asm: the device then)
    std::string asmText = vtest::readAll(fs::path(f).replace_extension(".asm"));
    size_t at = asmText.find("//.platform ");
    std::string platform = at == std::string::npos ? GetParam() : asmText.substr(at + 12, asmText.find('\n', at) - at - 12);
    auto grf = visakit::grfSizeOfPlatform(platform);
    ASSERT_TRUE(grf) << f << ": platform " << platform;
    visakit::Options opts;
    opts.grfSize = *grf;
    const std::string text = vtest::readAll(f);
    visakit::Diagnostics d;
    auto m = visakit::parseText(text, d, opts);
    if (m) visakit::verify(*m, d, opts);
    ASSERT_TRUE(m && !d.hasErrors()) << d.render(f.string(), text);
    const std::string printed = visakit::printText(*m);
    visakit::Diagnostics d2;
    auto again = visakit::parseText(printed, d2, opts);
    ASSERT_TRUE(again) << f << ": the printed text does not parse\n" << d2.render("printed", printed);
    EXPECT_EQ(visakit::printText(*again), printed) << f << ": printing is not a fixed point";
    std::vector<uint8_t> bin = visakit::writeBinary(*m);
    visakit::Diagnostics d3;
    auto back = visakit::readBinary(std::string_view(reinterpret_cast<const char*>(bin.data()), bin.size()), d3, opts);
    ASSERT_TRUE(back) << f << ": its encoding does not decode\n" << d3.render(f.string(), "");
    EXPECT_EQ(visakit::printText(*back), printed) << f << ": the binary round trip changed it";
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, ClDumps, ::testing::Values("skl", "tgllp", "dg2", "acm-g10", "pvc"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
