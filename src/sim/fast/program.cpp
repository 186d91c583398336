// Decode once: Kernel -> Program (register-file layout, resolved operands,
// one handler per instruction).
#include "sim/fast/program.hpp"
#include "sim/launch.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "sim/fast/ctx.hpp"

namespace visakit::sim {

void layoutVars(const Kernel& k, unsigned grf, Program& p) {
  Layout l = layoutVars(k, grf);
  p.vars = std::move(l.vars);
  p.usedBytes = l.usedBytes;
  p.regBytes = l.regBytes;
}

DOperand decodeVector(const Program& p, const Operand& o, unsigned exec, bool dst, bool scalar) {
  DOperand d;
  d.mod = o.mod;
  switch (o.kind) {
    case Operand::Kind::Predicate:
      d.kind = DOperand::Kind::Pred;
      d.predId = static_cast<uint16_t>(o.id);
      d.type = Type::BOOL;
      return d;
    case Operand::Kind::Immediate: {
      d.kind = DOperand::Kind::Imm;
      d.type = o.type;
      d.imm[0] = o.value;
      if (o.type == Type::V || o.type == Type::UV) {
        // Chapter 5 "Immediate Operands": 8 elements of W (V) / UW (UV), 4 bits each.
        d.type = o.type == Type::V ? Type::W : Type::UW;
        d.immPeriod = 8;
        for (unsigned k = 0; k < 8; ++k) {
          uint64_t nib = (o.value >> (4 * k)) & 15;
          if (o.type == Type::V && (nib & 8)) nib |= 0xfff0;
          d.imm[k] = nib;
        }
      } else if (o.type == Type::VF) {
        // 4 restricted 8-bit floats -> F.
        d.type = Type::F;
        d.immPeriod = 4;
        for (unsigned k = 0; k < 4; ++k)
          d.imm[k] = std::bit_cast<uint32_t>(vfToFloat(static_cast<uint8_t>(o.value >> (8 * k))));
      }
      return d;
    }
    case Operand::Kind::General: {
      if (o.id == kVarNull && dst) {
        d.kind = DOperand::Kind::Null;
        return d;
      }
      const VarSlot& s = o.id < p.vars.size() ? p.vars[o.id] : VarSlot{};
      d.kind = DOperand::Kind::Reg;
      d.type = s.type;
      unsigned ts = typeSize(s.type);
      // Chapter 5 "Region-based Addressing": first element R * (GRF/size) + C.
      uint32_t base = s.offset + o.row * p.grfSize + o.col * ts;
      auto val = [](uint8_t v) -> unsigned { return v == kRegionNull ? 0 : v; };
      for (unsigned k = 0; k < 32; ++k) {
        uint32_t elt;
        if (scalar || k >= exec) elt = 0;
        else if (dst) elt = k * val(o.region.hs);
        else {
          unsigned w = std::max(1u, val(o.region.w));
          elt = (k / w) * val(o.region.vs) + (k % w) * val(o.region.hs);
        }
        d.off[k] = base + elt * ts;
      }
      bool contig = true, bcast = true;
      for (unsigned k = 0; k < exec && k < 32; ++k) {
        contig = contig && d.off[k] == base + k * ts;
        bcast = bcast && d.off[k] == base;
      }
      d.shape = contig ? DOperand::Shape::Contig : bcast ? DOperand::Shape::Bcast : DOperand::Shape::Gen;
      return d;
    }
    default: return d;
  }
}

uint32_t rawOffset(const Program& p, const Operand& o) {
  if (o.id >= p.vars.size()) return 0;
  return p.vars[o.id].offset + o.offset;
}

int fieldIndex(const InstrDesc& d, std::string_view name) {
  for (int i = 0; i < d.numFields; ++i)
    if (name == d.fields[i].name) return i;
  return -1;
}

void decodeMemory(const Program& p, const Instruction& inst, DInst& d, std::initializer_list<const char*> raws) {
  const InstrDesc& desc = *lookup(inst.op);
  if (int s = desc.find(FieldKind::Surface); s >= 0) d.surface = inst.f[s].id;
  if (int g = fieldIndex(desc, "Offset"); g >= 0 && desc.fields[g].kind == FieldKind::Vec)
    d.goff = decodeVector(p, inst.f[g], d.exec, false, true);
  if (int nb = desc.findName("Num_blocks"); nb >= 0) d.numBlocks = static_cast<uint8_t>(1u << (inst.f[nb].value & 3));
  if (int ch = desc.findName("Channels"); ch >= 0) d.chMask = static_cast<uint8_t>(inst.f[ch].value & 15);
  size_t r = 0;
  for (const char* name : raws) {
    int i = fieldIndex(desc, name);
    if (i >= 0 && r < d.raw.size()) {
      d.rawNull[r] = inst.f[i].id == kVarNull;
      d.raw[r] = rawOffset(p, inst.f[i]);
    }
    ++r;
  }
}

namespace {

// The fast forms: each instruction the fast tier runs, and how it is decoded
// into a DInst (its handlers). Any other row runs in the reference tier.
using FastDecoder = void (*)(const Program&, const Instruction&, const std::vector<uint32_t>& labelPos, DInst&);
struct FastForm {
  Opcode op;
  FastDecoder decode;
};
void aluForm(const Program& p, const Instruction& i, const std::vector<uint32_t>&, DInst& d) { decodeAlu(p, i, d); }
template <void (*F)(const Program&, const Instruction&, DInst&)>
void memoryForm(const Program& p, const Instruction& i, const std::vector<uint32_t>&, DInst& d) { F(p, i, d); }
constexpr FastForm kFastForms[] = {
    {Opcode::ADD, aluForm}, {Opcode::MUL, aluForm}, {Opcode::AND, aluForm}, {Opcode::OR, aluForm},
    {Opcode::XOR, aluForm}, {Opcode::NOT, aluForm}, {Opcode::SHL, aluForm}, {Opcode::SHR, aluForm},
    {Opcode::MOV, aluForm}, {Opcode::SEL, aluForm}, {Opcode::SETP, aluForm}, {Opcode::CMP, aluForm},
    {Opcode::LABEL, decodeControl}, {Opcode::JMP, decodeControl}, {Opcode::GOTO, decodeControl},
    {Opcode::RET, decodeControl},
    {Opcode::GATHER_SCALED, memoryForm<decodeGatherScaled>},
    {Opcode::SCATTER_SCALED, memoryForm<decodeScatterScaled>},
    {Opcode::SCATTER4_SCALED, memoryForm<decodeScatter4Scaled>},
    {Opcode::QW_SCATTER, memoryForm<decodeQwScatter>},
    {Opcode::URB_WRITE, memoryForm<decodeUrbWrite>},
};
FastDecoder fastForm(const InstrDesc& row) {
  if (row.subOp >= 0) return nullptr;
  for (const FastForm& f : kFastForms)
    if (f.op == row.op) return f.decode;
  return nullptr;
}

}  // namespace

Program decode(const Kernel& k, unsigned grfSize) {
  Program p;
  p.kernel = &k;
  p.grfSize = grfSize;
  layoutVars(k, grfSize, p);
  p.numPreds = static_cast<uint32_t>(k.preds.size());
  const KernelUse use = kernelUse(k);
  p.usesSurface = use.usesSurface;
  p.writesSurface = use.writesSurface;
  p.usesSlm = use.usesSlm;
  p.usesUrb = use.usesUrb;
  std::vector<uint32_t> labelPos(k.labels.size(), static_cast<uint32_t>(k.code.size()));
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const InstrDesc* row = rowOf(k.code[i]);
    if (row && row->has(kJoin) && k.code[i].f[0].id < labelPos.size()) labelPos[k.code[i].f[0].id] = i;
  }
  p.code.resize(k.code.size());
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const Instruction& inst = k.code[i];
    const InstrDesc* desc = rowOf(inst);
    DInst& d = p.code[i];
    d.index = i;
    d.row = desc;
    d.exec = static_cast<uint8_t>(inst.execSize());
    d.maskOff = static_cast<uint8_t>(emaskOffset(inst.emask));
    d.noMask = emaskNoMask(inst.emask);
    d.predId = inst.pred.id;
    d.predCtl = inst.pred.control;
    d.predInv = inst.pred.invert;
    d.sat = inst.sat;
    const FastDecoder form = desc ? fastForm(*desc) : nullptr;
    // Operands the fast forms do not read (address registers, indirect,
    // address-of, surface state): the reference tier runs the kernel.
    bool plainOperands = true;
    for (const Operand& o : inst.f)
      plainOperands &= o.kind != Operand::Kind::Address && o.kind != Operand::Kind::Indirect &&
                       o.kind != Operand::Kind::AddressOf && o.kind != Operand::Kind::State;
    if (!form || !plainOperands) {
      if (p.unsupported.empty()) p.unsupported = desc ? desc->mnemonic : "?";
      continue;
    }
    // The raw operands' register bytes, from the row's effects and footprints.
    for (int fi = 0; fi < desc->numFields; ++fi) {
      const FieldDesc& f = desc->fields[fi];
      const Operand& o = inst.f[fi];
      if (f.kind != FieldKind::Raw || o.id == kVarNull) continue;
      const uint32_t lo = rawOffset(p, o);
      const ByteRange r{lo, lo + rawFootprint(*desc, inst, fi, grfSize)};
      if ((f.access == Access::Read || f.access == Access::ReadWrite) && d.numRawReads < d.rawReads.size())
        d.rawReads[d.numRawReads++] = r;
      if ((f.access == Access::Write || f.access == Access::ReadWrite) && d.numRawWrites < d.rawWrites.size())
        d.rawWrites[d.numRawWrites++] = r;
    }
    d.storeAccess = desc->has(kMayStore);
    form(p, inst, labelPos, d);
  }
  p.codeEnd = static_cast<uint32_t>(p.code.size());
  for (const DInst& d : p.code)
    if (d.control && d.target <= d.index && d.row->find(FieldKind::Label) >= 0) p.loops = true;  // a branch back
  // A one-lane CMP right before a JMP ends its straight-line run, as a tail
  // that does both (chapter 3: the JMP reads the predicate the CMP just wrote).
  for (size_t i = 0; i + 1 < p.code.size(); ++i)
    if (p.code[i].cmpJmpFn && k.code[i + 1].op == Opcode::JMP) {
      p.code[i].tailFn = p.code[i].cmpJmpFn;
      p.code[i].tailSteps = 2;
    }
  for (size_t i = p.code.size(); i-- > 0;) {
    DInst& d = p.code[i];
    if (d.control) d.tailFn = d.fn;
    d.straight = d.tailFn ? 0 : 1 + (i + 1 < p.code.size() ? p.code[i + 1].straight : 0);
  }
  planStaticOffsets(p);
  planPrefetch(p);
  return p;
}

