// The executable form of a kernel, decoded once and shared by all threads:
// operand byte offsets and types resolved, one handler per opcode and type.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/convert.hpp"
#include "sim/layout.hpp"
#include "visakit/kernel.hpp"

namespace visakit::sim {

struct Ctx;
struct DInst;
struct ThreadState;
using Handler = void (*)(Ctx&, const DInst&);

// A decoded vector operand.
// Bytes [lo, hi) of the register file.
struct ByteRange {
  uint32_t lo = 0, hi = 0;
  bool meets(const ByteRange& o) const { return lo < o.hi && o.lo < hi; }
};

struct DOperand {
  enum class Kind : uint8_t { None, Reg, Imm, Pred, Null };
  // Reg, lanes < exec: Contig = off[k] = off[0] + k * type size; Bcast = all off[0]; else Gen.
  enum class Shape : uint8_t { Gen, Contig, Bcast };
  Kind kind = Kind::None;
  Shape shape = Shape::Gen;
  Type type = Type::UD;  // element type (immediate type; V/UV/VF: the element type W/UW/F)
  Mod mod = Mod::None;
  uint8_t immPeriod = 1;       // packed immediates: lane k uses imm[k % period]
  bool wholePred = false;      // mov from a predicate: the whole variable as an integer
  uint8_t predBits = 32;       // elements of the predicate variable
  uint16_t predId = 0;         // Pred: predicate variable id
  std::array<uint32_t, 32> off{};  // Reg: byte offset of lane k in the register file
  std::array<uint64_t, 8> imm{};   // Imm: element bits
  // The vector ALU handlers' view (alu.cpp): how lanes load as 32-bit values,
  // and an immediate's lanes k & 7 already extended to 32 bits (E13, E20).
  enum class Load32 : uint8_t { Narrow, Contig, Bcast, Gen, Imm };
  Load32 load32 = Load32::Narrow;
  std::array<uint32_t, 8> imm32{};
};

// Lane arrays for the ALU pipeline: sources are loaded into the operation's
// domain, computed, then converted into the destination.
using IntLoad = void (*)(const Ctx&, const DInst&, const DOperand&, i128* out);
using FltLoad = void (*)(const Ctx&, const DInst&, const DOperand&, double* out);
using IntStore = void (*)(Ctx&, const DInst&, uint32_t en, const i128* v);
using FltStore = void (*)(Ctx&, const DInst&, uint32_t en, const double* v);

struct DInst {
  Handler fn = nullptr;
  Handler checkedFn = nullptr;  // memory instructions: fn with --check observers attached
  // Runs (fitToLaunch): a first instruction with runLen > 1 does itself and the
  // runLen - 1 after it through fusedFn, which never yields (the dispatcher's
  // straight-line loop uses it; one step at a time uses fn).
  Handler fusedFn = nullptr;
  Handler mergedFn = nullptr;  // GATHER/SCATTER_SCALED, dense ALU: the fused form of a merged run (formRuns)
  Handler lanesFn = nullptr;   // GATHER_SCALED: the fused form of a merged lanes run (formRuns)
  Handler checkedLanesFn = nullptr;  // lanesFn with --check observers attached
  Handler checkedFusedFn = nullptr;  // memory instructions: fusedFn with --check observers attached
  // fn's work when ChEn is known to be every lane (runStraight); nullptr: none.
  Handler allOnFn = nullptr;
  uint8_t runLen = 1;
  // The straight-line loop (dispatch.cpp) calls stepFn (fn, or fusedFn for a
  // run) and moves on past the run and the folded instructions after it
  // (nextStep): `advBytes` is that distance in the code array, in bytes.
  Handler stepFn = nullptr;
  uint32_t advBytes = 0;
  bool folded = false;  // done at launch (planThreadStart); fn only counts the step
  uint32_t index = 0;  // in Kernel::code
  bool control = false;  // the handler moves the program counter itself
  // Instructions from this one to the next control instruction or tail (or
  // the end); 0 for those. The dispatcher runs them back to back, then the
  // tail's tailFn: a control instruction's fn, or a one-lane CMP followed by
  // a JMP as one handler (cmpJmpFn), which counts tailSteps = 2 steps.
  uint32_t straight = 0;
  Handler tailFn = nullptr;
  Handler cmpJmpFn = nullptr;
  uint8_t tailSteps = 1;
  uint8_t exec = 1;
  uint8_t maskOff = 0;
  bool noMask = false;
  uint16_t predId = 0;
  uint8_t predCtl = 0;  // 0 none, 1 any, 2 all
  bool predInv = false;
  bool sat = false;

