// The vISA instruction set description: the single source of truth read by
// the parser, printer, verifier, binary codec and simulator.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace visakit {

// Chapter 2 "Data Types": binary type codes (igc-dialect.md §5).
enum class Type : uint8_t {
  UD = 0, D = 1, UW = 2, W = 3, UB = 4, B = 5, DF = 6, F = 7,
  V = 8, VF = 9, BOOL = 10, UQ = 11, UV = 12, Q = 13, HF = 14, BF = 15,
};
constexpr int kNumTypes = 16;

using TypeMask = uint32_t;
constexpr TypeMask bit(Type t) { return TypeMask{1} << static_cast<unsigned>(t); }
template <class... Ts>
constexpr TypeMask types(Ts... ts) { return (bit(ts) | ...); }

unsigned typeSize(Type t);                 // bytes of one element (V/UV/VF: 4)
std::string_view typeName(Type t);         // lower-case text spelling: "ud"
std::optional<Type> parseTypeName(std::string_view s);  // any case
bool isFloat(Type t);
bool isSigned(Type t);
std::string typeListText(TypeMask m);      // "UD, D, F" for diagnostics

// Chapter 3 "Execution Model": exec-size codes 0..5 = 1..32 lanes.
constexpr unsigned execSizeFromCode(unsigned code) { return 1u << code; }
std::optional<unsigned> execCodeFromSize(unsigned size);
constexpr uint8_t execBit(unsigned size) {
  return static_cast<uint8_t>(1u << (size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : size == 16 ? 4 : 5));
}
// Execution-mask control 0..15: M1..M8, M1_NM..M8_NM. Offset = 4*(mask&7).
constexpr unsigned emaskOffset(unsigned emask) { return 4u * (emask & 7u); }
constexpr bool emaskNoMask(unsigned emask) { return (emask & 8u) != 0; }

// Variable alignment codes (chapter 4, var_info bit_properties bits 4-7).
std::string_view alignName(unsigned code);
std::optional<unsigned> parseAlignName(std::string_view s, unsigned grfSize);
unsigned alignBytes(unsigned code, unsigned grfSize);

// Region encoding (chapter 5 "General Operands"): 0 null, 1->0, 2->1, 3->2, 4->4, ...
constexpr uint8_t kRegionNull = 0xff;
std::optional<uint8_t> regionCode(unsigned value);
uint8_t regionValue(uint8_t code);  // kRegionNull for code 0

enum class Opcode : uint8_t {
  ADD = 0x01, MUL = 0x10, AND = 0x20, OR = 0x21, XOR = 0x22, NOT = 0x23, SHL = 0x24, SHR = 0x25,
  MOV = 0x29, SEL = 0x2A, SETP = 0x2B, CMP = 0x2C, LABEL = 0x31, JMP = 0x32, RET = 0x34,
  GOTO = 0x6C, URB_WRITE = 0x72, SCATTER4_SCALED = 0x75, GATHER_SCALED = 0x78,
  SCATTER_SCALED = 0x79, QW_SCATTER = 0x87,
};

// One operand field of an instruction, in binary order (the pages' Format tables).
enum class FieldKind : uint8_t {
  ExecSize,     // ub: bits 0-3 size code, bits 4-7 mask control
  Pred,         // uw: predicate control (chapter 5 "Predication")
  RelOp,        // ub: cmp relation, text suffix .eq/.ne/...
  NumBlocks,    // ub: log2 of the block count, text suffix .1/.2/.4/.8
  ChannelMask,  // ub: RGBA write mask, text suffix .R/.RG/...
  Zero8,        // ub: field the page says is ignored and always zero; no text
  Zero16,       // uw: same
  Int8,         // ub: integer written in decimal in the operand list
  Int16,        // uw: same
  Surface,      // ub: surface id
  VecDst,       // vector operand, destination (general)
  VecSrc,       // vector operand, source (general or immediate)
  PredDst,      // vector operand of class predicate (setp destination)
  CmpDst,       // predicate or general vector operand (cmp destination)
  Raw,          // raw operand: ud var id, uw byte offset
  Label,        // uw label id
};

// How many bytes of a raw operand an instruction touches (pages' operand text).
enum class Footprint : uint8_t {
  None,
  ExecDwords,     // first exec_size UD elements
  Scatter4Src,    // channels * max(exec_size, GRF/4) dwords
  QwSrc,          // num_blocks * exec_size qwords
  Urb8Dwords,     // first 8 dwords
  UrbVertexData,  // num_out GRFs
};

enum FieldFlags : uint8_t {
  kScalar = 1,     // vector source must be a scalar: immediate or region <0;1,0>
  kNullOk = 2,     // raw operand may be %null
  kImmOk = 4,      // vector source may be an immediate
  kNotMod = 8,     // the ~ (not) source modifier is allowed
  kArithMod = 16,  // -, abs modifiers allowed
};

struct FieldDesc {
  FieldKind kind;
  uint8_t width;       // bytes in the binary form; 0 = variable (vector operand)
  const char* name;    // the page's field name, for diagnostics
  int8_t textPos;      // position in the text operand list; -1 = not an operand
  TypeMask types;      // allowed operand types (0 = any)
  uint16_t minVal;     // integer fields: legal range
  uint16_t maxVal;
  Footprint footprint;
  uint8_t flags;
};

enum class InstrClass : uint8_t { Alu, Compare, Memory, Control };

struct InstrDesc {
  Opcode op;
  const char* mnemonic;      // IGC's spelling, printed
  const char* pageMnemonic;  // the spec page's spelling, also accepted
  InstrClass cls;
  uint8_t execSizes;         // bit k: exec size 1<<k legal
  bool sat;                  // .sat allowed
  const char* page;          // spec page for diagnostics and comments
  uint8_t numFields;
  std::array<FieldDesc, 9> fields;

  std::span<const FieldDesc> fieldList() const { return {fields.data(), numFields}; }
  // Index of the field of this kind, or -1.
  int find(FieldKind k) const;
  // Index of the field at text position p, or -1.
  int atTextPos(int p) const;
  int numTextOperands() const;
};

const InstrDesc* lookup(Opcode op);
const InstrDesc* lookup(uint8_t opcode);
const InstrDesc* lookupMnemonic(std::string_view m);
std::span<const InstrDesc> instructionTable();

// Cmp relations: eq ne gt ge lt le (CMP page).
std::string_view relOpName(unsigned r);
std::optional<unsigned> parseRelOp(std::string_view s);

// SCATTER4_SCALED channel-mask suffix in RGBA order (R = bit 0).
std::string channelMaskText(unsigned mask);
std::optional<unsigned> parseChannelMask(std::string_view s);

// Predefined general variables (ids 0..21; 22..31 reserved) and surfaces (0..5).
constexpr unsigned kNumPredefVars = 32;
constexpr unsigned kNumPredefSurfaces = 6;
struct PredefVar {
  const char* name;
  Type type;
  uint16_t numElts;
};
const PredefVar* predefVar(unsigned id);  // nullptr for reserved ids
std::optional<unsigned> predefVarByName(std::string_view name);
std::string_view predefSurfaceName(unsigned id);
std::optional<unsigned> predefSurfaceByName(std::string_view name);
constexpr unsigned kSurfSlm = 0, kSurfScratch = 5;
constexpr unsigned kVarNull = 0, kVarThreadX = 1, kVarThreadY = 2, kVarGroupX = 3,
                   kVarGroupY = 4, kVarGroupZ = 5;

}  // namespace visakit