namespace {

// Register bytes an instruction writes (its destination), or nullopt-like empty.
ByteRange regWrites(const DInst& d) {
  if (d.addrKind != DInst::AddrKind::None || d.control) {
    // A memory instruction writes its raw destinations (the row's effects); control instructions none.
    ByteRange w{0xffffffffu, 0};
    for (unsigned i = 0; i < d.numRawWrites; ++i) w = {std::min(w.lo, d.rawWrites[i].lo), std::max(w.hi, d.rawWrites[i].hi)};
    return w.lo < w.hi ? w : ByteRange{};
  }
  if (d.fn == nullptr || d.dst.kind != DOperand::Kind::Reg) return {};
  uint32_t lo = 0xffffffffu, hi = 0;
  for (unsigned k = 0; k < d.exec; ++k) {
    lo = std::min(lo, d.dst.off[k]);
    hi = std::max(hi, d.dst.off[k] + 8);  // at most 8 bytes per element
  }
  return lo < hi ? ByteRange{lo, hi} : ByteRange{};
}

// Register bytes an instruction's addresses are formed from.
std::array<ByteRange, 2> addrReads(const DInst& d) {
  std::array<ByteRange, 2> r{};
  r[0] = {d.raw[0], d.raw[0] + 4u * d.exec};
  if (d.addrKind == DInst::AddrKind::Scaled && d.goff.kind == DOperand::Kind::Reg) r[1] = {d.goff.off[0], d.goff.off[0] + 4};
  return r;
}

}  // namespace

