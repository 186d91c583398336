// The files IGC dumps with IGC_ShaderDumpEnable=1: one program OCL_asm<hash> (its .progbin),
// and per kernel entry NNNN and SIMD variant OCL_asm<hash>[_<retry>]_simd<N>_entry_<NNNN>
// .visaasm/.isa/.cos/.asm. The variant with a .cos is the one the program binary holds.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace visakit::cl {

struct KernelVariant {
  unsigned retry = 0;  // 0 first compile, 1 for the "_1" files of IGC's retry, ...
  unsigned simd = 0;
  std::string visaasm, isa, cos, asmFile;  // paths; "" when that file is missing
  // _f<K>.visaasm: the functions the kernel calls, each in a file of its own (IGC at
  // -cl-opt-disable), by K.
  std::map<unsigned, std::string> functions;
};

struct DumpKernel {
  std::string name;  // the .visaasm's `.kernel "name"`, else the .cos's "Kernel Name = name"
  unsigned entry = 0;
  KernelVariant chosen;                 // the variant with a .cos (the one in the program binary)
  std::vector<KernelVariant> variants;  // every variant found, by retry then SIMD size
};

struct DumpProgram {
  std::string dir;
  std::string name;      // OCL_asm<hash>
  std::string progbin;   // path
  std::string platform;  // "SKL", "TGLLP", "DG2", "PVCXT" ... from an .asm header; "" if none
  std::vector<DumpKernel> kernels;  // by entry number
};

// Scans `dir`. Errors (false, message in err): no dump files, no or several programs, a kernel
// whose variants have no .cos (or several), unreadable or inconsistent names; `out` is then empty.
bool scanDump(const std::string& dir, DumpProgram& out, std::string& err);

// The kernel called `name`; else nullptr and err lists the kernels there.
const DumpKernel* findKernel(const DumpProgram& p, std::string_view name, std::string& err);

}  // namespace visakit::cl
