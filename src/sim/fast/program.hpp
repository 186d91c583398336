// The executable form of a kernel, decoded once and shared by all threads:
// operand byte offsets and types resolved, one handler per opcode and type.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/convert.hpp"
#include "sim/layout.hpp"
#include "sim/ref/ref.hpp"
#include "visakit/kernel.hpp"

namespace visakit::sim {

struct Ctx;
struct DInst;
struct Launch;
struct ThreadState;
using Handler = void (*)(Ctx&, const DInst&);


// The byte offsets of an operand's lanes k < exec (at most 32): first + k *
// step where they are evenly spaced (a row of a region, a broadcast), else a
// table (a region of several rows, an indirect operand's lanes). Lanes past
// exec have none.
class LaneOffsets {
 public:
  uint32_t operator[](unsigned k) const {
    if (k == 0) return first_;
    return table_ ? table_[k] : first_ + k * step_;
  }
  static constexpr unsigned size() { return kLanes; }
  // f(k, lane k's offset) for k < n, the test for a table made once.
  template <class F>
  void each(unsigned n, F f) const {
    if (table_) {
      for (unsigned k = 0; k < n; ++k) f(k, table_[k]);
    } else {
      uint32_t at = first_;
      for (unsigned k = 0; k < n; ++k, at += step_) f(k, at);
    }
  }
  // Lanes 0 .. n - 1 from offs.
  void assign(const uint32_t* offs, unsigned n) {
    first_ = offs[0];
    step_ = n > 1 ? offs[1] - offs[0] : 0;
    table_.reset();
    for (unsigned k = 2; k < n; ++k)
      if (offs[k] != first_ + k * step_) {
        auto t = std::make_shared<uint32_t[]>(kLanes);
        std::copy_n(offs, n, t.get());
        table_ = std::move(t);
        return;
      }
  }
  void assignSteps(uint32_t first, uint32_t step) {
    first_ = first;
    step_ = step;
    table_.reset();
  }