void planPrefetch(Program& p) {
  constexpr size_t kWindow = 24;  // instructions looked at past each memory instruction
  std::vector<uint8_t> planned(p.code.size(), 0);
  for (size_t i = 0; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    if (d.addrKind == DInst::AddrKind::None) continue;
    std::vector<ByteRange> written;
    for (size_t j = i + 1; j < p.code.size() && j <= i + kWindow && d.numAhead < d.ahead.size(); ++j) {
      written.push_back(regWrites(p.code[j - 1]));
      const DInst& e = p.code[j];
      if (e.control || e.row->has(kJoin)) break;  // straight-line code only
      // (consecutive offsets known at decode are a stream the hardware prefetcher follows)
      if (e.addrKind == DInst::AddrKind::None || planned[j] || e.offRun) continue;
      bool ready = true;
      for (const ByteRange& r : addrReads(e))
        for (const ByteRange& w : written) ready = ready && !(r.hi > r.lo && w.meets(r));
      if (!ready) continue;
      d.ahead[d.numAhead++] = static_cast<uint32_t>(j);
      planned[j] = 1;
    }
  }
}

namespace {

// An ALU instruction (its row neither loads, stores, branches nor is a label).
bool aluInst(const Program&, const DInst& d) {
  return d.fn && d.row && !d.row->has(InstrProps(kMayLoad | kMayStore | kControl | kNoExec));
}

// A NoMask, unpredicated ALU instruction that writes registers from registers
// and immediates only: every lane runs, and its result depends on those bytes
// alone (planStaticOffsets, planThreadStart).
bool registerAlu(const Program& p, const DInst& d) {
  if (!aluInst(p, d) || !d.noMask || d.predId || d.dst.kind != DOperand::Kind::Reg) return false;
  for (const DOperand& o : d.src)
    if (o.kind != DOperand::Kind::Imm && o.kind != DOperand::Kind::None && o.kind != DOperand::Kind::Reg) return false;
  return true;
}

// f(lo, hi) for the bytes [lo, hi) of each of the exec elements of register operand o.
template <class F>
void eachElement(const DOperand& o, unsigned exec, F f) {
  for (unsigned k = 0; k < exec; ++k) f(o.off[k], uint64_t{o.off[k]} + typeSize(o.type));
}

// Sets the flags m[lo, hi) to v; bytes past m are left out.
void setFlags(std::vector<uint8_t>& m, uint64_t lo, uint64_t hi, uint8_t v) {
  for (uint64_t b = lo; b < std::min<uint64_t>(hi, m.size()); ++b) m[b] = v;
}

// f(lo, hi) for the register bytes [lo, hi) instruction d may write: an ALU
// destination's elements exactly, else regWrites.
template <class F>
void eachWrite(const Program& p, const DInst& d, F f) {
  if (!d.fn) return f(0, p.regBytes);  // (not decoded: anything)
  if (aluInst(p, d)) {
    if (d.dst.kind == DOperand::Kind::Reg) eachElement(d.dst, d.exec, f);
    return;
  }
  const ByteRange w = regWrites(d);
  if (w.hi > w.lo) f(w.lo, w.hi);
}

// f(lo, hi) for the register bytes [lo, hi) whose values instruction d may
// read: an ALU source's elements; a memory instruction's scalar global offset
// and raw operands (DInst::rawRead). Control instructions read predicates only.
template <class F>
void eachRead(const Program& p, const DInst& d, F f) {
  if (!d.fn) return f(0, p.regBytes);  // (not decoded: anything)
  if (aluInst(p, d)) {
    for (const DOperand& o : d.src)
      if (o.kind == DOperand::Kind::Reg) eachElement(o, d.exec, f);
    return;
  }
  if (d.control || d.row->has(kNoExec)) return;
  if (d.goff.kind == DOperand::Kind::Reg) f(d.goff.off[0], uint64_t{d.goff.off[0]} + 4);
  for (unsigned r = 0; r < d.numRawReads; ++r) f(d.rawReads[r].lo, d.rawReads[r].hi);
}

// f(lo, hi) for the register bytes [lo, hi) instruction d writes whole when
// it runs at the start of a thread, before any control instruction (the
// execution mask is the dispatch mask): an unpredicated ALU destination, or a
// load's raw destinations with every lane on (a load writes each enabled
// channel, zero out of bounds, E2: GATHER_SCALED.md).
template <class F>
void eachWholeWrite(const Program& p, const DInst& d, uint32_t dispatchMask, F f) {
  const uint32_t lanes = execMaskBits(d.exec);
  if (!d.fn || d.predId || (!d.noMask && ((dispatchMask >> d.maskOff) & lanes) != lanes)) return;
  if (aluInst(p, d) && d.dst.kind == DOperand::Kind::Reg) return eachElement(d.dst, d.exec, f);
  if (d.row->has(kMayLoad) && !d.row->has(kAtomic))
    for (unsigned w = 0; w < d.numRawWrites; ++w) f(d.rawWrites[w].lo, d.rawWrites[w].hi);
}

// A thread state to run instructions on at decode or launch: the register
// file holds `image` (zero past it), every lane is on.
std::unique_ptr<Ctx> scratchCtx(const Program& p, const std::vector<uint8_t>& image) {
  auto c = std::make_unique<Ctx>();
  c->prog = &p;
  startState(c->t, p, image);
  c->t.em = 0xffffffffu;
  return c;
}

}  // namespace

