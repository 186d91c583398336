// vISA binary reader: versions 3.4 to 4.1 (chapter 4 "The Virtual ISA Object
// Format"; igc-dialect.md §2). Every read goes through a bounds-checked cursor,
// every count is checked against the bytes that remain before anything is
// allocated for it, and every id an instruction uses must name a declaration.
// The first problem ends the read with its byte offset and what was expected.
#include <algorithm>

#include <fmt/format.h>

#include "binary/format.hpp"
#include "visakit/visakit.hpp"

namespace visakit {
namespace binary {
namespace {

struct DecodeError {
  std::string msg;
};

[[noreturn]] void fail(size_t off, std::string_view msg) {
  throw DecodeError{fmt::format("offset 0x{:x}: {}", off, msg)};
}

class Cursor {
 public:
  Cursor(std::string_view buf, size_t pos, size_t end, std::string endWhat)
      : buf_(buf), pos_(pos), end_(end), endWhat_(std::move(endWhat)) {}

  size_t pos() const { return pos_; }
  size_t end() const { return end_; }
  size_t left() const { return end_ - pos_; }

  void need(size_t n, std::string_view what) const {
    if (left() < n)
      fail(pos_, fmt::format("expected {} byte{} of {}, {} at 0x{:x}", n, n == 1 ? "" : "s", what, endWhat_, end_));
  }
  uint64_t le(unsigned n, std::string_view what) {
    need(n, what);
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(buf_[pos_ + i])} << (8 * i);
    pos_ += n;
    return v;
  }
  uint8_t u8(std::string_view what) { return static_cast<uint8_t>(le(1, what)); }
  uint16_t u16(std::string_view what) { return static_cast<uint16_t>(le(2, what)); }
  uint32_t u32(std::string_view what) { return static_cast<uint32_t>(le(4, what)); }
  uint64_t u64(std::string_view what) { return le(8, what); }
  std::string_view bytes(size_t n, std::string_view what) {
    need(n, what);
    std::string_view r = buf_.substr(pos_, n);
    pos_ += n;
    return r;
  }
  std::string_view cstr(std::string_view what) {
    size_t nul = buf_.substr(0, end_).find('\0', pos_);
    if (nul == std::string_view::npos)
      fail(pos_, fmt::format("expected a NUL-terminated {}, {} at 0x{:x}", what, endWhat_, end_));
    std::string_view r = buf_.substr(pos_, nul - pos_);
    pos_ = nul + 1;
    return r;
  }
  // A table of `count` entries of at least `minEach` bytes must fit in what is
  // left: checked before anything is allocated for it.
  void checkCount(uint64_t count, size_t minEach, size_t countAt, std::string_view what) const {
    if (count * minEach > left())
      fail(countAt, fmt::format("{} count {} needs at least {} bytes, but {} at 0x{:x} ({} bytes left)", what, count,
                                count * minEach, endWhat_, end_, left()));
  }

