// The vISA instruction set description: the single source of truth read by
// the parser, printer, verifier, binary codec and both simulator tiers.
//
// A row (InstrDesc) is one instruction form: its opcode (and sub-opcode), its
// text spelling, the operand fields in binary order with their byte widths,
// text positions, legal types and ranges, what each field reads and writes
// (its effect and footprint), and the instruction's properties (loads,
// stores, control flow, barriers), as LLVM's instruction records carry
// mayLoad / mayStore / isBranch.
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

// Bytes of one element, in Type order (V/UV/VF: 4); inline, since the
// simulator asks it per lane.
inline constexpr uint8_t kTypeBytes[kNumTypes] = {4, 4, 2, 2, 1, 1, 8, 4, 4, 4, 1, 8, 4, 8, 2, 2};
inline unsigned typeSize(Type t) { return kTypeBytes[static_cast<unsigned>(t) & 15]; }
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

// Every opcode of the instruction pages (their "Opcode" sections).
enum class Opcode : uint8_t {
  ADD = 0x01, AVG = 0x02, DIV = 0x03, DP2 = 0x04, DP3 = 0x05, DP4 = 0x06, DPH = 0x07, EXP = 0x08,
  FRC = 0x09, LINE = 0x0a, LOG = 0x0b, MAD = 0x0c, MULH = 0x0d, LRP = 0x0e, MOD = 0x0f, MUL = 0x10,
  POW = 0x11, RNDD = 0x12, RNDU = 0x13, RNDE = 0x14, RNDZ = 0x15, SAD2 = 0x16, SIN = 0x17, COS = 0x18,
  SQRT = 0x19, RSQRT = 0x1a, INV = 0x1b, DPASW = 0x1c, FCVT = 0x1d, SRND = 0x1e, LZD = 0x1f,
  AND = 0x20, OR = 0x21, XOR = 0x22, NOT = 0x23, SHL = 0x24, SHR = 0x25, ASR = 0x26, CBIT = 0x27,
  ADDR_ADD = 0x28, MOV = 0x29, SEL = 0x2A, SETP = 0x2B, CMP = 0x2C, MOVS = 0x2D, FBL = 0x2E, FBH = 0x2F,
  SUBROUTINE = 0x30, LABEL = 0x31, JMP = 0x32, CALL = 0x33, RET = 0x34, OWORD_LD = 0x35, OWORD_ST = 0x36,
  MEDIA_LD = 0x37, MEDIA_ST = 0x38, GATHER = 0x39, SCATTER = 0x3a, OWORD_LD_UNALIGNED = 0x3c,
  SAMPLE_UNORM = 0x41, AVS = 0x43, FMINMAX = 0x45, BFE = 0x46, BFI = 0x47, BFREV = 0x48, ADDC = 0x49,
  SUBB = 0x4a, GATHER4_TYPED = 0x4b, SCATTER4_TYPED = 0x4c, SVM = 0x4e, IFCALL = 0x4f, FADDR = 0x50,
  FILE = 0x51, LOC = 0x52, VME_IME = 0x54, VME_SIC = 0x55, VME_FBR = 0x56, VME_IDM = 0x57, BARRIER = 0x59,
  SAMPLR_CACHE_FLUSH = 0x5a, WAIT = 0x5b, FENCE = 0x5c, RAW_SEND = 0x5d, YIELD = 0x5f, NBARRIER = 0x60,
  FCALL = 0x67, FRET = 0x68, SWITCHJMP = 0x69, SAD2ADD = 0x6a, PLANE = 0x6b, GOTO = 0x6C,
  SAMPLE_3D = 0x6d, LOAD_3D = 0x6e, GATHER4_3D = 0x6f, INFO_3D = 0x70, RT_WRITE_3D = 0x71,
  URB_WRITE = 0x72, TYPED_ATOMIC = 0x73, GATHER4_SCALED = 0x74, SCATTER4_SCALED = 0x75,
  GATHER_SCALED = 0x78, SCATTER_SCALED = 0x79, RAW_SENDS = 0x7a, LIFETIME = 0x7b, SBARRIER = 0x7c,
  DWORD_ATOMIC = 0x7d, SQRTM = 0x7e, DIVM = 0x7f, ROL = 0x80, ROR = 0x81, DP4A = 0x82, DPAS = 0x83,
  ADD3 = 0x84, BFN = 0x85, QW_GATHER = 0x86, QW_SCATTER = 0x87, LSC_UNTYPED = 0x89, LSC_TYPED = 0x8a,
  LSC_FENCE = 0x8b, RT_READ = 0x90, MADW = 0x91, ADD3O = 0x92, INVM = 0x9b, RSQTM = 0x9c,
};

