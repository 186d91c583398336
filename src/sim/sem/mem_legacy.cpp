// The legacy data-port memory messages (family M), each as its page's
// pseudo-code: GATHER4_SCALED, DWORD_ATOMIC, the SVM family, OWORD_LD/ST,
// OWORD_LD_UNALIGNED, GATHER/SCATTER and QW_GATHER. The decisions the pages
// leave open are docs/spec-decisions.md M1..M15. MEDIA_LD/ST and the typed
// messages have no semantics (M15): a launch's surfaces have no shape or format.
#include <algorithm>
#include <array>

#include "isa/mem_ops.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim {
namespace {

using namespace memops;

// Where one element access goes: the space, the id the checkers report it
// on, and the byte address in the space.
struct Target {
  Space* s;
  uint32_t id;
  uint64_t addr;
};

// A surface operand's element (M1): the surface (a MOVS state followed, E24's
// binding otherwise); an unbound %scratch (T5, "stateless") is the stateless
// address space, the byte address being the A32 address.
Target surfaceTarget(Exec& e, uint32_t surf, uint64_t addr, unsigned bytes) {
  if (surf == kSurfScratch && !e.surface(kSurfScratch).bound &&
      (kSurfScratch >= e.thread().surfState.size() || e.thread().surfState[kSurfScratch] == kNoSurface)) {
    uint32_t id = 0;
    uint64_t off = 0;
    Space& s = e.flatSpace(addr, bytes, id, off);
    return {&s, id, off};
  }
  uint32_t id = surf;
  Space& s = e.boundSurface(id);
  return {&s, id, addr};
}

// A virtual (SVM) address: the allocation of the stateless space holding it (M8).
Target flatTarget(Exec& e, uint64_t addr, unsigned bytes) {
  uint32_t id = 0;
  uint64_t off = 0;
  Space& s = e.flatSpace(addr, bytes, id, off);
  return {&s, id, off};
}

uint64_t load(Exec& e, const Target& t, unsigned bytes, unsigned lane, RegDest to = {}) {
  return e.load(*t.s, t.id, t.addr, bytes, lane, to);
}
void store(Exec& e, const Target& t, unsigned bytes, unsigned lane, uint64_t v) { e.store(*t.s, t.id, t.addr, bytes, lane, v); }

uint32_t surfaceId(const Exec& e) { return e.op(e.field("Surface")).id; }
uint64_t mask(unsigned bytes) { return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1; }

// One lane of an atomic (M2): the operation on `bytes` bytes at t; returns what
// goes to the lane's Dst: the old value (PREDEC: the new one). Out of bounds
// (E2, the pages' "On read: zeros are returned. On write: data is dropped"):
// nothing changes and 0 is returned.
uint64_t atomicLane(Exec& e, const Target& t, unsigned bytes, unsigned lane, unsigned code, uint64_t src0, uint64_t src1) {
  uint64_t a = src0, b = src1;
  const AtomicOp op = legacyAtomicOp(code, a, b);
  const bool ok = t.s->bound && inBounds(*t.s, spaceAddress(*t.s, t.addr), bytes);
  const uint64_t old = e.atomic(*t.s, t.id, t.addr, bytes, lane, op, a & mask(bytes), b & mask(bytes));
  // "PREDEC: new = old - 1 ... New value".
  return code == kPreDec && ok ? (old - 1) & mask(bytes) : old;
}

// GATHER4_SCALED page:
//   for (c = 0; c < 4; ++c) if (ch_mask[c]) {
//     for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//       address = offset + element_offset[i];
//       dst[ch_pos * max(exec_size, GRF_SIZE / 4) + i] = surface[(address/4)+c];  // 4 bytes
//     }
//     ch_pos++;
//   }
// address mod 2^32 (E4), address/4 truncates (E5) and the dword index does not
// wrap (E17); disabled lanes keep their old values (E9) (M9).
void gather4Scaled(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const uint32_t surf = surfaceId(e);
  const unsigned chans = static_cast<unsigned>(e.value(e.field("Channels")) & 15);
  const unsigned stride = std::max<unsigned>(e.exec(), e.grfSize() / 4);
  const int offs = e.field("Element_offset"), dst = e.field("Dst");
  const uint32_t g = static_cast<uint32_t>(e.bits(e.field("Offset"), 0));
  std::array<uint32_t, 32> addr{};
  for (unsigned i = 0; i < e.exec(); ++i) addr[i] = g + e.rawU32(offs, i);
  std::array<uint32_t, 128> v{};
  unsigned pos = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!((chans >> c) & 1)) continue;
    for (unsigned i = 0; i < e.exec(); ++i)
      if ((en >> i) & 1) v[pos * 32 + i] = static_cast<uint32_t>(load(e, surfaceTarget(e, surf, (uint64_t{addr[i] / 4} + c) * 4, 4), 4, i));
    ++pos;
  }
  e.endAccesses();
  for (unsigned p = 0; p < pos; ++p)
    for (unsigned i = 0; i < e.exec(); ++i)
      if ((en >> i) & 1) e.setRawU32(dst, p * stride + i, v[p * 32 + i]);
}

