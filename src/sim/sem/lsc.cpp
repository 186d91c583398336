// The LSC messages' semantics, each as its page's pseudo-code (LSC_UNTYPED,
// LSC_FENCE), with the decisions of docs/spec-decisions.md "LSC messages
// (family L)". LSC_TYPED needs the surface state (format, dimensions) that
// visakit does not model: its rows have no semantics (L15).
#include <algorithm>
#include <array>
#include <vector>

#include "isa/lsc.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim {
namespace {

using namespace lsc;

uint64_t val(const Exec& e, const char* name) {
  int f = e.field(name);
  return f >= 0 ? e.value(f) : 0;
}

// Where the elements of a message are (L8, L9, L18, L19, L20): the page's
//   Base = flat ? 0 : bss ? BindlessSurfaceStateHeap[Surface] : ss ? SurfaceStateHeap[Surface]
//        : bti ? BindingTable[Surface] : arg ? IndirectDataBase
// as visakit's spaces: .slm is the group's SLM at the offset; flat .ugm/.ugml
// the stateless address space; bti(N) the launch's binding table (--bti);
// ss the %scratch surface (unbound: the stateless space, as M1; in a launch
// that gives each thread slot its own %scratch bytes, relative to the
// thread's, as the scratch surface state of Xe-HP and later makes it), bss
// the %bss surface; arg no memory.
struct Where {
  Exec& e;
  bool flat = false;
  Space* space = nullptr;
  uint32_t id = 0;
  bool own = false;  // the thread's own %scratch bytes [base, base + limit)
  uint64_t base = 0, limit = 0;
  Space& at(uint64_t addr, unsigned bytes, uint32_t& sid, uint64_t& off) {
    if (flat) return e.flatSpace(addr, bytes, sid, off);
    sid = id;
    off = addr;
    if (own) {
      off = base + addr;
      if (addr > limit || bytes > limit - addr) return e.unbound();  // past the thread's scratch: out of bounds (E2)
    }
    return *space;
  }
};

Where where(Exec& e, uint64_t sfid, uint64_t type) {
  Where w{e};
  if (sfid == kSlm) {
    w.id = kSurfSlm;
    w.space = &e.surface(kSurfSlm);
  } else if (type == kFlat) {
    w.flat = true;
  } else if (type == kBti) {
    // Surface: an immediate or the register's element 0 (a scalar).
    w.space = &e.btiSurface(e.bits(e.field("Surface"), 0) & 0xffffffffu, w.id);
  } else if (type == kSs && !e.surface(kSurfScratch).bound &&
             (kSurfScratch >= e.thread().surfState.size() || e.thread().surfState[kSurfScratch] == kNoSurface)) {
    w.flat = true;  // an unbound %scratch: the stateless space, the address an A32 one
  } else if (type == kSs || type == kBss) {
    w.id = type == kSs ? kSurfScratch : kSurfBss;
    w.space = &e.boundSurface(w.id);
    if (type == kSs && w.id == kSurfScratch && e.thread().ownScratch) {
      w.own = true;
      w.base = e.thread().scratchBase;
      w.limit = e.thread().scratchSize;
    }
  } else {  // arg: the indirect data is not modeled
    w.id = kFlatSpace;
    w.space = &e.unbound();
  }
  return w;
}

// Where datum (lane n, component v) is in a data payload (L4, lsc::dataOffset).
struct Layout {
  unsigned rb = 4;          // register bytes of a datum
  unsigned vec = 1;         // components
  uint32_t stride = 0;      // non-transposed: bytes from one component to the next
  bool transposed = false;
  uint32_t off(unsigned v, unsigned n) const { return dataOffset(transposed, vec, rb, stride, v, n); }
};
Layout layoutOf(const Exec& e, unsigned comps) {
  Layout l;
  const uint64_t ds = val(e, "DataSize");
  l.rb = regBytes(ds);
  l.vec = comps;
  l.transposed = val(e, "DataOrder") == kTranspose;
  l.stride = componentStride(e.exec(), l.rb, e.grfSize());
  return l;
}

// The components of each address: DataElemsPerAddr, or the ChMask channels
// in X, Y, Z, W order (LOAD_QUAD / STORE_QUAD), as (memory element, register component).
unsigned components(const Exec& e, bool quad, std::array<uint8_t, 64>& memElem) {
  if (quad) {
    unsigned m = 0;
    const uint64_t mask = val(e, "ChMask");
    for (unsigned v = 0; v < 4; ++v)
      if ((mask >> v) & 1) memElem[m++] = static_cast<uint8_t>(v);
    return m;
  }
  const unsigned n = vecLen(val(e, "DataElemsPerAddr"));
  for (unsigned v = 0; v < n; ++v) memElem[v] = static_cast<uint8_t>(v);
  return n;
}

// Each lane's address: Base + AddrScale*Src0Addrs[n] + AddrImmOffset, or for
// the strided forms Base + AddrScale*Src0AddrBase + AddrImmOffset +
// n*Src0AddrPitch (L11); wrapped to AddrSize.
std::array<uint64_t, 32> addresses(const Exec& e, bool stridedOp) {
  std::array<uint64_t, 32> a{};
  const uint64_t as = val(e, "AddrSize"), scale = val(e, "AddrScale");
  const auto imm = static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(val(e, "AddrImmOffset"))));
  const unsigned ab = addrBytes(as);
  if (stridedOp) {
    const uint64_t base = e.rawBits(e.field("Src0AddrBase"), 0, ab);
    const auto pitch = static_cast<int64_t>(e.intValue(e.field("Src0AddrPitch"), 0));
    for (unsigned n = 0; n < e.exec(); ++n)
      a[n] = wrapAddr(scale * base + static_cast<uint64_t>(imm) + static_cast<uint64_t>(pitch) * n, as);
    return a;
  }
  const int src = e.field("Src0Addrs");
  for (unsigned n = 0; n < e.exec(); ++n) a[n] = wrapAddr(scale * e.rawBits(src, n * ab, ab) + static_cast<uint64_t>(imm), as);
  return a;
}

