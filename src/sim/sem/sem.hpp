// The semantics of the instructions, written once per instruction (Spike's
// insns/*.h, Sail's execute clauses): a function of an Exec, the view of one
// instruction being executed by one hardware thread. The reference tier calls
// them one instruction at a time; they are the oracle.
//
// An Exec gives a semantics function its instruction's fields (by index in
// the row, as the table lists them), the lanes that run (ChEn, chapter 5
// EvaluateChEn), element access to vector and raw operands (regions,
// modifiers, conversions of chapter 2), memory through one access function
// per kind (load, store, atomic) where the checkers observe, and the thread's
// control state.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "sim/convert.hpp"
#include "sim/lanes.hpp"
#include "sim/memory.hpp"
#include "sim/observe.hpp"
#include "visakit/kernel.hpp"

namespace visakit::sim {

class Exec;
struct RefProgram;  // sim/ref/ref.hpp
using SemFn = void (*)(Exec&);

// A vector, raw or integer field decoded for execution.
struct RefOperand {
  Operand::Kind kind = Operand::Kind::None;
  Type type = Type::UD;   // element type (V/UV: W/UW, VF: F; predicates BOOL)
  Mod mod = Mod::None;
  bool null = false;      // %null
  uint32_t base = 0;      // General / Raw / AddressOf: register byte offset; Indirect: immediate offset
  uint32_t end = 0;       // General / Raw: end of the variable in the register file
  uint8_t vs = 0, w = 1, hs = 0;  // region values (absent: 0, width 1)
  uint8_t immPeriod = 1;  // Immediate: lane k uses imm[k % immPeriod]
  std::array<uint64_t, 8> imm{};
  uint32_t id = 0;        // predicate, address, surface, sampler, label id; State: surface/sampler id
  uint32_t addr = 0;      // Address / Indirect: index of the element in the thread's address file
  uint64_t value = 0;     // Int fields; Label fields: the label's instruction index
};

// One instruction of the decoded program (immutable, shared by all threads).
struct RefInst {
  const Instruction* inst = nullptr;
  const InstrDesc* row = nullptr;
  SemFn fn = nullptr;
  uint32_t index = 0;     // in Kernel::code
  uint8_t exec = 1;
  uint8_t maskOff = 0;
  bool noMask = false;
  bool hasExec = false;
  uint16_t predId = 0;
  uint8_t predCtl = 0;    // 0 none, 1 any, 2 all
  bool predInv = false;
  bool sat = false;
  uint32_t target = 0;    // Label field: the instruction index of the label
  uint64_t address = 0;   // FADDR: the value it stores (a callee's index from 1, or a symbol's address)
  // The vector fields by effect (the row's Access): the destination and the
  // sources in field order; -1 where there is none.
  int8_t dst = -1;
  uint8_t numSrc = 0;
  std::array<int8_t, 4> src{-1, -1, -1, -1};
  std::vector<RefOperand> f;  // one per field of the row (row->numFields)
};

// A hardware thread of the reference tier.
// Chapter 3 "Branch Instructions" as one program counter per lane: the lanes
// at the smallest PC run (EM = those lanes), the others wait (control.hpp).
// The fast tier's thread state is one too (fast/ctx.hpp ThreadState), so that
// an instruction without a fast form runs there through its semantics here.
struct RefThread {
  LineVector<uint8_t> regs;      // the register file (layout: Program::vars)
  LineVector<uint32_t> preds;    // bit n of predicate id p = element n
  std::vector<uint16_t> addrs;   // address variables' elements: register byte addresses
  uint32_t pc = 0;
  uint32_t em = 0;
  uint32_t waiting = 0;
  uint32_t waitMin = 0xffffffffu;
  ParkedGroups parked;            // the waiting lanes by PC (lanes.hpp)
  bool done = false;
  bool atBarrier = false;         // waits for its thread group at a BARRIER
  uint32_t tid = 0;               // linear thread index in the launch
  uint64_t steps = 0;
  // A CALL's frame (chapter 3 "Subroutine and Function Calls"): the caller's
  // lanes, saved while the subroutine runs, and the call mask.
  struct Frame {
    uint32_t ret;                 // instruction to return to
    uint32_t em;                  // the caller's EM at the call
    uint32_t callMask;            // the lanes still in the subroutine (RET turns them off)
    uint32_t waiting, waitMin;    // the caller's parked lanes
    ParkedGroups parked;
  };
  std::vector<Frame> calls;
  // Set by a semantics function when the run cannot go on (the message; the
  // interpreter fails the run with it and the instruction's line).
  std::string error;
  // Function calls (FCALL, IFCALL; spec-decisions C2): the program the thread runs and the
  // launch's programs (0 the kernel, then the functions it may call); the thread's ids, for a
  // callee's own register file; per call, the caller's state.
  const RefProgram* prog = nullptr;
  std::span<const RefProgram* const> programs;
  std::array<uint64_t, 5> ids{};  // %thread_x, %thread_y, %group_id_x, _y, _z
  struct FuncFrame {
    const RefProgram* prog;
    uint32_t ret, em, callMask, waiting, waitMin;
    ParkedGroups parked;
    unsigned retBytes;            // Return_size GRFs of %retval come back
    LineVector<uint8_t> regs;
    LineVector<uint32_t> preds;
    std::vector<uint16_t> addrs;
    std::vector<Frame> calls;
  };
  std::vector<FuncFrame> fcalls;
  // By surface id: the binding-table index a MOVS gave it (MOVS page), or kNoSurface.
  std::vector<uint32_t> surfState;
  // The bytes of %scratch its concurrency slot owns (PayloadSource::slotMemory),
  // which LSC `ss` addresses are relative to (spec-decisions L9); none: the whole surface.
  bool ownScratch = false;
  uint64_t scratchBase = 0, scratchSize = 0;
};

// Register bytes by address (chapter 5 "Indirect Operands"): an address
// outside the register file (a wild indirect address) reads 0; a write there is dropped.
// (the element sizes as fixed-size copies, which compile to one load or store)
inline uint64_t readRegBits(const RefThread& t, uint32_t off, unsigned bytes) {
  if (off > t.regs.size() || bytes > t.regs.size() - off) return 0;
  const uint8_t* p = t.regs.data() + off;
  auto as = [p]<class T>(T v) {
    std::memcpy(&v, p, sizeof v);
    return uint64_t{v};
  };
  switch (bytes) {
    case 1: return *p;
    case 2: return as(uint16_t{});
    case 4: return as(uint32_t{});
    case 8: return as(uint64_t{});
    default: {
      uint64_t v = 0;
      std::memcpy(&v, p, bytes);
      return v;
    }
  }
}
inline void writeRegBits(RefThread& t, uint32_t off, unsigned bytes, uint64_t v) {
  if (off > t.regs.size() || bytes > t.regs.size() - off) return;
  uint8_t* p = t.regs.data() + off;
  auto put = [p]<class T>(T x) { std::memcpy(p, &x, sizeof x); };
  switch (bytes) {
    case 1: *p = static_cast<uint8_t>(v); return;
    case 2: return put(static_cast<uint16_t>(v));
    case 4: return put(static_cast<uint32_t>(v));
    case 8: return put(v);
    default: std::memcpy(p, &v, bytes);
  }
}
// The register byte offset of element k of a General or Indirect operand (its
// region; chapter 5 "Region-based Addressing", "Indirect Operands": the
// address register holds a register byte address; VxH (vs absent): each group
// of w lanes takes the next address element).
inline uint32_t elementOffset(const RefOperand& o, const RefThread& t, unsigned k) {
  const uint32_t ts = typeSize(o.type);
  const uint32_t w = o.w ? o.w : 1;
  // (k / w, k % w; a width is a power of two but for a decoded destination's 32)
  const bool pow2 = std::has_single_bit(w);
  const uint32_t row = pow2 ? k >> std::countr_zero(w) : k / w, col = pow2 ? k & (w - 1) : k % w;
  const uint32_t elt = row * o.vs + col * o.hs;
  if (o.kind == Operand::Kind::Indirect) {
    const uint32_t a = o.vs == kRegionNull ? o.addr + row : o.addr;
    const uint32_t base = (a < t.addrs.size() ? t.addrs[a] : 0) + o.base;
    return o.vs == kRegionNull ? base + col * o.hs * ts : base + elt * ts;
  }
  return o.base + elt * ts;
}

// MOV page: without a conversion (the same type, no modifier, no .sat, no
// predicate) the bits are copied, a NaN's included (E14).
inline bool movCopiesBits(const RefOperand& src, const RefOperand& dst, bool sat) {
  return src.kind != Operand::Kind::Predicate && dst.kind != Operand::Kind::Predicate && src.type == dst.type &&
         src.mod == Mod::None && !sat;
}

// What a thread runs against: the memory spaces of its launch.
struct RefMemory {
  std::vector<Space>* spaces = nullptr;  // by surface id; %slm is the thread group's
  Space* urb = nullptr;
  LineVector<std::array<uint64_t, 2>>* spaceBytes = nullptr;  // statistics by Space::statIndex
  // The binding table: BTI -> surface id (kNoSurface: none). A surface whose
  // state a MOVS set (RefThread::surfState) is the table's entry for it.
  const std::vector<uint32_t>* bindingTable = nullptr;
  // The stateless address space, sorted by base, allocations apart.
  const std::vector<FlatRange>* flat = nullptr;
  Space* noSpace = nullptr;  // an unbound, empty space: accesses outside every allocation
};

// The surface binding-table index `bti` selects (LSC bti(N); the launch's
// --bti N=NAME), `id` its surface id; an index the table does not give: the
// unbound space, id kFlatSpace.
inline Space& tableSurface(const RefMemory& m, uint64_t bti, uint32_t& id) {
  if (m.bindingTable && bti < m.bindingTable->size()) {
    const uint32_t target = (*m.bindingTable)[bti];
    if (target != kNoSurface && target < m.spaces->size()) {
      id = target;
      return (*m.spaces)[target];
    }
  }
  id = kFlatSpace;
  return *m.noSpace;
}
// A stateless address (chapter 3 "Stateless Access", M8): the allocation
// holding [addr, addr + bytes), `id` its surface id and `offset` the address in
// it; in no allocation: the unbound space, id kFlatSpace, offset addr.
inline Space& statelessSpace(const RefMemory& m, uint64_t addr, unsigned bytes, uint32_t& id, uint64_t& offset) {
  if (m.flat)
    if (const FlatRange* r = flatRange(*m.flat, addr, bytes)) {
      id = r->spaceId;
      offset = addr - r->base;
      return (*m.spaces)[r->spaceId];
    }
  id = kFlatSpace;
  offset = addr;
  return *m.noSpace;
}

// Atomic operations (DWORD_ATOMIC, SVM_ATOMIC, LSC atomic pages).
enum class AtomicOp : uint8_t {
  Add, Sub, Inc, Dec, Min, Max, Xchg, CmpXchg, And, Or, Xor, IMin, IMax, Load, Store, FAdd, FSub, FMin, FMax, FCmpXchg,
};

// The read-modify-write of an element in bounds of its space, one atomic
// step (memory.hpp atomicRmw): `bytes` bytes at addr, op with the sources a, b
// (the atomic pages' table); returns the old value. Exec::atomic checks the
// bounds, tells the observers and counts the bytes around it.
uint64_t atomicApply(Space& s, uint64_t addr, unsigned bytes, AtomicOp op, uint64_t a, uint64_t b);
// DWORD_ATOMIC / SVM_ATOMIC's operation code (isa/mem_ops.hpp) as an AtomicOp,
// its sources as the operation takes them (CMPXCHG's swapped; M2) (sem/mem_legacy.cpp).
AtomicOp legacyAtomicOp(unsigned code, uint64_t& a, uint64_t& b);
// An LSC atomic sub-opcode as an AtomicOp (L14; sem/lsc.cpp).
AtomicOp lscAtomicOp(int subOp);

class Exec {
 public:
  Exec(const RefInst& i, RefThread& t, RefMemory& mem, Observed& obs, Observer* observer, unsigned grfSize)
      : i_(i), t_(t), mem_(mem), obs_(obs), observer_(observer), grf_(grfSize) {}
  Exec(const Exec&) = delete;
  Exec& operator=(const Exec&) = delete;