  // ALU
  bool floatDomain = false;
  Type execType = Type::UD;  // float domain: DF, F or HF
  uint8_t relop = 0;
  uint8_t src0Bits = 32;     // shr: width of src0
  uint8_t shiftMask = 31;    // shl/shr: bits of src1 used
  bool scalarSrc = false;    // setp: src0 is a scalar
  DOperand dst;
  DOperand src[2];
  IntLoad iload[2] = {nullptr, nullptr};
  FltLoad fload[2] = {nullptr, nullptr};
  IntStore istore = nullptr;
  FltStore fstore = nullptr;

  // Memory
  uint32_t surface = 0;
  uint8_t numBlocks = 1;  // bytes (scaled) or qwords (QW) per lane
  uint8_t chMask = 0;     // SCATTER4 channels
  uint8_t numOut = 0;     // URB
  uint32_t urbGlobal = 0;
  DOperand goff;          // scalar global offset (Reg lane 0, or Imm)
  std::array<uint32_t, 4> raw{};   // byte offsets of the raw operands in the register file
  std::array<bool, 4> rawNull{};
  // The register bytes of its raw operands the instruction reads and writes:
  // the row's effects (Access) and footprints, at the operands' offsets.
  const InstrDesc* row = nullptr;
  std::array<ByteRange, 4> rawReads{}, rawWrites{};
  uint8_t numRawReads = 0, numRawWrites = 0;

  // Control
  uint32_t target = 0;  // instruction index of the label

  // Memory-level parallelism (planPrefetch): how this instruction's lane
  // addresses are formed, and the later memory instructions whose addresses
  // are already final here, so their lines are prefetched now.
  enum class AddrKind : uint8_t { None, Scaled, Qw };  // Scaled: global + Element_offset; Qw: Offset
  AddrKind addrKind = AddrKind::None;
  bool storeAccess = false;
  uint8_t numAhead = 0;
  std::array<uint32_t, 3> ahead{};
  uint32_t coveredBy = 0xffffffffu;  // the instruction whose ahead list holds this one (fitToLaunch)

