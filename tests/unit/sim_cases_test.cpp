// Runs `visakit run` on every NAME.visaasm + NAME.test in tests/sim/cases/ and
// examples/ (format: tests/README.md "sim/cases/") and compares the output
// bytes, the exit code and stderr substrings with the expected ones.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string args;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> surfaces, expects;
  bool expectUrb = false;
  std::vector<uint8_t> urb;
  int exit = 0;
  std::vector<std::string> stderrHas;
  // expect-tier: the tier the run as written reports (`--stats`): "fast" (every
  // instruction in a fast form), "fast+semantics" (the fast tier, some
  // instructions through their semantics), "reference" (handed over).
  std::string tier;
};

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

uint64_t parseUnsigned(const std::string& v, int base) {
  size_t pos = 0;
  uint64_t x = std::stoull(v, &pos, base);
  if (pos != v.size()) throw std::runtime_error("bad number '" + v + "'");
  return x;
}

// One token: [TYPE:]VALUE[*COUNT].
void appendToken(const std::string& tokIn, std::vector<uint8_t>& out) {
  std::string tok = tokIn;
  size_t count = 1;
  if (size_t star = tok.rfind('*'); star != std::string::npos) {
    count = parseUnsigned(tok.substr(star + 1), 10);
    tok = tok.substr(0, star);
  }
  std::vector<uint8_t> one;
  size_t colon = tok.find(':');
  if (colon == std::string::npos) {
    uint64_t b = parseUnsigned(tok, 16);
    if (b > 0xff) throw std::runtime_error("byte out of range: " + tok);
    one.push_back(static_cast<uint8_t>(b));
  } else {
    std::string type = tok.substr(0, colon), val = tok.substr(colon + 1);
    unsigned width = 0;
    uint64_t bits = 0;
    bool hex = val.size() > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X');
    if (type == "f32" || type == "f64") {
      width = type == "f32" ? 4 : 8;
      if (hex) bits = parseUnsigned(val.substr(2), 16);
      else {
        size_t pos = 0;
        double d = std::stod(val, &pos);
        if (pos != val.size()) throw std::runtime_error("bad float '" + val + "'");
        bits = width == 4 ? std::bit_cast<uint32_t>(static_cast<float>(d)) : std::bit_cast<uint64_t>(d);
      }
    } else {
      if (type.size() < 2 || (type[0] != 'u' && type[0] != 'i')) throw std::runtime_error("unknown type '" + type + "'");
      width = static_cast<unsigned>(parseUnsigned(type.substr(1), 10)) / 8;
      if (width != 1 && width != 2 && width != 4 && width != 8) throw std::runtime_error("unknown type '" + type + "'");
      bool neg = !val.empty() && val[0] == '-';
      std::string mag = neg ? val.substr(1) : val;
      bool mhex = mag.size() > 2 && mag[0] == '0' && (mag[1] == 'x' || mag[1] == 'X');
      uint64_t m = mhex ? parseUnsigned(mag.substr(2), 16) : parseUnsigned(mag, 10);
      bits = neg ? ~m + 1 : m;
    }
    for (unsigned i = 0; i < width; ++i) one.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }
  for (size_t i = 0; i < count; ++i) out.insert(out.end(), one.begin(), one.end());
}

std::vector<uint8_t> parseBytes(const std::string& list) {
  std::vector<uint8_t> out;
  std::istringstream in(list);
  std::string tok;
  std::vector<std::string> toks;
  while (in >> tok) toks.push_back(tok);
  if (toks.size() == 1 && toks[0].rfind("zero:", 0) == 0) {
    out.assign(parseUnsigned(toks[0].substr(5), 10), 0);
    return out;
  }
  for (const auto& t : toks) appendToken(t, out);
  return out;
}