// One field of an instruction, in binary order (the pages' Format tables).
enum class FieldKind : uint8_t {
  ExecSize,  // ub: bits 0-3 size code, bits 4-7 mask control
  Pred,      // uw: predicate control (chapter 5 "Predication")
  SubOp,     // ub: picks the row among an opcode's rows (SVM, LSC, ...); spelled by the mnemonic
  Enum,      // `width`-byte integer whose values have names (FieldDesc::names)
  Int,       // `width`-byte integer, written as a number (kSigned: two's complement)
  Zero,      // `width`-byte field the page says is ignored and always zero; no text
  Surface,   // ub: surface id
  Sampler,   // ub: sampler id
  Vec,       // vector operand (a tag byte, then the class's fields)
  Raw,       // raw operand: ud var id, uw byte offset
  Label,     // uw: label id
  String,    // `width`-byte index of a string (a file or function name): Operand::value = Kernel::strings index
};

// Classes of vector operands (chapter 5; the tag's bits 0-2 in the binary).
enum class VecClass : uint8_t { General = 0, Address = 1, Predicate = 2, Indirect = 3, AddressOf = 4, Immediate = 5, State = 6 };
constexpr uint8_t cls(VecClass c) { return static_cast<uint8_t>(1u << static_cast<unsigned>(c)); }
constexpr uint8_t kG = cls(VecClass::General), kA = cls(VecClass::Address), kP = cls(VecClass::Predicate),
                  kI = cls(VecClass::Indirect), kAO = cls(VecClass::AddressOf), kImm = cls(VecClass::Immediate),
                  kS = cls(VecClass::State);

// What an instruction does with a field (its effect).
enum class Access : uint8_t { None, Read, Write, ReadWrite };

// How many bytes of a raw operand an instruction touches (pages' operand texts).
enum class Footprint : uint8_t {
  None,
  ExecDwords,     // first exec_size UD elements
  ExecQwords,     // first exec_size UQ elements
  Scatter4Src,    // channels * max(exec_size, GRF/4) dwords
  QwSrc,          // num_blocks * exec_size qwords
  Urb8Dwords,     // first 8 dwords
  UrbVertexData,  // num_out GRFs
  Owords,         // OWORD_LD/ST, SVM_BLOCK_LD/ST: 16 << (Size or Properties & 7) bytes
  SvmData,        // SVM_GATHER/SCATTER: num_blocks * exec_size * block_size (1-byte: exec_size * max(4, num_blocks))
  AtomicData,     // exec_size dwords, qwords for a 64-bit atomic (Op bit 6)
  GatherElts,     // GATHER/SCATTER: 8, 16 or 1 dwords (Num_elts bits 0-1)
  MediaBlock,     // MEDIA_LD/ST: block_height * register pitch
  Lsc,            // LSC messages: from the data shape and address size (isa/lsc.hpp)
  RawSendSrc,     // RAW_SEND: NumSrc GRFs
  RawSendsSrc0,   // RAW_SENDS: NumSrc0 GRFs
  RawSendsSrc1,   // RAW_SENDS: NumSrc1 GRFs
  RawSendDst,     // RAW_SEND(S): NumDst GRFs
};

enum FieldFlags : uint16_t {
  kScalar = 1,     // vector source must be a scalar: immediate or region <0;1,0>
  kNullOk = 2,     // raw operand may be %null
  kNotMod = 4,     // the ~ (not) source modifier is allowed
  kArithMod = 8,   // -, abs modifiers allowed
  kSigned = 16,    // Int: two's complement
  kParen = 32,     // Enum/Int in the text: "(N)" where the execution size would be
  kQuoted = 64,    // String: printed as a string literal
  kCount = 128,    // Int: how many of the kCounted fields after it are present
  kCounted = 256,  // present only while the preceding kCount field's count lasts (SWITCHJMP labels)
};

// The text names of an Enum field's values.
struct EnumName {
  uint16_t value;
  const char* text;
};
struct EnumDesc {
  const EnumName* names;
  uint8_t count;
  std::optional<uint16_t> valueOf(std::string_view text) const;
  const char* textOf(uint64_t value) const;  // nullptr if the value has no name
};