  // Scaled addresses whose Element_offset lanes are known at decode
  // (planStaticOffsets): offset[i] = offBase + 4 * i for every lane.
  bool offRun = false;
  uint32_t offBase = 0;
};

// The instruction the straight-line loop does after d (DInst::advBytes).
inline const DInst* nextStep(const DInst* d) {
  return reinterpret_cast<const DInst*>(reinterpret_cast<const char*>(d) + d->advBytes);
}


struct Program {
  const Kernel* kernel = nullptr;
  unsigned grfSize = 32;
  std::vector<DInst> code;
  uint32_t codeEnd = 0;       // code.size()
  std::vector<VarSlot> vars;  // by general variable id
  uint32_t regBytes = 0;      // register file size per thread (+ kRegPad)
  uint32_t usedBytes = 0;     // bytes of laid-out variables (cleared per thread)
  uint32_t numPreds = 0;      // predicate ids 1..numPreds
  std::vector<uint8_t> usesSurface;  // by surface id
  std::vector<uint8_t> writesSurface;  // by surface id: a store instruction names it
  bool usesSlm = false, usesUrb = false;
  bool loops = false;  // a JMP or GOTO goes back (to its own index or before)
  // An instruction of the kernel the fast tier has no form of (the launch
  // then runs in the reference tier): its mnemonic; empty if none.
  std::string unsupported;
};

// Register-file layout: every general variable placed per its alignment,
// aliases resolved to their base's bytes.
void layoutVars(const Kernel& k, unsigned grfSize, Program& p);
Program decode(const Kernel& k, unsigned grfSize);
// Fills DInst::ahead: for each memory instruction, up to 3 later ones in the same
// straight-line code whose address operands no instruction in between writes
// (not those with DInst::offRun: a stream).
void planPrefetch(Program& p);
// Sets DInst::offRun where the Element_offset operand of GATHER/SCATTER(4)_SCALED
// holds consecutive dwords known at decode: computed from immediates by NoMask,
// unpredicated ALU instructions of the kernel's straight-line start, and not
// written again before the instruction.
void planStaticOffsets(Program& p);
// The predefined variables that hold a thread's ids (set per thread, chapter 3
// "Thread Organization").
constexpr std::array<unsigned, 5> kThreadIdVars = {kVarThreadX, kVarThreadY, kVarGroupX, kVarGroupY, kVarGroupZ};
// A register dword each thread sets at its start (planThreadStart), an affine
// function of its ids: c0 + coef[0] * %thread_x + coef[1] * %thread_y +
// coef[2] * %group_id_x + coef[3] * %group_id_y + coef[4] * %group_id_z, mod 2^32.
struct ThreadAffine {
  uint32_t offset = 0;
  uint32_t c0 = 0;
  std::array<uint32_t, 5> coef{};
};

// What starting a thread takes (planThreadStart).
struct ThreadStart {
  uint64_t foldedLanes = 0;            // of the folded instructions, counted by every thread
  std::vector<ThreadAffine> affine;    // written after the ids, in this order
  struct Id {
    uint32_t offset = 0;
    uint8_t bytes = 4, which = 0;  // which: index in kThreadIdVars
  };
  std::vector<Id> ids;                 // the ids an instruction left in the code reads
  // Bytes of the image an instruction left in the code may write, but for
  // those the thread's straight-line start writes before reading (in 16-byte
  // blocks): copied from the image per thread; the others keep the image's
  // value once a thread state holds it.
  std::vector<ByteRange> rewrite;
};

// At launch, with `fold`: the NoMask, unpredicated ALU instructions of the
// kernel's start (before its first memory, control or label instruction) whose
// results are the same in every thread are done once, into `image` (the
// register bytes every thread starts with); one-lane MOV, ADD, MUL and SHL into
// a dword whose result is affine in the thread's ids become a ThreadAffine.
// They stay in the code as steps (DInst::folded) that do nothing. Then, with or
// without `fold`: which ids and affine values are read, and which image bytes
// written, by the instructions left in the code (with the execution mask at
// entry `dispatchMask`).
ThreadStart planThreadStart(Program& p, std::vector<uint8_t>& image, bool fold, uint32_t dispatchMask);
// A thread state's register file holds `image`, zero past it (at least
// Program::regBytes), and every predicate is zero: the state at launch
// (initThread then rewrites what a thread may have changed) or at decode.
void startState(ThreadState& t, const Program& p, const std::vector<uint8_t>& image);

// Decoders of the instruction families (alu.cpp, control.cpp, insn_*.cpp).
void decodeAlu(const Program& p, const Instruction& inst, DInst& d);
void decodeControl(const Program& p, const Instruction& inst, const std::vector<uint32_t>& labelPos, DInst& d);
void decodeGatherScaled(const Program& p, const Instruction& inst, DInst& d);
void decodeScatterScaled(const Program& p, const Instruction& inst, DInst& d);
void decodeScatter4Scaled(const Program& p, const Instruction& inst, DInst& d);
void decodeQwScatter(const Program& p, const Instruction& inst, DInst& d);
void decodeUrbWrite(const Program& p, const Instruction& inst, DInst& d);

// Shared operand decoding.
DOperand decodeVector(const Program& p, const Operand& o, unsigned exec, bool dst, bool scalar);
uint32_t rawOffset(const Program& p, const Operand& o);
// Index of the instruction's field with the page's name (table.cpp), or -1.
int fieldIndex(const InstrDesc& d, std::string_view name);
// Common decoding of a memory instruction: surface, scalar global offset and
// the raw operands named in `raws` (in that order into DInst::raw).
void decodeMemory(const Program& p, const Instruction& inst, DInst& d, std::initializer_list<const char*> raws);

}  // namespace visakit::sim