// LOAD, LOAD_QUAD, LOAD_STRIDED:
//   for (n = 0; n < ExecSize; n++) if (Msg.ChEn[n])
//     for (v = 0; v < vect_size; v++) {
//       src = Base + AddrScale*Src0Addrs[n] + AddrImmOffset;   // (strided: + n*Src0AddrPitch)
//       transposed ? DstData[n].elems[v] = src.elems[v] : DstData[v].elems[n] = src.elems[v]; }
// (quad: the ChMask channels v, into successive components m). Every address
// is read before DstData is written; disabled lanes keep DstData (E9); %null
// DstData is a prefetch: no access (L12).
void load(Exec& e, bool quad, bool stridedOp) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int dst = e.field("DstData");
  if (!en || e.rawNull(dst)) return;
  std::array<uint8_t, 64> memElem{};
  const unsigned comps = components(e, quad, memElem);
  const Layout l = layoutOf(e, comps);
  const uint64_t ds = val(e, "DataSize");
  const unsigned mb = memBytes(ds);
  const std::array<uint64_t, 32> addr = addresses(e, stridedOp);
  Where w = where(e, val(e, "LscSFID"), val(e, "AddrType"));
  std::vector<std::pair<uint32_t, uint64_t>> out;
  out.reserve(static_cast<size_t>(e.exec()) * comps);
  for (unsigned n = 0; n < e.exec(); ++n) {
    if (!((en >> n) & 1)) continue;
    for (unsigned v = 0; v < comps; ++v) {
      uint32_t id;
      uint64_t off;
      Space& s = w.at(addr[n] + uint64_t{memElem[v]} * mb, mb, id, off);
      out.emplace_back(l.off(v, n), toReg(e.load(s, id, off, mb, n, e.rawDest(dst, l.off(v, n), l.rb)), ds));
    }
  }
  e.endAccesses();
  for (auto [o, x] : out) e.setRawBits(dst, o, l.rb, x);
}

