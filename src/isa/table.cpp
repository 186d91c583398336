// The instruction table: one row per instruction, fields in binary order as
// each page's "Format" table gives them. Everything else reads this.
#include <algorithm>
#include <array>
#include <cctype>

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
constexpr uint8_t kArith = kArithMod, kLogic = kNotMod;

constexpr FieldDesc fExec{ExecSize, 1, "Exec_size", -1, 0, 0, 0, None, 0};
constexpr FieldDesc fPred{Pred, 2, "Pred", -1, 0, 0, 0, None, 0};
constexpr FieldDesc dst(TypeMask t) { return {VecDst, 0, "Dst", 0, t, 0, 0, None, 0}; }
constexpr FieldDesc src(const char* n, int pos, TypeMask t, uint8_t mods) {
  return {VecSrc, 0, n, static_cast<int8_t>(pos), t, 0, 0, None, static_cast<uint8_t>(kImmOk | mods)};
}
constexpr FieldDesc raw(const char* n, int pos, TypeMask t, Footprint fp, uint8_t flags = 0) {
  return {Raw, 6, n, static_cast<int8_t>(pos), t, 0, 0, fp, flags};
}
constexpr FieldDesc surface(int pos) { return {Surface, 1, "Surface", static_cast<int8_t>(pos), 0, 0, 0, None, 0}; }
// "Offset(scalar): The global byte offset. Must have type UD"
constexpr FieldDesc globalOffset(int pos) {
  return {VecSrc, 0, "Offset", static_cast<int8_t>(pos), kUD, 0, 0, None, kScalar | kImmOk};
}

constexpr InstrDesc alu2(Opcode op, const char* m, const char* pm, TypeMask t, uint8_t mods, bool sat) {
  return {op, m, pm, InstrClass::Alu, kAllExec, sat, "6_instructions", 5,
          {fExec, fPred, dst(t), src("Src0", 1, t, mods), src("Src1", 2, t, mods)}};
}
constexpr InstrDesc alu1(Opcode op, const char* m, const char* pm, TypeMask t, uint8_t mods, bool sat) {
  return {op, m, pm, InstrClass::Alu, kAllExec, sat, "6_instructions", 4,
          {fExec, fPred, dst(t), src("Src0", 1, t, mods)}};
}
constexpr InstrDesc scaled(Opcode op, const char* m, const char* pm, const char* dataName, const char* page) {
  // GATHER_SCALED / SCATTER_SCALED pages: exec 1-32, Num_blocks 1, 2, 4 bytes.
  return {op, m, pm, InstrClass::Memory, kAllExec, false, page, 9,
          {fExec, fPred, FieldDesc{Zero8, 1, "Block_size", -1, 0, 0, 0, None, 0},
           FieldDesc{NumBlocks, 1, "Num_blocks", -1, 0, 0, 2, None, 0},
           FieldDesc{Zero16, 2, "Scale", -1, 0, 0, 0, None, 0}, surface(0), globalOffset(1),
           raw("Element_offset", 2, kUD, ExecDwords), raw(dataName, 3, kData32, ExecDwords)}};
}