 private:
  std::string_view buf_;
  size_t pos_, end_;
  std::string endWhat_;  // "the file ends", "the kernel object ends", ...
};

const char* className(unsigned cls) {
  switch (cls) {
    case kClassGeneral: return "general";
    case kClassAddress: return "address";
    case kClassPredicate: return "predicate";
    case kClassIndirect: return "indirect";
    case kClassAddressOf: return "address-of";
    case kClassImmediate: return "immediate";
    case kClassState: return "state";
    default: return "invalid";
  }
}

// Does general variable id name something: a predefined variable (V0..V21) or
// a declared one (32 + index)?
bool varExists(const Kernel& k, uint32_t id) { return predefVar(id) != nullptr || k.userVar(id) != nullptr; }

void checkVar(const Kernel* k, uint32_t id, size_t at, std::string_view what) {
  if (!k || varExists(*k, id)) return;
  std::string declared = k->vars.empty() ? std::string("none declared")
                                         : fmt::format("declared ids {}-{}", kNumPredefVars, kNumPredefVars + k->vars.size() - 1);
  fail(at, fmt::format("{} variable id {} names no variable (predefined ids 0-{}, {})", what, id, kPoolPredefVars, declared));
}

void checkPred(const Kernel* k, uint32_t id, size_t at) {
  if (!k || k->pred(id)) return;
  fail(at, fmt::format("predicate id {} names no predicate (the kernel declares {})", id,
                       k->preds.empty() ? std::string("none") : fmt::format("ids 1-{}", k->preds.size())));
}

uint8_t regionField(unsigned code, size_t at, std::string_view which) {
  if (code > 7) fail(at, fmt::format("region {} code {} (expected 0-7)", which, code));
  return regionValue(static_cast<uint8_t>(code));
}

// A vector operand (igc-dialect.md §2.4), of the classes the field allows.
// `addressOf`: the field takes an address-of operand, which IGC's writer puts
// as a general operand (row, element) or a state operand (element in words).
// `igc12504`: as IGC 1.0.12504's binary emitter writes it (B6), which gives an
// address-of operand the region of a scalar source (<0;1,0>, 0x0121) where Intel's
// later writer has none.
Operand readVector(Cursor& c, const FieldDesc& f, const Kernel* k, bool& sat, unsigned grfSize, bool igc12504 = false) {
  bool dst = f.access == Access::Write || f.access == Access::ReadWrite;
  size_t at = c.pos();
  uint8_t tag = c.u8(fmt::format("{} operand tag", f.name));
  unsigned cls = tag & 7, mod = (tag >> 3) & 7;
  if (tag & 0xc0) fail(at, fmt::format("{} operand tag 0x{:02x} has reserved bits 6-7 set", f.name, tag));
  if (cls > kClassState || cls == kClassAddressOf)
    fail(at, fmt::format("{} operand of class {} ({}) is not a class IGC writes", f.name, cls, className(cls)));
  bool addressOf = (f.classes & kAO) && !(f.classes & (kG | kS)) && (cls == kClassGeneral || cls == kClassState);
  if (!addressOf && !(f.classes & (1u << cls)))
    fail(at, fmt::format("{} cannot be an operand of class {} ({})", f.name, cls, className(cls)));
  Operand o;
  if (dst) {
    // The destination tag carries only .sat (modifier 4).
    if (mod != 0 && mod != kModSat)
      fail(at, fmt::format("destination modifier {} (a destination takes only .sat, modifier 4)", mod));
    sat = mod == kModSat;
  } else {
    if (mod > 5 || mod == kModSat)
      fail(at, fmt::format("source modifier {} (expected 0 none, 1 abs, 2 neg, 3 neg-abs or 5 not)", mod));
    if (cls == kClassImmediate && mod != 0) fail(at, "an immediate operand cannot have a modifier");
    o.mod = static_cast<Mod>(mod);
  }
  // vxh: an indirect source may leave the vertical stride absent (VxH, chapter 5 "Indirect Operands").
  auto region = [&](bool isDst, bool vxh = false) {
    size_t rAt = c.pos();
    uint16_t r = c.u16("region");
    if (r & 0xf000) fail(rAt, fmt::format("region 0x{:04x} has reserved bits 12-15 set", r));
    o.region.vs = regionField(r & 0xf, rAt, "vertical stride");
    o.region.w = regionField((r >> 4) & 0xf, rAt, "width");
    o.region.hs = regionField((r >> 8) & 0xf, rAt, "horizontal stride");
    // A destination region is <hs> only; a source needs <vs;w,hs> (chapter 5).
    if (isDst && (o.region.vs != kRegionNull || o.region.w != kRegionNull))
      fail(rAt, fmt::format("destination region 0x{:04x}: vertical stride and width must be 0 (absent)", r));
    if (o.region.hs == kRegionNull || (!isDst && ((o.region.vs == kRegionNull && !vxh) || o.region.w == kRegionNull)))
      fail(rAt, fmt::format("{} region 0x{:04x} leaves a stride or width absent (code 0)", isDst ? "destination" : "source", r));
  };
  switch (cls) {
    case kClassGeneral: {
      c.need(8, fmt::format("general operand ({})", f.name));
      size_t idAt = c.pos();
      o.id = c.u32("variable id");
      checkVar(k, o.id, idAt, "operand");
      o.row = c.u8("row offset");
      o.col = c.u8("column offset");
      if (addressOf) {
        size_t rAt = c.pos();
        if (uint16_t r = c.u16("region"); r != 0 && !(igc12504 && r == 0x0121))
          fail(rAt, igc12504 ? "an address-of operand has no region, or <0;1,0> (0x0121) as IGC 1.0.12504 writes it"
                             : "an address-of operand has no region");
        Type vt = Type::UB;
        uint32_t bytes = 0;
        if (k) k->varInfo(o.id, vt, bytes);
        uint32_t off = o.row * grfSize + o.col * typeSize(vt);
        if (off > 0xffff) fail(idAt, fmt::format("address-of offset {} does not fit in 16 bits", off));
        o.kind = Operand::Kind::AddressOf;
        o.offset = static_cast<uint16_t>(off);
        o.row = o.col = 0;
        return o;
      }
      o.kind = Operand::Kind::General;
      region(dst);
      return o;
    }
    case kClassAddress: {
      o.kind = Operand::Kind::Address;
      size_t idAt = c.pos();
      o.id = c.u16("address variable id");
      if (k && o.id >= k->addrs.size()) fail(idAt, fmt::format("address id {} names no address variable", o.id));
      o.col = c.u8("address element");
      size_t wAt = c.pos();
      uint8_t w = c.u8("address width");
      if (w > 5) fail(wAt, fmt::format("address width code {} (expected 0-5)", w));
      o.region.w = static_cast<uint8_t>(execSizeFromCode(w));
      return o;
    }
    case kClassIndirect: {
      o.kind = Operand::Kind::Indirect;
      size_t idAt = c.pos();
      o.id = c.u16("address variable id");
      if (k && o.id >= k->addrs.size()) fail(idAt, fmt::format("address id {} names no address variable", o.id));
      o.col = c.u8("address element");
      o.value = c.u16("indirect offset");
      size_t tAt = c.pos();
      uint8_t t = c.u8("indirect type");
      if ((t & 15) == static_cast<unsigned>(Type::BOOL) || t > 15) fail(tAt, fmt::format("indirect operand type {} (expected 0-15, not bool)", t));
      o.type = static_cast<Type>(t & 15);
      region(dst, true);
      return o;
    }
    case kClassState: {
      size_t at2 = c.pos();
      uint8_t sc = c.u8("state operand class");
      if (sc > 1) fail(at2, fmt::format("state operand class {} (expected 0 surface or 1 sampler)", sc));
      o.id = c.u16("state operand id");
      o.col = c.u8("state element");
      if (sc == 0 && k && o.id >= kNumPredefSurfaces && !k->surface(o.id))
        fail(at2, fmt::format("surface id {} names no surface", o.id));
      if (addressOf) {
        o.kind = Operand::Kind::AddressOf;
        o.row = static_cast<uint8_t>(sc + 1);
        o.offset = static_cast<uint16_t>(o.col * 2);
        o.col = 0;
        return o;
      }
      o.kind = Operand::Kind::State;
      o.row = sc;
      return o;
    }
    case kClassPredicate: {
      o.kind = Operand::Kind::Predicate;
      size_t idAt = c.pos();
      uint16_t v = c.u16(fmt::format("predicate operand ({})", f.name));
      if (v & 0xf000) fail(idAt, fmt::format("predicate operand 0x{:04x}: control and invert bits are not supported here", v));
      o.id = v;
      checkPred(k, o.id, idAt);
      return o;
    }
    default: {  // immediate: ub type, then a dword (two for DF, Q, UQ)
      if (dst) fail(at, fmt::format("an immediate cannot be the destination ({})", f.name));
      o.kind = Operand::Kind::Immediate;
      size_t tAt = c.pos();
      uint8_t t = c.u8("immediate type");
      if (t >= kNumTypes || static_cast<Type>(t) == Type::BOOL)
        fail(tAt, fmt::format("immediate type {} (expected a type code 0-15 other than 10, bool)", t));
      o.type = static_cast<Type>(t);
      if (typeSize(o.type) == 8) {
        o.value = c.u64("64-bit immediate value");
        return o;
      }
      uint64_t v = c.u32("immediate value");
      // Narrow types are held extended to 32 bits (igc-dialect.md §2.4):
      // W/B sign-extended, UW/UB zero-extended; HF/BF are 16-bit patterns.
      switch (o.type) {
        case Type::W: v = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v))); break;
        case Type::B: v = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v))); break;
        case Type::UW:
        case Type::HF:
        case Type::BF: v &= 0xffff; break;
        case Type::UB: v &= 0xff; break;
        default: break;
      }
      o.value = v;
      return o;
    }
  }
}