struct FieldDesc {
  FieldKind kind;
  uint8_t width = 0;         // bytes in the binary form; 0 = variable (vector operand)
  const char* name = "";     // the page's field name, for diagnostics
  int8_t textPos = -1;       // position in the text operand list; -1 = not an operand
  int8_t suffix = -1;        // position among the mnemonic's ".x" suffixes; -1 = none
  Access access = Access::None;
  uint8_t classes = 0;       // Vec: allowed operand classes (kG | kImm | ...)
  TypeMask types = 0;        // allowed operand types (0 = any)
  uint32_t minVal = 0;       // Enum / Int fields: legal range
  uint32_t maxVal = 0xffffffffu;
  Footprint footprint = Footprint::None;
  uint16_t flags = 0;
  const EnumDesc* names = nullptr;  // Enum
};

enum class InstrClass : uint8_t { Alu, Compare, Memory, Control, Sync, Misc };

// Properties of a row, as LLVM's mayLoad / mayStore / isBranch / hasSideEffects.
enum InstrProps : uint32_t {
  kMayLoad = 1,       // reads memory (surface, SLM, scratch, URB, flat)
  kMayStore = 2,      // writes memory
  kControl = 4,       // changes the program counter or the lanes that run (branch, call, return)
  kBarrier = 8,       // waits for the other threads of the thread group
  kFence = 16,        // orders memory accesses
  kAtomic = 32,       // read-modify-write of memory
  kIntOnly = 64,      // operates on integers only (logic, shifts)
  kNoExec = 128,      // no execution size (LABEL, FILE, LOC, ...): not a step of its own
  kSideEffect = 256,  // changes state that is not an operand (surface state, ...)
  kUrb = 512,         // its memory is the URB (not a surface)
  kJoin = 1024,       // a place branches reach: lanes parked there rejoin (LABEL, SUBROUTINE)
};

// How the text of a row is laid out: Generic is "[(P)] mnemonic{.suffix}[.sat]
// [(M, N)] operands", read and printed from the fields; the others name a
// family whose text the text layer reads and prints itself (src/text/syntax*).
enum class Syntax : uint8_t { Generic, Label, Function, Mem, Alu, Lsc, Ctl };

constexpr size_t kMaxFields = 24;

struct InstrDesc {
  Opcode op;
  int16_t subOp = -1;         // SubOp value of this row, or -1
  const char* mnemonic;       // IGC's spelling, printed
  const char* pageMnemonic;   // the spec page's spelling, also accepted
  InstrClass cls;
  uint8_t execSizes;          // bit k: exec size 1<<k legal
  bool sat;                   // .sat allowed
  const char* page;           // spec page for diagnostics and comments
  uint32_t props = 0;         // InstrProps
  Syntax syntax = Syntax::Generic;
  // Further spellings that name the row ("fence_sw|fence_local"), read by its custom syntax.
  const char* aliases = nullptr;
  uint8_t numFields = 0;
  std::array<FieldDesc, kMaxFields> fields{};

  std::span<const FieldDesc> fieldList() const { return {fields.data(), numFields}; }
  bool has(InstrProps p) const { return (props & p) != 0; }
  // Index of the first field of this kind, or -1.
  int find(FieldKind k) const;
  // Index of the field with the page's name, or -1.
  int findName(std::string_view name) const;
  int findName(const char* name) const;
  // Index of the field at text position p, or -1.
  int atTextPos(int p) const;
  int numTextOperands() const;
  // Vector fields the instruction reads (its sources), in field order.
  int numSources() const;
};

// Rows. An opcode with sub-opcodes has one row per sub-opcode value; lookup(op)
// gives its first row, lookup(op, sub) the row of that sub-opcode.
const InstrDesc* lookup(Opcode op);
const InstrDesc* lookup(uint8_t opcode);
const InstrDesc* lookup(uint8_t opcode, uint8_t subOp);
bool hasSubOps(uint8_t opcode);
const InstrDesc* lookupMnemonic(std::string_view m);
std::span<const InstrDesc> instructionTable();
// Index of a row in instructionTable().
inline size_t rowIndex(const InstrDesc& d) { return static_cast<size_t>(&d - instructionTable().data()); }

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
constexpr unsigned kSurfSlm = 0, kSurfBss = 4, kSurfScratch = 5;
constexpr unsigned kVarNull = 0, kVarThreadX = 1, kVarThreadY = 2, kVarGroupX = 3,
                   kVarGroupY = 4, kVarGroupZ = 5, kVarCr0 = 14;

}  // namespace visakit
