// Building blocks of the instruction table's rows, shared by the family
// files (rows_*.cpp): field constructors and the value names of enumerated
// fields. A row lists its fields in binary order (the page's Format table).
#pragma once

#include <span>

#include "visakit/isa.hpp"

namespace visakit::rows {

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
inline constexpr EnumDesc kRelOps{kRelOpNames, 6};
// Num_blocks: log2 of the count (pages' Num_blocks tables).
constexpr EnumName kBlockNames[] = {{0, "1"}, {1, "2"}, {2, "4"}, {3, "8"}};
inline constexpr EnumDesc kBlocks{kBlockNames, 4};
// Channel masks in RGBA order, R = bit 0 (SCATTER4_SCALED page).
constexpr EnumName kChannelNames[] = {{1, "R"},   {2, "G"},   {3, "RG"},   {4, "B"},   {5, "RB"},
                                      {6, "GB"},  {7, "RGB"}, {8, "A"},    {9, "RA"},  {10, "GA"},
                                      {11, "RGA"}, {12, "BA"}, {13, "RBA"}, {14, "GBA"}, {15, "RGBA"}};
inline constexpr EnumDesc kChannels{kChannelNames, 15};

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

// Each family's rows (rows_*.cpp); instructionTable() is all of them.
std::span<const InstrDesc> coreRows();
std::span<const InstrDesc> memRows();
std::span<const InstrDesc> aluRows();
std::span<const InstrDesc> lscRows();
std::span<const InstrDesc> ctlRows();

}  // namespace visakit::rows
