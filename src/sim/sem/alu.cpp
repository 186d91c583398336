// ALU instructions in the reference tier: every lane through the exact
// pipeline of arith.hpp (integer and float domains).
#include <array>

#include "sim/sem/arith.hpp"

namespace visakit::sim {
namespace {

using pipeline::arith;
using pipeline::domainOf;
using pipeline::fltSource;
using pipeline::Domain;

// MOV page: a predicate source is "interpreted as an unsigned integer, with
// element 0 corresponding to the LSB"; bits past its size are zero (E13).
void mov(Exec& e) {
  const RefOperand& s = e.op(e.src(0));
  const RefOperand& d = e.op(e.dst());
  if (movCopiesBits(s, d, e.inst().sat)) {
    const uint32_t en = e.chEn();
    e.countLanes(en);
    std::array<uint64_t, 32> v{};
    for (unsigned k = 0; k < e.exec(); ++k) v[k] = e.bits(e.src(0), k);
    for (unsigned k = 0; k < e.exec(); ++k)
      if ((en >> k) & 1) e.setBits(e.dst(), k, v[k]);
    return;
  }
  if (s.kind != Operand::Kind::Predicate) {
    arith<ops::Mov, 1>(e);
    return;
  }
  const uint32_t en = e.chEn();
  e.countLanes(en);
  const RefThread& t = e.thread();
  uint32_t bitsOn = s.value >= 32 ? 0xffffffffu : (1u << s.value) - 1;  // value: the predicate's elements
  uint32_t p = s.id < t.preds.size() ? t.preds[s.id] & bitsOn : 0;
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1) e.storeInt(e.dst(), k, p);
}

// SEL page: "if (EM[i]) dst[i] = Pred[i] ? src0[i] : src1[i]": the predicate
// selects, the execution mask enables. No predicate selects src0 (E16).
void sel(Exec& e) {
  const uint32_t en = e.emBits();
  e.countLanes(en);
  if (!en) return;
  const uint32_t p = e.predBits();
  const unsigned n = e.exec();
  Domain dom = domainOf(e);
  if (dom.flt) {
    std::array<double, 32> r{};
    for (unsigned k = 0; k < n; ++k) r[k] = fltSource(e, e.src((p >> k) & 1 ? 0 : 1), k, dom.exec);
    for (unsigned k = 0; k < n; ++k)
      if ((en >> k) & 1) e.storeFloat(e.dst(), k, r[k], dom.exec);
    return;
  }
  std::array<i128, 32> r{};
  for (unsigned k = 0; k < n; ++k) r[k] = e.intValue(e.src((p >> k) & 1 ? 0 : 1), k);
  for (unsigned k = 0; k < n; ++k)
    if ((en >> k) & 1) e.storeInt(e.dst(), k, r[k]);
}

template <class T>
bool relation(unsigned op, T a, T b) {
  switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a < b;
    default: return a <= b;
  }
}

// CMP page: a predicate destination gets the result bits; a general one all
// ones or all zeros of its size. NaN compares unordered (ne true, others false).
void cmp(Exec& e) {
  const uint32_t en = e.chEn();  // no predication: EM (or NoMask) only
  e.countLanes(en);
  if (!en) return;
  const unsigned n = e.exec();
  const unsigned rel = static_cast<unsigned>(e.value(e.field("Rel_op")) & 7);
  Domain dom = domainOf(e);
  uint32_t res = 0;
  for (unsigned k = 0; k < n; ++k) {
    bool r = dom.flt ? relation(rel, fltSource(e, e.src(0), k, dom.exec), fltSource(e, e.src(1), k, dom.exec))
                     : relation(rel, e.intValue(e.src(0), k), e.intValue(e.src(1), k));
    res |= uint32_t{r} << k;
  }
  const int d = e.dst();
  const RefOperand& o = e.op(d);
  for (unsigned k = 0; k < n; ++k) {
    if (!((en >> k) & 1)) continue;
    bool r = (res >> k) & 1;
    if (o.kind == Operand::Kind::Predicate) e.setPredElem(d, k, r);
    else e.setBits(d, k, r ? ~uint64_t{0} : 0);
  }
}

// SETP page: a scalar src0 gives dst element i its bit i, for every i < exec;
// a vector src0 gives enabled element i the LSB of src0[i]. Element i of the
// destination is bit i + mask offset.
void setp(Exec& e) {
  const int s = e.src(0), d = e.dst();
  const RefOperand& o = e.op(s);
  const bool scalar = o.kind == Operand::Kind::Immediate || (o.vs == 0 && o.w == 1 && o.hs == 0);
  uint32_t en, bitsOut = 0;
  if (scalar) {
    en = e.all();
    bitsOut = static_cast<uint32_t>(lowBits(e.intValue(s, 0), intBits(o.type))) & en;
  } else {
    en = e.chEn();
    for (unsigned k = 0; k < e.exec(); ++k) bitsOut |= static_cast<uint32_t>(e.intValue(s, k) & 1) << k;
  }
  e.countLanes(en);
  for (unsigned k = 0; k < e.exec(); ++k)
    if ((en >> k) & 1) e.setPredElem(d, k, (bitsOut >> k) & 1);
}

constexpr SemEntry kAlu[] = {
    {Opcode::MOV, -1, mov},
    {Opcode::ADD, -1, arith<ops::Add, 2>},
    {Opcode::MUL, -1, arith<ops::Mul, 2>},
    {Opcode::AND, -1, arith<ops::And, 2>},
    {Opcode::OR, -1, arith<ops::Or, 2>},
    {Opcode::XOR, -1, arith<ops::Xor, 2>},
    {Opcode::NOT, -1, arith<ops::Not, 1>},
    {Opcode::SHL, -1, arith<ops::Shl, 2>},
    {Opcode::SHR, -1, arith<ops::Shr, 2>},
    {Opcode::SEL, -1, sel},
    {Opcode::CMP, -1, cmp},
    {Opcode::SETP, -1, setp},
};

}  // namespace

std::span<const SemEntry> aluSemantics() { return kAlu; }

}  // namespace visakit::sim
