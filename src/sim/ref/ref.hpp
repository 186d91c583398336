// The reference tier: a plain interpreter over an immutable decoded program,
// one instruction at a time through the semantics of src/sim/sem, memory
// through Exec's access functions where the checkers observe. It is the
// oracle: the fast tier must give its bytes, findings and exit codes.
#pragma once

#include <string>
#include <vector>

#include "sim/layout.hpp"
#include "sim/sem/sem.hpp"
#include "visakit/sim.hpp"

namespace visakit::sim {

// The decoded program: every instruction with its row, its semantics and its
// operands resolved to register offsets.
struct RefProgram {
  const Kernel* kernel = nullptr;
  unsigned grfSize = 32;
  Layout layout;
  std::vector<uint32_t> addrStart;  // by address variable id: its first element in RefThread::addrs
  uint32_t numAddrElems = 0;
  uint32_t numPreds = 0;            // predicate ids 1..numPreds
  std::vector<RefInst> code;
};

// Decodes `k`; false with `err` when an instruction has no semantics
// ("not supported by the simulator: ..."). With `only`, the instructions i
// with only[i] set alone (the others keep their instruction, index and row).
bool decodeReference(const Kernel& k, unsigned grfSize, RefProgram& p, std::string& err,
                     const std::vector<uint8_t>* only = nullptr);
// The kernel (progs[0]) and the functions it may call (FCALL, FADDR names, transitively), each
// FCALL / FADDR's target its callee's index in `progs` (ref/functions.cpp; spec-decisions C2); a
// FADDR of a name no function has takes the address `symbols` gives it (C21).
bool decodeModule(const Kernel& k, const LaunchConfig& cfg, std::vector<RefProgram>& progs, std::string& err);

RunResult runReference(const Kernel& k, std::vector<SurfaceBinding>& surfaces, const LaunchConfig& cfg);

}  // namespace visakit::sim