// DWORD_ATOMIC page:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//     offset = element_offset[i];
//     dst[i] = surface[offset];
//     surface[offset] = op(surface[offset], src0, src1);   // 2 or 4 bytes
//   }
// Lanes in order, each atomic (M4); the address aligned down to the access
// size (M3); .16: the low 16 bits of each source dword, the old word
// zero-extended into the Dst dword (M3).
void dwordAtomic(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const uint32_t surf = surfaceId(e);
  const unsigned opv = static_cast<unsigned>(e.value(e.field("Op"))), code = opv & kOpBits;
  const unsigned bytes = (opv & kOp16) ? 2 : 4;
  const int offs = e.field("Element_offset"), s0 = e.field("Src0"), s1 = e.field("Src1"), dst = e.field("Dst");
  std::array<uint32_t, 32> off{}, a{}, b{}, r{};
  for (unsigned i = 0; i < e.exec(); ++i) {
    off[i] = e.rawU32(offs, i);
    a[i] = e.rawU32(s0, i);
    b[i] = e.rawU32(s1, i);
  }
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1)
      r[i] = static_cast<uint32_t>(atomicLane(e, surfaceTarget(e, surf, off[i] & ~(bytes - 1), bytes), bytes, i, code, a[i], b[i]));
  e.endAccesses();
  if (e.rawNull(dst)) return;  // "Dst is permitted to be V0, in which case no value will be returned"
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) e.setRawU32(dst, i, r[i]);
}

// SVM_ATOMIC page:
//   for (i = 0; i < exec_size; ++i) if (ChEn[i]) {
//     dst[i] = *(addresses[i]);
//     *(addresses[i]) = op(*(addresses[i]), src0, src1);   // 2, 4 or 8 bytes
//   }
// As DWORD_ATOMIC (M2-M4); .64: qword sources and Dst (M3).
void svmAtomic(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const unsigned opv = static_cast<unsigned>(e.value(e.field("Op"))), code = opv & kOpBits;
  const unsigned bytes = (opv & kOp64) ? 8 : (opv & kOp16) ? 2 : 4, elem = bytes == 8 ? 8 : 4;
  const int addrs = e.field("Addresses"), s0 = e.field("Src0"), s1 = e.field("Src1"), dst = e.field("Dst");
  std::array<uint64_t, 32> ad{}, a{}, b{}, r{};
  for (unsigned i = 0; i < e.exec(); ++i) {
    ad[i] = e.rawBits(addrs, 8 * i, 8);
    a[i] = e.rawBits(s0, elem * i, elem);
    b[i] = e.rawBits(s1, elem * i, elem);
  }
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) r[i] = atomicLane(e, flatTarget(e, ad[i] & ~uint64_t{bytes - 1}, bytes), bytes, i, code, a[i], b[i]);
  e.endAccesses();
  if (e.rawNull(dst)) return;
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1) e.setRawBits(dst, elem * i, elem, r[i]);
}

unsigned svmBlockBytes(const Exec& e) {
  const uint64_t bs = e.value(e.field("Block_size"));
  return bs == 2 ? 8 : bs == 1 ? 4 : 1;
}