 private:
  static constexpr unsigned kLanes = 32;
  uint32_t first_ = 0, step_ = 0;
  std::shared_ptr<const uint32_t[]> table_;
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
  LaneOffsets off;  // Reg: byte offset of lane k in the register file
  std::array<uint64_t, 8> imm{};   // Imm: element bits
  // The vector ALU handlers' view (alu.cpp): how lanes load as 32-bit values
  // (a destination: how they store), and an immediate's lanes k & 7 already
  // extended to 32 bits (E13, E20). Pair: 4-byte lanes at off[0] + 8 * k, one
  // half of each of consecutive qwords (how IGC splits and joins 64-bit values).
  enum class Load32 : uint8_t { Narrow, Contig, Bcast, Gen, Imm, Pair };
  Load32 load32 = Load32::Narrow;
  // The source modifier on those 32-bit lanes (an immediate's imm32 has it already).
  enum class Mod32 : uint8_t { None, FNeg, FAbs, FNegAbs, INeg, IAbs, INegAbs, INot };
  Mod32 mod32 = Mod32::None;
  std::array<uint32_t, 8> imm32{};
  // The 64-bit forms' view (alu.cpp): an immediate that is one value, as its
  // 64-bit extension with its modifier applied (oneLane64).
  uint64_t imm64 = 0;
  // An indirect operand of a bit-copying MOV (movBits, insn_ref.cpp): lane k's
  // byte is the address element addrElt + (k >> addrShift) plus off[k]
  // (addrShift 31: one element for every lane); kNoAddrElt: off[k] alone.
  // ADDR_ADD's destination (addrAddOf): lane k's address element addrElt + off[k].
  static constexpr uint16_t kNoAddrElt = 0xffff;
  uint16_t addrElt = kNoAddrElt;
  uint8_t addrShift = 31;
};

// A source that is one value for every lane: a broadcast, or an immediate that is not a packed vector.
inline bool oneValue(const DOperand& o) {
  return o.shape == DOperand::Shape::Bcast || (o.kind == DOperand::Kind::Imm && o.immPeriod == 1);
}

// Lane arrays for the ALU pipeline: sources are loaded into the operation's
// domain, computed, then converted into the destination.
using IntLoad = void (*)(const Ctx&, const DInst&, const DOperand&, i128* out);
using FltLoad = void (*)(const Ctx&, const DInst&, const DOperand&, double* out);
using Load64 = void (*)(const Ctx&, const DOperand&, uint64_t* out);  // (64-bit lanes of exec_size, alu.cpp)
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
  // An ALU instruction of exec_size 16 whose form has a 32-lane handler (a
  // dense, in-place or uniform CMP form; modeHalves): that handler, for it and
  // the next instruction as the two halves of one SIMD32 (formRuns).
  Handler halvesFn = nullptr;
  // halvesFn reads and writes each lane in place, or writes a predicate alone
  // (formRuns: inPlaceHalves; else a dense form's, mergeableDense).
  bool halvesInPlace = false;
  // fn's work when ChEn is known to be every lane (runStraight); nullptr: none.
  Handler allOnFn = nullptr;
  // fn replaced by a handler that is not of its family (folded, a mode-reading
  // form): the forms above are no longer its work.
  void dropForms() { fusedFn = mergedFn = lanesFn = checkedLanesFn = checkedFusedFn = halvesFn = allOnFn = nullptr; }
  uint8_t runLen = 1;
  // The straight-line loop (dispatch.cpp) calls stepFn (fn, or fusedFn for a
  // run) and moves on past the run and the folded instructions after it
  // (nextStep): `advBytes` is that distance in the code array, in bytes.
  Handler stepFn = nullptr;
  uint32_t advBytes = 0;
  bool folded = false;  // done at launch (planThreadStart); fn only counts the step
  uint32_t index = 0;  // in Kernel::code
  bool control = false;  // the handler moves the program counter itself
  // A LABEL or SUBROUTINE some branch or call names: lanes may rejoin here, and
  // code after it is not reached through the code before it alone (the plan
  // passes' straight-line start ends here). A label nothing names does nothing.
  bool join = false;
  // No fast form (or operands the forms do not read): the instruction runs
  // through its semantics (sem/, the reference tier's decoded instruction
  // `ref`) on the thread's state (execRef, insn_ref.cpp). Its register effects
  // are rawReads / rawWrites (each operand's bytes; an indirect operand: all).
  bool viaRef = false;
  const RefInst* ref = nullptr;
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
  bool isMax = false;        // FMINMAX: its Op field says MAX
  uint8_t lut = 0;           // BFN: its BooleanFuncCtrl
  bool dst2 = false;         // ADDC, SUBB: src[2] is a second destination (Carry, Borrow)
  uint32_t hiOff = 0;        // MADW: bytes from each lane's low half to its high half (A20); 0: none
  uint8_t src0Bits = 32;     // shr: width of src0
  uint8_t shiftMask = 31;    // shl/shr: bits of src1 used
  bool scalarSrc = false;    // setp: src0 is a scalar
  // E32, in a kernel that may set %cr0's rounding mode: an instruction that
  // rounds in it (modeRounds) reads the mode at %cr0 (cr0Off) each time it runs;
  // in RTNE it does nearFn, the form it has without the mode (alu.cpp modeForm).
  bool modeRounds = false;
  uint32_t cr0Off = 0;
  Handler nearFn = nullptr;
  Handler nearHalvesFn = nullptr;  // nearFn's halvesFn (its halvesFn is then modeHalves)
  DOperand dst;
  DOperand src[3];  // (src[2]: MAD's, or a second destination (dst2); the pipeline's loaders below read src[0] and src[1])
  IntLoad iload[2] = {nullptr, nullptr};
  FltLoad fload[2] = {nullptr, nullptr};
  Load64 wload[2] = {nullptr, nullptr};
  IntStore istore = nullptr;
  FltStore fstore = nullptr;

