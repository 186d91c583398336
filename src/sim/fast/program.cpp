// Decode once: Kernel -> Program (register-file layout, resolved operands,
// one handler per instruction).
#include "sim/fast/program.hpp"

#include "sim/fast/plan/plan.hpp"
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
      // (a source's element k: row k / width at the vertical stride, column k % width at the horizontal one)
      const unsigned w = std::max(1u, val(o.region.w)), vs = val(o.region.vs), hs = val(o.region.hs);
      unsigned row = 0, col = 0;
      const unsigned n = std::min(std::max(exec, 1u), LaneOffsets::size());
      uint32_t off[LaneOffsets::size()];
      for (unsigned k = 0; k < n; ++k) {
        uint32_t elt = 0;
        if (!scalar) {
          elt = dst ? k * hs : row * vs + col * hs;
          if (++col == w) col = 0, ++row;
        }
        off[k] = base + elt * ts;
      }
      d.off.assign(off, n);
      bool contig = true, bcast = true;
      for (unsigned k = 0; k < n; ++k) {
        contig = contig && off[k] == base + k * ts;
        bcast = bcast && off[k] == base;
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
void noEffectForm(const Program& p, const Instruction& i, const std::vector<uint32_t>&, DInst& d) { decodeNoEffect(p, i, d); }
void barrierForm(const Program& p, const Instruction& i, const std::vector<uint32_t>&, DInst& d) { decodeBarrier(p, i, d); }
constexpr FastForm kFastForms[] = {
    {Opcode::ADD, aluForm}, {Opcode::MUL, aluForm}, {Opcode::MAD, aluForm}, {Opcode::AND, aluForm}, {Opcode::OR, aluForm},
    {Opcode::XOR, aluForm}, {Opcode::NOT, aluForm}, {Opcode::SHL, aluForm}, {Opcode::SHR, aluForm},
    {Opcode::MOV, aluForm}, {Opcode::SEL, aluForm}, {Opcode::SETP, aluForm}, {Opcode::CMP, aluForm},
    {Opcode::MULH, aluForm}, {Opcode::ASR, aluForm}, {Opcode::AVG, aluForm}, {Opcode::FMINMAX, aluForm},
    {Opcode::ADD3, aluForm}, {Opcode::BFN, aluForm}, {Opcode::ADDC, aluForm}, {Opcode::SUBB, aluForm}, {Opcode::MADW, aluForm},
    {Opcode::RNDD, aluForm}, {Opcode::RNDU, aluForm}, {Opcode::RNDE, aluForm}, {Opcode::RNDZ, aluForm}, {Opcode::INV, aluForm},
    {Opcode::LZD, aluForm}, {Opcode::CBIT, aluForm}, {Opcode::FBL, aluForm}, {Opcode::BFREV, aluForm},
    {Opcode::ROL, aluForm}, {Opcode::ROR, aluForm},
    {Opcode::DIV, aluForm}, {Opcode::MOD, aluForm}, {Opcode::EXP, aluForm}, {Opcode::LOG, aluForm},
    {Opcode::SIN, aluForm}, {Opcode::COS, aluForm}, {Opcode::SQRT, aluForm}, {Opcode::SQRTM, aluForm},
    {Opcode::RSQRT, aluForm}, {Opcode::POW, aluForm}, {Opcode::DIVM, aluForm},
    {Opcode::LABEL, decodeControl}, {Opcode::SUBROUTINE, decodeControl}, {Opcode::JMP, decodeControl},
    {Opcode::GOTO, decodeControl}, {Opcode::RET, decodeControl},
    {Opcode::GATHER_SCALED, memoryForm<decodeGatherScaled>},
    {Opcode::SCATTER_SCALED, memoryForm<decodeScatterScaled>},
    {Opcode::SCATTER4_SCALED, memoryForm<decodeScatter4Scaled>},
    {Opcode::GATHER4_SCALED, memoryForm<decodeGather4Scaled>},
    {Opcode::QW_SCATTER, memoryForm<decodeQwScatter>},
    {Opcode::URB_WRITE, memoryForm<decodeUrbWrite>},
    // Nothing to simulate (sem/ctl.cpp `nothing`).
    {Opcode::FENCE, noEffectForm}, {Opcode::WAIT, noEffectForm}, {Opcode::YIELD, noEffectForm},
    {Opcode::SAMPLR_CACHE_FLUSH, noEffectForm}, {Opcode::FILE, noEffectForm}, {Opcode::LOC, noEffectForm},
    {Opcode::LIFETIME, noEffectForm}, {Opcode::LSC_FENCE, noEffectForm},
    {Opcode::BARRIER, barrierForm},
};
// spec-decisions E32: the fast forms round to nearest even. In a kernel with
// an instruction that may set %cr0's rounding mode (bits 5:4, zero at thread
// start: E29) the ALU instructions that round run through their semantics
// (Program::mayRound, decodeAlu). OR / XOR /
// MOV of %cr0 and an immediate with bits 5:4 clear (IGC's prolog
// `or %cr0 %cr0 0x4c0`) and an AND with %cr0 keep the mode RTNE.
// E22: likewise the denormal modes (bits 6, 7, 10; Program::mayKeepDenorms), which
// IGC's prolog does set: the fast forms flush HF and narrowing conversions' sources.
constexpr uint64_t kCr0Rounding = 0x30, kCr0Denorms = 0x4c0;
// Of kCr0Rounding and kCr0Denorms, the bits `inst` may set.
uint64_t cr0BitsMaySet(const Kernel& k, const Instruction& inst, const InstrDesc& row) {
  bool writes = false, readsCr0 = false, readsOther = false;
  uint64_t imm = 0;
  for (int fi = 0; fi < row.numFields; ++fi) {
    const FieldDesc& f = row.fields[fi];
    const Operand& o = inst.f[fi];
    const bool cr0 = (o.kind == Operand::Kind::General || o.kind == Operand::Kind::Raw) && aliasRoot(k, o.id) == kVarCr0;
    if (f.access == Access::Write || f.access == Access::ReadWrite) {
      writes |= cr0;
    } else if (f.kind == FieldKind::Vec && o.kind != Operand::Kind::None) {
      if (o.kind == Operand::Kind::Immediate) imm |= o.value;
      else if (cr0) readsCr0 = true;
      else readsOther = true;
    }
  }
  if (!writes) return 0;
  uint64_t set = 0;
  for (const uint64_t bits : {kCr0Rounding, kCr0Denorms}) {
    switch (inst.op) {
      case Opcode::AND: set |= readsCr0 ? 0 : bits; break;
      case Opcode::OR:
      case Opcode::XOR:
      case Opcode::MOV: set |= readsOther || (imm & bits) != 0 ? bits : 0; break;
      default: set |= bits;
    }
  }
  return set;
}

FastDecoder fastForm(const InstrDesc& row) {
  if (row.subOp >= 0) return nullptr;
  for (const FastForm& f : kFastForms)
    if (f.op == row.op) return f.decode;
  return nullptr;
}

// Decodes `k` into `p`; `given`: its reference program, decoded with the
// module's (a kernel that calls functions, or one of them: decodeModule).
void decodeProgram(const Kernel& k, const Launch& l, Program& p, RefProgram* given) {
  const unsigned grfSize = l.cfg->grfSize;
  p.kernel = &k;
  p.grfSize = grfSize;
  layoutVars(k, grfSize, p);
  p.numPreds = static_cast<uint32_t>(k.preds.size());
  const KernelUse& use = l.use;
  p.usesSurface = use.usesSurface;
  p.writesSurface = use.writesSurface;
  p.usesSlm = use.usesSlm;
  p.usesUrb = use.usesUrb;
  std::vector<uint32_t> labelPos(k.labels.size(), static_cast<uint32_t>(k.code.size()));
  std::vector<uint8_t> named(k.labels.size(), 0);  // labels a branch, call or switch names
  bool calls = false, rounding = false, denorms = false;
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const Instruction& inst = k.code[i];
    const InstrDesc* row = rowOf(inst);
    if (!row) continue;
    if (row->has(kJoin) && inst.f[0].id < labelPos.size()) labelPos[inst.f[0].id] = i;
    for (int fi = 0; fi < row->numFields; ++fi)
      if (row->fields[fi].kind == FieldKind::Label && !row->has(kJoin) && inst.f[fi].kind != Operand::Kind::None &&
          inst.f[fi].id < named.size())
        named[inst.f[fi].id] = 1;
    calls |= inst.op == Opcode::CALL;
    const uint64_t cr0 = cr0BitsMaySet(k, inst, *row);
    rounding |= (cr0 & kCr0Rounding) != 0;
    denorms |= (cr0 & kCr0Denorms) != 0;
  }
  p.mayRound = rounding;
  p.mayKeepDenorms = denorms;
  p.code.resize(k.code.size());
  bool needRef = given != nullptr;
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
    if (!desc) {
      d.viaRef = true;
      continue;
    }
    d.join = desc->has(kJoin) && inst.f[0].id < named.size() && named[inst.f[0].id];
    if (inst.op == Opcode::MOVS) {
      needRef = true;  // (the surface state; plan/surfaces.cpp)
      if (!decodeMovsState(p, inst, d)) d.viaRef = true;
      continue;
    }
    FastDecoder form = fastForm(*desc);
    if (inst.op == Opcode::RET && calls) form = nullptr;  // (RET of a called subroutine returns: its semantics)
    // GATHER4_SCALED on an unbound %scratch reaches the stateless address
    // space (spec-decisions M1): its semantics; SCATTER4_SCALED there too (the
    // forms access only bound spaces; the semantics say what it reaches).
    if ((inst.op == Opcode::GATHER4_SCALED || inst.op == Opcode::SCATTER4_SCALED) &&
        inst.f[desc->find(FieldKind::Surface)].id == kSurfScratch && !l.spaces[kSurfScratch].bound)
      form = nullptr;
    // Operands the fast forms do not read (address registers, indirect,
    // address-of, surface state): the instruction runs through its semantics.
    bool plainOperands = true;
    for (size_t fi = 0; fi < inst.f.size(); ++fi) {
      const Operand& o = inst.f[fi];
      plainOperands &= o.kind != Operand::Kind::Address && o.kind != Operand::Kind::Indirect &&
                       o.kind != Operand::Kind::AddressOf && o.kind != Operand::Kind::State;
    }
    if (!form || !plainOperands) {
      d.viaRef = true;
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
  planSurfaceState(p, l);  // (may leave a memory instruction to its semantics)
  // The instructions without a fast form (and those a form or the surface
  // plan leaves to their semantics: a shape it does not take): their
  // semantics, as the reference tier decodes them, those alone (an
  // instruction without semantics: the reference tier runs the launch, and
  // reports it).
  std::vector<uint8_t> viaRef(k.code.size());
  for (uint32_t i = 0; i < k.code.size(); ++i) needRef |= viaRef[i] = p.code[i].viaRef;
  if (needRef) {
    std::string err;
    if (given) {
      p.ref = std::move(*given);
    } else if (!decodeReference(k, grfSize, p.ref, err, &viaRef)) {
      p.unsupported = err;
      return;
    }
    p.refState = true;
    for (uint32_t i = 0; i < k.code.size(); ++i) p.code[i].ref = &p.ref.code[i];
  }
  for (uint32_t i = 0; i < k.code.size(); ++i)
    if (DInst& d = p.code[i]; d.viaRef) {
      decodeViaRef(p, k.code[i], p.ref.code[i], d);
      ++p.viaRef;
    }
  p.codeEnd = static_cast<uint32_t>(p.code.size());
  for (const DInst& d : p.code)
    if (d.control && (d.viaRef || (d.target <= d.index && d.row->find(FieldKind::Label) >= 0)))
      p.loops = true;  // a branch back (a call, a switch jump: taken for one)
  // A one-lane CMP right before a JMP ends its straight-line run, as a tail
  // that does both (chapter 3: the JMP reads the predicate the CMP just wrote).
  for (size_t i = 0; i + 1 < p.code.size(); ++i)
    if (p.code[i].cmpJmpFn && k.code[i + 1].op == Opcode::JMP && !p.code[i + 1].viaRef) {
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
}

// Whether k names a function (FCALL, IFCALL through FADDR's address, FADDR).
bool namesFunctions(const Kernel& k) {
  for (const Instruction& inst : k.code)
    if (inst.op == Opcode::FCALL || inst.op == Opcode::IFCALL || inst.op == Opcode::FADDR) return true;
  return false;
}

}  // namespace

void decode(const Kernel& k, const Launch& l, Program& p) {
  if (!namesFunctions(k)) return decodeProgram(k, l, p, nullptr);
  // The callees resolved by name, as the reference tier resolves them (C2);
  // a call the module cannot resolve: the reference tier reports it.
  std::vector<RefProgram> refs;
  std::string err;
  if (!decodeModule(k, *l.cfg, refs, err)) {
    p.unsupported = err;
    return;
  }
  decodeProgram(k, l, p, &refs[0]);
  p.module.push_back(&p.ref);
  for (size_t i = 1; i < refs.size() && p.unsupported.empty(); ++i) {
    auto f = std::make_unique<Program>();
    decodeProgram(*refs[i].kernel, l, *f, &refs[i]);
    p.unsupported = f->unsupported;
    p.module.push_back(&f->ref);
    p.functions.push_back(std::move(f));
  }
}

void startState(ThreadState& t, const Program& p, const std::vector<uint8_t>& image) {
  t.regs.assign(std::max<size_t>(p.regBytes, image.size()), 0);
  std::copy(image.begin(), image.end(), t.regs.begin());
  t.preds.assign(p.numPreds + 1, 0);
  // (the reference tier's thread state, for the instructions run through their semantics)
  t.addrs.assign(p.ref.numAddrElems, 0);
  t.prog = &p.ref;  // (its layout: %cr0's rounding mode, E32)
  t.programs = p.module;
  t.fcalls.clear();
  t.surfState.assign(kNumPredefSurfaces + p.kernel->surfaces.size(), kNoSurface);
  t.calls.clear();
  t.error.clear();
  t.atBarrier = false;
}

}  // namespace visakit::sim