// STORE, STORE_UNCOMPRESSED, STORE_QUAD, STORE_STRIDED: the loads' mapping the
// other way, memory element v of lane n from Src1Data (the page's STORE
// writes "*addr" for every v; visakit writes addr.elems[v], L11). A later
// lane's write wins, components inner (E3).
void store(Exec& e, bool quad, bool stridedOp) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  std::array<uint8_t, 64> memElem{};
  const unsigned comps = components(e, quad, memElem);
  const Layout l = layoutOf(e, comps);
  const uint64_t ds = val(e, "DataSize");
  const unsigned mb = memBytes(ds);
  const int src = e.field("Src1Data");
  const std::array<uint64_t, 32> addr = addresses(e, stridedOp);
  Where w = where(e, val(e, "LscSFID"), val(e, "AddrType"));
  for (unsigned n = 0; n < e.exec(); ++n) {
    if (!((en >> n) & 1)) continue;
    for (unsigned v = 0; v < comps; ++v) {
      uint32_t id;
      uint64_t off;
      Space& s = w.at(addr[n] + uint64_t{memElem[v]} * mb, mb, id, off);
      e.store(s, id, off, mb, n, toMem(e.rawBits(src, l.off(v, n), l.rb), ds));
    }
  }
  e.endAccesses();
}

// The atomics (LSC_UNTYPED "Atomic operations ... are also gather/scatter"):
// for each enabled lane n in order, the operation on the DataSize datum at
// Base + AddrScale*Src0Addrs[n] + AddrImmOffset with Src1Data[n] (and
// Src2Data[n]: icas/fcas compare with Src1Data and write Src2Data), the old
// value to DstData[n] unless it is %null (L14). Every source is read first.
void atomic(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const uint64_t ds = val(e, "DataSize");
  const unsigned mb = memBytes(ds);
  const Layout l = layoutOf(e, 1);
  const int dst = e.field("DstData"), s1 = e.field("Src1Data"), s2 = e.field("Src2Data");
  const std::array<uint64_t, 32> addr = addresses(e, false);
  std::array<uint64_t, 32> a{}, b{}, old{};
  for (unsigned n = 0; n < e.exec(); ++n) {
    a[n] = toMem(e.rawBits(s1, l.off(0, n), l.rb), ds);
    b[n] = toMem(e.rawBits(s2, l.off(0, n), l.rb), ds);
  }
  const AtomicOp op = lscAtomicOp(e.ir().subOp);
  Where w = where(e, val(e, "LscSFID"), val(e, "AddrType"));
  for (unsigned n = 0; n < e.exec(); ++n) {
    if (!((en >> n) & 1)) continue;
    uint32_t id;
    uint64_t off;
    Space& s = w.at(addr[n], mb, id, off);
    old[n] = e.atomic(s, id, off, mb, n, op, a[n], b[n]);
  }
  e.endAccesses();
  for (unsigned n = 0; n < e.exec(); ++n)
    if ((en >> n) & 1) e.setRawBits(dst, l.off(0, n), l.rb, toReg(old[n], ds));
}

// AppendCounterAtomicAdd / Sub:
//   ctr_address = SURFACE_STATE[state_offset].Aux_surface_address
//   for (n...) if (Msg.ChEn[n]) { old = ctr; ctr = old +/- src0Data[0].data_size[n]; dest[0].data_size[n] = old; }
// The counter is the surface's first DataSize datum (L14: no aux surface).
void apndctr(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  if (!en) return;
  const uint64_t ds = val(e, "DataSize");
  const unsigned mb = memBytes(ds);
  const Layout l = layoutOf(e, 1);
  const int dst = e.field("DstData"), src = e.field("Src0Data");
  std::array<uint64_t, 32> a{}, old{};
  for (unsigned n = 0; n < e.exec(); ++n) a[n] = toMem(e.rawBits(src, l.off(0, n), l.rb), ds);
  Where w = where(e, val(e, "LscSFID"), val(e, "AddrType"));
  const AtomicOp op = lscAtomicOp(e.ir().subOp);
  for (unsigned n = 0; n < e.exec(); ++n) {
    if (!((en >> n) & 1)) continue;
    uint32_t id;
    uint64_t off;
    Space& s = w.at(0, mb, id, off);
    old[n] = e.atomic(s, id, off, mb, n, op, a[n], 0);
  }
  e.endAccesses();
  for (unsigned n = 0; n < e.exec(); ++n)
    if ((en >> n) & 1) e.setRawBits(dst, l.off(0, n), l.rb, toReg(old[n], ds));
}