// SVM_GATHER page:
//   if (block_size == 4 || block_size == 8)
//     dst[j*exec_size+i] = *(Addresses[i] + j*block_size);       // j < num_blocks
//   else  // block_size == 1
//     dst[i*max(4, num_blocks)+j] = *(Addresses[i] + j);         // 1 byte
// (M7): addresses aligned down to the block size; a 1-byte lane's bytes past
// num_blocks are zero (E1); disabled lanes keep their old values (E9).
void svmGather(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const unsigned bs = svmBlockBytes(e), nb = 1u << (e.value(e.field("Num_blocks")) & 3), exec = e.exec();
  const int addrs = e.field("Addresses"), dst = e.field("Dst");
  std::array<uint64_t, 32> ad{};
  for (unsigned i = 0; i < exec; ++i) ad[i] = e.rawBits(addrs, 8 * i, 8) & ~uint64_t{bs - 1};
  std::array<uint64_t, 8 * 32> v{};
  for (unsigned i = 0; i < exec; ++i)
    if ((en >> i) & 1)
      for (unsigned j = 0; j < nb; ++j) v[i * 8 + j] = load(e, flatTarget(e, ad[i] + uint64_t{j} * bs, bs), bs, i);
  e.endAccesses();
  const unsigned mb = std::max(4u, nb);
  for (unsigned i = 0; i < exec; ++i) {
    if (!((en >> i) & 1)) continue;
    if (bs == 1)
      for (unsigned j = 0; j < mb; ++j) e.setRawBits(dst, i * mb + j, 1, j < nb ? v[i * 8 + j] : 0);
    else
      for (unsigned j = 0; j < nb; ++j) e.setRawBits(dst, (j * exec + i) * bs, bs, v[i * 8 + j]);
  }
}

// SVM_SCATTER page:
//   *(Addresses[i] + j*block_size) = src[j*exec_size+i];      // 4 or 8 bytes
//   *(Addresses[i] + j) = src[i*max(4, num_blocks)+j];        // 1 byte
// (M7); a later write in this loop order wins (E3).
void svmScatter(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const unsigned bs = svmBlockBytes(e), nb = 1u << (e.value(e.field("Num_blocks")) & 3), exec = e.exec();
  const unsigned mb = std::max(4u, nb);
  const int addrs = e.field("Addresses"), src = e.field("Src");
  for (unsigned i = 0; i < exec; ++i) {
    if (!((en >> i) & 1)) continue;
    const uint64_t a = e.rawBits(addrs, 8 * i, 8) & ~uint64_t{bs - 1};
    for (unsigned j = 0; j < nb; ++j) {
      const uint64_t v = bs == 1 ? e.rawBits(src, i * mb + j, 1) : e.rawBits(src, (j * exec + i) * bs, bs);
      store(e, flatTarget(e, a + uint64_t{j} * bs, bs), bs, i, v);
    }
  }
  e.endAccesses();
}

// SVM_GATHER4_SCALED / SVM_SCATTER4_SCALED pages:
//   dst[ch_pos*max(exec_size, GRF_SIZE/4)+i] = *(address + element_offset[i] + (c * 4));  // 4 bytes
// address + element_offset[i] mod 2^64, aligned down to a dword (M10).
template <bool kStore>
void svm4Scaled(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const unsigned chans = static_cast<unsigned>(e.value(e.field("Channels")) & 15);
  const unsigned stride = std::max<unsigned>(e.exec(), e.grfSize() / 4);
  const int offs = e.field("Element_offset"), data = e.field(kStore ? "Src" : "Dst");
  const uint64_t base = e.bits(e.field("Address"), 0);
  std::array<uint64_t, 32> ad{};
  for (unsigned i = 0; i < e.exec(); ++i) ad[i] = (base + e.rawBits(offs, 8 * i, 8)) & ~uint64_t{3};
  std::array<uint32_t, 128> v{};
  unsigned pos = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (!((chans >> c) & 1)) continue;
    for (unsigned i = 0; i < e.exec(); ++i) {
      if (!((en >> i) & 1)) continue;
      const Target t = flatTarget(e, ad[i] + 4 * c, 4);
      if constexpr (kStore) store(e, t, 4, i, e.rawU32(data, pos * stride + i));
      else v[pos * 32 + i] = static_cast<uint32_t>(load(e, t, 4, i));
    }
    ++pos;
  }
  e.endAccesses();
  if constexpr (kStore) return;
  for (unsigned p = 0; p < pos; ++p)
    for (unsigned i = 0; i < e.exec(); ++i)
      if ((en >> i) & 1) e.setRawU32(data, p * stride + i, v[p * 32 + i]);
}