  const RefInst& inst() const { return i_; }
  const Instruction& ir() const { return *i_.inst; }
  RefThread& thread() { return t_; }
  unsigned grfSize() const { return grf_; }
  unsigned exec() const { return i_.exec; }
  const RefOperand& op(int f) const { return i_.f[static_cast<size_t>(f)]; }
  uint64_t value(int f) const { return op(f).value; }
  // Field index by the page's name (the row's fields); -1 if none.
  int field(const char* name) const { return i_.row->findName(name); }
  int dst() const { return i_.dst; }
  int src(unsigned n) const { return i_.src[n]; }
  unsigned numSrc() const { return i_.numSrc; }

  // ---- lanes (chapter 5 EvaluateChEn) ----
  uint32_t all() const { return i_.exec >= 32 ? 0xffffffffu : (1u << i_.exec) - 1; }
  // EM at the instruction's mask offset; every lane under NoMask.
  uint32_t emBits() const { return i_.noMask ? all() : (t_.em >> i_.maskOff) & all(); }
  // The predicate (with .any / .all and inversion); every lane without one.
  uint32_t predBits() const;
  uint32_t chEn() const { return emBits() & predBits(); }
  void countLanes(uint32_t en);  // statistics: the enabled channels of the instruction

  // ---- vector operands: element k of field f ----
  Type type(int f) const { return op(f).type; }
  uint64_t bits(int f, unsigned k) const;                    // the element's bits, no modifier
  void setBits(int f, unsigned k, uint64_t bits);            // destination element
  bool predElem(int f, unsigned k) const;                    // predicate operand: element k + mask offset
  void setPredElem(int f, unsigned k, bool v);
  // Numeric values with the source modifier applied (chapter 5 "Source Modifiers").
  i128 intValue(int f, unsigned k) const;     // integers sign/zero-extended; floats by their bits
  double floatValue(int f, unsigned k) const; // floats exactly; integers converted (RTNE)
  // Stores a result into the destination element, converted to its type
  // (2_datatypes.md "Type Conversion"), clamped with .sat.
  void storeInt(int f, unsigned k, i128 v);
  void storeFloat(int f, unsigned k, double v, Type execType);
  // %cr0's rounding mode (bits 5:4; spec-decisions E32): conversions to float, ADD, MUL, MAD.
  Rounding rounding() const;
  // %cr0's denormal mode for type t (DF bit 6, F bit 7, HF bit 10; E22): denormals kept
  // (true) or flushed where the pages flush them; false for other types.
  bool denormsKept(Type t) const;
  uint64_t cr0() const;  // %cr0's dword 0 (0 in a kernel that never names it)