void planStaticOffsets(Program& p) {
  // Known register bytes and their values, by running the instructions of the
  // straight-line start that only read known bytes (the first label or control
  // instruction ends it: every later instruction is reached through all of it).
  auto c = scratchCtx(p, {});
  std::vector<uint8_t> known(p.regBytes, 0);
  auto allKnown = [&](uint64_t lo, uint64_t hi) {  // bytes [lo, hi)
    return hi <= known.size() && std::all_of(known.begin() + lo, known.begin() + hi, [](uint8_t k) { return k; });
  };
  auto forget = [&](uint64_t lo, uint64_t hi) { setFlags(known, lo, hi, 0); };
  auto forgetWrites = [&](const DInst& d) { eachWrite(p, d, forget); };
  auto evaluable = [&](const DInst& d) {
    if (!registerAlu(p, d)) return false;
    bool ok = true;
    for (const DOperand& o : d.src)
      if (o.kind == DOperand::Kind::Reg)
        eachElement(o, d.exec, [&](uint64_t lo, uint64_t hi) { ok = ok && allKnown(lo, hi); });
    eachElement(d.dst, d.exec, [&](uint64_t, uint64_t hi) { ok = ok && hi <= known.size(); });
    return ok;
  };
  // Element_offset of a scaled memory instruction: consecutive known dwords.
  auto staticRun = [&](DInst& d) {
    if (d.addrKind != DInst::AddrKind::Scaled || !allKnown(d.raw[0], d.raw[0] + 4u * d.exec)) return;
    uint32_t off[32];
    std::memcpy(off, c->t.regs.data() + d.raw[0], 4u * d.exec);
    for (unsigned i = 0; i < d.exec; ++i)
      if (off[i] != off[0] + 4 * i) return;
    d.offRun = true;
    d.offBase = off[0];
  };
  size_t i = 0;
  for (; i < p.code.size(); ++i) {
    DInst& d = p.code[i];
    if (d.control || d.row->has(kJoin)) break;
    staticRun(d);
    if (evaluable(d)) {
      d.fn(*c, d);
      eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) { setFlags(known, lo, hi, 1); });
    } else {
      forgetWrites(d);
    }
  }
  // After the start: known bytes no later instruction writes.
  for (size_t j = i; j < p.code.size(); ++j) forgetWrites(p.code[j]);
  for (size_t j = i; j < p.code.size(); ++j) staticRun(p.code[j]);
}

