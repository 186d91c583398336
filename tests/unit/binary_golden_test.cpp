// Golden instruction encodings (tests/README.md "binary/"): each instruction
// line of tests/binary/*.visaasm followed by `// ENC: ...` must encode to
// exactly those bytes (worked out by hand from the pages' Format tables), and
// those bytes must decode to an instruction that prints as the line.
#include <algorithm>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include <fmt/format.h>

#include "test_util.hpp"
#include "visakit/visakit.hpp"

using namespace visakit;
namespace fs = std::filesystem;

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::string hex(const std::vector<uint8_t>& b) {
  std::string r;
  for (uint8_t x : b) r += fmt::format("{}{:02x}", r.empty() ? "" : " ", x);
  return r;
}

std::vector<uint8_t> parseHex(const std::string& s) {
  std::vector<uint8_t> r;
  std::istringstream in(s);
  std::string tok;
  while (in >> tok) r.push_back(static_cast<uint8_t>(std::stoul(tok, nullptr, 16)));
  return r;
}

// Every tests/binary/*.visaasm file (one per instruction family).
std::vector<std::string> goldenFiles() {
  std::vector<std::string> r;
  for (const auto& e : fs::directory_iterator(fs::path(VISAKIT_SOURCE_DIR) / "tests/binary"))
    if (e.path().extension() == ".visaasm") r.push_back(e.path().filename().string());
  std::sort(r.begin(), r.end());
  return r;
}

struct Golden {
  size_t line;          // 1-based line of the instruction
  size_t index;         // index in the kernel's code
  std::string text;     // the instruction line, trimmed
  std::vector<uint8_t> bytes;
};

// Instruction lines are the lines that are not blank, not comments and not
// directives; they are numbered like Kernel::code (labels included).
std::vector<Golden> goldens(const std::string& src) {
  std::vector<Golden> out;
  std::istringstream in(src);
  std::string line;
  size_t lineNo = 0, insts = 0;
  std::optional<Golden> last;
  std::string skipLabel;
  while (std::getline(in, line)) {
    ++lineNo;
    std::string t = trim(line);
    if (t.rfind("// ENC:", 0) == 0) {
      EXPECT_TRUE(last) << "line " << lineNo << ": ENC without an instruction before it";
      if (last) {
        last->bytes = parseHex(t.substr(7));
        out.push_back(*last);
        last.reset();
      }
      continue;
    }
    // '.function "NAME"' is the SUBROUTINE instruction; the 'NAME:' after it is part of it.
    if (t.rfind(".function ", 0) == 0) {
      last = Golden{lineNo, insts++, t, {}};
      skipLabel = t.substr(11, t.size() - 12) + ":";
      continue;
    }
    if (!skipLabel.empty() && t == skipLabel) {
      skipLabel.clear();
      continue;
    }
    if (t.empty() || t.rfind("//", 0) == 0 || t[0] == '.' || t == "{" || t == "}") continue;
    last = Golden{lineNo, insts++, t, {}};
  }
  return out;
}

class BinaryGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(BinaryGolden, EncodesToTheGivenBytesAndDecodesBack) {
  fs::path path = fs::path(VISAKIT_SOURCE_DIR) / "tests/binary" / GetParam();
  std::string src = vtest::readAll(path);
  Diagnostics d;
  auto m = parseText(src, d);
  ASSERT_TRUE(m) << d.render(path.string(), src);
  ASSERT_EQ(m->kernels.size(), 1u);
  const Kernel& k = m->kernels[0];
  auto gs = goldens(src);
  ASSERT_FALSE(gs.empty());
  for (const Golden& g : gs) {
    SCOPED_TRACE(fmt::format("{}:{}: {}", GetParam(), g.line, g.text));
    ASSERT_LT(g.index, k.code.size());
    const Instruction& inst = k.code[g.index];
    std::vector<uint8_t> enc;
    encodeInstruction(inst, enc);
    EXPECT_EQ(hex(enc), hex(g.bytes));

    std::string_view bytes(reinterpret_cast<const char*>(g.bytes.data()), g.bytes.size());
    size_t pos = 0;
    Instruction dec;
    std::string err;
    ASSERT_TRUE(decodeInstruction(bytes, pos, dec, err)) << err;
    EXPECT_EQ(pos, g.bytes.size()) << "decoding stopped before the end of the bytes";
    std::string printed = printInstruction(k, dec);
    EXPECT_EQ(printed.substr(0, printed.find('\n')), g.text);
    EXPECT_TRUE(dec == inst);
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BinaryGolden, ::testing::ValuesIn(goldenFiles()),
                         [](const auto& i) { return fs::path(i.param).stem().string(); });

// Between them the golden files cover every instruction of the table.
TEST(BinaryGoldenCoverage, EveryOpcodeOfTheTableHasAGoldenEncoding) {
  std::set<std::pair<unsigned, int>> seen;  // (opcode, sub-opcode or -1)
  for (const std::string& f : goldenFiles())
    for (const Golden& g : goldens(vtest::readAll(fs::path(VISAKIT_SOURCE_DIR) / "tests/binary" / f)))
      if (!g.bytes.empty()) seen.insert({g.bytes[0], hasSubOps(g.bytes[0]) && g.bytes.size() > 1 ? g.bytes[1] : -1});
  for (const InstrDesc& d : instructionTable())
    EXPECT_TRUE(seen.count({static_cast<unsigned>(d.op), d.subOp})) << d.mnemonic << " has no golden encoding";
}

}  // namespace
