// The in-memory form of a vISA module: kernels, declarations, instructions.
// Both the text parser and the binary reader produce it; the printer, the
// binary writer, the verifier and the simulator consume it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "visakit/isa.hpp"

namespace visakit {

struct SrcLoc {
  uint32_t line = 0;  // 1-based; 0 = no source line (binary input)
  uint32_t col = 0;   // 1-based
  uint32_t len = 0;   // length of the offending text
  bool operator==(const SrcLoc&) const = default;
};

struct Attribute {
  enum class Kind : uint8_t { Bool, Int, Str };
  std::string name;
  Kind kind = Kind::Bool;
  int64_t intVal = 0;
  uint8_t intSize = 4;  // binary size of an int attribute (1, 2 or 4)
  std::string strVal;
  bool operator==(const Attribute& o) const {
    return name == o.name && kind == o.kind && intVal == o.intVal && strVal == o.strVal;
  }
};

// General variable (v_type=G). Id = 32 + index in Kernel::vars.
struct GenVar {
  std::string name;
  Type type = Type::UD;
  uint16_t numElts = 1;
  uint8_t align = 0;        // alignment code (chapter 4)
  uint32_t aliasBase = 0;   // general var id; 0 = not an alias
  uint16_t aliasOffset = 0; // bytes
  std::vector<Attribute> attrs;
  SrcLoc loc;
  bool operator==(const GenVar& o) const {
    return name == o.name && type == o.type && numElts == o.numElts && align == o.align &&
           aliasBase == o.aliasBase && aliasOffset == o.aliasOffset && attrs == o.attrs;
  }
};

// Predicate, address, sampler and surface variables.
// Predicate id = 1 + index; address id = index; sampler id = index;
// surface id = 6 + index.
struct SimpleVar {
  std::string name;      // surfaces/samplers: the v_name (or the declared name)
  std::string declName;  // the name in the text's .decl (not part of the kernel's identity)
  uint16_t numElts = 1;
  std::vector<Attribute> attrs;
  SrcLoc loc;
  bool operator==(const SimpleVar& o) const {
    return name == o.name && numElts == o.numElts && attrs == o.attrs;
  }
};

struct Input {
  enum class Class : uint8_t { General = 0, Sampler = 1, Surface = 2 };
  Class cls = Class::General;
  uint8_t implicitKind = 0;  // bits 3-7 of the kind byte
  uint32_t id = 0;           // general var id (>=32), sampler id or surface id (>=6)
  int16_t offset = 0;        // byte offset in the input payload
  uint16_t size = 0;
  SrcLoc loc;
  bool operator==(const Input& o) const {
    return cls == o.cls && implicitKind == o.implicitKind && id == o.id && offset == o.offset &&
           size == o.size;
  }
};

struct LabelDecl {
  std::string name;
  uint8_t kind = 0;  // 0 block, 1 subroutine, 2 fc, 3 function
  SrcLoc loc;        // where defined (line 0 if never defined)
  bool defined = false;
  bool operator==(const LabelDecl& o) const { return name == o.name && kind == o.kind; }
};

enum class Mod : uint8_t { None = 0, Abs = 1, Neg = 2, NegAbs = 3, Sat = 4, Not = 5 };

struct Region {
  uint8_t vs = kRegionNull, w = kRegionNull, hs = kRegionNull;  // values, kRegionNull = absent
  bool operator==(const Region&) const = default;
};

// One operand field of an instruction. Which members matter depends on kind:
//   General    id (variable), row, col, region, mod
//   Address    id (address variable), col = element offset, region.w = width
//   Predicate  id (predicate variable), mod
//   Indirect   id (address variable), col = its element, value = the signed
//              immediate byte offset (two's complement, 16 bits), type, region, mod
//   AddressOf  id (general variable, or surface/sampler when row = 1/2),
//              offset = byte offset
//   Immediate  type, value
//   State      id (surface, or sampler when row = 1), col = element offset
//   Raw        id (variable), offset = byte offset
//   Surface, Sampler, Label  id
//   Int        value (Enum, Int, Zero and SubOp fields; String fields: index in Kernel::strings)
struct Operand {
  enum class Kind : uint8_t {
    None,       // field not present (exec/pred slots, zero fields)
    General,    // var(row,col)<region>
    Address,    // A0(off)<width>
    Predicate,  // predicate variable as a vector operand
    Indirect,   // r[A0(off), imm]<region>:type
    AddressOf,  // &var[off]
    Immediate,  // value:type
    State,      // T6(off): a surface's (or sampler's) state as an operand
    Raw,        // var.offset
    Surface,    // surface id
    Sampler,    // sampler id
    Label,      // label id
    Int,        // integer field (enums, counts, suffix values)
  };
  Kind kind = Kind::None;
  Mod mod = Mod::None;
  Type type = Type::UD;  // immediate / indirect type
  uint8_t row = 0, col = 0;
  uint16_t offset = 0;   // raw / address-of byte offset
  uint32_t id = 0;       // var / predicate / surface / label id
  uint64_t value = 0;    // immediate bits (LE, width of type; narrow ints extended to 32) or int field
  Region region;
  SrcLoc loc;
  bool operator==(const Operand& o) const {
    return kind == o.kind && mod == o.mod && type == o.type && row == o.row && col == o.col &&
           offset == o.offset && id == o.id && value == o.value && region == o.region;
  }
};

struct PredCtl {
  uint16_t id = 0;      // 0 = none
  uint8_t control = 0;  // 0 none, 1 any, 2 all
  bool invert = false;
  bool operator==(const PredCtl&) const = default;
};


// The operands of an instruction, indexed like InstrDesc::fields, as many as
// were set: a field past them reads as absent (Kind::None), and setting one
// makes room for it. The first kInline are inside the instruction (the rows
// of the common instructions have no more), the rest out of line. Two Fields
// are equal when every field is, absent ones included.
class Fields {
 public:
  static constexpr size_t kInline = 8;
  const Operand& operator[](size_t i) const {
    return i >= n_ ? absent() : i < kInline ? in_[i] : more_[i - kInline];
  }
  Operand& operator[](size_t i) {
    if (i >= n_) resize(i + 1);
    return i < kInline ? in_[i] : more_[i - kInline];
  }
  // Makes room for n fields (a row's numFields) at once; references to fields stay valid after it.
  void resize(size_t n) {
    n_ = static_cast<uint8_t>(n);
    if (n > kInline) more_.resize(n - kInline);
  }
  size_t size() const { return n_; }
  bool operator==(const Fields& o) const {
    for (size_t i = 0; i < std::max<size_t>(n_, o.n_); ++i)
      if (!((*this)[i] == o[i])) return false;
    return true;
  }