// A block of n owords as dwords, each its own element (M11): dword k at
// at(4k) <-> data bytes 4k. No execution mask ("set to NoMask").
template <bool kStore, class At>
void blockDwords(Exec& e, int data, unsigned owords, At at) {
  e.countLanes(1);
  const unsigned n = std::min(owords, 16u) * 4;  // (the verifier allows 16 at most)
  std::array<uint32_t, 16 * 4> v{};
  for (unsigned k = 0; k < n; ++k) {
    const Target t = at(4 * k);
    if constexpr (kStore) store(e, t, 4, 0, e.rawU32(data, k));
    else v[k] = static_cast<uint32_t>(load(e, t, 4, 0, e.rawDest(data, 4 * k, 4)));
  }
  e.endAccesses();
  if constexpr (!kStore)
    for (unsigned k = 0; k < n; ++k) e.setRawU32(data, k, v[k]);
}

// SVM_BLOCK_LD / SVM_BLOCK_ST pages:
//   dst[i] = *(address+i*16);   // 16 bytes, oword- (or with .unaligned, dword-) aligned
// The address aligned down (M11).
template <bool kStore>
void svmBlock(Exec& e) {
  const uint64_t p = e.value(e.field("Properties"));
  const uint64_t align = (!kStore && (p & 8)) ? 4 : 16;
  const uint64_t base = e.bits(e.field("Address"), 0) & ~(align - 1);
  blockDwords<kStore>(e, e.field(kStore ? "Src" : "Dst"), 1u << (p & 7),
                      [&](uint64_t k) { return flatTarget(e, base + k, 4); });
}

// OWORD_LD / OWORD_ST pages: surface[offset+i] with the offset in owords;
// OWORD_LD_UNALIGNED: the offset in bytes, dword-aligned (aligned down) (M11).
template <bool kStore, bool kUnaligned>
void owordBlock(Exec& e) {
  const uint32_t surf = surfaceId(e);
  const uint64_t off = static_cast<uint32_t>(e.bits(e.field("Offset"), 0));
  const uint64_t base = kUnaligned ? off & ~uint64_t{3} : off * 16;
  blockDwords<kStore>(e, e.field(kStore ? "Src" : "Dst"), 1u << (e.value(e.field("Size")) & 7),
                      [&](uint64_t k) { return surfaceTarget(e, surf, base + k, 4); });
}

// GATHER / SCATTER pages (no Exec_size, no Pred): Num_elts bits 0-1 give 8, 16
// or 1 elements, bits 4-7 the execution mask (M12).
//   dst[i] = surface[global_offset+element_offset[i]];   // 1, 2 or 4 bytes
// The offsets are in elements: byte address ((global_offset + element_offset[i])
// mod 2^32) * elt_size; the upper bytes of a 1- or 2-byte read are zero (E1).
template <bool kStore>
void gatherScatter(Exec& e) {
  const uint64_t ne = e.value(e.field("Num_elts"));
  const unsigned n = (ne & 3) == 0 ? 8 : (ne & 3) == 1 ? 16 : 1;
  const unsigned emask = static_cast<unsigned>(ne >> 4) & 15;
  const uint32_t all = (1u << n) - 1;
  const uint32_t en = emaskNoMask(emask) ? all : (e.thread().em >> emaskOffset(emask)) & all;
  e.countLanes(en);
  if (!en) return;
  const uint32_t surf = surfaceId(e);
  const uint64_t ev = e.value(e.field("Elt_size"));
  const unsigned es = ev == 2 ? 4 : ev == 1 ? 2 : 1;
  const uint32_t g = static_cast<uint32_t>(e.bits(e.field("Global_offset"), 0));
  const int offs = e.field("Element_offset"), data = e.field(kStore ? "Src" : "Dst");
  std::array<uint64_t, 16> addr{};
  for (unsigned i = 0; i < n; ++i) addr[i] = uint64_t{static_cast<uint32_t>(g + e.rawU32(offs, i))} * es;
  std::array<uint32_t, 16> v{};
  for (unsigned i = 0; i < n; ++i) {
    if (!((en >> i) & 1)) continue;
    const Target t = surfaceTarget(e, surf, addr[i], es);
    if constexpr (kStore) store(e, t, es, i, e.rawU32(data, i));
    else v[i] = static_cast<uint32_t>(load(e, t, es, i));
  }
  e.endAccesses();
  if constexpr (!kStore)
    for (unsigned i = 0; i < n; ++i)
      if ((en >> i) & 1) e.setRawU32(data, i, v[i]);
}