Case parseCase(const fs::path& file) {
  Case c;
  std::ifstream in(file);
  std::string raw;
  while (std::getline(in, raw)) {
    std::string line = raw;
    if (size_t h = line.find('#'); h != std::string::npos) line = line.substr(0, h);
    line = trim(line);
    if (line.empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) throw std::runtime_error("line without ':' in " + file.string() + ": " + raw);
    std::string key = trim(line.substr(0, colon)), val = trim(line.substr(colon + 1));
    if (key == "args") c.args += " " + val;
    else if (key == "expect-urb") {
      c.expectUrb = true;
      c.urb = parseBytes(val);
    } else if (key == "expect-exit") c.exit = static_cast<int>(parseUnsigned(val, 10));
    else if (key == "expect-stderr") c.stderrHas.push_back(val);
    else if (key == "expect-tier") {
      if (val != "fast" && val != "fast+semantics" && val != "reference")
        throw std::runtime_error("expect-tier is fast, fast+semantics or reference in " + file.string());
      c.tier = val;
    }
    else if (key.rfind("surface ", 0) == 0) c.surfaces.emplace_back(trim(key.substr(8)), parseBytes(val));
    else if (key.rfind("expect ", 0) == 0) c.expects.emplace_back(trim(key.substr(7)), parseBytes(val));
    else throw std::runtime_error("unknown key '" + key + "' in " + file.string());
  }
  return c;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hexDump(const std::vector<uint8_t>& b) {
  std::string s;
  char buf[32];
  for (size_t i = 0; i < b.size(); ++i) {
    if (i % 16 == 0) {
      std::snprintf(buf, sizeof buf, "%s%04zx:", i ? "\n" : "", i);
      s += buf;
    }
    std::snprintf(buf, sizeof buf, " %02x", b[i]);
    s += buf;
  }
  return s;
}

struct Param {
  std::string dir;   // relative to the source dir
  std::string name;  // NAME (without extension)
};

void PrintTo(const Param& p, std::ostream* os) { *os << p.dir << "/" << p.name; }

std::vector<Param> caseList(const std::string& dir) {
  std::vector<Param> out;
  fs::path d = fs::path(VISAKIT_SOURCE_DIR) / dir;
  if (!fs::exists(d)) return out;
  for (const auto& e : fs::directory_iterator(d))
    if (e.path().extension() == ".test") out.push_back({dir, e.path().stem().string()});
  std::sort(out.begin(), out.end(), [](const Param& a, const Param& b) { return a.name < b.name; });
  return out;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

class SimCase : public ::testing::TestWithParam<Param> {};

// The executors have fast paths that are taken only without --check (an
// observer sees every element access) and plain copies only with one host
// thread: Variant::Check and Variant::OneJob run the same case through the other
// paths and expect the same bytes. Variant::Reference runs it in the reference
// tier (--reference), which must give everything the case expects: bytes,
// exit code and messages; Variant::ReferenceCheck with --check too.
enum class Variant { AsWritten, Check, OneJob, Reference, ReferenceCheck };

void runCase(const Param& p, Variant v) {
  fs::path src = fs::path(VISAKIT_SOURCE_DIR) / p.dir;
  fs::path kernel = src / (p.name + ".visaasm");
  ASSERT_TRUE(fs::exists(kernel)) << kernel;
  Case c;
  ASSERT_NO_THROW(c = parseCase(src / (p.name + ".test")));
  std::string extra;
  const bool check = v == Variant::Check || v == Variant::ReferenceCheck;
  if (v == Variant::Reference) extra = " --reference";
  if (v != Variant::AsWritten && v != Variant::Reference) {
    if (c.exit != 0 && c.exit != 3) GTEST_SKIP() << "the case expects a failed run";
    const char* opt = check ? "--check" : "--jobs";
    if (c.args.find(opt) != std::string::npos) GTEST_SKIP() << "the case sets " << opt;
    extra = v == Variant::Check ? " --check" : v == Variant::ReferenceCheck ? " --reference --check" : " --jobs 1";
  }
  fs::path tmp = fs::temp_directory_path() /
                 ("visakit_sim_" + std::to_string(::getpid()) + "_" + std::to_string(static_cast<int>(v)) + "_" + p.name);
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  std::string cmd = std::string(VISAKIT_CLI) + " run " + quote(kernel.string()) + " " + c.args + extra;
  for (size_t i = 0; i < c.surfaces.size(); ++i) {
    fs::path f = tmp / ("in" + std::to_string(i) + ".bin");
    std::ofstream(f, std::ios::binary).write(reinterpret_cast<const char*>(c.surfaces[i].second.data()),
                                              static_cast<std::streamsize>(c.surfaces[i].second.size()));
    cmd += " --surface " + quote(c.surfaces[i].first + "=" + f.string());
  }
  for (size_t i = 0; i < c.expects.size(); ++i)
    cmd += " --out " + quote(c.expects[i].first + "=" + (tmp / ("out" + std::to_string(i) + ".bin")).string());
  if (c.expectUrb) cmd += " --dump-urb " + quote((tmp / "urb.bin").string());
  const bool tier = v == Variant::AsWritten && !c.tier.empty();
  if (tier) cmd += " --stats";
  cmd += " >" + quote((tmp / "stdout.txt").string()) + " 2>" + quote((tmp / "stderr.txt").string());
  int st = std::system(cmd.c_str());
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::string err = readAll(tmp / "stderr.txt");
  // With --check, a case without findings may now report some (exit 3); the bytes are written all the same (E23).
  int wantRc = check && c.exit == 0 && rc == 3 ? 3 : c.exit;
  EXPECT_EQ(rc, wantRc) << cmd << "\n" << err;
  if (v == Variant::AsWritten || v == Variant::Reference) {
    for (const auto& s : c.stderrHas) EXPECT_NE(err.find(s), std::string::npos) << "stderr lacks '" << s << "':\n" << err;
  }
  if (tier) {
    const std::string out = readAll(tmp / "stdout.txt");
    const std::string want = c.tier == "fast" ? "\ntier: fast\n" : c.tier == "reference" ? "\ntier: reference\n" : "\ntier: fast (";
    EXPECT_NE(out.find(want), std::string::npos) << "expected the " << c.tier << " tier:\n" << out;
  }
  if (rc == wantRc) {
    for (size_t i = 0; i < c.expects.size(); ++i) {
      fs::path f = tmp / ("out" + std::to_string(i) + ".bin");
      if (!fs::exists(f)) {
        ADD_FAILURE() << "no output for surface " << c.expects[i].first << "\n" << err;
        continue;
      }
      std::string got = readAll(f);
      std::vector<uint8_t> g(got.begin(), got.end());
      EXPECT_EQ(g, c.expects[i].second) << "surface " << c.expects[i].first << "\n got:\n"
                                        << hexDump(g) << "\n expected:\n"
                                        << hexDump(c.expects[i].second) << "\n" << err;
    }
    if (c.expectUrb) {
      std::string got = readAll(tmp / "urb.bin");
      std::vector<uint8_t> g(got.begin(), got.end());
      EXPECT_EQ(g, c.urb) << "URB\n got:\n" << hexDump(g) << "\n expected:\n" << hexDump(c.urb);
    }
  }
  fs::remove_all(tmp);
}

TEST_P(SimCase, Run) { runCase(GetParam(), Variant::AsWritten); }
TEST_P(SimCase, SameBytesWithCheck) { runCase(GetParam(), Variant::Check); }
TEST_P(SimCase, SameBytesWithOneHostThread) { runCase(GetParam(), Variant::OneJob); }
TEST_P(SimCase, ReferenceTier) { runCase(GetParam(), Variant::Reference); }
TEST_P(SimCase, ReferenceTierWithCheck) { runCase(GetParam(), Variant::ReferenceCheck); }

std::string caseName(const ::testing::TestParamInfo<Param>& i) {
  std::string n = i.param.name;
  for (auto& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(SimCases, SimCase, ::testing::ValuesIn(caseList("tests/sim/cases")), caseName);
INSTANTIATE_TEST_SUITE_P(SimExamples, SimCase, ::testing::ValuesIn(caseList("examples")), caseName);

// The byte-list syntax of tests/README.md.
TEST(SimCaseFormat, ByteLists) {
  EXPECT_EQ(parseBytes("ff 0a"), (std::vector<uint8_t>{0xff, 0x0a}));
  EXPECT_EQ(parseBytes("zero:3"), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(parseBytes("u16:0x1234*2"), (std::vector<uint8_t>{0x34, 0x12, 0x34, 0x12}));
  EXPECT_EQ(parseBytes("i8:-1 u32:1"), (std::vector<uint8_t>{0xff, 1, 0, 0, 0}));
  EXPECT_EQ(parseBytes("f32:1.5"), (std::vector<uint8_t>{0, 0, 0xc0, 0x3f}));
  EXPECT_EQ(parseBytes("00*2 01"), (std::vector<uint8_t>{0, 0, 1}));
}

}  // namespace
