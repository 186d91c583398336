// The plan layer: every speed trick of the fast tier is a pass here, over
// the decoded program (program.hpp), each stating its precondition in its
// file. decode() runs planStaticOffsets and planPrefetch; a launch runs
// planThreadStart, fitToLaunch (runs, observing handlers) and planStraight;
// together they give the steps the fast tier's scheduler (dispatch.cpp) runs.
// Results never depend on them: every sim case runs in the reference tier too.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/fast/program.hpp"
#include "sim/memory.hpp"

namespace visakit::sim {

// The surface a memory instruction's surface operand uses where a MOVS set
// its state (surfaces.cpp): the launch's binding-table entry where the state
// is known at decode, else the instruction runs through its semantics.
void planSurfaceState(Program& p, const Launch& l);
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
  // Bytes of the image an instruction left in the code may write (16-byte
  // blocks): a thread with fewer lanes than the dispatch mask, whose start may
  // leave some of them unwritten, copies these from the image.
  std::vector<ByteRange> written;
};

// At launch, with `fold`: the NoMask, unpredicated ALU instructions of the
// kernel's start (before its first memory, control or label instruction) whose
// results are the same in every thread are done once, into `image` (the
// register bytes every thread starts with); one-lane MOV, ADD, MUL and SHL into
// a dword whose result is affine in the thread's ids become a ThreadAffine.
// They stay in the code as steps (DInst::folded) that do nothing. Then, with or
// without `fold`: which ids and affine values are read, and which image bytes
// written, by the instructions left in the code (with the execution mask at
// entry `dispatchMask`). `perThread`: register bytes each thread's start sets
// besides its ids (an explicit launch's payload), which differ between threads.
ThreadStart planThreadStart(Program& p, std::vector<uint8_t>& image, bool fold, uint32_t dispatchMask,
                            const std::vector<ByteRange>& perThread);
// Fits the decoded program to the launch (runs.cpp): with `check`, the memory
// handlers that tell the observers; each DInst::ahead keeps only instructions
// on DRAM-sized surfaces; consecutive instructions become fused and merged
// runs; what the straight-line loop calls (DInst::stepFn, advBytes).
void fitToLaunch(Program& p, const std::vector<Space>& spaces, bool check);

// One step of a straight kernel's plan (runStraight): the handler and its instruction.
struct StraightStep {
  Handler fn;
  const DInst* d;
};
// A kernel that is one straight-line run, ended by an unpredicated one-lane RET
// or by its end (straight.cpp): its steps per thread (0: not such a kernel),
// the lanes its RET counts, and the plan: each step's handler, or its
// all-lanes body (DInst::allOnFn) where ChEn is every lane in every thread.
uint64_t planStraight(const Program& p, const Kernel& k, uint32_t dispatchMask, uint64_t maxSteps, uint64_t& retLanes,
                      std::vector<StraightStep>& plan);

// Register files kept between the launches of one form: a launch's contexts
// take theirs from here and give them back when it ends, so a launch that
// follows allocates none (the allocator gives large freed blocks back to the
// system, and each launch would fault their pages in again).
class RegFileStock {
 public:
  LineVector<uint8_t> take() {
    std::lock_guard<std::mutex> g(mu_);
    if (spare_.empty()) return {};
    LineVector<uint8_t> v = std::move(spare_.back());
    spare_.pop_back();
    return v;
  }
  void give(LineVector<uint8_t>&& v) {
    if (v.capacity() == 0) return;
    std::lock_guard<std::mutex> g(mu_);
    spare_.push_back(std::move(v));
  }

 private:
  std::mutex mu_;
  std::vector<LineVector<uint8_t>> spare_;
};

// Everything the passes above give one launch (prepared.cpp): what sim::run
// prepares before the first thread starts. It does not change while threads
// run, but for the stock of register files its launches share.
struct PreparedForm {
  Program prog;                    // decoded, fitted to the launch
  std::vector<uint8_t> regImage;   // the launch's register image with the folded start
  ThreadStart start;
  uint64_t straightSteps = 0, straightRetLanes = 0;  // planStraight
  std::vector<StraightStep> straightPlan;
  // An explicit launch's threads may observe their concurrency slot (%sr0,
  // the scratch offset in %r0, %scratch): else any slot will do.
  bool observesSlot = false;
  mutable RegFileStock regFiles;
};
// The form of launch `l` of `k`, whose spaces are `spaces` (Space::dram set):
// the one `cache` keeps for a launch the same in everything the passes read,
// else a new one, which `cache` (if given) keeps. A form whose
// prog.unsupported is set is for the reference tier.
std::shared_ptr<const PreparedForm> preparedForm(const Kernel& k, const Launch& l, const std::vector<Space>& spaces,
                                                 PreparedKernels* cache);

}  // namespace visakit::sim
