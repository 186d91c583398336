// The reference tier's decoded program: each instruction's row, semantics and
// operands, resolved once against the register layout.
#include <bit>

#include <fmt/format.h>

#include "sim/lanes.hpp"
#include "sim/ref/ref.hpp"

namespace visakit::sim {
namespace {

uint8_t regionVal(uint8_t v) { return v == kRegionNull ? 0 : v; }

// Chapter 5 "Immediate Operands": V / UV are 8 elements of 4 bits (W / UW),
// VF 4 restricted floats (F).
void immediate(const Operand& o, RefOperand& r) {
  r.type = o.type;
  r.imm[0] = o.value;
  if (o.type == Type::V || o.type == Type::UV) {
    r.type = o.type == Type::V ? Type::W : Type::UW;
    r.immPeriod = 8;
    for (unsigned k = 0; k < 8; ++k) {
      uint64_t nib = (o.value >> (4 * k)) & 15;
      if (o.type == Type::V && (nib & 8)) nib |= 0xfff0;
      r.imm[k] = nib;
    }
  } else if (o.type == Type::VF) {
    r.type = Type::F;
    r.immPeriod = 4;
    for (unsigned k = 0; k < 4; ++k) r.imm[k] = std::bit_cast<uint32_t>(vfToFloat(static_cast<uint8_t>(o.value >> (8 * k))));
  }
}

void operand(const RefProgram& p, const FieldDesc& f, const Operand& o, RefOperand& r) {
  const Kernel& k = *p.kernel;
  r.kind = o.kind;
  r.mod = o.mod;
  r.value = o.value;
  r.id = o.id;
  const bool dst = f.access == Access::Write || f.access == Access::ReadWrite;
  switch (o.kind) {
    case Operand::Kind::General: {
      const VarSlot s = o.id < p.layout.vars.size() ? p.layout.vars[o.id] : VarSlot{};
      r.null = o.id == kVarNull;
      r.type = s.type;
      // Chapter 5 "Region-based Addressing": first element R * (GRF/size) + C.
      r.base = s.offset + o.row * p.grfSize + o.col * typeSize(s.type);
      r.end = s.offset + s.bytes;
      if (dst) {  // element k at k * hs: every lane in one row of width 32
        r.vs = 0;
        r.w = 32;
        r.hs = regionVal(o.region.hs);
      } else {
        r.vs = regionVal(o.region.vs);
        r.w = std::max<uint8_t>(1, regionVal(o.region.w));
        r.hs = regionVal(o.region.hs);
      }
      return;
    }
    case Operand::Kind::Raw: {
      const VarSlot s = o.id < p.layout.vars.size() ? p.layout.vars[o.id] : VarSlot{};
      r.null = o.id == kVarNull;
      r.type = s.type;
      r.base = s.offset + o.offset;
      r.end = s.offset + s.bytes;
      return;
    }
    case Operand::Kind::Immediate: immediate(o, r); return;
    case Operand::Kind::Predicate:
      r.type = Type::BOOL;
      r.value = o.id >= 1 && o.id <= k.preds.size() ? k.preds[o.id - 1].numElts : 32;
      return;
    case Operand::Kind::Address:
      r.type = Type::UW;
      r.addr = (o.id < p.addrStart.size() ? p.addrStart[o.id] : 0) + o.col;
      r.hs = 1;
      return;
    case Operand::Kind::Indirect:
      r.type = o.type;
      r.addr = (o.id < p.addrStart.size() ? p.addrStart[o.id] : 0) + o.col;
      r.base = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(o.value)));
      if (dst) {
        r.vs = 0;
        r.w = 32;
        r.hs = regionVal(o.region.hs);
      } else {
        r.vs = o.region.vs;  // kRegionNull: VxH, one address element per `w` lanes
        if (r.vs != kRegionNull) r.vs = regionVal(r.vs);
        r.w = std::max<uint8_t>(1, regionVal(o.region.w));
        r.hs = regionVal(o.region.hs);
      }
      return;
    case Operand::Kind::AddressOf: {
      // The register byte address of the variable (address registers hold them).
      const VarSlot s = o.row == 0 && o.id < p.layout.vars.size() ? p.layout.vars[o.id] : VarSlot{};
      r.type = Type::UW;
      r.base = s.offset + o.offset;
      return;
    }
    default: return;
  }
}

}  // namespace

bool decodeReference(const Kernel& k, unsigned grfSize, RefProgram& p, std::string& err, const std::vector<uint8_t>* only) {
  p.kernel = &k;
  p.grfSize = grfSize;
  p.layout = layoutVars(k, grfSize);
  p.numPreds = static_cast<uint32_t>(k.preds.size());
  p.addrStart.resize(k.addrs.size());
  for (size_t i = 0; i < k.addrs.size(); ++i) {
    p.addrStart[i] = p.numAddrElems;
    p.numAddrElems += k.addrs[i].numElts;
  }
  std::vector<uint32_t> labelPos(k.labels.size(), static_cast<uint32_t>(k.code.size()));
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const Instruction& inst = k.code[i];
    if ((inst.op == Opcode::LABEL || inst.op == Opcode::SUBROUTINE) && inst.f[0].id < labelPos.size())
      labelPos[inst.f[0].id] = i;
  }
  p.code.resize(k.code.size());
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const Instruction& inst = k.code[i];
    RefInst& d = p.code[i];
    d.inst = &inst;
    d.index = i;
    d.row = rowOf(inst);
    if (only && !(*only)[i]) continue;
    d.fn = d.row ? semanticsOf(*d.row) : nullptr;
    if (!d.fn) {
      err = d.row ? fmt::format("not supported by the simulator: {} ({} page), instruction #{}", d.row->mnemonic,
                                d.row->page, i)
                  : fmt::format("not supported by the simulator: opcode 0x{:02x}, instruction #{}",
                                static_cast<unsigned>(inst.op), i);
      return false;
    }
    d.hasExec = d.row->find(FieldKind::ExecSize) >= 0;
    d.exec = static_cast<uint8_t>(d.hasExec ? inst.execSize() : 1);
    d.maskOff = static_cast<uint8_t>(emaskOffset(inst.emask));
    d.noMask = emaskNoMask(inst.emask);
    d.predId = inst.pred.id;
    d.predCtl = inst.pred.control;
    d.predInv = inst.pred.invert;
    d.sat = inst.sat;
    d.f.resize(static_cast<size_t>(d.row->numFields));
    for (int fi = 0; fi < d.row->numFields; ++fi) {
      const FieldDesc& f = d.row->fields[fi];
      operand(p, f, inst.f[fi], d.f[fi]);
      // A38: ROL/ROR take no source modifier; IGC's (-) on one is dropped, as its finalizer does.
      if ((inst.op == Opcode::ROL || inst.op == Opcode::ROR) && f.access == Access::Read) d.f[fi].mod = Mod::None;
      if (f.kind == FieldKind::Label && inst.f[fi].kind != Operand::Kind::None)
        d.f[fi].value = d.target = inst.f[fi].id < labelPos.size() ? labelPos[inst.f[fi].id] : kNoPc - 1;
      if (f.kind != FieldKind::Vec) continue;
      if (f.access == Access::Write || f.access == Access::ReadWrite) d.dst = static_cast<int8_t>(fi);
      else if (d.numSrc < d.src.size()) d.src[d.numSrc++] = static_cast<int8_t>(fi);
    }
  }
  return true;
}

}  // namespace visakit::sim
