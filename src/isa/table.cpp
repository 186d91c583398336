// The instruction table: one row per instruction, fields in binary order as
// each page's "Format" table gives them. Everything else reads this.
#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "visakit/isa.hpp"

namespace visakit {
namespace {

using enum FieldKind;
using enum Footprint;
using T = Type;

constexpr TypeMask kInt = types(T::B, T::UB, T::W, T::UW, T::D, T::UD, T::Q, T::UQ);
constexpr TypeMask kNum = kInt | types(T::F, T::DF, T::HF);
constexpr TypeMask kData32 = types(T::UD, T::D, T::F);   // "Must have type UD,D,F"
constexpr TypeMask kUD = types(T::UD);
constexpr uint8_t kAllExec = 0x3F;                       // 1, 2, 4, 8, 16, 32
constexpr uint16_t kArith = kArithMod, kLogic = kNotMod;
constexpr Access R = Access::Read, W = Access::Write;

// Value names of the enumerated fields.
constexpr EnumName kRelOpNames[] = {{0, "eq"}, {1, "ne"}, {2, "gt"}, {3, "ge"}, {4, "lt"}, {5, "le"}};
constexpr EnumDesc kRelOps{kRelOpNames, 6};
// Num_blocks: log2 of the count (pages' Num_blocks tables).
constexpr EnumName kBlockNames[] = {{0, "1"}, {1, "2"}, {2, "4"}, {3, "8"}};
constexpr EnumDesc kBlocks{kBlockNames, 4};
// Channel masks in RGBA order, R = bit 0 (SCATTER4_SCALED page).
constexpr EnumName kChannelNames[] = {{1, "R"},   {2, "G"},   {3, "RG"},   {4, "B"},   {5, "RB"},
                                      {6, "GB"},  {7, "RGB"}, {8, "A"},    {9, "RA"},  {10, "GA"},
                                      {11, "RGA"}, {12, "BA"}, {13, "RBA"}, {14, "GBA"}, {15, "RGBA"}};
constexpr EnumDesc kChannels{kChannelNames, 15};

constexpr FieldDesc fExec{.kind = ExecSize, .width = 1, .name = "Exec_size"};
constexpr FieldDesc fPred{.kind = Pred, .width = 2, .name = "Pred"};
constexpr FieldDesc zero(unsigned width, const char* n) { return {.kind = Zero, .width = static_cast<uint8_t>(width), .name = n, .maxVal = 0}; }
constexpr FieldDesc intField(unsigned width, const char* n, int pos, uint32_t lo, uint32_t hi) {
  return {.kind = Int, .width = static_cast<uint8_t>(width), .name = n, .textPos = static_cast<int8_t>(pos), .minVal = lo, .maxVal = hi};
}
constexpr FieldDesc suffixEnum(const char* n, int suffix, const EnumDesc& e, uint32_t lo, uint32_t hi) {
  return {.kind = Enum, .width = 1, .name = n, .suffix = static_cast<int8_t>(suffix), .minVal = lo, .maxVal = hi, .names = &e};
}
constexpr FieldDesc dst(TypeMask t, uint8_t classes = kG) {
  return {.kind = Vec, .name = "Dst", .textPos = 0, .access = W, .classes = classes, .types = t};
}
constexpr FieldDesc src(const char* n, int pos, TypeMask t, uint16_t mods, uint8_t classes = kG | kImm) {
  return {.kind = Vec, .name = n, .textPos = static_cast<int8_t>(pos), .access = R, .classes = classes, .types = t, .flags = mods};
}
constexpr FieldDesc raw(const char* n, int pos, Access a, TypeMask t, Footprint fp, uint16_t flags = 0) {
  return {.kind = Raw, .width = 6, .name = n, .textPos = static_cast<int8_t>(pos), .access = a, .types = t, .footprint = fp, .flags = flags};
}
constexpr FieldDesc surface(int pos) { return {.kind = Surface, .width = 1, .name = "Surface", .textPos = static_cast<int8_t>(pos)}; }
constexpr FieldDesc label(int pos) { return {.kind = Label, .width = 2, .name = "Label", .textPos = static_cast<int8_t>(pos)}; }
// "Offset(scalar): The global byte offset. Must have type UD"
constexpr FieldDesc globalOffset(int pos) {
  return {.kind = Vec, .name = "Offset", .textPos = static_cast<int8_t>(pos), .access = R, .classes = kG | kImm, .types = kUD, .flags = kScalar};
}

constexpr InstrDesc alu2(Opcode op, const char* m, const char* pm, TypeMask t, uint16_t mods, bool sat, uint32_t props = 0,
                         uint8_t classes = kG) {
  return {.op = op, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Alu, .execSizes = kAllExec, .sat = sat,
          .page = pm, .props = props, .numFields = 5,
          .fields = {fExec, fPred, dst(t, classes), src("Src0", 1, t, mods, classes | kImm), src("Src1", 2, t, mods, classes | kImm)}};
}
constexpr InstrDesc alu1(Opcode op, const char* m, const char* pm, TypeMask t, uint16_t mods, bool sat, uint32_t props = 0,
                         uint8_t classes = kG) {
  return {.op = op, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Alu, .execSizes = kAllExec, .sat = sat,
          .page = pm, .props = props, .numFields = 4,
          .fields = {fExec, fPred, dst(t, classes), src("Src0", 1, t, mods, classes | kImm)}};
}
constexpr InstrDesc scaled(Opcode op, const char* m, const char* pm, const char* dataName, Access data, uint32_t props) {
  // GATHER_SCALED / SCATTER_SCALED pages: exec 1-32, Num_blocks 1, 2, 4 bytes.
  return {.op = op, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Memory, .execSizes = kAllExec, .sat = false,
          .page = pm, .props = props, .numFields = 9,
          .fields = {fExec, fPred, zero(1, "Block_size"), suffixEnum("Num_blocks", 0, kBlocks, 0, 2), zero(2, "Scale"),
                     surface(0), globalOffset(1), raw("Element_offset", 2, R, kUD, ExecDwords),
                     raw(dataName, 3, data, kData32, ExecDwords)}};
}

const InstrDesc kTable[] = {
    alu2(Opcode::ADD, "add", "ADD", kNum, kArith, true),
    alu2(Opcode::MUL, "mul", "MUL", kNum, kArith, true),
    // AND, OR, XOR, NOT pages: integer or predicate operands.
    alu2(Opcode::AND, "and", "AND", kInt, kLogic, false, kIntOnly, kG | kP),
    alu2(Opcode::OR, "or", "OR", kInt, kLogic, false, kIntOnly, kG | kP),
    alu2(Opcode::XOR, "xor", "XOR", kInt, kLogic, false, kIntOnly, kG | kP),
    alu1(Opcode::NOT, "not", "NOT", kInt, kLogic, false, kIntOnly, kG | kP),
    alu2(Opcode::SHL, "shl", "SHL", kInt, kArith, true, kIntOnly),
    alu2(Opcode::SHR, "shr", "SHR", kInt, kArith, true, kIntOnly),
    // MOV page: src0 may be a predicate (with exec size 1).
    {.op = Opcode::MOV, .mnemonic = "mov", .pageMnemonic = "MOV", .cls = InstrClass::Alu, .execSizes = kAllExec, .sat = true,
     .page = "MOV", .numFields = 4, .fields = {fExec, fPred, dst(kNum), src("Src0", 1, kNum, kArith, kG | kImm | kP)}},
    alu2(Opcode::SEL, "sel", "SEL", kNum, kArith, true),
    // SETP page: Exec_size, Dst (predicate), Src0; no predication.
    {.op = Opcode::SETP, .mnemonic = "setp", .pageMnemonic = "SETP", .cls = InstrClass::Alu, .execSizes = kAllExec,
     .sat = false, .page = "SETP", .props = kIntOnly, .numFields = 3,
     .fields = {fExec, FieldDesc{.kind = Vec, .name = "Dst", .textPos = 0, .access = W, .classes = kP},
                src("Src0", 1, types(T::UB, T::UW, T::UD, T::B, T::W, T::D), 0)}},
    // CMP page: Exec_size, Rel_op, Dst, Src0, Src1; no predication.
    {.op = Opcode::CMP, .mnemonic = "cmp", .pageMnemonic = "CMP", .cls = InstrClass::Compare, .execSizes = kAllExec,
     .sat = false, .page = "CMP", .numFields = 5,
     .fields = {fExec, suffixEnum("Rel_op", 0, kRelOps, 0, 5),
                FieldDesc{.kind = Vec, .name = "Dst", .textPos = 0, .access = W, .classes = kG | kP, .types = kNum},
                src("Src0", 1, kNum, kArith), src("Src1", 2, kNum, kArith)}},
    {.op = Opcode::LABEL, .mnemonic = "label", .pageMnemonic = "LABEL", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "LABEL", .props = kNoExec, .syntax = Syntax::Label, .numFields = 1,
     .fields = {FieldDesc{.kind = Label, .width = 2, .name = "Label"}}},
    // SUBROUTINE page: starts a subroutine; printed '.function "NAME"' then 'NAME:'.
    {.op = Opcode::SUBROUTINE, .mnemonic = "func", .pageMnemonic = "SUBROUTINE", .cls = InstrClass::Control,
     .execSizes = kAllExec, .sat = false, .page = "SUBROUTINE", .props = kNoExec, .syntax = Syntax::Function,
     .numFields = 1, .fields = {FieldDesc{.kind = Label, .width = 2, .name = "Label"}}},
    {.op = Opcode::JMP, .mnemonic = "jmp", .pageMnemonic = "JMP", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "JMP", .props = kControl, .numFields = 3, .fields = {fExec, fPred, label(0)}},
    {.op = Opcode::RET, .mnemonic = "ret", .pageMnemonic = "RET", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "RET", .props = kControl, .numFields = 2, .fields = {fExec, fPred}},
    {.op = Opcode::GOTO, .mnemonic = "goto", .pageMnemonic = "GOTO", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "GOTO", .props = kControl, .numFields = 3, .fields = {fExec, fPred, label(0)}},
    // URB_WRITE page: exec 8 only; Num_out 1-8; Global_offset 0-2047. Text order
    // is num_out, global_offset, channel_mask (igc-dialect.md §6.2).
    {.op = Opcode::URB_WRITE, .mnemonic = "urb_write_3d", .pageMnemonic = "URB_WRITE", .cls = InstrClass::Memory,
     .execSizes = execBit(8), .sat = false, .page = "URB_WRITE", .props = kMayStore | kUrb, .numFields = 8,
     .fields = {fExec, fPred, intField(1, "Num_out", 0, 1, 8), raw("Channel_mask", 2, R, kUD, Urb8Dwords, kNullOk),
                intField(2, "Global_offset", 1, 0, 2047), raw("URB_handle", 3, R, kUD, Urb8Dwords),
                raw("Per_slot_offset", 4, R, kUD, Urb8Dwords, kNullOk), raw("Vertex_data", 5, R, kData32, UrbVertexData)}},
    // SCATTER4_SCALED page: exec 8, 16; Channels != 0.
    {.op = Opcode::SCATTER4_SCALED, .mnemonic = "scatter4_scaled", .pageMnemonic = "SCATTER4_SCALED",
     .cls = InstrClass::Memory, .execSizes = static_cast<uint8_t>(execBit(8) | execBit(16)), .sat = false,
     .page = "SCATTER4_SCALED", .props = kMayStore, .numFields = 8,
     .fields = {fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), zero(2, "Scale"), surface(0), globalOffset(1),
                raw("Element_offset", 2, R, kUD, ExecDwords), raw("Src", 3, R, kData32, Scatter4Src)}},
    scaled(Opcode::GATHER_SCALED, "gather_scaled", "GATHER_SCALED", "Dst", W, kMayLoad),
    scaled(Opcode::SCATTER_SCALED, "scatter_scaled", "SCATTER_SCALED", "Src", R, kMayStore),
    // QW_SCATTER page: exec 1-16; Num_blocks 0b00 (1 block) only; Src Q, UQ, DF.
    {.op = Opcode::QW_SCATTER, .mnemonic = "qw_scatter", .pageMnemonic = "QW_SCATTER", .cls = InstrClass::Memory,
     .execSizes = 0x1F, .sat = false, .page = "QW_SCATTER", .props = kMayStore, .numFields = 6,
     .fields = {fExec, fPred, suffixEnum("Num_blocks", 0, kBlocks, 0, 0), surface(0),
                raw("Offset", 1, R, kUD, ExecDwords), raw("Src", 2, R, types(T::Q, T::UQ, T::DF), QwSrc)}},
};

struct TypeInfo {
  const char* name;
  unsigned size;
};
constexpr TypeInfo kTypes[kNumTypes] = {
    {"ud", 4}, {"d", 4}, {"uw", 2}, {"w", 2}, {"ub", 1}, {"b", 1}, {"df", 8}, {"f", 4},
    {"v", 4},  {"vf", 4}, {"bool", 1}, {"uq", 8}, {"uv", 4}, {"q", 8}, {"hf", 2}, {"bf", 2},
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

unsigned typeSize(Type t) { return kTypes[static_cast<unsigned>(t) & 15].size; }
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
  for (int i = 0; i < numFields; ++i)
    if (n == fields[i].name) return i;
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

std::span<const InstrDesc> instructionTable() { return kTable; }

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
    for (const auto& d : kTable) {
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
    for (const auto& d : kTable) {
      add(d.mnemonic, &d);
      add(d.pageMnemonic, &d);
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