// LOAD_STATUS:
//   for (n...) { s = 1; if (Msg.ChEn[n]) { addr = ...; for (v...) if (s) s = IsTRTT_VALID_PAGE(addr.elems[v]); }
//                dest.bit[n] = MsgChEn[n] & s; }
// A datum's page is valid when it is in bounds (E2) of what it addresses; the
// status is DstData's first dword, bits at or above ExecSize 0; nothing is
// accessed or reported (L13).
void loadStatus(Exec& e) {
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const int dst = e.field("DstData");
  if (e.rawNull(dst)) return;
  std::array<uint8_t, 64> memElem{};
  const unsigned comps = components(e, false, memElem);
  const unsigned mb = memBytes(val(e, "DataSize"));
  const std::array<uint64_t, 32> addr = addresses(e, false);
  Where w = where(e, val(e, "LscSFID"), val(e, "AddrType"));
  uint32_t bits = 0;
  for (unsigned n = 0; n < e.exec(); ++n) {
    if (!((en >> n) & 1)) continue;
    bool s = true;
    for (unsigned v = 0; v < comps && s; ++v) {
      uint32_t id;
      uint64_t off;
      const Space& sp = w.at(addr[n] + uint64_t{v} * mb, mb, id, off);
      s = sp.bound && inBounds(sp, spaceAddress(sp, off), mb);
    }
    if (s) bits |= 1u << n;
  }
  e.setRawBits(dst, 0, 4, bits);
}

// The GRF side of a 2D block (LOAD_BLOCK2D pseudo-code): f(grfElem, b, y, x)
// for each element loaded into the register block, z(grfElem, count) for the
// zero padding; y and x are the block's row and column, the surface's being
// Y + y and X + b*W + x.
template <class F, class Z>
void block2dWalk(const Block2dLayout& l, unsigned blocks, unsigned W, unsigned H, bool transpose, bool transform, F f, Z z) {
  // (the verifier bounds the block by DstData's footprint: these fit in 32 bits)
  const auto epd = l.perDword, rp = static_cast<unsigned>(l.rowPitch), bp = static_cast<unsigned>(l.blockPitch);
  for (unsigned b = 0; b < blocks; ++b) {
    const unsigned base = b * bp;
    if (!transpose && !transform) {
      for (unsigned y = 0; y < H; ++y) {
        const unsigned row = base + y * rp;
        for (unsigned i = 0; i < W; ++i) f(row + i, b, y, i);  // load_row_span(row, b, y, 0, W)
        z(row + W, rp - W);
      }
    } else if (!transpose && transform) {
      for (unsigned y = 0; y < H; y += epd) {
        for (unsigned x = 0; x < W; ++x)
          for (unsigned i = 0; i < epd; ++i) f(base + y * rp + x * epd + i, b, y + i, x);  // load_col_span
        z(base + y * rp + W * epd, epd * (rp - W));
      }
    } else if (transpose && !transform) {
      for (unsigned x = 0; x < W; ++x) {
        for (unsigned i = 0; i < H; ++i) f(base + x * rp + i, b, i, x);  // load_col_span(x*rp, b, 0, x, H)
        z(base + x * rp + H, rp - H);
      }
    } else {
      for (unsigned x = 0; x < W; x += epd) {
        for (unsigned y = 0; y < H; ++y)
          for (unsigned i = 0; i < epd; ++i) f(base + x * rp + y * epd + i, b, y, x + i);  // load_row_span
        z(base + x * rp + H * epd, epd * (rp - H));
      }
    }
    z(base + static_cast<unsigned>(l.blockSize), bp - static_cast<unsigned>(l.blockSize));  // pad out GRF for this block
  }
}

struct Block2dArgs {
  uint64_t base = 0, width = 0, height = 0, pitch = 0;
  int64_t x = 0, y = 0;
  Block2dLayout l;
  unsigned blocks = 1, W = 1, H = 1;
  bool transpose = false, transform = false;
  uint64_t ds = kD8;
};

