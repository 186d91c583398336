// The Exec view: operand element access, conversions and memory access with
// observation, shared by every semantics function.
#include <algorithm>
#include <cstring>

#include "sim/sem/sem.hpp"

#include "sim/ref/ref.hpp"

namespace visakit::sim {

uint32_t Exec::predBits() const {
  if (!i_.predId) return all();
  uint32_t a = all();
  // Chapter 5 "Predication": PMask[n] = Pred[n + offset]; .any / .all combine
  // the instruction's elements first, then ! inverts.
  uint32_t p = i_.predId < t_.preds.size() ? (t_.preds[i_.predId] >> i_.maskOff) & a : 0;
  if (i_.predCtl == 1) p = p ? a : 0;
  else if (i_.predCtl == 2) p = p == a ? a : 0;
  if (i_.predInv) p = ~p & a;
  return p;
}

void Exec::countLanes(uint32_t en) { lanes += static_cast<unsigned>(std::popcount(en)); }

// Register byte offset of element k (chapter 5 "Region-based Addressing"): a
// source's element k is at ((k / w) * vs + (k % w) * hs) elements from its
// first (a destination's at k * hs: decoded as w = 32, vs = 0).
uint32_t Exec::elemOffset(int f, unsigned k) const { return elementOffset(op(f), t_, k); }

uint64_t Exec::regBits(uint32_t off, unsigned bytes) const { return readRegBits(t_, off, bytes); }

void Exec::setRegBits(uint32_t off, unsigned bytes, uint64_t v) { writeRegBits(t_, off, bytes, v); }

uint64_t Exec::bits(int f, unsigned k) const {
  const RefOperand& o = op(f);
  switch (o.kind) {
    case Operand::Kind::Immediate: return o.imm[k % o.immPeriod];
    case Operand::Kind::Predicate: return predElem(f, k);
    case Operand::Kind::General:
    case Operand::Kind::Indirect: return regBits(elemOffset(f, k), typeSize(o.type));
    case Operand::Kind::Address: {
      uint32_t a = o.addr + (o.hs ? k * o.hs : 0);
      return a < t_.addrs.size() ? t_.addrs[a] : 0;
    }
    case Operand::Kind::AddressOf: return o.base;
    default: return o.value;
  }
}

void Exec::setBits(int f, unsigned k, uint64_t v) {
  const RefOperand& o = op(f);
  switch (o.kind) {
    case Operand::Kind::General:
      if (!o.null) setRegBits(elemOffset(f, k), typeSize(o.type), v);
      return;
    case Operand::Kind::Indirect: setRegBits(elemOffset(f, k), typeSize(o.type), v); return;
    case Operand::Kind::Predicate: setPredElem(f, k, v & 1); return;
    case Operand::Kind::Address: {
      uint32_t a = o.addr + k * (o.hs ? o.hs : 1);
      if (a < t_.addrs.size()) t_.addrs[a] = static_cast<uint16_t>(v);
      return;
    }
    default: return;
  }
}

bool Exec::predElem(int f, unsigned k) const {
  const RefOperand& o = op(f);
  unsigned b = k + i_.maskOff;
  return b < 32 && o.id < t_.preds.size() && ((t_.preds[o.id] >> b) & 1);
}

void Exec::setPredElem(int f, unsigned k, bool v) {
  const RefOperand& o = op(f);
  unsigned b = k + i_.maskOff;
  if (b >= 32 || o.id >= t_.preds.size()) return;
  if (v) t_.preds[o.id] |= 1u << b;
  else t_.preds[o.id] &= ~(1u << b);
}

// Chapter 5 "Source Modifiers": ~ acts on the source's bits in its own type;
// -, abs on its value (intModified: in its own type where the destination is a float).
i128 Exec::intValue(int f, unsigned k) const {
  const RefOperand& o = op(f);
  Type t = o.type;
  uint64_t b = bits(f, k);
  i128 v;
  if (o.kind == Operand::Kind::Predicate) v = static_cast<i128>(b);
  else if (isFloatType(t)) v = static_cast<i128>(lowBits(static_cast<i128>(b), intBits(t)));  // a float's bits, zero-extended
  else v = extendInt(b, t);
  if (o.mod == Mod::Not) return extendInt(~lowBits(v, intBits(t)), t);
  const int df = dst();  // (-1: an instruction without a Dst)
  const bool toFloat = df >= 0 && op(df).kind != Operand::Kind::Predicate && isFloatType(op(df).type);
  return intModified(v, o.mod, t, toFloat);
}

double Exec::floatValue(int f, unsigned k) const {
  const RefOperand& o = op(f);
  double v = floatBitsToDouble(bits(f, k), o.type);
  switch (o.mod) {
    case Mod::Neg: return -v;
    case Mod::Abs: return std::fabs(v);
    case Mod::NegAbs: return -std::fabs(v);
    default: return v;
  }
}

// 2_datatypes.md "Type Conversion" and "Saturation".
void Exec::storeInt(int f, unsigned k, i128 v) {
  const RefOperand& o = op(f);
  if (o.kind == Operand::Kind::Predicate) {
    setPredElem(f, k, v & 1);
    return;
  }
  Type dt = o.type;
  uint64_t b;
  if (isFloatType(dt)) {
    // "Integer to Float": "By default round to nearest even"; E32: %cr0's mode.
    const Rounding rm = rounding();
    double x = rm != Rounding::Rtne ? intToFloatMode(v, dt, rm) : roundTo(intToDouble(v, dt == Type::F ? Type::F : Type::DF), dt);
    if (i_.sat) x = satFloat(x);
    b = doubleToFloatBits(x, dt, dt);
  } else {
    b = intToInt(v, dt, i_.sat);
  }
  setBits(f, k, b);
}

void Exec::storeFloat(int f, unsigned k, double v, Type execType) {
  const RefOperand& o = op(f);
  if (o.kind == Operand::Kind::Predicate) {
    setPredElem(f, k, v != 0);
    return;
  }
  Type dt = o.type;
  uint64_t b;
  const Rounding rm = rounding();
  if (isFloatType(dt) && floatRank(dt) < floatRank(execType) && rm != Rounding::Rtne) {
    // "Float to Float with Lower Precision uses the rounding mode set in the
    // control register" (E32); a denormal source flushes as in doubleToFloatBits (E22).
    double x = i_.sat ? satFloat(v) : v;
    if (isDenormalIn(x, execType) && !denormsKept(execType)) x = std::signbit(x) ? -0.0 : 0.0;
    b = floatBitsMode(x, 0, dt, rm);
  } else if (isFloatType(dt)) {
    // (a denormal source of a narrowing conversion flushes unless its type's mode keeps it: E22)
    b = doubleToFloatBits(i_.sat ? satFloat(v) : v, dt, denormsKept(execType) ? dt : execType);
  } else {
    b = floatToInt(v, dt);  // "Float to Integer": truncation, saturating
  }
  setBits(f, k, b);
}

// 4_visa_header.md %cr0 "FPU Rounding mode: Bit 4-5"; a kernel that never
// names %cr0 has RTNE (its value at thread start is 0, E29).
Rounding Exec::rounding() const { return static_cast<Rounding>((cr0() >> 4) & 3); }

// %cr0's dword 0; 0 in a kernel that never names it (its value at thread start, E29).
uint64_t Exec::cr0() const {
  if (!t_.prog) return 0;
  const std::vector<VarSlot>& vars = t_.prog->layout.vars;
  if (kVarCr0 >= vars.size() || !vars[kVarCr0].present) return 0;
  return regBits(vars[kVarCr0].offset, 4);
}

// 4_visa_header.md %cr0 "DF denorm mode: Bit 6", "F denorm mode: Bit 7", "HF denorm mode: Bit 10"
// (1: allow denorm values); all 0 at thread start (E29).
bool Exec::denormsKept(Type t) const {
  switch (t) {
    case Type::DF: return (cr0() >> 6) & 1;
    case Type::F: return (cr0() >> 7) & 1;
    case Type::HF: return (cr0() >> 10) & 1;
    default: return false;
  }
}

uint64_t Exec::rawBits(int f, uint32_t byteOff, unsigned bytes) const {
  const RefOperand& o = op(f);
  if (o.null) return 0;
  return regBits(o.base + byteOff, bytes);
}
RegDest Exec::rawDest(int f, uint32_t byteOff, unsigned bytes) const {
  const RefOperand& o = op(f);
  return o.null ? RegDest{} : RegDest{o.base + byteOff, bytes};
}
void Exec::setRawBits(int f, uint32_t byteOff, unsigned bytes, uint64_t v) {
  const RefOperand& o = op(f);
  if (o.null) return;
  setRegBits(o.base + byteOff, bytes, v);
}
uint32_t Exec::rawU32(int f, unsigned elem) const { return static_cast<uint32_t>(rawBits(f, 4 * elem, 4)); }
void Exec::setRawU32(int f, unsigned elem, uint32_t v) { setRawBits(f, 4 * elem, 4, v); }

// ---- memory: the one place where accesses happen and are observed ----

void Exec::record(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, bool write, bool ok,
                  bool atomic, uint8_t sameBytes, RegDest to) {
  if (!batch) return;
  AccessBatch& b = *batch;
  if (spaceId != batchSpace_) {
    endAccesses();
    batchSpace_ = spaceId;
    // In a called function: reported at the kernel's FCALL / IFCALL that led there (C2).
    b.instIndex = t_.fcalls.empty() ? i_.index : t_.fcalls.front().ret - 1;
    b.spaceId = spaceId;
    b.space = &s;
    b.n = 0;
    b.anyOutOfBounds = false;
    b.writesApart = true;
    b.writes = 0;
    b.writeEnd = 0;
    b.runLanes = 0;
    b.writeData = nullptr;
    b.hasDests = true;
  }
  if (b.n == b.items.size()) {
    b.items.resize(2 * b.items.size());
    b.dests.resize(b.items.size());
  }
  b.dests[b.n] = to;
  b.items[b.n++] = {addr, bytes, static_cast<uint8_t>(lane), write, ok, atomic, sameBytes};
  b.anyOutOfBounds |= !ok;
  if (write && ok) {
    if (b.writes++ && addr < b.writeEnd) b.writesApart = false;
    b.writeEnd = addr + bytes;
  }
}

void Exec::endAccesses() {
  if (batch && batchSpace_ != 0xfffffffeu && batch->n) observer_->onAccesses(obs_, *batch);
  batchSpace_ = 0xfffffffeu;
}

// E2 / the pages' "Out-of-bound Access": reads out of bounds give 0.
uint64_t Exec::load(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, RegDest to) {
  addr = spaceAddress(s, addr);  // E31 (SLM)
  bool ok = s.bound && inBounds(s, addr, bytes);
  uint64_t v = 0;
  if (ok) {
    v = memLoad(s, addr, bytes);
    (*mem_.spaceBytes)[s.statIndex][0] += bytes;
  }
  record(s, spaceId, addr, bytes, lane, false, ok, false, 0, to);
  return v;
}

// E2: writes out of bounds are dropped.
void Exec::store(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, uint64_t v) {
  addr = spaceAddress(s, addr);  // E31 (SLM)
  bool ok = s.bound && inBounds(s, addr, bytes);
  uint8_t same = 0;
  if (ok) {
    if (batch) same = unchangedBytes(s, addr, bytes, v);
    memStore(s, addr, bytes, v);
    (*mem_.spaceBytes)[s.statIndex][1] += bytes;
  }
  record(s, spaceId, addr, bytes, lane, true, ok, false, same);
}

Space& Exec::boundSurface(uint32_t& id) {
  if (id < t_.surfState.size() && t_.surfState[id] != kNoSurface && mem_.bindingTable) {
    uint32_t bti = t_.surfState[id];
    uint32_t target = bti < mem_.bindingTable->size() ? (*mem_.bindingTable)[bti] : kNoSurface;
    if (target != kNoSurface && target < mem_.spaces->size()) {
      id = target;
      return (*mem_.spaces)[target];
    }
    // spec-decisions C5: a binding-table index the launch does not give ends the run.
    t_.error = "surface T" + std::to_string(id) + " has binding-table index " + std::to_string(bti) +
               " (set by a MOVS), which the launch's binding table does not give (--bti " + std::to_string(bti) + "=NAME)";
    return *mem_.noSpace;
  }
  return id < mem_.spaces->size() ? (*mem_.spaces)[id] : *mem_.noSpace;
}

Space& Exec::btiSurface(uint64_t bti, uint32_t& id) { return tableSurface(mem_, bti, id); }

Space& Exec::flatSpace(uint64_t addr, unsigned bytes, uint32_t& id, uint64_t& offset) {
  return statelessSpace(mem_, addr, bytes, id, offset);
}

uint64_t atomicApply(Space& s, uint64_t addr, unsigned bytes, AtomicOp op, uint64_t a, uint64_t b) {
  const unsigned n = 8 * bytes;
  const uint64_t mask = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  auto sx = [&](uint64_t v) { return static_cast<int64_t>(v << (64 - n)) >> (64 - n); };
  auto fl = [&](uint64_t v) { return floatBitsToDouble(v, bytes == 8 ? Type::DF : bytes == 2 ? Type::HF : Type::F); };
  auto tf = [&](double v) { return doubleToFloatBits(v, bytes == 8 ? Type::DF : bytes == 2 ? Type::HF : Type::F,
                                                     bytes == 8 ? Type::DF : bytes == 2 ? Type::HF : Type::F); };
  const uint64_t old = atomicRmw(s, addr, bytes, [&](uint64_t o) -> uint64_t {
    o &= mask;
    switch (op) {
      case AtomicOp::Add: return (o + a) & mask;
      case AtomicOp::Sub: return (o - a) & mask;
      case AtomicOp::Inc: return (o + 1) & mask;
      case AtomicOp::Dec: return (o - 1) & mask;
      case AtomicOp::Min: return std::min(o, a & mask);
      case AtomicOp::Max: return std::max(o, a & mask);
      case AtomicOp::IMin: return static_cast<uint64_t>(std::min(sx(o), sx(a))) & mask;
      case AtomicOp::IMax: return static_cast<uint64_t>(std::max(sx(o), sx(a))) & mask;
      case AtomicOp::Xchg:
      case AtomicOp::Store: return a & mask;
      case AtomicOp::CmpXchg: return o == (a & mask) ? b & mask : o;
      case AtomicOp::And: return o & a;
      case AtomicOp::Or: return (o | a) & mask;
      case AtomicOp::Xor: return (o ^ a) & mask;
      case AtomicOp::Load: return o;
      case AtomicOp::FAdd: return tf(fl(o) + fl(a));
      case AtomicOp::FSub: return tf(fl(o) - fl(a));
      case AtomicOp::FMin: return fl(a) < fl(o) ? a & mask : o;
      case AtomicOp::FMax: return fl(a) > fl(o) ? a & mask : o;
      case AtomicOp::FCmpXchg: return fl(o) == fl(a) ? b & mask : o;
    }
    return o;
  });
  return old & mask;
}

uint64_t Exec::atomic(Space& s, uint32_t spaceId, uint64_t addr, unsigned bytes, unsigned lane, AtomicOp op, uint64_t a,
                      uint64_t b) {
  addr = spaceAddress(s, addr);  // E31 (SLM)
  bool ok = s.bound && inBounds(s, addr, bytes);
  record(s, spaceId, addr, bytes, lane, true, ok, true);
  if (!ok) return 0;
  const uint64_t old = atomicApply(s, addr, bytes, op, a, b);
  (*mem_.spaceBytes)[s.statIndex][0] += bytes;
  (*mem_.spaceBytes)[s.statIndex][1] += bytes;
  return old;
}

}  // namespace visakit::sim