  // ---- raw operands ----
  bool rawNull(int f) const { return op(f).null; }
  uint32_t rawU32(int f, unsigned elem) const;
  void setRawU32(int f, unsigned elem, uint32_t v);
  uint64_t rawBits(int f, uint32_t byteOff, unsigned bytes) const;
  // Where bytes [byteOff, byteOff + bytes) of raw operand f are in the registers (%null: not told).
  RegDest rawDest(int f, uint32_t byteOff, unsigned bytes) const;
  void setRawBits(int f, uint32_t byteOff, unsigned bytes, uint64_t v);

  // ---- registers by byte address (indirect operands, address registers) ----
  uint64_t regBits(uint32_t off, unsigned bytes) const;
  void setRegBits(uint32_t off, unsigned bytes, uint64_t v);

  // ---- memory (E2: out of bounds reads give 0, writes are dropped) ----
  Space& surface(uint32_t id) { return (*mem_.spaces)[id]; }
  Space& urb() { return *mem_.urb; }
  // A surface operand's memory: the binding-table entry its MOVS state names,
  // else its own binding. `id` becomes the surface id the access is reported on.
  Space& boundSurface(uint32_t& id);
  // A stateless address: the allocation holding [addr, addr + bytes) and the
  // offset in it; an address in no allocation gives an unbound space (every
  // access out of bounds, reported on kFlatSpace at the address itself).
  Space& flatSpace(uint64_t addr, unsigned bytes, uint32_t& id, uint64_t& offset);
  // The surface binding-table index `bti` selects (LSC bti(N); the launch's
  // --bti N=NAME); an index the table does not give reaches an unbound space,
  // reported on kFlatSpace (no allocation). `id` becomes the surface id.
  Space& btiSurface(uint64_t bti, uint32_t& id);
  // An unbound space: every access out of bounds (LSC's arg address model).
  Space& unbound() { return *mem_.noSpace; }
  // An atomic read-modify-write (E2 out of bounds: nothing changes, 0 is
  // returned); returns the old value. `a`, `b`: the operation's sources.
  uint64_t atomic(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, AtomicOp op, uint64_t a,
                  uint64_t b);
  // `to`: where the element goes in the registers, for the checkers (RegDest).
  uint64_t load(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, RegDest to = {});
  void store(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, uint64_t v);
  // Ends the instruction's accesses: the observers see them as one batch.
  void endAccesses();

