// Pass: the thread start (planThreadStart). Precondition: decoded, the
// launch's register image (inputs) and dispatch mask known. Result: the
// kernel's start that is the same in every thread done once into the image,
// one-lane values affine in the thread ids written at each thread's start
// (ThreadAffine), and what each thread's start must still write
// (docs/architecture.md "The start, folded at launch").
#include <optional>

#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"

namespace visakit::sim {

using namespace plan;

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

ThreadStart planThreadStart(Program& p, std::vector<uint8_t>& image, bool fold, uint32_t dispatchMask,
                            const std::vector<ByteRange>& perThread) {
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
  // An explicit launch's payload (%r0, its inputs, %sr0): set per thread, as the ids.
  for (const ByteRange& r : perThread) {
    mark(held, r.lo, r.hi);
    mark(varies, r.lo, r.hi);
  }
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
    d.dropForms();
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
  // (an indirect operand reads or writes every register byte: after the first
  // such range another marks nothing new, `exposed` neither as `covered` only grows)
  bool readAll = false, writtenAll = false;
  auto firstAll = [](const std::vector<uint8_t>& m, bool& all, uint64_t lo, uint64_t hi) {
    if (lo != 0 || hi < m.size()) return false;
    const bool again = all;
    all = true;
    return again;
  };
  for (const DInst& d : p.code) {
    straight = straight && !d.control && !d.join;
    if (d.folded) continue;
    eachRead(p, d, [&](uint64_t lo, uint64_t hi) {
      if (firstAll(read, readAll, lo, hi)) return;
      mark(read, lo, hi);
      if (!straight) return;
      uint8_t* e = exposed.data();
      const uint8_t* cv = covered.data();
      for (uint64_t b = lo, end = std::min<uint64_t>(hi, n); b < end; ++b) e[b] |= !cv[b];
    });
    eachWrite(p, d, [&](uint64_t lo, uint64_t hi) {
      if (!firstAll(written, writtenAll, lo, hi)) mark(written, lo, hi);
    });
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
  auto addBlock = [](std::vector<ByteRange>& v, uint32_t lo, uint32_t hi) {
    if (!v.empty() && v.back().hi == lo) v.back().hi = hi;
    else v.push_back({lo, hi});
  };
  for (size_t b = 0; b < n; b += 16) {
    bool any = false, anyWritten = false;
    for (size_t i = b; i < std::min(n, b + 16); ++i) {
      any |= written[i] && (exposed[i] || !covered[i]);
      anyWritten |= written[i];
    }
    const uint32_t lo = static_cast<uint32_t>(b), hi = static_cast<uint32_t>(std::min(n, b + 16));
    if (any) addBlock(out.rewrite, lo, hi);
    if (anyWritten) addBlock(out.written, lo, hi);
  }
  return out;
}

}  // namespace visakit::sim
