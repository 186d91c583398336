// vISA binary writer: version 4.1 objects byte for byte as Intel's last writer
// made them (chapter 4 "The Virtual ISA Object Format"; igc-dialect.md §2.2-2.4).
// Instructions are encoded generically from the instruction table: the opcode,
// then each field of InstrDesc::fields in binary order.
#include <algorithm>
#include <array>
#include <limits>

#include <fmt/format.h>

#include "binary/format.hpp"
#include "visakit/visakit.hpp"

namespace visakit {
namespace binary {

AttrNameKind attrNameKind(std::string_view n) {
  // The attribute names and kinds of IGC's VISAAttributes.h (igc-dialect.md §1.1).
  static constexpr std::array<std::string_view, 13> kBool = {
      "Extern", "NoBarrier", "Callable", "Caller", "Composable", "Entry", "Input",
      "Output", "PayloadLiveOut", "Input_Output", "NoWidening", "DoNotSpill", "SepSpillPvtSS"};
  static constexpr std::array<std::string_view, 11> kInt = {
      "Target", "SLMSize", "SpillMemOffset", "ArgSize", "RetValSize", "PerThreadInputSize",
      "SimdSize", "Scope", "SurfaceUsage", "CrossThreadInputSize", "NBarrierCnt"};
  if (std::find(kBool.begin(), kBool.end(), n) != kBool.end()) return AttrNameKind::Bool;
  if (std::find(kInt.begin(), kInt.end(), n) != kInt.end()) return AttrNameKind::Int;
  if (n == "OutputAsmPath") return AttrNameKind::Str;
  return AttrNameKind::Unknown;
}

namespace {

class Out {
 public:
  explicit Out(std::vector<uint8_t>& b) : b_(b) {}
  void u8(uint64_t v) { b_.push_back(static_cast<uint8_t>(v)); }
  void u16(uint64_t v) { le(v, 2); }
  void u32(uint64_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void bytes(std::string_view s) { b_.insert(b_.end(), s.begin(), s.end()); }
  void cstr(std::string_view s) {
    bytes(s);
    u8(0);
  }
  size_t size() const { return b_.size(); }
  void patch32(size_t at, uint64_t v) {
    for (int i = 0; i < 4; ++i) b_[at + i] = static_cast<uint8_t>(v >> (8 * i));
  }

 private:
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t>& b_;
};

// Writes little-endian values at a pointer into a buffer with room for them.
struct RawOut {
  uint8_t* p;
  void u8(uint64_t v) { *p++ = static_cast<uint8_t>(v); }
  void u16(uint64_t v) { le<2>(v); }
  void u32(uint64_t v) { le<4>(v); }
  void u64(uint64_t v) { le<8>(v); }
  template <int N>
  void le(uint64_t v) {
    for (int i = 0; i < N; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
    p += N;
  }
};

// Upper bound of one encoded instruction: the opcode, then at most 10 bytes per
// field (an immediate: tag, type, 8 value bytes).
constexpr size_t kMaxInstrBytes = 1 + kMaxFields * 10;

// Per-byte lookups derived once from the ISA tables: region value -> code
// (chapter 5 "General Operands"; kRegionNull and invalid values -> 0), and
// type code -> size.
struct EncodeTables {
  std::array<uint8_t, 256> regionCode{};
  std::array<uint8_t, kNumTypes> typeSize{};
};
const EncodeTables& encodeTables() {
  static const EncodeTables t = [] {
    EncodeTables e;
    for (unsigned v = 0; v < 256; ++v)
      e.regionCode[v] = v == kRegionNull ? 0 : regionCode(v).value_or(0);
    for (int i = 0; i < kNumTypes; ++i) e.typeSize[i] = static_cast<uint8_t>(typeSize(static_cast<Type>(i)));
    return e;
  }();
  return t;
}

uint16_t regionBits(const EncodeTables& t, const Region& r) {
  // Chapter 5 "General Operands": vs bits 0-3, width bits 4-7, hs bits 8-11; code 0 = absent.
  return static_cast<uint16_t>(t.regionCode[r.vs] | t.regionCode[r.w] << 4 | t.regionCode[r.hs] << 8);
}

// What encoding an instruction needs beyond its fields: an address-of
// operand's byte offset is written as a GRF row and an element of its
// variable's type (igc-dialect.md §2.4).
struct EncodeEnv {
  const Kernel* kernel = nullptr;
  unsigned grfSize = 32;
  // String fields: the string-pool index of each Kernel::strings entry (none:
  // a single instruction is encoded with the Kernel::strings index itself).
  const std::vector<uint32_t>* strings = nullptr;
};

// A vector operand (igc-dialect.md §2.4): tag = class | modifier << 3, then the class's bytes.
[[gnu::always_inline]] inline void putVector(const EncodeTables& t, const EncodeEnv& env, RawOut& o, const Operand& op,
                                             bool dst, bool sat) {
  unsigned mod = static_cast<unsigned>(op.mod) & 7;
  if (dst && sat) mod = kModSat;  // .sat is modifier 4 on the destination tag
  switch (op.kind) {
    case Operand::Kind::Predicate:
      o.u8(kClassPredicate | mod << 3);
      o.u16(op.id & 0xfff);
      return;
    case Operand::Kind::Immediate:
      o.u8(kClassImmediate | mod << 3);
      o.u8(static_cast<uint8_t>(op.type));
      // Chapter 4 "Immediate Constants": one dword, two for DF, Q and UQ.
      if (t.typeSize[static_cast<unsigned>(op.type) & 15] == 8) o.u64(op.value);
      else o.u32(op.value);
      return;
    case Operand::Kind::Address:  // uw id, ub element, ub width (exec-size code)
      o.u8(kClassAddress | mod << 3);
      o.u16(op.id);
      o.u8(op.col);
      o.u8(execCodeFromSize(op.region.w == kRegionNull ? 1 : op.region.w).value_or(0));
      return;
    case Operand::Kind::Indirect:  // uw address id, ub element, w offset, ub type, uw region
      o.u8(kClassIndirect | mod << 3);
      o.u16(op.id);
      o.u8(op.col);
      o.u16(op.value);
      o.u8(static_cast<uint8_t>(op.type));
      o.u16(regionBits(t, op.region));
      return;
    case Operand::Kind::State:  // ub class (0 surface, 1 sampler), uw id, ub element
      o.u8(kClassState | mod << 3);
      o.u8(op.row);
      o.u16(op.id);
      o.u8(op.col);
      return;
    case Operand::Kind::AddressOf: {
      // A general operand (row, element) or a state operand (element in words)
      // at the byte offset (IGC's writer has no address-of class).
      if (op.row) {
        o.u8(kClassState | mod << 3);
        o.u8(op.row - 1);
        o.u16(op.id);
        o.u8(op.offset / 2);
        return;
      }
      Type vt = Type::UB;
      uint32_t bytes = 0;
      if (env.kernel) env.kernel->varInfo(op.id, vt, bytes);
      unsigned ts = t.typeSize[static_cast<unsigned>(vt) & 15];
      o.u8(kClassGeneral | mod << 3);
      o.u32(op.id);
      o.u8(op.offset / env.grfSize);
      o.u8(op.offset % env.grfSize / ts);
      o.u16(0);
      return;
    }
    default:  // General (anything else is not valid IR; written as a general operand)
      o.u8(kClassGeneral | mod << 3);
      o.u32(op.kind == Operand::Kind::General ? op.id : 0);
      o.u8(op.row);
      o.u8(op.col);
      o.u16(regionBits(t, op.region));
  }
}

// Encodes `inst` at `at`, which has room for kMaxInstrBytes; returns the bytes written.
size_t encodeAt(const EncodeTables& t, const EncodeEnv& env, const Instruction& inst, uint8_t* at) {
  const InstrDesc* d = rowOf(inst);
  if (!d) return 0;
  RawOut o{at};
  o.u8(static_cast<uint8_t>(inst.op));
  for (int i = 0; i < d->numFields; ++i) {
    const Operand& op = inst.f[i];
    const FieldDesc& f = d->fields[i];
    if ((f.flags & kCounted) && op.kind == Operand::Kind::None) continue;  // past the count (SWITCHJMP labels)
    switch (f.kind) {
      case FieldKind::ExecSize:  // bits 0-3 size code, bits 4-7 mask control (chapter 3)
        o.u8((inst.emask & 0xf) << 4 | (inst.execCode & 0xf));
        break;
      case FieldKind::Pred:  // id bits 0-11, control bits 13-14, invert bit 15 (chapter 5)
        o.u16((inst.pred.id & 0xfff) | (inst.pred.control & 3u) << 13 | (inst.pred.invert ? 0x8000u : 0u));
        break;
      case FieldKind::SubOp: o.u8(static_cast<uint64_t>(d->subOp)); break;
      case FieldKind::Enum:
      case FieldKind::Int:
      case FieldKind::Zero:  // pages: "ignored and always zero"
        for (unsigned b = 0; b < f.width; ++b) o.u8(f.kind == FieldKind::Zero ? 0 : op.value >> (8 * b));
        break;
      case FieldKind::Surface:
      case FieldKind::Sampler: o.u8(op.id); break;
      case FieldKind::Raw:  // raw operand: ud var id, uw byte offset
        o.u32(op.id);
        o.u16(op.offset);
        break;
      case FieldKind::Label: o.u16(op.id); break;
      case FieldKind::String: {  // an index into the string pool
        uint64_t v = env.strings && op.value < env.strings->size() ? (*env.strings)[op.value] : op.value;
        for (unsigned b = 0; b < f.width; ++b) o.u8(v >> (8 * b));
        break;
      }
      case FieldKind::Vec:
        if (f.access == Access::Write || f.access == Access::ReadWrite) putVector(t, env, o, op, true, inst.sat);
        else putVector(t, env, o, op, false, false);
        break;
    }
  }
  return static_cast<size_t>(o.p - at);
}

void encodeInto(const Instruction& inst, Out& o) {
  uint8_t tmp[kMaxInstrBytes];
  size_t n = encodeAt(encodeTables(), EncodeEnv{}, inst, tmp);
  o.bytes(std::string_view(reinterpret_cast<const char*>(tmp), n));
}

// Appends the encoding of every instruction of `code` to `b`.
void encodeCode(const Kernel& k, unsigned grfSize, const std::vector<uint32_t>& strings, std::vector<uint8_t>& b) {
  const std::vector<Instruction>& code = k.code;
  const EncodeTables& t = encodeTables();
  const EncodeEnv env{&k, grfSize, &strings};
  size_t pos = b.size();
  // Room is made ahead, at least kMaxInstrBytes for the next instruction;
  // the buffer is cut to size at the end.
  b.resize(pos + code.size() * 16 + kMaxInstrBytes);
  for (const Instruction& inst : code) {
    if (b.size() - pos < kMaxInstrBytes) b.resize(2 * b.size());
    pos += encodeAt(t, env, inst, b.data() + pos);
  }
  b.resize(pos);
}

// The string pool in the order Intel's writer filled it (igc-dialect.md §2.3):
// every name is added when its object is created; empty names map to 0. An
// instruction's string (a file or function name) is added even when empty, so
// that it reads back as itself (index 0 is the kernel's name: fuzz_binary F3).
class Pool {
 public:
  uint32_t add(std::string_view s) { return s.empty() ? 0 : addAlways(s); }
  uint32_t addAlways(std::string_view s) {
    strings_.emplace_back(s);
    return static_cast<uint32_t>(strings_.size() - 1);
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::vector<std::string> strings_;
};

void putAttr(Out& o, uint32_t nameIdx, const Attribute& a, bool kernelAttr) {
  // Chapter 4 attribute_info: ud name, ub size, value bytes (ints LE, strings without NUL).
  o.u32(nameIdx);
  switch (a.kind) {
    case Attribute::Kind::Bool: o.u8(0); return;
    case Attribute::Kind::Int: {
      unsigned size = a.intSize == 1 || a.intSize == 2 || a.intSize == 4 ? a.intSize : 4;
      o.u8(size);
      for (unsigned i = 0; i < size; ++i) o.u8(static_cast<uint64_t>(a.intVal) >> (8 * i));
      return;
    }
    case Attribute::Kind::Str:
      // igc-dialect.md §1.1: Target="cm" / "3d" is the 1-byte integer 0 / 1.
      if (kernelAttr && a.name == "Target" && (a.strVal == "cm" || a.strVal == "3d")) {
        o.u8(1);
        o.u8(a.strVal == "cm" ? 0 : 1);
        return;
      }
      o.u8(a.strVal.size());
      o.bytes(a.strVal);
      return;
  }
}

int64_t intAttr(const Kernel& k, std::string_view name) {
  const Attribute* a = k.attr(name);
  return a && a->kind == Attribute::Kind::Int ? std::clamp<int64_t>(a->intVal, 0, 255) : 0;
}

struct Object {
  std::vector<uint8_t> bytes;
  uint32_t inputOffset = 0;  // of num_inputs, from the object start
};

Object writeObject(const Kernel& k, unsigned grfSize) {
  Object obj;
  Out o(obj.bytes);
  Pool pool;
  uint32_t kernelName = pool.add(k.name);
  for (unsigned i = 0; i < kPoolPredefVars; ++i) pool.add(predefVar(i)->name);
  for (unsigned i = 0; i < kNumPredefSurfaces; ++i) pool.add(predefSurfaceName(i));
  pool.add(kBindlessSamplerName);

  // User declarations in creation order: source order for parsed kernels (the
  // declarations' locations), else class order. A declaration's attribute
  // names follow its own name. Then kernel attribute names, then labels in id
  // order (ids are given in order of first appearance).
  struct Decl {
    SrcLoc loc;
    int cls;
    size_t idx;
    const std::string* name;
    const std::vector<Attribute>* attrs;
  };
  std::vector<Decl> decls;
  for (size_t i = 0; i < k.vars.size(); ++i) decls.push_back({k.vars[i].loc, 0, i, &k.vars[i].name, &k.vars[i].attrs});
  const std::vector<SimpleVar>* simple[] = {&k.addrs, &k.preds, &k.samplers, &k.surfaces};
  for (int c = 0; c < 4; ++c)
    for (size_t i = 0; i < simple[c]->size(); ++i) {
      const SimpleVar& v = (*simple[c])[i];
      decls.push_back({v.loc, c + 1, i, &v.name, &v.attrs});
    }
  std::stable_sort(decls.begin(), decls.end(), [](const Decl& a, const Decl& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  std::array<std::vector<uint32_t>, 5> nameIdx;
  std::array<std::vector<std::vector<uint32_t>>, 5> attrIdx;
  nameIdx[0].resize(k.vars.size());
  attrIdx[0].resize(k.vars.size());
  for (int c = 0; c < 4; ++c) {
    nameIdx[c + 1].resize(simple[c]->size());
    attrIdx[c + 1].resize(simple[c]->size());
  }
  for (const Decl& d : decls) {
    nameIdx[d.cls][d.idx] = pool.add(*d.name);
    for (const Attribute& a : *d.attrs) attrIdx[d.cls][d.idx].push_back(pool.add(a.name));
  }
  std::vector<uint32_t> kattrIdx;
  for (const Attribute& a : k.attrs) kattrIdx.push_back(pool.add(a.name));
  std::vector<uint32_t> labelIdx;
  for (const LabelDecl& l : k.labels) labelIdx.push_back(pool.add(l.name));
  std::vector<uint32_t> stringIdx;  // the instructions' strings (FILE, FCALL, FADDR), after the labels
  for (const std::string& s : k.strings) stringIdx.push_back(pool.addAlways(s));

  // Chapter 4 kernel_data / function_data, field by field.
  o.u32(pool.strings().size());
  for (const std::string& s : pool.strings()) o.cstr(s);
  o.u32(kernelName);
  auto putAttrs = [&](const std::vector<Attribute>& attrs, const std::vector<uint32_t>& idx) {
    o.u8(attrs.size());
    for (size_t i = 0; i < attrs.size(); ++i) putAttr(o, idx[i], attrs[i], false);
  };
  o.u32(k.vars.size());
  for (size_t i = 0; i < k.vars.size(); ++i) {  // var_info: 15 bytes + attributes
    const GenVar& v = k.vars[i];
    o.u32(nameIdx[0][i]);
    o.u8((static_cast<unsigned>(v.type) & 0xf) | (v.align & 0xfu) << 4);
    o.u16(v.numElts);
    o.u32(v.aliasBase);
    o.u16(v.aliasOffset);
    o.u8(0);  // alias_scope_specifier: local
    putAttrs(v.attrs, attrIdx[0][i]);
  }
  auto putSimple = [&](int c, bool wideCount) {  // address_info / predicate_info / state_info
    const std::vector<SimpleVar>& vs = *simple[c - 1];
    if (wideCount) o.u16(vs.size());
    else o.u8(vs.size());
    for (size_t i = 0; i < vs.size(); ++i) {
      o.u32(nameIdx[c][i]);
      o.u16(vs[i].numElts);
      putAttrs(vs[i].attrs, attrIdx[c][i]);
    }
  };
  putSimple(1, true);  // addresses
  putSimple(2, true);  // predicates (P0 excluded)
  o.u16(k.labels.size());
  for (size_t i = 0; i < k.labels.size(); ++i) {  // label_info
    o.u32(labelIdx[i]);
    o.u8(k.labels[i].kind);
    o.u8(0);
  }
  putSimple(3, false);  // samplers
  putSimple(4, false);  // surfaces (the 6 predefined ones excluded)
  o.u8(0);              // vme_count
  if (!k.isFunction) {
    obj.inputOffset = static_cast<uint32_t>(o.size());
    o.u32(k.inputs.size());
    for (const Input& in : k.inputs) {  // input_info: 9 bytes
      o.u8(static_cast<unsigned>(in.cls) | (in.implicitKind & 0x1fu) << 3);
      o.u32(in.id);
      o.u16(static_cast<uint16_t>(in.offset));
      o.u16(in.size);
    }
  }
  size_t sizeAt = o.size();
  o.u32(0);  // size of the instructions, patched below
  o.u32(0);  // entry, patched below
  if (k.isFunction) {
    // Chapter 4 function_data: input_size / return_value_size in GRFs, the
    // same quantities as the ArgSize / RetValSize attributes.
    o.u8(intAttr(k, "ArgSize"));
    o.u8(intAttr(k, "RetValSize"));
  }
  o.u16(k.attrs.size());
  for (size_t i = 0; i < k.attrs.size(); ++i) putAttr(o, kattrIdx[i], k.attrs[i], true);
  size_t entry = o.size();
  encodeCode(k, grfSize, stringIdx, obj.bytes);
  o.patch32(sizeAt, o.size() - entry);
  o.patch32(sizeAt + 4, entry);
  return obj;
}

bool hasNul(std::string_view s) { return s.find('\0') != std::string_view::npos; }

}  // namespace

std::optional<std::string> encodeLimitError(const Module& m) {
  size_t nk = 0, nf = 0;
  for (const Kernel& k : m.kernels) (k.isFunction ? nf : nk)++;
  if (nk > 0xffff || nf > 0xffff) return fmt::format("{} kernels and {} functions: at most 65535 of each fit the header", nk, nf);
  auto nameErr = [](std::string_view what, std::string_view n) -> std::optional<std::string> {
    if (hasNul(n)) return fmt::format("{} name contains a NUL byte", what);
    return std::nullopt;
  };
  for (const Kernel& k : m.kernels) {
    std::string kn = fmt::format("{} '{}'", k.isFunction ? "function" : "kernel", k.name);
    if (k.name.size() > 0xffff) return fmt::format("{}: name longer than 65535 bytes", kn);
    if (auto e = nameErr(kn, k.name)) return e;
    if (k.addrs.size() > 0xffff) return fmt::format("{}: {} address variables, at most 65535", kn, k.addrs.size());
    // Predicate ids are 12 bits in the binary (chapter 5 "Predication").
    if (k.preds.size() > 0xfff) return fmt::format("{}: {} predicate variables, at most 4095", kn, k.preds.size());
    if (k.labels.size() > 0xffff) return fmt::format("{}: {} labels, at most 65535", kn, k.labels.size());
    if (k.samplers.size() > 0xff) return fmt::format("{}: {} samplers, at most 255", kn, k.samplers.size());
    // Surface ids are one byte; ids 0-5 are the predefined surfaces.
    if (k.surfaces.size() > 0xff - kNumPredefSurfaces + 1)
      return fmt::format("{}: {} surfaces, at most {}", kn, k.surfaces.size(), 0xff - kNumPredefSurfaces + 1);
    if (k.attrs.size() > 0xffff) return fmt::format("{}: {} kernel attributes, at most 65535", kn, k.attrs.size());
    auto attrsErr = [&](const std::vector<Attribute>& attrs, std::string_view owner) -> std::optional<std::string> {
      if (attrs.size() > 0xff) return fmt::format("{}: '{}' has {} attributes, at most 255", kn, owner, attrs.size());
      for (const Attribute& a : attrs) {
        if (auto e = nameErr(kn + ": attribute", a.name)) return e;
        if (a.kind == Attribute::Kind::Str && a.strVal.size() > 0xff)
          return fmt::format("{}: attribute '{}' value longer than 255 bytes", kn, a.name);
      }
      return std::nullopt;
    };
    for (const GenVar& v : k.vars) {
      if (auto e = nameErr(kn + ": variable", v.name)) return e;
      if (auto e = attrsErr(v.attrs, v.name)) return e;
    }
    for (const auto* vs : {&k.addrs, &k.preds, &k.samplers, &k.surfaces})
      for (const SimpleVar& v : *vs) {
        if (auto e = nameErr(kn + ": variable", v.name)) return e;
        if (auto e = attrsErr(v.attrs, v.name)) return e;
      }
    for (const LabelDecl& l : k.labels)
      if (auto e = nameErr(kn + ": label", l.name)) return e;
    for (const Attribute& a : k.attrs) {
      if (auto e = nameErr(kn + ": attribute", a.name)) return e;
      if (a.kind == Attribute::Kind::Str && a.strVal.size() > 0xff)
        return fmt::format("{}: attribute '{}' value longer than 255 bytes", kn, a.name);
    }
  }
  return std::nullopt;
}

}  // namespace binary

using namespace binary;

void encodeInstruction(const Instruction& inst, std::vector<uint8_t>& out) {
  Out o(out);
  encodeInto(inst, o);
}

std::vector<uint8_t> writeBinary(const Module& m) {
  if (encodeLimitError(m)) return {};
  // Chapter 4 "vISA Object Format": header, kernel objects, then function
  // objects; Intel's writer put kernels first and functions after them.
  std::vector<const Kernel*> order;
  for (const Kernel& k : m.kernels)
    if (!k.isFunction) order.push_back(&k);
  size_t numKernels = order.size();
  for (const Kernel& k : m.kernels)
    if (k.isFunction) order.push_back(&k);
  std::vector<Object> objs;
  objs.reserve(order.size());
  for (const Kernel* k : order) objs.push_back(writeObject(*k, m.grfSize));

  // common_isa_header size: magic, version, num_kernels, kernel_info[] (with
  // one empty gen_binary_info each), num_variables, num_functions, function_info[].
  uint64_t headerSize = 4 + 2 + 2 + 2 + 2;
  for (size_t i = 0; i < order.size(); ++i)
    headerSize += i < numKernels ? 2 + order[i]->name.size() + 12 + 4 + 1 + 9 : 1 + 2 + order[i]->name.size() + 8 + 4;
  uint64_t total = headerSize;
  for (const Object& o : objs) total += o.bytes.size();
  if (total > std::numeric_limits<uint32_t>::max()) return {};

  std::vector<uint8_t> file;
  file.reserve(total);
  Out o(file);
  o.u32(kMagic);
  o.u8(kWriteMajor);
  o.u8(kWriteMinor);
  o.u16(numKernels);
  uint64_t at = headerSize;
  for (size_t i = 0; i < numKernels; ++i) {  // kernel_info
    const Kernel& k = *order[i];
    o.u16(k.name.size());
    o.bytes(k.name);
    o.u32(at);                              // offset of the kernel object
    o.u32(objs[i].bytes.size());            // its size
    o.u32(at + objs[i].inputOffset);        // absolute offset of its num_inputs
    o.u16(0);                               // num_syms_variable
    o.u16(0);                               // num_syms_function
    at += objs[i].bytes.size();
    // Intel's writer reserved one GEN binary slot per kernel: platform 0,
    // offset = end of the kernel object, size 0 (igc-isa/*.isa).
    o.u8(1);
    o.u8(0);
    o.u32(at);
    o.u32(0);
  }
  o.u16(0);  // num_variables: file-scope variables are not supported
  o.u16(order.size() - numKernels);
  for (size_t i = numKernels; i < order.size(); ++i) {  // function_info
    const Kernel& k = *order[i];
    o.u8(0);  // linkage: deprecated, written as 0
    o.u16(k.name.size());
    o.bytes(k.name);
    o.u32(at);
    o.u32(objs[i].bytes.size());
    o.u16(0);
    o.u16(0);
    at += objs[i].bytes.size();
  }
  for (const Object& ob : objs) file.insert(file.end(), ob.bytes.begin(), ob.bytes.end());
  return file;
}

}  // namespace visakit