  // ---- control (control.cpp) ----
  uint32_t codeEnd = 0;  // instructions in the kernel (set by the interpreter)
  uint64_t lanes = 0;    // statistics: enabled channels, collected by the interpreter
  AccessBatch* batch = nullptr;  // the interpreter's batch, when observers are attached

 private:
  const RefInst& i_;
  RefThread& t_;
  RefMemory& mem_;
  Observed& obs_;
  Observer* observer_;
  unsigned grf_;
  uint32_t batchSpace_ = 0xfffffffeu;  // the space of the open batch
  void record(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, bool write, bool ok,
              bool atomic = false, uint8_t sameBytes = 0, RegDest to = {});
  uint32_t elemOffset(int f, unsigned k) const;
};

// The semantics table: one function per row, looked up by opcode and sub-opcode.
struct SemEntry {
  Opcode op;
  int16_t subOp;
  SemFn fn;
};
// Each family's entries (sem/*.cpp).
std::span<const SemEntry> aluSemantics();
std::span<const SemEntry> aluExtSemantics();
std::span<const SemEntry> controlSemantics();
std::span<const SemEntry> memorySemantics();
std::span<const SemEntry> memLegacySemantics();
std::span<const SemEntry> lscSemantics();
std::span<const SemEntry> ctlSemantics();
// RET inside a called subroutine (sem/ctl.cpp; CALL and RET pages, chapter 3).
void returnFromCall(Exec& e);
// nullptr: the row has no semantics (the simulator does not support it).
SemFn semanticsOf(const InstrDesc& row);

}  // namespace visakit::sim