// QW_GATHER page:
//   for (j = 0; j < num_blocks; ++j) dst[j*exec_size+i] = Surface[Offset[i] + j];  // 8 bytes
// with the byte address Offset[i] + 8*j, as QW_SCATTER (E6, E17) (M14).
void qwGather(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const uint32_t surf = surfaceId(e);
  const unsigned nb = 1u << (e.value(e.field("Num_blocks")) & 3);
  const int offs = e.field("Offset"), dst = e.field("Dst");
  std::array<uint64_t, 16> addr{};
  for (unsigned i = 0; i < e.exec(); ++i) addr[i] = e.rawU32(offs, i);
  std::array<uint64_t, 16 * 8> v{};
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1)
      for (unsigned j = 0; j < nb; ++j) v[i * 8 + j] = load(e, surfaceTarget(e, surf, addr[i] + 8 * j, 8), 8, i);
  e.endAccesses();
  for (unsigned i = 0; i < e.exec(); ++i)
    if ((en >> i) & 1)
      for (unsigned j = 0; j < nb; ++j) e.setRawBits(dst, 8 * (j * e.exec() + i), 8, v[i * 8 + j]);
}

constexpr SemEntry kMem[] = {
    {Opcode::GATHER4_SCALED, -1, gather4Scaled},
    {Opcode::DWORD_ATOMIC, -1, dwordAtomic},
    {Opcode::SVM, 1, svmBlock<false>},
    {Opcode::SVM, 2, svmBlock<true>},
    {Opcode::SVM, 3, svmGather},
    {Opcode::SVM, 4, svmScatter},
    {Opcode::SVM, 5, svmAtomic},
    {Opcode::SVM, 6, svm4Scaled<false>},
    {Opcode::SVM, 7, svm4Scaled<true>},
    {Opcode::OWORD_LD, -1, owordBlock<false, false>},
    {Opcode::OWORD_ST, -1, owordBlock<true, false>},
    {Opcode::OWORD_LD_UNALIGNED, -1, owordBlock<false, true>},
    {Opcode::GATHER, -1, gatherScatter<false>},
    {Opcode::SCATTER, -1, gatherScatter<true>},
    {Opcode::QW_GATHER, -1, qwGather},
};

}  // namespace

std::span<const SemEntry> memLegacySemantics() { return kMem; }

AtomicOp legacyAtomicOp(unsigned code, uint64_t& a, uint64_t& b) {
  using namespace memops;
  const uint64_t src0 = a, src1 = b;
  b = 0;
  switch (code) {
    case kAdd: return AtomicOp::Add;
    case kSub: return AtomicOp::Sub;
    case kInc: return AtomicOp::Inc;
    case kDec:
    case kPreDec: return AtomicOp::Dec;
    case kMin: return AtomicOp::Min;
    case kMax: return AtomicOp::Max;
    case kXchg: return AtomicOp::Xchg;
    // "CMPXCHG: new = (old==src1) ? src0 : old" (IGC swaps src0 and src1 for the hardware).
    case kCmpXchg: a = src1, b = src0; return AtomicOp::CmpXchg;
    case kAnd: return AtomicOp::And;
    case kOr: return AtomicOp::Or;
    case kXor: return AtomicOp::Xor;
    case kIMin: return AtomicOp::IMin;
    case kIMax: return AtomicOp::IMax;
    case kFMax: return AtomicOp::FMax;
    case kFMin: return AtomicOp::FMin;
    // "FCMPWR: new = (src0 == old) ? src1 : old".
    case kFCmpWr: a = src0, b = src1; return AtomicOp::FCmpXchg;
    case kFAdd: return AtomicOp::FAdd;
    case kFSub: return AtomicOp::FSub;
    default: return AtomicOp::Add;
  }
}

}  // namespace visakit::sim