Block2dArgs block2dArgs(const Exec& e) {
  Block2dArgs a;
  a.base = e.bits(e.field("SurfaceBaseAddr"), 0);
  a.width = e.bits(e.field("SurfaceWidth"), 0) & 0xffffffffu;
  a.height = e.bits(e.field("SurfaceHeight"), 0) & 0xffffffffu;
  a.pitch = e.bits(e.field("SurfacePitch"), 0) & 0xffffffffu;
  // X and Y are signed element / row positions (L10).
  a.x = static_cast<int32_t>(static_cast<uint32_t>(e.bits(e.field("Src0AddrX"), 0)));
  a.y = static_cast<int32_t>(static_cast<uint32_t>(e.bits(e.field("Src0AddrY"), 0)));
  a.ds = val(e, "DataSize");
  a.blocks = static_cast<unsigned>(val(e, "Blocks"));
  a.W = static_cast<unsigned>(val(e, "BlockWidth"));
  a.H = static_cast<unsigned>(val(e, "BlockHeight"));
  a.transpose = val(e, "DataOrder") == kTranspose;
  a.transform = val(e, "VNNI") != 0;
  a.l = block2dLayout(a.ds, a.transpose, a.W, a.H, e.grfSize());
  return a;
}

// Element (b, y, x) of a 2D block: row Y + y, column X + b*W + x of the
// surface at SurfaceBaseAddr (flat), pitch SurfacePitch bytes; inside the
// surface when the row is at most SurfaceHeight and the element's bytes end
// at most at SurfaceWidth + 1 (L10: "width (in bytes) minus 1").
bool block2dElem(const Block2dArgs& a, unsigned b, unsigned y, unsigned x, uint64_t& addr) {
  const int64_t row = a.y + y;
  const int64_t col = a.x + static_cast<int64_t>(b) * a.W + x;
  if (row < 0 || col < 0 || static_cast<uint64_t>(row) > a.height ||
      static_cast<uint64_t>(col + 1) * a.l.esize > a.width + 1)
    return false;
  addr = a.base + static_cast<uint64_t>(row) * a.pitch + static_cast<uint64_t>(col) * a.l.esize;
  return true;
}

// LOAD_BLOCK2D, the page's pseudo-code with the rows at Y + y (its load_elem
// leaves out the block_start it computes, L10); elements outside the surface
// read 0 and are not accessed.
void loadBlock2d(Exec& e) {
  const uint32_t en = e.chEn() & 1;
  e.countLanes(en);
  const int dst = e.field("DstData");
  if (!en || e.rawNull(dst)) return;
  const Block2dArgs a = block2dArgs(e);
  if (a.l.perDword == 0 && a.transform) return;  // d64 VNNI: the verifier rejects it
  std::vector<std::pair<uint32_t, uint64_t>> out;
  block2dWalk(
      a.l, a.blocks, a.W, a.H, a.transpose, a.transform,
      [&](unsigned g, unsigned b, unsigned y, unsigned x) {
        uint64_t addr, v = 0;
        if (block2dElem(a, b, y, x, addr)) {
          uint32_t id;
          uint64_t off;
          Space& s = e.flatSpace(addr, a.l.esize, id, off);
          v = e.load(s, id, off, a.l.esize, 0);
        }
        out.emplace_back(g * a.l.esize, v);
      },
      [&](unsigned g, unsigned count) {
        for (unsigned i = 0; i < count; ++i) out.emplace_back((g + i) * a.l.esize, 0);
      });
  e.endAccesses();
  for (auto [o, v] : out) e.setRawBits(dst, o, a.l.esize, v);
}

// STORE_BLOCK2D: "similar to load block2d, but accesses are stores instead of
// loads and only a single block is permitted": the load's mapping of one
// block, each register element to its surface element (L10; the page's loop
// that reads Src1Data.elems[v*reg_pitch + n] at Base + Y + n*pitch + X is not
// followed). Elements outside the surface are not written.
void storeBlock2d(Exec& e) {
  const uint32_t en = e.chEn() & 1;
  e.countLanes(en);
  if (!en) return;
  const Block2dArgs a = block2dArgs(e);
  if (a.l.perDword == 0 && a.transform) return;
  const int src = e.field("Src1Data");
  block2dWalk(
      a.l, 1, a.W, a.H, a.transpose, a.transform,
      [&](unsigned g, unsigned b, unsigned y, unsigned x) {
        uint64_t addr;
        if (!block2dElem(a, b, y, x, addr)) return;
        uint32_t id;
        uint64_t off;
        Space& s = e.flatSpace(addr, a.l.esize, id, off);
        e.store(s, id, off, a.l.esize, 0, e.rawBits(src, g * a.l.esize, a.l.esize));
      },
      [](unsigned, unsigned) {});
  e.endAccesses();
}