void startState(ThreadState& t, const Program& p, const std::vector<uint8_t>& image) {
  t.regs.assign(std::max<size_t>(p.regBytes, image.size()), 0);
  std::copy(image.begin(), image.end(), t.regs.begin());
  t.preds.assign(p.numPreds + 1, 0);
}

namespace {

// An instruction planThreadStart did (its lanes are counted at thread start).
void execFolded(Ctx&, const DInst&) {}

// A value of the start that is an affine function of the thread's ids
// (ThreadAffine) and where it is, as a source may name it: `bytes` 4 for a
// dword (read as D or UD), 2 for %thread_x/y (read as UW).
struct Tracked {
  uint32_t offset = 0, bytes = 4;
  ThreadAffine value;
};

bool integerType(Type t) {
  switch (t) {
    case Type::F: case Type::DF: case Type::HF: case Type::VF: case Type::BF: case Type::BOOL: return false;
    default: return true;
  }
}

}  // namespace

ThreadStart planThreadStart(Program& p, std::vector<uint8_t>& image, bool fold, uint32_t dispatchMask) {
  ThreadStart out;
  const size_t n = image.size();
  // Doing instruction j at thread start instead of in its place gives the same
  // state when no instruction left in place before it reads or writes j's
  // destination (`held`), nor writes j's sources (`varies`). A thread id is
  // set per thread (held and varying). j is done once into the image when its
  // sources are the same in every thread; or, when it is a one-lane MOV, ADD,
  // MUL or SHL into a dword whose sources are such values and earlier results
  // that are affine in the ids (and it stays so: MOV, ADD, MUL, SHL pages, the
  // result converted to a 32-bit destination without saturation wraps mod 2^32),
  // every thread writes its value c0 + sum coef[i] * id[i] after its ids.
  std::vector<uint8_t> held(n, 0), varies(n, 0);
  auto mark = [](std::vector<uint8_t>& m, uint64_t lo, uint64_t hi, uint8_t v = 1) { setFlags(m, lo, hi, v); };
  // (bytes past the image, if any, count as touched)
  auto touches = [n](const std::vector<uint8_t>& m, uint64_t lo, uint64_t hi) {
    if (hi > n) return true;
    for (uint64_t b = lo; b < hi; ++b)
      if (m[b]) return true;
    return false;
  };
  std::vector<Tracked> tracked;  // usable as sources: the ids, then affine results
  for (size_t i = 0; i < kThreadIdVars.size(); ++i) {
    const unsigned v = kThreadIdVars[i];
    if (v >= p.vars.size() || !p.vars[v].present) continue;
    const VarSlot& s = p.vars[v];
    mark(held, s.offset, uint64_t{s.offset} + s.bytes);
    mark(varies, s.offset, uint64_t{s.offset} + s.bytes);
    Tracked t{s.offset, s.bytes, {}};
    t.value.offset = s.offset;
    t.value.coef[i] = 1;
    if (s.bytes == 2 || s.bytes == 4) tracked.push_back(t);
  }
  auto findTracked = [&](const DOperand& o) -> const Tracked* {
    for (const Tracked& t : tracked)
      if (t.offset == o.off[0] && t.bytes == typeSize(o.type)) return &t;
    return nullptr;
  };
  auto untrack = [&](uint64_t lo, uint64_t hi) {
    std::erase_if(tracked, [&](const Tracked& t) { return t.offset < hi && lo < uint64_t{t.offset} + t.bytes; });
  };
  // An affine result for d (nullopt: d is not such an instruction).
  auto c = scratchCtx(p, image);
  auto affineOf = [&](const DInst& d) -> std::optional<ThreadAffine> {
    const Opcode op = p.kernel->code[d.index].op;
    if (d.exec != 1 || d.sat || d.floatDomain || (op != Opcode::MOV && op != Opcode::ADD && op != Opcode::MUL && op != Opcode::SHL))
      return std::nullopt;
    if ((d.dst.type != Type::D && d.dst.type != Type::UD) || d.dst.mod != Mod::None) return std::nullopt;
    const uint32_t at = d.dst.off[0];
    if (touches(held, at, uint64_t{at} + 4)) return std::nullopt;
    std::array<const Tracked*, 2> from{};
    unsigned affineSources = 0;
    for (unsigned s = 0; s < 2; ++s) {
      const DOperand& o = d.src[s];
      if (o.kind == DOperand::Kind::None) continue;
      if (!integerType(o.type)) return std::nullopt;
      if (o.kind != DOperand::Kind::Reg || !touches(varies, o.off[0], uint64_t{o.off[0]} + typeSize(o.type))) continue;
      const Tracked* t = findTracked(o);
      // (a dword read as D or UD, an id of 16 bits as UW: the value itself, so the sum stays affine)
      const bool exact = t && o.mod == Mod::None && (t->bytes == 4 ? o.type == Type::D || o.type == Type::UD : o.type == Type::UW);
      if (!exact) return std::nullopt;
      from[s] = t;
      ++affineSources;
    }
    // (MUL: at most one factor varies; SHL: the count is the same in every thread)
    if (affineSources == 0 || (op == Opcode::MUL && affineSources > 1) || (op == Opcode::SHL && from[1])) return std::nullopt;
    // The coefficients, by running d (its page's semantics) with the ids at 0 and at each unit vector.
    std::array<uint64_t, 3> saved{};
    const std::array<uint32_t, 3> offs = {at, from[0] ? from[0]->offset : at, from[1] ? from[1]->offset : at};
    for (unsigned k = 0; k < 3; ++k) saved[k] = c->regBits(offs[k], 4);
    ThreadAffine r;
    r.offset = at;
    for (unsigned probe = 0; probe <= r.coef.size(); ++probe) {
      for (unsigned k = 3; k-- > 0;) c->setRegBits(offs[k], 4, saved[k]);  // (d may write its own source)
      for (const Tracked* t : from)
        if (t) c->setRegBits(t->offset, t->bytes, t->value.c0 + (probe ? t->value.coef[probe - 1] : 0));
      d.fn(*c, d);
      const uint32_t v = c->reg<uint32_t>(at);
      if (probe == 0) r.c0 = v;
      else r.coef[probe - 1] = v - r.c0;
    }
    for (unsigned k = 3; k-- > 0;) c->setRegBits(offs[k], 4, saved[k]);
    return r;
  };
  auto leaveInPlace = [&](const DInst& d) {
    eachRead(p, d, [&](uint64_t lo, uint64_t hi) { mark(held, lo, hi); });
    eachWrite(p, d, [&](uint64_t lo, uint64_t hi) {
      mark(held, lo, hi);
      mark(varies, lo, hi);
      untrack(lo, hi);  // (its affine value, if any, is still set at thread start: an earlier instruction may read it)
    });
  };
  auto doFold = [&](DInst& d) {
    d.fn = execFolded;
    d.fusedFn = d.mergedFn = d.allOnFn = nullptr;
    d.folded = true;
    out.foldedLanes += d.exec;  // every lane is on (NoMask, unpredicated)
  };
  for (DInst& d : p.code) {
    if (!aluInst(p, d)) break;  // (the straight-line start: every thread does each instruction once)
    if (!fold || !registerAlu(p, d)) {
      leaveInPlace(d);
      continue;
    }
    bool same = true;  // sources the same in every thread, destination free
    for (const DOperand& o : d.src)
      if (o.kind == DOperand::Kind::Reg)
        eachElement(o, d.exec, [&](uint64_t lo, uint64_t hi) { same = same && !touches(varies, lo, hi); });
    eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) { same = same && !touches(held, lo, hi); });
    // (a destination over an affine result must cover it: the image then holds that dword)
    for (const ThreadAffine& a : out.affine) {
      unsigned covered = 0;
      eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) {
        for (uint64_t b = a.offset; b < uint64_t{a.offset} + 4; ++b) covered += b >= lo && b < hi;
      });
      same = same && (covered == 0 || covered == 4);
    }
    if (same) {
      d.fn(*c, d);
      eachElement(d.dst, d.exec, [&](uint64_t lo, uint64_t hi) {
        std::erase_if(out.affine, [&](const ThreadAffine& a) { return a.offset >= lo && a.offset < hi; });
        untrack(lo, hi);
        mark(varies, lo, hi, 0);
      });
      doFold(d);
      continue;
    }
    if (auto a = affineOf(d)) {
      std::erase_if(out.affine, [&](const ThreadAffine& x) { return x.offset == a->offset; });
      untrack(a->offset, uint64_t{a->offset} + 4);
      out.affine.push_back(*a);
      tracked.push_back({a->offset, 4, *a});
      mark(varies, a->offset, uint64_t{a->offset} + 4);
      doFold(d);
      continue;
    }
    leaveInPlace(d);
  }
  std::copy(c->t.regs.begin(), c->t.regs.begin() + static_cast<ptrdiff_t>(n), image.begin());

  // What each thread's start must still write: the ids and affine results an
  // instruction left in the code may read; and the image bytes such an
  // instruction may write (the rest keep the image's value from thread to
  // thread), but for those the straight-line start writes whole before any
  // instruction reads them (every lane on: `covered` first, not `exposed`).
  std::vector<uint8_t> read(p.regBytes, 0), written(n, 0), covered(n, 0), exposed(n, 0);
  bool straight = true;
  for (const DInst& d : p.code) {
    straight = straight && !d.control && !d.row->has(kJoin);
    if (d.folded) continue;
    eachRead(p, d, [&](uint64_t lo, uint64_t hi) {
      mark(read, lo, hi);
      for (uint64_t b = lo; straight && b < std::min<uint64_t>(hi, n); ++b) exposed[b] |= !covered[b];
    });
    eachWrite(p, d, [&](uint64_t lo, uint64_t hi) { mark(written, lo, hi); });
    if (straight) eachWholeWrite(p, d, dispatchMask, [&](uint64_t lo, uint64_t hi) { mark(covered, lo, hi); });
  }
  auto isRead = [&](uint64_t lo, uint64_t hi) {
    for (uint64_t b = lo; b < std::min<uint64_t>(hi, read.size()); ++b)
      if (read[b]) return true;
    return false;
  };
  for (size_t i = 0; i < kThreadIdVars.size(); ++i) {
    const VarSlot* v = kThreadIdVars[i] < p.vars.size() ? &p.vars[kThreadIdVars[i]] : nullptr;
    if (v && v->present && isRead(v->offset, uint64_t{v->offset} + v->bytes))
      out.ids.push_back({v->offset, static_cast<uint8_t>(std::min<uint32_t>(v->bytes, 4)), static_cast<uint8_t>(i)});
  }
  std::erase_if(out.affine, [&](const ThreadAffine& a) { return !isRead(a.offset, uint64_t{a.offset} + 4); });
  // Whole 16-byte blocks (bytes of the image past those are copied too: they hold the image already).
  for (size_t b = 0; b < n; b += 16) {
    bool any = false;
    for (size_t i = b; i < std::min(n, b + 16); ++i) any |= written[i] && (exposed[i] || !covered[i]);
    if (!any) continue;
    const uint32_t lo = static_cast<uint32_t>(b), hi = static_cast<uint32_t>(std::min(n, b + 16));
    if (!out.rewrite.empty() && out.rewrite.back().hi == lo) out.rewrite.back().hi = hi;
    else out.rewrite.push_back({lo, hi});
  }
  return out;
}

}  // namespace visakit::sim