  // Memory
  uint32_t surface = 0;
  uint8_t numBlocks = 1;  // bytes (scaled) or qwords (QW) per lane; SVM_GATHER/SCATTER: a block's bytes
  uint8_t svmBlocks = 1;  // SVM_GATHER/SCATTER: blocks per lane
  uint8_t chMask = 0;     // SCATTER4 channels
  // SVM_ATOMIC, DWORD_ATOMIC (svmAtomicFormOf): the operation code and bytes; LSC atomics (lscFormOf): the sub-opcode.
  uint8_t atomicCode = 0, atomicBytes = 4;
  uint8_t numOut = 0;     // URB
  uint32_t urbGlobal = 0;
  DOperand goff;          // scalar global offset (Reg lane 0, or Imm)
  std::array<uint32_t, 4> raw{};   // byte offsets of the raw operands in the register file
  std::array<bool, 4> rawNull{};
  // LSC_UNTYPED LOAD, STORE, atomics (lscFormOf): the data shape and the address model.
  struct Lsc {
    enum class Model : uint8_t { Slm, Flat, Bti, Ss, Bss };
    Model model = Model::Flat;
    uint8_t addrSize = 0, addrBytes = 4;
    uint8_t comps = 1;  // DataElemsPerAddr
    bool transposed = false;
    uint16_t scale = 1;
    uint32_t stride = 0;  // non-transposed: bytes from one component to the next
    uint32_t bti = 0;
    int64_t imm = 0;      // AddrImmOffset
  } lsc;
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
  // Scaled addresses are (offset + Element_offset) & addrMask: GATHER4 /
  // SCATTER4_SCALED of the R channel alone read the dword at address/4 (E5):
  // ~3; others: every bit. (Merged runs take only unmasked ones.)
  uint32_t addrMask = 0xffffffffu;
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
  bool mayRound = false;  // an instruction may set %cr0's rounding mode (spec-decisions E32)
  bool mayKeepDenorms = false;  // an instruction may set %cr0's denormal modes (bits 6, 7, 10; E22)
  bool loops = false;  // a JMP or GOTO goes back (to its own index or before), or a call or switch jump
  // Why the launch runs in the reference tier (an instruction without
  // semantics, a call the module cannot resolve: the reference tier reports
  // it); empty if it runs here.
  std::string unsupported;
  // The reference tier's decoded program, whose instructions the ones without
  // a fast form run (DInst::ref), and whether threads need the state only those
  // semantics use (address registers, subroutine frames, surface state: reset
  // at each thread's start).
  RefProgram ref;
  bool refState = false;
  uint32_t viaRef = 0;  // instructions run through their semantics
  // A kernel's functions (FCALL, IFCALL, FADDR; spec-decisions C2): each one it
  // may call decoded as a program of its own, and the reference programs of
  // the kernel and of them in the order a call's target counts them
  // (RefThread::programs, decodeModule). A call and its FRET run through their
  // semantics, which switch the thread's register file and RefThread::prog.
  std::vector<std::unique_ptr<Program>> functions;
  std::vector<const RefProgram*> module;
};

// The program thread t runs: the kernel's, or that of the function it called.
inline const Program& programOf(const Program& kernel, const RefThread& t) {
  if (t.prog == &kernel.ref) [[likely]] return kernel;
  for (const auto& f : kernel.functions)
    if (t.prog == &f->ref) return *f;
  return kernel;
}

// Register-file layout: every general variable placed per its alignment,
// aliases resolved to their base's bytes.
void layoutVars(const Kernel& k, unsigned grfSize, Program& p);
// Decodes `k` into `p` for launch `l` (its binding table resolves the surface
// state a MOVS sets, plan/surfaces.cpp), with the functions it may call
// (LaunchConfig::functions). `p` stays where it is: its threads point at it.
void decode(const Kernel& k, const Launch& l, Program& p);
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
void decodeScatter4R(const Program& p, const Instruction& inst, DInst& d);
void decodeGather4Scaled(const Program& p, const Instruction& inst, DInst& d);
void decodeQwScatter(const Program& p, const Instruction& inst, DInst& d);
void decodeUrbWrite(const Program& p, const Instruction& inst, DInst& d);
// The forms that do nothing, MOVS of an immediate to a surface's state, BARRIER
// (insn_ref.cpp).
void decodeNoEffect(const Program& p, const Instruction& inst, DInst& d);
bool decodeMovsState(const Program& p, const Instruction& inst, DInst& d);
void decodeBarrier(const Program& p, const Instruction& inst, DInst& d);
// An instruction run through its semantics (DInst::viaRef): its handler and
// its register effects, each operand's bytes.
void decodeViaRef(const Program& p, const Instruction& inst, const RefInst& r, DInst& d);

// Shared operand decoding.
DOperand decodeVector(const Program& p, const Operand& o, unsigned exec, bool dst, bool scalar);
uint32_t rawOffset(const Program& p, const Operand& o);
// Index of the instruction's field with the page's name (table.cpp), or -1.
int fieldIndex(const InstrDesc& d, std::string_view name);
// Common decoding of a memory instruction: surface, scalar global offset and
// the raw operands named in `raws` (in that order into DInst::raw).
void decodeMemory(const Program& p, const Instruction& inst, DInst& d, std::initializer_list<const char*> raws);

}  // namespace visakit::sim
