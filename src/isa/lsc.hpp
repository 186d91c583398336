// The LSC messages (LSC_UNTYPED 0x89, LSC_TYPED 0x8a, LSC_FENCE 0x8b pages):
// the values of their fields and what the family's rows, text syntax, rules
// and semantics share (sizes of a data shape, the 2D block layout, payload
// footprints). Field values are the pages' (and visa_igc_common_header.h's
// LSC_* enums, which the pages follow).
#pragma once

#include <cstdint>

#include "visakit/kernel.hpp"

namespace visakit::lsc {

// LscSubOp ("LSC Operation Encoding" tables).
constexpr uint8_t kLoad = 0x00, kLoadStrided = 0x01, kLoadQuad = 0x02, kLoadBlock2d = 0x03, kStore = 0x04,
                  kStoreStrided = 0x05, kStoreQuad = 0x06, kStoreBlock2d = 0x07, kAtomicIinc = 0x08,
                  kAtomicIdec = 0x09, kAtomicLoad = 0x0a, kAtomicStore = 0x0b, kAtomicIadd = 0x0c,
                  kAtomicIsub = 0x0d, kAtomicSmin = 0x0e, kAtomicSmax = 0x0f, kAtomicUmin = 0x10,
                  kAtomicUmax = 0x11, kAtomicIcas = 0x12, kAtomicFadd = 0x13, kAtomicFsub = 0x14,
                  kAtomicFmin = 0x15, kAtomicFmax = 0x16, kAtomicFcas = 0x17, kAtomicAnd = 0x18,
                  kAtomicOr = 0x19, kAtomicXor = 0x1a, kLoadStatus = 0x1b, kStoreUncompressed = 0x1c,
                  kReadSurfaceInfo = 0x1e, kApndctrAdd = 0x28, kApndctrSub = 0x29;

// LscSFID (LSC_FENCE page's LSC_SFID table).
constexpr uint8_t kUgm = 0, kUgml = 1, kTgm = 2, kSlm = 3;
// CachingL1 / CachingL3: .df .uc .ca .wb .wt .st .ri = 0..6.
constexpr uint8_t kCacheDefault = 0;
// AddrType: 0 invalid, flat, bss, ss, bti, arg.
constexpr uint8_t kFlat = 1, kBss = 2, kSs = 3, kBti = 4, kArg = 5;
// AddrSize: 0 invalid, a16, a32, a64.
constexpr uint8_t kA16 = 1, kA32 = 2, kA64 = 3;
// DataSize: 0 invalid, d8, d16, d32, d64, d8u32, d16u32, d16u32h (IGC prints d8c32 d16c32 d16c32h).
constexpr uint8_t kD8 = 1, kD16 = 2, kD32 = 3, kD64 = 4, kD8c32 = 5, kD16c32 = 6, kD16c32h = 7;
// DataOrder (visa_igc_common_header.h LSC_DATA_ORDER): 0 invalid, non-transposed, transposed.
constexpr uint8_t kNonTranspose = 1, kTranspose = 2;

// The value names of the enumerated fields (IGC's printed spellings).
constexpr EnumName kSfidNames[] = {{0, "ugm"}, {1, "ugml"}, {3, "slm"}};  // LSC_UNTYPED: no .tgm
inline constexpr EnumDesc kSfids{kSfidNames, 3};
constexpr EnumName kFenceSfidNames[] = {{0, "ugm"}, {1, "ugml"}, {2, "tgm"}, {3, "slm"}};
inline constexpr EnumDesc kFenceSfids{kFenceSfidNames, 4};
constexpr EnumName kCacheNames[] = {{0, "df"}, {1, "uc"}, {2, "ca"}, {3, "wb"}, {4, "wt"}, {5, "st"}, {6, "ri"}};
inline constexpr EnumDesc kCaches{kCacheNames, 7};
constexpr EnumName kAddrTypeNames[] = {{1, "flat"}, {2, "bss"}, {3, "ss"}, {4, "bti"}, {5, "arg"}};
inline constexpr EnumDesc kAddrTypes{kAddrTypeNames, 5};
constexpr EnumName kAddrSizeNames[] = {{1, "a16"}, {2, "a32"}, {3, "a64"}};
inline constexpr EnumDesc kAddrSizes{kAddrSizeNames, 3};
constexpr EnumName kDataSizeNames[] = {{1, "d8"},    {2, "d16"},    {3, "d32"},    {4, "d64"},
                                       {5, "d8c32"}, {6, "d16c32"}, {7, "d16c32h"}};
inline constexpr EnumDesc kDataSizes{kDataSizeNames, 7};
constexpr EnumName kDataOrderNames[] = {{1, "non-transposed"}, {2, "transposed"}};
inline constexpr EnumDesc kDataOrders{kDataOrderNames, 2};
constexpr EnumName kFenceOpNames[] = {{0, "none"},  {1, "evict"}, {2, "invalidate"},
                                      {3, "discard"}, {4, "clean"}, {5, "flushl3"}};
inline constexpr EnumDesc kFenceOps{kFenceOpNames, 6};
// The page's symbol for scope 5 is "system"; IGC prints ".sysrel" (also in the page's example).
constexpr EnumName kScopeNames[] = {{0, "group"}, {1, "local"}, {2, "tile"},  {3, "gpu"},
                                    {4, "gpus"},  {5, "sysrel"}, {6, "sysacq"}};
inline constexpr EnumDesc kScopes{kScopeNames, 7};

// The layout a row follows (the CONDITION sections of the pages' Format).
enum class Form : uint8_t {
  Simple,        // LSC_UNTYPED load, store, quad, status, uncompressed, atomics
  Strided,       // LSC_UNTYPED load_strided, store_strided
  Block2d,       // LSC_UNTYPED load_block2d, store_block2d
  Apndctr,       // LSC_UNTYPED apndctr_atomic_add/sub
  Typed,         // LSC_TYPED quad, status, uncompressed, atomics, read_surface_info
  TypedBlock2d,  // LSC_TYPED load_block2d, store_block2d
  Fence,         // LSC_FENCE
};
// What the message does with its data: the text puts the data operand first
// for loads and atomics, the address first for stores.
enum class Dir : uint8_t { Load, Store, Atomic, None };

struct OpInfo {
  Form form = Form::Fence;
  Dir dir = Dir::None;
  uint8_t extra = 0;  // atomics: the data arguments (0, 1 or 2; "Extra atomic arguments")
  bool quad = false;  // lsc_load_quad / lsc_store_quad: ChMask gives the components
};
OpInfo opInfo(const InstrDesc& d);
bool isLsc(const InstrDesc& d);

// Bytes of one datum in memory (DataSize) and in the register file (the
// d8u32 / d16u32 / d16u32h conversions hold it in a 32-bit container).
constexpr unsigned memBytes(uint64_t ds) {
  return ds == kD8 || ds == kD8c32 ? 1 : ds == kD16 || ds == kD16c32 || ds == kD16c32h ? 2 : ds == kD64 ? 8 : 4;
}
constexpr unsigned regBytes(uint64_t ds) { return ds == kD8 ? 1 : ds == kD16 ? 2 : ds == kD64 ? 8 : 4; }
// DataElemsPerAddr: 1 1, 2 2, 3 3, 4 4, 5 8, 6 16, 7 32, 8 64; 0 if invalid.
constexpr unsigned vecLen(uint64_t code) {
  constexpr unsigned v[] = {0, 1, 2, 3, 4, 8, 16, 32, 64};
  return code < 9 ? v[code] : 0;
}
constexpr unsigned addrBytes(uint64_t as) { return as == kA16 ? 2 : as == kA64 ? 8 : 4; }
constexpr unsigned popcount4(uint64_t m) {
  return static_cast<unsigned>((m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1));
}
constexpr uint64_t roundUpPow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// Non-transposed data (spec-decisions L4): lane n of component v is at byte
// v * componentStride + n * regBytes, each component starting a new GRF.
constexpr uint32_t componentStride(unsigned exec, unsigned rb, unsigned grf) {
  uint32_t b = exec * rb;
  return (b + grf - 1) / grf * grf;
}

// AddrSize is "the number of bits per address": the address arithmetic wraps there (L5).
constexpr uint64_t wrapAddr(uint64_t a, uint64_t as) { return as == kA16 ? a & 0xffff : as == kA32 ? a & 0xffffffffu : a; }

// The register image of a datum (L3): d8u32 / d16u32 zero-extend into a
// 32-bit container and a store keeps the low bits; d16u32h holds it in the
// high 16 bits with the low 16 zero.
constexpr uint64_t toReg(uint64_t mem, uint64_t ds) { return ds == kD16c32h ? mem << 16 : mem; }
constexpr uint64_t toMem(uint64_t reg, uint64_t ds) {
  const unsigned mb = memBytes(ds);
  const uint64_t m = mb >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * mb)) - 1;
  return (ds == kD16c32h ? reg >> 16 : reg) & m;
}