// The fewest and most bytes a field can take in the binary (a vector operand:
// over the classes the field allows, igc-dialect.md §2.4).
std::pair<size_t, size_t> fieldBytes(const FieldDesc& f) {
  switch (f.kind) {
    case FieldKind::SubOp: return {0, 0};
    case FieldKind::ExecSize:
    case FieldKind::Surface:
    case FieldKind::Sampler: return {1, 1};
    case FieldKind::Pred:
    case FieldKind::Label: return {2, 2};
    case FieldKind::Raw: return {6, 6};
    case FieldKind::Enum:
    case FieldKind::Int:
    case FieldKind::Zero:
    case FieldKind::String: return {f.width, f.width};
    case FieldKind::Vec: break;
  }
  // tag + the class's fields: general 4+1+1+2, address 2+1+1, predicate 2,
  // indirect 2+1+2+1+2, immediate 1+4 (1+8 for 64 bits), state 1+2+1.
  static constexpr size_t kMin[] = {9, 5, 3, 9, 0, 6, 5}, kMax[] = {9, 5, 3, 9, 0, 10, 5};
  uint8_t classes = f.classes;
  if ((classes & kAO) && !(classes & (kG | kS))) classes |= kG | kS;  // address-of: a general or state form
  size_t lo = ~size_t{0}, hi = 0;
  for (unsigned cls = 0; cls <= kClassState; ++cls)
    if (cls != kClassAddressOf && (classes & (1u << cls))) {
      lo = std::min(lo, kMin[cls]);
      hi = std::max(hi, kMax[cls]);
    }
  return lo > hi ? std::pair<size_t, size_t>{0, 0} : std::pair{lo, hi};
}

// What the cut-short model (spec-decisions B6) found of one instruction: the
// fields IGC 1.0.12504's binary emitter left out, where they would begin and
// how many bytes they would take.
struct CutFields {
  int firstAbsent = 0;  // the row's index of the first field left out
  int absent = 0;
  size_t at = 0;
  size_t minBytes = 0, maxBytes = 0;
  std::string names;  // "Src0 and Src1"
};

// One instruction: the opcode (and sub-opcode), then the fields of its table row in binary order.
// `cut` set: read it as IGC 1.0.12504's binary emitter wrote it, without its last
// fields, one for each execution-size or predicate field the row has (B6).
void readInstruction(Cursor& c, Instruction& inst, const Kernel* k, unsigned grfSize, CutFields* cut = nullptr) {
  size_t opAt = c.pos();
  uint8_t opc = c.u8("opcode");
  const InstrDesc* d = lookup(opc);
  if (!d) fail(opAt, fmt::format("unknown opcode 0x{:02x}", opc));
  inst = Instruction{};
  inst.op = d->op;
  if (hasSubOps(opc)) {
    // The sub-opcode is the row's SubOp field; every such row has it first.
    size_t subAt = c.pos();
    uint8_t sub = c.u8("sub-opcode");
    d = lookup(opc, sub);
    if (!d) fail(subAt, fmt::format("unknown sub-opcode 0x{:02x} of opcode 0x{:02x} ({})", sub, opc, lookup(opc)->pageMnemonic));
    inst.subOp = d->subOp;
  }
  inst.f.resize(d->numFields);  // (references to its fields stay valid while it is read)
  uint64_t counted = ~uint64_t{0};  // kCounted fields still present (a kCount field sets it)
  // The cut-short model reads the first `keep` of the fields present: the row's
  // fields (the kCounted ones as many as the count says) less one for each
  // execution-size or predicate field. Until the count is read, the fields
  // before it are measured against the fewest present (a count of 0).
  int slots = 0, dropped = 0;
  for (int i = 0; i < d->numFields; ++i) {
    slots += (d->fields[i].flags & kCounted) != 0;
    dropped += d->fields[i].kind == FieldKind::ExecSize || d->fields[i].kind == FieldKind::Pred;
  }
  uint64_t keep = uint64_t(d->numFields - slots) - std::min(dropped, d->numFields - slots), present = 0, countVal = 0;
  int firstAbsent = d->numFields;
  for (int i = 0; i < d->numFields; ++i) {
    const FieldDesc& f = d->fields[i];
    Operand& o = inst.f[i];
    size_t at = c.pos();
    if ((f.flags & kCounted) && counted == 0) continue;
    if (cut && present >= keep) {
      firstAbsent = i;
      break;
    }
    if (f.flags & kCounted) --counted;
    ++present;
    switch (f.kind) {
      case FieldKind::ExecSize: {  // chapter 3: bits 0-3 size code 0-5, bits 4-7 mask control
        uint8_t b = c.u8("execution size");
        if ((b & 0xf) > 5) fail(at, fmt::format("execution size code {} (expected 0-5 for 1-32 lanes)", b & 0xf));
        inst.execCode = b & 0xf;
        inst.emask = b >> 4;
        break;
      }
      case FieldKind::Pred: {  // chapter 5: id bits 0-11, bit 12 zero, control bits 13-14, invert bit 15
        uint16_t v = c.u16("predicate");
        if (v & 0x1000) fail(at, fmt::format("predicate 0x{:04x} has reserved bit 12 set", v));
        unsigned ctrl = (v >> 13) & 3;
        if (ctrl == 3) fail(at, fmt::format("predicate 0x{:04x} has control 3 (expected 0 none, 1 any, 2 all)", v));
        inst.pred.id = v & 0xfff;
        inst.pred.control = static_cast<uint8_t>(ctrl);
        inst.pred.invert = (v & 0x8000) != 0;
        if (inst.pred.id == 0 && (ctrl || inst.pred.invert))
          fail(at, fmt::format("predicate 0x{:04x} has a control or invert bit but no predicate", v));
        if (inst.pred.id) checkPred(k, inst.pred.id, at);
        break;
      }
      case FieldKind::SubOp:  // read with the opcode
        o.kind = Operand::Kind::Int;
        o.value = static_cast<uint64_t>(d->subOp);
        break;
      case FieldKind::Enum:
      case FieldKind::Int:
      case FieldKind::Zero: {
        uint64_t v = c.le(f.width, f.name);
        if (f.kind == FieldKind::Zero) {  // pages: "ignored and always zero"; spec-decisions V5
          if (v != 0) fail(at, fmt::format("{} must be 0, found {} (spec-decisions V5)", f.name, v));
          break;
        }
        if (f.kind == FieldKind::Enum && f.names && !f.names->textOf(v))
          fail(at, fmt::format("{} value {} has no meaning ({} page)", f.name, v, d->page));
        o.kind = Operand::Kind::Int;
        o.value = v;
        if (f.flags & kCount) {
          counted = countVal = v;
          keep += v;
        }
        break;
      }
      case FieldKind::String:  // a string-pool index (readObject gives it its Kernel::strings entry)
        o.kind = Operand::Kind::Int;
        o.value = c.le(f.width, f.name);
        break;
      case FieldKind::Surface: {  // one byte: 0-5 predefined, 6.. declared
        o.kind = Operand::Kind::Surface;
        o.id = c.u8("surface id");
        if (k && o.id >= kNumPredefSurfaces && !k->surface(o.id))
          fail(at, fmt::format("surface id {} names no surface (predefined ids 0-5, the kernel declares {})", o.id,
                               k->surfaces.empty() ? std::string("none")
                                                   : fmt::format("ids 6-{}", k->surfaces.size() + kNumPredefSurfaces - 1)));
        break;
      }
      case FieldKind::Sampler: {
        o.kind = Operand::Kind::Sampler;
        o.id = c.u8("sampler id");
        if (k && o.id >= k->samplers.size() && o.id != 31) fail(at, fmt::format("sampler id {} names no sampler", o.id));
        break;
      }
      case FieldKind::Raw: {  // raw operand: ud var id, uw byte offset
        c.need(6, fmt::format("raw operand ({})", f.name));
        o.kind = Operand::Kind::Raw;
        o.id = c.u32("variable id");
        o.offset = c.u16("raw offset");
        checkVar(k, o.id, at, "raw operand");
        break;
      }
      case FieldKind::Label: {
        o.kind = Operand::Kind::Label;
        o.id = c.u16("label id");
        if (k && o.id >= k->labels.size())
          fail(at, fmt::format("label id {} names no label (the kernel declares {})", o.id,
                               k->labels.empty() ? std::string("none") : fmt::format("ids 0-{}", k->labels.size() - 1)));
        break;
      }
      case FieldKind::Vec: {
        bool sat = false;
        o = readVector(c, f, k, sat, grfSize, cut != nullptr);
        if (sat) inst.sat = true;
        break;
      }
    }
  }
  if (countVal > uint64_t(slots))
    fail(opAt, fmt::format("{} with {} labels: visakit holds at most {} (spec-decisions C10)", d->mnemonic, countVal, slots));
  if (!cut) return;
  // The absent fields: from firstAbsent on, those present by the count.
  *cut = CutFields{};
  cut->firstAbsent = firstAbsent;
  cut->at = c.pos();
  std::vector<const char*> names;
  uint64_t left = counted == ~uint64_t{0} ? 0 : counted;
  for (int i = firstAbsent; i < d->numFields; ++i) {
    const FieldDesc& f = d->fields[i];
    if (f.flags & kCounted) {
      if (left == 0) continue;
      --left;
    }
    auto [lo, hi] = fieldBytes(f);
    ++cut->absent;
    cut->minBytes += lo;
    cut->maxBytes += hi;
    names.push_back(f.name);
  }
  for (size_t i = 0; i < names.size(); ++i)
    cut->names += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? " and " : ", ", names[i]);
}

