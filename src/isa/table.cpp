// The instruction table: one row per instruction, fields in binary order as
// each page's "Format" table gives them. Everything else reads this.
#include <cstring>
#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "isa/rows.hpp"
#include "visakit/isa.hpp"

namespace visakit {
namespace {

using T = Type;
using rows::kRelOps;

struct TypeInfo {
  const char* name;
};
constexpr TypeInfo kTypes[kNumTypes] = {
    {"ud"}, {"d"}, {"uw"}, {"w"}, {"ub"}, {"b"}, {"df"}, {"f"},
    {"v"},  {"vf"}, {"bool"}, {"uq"}, {"uv"}, {"q"}, {"hf"}, {"bf"},
};

// igc-dialect.md §1.1: predefined general variables V0..V21.
constexpr PredefVar kPredefVars[] = {
    {"%null", T::UD, 1},       {"%thread_x", T::UW, 1},   {"%thread_y", T::UW, 1},
    {"%group_id_x", T::UD, 1}, {"%group_id_y", T::UD, 1}, {"%group_id_z", T::UD, 1},
    {"%tsc", T::UD, 5},        {"%r0", T::UD, 8},         {"%arg", T::UD, 256},
    {"%retval", T::UD, 96},    {"%sp", T::UQ, 1},         {"%fp", T::UQ, 1},
    {"%hw_id", T::UD, 1},      {"%sr0", T::UD, 4},        {"%cr0", T::UD, 1},
    {"%ce0", T::UD, 1},        {"%dbg0", T::UD, 2},       {"%color", T::UW, 1},
    {"%impl_arg_buf_ptr", T::UQ, 1}, {"%local_id_buf_ptr", T::UQ, 1},
    {"%msg0", T::UD, 3},       {"%scratchloc", T::UQ, 1},
};
constexpr const char* kPredefSurfaces[kNumPredefSurfaces] = {"%slm", "T1", "T2", "TSS", "%bss", "%scratch"};

}  // namespace

// s == c, inline: names are short, a memcmp / strlen call costs more than the compare.
static bool equalsCStr(std::string_view s, const char* c) {
  for (char x : s)
    if (*c == '\0' || *c++ != x) return false;
  return *c == '\0';
}

std::string_view typeName(Type t) { return kTypes[static_cast<unsigned>(t) & 15].name; }
std::optional<Type> parseTypeName(std::string_view s) {
  // Case-insensitive: the name lowered (at most 4 letters) against the lowercase names.
  if (s.empty() || s.size() > 4) return std::nullopt;
  char low[4];
  for (size_t j = 0; j < s.size(); ++j) {
    char c = s[j];
    low[j] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::string_view l(low, s.size());
  for (int i = 0; i < kNumTypes; ++i)
    if (equalsCStr(l, kTypes[i].name)) return static_cast<Type>(i);
  return std::nullopt;
}
bool isFloat(Type t) { return t == Type::F || t == Type::DF || t == Type::HF || t == Type::BF || t == Type::VF; }
bool isSigned(Type t) {
  return t == Type::D || t == Type::W || t == Type::B || t == Type::Q || t == Type::V || isFloat(t);
}
std::string typeListText(TypeMask m) {
  std::string r;
  for (int i = 0; i < kNumTypes; ++i)
    if (m & (TypeMask{1} << i)) {
      if (!r.empty()) r += ", ";
      for (char c : std::string_view(kTypes[i].name)) r += static_cast<char>(std::toupper(c));
    }
  return r;
}

std::optional<unsigned> execCodeFromSize(unsigned size) {
  for (unsigned c = 0; c < 6; ++c)
    if (execSizeFromCode(c) == size) return c;
  return std::nullopt;
}

namespace {
constexpr const char* kAlignNames[] = {"byte", "word", "dword", "qword", "oword",
                                       "GRF",  "GRFx2", "hword", "wordx32", "wordx64"};
}
std::string_view alignName(unsigned code) { return code < 10 ? kAlignNames[code] : "?"; }
std::optional<unsigned> parseAlignName(std::string_view s, unsigned grfSize) {
  for (unsigned i = 0; i < 10; ++i)
    if (s == kAlignNames[i]) return i;
  if (s == "2GRF") return 6u;
  // Byte counts: 1 2 4 8 16 -> byte..oword; GRF-sized counts -> GRF / GRFx2.
  if (s == "1") return 0u;
  if (s == "2") return 1u;
  if (s == "4") return 2u;
  if (s == "8") return 3u;
  if (s == "16") return 4u;
  if (s == "32") return grfSize == 32 ? 5u : 7u;
  if (s == "64") return grfSize == 32 ? 6u : 5u;
  if (s == "128") return 9u;
  return std::nullopt;
}
unsigned alignBytes(unsigned code, unsigned grfSize) {
  constexpr unsigned fixed[] = {1, 2, 4, 8, 16, 0, 0, 32, 64, 128};
  if (code == 5) return grfSize;
  if (code == 6) return 2 * grfSize;
  return code < 10 ? fixed[code] : 1;
}

std::optional<uint8_t> regionCode(unsigned v) {
  switch (v) {
    case 0: return 1;
    case 1: return 2;
    case 2: return 3;
    case 4: return 4;
    case 8: return 5;
    case 16: return 6;
    case 32: return 7;
    default: return std::nullopt;
  }
}
uint8_t regionValue(uint8_t code) {
  constexpr uint8_t v[] = {kRegionNull, 0, 1, 2, 4, 8, 16, 32};
  return code < 8 ? v[code] : kRegionNull;
}

int InstrDesc::find(FieldKind k) const {
  for (int i = 0; i < numFields; ++i)
    if (fields[i].kind == k) return i;
  return -1;
}
int InstrDesc::findName(std::string_view n) const {
  for (int i = 0; i < numFields; ++i) {  // (character by character: no strlen of the table's names)
    const char* f = fields[i].name;
    size_t k = 0;
    while (k < n.size() && f[k] != '\0' && f[k] == n[k]) ++k;
    if (k == n.size() && f[k] == '\0') return i;
  }
  return -1;
}
int InstrDesc::findName(const char* n) const {
  // The semantics look their fields up by name as they run: first the row's
  // own strings, which the linker usually merges with equal literals.
  for (int i = 0; i < numFields; ++i)
    if (fields[i].name == n) return i;
  for (int i = 0; i < numFields; ++i)
    if (std::strcmp(fields[i].name, n) == 0) return i;
  return -1;
}
int InstrDesc::atTextPos(int p) const {
  for (int i = 0; i < numFields; ++i)
    if (fields[i].textPos == p) return i;
  return -1;
}
int InstrDesc::numTextOperands() const {
  int n = 0;
  for (int i = 0; i < numFields; ++i) n += fields[i].textPos >= 0;
  return n;
}
int InstrDesc::numSources() const {
  int n = 0;
  for (int i = 0; i < numFields; ++i) n += fields[i].kind == FieldKind::Vec && fields[i].access == Access::Read;
  return n;
}

std::optional<uint16_t> EnumDesc::valueOf(std::string_view t) const {
  for (unsigned i = 0; i < count; ++i)
    if (equalsCStr(t, names[i].text)) return names[i].value;
  return std::nullopt;
}
const char* EnumDesc::textOf(uint64_t v) const {
  for (unsigned i = 0; i < count; ++i)
    if (names[i].value == v) return names[i].text;
  return nullptr;
}

// Every family's rows, in one array (rowIndex is a row's place in it).
const std::vector<InstrDesc>& allRows() {
  static const std::vector<InstrDesc> all = [] {
    std::vector<InstrDesc> v;
    for (auto family : {rows::coreRows(), rows::memRows(), rows::aluRows(), rows::lscRows(), rows::ctlRows()})
      v.insert(v.end(), family.begin(), family.end());
    return v;
  }();
  return all;
}

std::span<const InstrDesc> instructionTable() { return allRows(); }

namespace {
// Built once (thread-safe static): the first row of each opcode, and each
// (opcode, sub-opcode) row.
struct OpIndex {
  std::array<const InstrDesc*, 256> first{};
  std::array<bool, 256> subOps{};
  std::vector<std::pair<uint16_t, const InstrDesc*>> bySub;  // (opcode << 8 | sub) sorted
};
const OpIndex& opIndex() {
  static const OpIndex idx = [] {
    OpIndex x;
    for (const auto& d : allRows()) {
      uint8_t op = static_cast<uint8_t>(d.op);
      if (!x.first[op]) x.first[op] = &d;
      if (d.subOp >= 0) {
        x.subOps[op] = true;
        x.bySub.emplace_back(static_cast<uint16_t>(op << 8 | d.subOp), &d);
      }
    }
    std::sort(x.bySub.begin(), x.bySub.end(), [](auto& a, auto& b) { return a.first < b.first; });
    return x;
  }();
  return idx;
}
}  // namespace

const InstrDesc* lookup(uint8_t opcode) { return opIndex().first[opcode]; }
const InstrDesc* lookup(Opcode op) { return lookup(static_cast<uint8_t>(op)); }
bool hasSubOps(uint8_t opcode) { return opIndex().subOps[opcode]; }
const InstrDesc* lookup(uint8_t opcode, uint8_t subOp) {
  const OpIndex& x = opIndex();
  if (!x.subOps[opcode]) return x.first[opcode];
  uint16_t key = static_cast<uint16_t>(opcode << 8 | subOp);
  auto it = std::lower_bound(x.bySub.begin(), x.bySub.end(), key, [](auto& a, uint16_t k) { return a.first < k; });
  return it != x.bySub.end() && it->first == key ? it->second : nullptr;
}
namespace {
// Open-addressing index of both spellings of every mnemonic, built once. The
// first table row with a spelling wins, as a scan of the table would find it.
constexpr size_t kMnemonicSlots = 1024;
size_t mnemonicHash(std::string_view m) {
  auto c = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(m[i])); };
  return (m.size() * 31 + c(0) * 7 + c(m.size() - 1) * 13 + c(m.size() / 2) * 101 + c(m.size() / 3) * 3) & (kMnemonicSlots - 1);
}
struct MnemonicSlot {
  std::string_view name;
  const InstrDesc* desc = nullptr;
};
const std::array<MnemonicSlot, kMnemonicSlots>& mnemonicIndex() {
  static const std::array<MnemonicSlot, kMnemonicSlots> index = [] {
    std::array<MnemonicSlot, kMnemonicSlots> a{};
    auto add = [&](std::string_view n, const InstrDesc* d) {
      for (size_t h = mnemonicHash(n);; h = (h + 1) & (kMnemonicSlots - 1)) {
        if (!a[h].desc) {
          a[h] = {n, d};
          return;
        }
        if (a[h].name == n) return;
      }
    };
    for (const auto& d : allRows()) {
      add(d.mnemonic, &d);
      add(d.pageMnemonic, &d);
      for (std::string_view a = d.aliases ? d.aliases : ""; !a.empty();) {
        size_t bar = a.find('|');
        add(a.substr(0, bar), &d);
        a = bar == std::string_view::npos ? std::string_view{} : a.substr(bar + 1);
      }
    }
    return a;
  }();
  return index;
}
}  // namespace