// Where datum (lane n, component v) is in a data payload (L4): transposed,
// lane n's `vec` components one after another; else componentStride apart.
constexpr uint32_t dataOffset(bool transposed, unsigned vec, unsigned rb, uint32_t stride, unsigned v, unsigned n) {
  return transposed ? (n * vec + v) * rb : v * stride + n * rb;
}

// The GRF layout of a 2D block (LSC_UNTYPED LOAD_BLOCK2D pseudo-code), in elements.
struct Block2dLayout {
  unsigned esize = 1;        // sizeof(T)
  unsigned perDword = 1;     // elems_per_dword (0 for d64)
  unsigned perReg = 1;       // elems_per_reg
  uint64_t rowPitch = 1;     // grf_row_pitch
  uint64_t blockSize = 1;    // grf_block_size
  uint64_t blockPitch = 1;   // grf_block_pitch
};
Block2dLayout block2dLayout(uint64_t dataSize, bool transpose, unsigned width, unsigned height, unsigned grf);

// The bytes of raw field `field` that an LSC message touches (Footprint::Lsc).
uint32_t footprint(const InstrDesc& d, const Instruction& inst, int field, unsigned grfSize);

// What an LSC message reaches, for the launch (sim/launch.cpp kernelUse).
struct Reach {
  bool slm = false;           // .slm
  int surface = -1;           // a predefined surface: %scratch for ss, %bss for bss (L9)
  int bti = -1;               // bti(N) with an immediate N
  bool viaTable = false;      // bti(...): through the binding table
  bool flat = false;          // the stateless address space
  bool store = false;         // may write what it reaches
};
bool reach(const InstrDesc& d, const Instruction& inst, Reach& r);

}  // namespace visakit::lsc