// ---- kernel and function objects ----

struct Ctx {
  std::string_view file;
  Limits limits;
  unsigned grfSize = 32;
  unsigned ver = 0;
  std::string where;     // for diagnostics
  std::string textForm;  // Options::textForm
};

struct Pool {
  std::vector<std::string_view> strings;
  std::string_view at(uint32_t idx, size_t fieldAt, std::string_view what) const {
    if (idx >= strings.size())
      fail(fieldAt, fmt::format("{} index {} is beyond the string pool ({} strings)", what, idx, strings.size()));
    return strings[idx];
  }
  // A declaration's name: index 0 is the empty name (chapter 4 "String Pool").
  std::string name(uint32_t idx, size_t fieldAt, std::string_view what) const {
    std::string_view s = at(idx, fieldAt, what);
    return idx == 0 ? std::string() : std::string(s);
  }
};

bool printable(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) { return ch >= 0x20 && ch < 0x7f; });
}

// attribute_info: ud name, ub size, value. The binary holds no kind: it comes
// from the attribute's name (IGC's list), else from the bytes.
Attribute readAttr(Cursor& c, const Pool& pool, bool kernelAttr) {
  Attribute a;
  size_t at = c.pos();
  uint32_t nameIdx = c.u32("attribute name index");
  if (nameIdx == 0) fail(at, "attribute name index 0 (the empty name)");
  a.name = std::string(pool.at(nameIdx, at, "attribute name"));
  // An empty name anywhere in the pool is the empty name too (found by fuzz_binary).
  if (a.name.empty()) fail(at, fmt::format("attribute name index {} names the empty string", nameIdx));
  uint8_t size = c.u8("attribute size");
  std::string_view v = c.bytes(size, fmt::format("attribute '{}' value", a.name));
  AttrNameKind nk = attrNameKind(a.name);
  // igc-dialect.md §1.1: Target is the 1-byte integer 0 ("cm") or 1 ("3d").
  if (kernelAttr && a.name == "Target" && size == 1 && (v[0] == 0 || v[0] == 1)) {
    a.kind = Attribute::Kind::Str;
    a.strVal = v[0] == 0 ? "cm" : "3d";
    return a;
  }
  bool intSized = size == 1 || size == 2 || size == 4;
  if (nk == AttrNameKind::Str || (size > 0 && !intSized) ||
      (nk == AttrNameKind::Unknown && size > 0 && printable(v))) {
    a.kind = Attribute::Kind::Str;
    a.strVal = std::string(v);
  } else if (size == 0) {
    a.kind = Attribute::Kind::Bool;
  } else {  // little-endian, signed like IGC's int8/int16/int32 values
    a.kind = Attribute::Kind::Int;
    a.intSize = size;
    uint32_t u = 0;
    for (size_t i = 0; i < size; ++i) u |= uint32_t{static_cast<uint8_t>(v[i])} << (8 * i);
    a.intVal = size == 1 ? static_cast<int8_t>(u) : size == 2 ? static_cast<int16_t>(u) : static_cast<int32_t>(u);
  }
  return a;
}