const InstrDesc* lookupMnemonic(std::string_view m) {
  if (m.empty()) return nullptr;
  const auto& index = mnemonicIndex();
  for (size_t h = mnemonicHash(m); index[h].desc; h = (h + 1) & (kMnemonicSlots - 1))
    if (index[h].name == m) return index[h].desc;
  return nullptr;
}

std::string_view relOpName(unsigned r) {
  const char* n = kRelOps.textOf(r);
  return n ? n : "?";
}
std::optional<unsigned> parseRelOp(std::string_view s) {
  auto v = kRelOps.valueOf(s);
  return v ? std::optional<unsigned>(*v) : std::nullopt;
}

std::string channelMaskText(unsigned mask) {
  std::string r;
  const char* names = "RGBA";
  for (int c = 0; c < 4; ++c)
    if (mask & (1u << c)) r += names[c];
  return r;
}
std::optional<unsigned> parseChannelMask(std::string_view s) {
  // igc-dialect.md §1.4: RGBA subset in R,G,B,A order, case-insensitive.
  unsigned mask = 0;
  int last = -1;
  for (char ch : s) {
    const char* names = "RGBA";
    int c = -1;
    for (int i = 0; i < 4; ++i)
      if (std::toupper(static_cast<unsigned char>(ch)) == names[i]) c = i;
    if (c <= last) return std::nullopt;
    mask |= 1u << c;
    last = c;
  }
  if (mask == 0) return std::nullopt;
  return mask;
}

const PredefVar* predefVar(unsigned id) {
  return id < std::size(kPredefVars) ? &kPredefVars[id] : nullptr;
}
std::optional<unsigned> predefVarByName(std::string_view name) {
  if (name.empty() || name[0] != '%') return std::nullopt;  // every kPredefVars name starts with '%'
  for (unsigned i = 0; i < std::size(kPredefVars); ++i)
    if (name == kPredefVars[i].name) return i;
  return std::nullopt;
}
std::string_view predefSurfaceName(unsigned id) {
  return id < kNumPredefSurfaces ? kPredefSurfaces[id] : "";
}
std::optional<unsigned> predefSurfaceByName(std::string_view name) {
  for (unsigned i = 0; i < kNumPredefSurfaces; ++i)
    if (name == kPredefSurfaces[i]) return i;
  // Pages' spellings (spec-decisions T2): T0 = SLM, T5 = stateless.
  if (name == "T0") return kSurfSlm;
  if (name == "T5") return kSurfScratch;
  return std::nullopt;
}

}  // namespace visakit