// LSC_FENCE: "wait_for_pending_accesses_to_complete": every access of a
// simulated thread completes, in program order, before its next instruction,
// so a fence changes nothing (L17).
void fence(Exec& e) { e.countLanes(e.chEn()); }

void lscLoad(Exec& e) { load(e, false, false); }
void lscLoadQuad(Exec& e) { load(e, true, false); }
void lscLoadStrided(Exec& e) { load(e, false, true); }
void lscStore(Exec& e) { store(e, false, false); }
void lscStoreQuad(Exec& e) { store(e, true, false); }
void lscStoreStrided(Exec& e) { store(e, false, true); }

constexpr Opcode U = Opcode::LSC_UNTYPED;
constexpr SemEntry kLsc[] = {
    {U, kLoad, lscLoad},
    {U, kLoadStrided, lscLoadStrided},
    {U, kLoadQuad, lscLoadQuad},
    {U, kLoadBlock2d, loadBlock2d},
    {U, kStore, lscStore},
    {U, kStoreStrided, lscStoreStrided},
    {U, kStoreQuad, lscStoreQuad},
    {U, kStoreBlock2d, storeBlock2d},
    {U, kAtomicIinc, atomic},
    {U, kAtomicIdec, atomic},
    {U, kAtomicLoad, atomic},
    {U, kAtomicStore, atomic},
    {U, kAtomicIadd, atomic},
    {U, kAtomicIsub, atomic},
    {U, kAtomicSmin, atomic},
    {U, kAtomicSmax, atomic},
    {U, kAtomicUmin, atomic},
    {U, kAtomicUmax, atomic},
    {U, kAtomicIcas, atomic},
    {U, kAtomicFadd, atomic},
    {U, kAtomicFsub, atomic},
    {U, kAtomicFmin, atomic},
    {U, kAtomicFmax, atomic},
    {U, kAtomicFcas, atomic},
    {U, kAtomicAnd, atomic},
    {U, kAtomicOr, atomic},
    {U, kAtomicXor, atomic},
    {U, kLoadStatus, loadStatus},
    {U, kStoreUncompressed, lscStore},  // "STORE: STORE_UNCOMPRESSED:" one pseudo-code
    {U, kApndctrAdd, apndctr},
    {U, kApndctrSub, apndctr},
    {Opcode::LSC_FENCE, -1, fence},
};

}  // namespace

std::span<const SemEntry> lscSemantics() { return kLsc; }

AtomicOp lscAtomicOp(int sub) {
  switch (sub) {
    case kAtomicIinc: return AtomicOp::Inc;
    case kAtomicIdec: return AtomicOp::Dec;
    case kAtomicLoad: return AtomicOp::Load;
    case kAtomicStore: return AtomicOp::Store;
    case kAtomicIadd: return AtomicOp::Add;
    case kAtomicIsub: return AtomicOp::Sub;
    case kAtomicSmin: return AtomicOp::IMin;
    case kAtomicSmax: return AtomicOp::IMax;
    case kAtomicUmin: return AtomicOp::Min;
    case kAtomicUmax: return AtomicOp::Max;
    case kAtomicIcas: return AtomicOp::CmpXchg;
    case kAtomicFadd: return AtomicOp::FAdd;
    case kAtomicFsub: return AtomicOp::FSub;
    case kAtomicFmin: return AtomicOp::FMin;
    case kAtomicFmax: return AtomicOp::FMax;
    case kAtomicFcas: return AtomicOp::FCmpXchg;
    case kAtomicAnd: return AtomicOp::And;
    case kAtomicOr: return AtomicOp::Or;
    case kAtomicXor: return AtomicOp::Xor;
    case kApndctrSub: return AtomicOp::Sub;
    default: return AtomicOp::Add;
  }
}

}  // namespace visakit::sim