std::vector<Attribute> readAttrs(Cursor& c, const Pool& pool, uint64_t count, size_t countAt, bool kernelAttr) {
  c.checkCount(count, 5, countAt, "attribute");
  std::vector<Attribute> r;
  r.reserve(count);
  for (uint64_t i = 0; i < count; ++i) r.push_back(readAttr(c, pool, kernelAttr));
  return r;
}

// Declarations read from a binary remember where their name sits in the
// string pool (as the column of a line-0 location) so that writing them again
// keeps the pool order of the file.
SrcLoc poolLoc(uint32_t nameIdx) { return SrcLoc{0, nameIdx, 0}; }

std::vector<SimpleVar> readSimpleVars(Cursor& c, const Pool& pool, uint64_t count, size_t countAt, std::string_view what,
                                      char prefix, uint32_t firstId) {
  // address_info / predicate_info / state_info: ud name, uw num_elts, ub attribute count: 7 bytes + attributes
  c.checkCount(count, 7, countAt, what);
  std::vector<SimpleVar> r;
  r.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    SimpleVar v;
    size_t at = c.pos();
    uint32_t nameIdx = c.u32(fmt::format("{} name index", what));
    v.name = pool.name(nameIdx, at, fmt::format("{} name", what));
    if (v.name.empty()) v.name = fmt::format("{}{}", prefix, firstId + i);
    v.loc = poolLoc(nameIdx);
    v.numElts = c.u16(fmt::format("{} num_elts", what));
    size_t ac = c.pos();
    v.attrs = readAttrs(c, pool, c.u8("attribute count"), ac, false);
    r.push_back(std::move(v));
  }
  return r;
}

// The cut-short hypothesis (spec-decisions B6). IGC 1.0.12504's binary emitter
// writes each instruction without its last fields, one for each execution-size
// or predicate field its row has (RET: the opcode alone), back to back, while
// the object declares the instruction size of the complete instructions; the
// rest of the section is memory it never wrote. The stream explains so if, read
// that way from its start, its instructions decode (every id naming a
// declaration, no label placed twice) through at least one cut instruction to
// a RET or FRET whose complete instructions can take the declared size (each
// absent field at least and at most the bytes its row allows). Nothing after
// that instruction is read: it is the unwritten tail.
struct CutShort {
  size_t index = 0;  // the first instruction with absent fields
  const InstrDesc* row = nullptr;
  CutFields fields;
  size_t explained = 0;  // instructions through the RET or FRET that ends the explanation
};

std::optional<CutShort> explainCutShort(const Ctx& ctx, const Kernel& k, const Pool& pool, size_t begin, size_t end,
                                        uint32_t codeSize) {
  if (ctx.ver != version(4, 1)) return std::nullopt;  // that emitter writes 4.1 objects (B6)
  Cursor c(ctx.file, begin, end, "the instruction stream ends");
  std::optional<CutShort> first;
  std::vector<bool> placed(k.labels.size());
  uint64_t lo = 0, hi = 0;  // the complete instructions' size so far, at least and at most
  try {
    for (size_t n = 0; c.left() > 0 && n < ctx.limits.maxInstructions; ++n) {
      size_t iAt = c.pos();
      Instruction inst;
      CutFields cut;
      readInstruction(c, inst, &k, ctx.grfSize, &cut);
      const InstrDesc* d = rowOf(inst);
      if (!d) return std::nullopt;
      for (int i = 0; i < cut.firstAbsent; ++i)
        if (d->fields[i].kind == FieldKind::String) pool.at(static_cast<uint32_t>(inst.f[i].value), iAt, "string");
      if (inst.op == Opcode::LABEL && cut.firstAbsent > 0) {
        if (placed[inst.f[0].id]) return std::nullopt;
        placed[inst.f[0].id] = true;
      }
      lo += c.pos() - iAt + cut.minBytes;
      hi += c.pos() - iAt + cut.maxBytes;
      if (cut.absent > 0 && !first) first = CutShort{n, d, cut, 0};
      if (lo > codeSize) return std::nullopt;
      if (first && (inst.op == Opcode::RET || inst.op == Opcode::FRET) && codeSize <= hi) {
        first->explained = n + 1;
        return first;
      }
    }
  } catch (const DecodeError&) {
  }
  return std::nullopt;
}

[[noreturn]] void failCutShort(Ctx& ctx, const std::string& kernelWhere, const CutShort& cs) {
  ctx.where = fmt::format("{}, instruction #{}", kernelWhere, cs.index);
  int n = cs.fields.absent;
  fail(cs.fields.at,
       fmt::format("the instruction stream is cut short: instruction #{} ({}) lacks its last {}, {} (IGC 1.0.12504's binary "
                   "emitter drops them); read the kernel from its .visaasm{}",
                   cs.index, cs.row->mnemonic, n == 1 ? "operand" : fmt::format("{} operands", n), cs.fields.names,
                   ctx.textForm.empty() ? std::string(" (the text IGC dumped beside the .isa)") : ": " + ctx.textForm));
}

