// The semantics' loops of memory messages run without an Exec when no
// observer is attached (under --check: the semantics themselves, observed,
// through execRef): SVM_GATHER / SVM_SCATTER, the atomics SVM_ATOMIC and
// DWORD_ATOMIC, and LSC_UNTYPED LOAD / STORE and atomics for the address
// models IGC uses (.slm, flat, bti(N) of an immediate N).
// Each reads its fields once, at decode, and runs the loops of its semantics
// in their order, through the same datum and address rules.
#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "isa/lsc.hpp"
#include "isa/mem_ops.hpp"
#include "sim/fast/copy.hpp"
#include "sim/fast/ctx.hpp"

namespace visakit::sim {
namespace {

// The start of each form: with an observer attached (--check) the
// instruction runs through its semantics instead, and the form does nothing
// (0); else its enabled lanes (ChEn), counted.
inline uint32_t formLanes(Ctx& c, const DInst& d) {
  if (c.observer) {
    execRef(c, d);
    return 0;
  }
  const uint32_t en = chEn(c, d);
  c.lanes += laneCount(en);
  return en;
}

// SVM_GATHER / SVM_SCATTER (sem/mem_legacy.cpp svmGather, svmScatter; M6,
// M7, M8, E1, E3, E9) as their semantics run them, each lane's virtual address
// found among the stateless space's allocations (statelessSpace), without an
// Exec; under --check (an observer) the semantics themselves, observed.
// (Ctx::read / write on a bound space; an unbound one is out of bounds, as Exec::load / store)
uint64_t svmLoad(Ctx& c, uint64_t addr, unsigned bytes, unsigned lane) {
  uint32_t id;
  uint64_t off;
  Space& s = statelessSpace(c.mem, addr, bytes, id, off);
  return s.bound ? c.read<false>(s, off, bytes, lane) : 0;
}
void svmStore(Ctx& c, uint64_t addr, unsigned bytes, unsigned lane, uint64_t v) {
  uint32_t id;
  uint64_t off;
  Space& s = statelessSpace(c.mem, addr, bytes, id, off);
  if (s.bound) c.write<false>(s, off, bytes, lane, v);
}
template <bool Scatter>
void svmBlocks(Ctx& c, const DInst& d) {
  const uint32_t en = formLanes(c, d);
  if (!en) return;
  const unsigned bs = d.numBlocks, nb = d.svmBlocks, exec = d.exec, mb = std::max(4u, nb);
  // Block j of lane i in the data payload: bytes i * mb + j of 1-byte blocks, else (j * exec + i) * bs.
  auto at = [&](unsigned i, unsigned j) { return bs == 1 ? i * mb + j : (j * exec + i) * bs; };
  auto address = [&](unsigned i) { return readRegBits(c.t, d.raw[0] + 8 * i, 8) & ~uint64_t{bs - 1}; };
  if constexpr (Scatter) {
    forEachLane(en, [&](unsigned i) {
      const uint64_t a = address(i);
      for (unsigned j = 0; j < nb; ++j)
        svmStore(c, a + uint64_t{j} * bs, bs, i, d.rawNull[1] ? 0 : readRegBits(c.t, d.raw[1] + at(i, j), bs));
    });
  } else {
    std::array<uint64_t, 8 * 32> v{};
    forEachLane(en, [&](unsigned i) {
      const uint64_t a = address(i);
      for (unsigned j = 0; j < nb; ++j) v[i * 8 + j] = svmLoad(c, a + uint64_t{j} * bs, bs, i);
    });
    if (d.rawNull[1]) return;
    forEachLane(en, [&](unsigned i) {
      if (bs == 1)  // (a 1-byte lane's bytes past num_blocks are zero: E1)
        for (unsigned j = 0; j < mb; ++j) writeRegBits(c.t, d.raw[1] + at(i, j), 1, j < nb ? v[i * 8 + j] : 0);
      else
        for (unsigned j = 0; j < nb; ++j) writeRegBits(c.t, d.raw[1] + at(i, j), bs, v[i * 8 + j]);
    });
  }
}
}  // namespace

Handler svmFormOf(const RefInst& r, DInst& d) {
  if (r.inst->op != Opcode::SVM || (r.row->subOp != 3 && r.row->subOp != 4)) return nullptr;
  const bool scatter = r.row->subOp == 4;
  const RefOperand& addrs = r.f[r.row->findName("Addresses")];
  const RefOperand& data = r.f[r.row->findName(scatter ? "Src" : "Dst")];
  if (addrs.null) return nullptr;  // (every lane's address 0: the semantics)
  const uint64_t bs = r.f[r.row->findName("Block_size")].value;
  d.numBlocks = bs == 2 ? 8 : bs == 1 ? 4 : 1;
  d.svmBlocks = static_cast<uint8_t>(1u << (r.f[r.row->findName("Num_blocks")].value & 3));
  d.raw[0] = addrs.base;
  d.raw[1] = data.base;
  d.rawNull[1] = data.null;
  return scatter ? svmBlocks<true> : svmBlocks<false>;
}

namespace {

// An atomic on one element (Exec::atomic without the observers): out of
// bounds (E2) nothing changes and 0 is returned; else atomicApply, its bytes
// counted as read and written.
uint64_t atomicElement(Ctx& c, Space& s, uint64_t off, unsigned bytes, AtomicOp op, uint64_t a, uint64_t b, bool& ok) {
  off = spaceAddress(s, off);  // E31 (SLM)
  ok = s.bound && inBounds(s, off, bytes);
  if (!ok) return 0;
  c.spaceBytes[s.statIndex][0] += bytes;
  c.spaceBytes[s.statIndex][1] += bytes;
  return atomicApply(s, off, bytes, op, a, b);
}

// SVM_ATOMIC and DWORD_ATOMIC (sem/mem_legacy.cpp svmAtomic, dwordAtomic,
// atomicLane; M2, M3, M4, M8, E2): every source read first, then lane by
// lane in order the operation on the element at the lane's address (SVM: a
// virtual address in the stateless space; DWORD: Element_offset in a surface
// bound as it is, no MOVS state on it and not an unbound %scratch, else
// through the semantics) aligned down to its size; the old value (PREDEC: the
// new one) to Dst unless it is %null.
template <bool Dword>
void legacyAtomicLanes(Ctx& c, const DInst& d) {
  const auto& spaces = *c.mem.spaces;
  const uint32_t surf = d.surface;
  if (Dword && (surf >= spaces.size() || (surf < c.t.surfState.size() && c.t.surfState[surf] != kNoSurface) ||
                (surf == kSurfScratch && !spaces[kSurfScratch].bound)))
    return execRef(c, d);
  const uint32_t en = formLanes(c, d);
  if (!en) return;
  const unsigned bytes = d.atomicBytes, elem = bytes == 8 ? 8 : 4, addrBytes = Dword ? 4 : 8;
  const uint64_t mask = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
  std::array<uint64_t, 32> ad, a, b, r;
  forEachLane(en, [&](unsigned i) {
    ad[i] = readRegBits(c.t, d.raw[0] + addrBytes * i, addrBytes);
    a[i] = d.rawNull[1] ? 0 : readRegBits(c.t, d.raw[1] + elem * i, elem);
    b[i] = d.rawNull[2] ? 0 : readRegBits(c.t, d.raw[2] + elem * i, elem);
  });
  forEachLane(en, [&](unsigned i) {
    uint64_t x = a[i], y = b[i];
    const AtomicOp op = legacyAtomicOp(d.atomicCode, x, y);
    uint32_t id;
    uint64_t off = ad[i] & ~uint64_t{bytes - 1};
    Space& s = Dword ? (*c.mem.spaces)[surf] : statelessSpace(c.mem, off, bytes, id, off);
    bool ok;
    const uint64_t old = atomicElement(c, s, off, bytes, op, x & mask, y & mask, ok);
    r[i] = d.atomicCode == memops::kPreDec && ok ? (old - 1) & mask : old;  // "PREDEC: ... New value"
  });
  if (d.rawNull[3]) return;  // "Dst is permitted to be V0, in which case no value will be returned"
  forEachLane(en, [&](unsigned i) { writeRegBits(c.t, d.raw[3] + elem * i, elem, r[i]); });
}

}  // namespace

Handler svmAtomicFormOf(const RefInst& r, DInst& d) {
  const bool dword = r.inst->op == Opcode::DWORD_ATOMIC;
  if (!dword && (r.inst->op != Opcode::SVM || r.row->subOp != 5)) return nullptr;
  auto field = [&](const char* name) -> const RefOperand& { return r.f[static_cast<size_t>(r.row->findName(name))]; };
  const unsigned opv = static_cast<unsigned>(field("Op").value);
  d.atomicCode = static_cast<uint8_t>(opv & memops::kOpBits);
  d.atomicBytes = static_cast<uint8_t>((opv & memops::kOp64) ? 8 : (opv & memops::kOp16) ? 2 : 4);
  if (dword) d.surface = field("Surface").id;
  const char* names[] = {dword ? "Element_offset" : "Addresses", "Src0", "Src1", "Dst"};
  for (unsigned k = 0; k < 4; ++k) {
    const RefOperand& o = field(names[k]);
    d.raw[k] = o.base;
    d.rawNull[k] = o.null;
  }
  if (d.rawNull[0]) return nullptr;  // (every lane's address 0: the semantics)
  return dword ? legacyAtomicLanes<true> : legacyAtomicLanes<false>;
}

namespace {

using lsc::dataOffset;

// The data of one message: 32 lanes of 8 components, or one lane of 64 (transposed).
constexpr unsigned kLscMaxData = 256;

// LSC_UNTYPED LOAD, STORE, STORE_UNCOMPRESSED (sem/lsc.cpp load, store; L3,
// L4, L5, L8, L11, L12, E2, E3, E9): each enabled lane's address Base +
// AddrScale*Src0Addrs[n] + AddrImmOffset wrapped to AddrSize, component v at
// v data sizes past it. A load reads every datum before DstData is written;
// a store writes lane by lane, components inner (a later lane's write wins).
using Addrs = std::array<uint64_t, 32>;
template <uint8_t AddrSize>
inline void lscAddressesOf(const Ctx& c, const DInst& d, Addrs& a) {
  constexpr unsigned ab = lsc::addrBytes(AddrSize);
  using T = std::conditional_t<ab == 2, uint16_t, std::conditional_t<ab == 4, uint32_t, uint64_t>>;
  const DInst::Lsc& m = d.lsc;
  auto at = [&](uint64_t v) { return lsc::wrapAddr(m.scale * v + static_cast<uint64_t>(m.imm), AddrSize); };
  if (d.raw[0] + uint64_t{d.exec} * ab <= c.t.regs.size()) {
    const uint8_t* p = c.t.regs.data() + d.raw[0];
    for (unsigned n = 0; n < d.exec; ++n) {
      T v;
      std::memcpy(&v, p + n * ab, ab);
      a[n] = at(v);
    }
    return;
  }
  for (unsigned n = 0; n < d.exec; ++n) a[n] = at(readRegBits(c.t, d.raw[0] + n * ab, ab));  // (past the register file: 0)
}
inline void lscAddresses(const Ctx& c, const DInst& d, Addrs& a) {
  switch (d.lsc.addrSize) {
    case lsc::kA16: return lscAddressesOf<lsc::kA16>(c, d, a);
    case lsc::kA32: return lscAddressesOf<lsc::kA32>(c, d, a);
    default: return lscAddressesOf<lsc::kA64>(c, d, a);
  }
}
// The space of a datum: the group's SLM, the binding-table surface, or the stateless allocation holding it.
inline Space& lscSpace(Ctx& c, Space* fixed, uint64_t addr, unsigned bytes, uint64_t& off) {
  if (fixed) {
    off = addr;
    return *fixed;
  }
  uint32_t id;
  return statelessSpace(c.mem, addr, bytes, id, off);
}
inline Space* lscFixedSpace(Ctx& c, const DInst& d) {
  uint32_t id;
  switch (d.lsc.model) {
    case DInst::Lsc::Model::Slm: return &(*c.mem.spaces)[kSurfSlm];
    case DInst::Lsc::Model::Bti: return &tableSurface(c.mem, d.lsc.bti, id);
    default: break;
  }
  return nullptr;
}
// The space of an ss or bss message (sem/lsc.cpp where): %scratch or %bss as
// the launch binds it; a thread's own %scratch bytes (spec-decisions L9) where
// they lie, the lanes' addresses `a` moved there. nullptr where the semantics
// take another way: a MOVS gave the surface a binding-table index, %scratch is
// unbound (the stateless space), or an element of an enabled lane lies past
// the thread's own bytes (out of bounds there, E2).
inline Space* lscScratchSpace(Ctx& c, const DInst& d, uint32_t en, Addrs& a, unsigned mb) {
  const uint32_t id = d.lsc.model == DInst::Lsc::Model::Ss ? kSurfScratch : kSurfBss;
  const ThreadState& t = c.t;
  if (id < t.surfState.size() && t.surfState[id] != kNoSurface) return nullptr;
  Space& s = (*c.mem.spaces)[id];
  if (id != kSurfScratch) return &s;
  if (!s.bound) return nullptr;
  if (!t.ownScratch) return &s;
  const uint64_t span = uint64_t{d.lsc.comps} * mb, limit = t.scratchSize;
  bool inside = true;
  forEachLane(en, [&](unsigned n) { inside &= a[n] <= limit && span <= limit - a[n]; });
  if (!inside) return nullptr;
  for (unsigned n = 0; n < d.exec; ++n) a[n] += t.scratchBase;
  return &s;
}

// A message whose data are one run in memory and in the payload, copied as a
// block: every lane on with consecutive addresses of one datum each, or the
// vector of a transposed message's one lane; the run in bounds of one space
// (E2), datums in memory as in the register (no 32-bit container). False: the
// message is not such a run.
template <bool Store, unsigned Bytes>
bool lscRun(Ctx& c, const DInst& d, uint32_t en, const Addrs& a, Space* fixed) {
  using T = std::conditional_t<Bytes == 1, uint8_t,
                               std::conditional_t<Bytes == 2, uint16_t, std::conditional_t<Bytes == 4, uint32_t, uint64_t>>>;
  const DInst::Lsc& m = d.lsc;
  if (!m.transposed) {
    if (m.comps != 1 || en != execMaskBits(d.exec) || a[d.exec - 1] != a[0] + uint64_t{d.exec - 1u} * Bytes) return false;
    bool run = true;
    for (unsigned n = 1; n < d.exec; ++n) run &= a[n] == a[0] + uint64_t{n} * Bytes;
    if (!run) return false;
  }
  const uint64_t bytes = uint64_t{m.transposed ? m.comps : d.exec} * Bytes;
  uint64_t off = a[0];
  uint32_t id;
  Space& s = fixed ? *fixed : statelessSpace(c.mem, a[0], static_cast<unsigned>(bytes), id, off);
  const uint32_t reg = d.raw[Store ? 2 : 1];
  if (!s.bound || spaceAddress(s, off) != off || !inBounds(s, off, bytes) || (!s.plain && off % Bytes) ||
      (Store && d.rawNull[2]) || reg > c.t.regs.size() || bytes > c.t.regs.size() - reg)
    return false;
  uint8_t* r = c.t.regs.data() + reg;
  uint8_t* to = Store ? s.data + off : r;
  const uint8_t* from = Store ? r : s.data + off;
  if (!s.plain) {
    if constexpr (Store) atomicCopyOut<T>(to, from, bytes);
    else atomicCopyIn<T>(from, to, bytes);
  } else if (bytes == 64) {  // (SIMD16 of d32: IGC's usual message)
    copyFixed<64>(to, from);
  } else if (bytes == 128) {
    copyFixed<128>(to, from);
  } else {
    std::memcpy(to, from, bytes);
  }
  c.spaceBytes[s.statIndex][Store ? 1 : 0] += bytes;
  return true;
}

// A load whose enabled lanes share one address (IGC's read of a tile's row
// in SLM, a scalar): its components read once, every one in bounds (E2), and
// given to each lane. False: it is not such a load.
template <uint8_t DataSize>
bool lscUniformLoad(Ctx& c, const DInst& d, uint32_t en, const Addrs& a, Space* fixed) {
  constexpr unsigned mb = lsc::memBytes(DataSize), rb = lsc::regBytes(DataSize);
  const DInst::Lsc& m = d.lsc;
  const uint64_t a0 = a[static_cast<unsigned>(std::countr_zero(en))];
  if (a[31u - static_cast<unsigned>(std::countl_zero(en))] != a0) return false;
  bool same = true;
  for (unsigned n = 0; n < d.exec; ++n) same &= !((en >> n) & 1) || a[n] == a0;
  if (!same) return false;
  std::array<uint64_t, kLscMaxData> x;
  std::array<Space*, kLscMaxData> sp;
  for (unsigned v = 0; v < m.comps; ++v) {
    uint64_t off;
    Space& s = lscSpace(c, fixed, a0 + uint64_t{v} * mb, mb, off);
    off = spaceAddress(s, off);  // E31 (SLM)
    if (!s.bound || !inBounds(s, off, mb)) return false;
    x[v] = lsc::toReg(memLoad(s, off, mb), DataSize);
    sp[v] = &s;
  }
  const unsigned lanes = laneCount(en);
  for (unsigned v = 0; v < m.comps; ++v) c.spaceBytes[sp[v]->statIndex][0] += uint64_t{mb} * lanes;
  if (!m.transposed && en == execMaskBits(d.exec) &&
      d.raw[1] + uint64_t{m.comps - 1u} * m.stride + uint64_t{d.exec} * rb <= c.t.regs.size()) {
    for (unsigned v = 0; v < m.comps; ++v) {  // (each component's lanes one run of the payload)
      uint8_t* p = c.t.regs.data() + d.raw[1] + v * m.stride;
      const auto x1 = static_cast<std::conditional_t<rb == 8, uint64_t, std::conditional_t<rb == 4, uint32_t,
                                                     std::conditional_t<rb == 2, uint16_t, uint8_t>>>>(x[v]);
      for (unsigned n = 0; n < d.exec; ++n) std::memcpy(p + n * rb, &x1, rb);
    }
    return true;
  }
  forEachLane(en, [&](unsigned n) {
    for (unsigned v = 0; v < m.comps; ++v)
      writeRegBits(c.t, d.raw[1] + dataOffset(m.transposed, m.comps, rb, m.stride, v, n), rb, x[v]);
  });
  return true;
}

// A message with every element in bounds (E2) of one space, at addresses
// `base` on (a bound SLM or binding-table surface: 0; flat: the allocation
// of the first enabled lane's, every element inside it), and the payload
// inside the register file: each datum straight between its place in memory
// and in the payload (the addresses are read already; a store keeps the order
// of lanes, components inner). False: not so.
template <bool Store, uint8_t DataSize>
bool lscInBounds(Ctx& c, const DInst& d, uint32_t en, const Addrs& a, Space& s, uint64_t base, uint64_t size) {
  constexpr unsigned mb = lsc::memBytes(DataSize), rb = lsc::regBytes(DataSize);
  const DInst::Lsc& m = d.lsc;
  const uint32_t reg = d.raw[Store ? 2 : 1];
  const uint64_t last = m.transposed ? uint64_t{m.comps} * rb : uint64_t{m.comps - 1u} * m.stride + uint64_t{d.exec} * rb;
  if (!s.bound || size < mb || reg + last > c.t.regs.size() || (Store && d.rawNull[2])) return false;
  const uint64_t limit = size - mb;
  uint8_t* r = c.t.regs.data() + reg;
  auto move = [&](uint64_t addr, uint8_t* p) {
    const uint64_t off = spaceAddress(s, addr - base);  // E31 (SLM)
    uint64_t x = 0;
    if constexpr (Store) {
      std::memcpy(&x, p, rb);
      memStore(s, off, mb, lsc::toMem(x, DataSize));
    } else {
      x = lsc::toReg(memLoad(s, off, mb), DataSize);
      std::memcpy(p, &x, rb);
    }
  };
  // Every lane, one component (a store's lanes in order) or a load.
  if (!m.transposed && en == execMaskBits(d.exec) && (!Store || m.comps == 1)) {
    // (each lane's components follow its first in the space: the last one's offset is in bounds)
    uint64_t most = 0;
    for (unsigned n = 0; n < d.exec; ++n) most = std::max(most, spaceAddress(s, a[n] - base));
    const uint64_t span = uint64_t{m.comps - 1u} * mb;
    if (most > limit || span > limit - most) return false;
    if constexpr (Store) {
      for (unsigned n = 0; n < d.exec; ++n) move(a[n], r + n * rb);
    } else {
      // A load by groups of 8 lanes: a group at one address (a row of a tile
      // in SLM that a SIMD32 half reads) reads it once; a group at consecutive
      // addresses of a plain space copies them; any other, datum by datum.
      for (unsigned g = 0; g < d.exec; g += 8) {
        const unsigned lanes = std::min(8u, d.exec - g);
        bool one = true, run = mb == rb && s.plain;
        for (unsigned i = 1; i < lanes; ++i) {
          one &= a[g + i] == a[g];
          run &= a[g + i] == a[g] + uint64_t{i} * mb;
        }
        for (unsigned v = 0; v < m.comps; ++v) {
          uint8_t* p = r + v * m.stride + g * rb;
          const uint64_t at = a[g] + uint64_t{v} * mb, off = spaceAddress(s, at - base);  // E31 (SLM)
          if (one) {
            const uint64_t x = lsc::toReg(memLoad(s, off, mb), DataSize);
            for (unsigned i = 0; i < lanes; ++i) std::memcpy(p + i * rb, &x, rb);
          } else if (run && spaceAddress(s, at - base + uint64_t{lanes - 1} * mb) == off + uint64_t{lanes - 1} * mb) {
            std::memcpy(p, s.data + off, uint64_t{lanes} * mb);
          } else {
            for (unsigned i = 0; i < lanes; ++i) move(a[g + i] + uint64_t{v} * mb, p + i * rb);
          }
        }
      }
    }
    c.spaceBytes[s.statIndex][Store ? 1 : 0] += uint64_t{mb} * m.comps * d.exec;
    return true;
  }
  bool inside = true;
  forEachLane(en, [&](unsigned n) {
    for (unsigned v = 0; v < m.comps; ++v) inside &= spaceAddress(s, a[n] + uint64_t{v} * mb - base) <= limit;
  });
  if (!inside) return false;
  forEachLane(en, [&](unsigned n) {
    for (unsigned v = 0; v < m.comps; ++v) move(a[n] + uint64_t{v} * mb, r + dataOffset(m.transposed, m.comps, rb, m.stride, v, n));
  });
  c.spaceBytes[s.statIndex][Store ? 1 : 0] += uint64_t{mb} * m.comps * laneCount(en);
  return true;
}

template <bool Store, uint8_t DataSize>
void lscUntyped(Ctx& c, const DInst& d) {
  constexpr unsigned mb = lsc::memBytes(DataSize), rb = lsc::regBytes(DataSize);
  const DInst::Lsc& m = d.lsc;
  const unsigned comps = m.comps;
  Addrs a;
  Space* fixed = nullptr;
  if (m.model == DInst::Lsc::Model::Ss || m.model == DInst::Lsc::Model::Bss) {
    if (!c.observer) {  // (--check: the semantics, formLanes)
      lscAddresses(c, d, a);
      fixed = lscScratchSpace(c, d, chEn(c, d), a, mb);
    }
    if (!fixed) return execRef(c, d);
  }
  const uint32_t en = formLanes(c, d);
  if (!en || (!Store && d.rawNull[1])) return;  // (a %null DstData: a prefetch, no access, L12)
  if (!fixed) {
    lscAddresses(c, d, a);
    fixed = lscFixedSpace(c, d);
  }
  if constexpr (mb == rb)
    if (lscRun<Store, mb>(c, d, en, a, fixed)) return;
  if constexpr (!Store)
    if (lscUniformLoad<DataSize>(c, d, en, a, fixed)) return;
  if (fixed) {
    if (lscInBounds<Store, DataSize>(c, d, en, a, *fixed, 0, fixed->size)) return;
  } else if (const FlatRange* f = c.mem.flat ? flatRange(*c.mem.flat, a[std::countr_zero(en)], mb) : nullptr) {
    if (lscInBounds<Store, DataSize>(c, d, en, a, (*c.mem.spaces)[f->spaceId], f->base, std::min(f->size, (*c.mem.spaces)[f->spaceId].size)))
      return;
  }
  auto at = [&](unsigned v, unsigned n) { return dataOffset(m.transposed, comps, rb, m.stride, v, n); };
  if constexpr (Store) {
    forEachLane(en, [&](unsigned n) {
      for (unsigned v = 0; v < comps; ++v) {
        uint64_t off;
        Space& s = lscSpace(c, fixed, a[n] + uint64_t{v} * mb, mb, off);
        const uint64_t x = d.rawNull[2] ? 0 : readRegBits(c.t, d.raw[2] + at(v, n), rb);
        if (s.bound) c.write<false>(s, off, mb, n, lsc::toMem(x, DataSize));
      }
    });
  } else {
    std::array<uint64_t, kLscMaxData> x;
    unsigned k = 0;
    forEachLane(en, [&](unsigned n) {
      for (unsigned v = 0; v < comps; ++v) {
        uint64_t off;
        Space& s = lscSpace(c, fixed, a[n] + uint64_t{v} * mb, mb, off);
        x[k++] = s.bound ? c.read<false>(s, off, mb, n) : 0;
      }
    });
    k = 0;
    forEachLane(en, [&](unsigned n) {
      for (unsigned v = 0; v < comps; ++v) writeRegBits(c.t, d.raw[1] + at(v, n), rb, lsc::toReg(x[k++], DataSize));
    });
  }
}
template <bool Store>
Handler lscHandler(uint64_t dataSize) {
  using namespace lsc;
  switch (dataSize) {
    case kD8: return lscUntyped<Store, kD8>;
    case kD16: return lscUntyped<Store, kD16>;
    case kD32: return lscUntyped<Store, kD32>;
    case kD64: return lscUntyped<Store, kD64>;
    case kD8c32: return lscUntyped<Store, kD8c32>;
    case kD16c32: return lscUntyped<Store, kD16c32>;
    case kD16c32h: return lscUntyped<Store, kD16c32h>;
    default: return nullptr;
  }
}

// The LSC atomics (sem/lsc.cpp atomic; L14, E2): every source read first
// (Src1Data, Src2Data; DataSize datums, one per lane), then lane by lane in
// order the operation on the datum at the lane's address; the old values to
// DstData unless it is %null.
template <uint8_t DataSize>
void lscAtomic(Ctx& c, const DInst& d) {
  const uint32_t en = formLanes(c, d);
  if (!en) return;
  constexpr unsigned mb = lsc::memBytes(DataSize), rb = lsc::regBytes(DataSize);
  const DInst::Lsc& m = d.lsc;
  Addrs ad;
  lscAddresses(c, d, ad);
  std::array<uint64_t, 32> a, b, old;
  auto at = [&](unsigned n) { return dataOffset(m.transposed, 1, rb, m.stride, 0, n); };
  forEachLane(en, [&](unsigned n) {
    a[n] = d.rawNull[2] ? 0 : lsc::toMem(readRegBits(c.t, d.raw[2] + at(n), rb), DataSize);
    b[n] = d.rawNull[3] ? 0 : lsc::toMem(readRegBits(c.t, d.raw[3] + at(n), rb), DataSize);
  });
  const AtomicOp op = lscAtomicOp(d.atomicCode);
  Space* fixed = lscFixedSpace(c, d);
  forEachLane(en, [&](unsigned n) {
    uint64_t off;
    Space& s = lscSpace(c, fixed, ad[n], mb, off);
    bool ok;
    old[n] = atomicElement(c, s, off, mb, op, a[n], b[n], ok);
  });
  if (d.rawNull[1]) return;
  forEachLane(en, [&](unsigned n) { writeRegBits(c.t, d.raw[1] + at(n), rb, lsc::toReg(old[n], DataSize)); });
}

Handler lscAtomicHandler(uint64_t dataSize) {
  using namespace lsc;
  switch (dataSize) {
    case kD16: return lscAtomic<kD16>;
    case kD32: return lscAtomic<kD32>;
    case kD64: return lscAtomic<kD64>;
    case kD16c32: return lscAtomic<kD16c32>;
    default: return nullptr;  // (not an atomic's size: L6)
  }
}

}  // namespace

Handler lscFormOf(const Program& p, const RefInst& r, DInst& d) {
  using namespace lsc;
  const InstrDesc& row = *r.row;
  if (row.op != Opcode::LSC_UNTYPED) return nullptr;
  const bool store = row.subOp == kStore || row.subOp == kStoreUncompressed;
  const bool atomic = row.has(kAtomic) && row.subOp != kApndctrAdd && row.subOp != kApndctrSub;
  if (!store && !atomic && row.subOp != kLoad) return nullptr;
  auto field = [&](const char* name) -> const RefOperand& { return r.f[static_cast<size_t>(row.findName(name))]; };
  DInst::Lsc m;
  const uint64_t sfid = field("LscSFID").value, type = field("AddrType").value;
  const RefOperand& surface = field("Surface");
  if (sfid == kSlm) {
    m.model = DInst::Lsc::Model::Slm;
  } else if (type == kFlat) {
    m.model = DInst::Lsc::Model::Flat;
  } else if (type == kBti && surface.kind == Operand::Kind::Immediate) {
    m.model = DInst::Lsc::Model::Bti;
    m.bti = static_cast<uint32_t>(surface.imm[0]);
  } else if ((type == kSs || type == kBss) && !atomic) {
    m.model = type == kSs ? DInst::Lsc::Model::Ss : DInst::Lsc::Model::Bss;  // (its surface state: the space, L9)
  } else {
    return nullptr;  // arg, a surface in a register, atomics of ss and bss: the semantics
  }
  const uint64_t dataSize = field("DataSize").value;
  m.comps = static_cast<uint8_t>(vecLen(field("DataElemsPerAddr").value));
  m.transposed = field("DataOrder").value == kTranspose;
  m.addrSize = static_cast<uint8_t>(field("AddrSize").value);
  m.addrBytes = static_cast<uint8_t>(addrBytes(m.addrSize));
  m.scale = static_cast<uint16_t>(field("AddrScale").value);
  m.imm = static_cast<int32_t>(static_cast<uint32_t>(field("AddrImmOffset").value));
  m.stride = componentStride(r.exec, regBytes(dataSize), p.grfSize);
  const RefOperand& addrs = field("Src0Addrs");
  const Handler h = atomic ? lscAtomicHandler(dataSize) : store ? lscHandler<true>(dataSize) : lscHandler<false>(dataSize);
  if (!h || m.comps == 0 || uint32_t{r.exec} * m.comps > kLscMaxData || addrs.null || r.exec != d.exec) return nullptr;
  d.lsc = m;
  d.atomicCode = static_cast<uint8_t>(row.subOp);
  // raw: 0 the addresses, 1 DstData, 2 Src1Data, 3 Src2Data (as the row has them)
  const char* names[] = {"Src0Addrs", "DstData", "Src1Data", "Src2Data"};
  for (unsigned k = 0; k < 4; ++k) {
    const RefOperand& o = field(names[k]);
    d.raw[k] = o.base;
    d.rawNull[k] = o.null;
  }
  return h;
}

}  // namespace visakit::sim