const InstrDesc kTable[] = {
    alu2(Opcode::ADD, "add", "ADD", kNum, kArith, true),
    alu2(Opcode::MUL, "mul", "MUL", kNum, kArith, true),
    alu2(Opcode::AND, "and", "AND", kInt, kLogic, false),
    alu2(Opcode::OR, "or", "OR", kInt, kLogic, false),
    alu2(Opcode::XOR, "xor", "XOR", kInt, kLogic, false),
    alu1(Opcode::NOT, "not", "NOT", kInt, kLogic, false),
    alu2(Opcode::SHL, "shl", "SHL", kInt, kArith, true),
    alu2(Opcode::SHR, "shr", "SHR", kInt, kArith, true),
    alu1(Opcode::MOV, "mov", "MOV", kNum, kArith, true),
    alu2(Opcode::SEL, "sel", "SEL", kNum, kArith, true),
    // SETP page: Exec_size, Dst (predicate), Src0; no predication.
    {Opcode::SETP, "setp", "SETP", InstrClass::Alu, kAllExec, false, "SETP", 3,
     {fExec, FieldDesc{PredDst, 0, "Dst", 0, 0, 0, 0, None, 0},
      src("Src0", 1, types(T::UB, T::UW, T::UD, T::B, T::W, T::D), 0)}},
    // CMP page: Exec_size, Rel_op, Dst, Src0, Src1; no predication.
    {Opcode::CMP, "cmp", "CMP", InstrClass::Compare, kAllExec, false, "CMP", 5,
     {fExec, FieldDesc{RelOp, 1, "Rel_op", -1, 0, 0, 5, None, 0},
      FieldDesc{CmpDst, 0, "Dst", 0, kNum, 0, 0, None, 0}, src("Src0", 1, kNum, kArith),
      src("Src1", 2, kNum, kArith)}},
    {Opcode::LABEL, "label", "LABEL", InstrClass::Control, kAllExec, false, "LABEL", 1,
     {FieldDesc{Label, 2, "Label", -1, 0, 0, 0, None, 0}}},
    {Opcode::JMP, "jmp", "JMP", InstrClass::Control, kAllExec, false, "JMP", 3,
     {fExec, fPred, FieldDesc{Label, 2, "Label", 0, 0, 0, 0, None, 0}}},
    {Opcode::RET, "ret", "RET", InstrClass::Control, kAllExec, false, "RET", 2, {fExec, fPred}},
    {Opcode::GOTO, "goto", "GOTO", InstrClass::Control, kAllExec, false, "GOTO", 3,
     {fExec, fPred, FieldDesc{Label, 2, "Label", 0, 0, 0, 0, None, 0}}},
    // URB_WRITE page: exec 8 only; Num_out 1-8; Global_offset 0-2047. Text order
    // is num_out, global_offset, channel_mask (igc-dialect.md §6.2).
    {Opcode::URB_WRITE, "urb_write_3d", "URB_WRITE", InstrClass::Memory, execBit(8), false, "URB_WRITE", 8,
     {fExec, fPred, FieldDesc{Int8, 1, "Num_out", 0, 0, 1, 8, None, 0},
      raw("Channel_mask", 2, kUD, Urb8Dwords, kNullOk),
      FieldDesc{Int16, 2, "Global_offset", 1, 0, 0, 2047, None, 0},
      raw("URB_handle", 3, kUD, Urb8Dwords), raw("Per_slot_offset", 4, kUD, Urb8Dwords, kNullOk),
      raw("Vertex_data", 5, kData32, UrbVertexData)}},
    // SCATTER4_SCALED page: exec 8, 16; Channels != 0.
    {Opcode::SCATTER4_SCALED, "scatter4_scaled", "SCATTER4_SCALED", InstrClass::Memory,
     static_cast<uint8_t>(execBit(8) | execBit(16)), false, "SCATTER4_SCALED", 8,
     {fExec, fPred, FieldDesc{ChannelMask, 1, "Channels", -1, 0, 1, 15, None, 0},
      FieldDesc{Zero16, 2, "Scale", -1, 0, 0, 0, None, 0}, surface(0), globalOffset(1),
      raw("Element_offset", 2, kUD, ExecDwords), raw("Src", 3, kData32, Scatter4Src)}},
    scaled(Opcode::GATHER_SCALED, "gather_scaled", "GATHER_SCALED", "Dst", "GATHER_SCALED"),
    scaled(Opcode::SCATTER_SCALED, "scatter_scaled", "SCATTER_SCALED", "Src", "SCATTER_SCALED"),
    // QW_SCATTER page: exec 1-16; Num_blocks 0b00 (1 block) only; Src Q, UQ, DF.
    {Opcode::QW_SCATTER, "qw_scatter", "QW_SCATTER", InstrClass::Memory, 0x1F, false, "QW_SCATTER", 6,
     {fExec, fPred, FieldDesc{NumBlocks, 1, "Num_blocks", -1, 0, 0, 0, None, 0}, surface(0),
      raw("Offset", 1, kUD, ExecDwords), raw("Src", 2, types(T::Q, T::UQ, T::DF), QwSrc)}},
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

std::span<const InstrDesc> instructionTable() { return kTable; }
const InstrDesc* lookup(uint8_t opcode) {
  // Built once (thread-safe static): the first table entry of each opcode.
  static const std::array<const InstrDesc*, 256> byOp = [] {
    std::array<const InstrDesc*, 256> a{};
    for (const auto& d : kTable)
      if (!a[static_cast<uint8_t>(d.op)]) a[static_cast<uint8_t>(d.op)] = &d;
    return a;
  }();
  return byOp[opcode];
}
const InstrDesc* lookup(Opcode op) { return lookup(static_cast<uint8_t>(op)); }
namespace {
// Open-addressing index of both spellings of every mnemonic, built once. The
// first table row with a spelling wins, as a scan of the table would find it.
constexpr size_t kMnemonicSlots = 128;
size_t mnemonicHash(std::string_view m) {
  auto c = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(m[i])); };
  return (m.size() * 31 + c(0) * 7 + c(m.size() - 1) * 13 + c(m.size() / 2)) & (kMnemonicSlots - 1);
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

namespace {
constexpr const char* kRelOps[] = {"eq", "ne", "gt", "ge", "lt", "le"};
}
std::string_view relOpName(unsigned r) { return r < 6 ? kRelOps[r] : "?"; }
std::optional<unsigned> parseRelOp(std::string_view s) {
  for (unsigned i = 0; i < 6; ++i)
    if (equalsCStr(s, kRelOps[i])) return i;
  return std::nullopt;
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