// kernel_data / function_data (chapter 4), inside [start, start + size).
void readObject(Ctx& ctx, Kernel& k, size_t start, size_t size, size_t inputOffsetField, uint32_t inputOffset) {
  Cursor c(ctx.file, start, start + size, fmt::format("the {} object ends", k.isFunction ? "function" : "kernel"));
  size_t at = c.pos();
  uint32_t nStrings = c.u32("string_count");
  c.checkCount(nStrings, 1, at, "string");
  Pool pool;
  pool.strings.reserve(nStrings);
  for (uint32_t i = 0; i < nStrings; ++i) pool.strings.push_back(c.cstr(fmt::format("string #{} of the string pool", i)));

  at = c.pos();
  uint32_t nameIdx = c.u32("name_index");
  std::string_view poolName = pool.at(nameIdx, at, "kernel name");
  if (!k.name.empty() && poolName != k.name)
    fail(at, fmt::format("name_index {} names '{}', but the header names this object '{}'", nameIdx, poolName, k.name));

  // var_info: 15 bytes + attributes.
  at = c.pos();
  uint32_t nVars = c.u32("variable_count");
  c.checkCount(nVars, 15, at, "variable");
  if (nVars > ctx.limits.maxVars)
    fail(at, fmt::format("variable_count {} is more than the limit of {} declarations (--max-vars)", nVars, ctx.limits.maxVars));
  k.vars.reserve(nVars);
  for (uint32_t i = 0; i < nVars; ++i) {
    GenVar v;
    uint32_t id = kNumPredefVars + i;
    size_t vAt = c.pos();
    uint32_t ni = c.u32("variable name index");
    v.name = pool.name(ni, vAt, "variable name");
    if (v.name.empty()) v.name = fmt::format("V{}", id);
    v.loc = poolLoc(ni);
    size_t bAt = c.pos();
    uint8_t bits = c.u8("variable bit_properties");
    v.type = static_cast<Type>(bits & 0xf);
    v.align = bits >> 4;  // igc-dialect.md §6.17: alignment is bits 4-7
    if (v.align > 9) fail(bAt, fmt::format("variable '{}' alignment code {} (expected 0-9)", v.name, v.align));
    v.numElts = c.u16("variable num_elements");
    size_t aAt = c.pos();
    v.aliasBase = c.u32("alias_index");
    v.aliasOffset = c.u16("alias_offset");
    if (v.aliasBase == 0 && v.aliasOffset != 0)
      fail(aAt + 4, fmt::format("variable '{}' has alias_offset {} but no alias_index", v.name, v.aliasOffset));
    if (v.aliasBase != 0 && !predefVar(v.aliasBase) && !(v.aliasBase >= kNumPredefVars && v.aliasBase - kNumPredefVars < nVars))
      fail(aAt, fmt::format("variable '{}' aliases variable id {}, which names no variable", v.name, v.aliasBase));
    size_t sAt = c.pos();
    if (uint8_t scope = c.u8("alias_scope_specifier"); scope != 0)
      fail(sAt, fmt::format("variable '{}' alias scope {} (expected 0: file-scope variables are not supported)", v.name, scope));
    size_t ac = c.pos();
    v.attrs = readAttrs(c, pool, c.u8("attribute count"), ac, false);
    k.vars.push_back(std::move(v));
  }

  at = c.pos();
  k.addrs = readSimpleVars(c, pool, c.u16("address_count"), at, "address variable", 'A', 0);
  at = c.pos();
  uint16_t nPreds = c.u16("predicate_count");
  if (nPreds > 0xfff) fail(at, fmt::format("predicate_count {} (predicate ids are 12 bits: at most 4095)", nPreds));
  k.preds = readSimpleVars(c, pool, nPreds, at, "predicate", 'P', 1);

  // label_info: ud name, ub kind, ub attribute count.
  at = c.pos();
  uint16_t nLabels = c.u16("label_count");
  c.checkCount(nLabels, 6, at, "label");
  k.labels.reserve(nLabels);
  for (uint16_t i = 0; i < nLabels; ++i) {
    LabelDecl l;
    size_t lAt = c.pos();
    l.name = pool.name(c.u32("label name index"), lAt, "label name");
    if (l.name.empty()) l.name = fmt::format("L{}", i);
    size_t kAt = c.pos();
    l.kind = c.u8("label kind");
    if (l.kind > 3) fail(kAt, fmt::format("label '{}' kind {} (expected 0 block, 1 subroutine, 2 FC, 3 function)", l.name, l.kind));
    size_t acAt = c.pos();
    if (uint8_t n = c.u8("label attribute count"); n != 0)
      fail(acAt, fmt::format("label '{}' has {} attributes (label attributes are not supported)", l.name, n));
    k.labels.push_back(std::move(l));
  }

  at = c.pos();
  k.samplers = readSimpleVars(c, pool, c.u8("sampler_count"), at, "sampler", 'S', 0);
  at = c.pos();
  k.surfaces = readSimpleVars(c, pool, c.u8("surface_count"), at, "surface", 'T', kNumPredefSurfaces);
  at = c.pos();
  if (uint8_t n = c.u8("vme_count"); n != 0) fail(at, fmt::format("vme_count {} (VME variables are not supported)", n));

  if (!k.isFunction) {
    at = c.pos();
    if (inputOffset != at)
      fail(inputOffsetField, fmt::format("input_offset 0x{:x} does not point at the kernel's num_inputs field (0x{:x})",
                                         inputOffset, at));
    // igc-dialect.md §2.1: num_inputs is a UD from 3.5 on, a UB before.
    uint32_t nInputs = ctx.ver >= version(3, 5) ? c.u32("num_inputs") : c.u8("num_inputs");
    c.checkCount(nInputs, 9, at, "input");
    k.inputs.reserve(nInputs);
    for (uint32_t i = 0; i < nInputs; ++i) {  // input_info: ub kind, ud id, w offset, uw size
      Input in;
      size_t iAt = c.pos();
      uint8_t kind = c.u8("input kind");
      unsigned cls = kind & 7;  // igc-dialect.md §6.17: the class is bits 0-2
      if (cls > 2) fail(iAt, fmt::format("input #{} class {} (expected 0 general, 1 sampler, 2 surface)", i, cls));
      in.cls = static_cast<Input::Class>(cls);
      in.implicitKind = kind >> 3;
      size_t idAt = c.pos();
      in.id = c.u32("input id");
      bool ok = cls == 0   ? k.userVar(in.id) != nullptr
                : cls == 1 ? in.id < k.samplers.size()
                           : k.surface(in.id) != nullptr;
      if (!ok)
        fail(idAt, fmt::format("input #{} id {} names no declared {}", i, in.id,
                               cls == 0 ? "general variable" : cls == 1 ? "sampler" : "surface"));
      in.offset = static_cast<int16_t>(c.u16("input offset"));
      in.size = c.u16("input size");
      k.inputs.push_back(in);
    }
  }

  size_t sizeAt = c.pos();
  uint32_t codeSize = c.u32("instruction size");
  size_t entryAt = c.pos();
  uint32_t entry = c.u32("entry");
  if (k.isFunction) {  // input_size / return_value_size: the ArgSize / RetValSize attributes hold the same
    c.u8("input_size");
    c.u8("return_value_size");
  }
  at = c.pos();
  k.attrs = readAttrs(c, pool, c.u16("attribute_count"), at, true);

  size_t dataEnd = c.pos() - start;
  if (entry != dataEnd)
    fail(entryAt, fmt::format("entry 0x{:x} should be 0x{:x}, where the header data of the object ends", entry, dataEnd));
  if (codeSize != size - dataEnd)
    fail(sizeAt, fmt::format("instruction size {} does not match the {} bytes between the entry and the end of the object",
                             codeSize, size - dataEnd));

  size_t codeBegin = start + entry, codeEnd = start + size;
  std::string kernelWhere = ctx.where;
  try {
    Cursor ic(ctx.file, codeBegin, codeEnd, "the instruction stream ends");
    std::vector<bool> placed(k.labels.size());
    while (ic.left() > 0) {
      ctx.where = fmt::format("{}, instruction #{}", kernelWhere, k.code.size());
      size_t iAt = ic.pos();
      if (k.code.size() >= ctx.limits.maxInstructions)
        fail(iAt, fmt::format("more than {} instructions in '{}' (--max-instructions)", ctx.limits.maxInstructions, k.name));
      Instruction inst;
      readInstruction(ic, inst, &k, ctx.grfSize);
      if (const InstrDesc* d = rowOf(inst))  // String fields: the pool's string, as the kernel's own
        for (int i = 0; i < d->numFields; ++i)
          if (d->fields[i].kind == FieldKind::String) {
            std::string_view s =
                pool.at(static_cast<uint32_t>(inst.f[i].value), iAt, fmt::format("{} {}", d->mnemonic, d->fields[i].name));
            inst.f[i].value = k.strings.size();
            k.strings.emplace_back(s);
          }
      if (inst.op == Opcode::LABEL) {
        uint32_t id = inst.f[0].id;
        if (placed[id]) fail(iAt, fmt::format("label '{}' is placed twice", k.labels[id].name));
        placed[id] = true;
        k.labels[id].defined = true;
      }
      k.code.push_back(inst);
    }
  } catch (const DecodeError&) {
    // A stream that does not decode may be one IGC 1.0.12504 cut short (B6):
    // then that, not the first byte read wrongly, is the error.
    if (auto cs = explainCutShort(ctx, k, pool, codeBegin, codeEnd, codeSize)) failCutShort(ctx, kernelWhere, *cs);
    throw;
  }
  // One that decodes may be explained as cut short too: a cut stream whose
  // unwritten tail happens to decode, or a complete one the model reads by
  // chance. Where the explanation has a cut instruction before its last, the
  // two readings part (what one reads as that instruction's fields the other
  // reads as the next instruction); the decoded kernel decides: one the
  // verifier rejects is taken as cut short, a valid one as it reads (B6).
  if (auto cs = explainCutShort(ctx, k, pool, codeBegin, codeEnd, codeSize); cs && cs->index + 1 < cs->explained) {
    Module alone;
    alone.grfSize = ctx.grfSize;
    alone.major = static_cast<uint8_t>(ctx.ver >> 8);
    alone.minor = static_cast<uint8_t>(ctx.ver & 0xff);
    alone.kernels.push_back(k);
    Diagnostics quiet;
    Options vopts;
    vopts.grfSize = ctx.grfSize == 64 ? 64 : 32;
    if (!verify(alone, quiet, vopts)) failCutShort(ctx, kernelWhere, *cs);
  }
  ctx.where = kernelWhere;
}