 private:
  static const Operand& absent() {
    static const Operand none;
    return none;
  }
  std::array<Operand, kInline> in_{};
  std::vector<Operand> more_;
  uint8_t n_ = 0;
};

struct Instruction {
  Opcode op = Opcode::RET;
  int16_t subOp = -1;    // the row's sub-opcode, or -1
  uint8_t execCode = 0;  // 0..5
  uint8_t emask = 0;     // 0..15
  PredCtl pred;
  bool sat = false;
  Fields f;                           // indexed like InstrDesc::fields
  SrcLoc loc;                         // the mnemonic
  unsigned execSize() const { return execSizeFromCode(execCode); }
  bool operator==(const Instruction& o) const {
    return op == o.op && subOp == o.subOp && execCode == o.execCode && emask == o.emask && pred == o.pred &&
           sat == o.sat && f == o.f;
  }
};

struct Kernel {
  std::string name;
  bool isFunction = false;
  std::vector<GenVar> vars;         // user general vars, id 32+i
  std::vector<SimpleVar> addrs;     // id i
  std::vector<SimpleVar> preds;     // id 1+i
  std::vector<SimpleVar> samplers;  // id i
  std::vector<SimpleVar> surfaces;  // id 6+i
  std::vector<LabelDecl> labels;    // id i
  std::vector<Input> inputs;
  std::vector<Attribute> attrs;
  std::vector<Instruction> code;
  // Strings the instructions name (String fields: FILE's file name, FCALL's
  // and FADDR's function names), one per operand, in code order.
  std::vector<std::string> strings;
  SrcLoc loc;
  bool operator==(const Kernel& o) const {
    return name == o.name && isFunction == o.isFunction && vars == o.vars && addrs == o.addrs &&
           preds == o.preds && samplers == o.samplers && surfaces == o.surfaces &&
           labels == o.labels && inputs == o.inputs && attrs == o.attrs && code == o.code && strings == o.strings;
  }

  // Lookups by id; nullptr when the id names nothing.
  const GenVar* userVar(uint32_t id) const {
    return id >= kNumPredefVars && id - kNumPredefVars < vars.size() ? &vars[id - kNumPredefVars]
                                                                     : nullptr;
  }
  const SimpleVar* pred(uint32_t id) const {
    return id >= 1 && id - 1 < preds.size() ? &preds[id - 1] : nullptr;
  }
  const SimpleVar* surface(uint32_t id) const {
    return id >= kNumPredefSurfaces && id - kNumPredefSurfaces < surfaces.size()
               ? &surfaces[id - kNumPredefSurfaces]
               : nullptr;
  }
  // Element type and byte size of a general variable id (predefined or user).
  // %r0 is one GRF: `grfSize` bytes (igc-dialect.md §4.1; pvc declares 16 dwords over it).
  bool varInfo(uint32_t id, Type& type, uint32_t& bytes, unsigned grfSize = 32) const;
  // Name of a general variable id, as text prints it.
  std::string varName(uint32_t id) const;
  std::string surfaceName(uint32_t id) const;  // text spelling: %slm, T6
  const Attribute* attr(std::string_view name) const;
};

// The row of an instruction in the instruction table (nullptr if none).
const InstrDesc* rowOf(const Instruction& inst);

// Bytes of field `field` (a raw operand) that the instruction touches, per its
// row's Footprint (the pages' operand texts); 0 if the field has none.
uint32_t rawFootprint(const InstrDesc& d, const Instruction& inst, int field, unsigned grfSize);

// Debug information (LOC and FILE pages): the source line and file in effect
// at each instruction of `k.code` (the last LOC / FILE before it in the code;
// line 0 and file -1, an index in Kernel::strings, where none is).
struct SourcePos {
  uint32_t line = 0;
  int32_t file = -1;
};
std::vector<SourcePos> sourcePositions(const Kernel& k);

struct Module {
  uint8_t major = 4, minor = 2;
  // Bytes per GRF row (32 or 64) of the platform the module is for: the
  // binary form of an address-of operand counts rows and elements (not part
  // of the module's identity).
  unsigned grfSize = 32;
  std::vector<Kernel> kernels;
  bool operator==(const Module& o) const {
    return major == o.major && minor == o.minor && kernels == o.kernels;
  }
};

}  // namespace visakit