struct Entry {
  std::string name;
  bool isFunction = false;
  size_t offsetField = 0;  // where the header holds its offset
  uint32_t offset = 0, size = 0;
  size_t inputOffsetField = 0;
  uint32_t inputOffset = 0;
};

struct Range {
  uint64_t begin, end;
  size_t field;
  std::string what;
};

}  // namespace
}  // namespace binary

using namespace binary;

bool looksBinary(std::string_view bytes) {
  // Detected by content: the 'CISA' magic (or a piece of it), or a NUL byte,
  // which no text kernel holds (the reader then names what is wrong), unless
  // the file begins with `.version`.
  static constexpr std::string_view kMagicBytes("CISA", 4);
  if (bytes.empty()) return false;
  if (bytes.substr(0, 4) == kMagicBytes.substr(0, std::min<size_t>(4, bytes.size()))) return true;
  // (text that begins as a kernel does is text, whatever bytes follow: the parser names them)
  const size_t start = bytes.find_first_not_of(" \t\r\n");
  if (start != std::string_view::npos && bytes.substr(start).starts_with(".version")) return false;
  return bytes.substr(0, 256).find('\0') != std::string_view::npos;
}

std::optional<Module> readBinary(std::string_view bytes, Diagnostics& diags, const Options& opts) {
  Ctx ctx;
  ctx.file = bytes;
  ctx.limits = opts.limits;
  ctx.grfSize = opts.grfSize;
  ctx.textForm = opts.textForm;
  if (bytes.size() > opts.limits.maxFileBytes) {
    diags.error({}, fmt::format("input is {} bytes, over the limit of {} (--max-file-size)", bytes.size(), opts.limits.maxFileBytes));
    return std::nullopt;
  }
  Module m;
  try {
    // common_isa_header (chapter 4; igc-dialect.md §2.2).
    Cursor c(bytes, 0, bytes.size(), "the file ends");
    c.need(4, "magic number");
    uint32_t magic = c.u32("magic number");
    if (magic != kMagic)
      fail(0, fmt::format("bad magic {:02x} {:02x} {:02x} {:02x} (expected 43 49 53 41, 'CISA')", magic & 0xff,
                          (magic >> 8) & 0xff, (magic >> 16) & 0xff, magic >> 24));
    m.grfSize = opts.grfSize;
    m.major = c.u8("major version");
    m.minor = c.u8("minor version");
    ctx.ver = version(m.major, m.minor);
    if (ctx.ver < kMinRead || ctx.ver > kMaxRead)
      fail(4, fmt::format("unsupported vISA binary version {}.{} (expected 3.4 to 4.1)", m.major, m.minor));
    // igc-dialect.md §2.1: names are preceded by a UW length from 3.7 on, a UB before.
    bool wideNames = ctx.ver >= version(3, 7);
    unsigned lenBytes = wideNames ? 2 : 1;

    std::vector<Entry> entries;
    std::vector<Range> ranges, genRanges;
    size_t at = c.pos();
    uint16_t nKernels = c.u16("num_kernels");
    c.checkCount(nKernels, lenBytes + 17, at, "kernel");
    if (nKernels > opts.limits.maxKernels)
      fail(at, fmt::format("num_kernels {} is more than the limit of {} (--max-kernels)", nKernels, opts.limits.maxKernels));
    for (uint16_t i = 0; i < nKernels; ++i) {  // kernel_info
      Entry e;
      uint32_t len = static_cast<uint32_t>(c.le(lenBytes, "kernel name_len"));
      size_t nAt = c.pos();
      e.name = std::string(c.bytes(len, "kernel name"));
      if (e.name.find('\0') != std::string::npos) fail(nAt, "kernel name contains a NUL byte");
      e.offsetField = c.pos();
      e.offset = c.u32("kernel offset");
      e.size = c.u32("kernel size");
      e.inputOffsetField = c.pos();
      e.inputOffset = c.u32("kernel input_offset");
      for (const char* what : {"num_syms_variable", "num_syms_function"}) {
        size_t sAt = c.pos();
        if (uint16_t n = c.u16(what); n != 0)
          fail(sAt, fmt::format("kernel '{}' {} {} (relocations are not supported)", e.name, what, n));
      }
      size_t gAt = c.pos();
      uint8_t nGen = c.u8("num_gen_binaries");
      c.checkCount(nGen, 9, gAt, "gen_binary_info");
      for (uint8_t g = 0; g < nGen; ++g) {  // gen_binary_info: ub platform, ud offset, ud size
        c.u8("gen binary platform");
        size_t oAt = c.pos();
        uint32_t off = c.u32("gen binary offset");
        uint32_t sz = c.u32("gen binary size");
        genRanges.push_back({off, uint64_t{off} + sz, oAt, fmt::format("GEN binary of kernel '{}'", e.name)});
      }
      entries.push_back(std::move(e));
    }
    at = c.pos();
    if (uint16_t n = c.u16("num_variables"); n != 0)
      fail(at, fmt::format("num_variables {} (file-scope variables are not supported)", n));
    at = c.pos();
    uint16_t nFuncs = c.u16("num_functions");
    c.checkCount(nFuncs, 1 + lenBytes + 12, at, "function");
    if (uint32_t{nKernels} + nFuncs > opts.limits.maxKernels)
      fail(at, fmt::format("{} kernels and functions are more than the limit of {} (--max-kernels)", nKernels + nFuncs,
                           opts.limits.maxKernels));
    for (uint16_t i = 0; i < nFuncs; ++i) {  // function_info
      Entry e;
      e.isFunction = true;
      c.u8("function linkage");
      uint32_t len = static_cast<uint32_t>(c.le(lenBytes, "function name_len"));
      size_t nAt = c.pos();
      e.name = std::string(c.bytes(len, "function name"));
      if (e.name.find('\0') != std::string::npos) fail(nAt, "function name contains a NUL byte");
      e.offsetField = c.pos();
      e.offset = c.u32("function offset");
      e.size = c.u32("function size");
      for (const char* what : {"num_syms_variable", "num_syms_function"}) {
        size_t sAt = c.pos();
        if (uint16_t n = c.u16(what); n != 0)
          fail(sAt, fmt::format("function '{}' {} {} (relocations are not supported)", e.name, what, n));
      }
      entries.push_back(std::move(e));
    }
    size_t headerEnd = c.pos();

    // Every object and GEN binary lies in the file, after the header, without
    // overlapping another; nothing follows the last one.
    for (const Entry& e : entries)
      ranges.push_back({e.offset, uint64_t{e.offset} + e.size, e.offsetField,
                        fmt::format("{} '{}' object", e.isFunction ? "function" : "kernel", e.name)});
    ranges.insert(ranges.end(), genRanges.begin(), genRanges.end());
    uint64_t last = headerEnd;
    for (const Range& r : ranges) {
      if (r.end > bytes.size())
        fail(r.field, fmt::format("{} [0x{:x}, 0x{:x}) runs past the end of the file at 0x{:x}", r.what, r.begin, r.end,
                                  bytes.size()));
      if (r.begin < headerEnd && r.end > r.begin)
        fail(r.field, fmt::format("{} at 0x{:x} lies inside the file header, which ends at 0x{:x}", r.what, r.begin, headerEnd));
      last = std::max(last, r.end);
    }
    std::vector<const Range*> sorted;
    for (const Range& r : ranges)
      if (r.end > r.begin) sorted.push_back(&r);
    std::stable_sort(sorted.begin(), sorted.end(), [](const Range* a, const Range* b) { return a->begin < b->begin; });
    for (size_t i = 1; i < sorted.size(); ++i)
      if (sorted[i]->begin < sorted[i - 1]->end)
        fail(sorted[i]->field, fmt::format("{} [0x{:x}, 0x{:x}) overlaps {} [0x{:x}, 0x{:x})", sorted[i]->what,
                                           sorted[i]->begin, sorted[i]->end, sorted[i - 1]->what, sorted[i - 1]->begin,
                                           sorted[i - 1]->end));
    if (bytes.size() > last)
      fail(last, fmt::format("{} unexpected bytes after the last object (the file should end at 0x{:x})",
                             bytes.size() - last, last));

    m.kernels.reserve(entries.size());
    for (const Entry& e : entries) {
      Kernel k;
      k.name = e.name;
      k.isFunction = e.isFunction;
      ctx.where = fmt::format("{} '{}'", e.isFunction ? "function" : "kernel", e.name);
      readObject(ctx, k, e.offset, e.size, e.inputOffsetField, e.inputOffset);
      m.kernels.push_back(std::move(k));
    }
  } catch (const DecodeError& e) {
    diags.add(Severity::Error, SrcLoc{}, e.msg, ctx.where);
    return std::nullopt;
  }
  return m;
}

bool decodeInstruction(std::string_view bytes, size_t& pos, Instruction& inst, std::string& err, unsigned major,
                       unsigned minor) {
  unsigned v = version(major, minor);
  if (v < kMinRead || v > kMaxRead) {
    err = fmt::format("unsupported vISA binary version {}.{} (expected 3.4 to 4.1)", major, minor);
    return false;
  }
  if (pos > bytes.size()) {
    err = fmt::format("offset 0x{:x}: past the end of the input at 0x{:x}", pos, bytes.size());
    return false;
  }
  try {
    Cursor c(bytes, pos, bytes.size(), "the input ends");
    Instruction tmp;
    readInstruction(c, tmp, nullptr, 32);
    inst = tmp;
    pos = c.pos();
    return true;
  } catch (const DecodeError& e) {
    err = e.msg;
    return false;
  }
}

}  // namespace visakit
