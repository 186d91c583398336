// The LSC messages: LSC_UNTYPED (0x89) and LSC_TYPED (0x8a), one row per
// sub-opcode, and LSC_FENCE (0x8b). Fields in the order of the pages' Format
// tables (one per CONDITION), at their widths; the text is the family's own
// (Syntax::Lsc, text/syntax_lsc.cpp), as IGC's LscInstFormatter prints it.
#include <algorithm>

#include "isa/lsc.hpp"
#include "isa/rows.hpp"

namespace visakit::rows {
namespace {

using namespace lsc;

constexpr FieldDesc subOpField{.kind = SubOp, .width = 1, .name = "LscSubOp"};
constexpr FieldDesc execField(const char* n) { return {.kind = ExecSize, .width = 1, .name = n}; }
constexpr FieldDesc predField(const char* n) { return {.kind = Pred, .width = 2, .name = n}; }
constexpr FieldDesc e8(const char* n, const EnumDesc& e, uint32_t lo, uint32_t hi) {
  return {.kind = Enum, .width = 1, .name = n, .minVal = lo, .maxVal = hi, .names = &e};
}
constexpr FieldDesc int8(const char* n, uint32_t lo, uint32_t hi) {
  return {.kind = Int, .width = 1, .name = n, .minVal = lo, .maxVal = hi};
}
constexpr FieldDesc int16(const char* n, uint32_t lo, uint32_t hi) {
  return {.kind = Int, .width = 2, .name = n, .minVal = lo, .maxVal = hi};
}
// AddrImmOffset(d): a signed 32-bit byte offset.
constexpr FieldDesc immOffset{.kind = Int, .width = 4, .name = "AddrImmOffset", .flags = kSigned};
// Surface, the 2D block parameters, the strided pitch: "vec_operand", an
// immediate or a register (a scalar: IGC gives it the region <0;1,0>).
constexpr FieldDesc vecField(const char* n) {
  return {.kind = Vec, .name = n, .access = R, .classes = kG | kImm, .types = kInt, .flags = kScalar};
}
// Data and address payloads: raw operands of any type; how many bytes they
// hold follows from the data shape (lsc::footprint).
constexpr FieldDesc payload(const char* n, Access a, bool nullOk) {
  return {.kind = Raw, .width = 6, .name = n, .access = a, .footprint = Footprint::Lsc, .flags = static_cast<uint16_t>(nullOk ? kNullOk : 0)};
}

constexpr FieldDesc fSfid = e8("LscSFID", kSfids, 0, 3), fL1 = e8("CachingL1", kCaches, 0, 6),
                    fL3 = e8("CachingL3", kCaches, 0, 6);
constexpr FieldDesc fDataSize = e8("DataSize", kDataSizes, 1, 7), fDataOrder = e8("DataOrder", kDataOrders, 1, 2);
// DataElemsPerAddr and ChMask are one union in IGC's writer (spec-decisions L2):
// integers here, their relation is a rule (rules_lsc.cpp).
constexpr FieldDesc fElems = int8("DataElemsPerAddr", 0, 255), fChMask = int8("ChMask", 0, 255);

constexpr uint32_t kLoadProps = kMayLoad, kStoreProps = kMayStore, kAtomicProps = kMayLoad | kMayStore | kAtomic;

constexpr uint32_t propsOf(Dir d) {
  return d == Dir::Load ? kLoadProps : d == Dir::Store ? kStoreProps : d == Dir::Atomic ? kAtomicProps : 0;
}

// LSC_UNTYPED, the load / store / atomic Format (the second CONDITION).
constexpr InstrDesc untyped(uint8_t sub, const char* m, Dir dir) {
  return {.op = Opcode::LSC_UNTYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = m, .cls = InstrClass::Memory,
          .execSizes = kAllExec, .sat = false, .page = "LSC_UNTYPED", .props = propsOf(dir), .syntax = Syntax::Lsc,
          .numFields = 19,
          .fields = {subOpField, execField("Exec_size"), predField("Pred"), fSfid, fL1, fL3, e8("AddrType", kAddrTypes, 1, 5),
                     int16("AddrScale", 1, 0xffff), immOffset, e8("AddrSize", kAddrSizes, 1, 3), fDataSize, fDataOrder,
                     fElems, fChMask, vecField("Surface"), payload("DstData", Access::Write, true),
                     payload("Src0Addrs", R, false), payload("Src1Data", R, true), payload("Src2Data", R, true)}};
}

// LSC_UNTYPED strided Format: one base address and a pitch, no Src2Data.
constexpr InstrDesc strided(uint8_t sub, const char* m, Dir dir) {
  return {.op = Opcode::LSC_UNTYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = m, .cls = InstrClass::Memory,
          .execSizes = kAllExec, .sat = false, .page = "LSC_UNTYPED", .props = propsOf(dir), .syntax = Syntax::Lsc,
          .numFields = 19,
          .fields = {subOpField, execField("Exec_size"), predField("Pred"), fSfid, fL1, fL3, e8("AddrType", kAddrTypes, 1, 5),
                     int16("AddrScale", 1, 0xffff), immOffset, e8("AddrSize", kAddrSizes, 1, 3), fDataSize, fDataOrder,
                     fElems, fChMask, vecField("Surface"), payload("DstData", Access::Write, true),
                     payload("Src0AddrBase", R, false), vecField("Src0AddrPitch"), payload("Src1Data", R, true)}};
}

// LSC_UNTYPED block2d Format. "Block operations or transpose operations
// should be SIMD1" (Exec_size); DataSize d8..d64 (a 2D block of elements T);
// Blocks, BlockWidth, BlockHeight are counts (at least 1).
constexpr InstrDesc block2d(uint8_t sub, const char* m, Dir dir) {
  return {.op = Opcode::LSC_UNTYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = m, .cls = InstrClass::Memory,
          .execSizes = execBit(1), .sat = false, .page = "LSC_UNTYPED", .props = propsOf(dir), .syntax = Syntax::Lsc,
          .numFields = 20,
          .fields = {subOpField, execField("Exec_size"), predField("Pred"), fSfid, fL1, fL3, e8("DataSize", kDataSizes, 1, 4),
                     fDataOrder, int8("Blocks", 1, 255), int16("BlockWidth", 1, 0xffff), int16("BlockHeight", 1, 0xffff),
                     int8("VNNI", 0, 1), payload("DstData", Access::Write, true), vecField("SurfaceBaseAddr"),
                     vecField("SurfaceWidth"), vecField("SurfaceHeight"), vecField("SurfacePitch"), vecField("Src0AddrX"),
                     vecField("Src0AddrY"), payload("Src1Data", R, true)}};
}

// LSC_UNTYPED append-counter Format: "The surface AddrType must be stateful
// (i.e. BTI, SSS, or BSS)" (2..4); Src0Data is the data argument.
constexpr InstrDesc apndctr(uint8_t sub, const char* m) {
  return {.op = Opcode::LSC_UNTYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = m, .cls = InstrClass::Memory,
          .execSizes = kAllExec, .sat = false, .page = "LSC_UNTYPED", .props = kAtomicProps, .syntax = Syntax::Lsc,
          .numFields = 14,
          .fields = {subOpField, execField("Exec_size"), predField("Pred"), fSfid, fL1, fL3, e8("AddrType", kAddrTypes, 2, 4),
                     fDataSize, fDataOrder, fElems, fChMask, vecField("Surface"), payload("DstData", Access::Write, true),
                     payload("Src0Data", R, false)}};
}

// LSC_TYPED Format: the address is surface coordinates U, V, R, LOD of a
// surface's state (AddrType bss, ss or bti: typed surfaces have state); U is
// %null only for lsc_read_surface_info (a rule);
// "ExecSize ... no larger than SIMD8 for DG2 and SIMD16 for PVC" (1..16).
constexpr InstrDesc typed(uint8_t sub, const char* m, const char* pm, Dir dir) {
  return {.op = Opcode::LSC_TYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Memory,
          .execSizes = 0x1F, .sat = false, .page = "LSC_TYPED", .props = propsOf(dir), .syntax = Syntax::Lsc,
          .numFields = 19,
          .fields = {subOpField, execField("ExecSize"), predField("Predicate"), fL1, fL3, e8("AddrType", kAddrTypes, 2, 4),
                     e8("AddrSize", kAddrSizes, 1, 3), fDataSize, fDataOrder, fElems, fChMask, vecField("Surface"),
                     payload("DstData", Access::Write, true), payload("Src0AddrsU", R, true),
                     payload("Src0AddrsV", R, true), payload("Src0AddrsR", R, true), payload("Src0AddrsLOD", R, true),
                     payload("Src1Data", R, true), payload("Src2Data", R, true)}};
}

// LSC_TYPED block2d Format: no ExecSize or Predicate ("always SIMD1");
// "BlockWidth ... Valid value is [1, 64]", "BlockHeight ... [1, 64]".
constexpr InstrDesc typedBlock2d(uint8_t sub, const char* m, Dir dir) {
  return {.op = Opcode::LSC_TYPED, .subOp = sub, .mnemonic = m, .pageMnemonic = m, .cls = InstrClass::Memory,
          .execSizes = execBit(1), .sat = false, .page = "LSC_TYPED", .props = propsOf(dir), .syntax = Syntax::Lsc,
          .numFields = 11,
          .fields = {subOpField, fL1, fL3, e8("AddrType", kAddrTypes, 2, 4), int16("BlockWidth", 1, 64),
                     int16("BlockHeight", 1, 64), vecField("Surface"), payload("DstData", Access::Write, true),
                     vecField("Src0AddrX"), vecField("Src0AddrY"), payload("Src1Data", R, true)}};
}

struct AtomicName {
  uint8_t sub;
  const char* name;
};
constexpr AtomicName kAtomics[] = {
    {kAtomicIinc, "lsc_atomic_iinc"}, {kAtomicIdec, "lsc_atomic_idec"}, {kAtomicLoad, "lsc_atomic_load"},
    {kAtomicStore, "lsc_atomic_store"}, {kAtomicIadd, "lsc_atomic_iadd"}, {kAtomicIsub, "lsc_atomic_isub"},
    {kAtomicSmin, "lsc_atomic_smin"}, {kAtomicSmax, "lsc_atomic_smax"}, {kAtomicUmin, "lsc_atomic_umin"},
    {kAtomicUmax, "lsc_atomic_umax"}, {kAtomicIcas, "lsc_atomic_icas"}, {kAtomicFadd, "lsc_atomic_fadd"},
    {kAtomicFsub, "lsc_atomic_fsub"}, {kAtomicFmin, "lsc_atomic_fmin"}, {kAtomicFmax, "lsc_atomic_fmax"},
    {kAtomicFcas, "lsc_atomic_fcas"}, {kAtomicAnd, "lsc_atomic_and"}, {kAtomicOr, "lsc_atomic_or"},
    {kAtomicXor, "lsc_atomic_xor"},
};
constexpr size_t kNumAtomics = std::size(kAtomics);

// Untyped rows first: a mnemonic both opcodes have names the untyped row, and
// the text's ".tgm" picks the typed one (syntax_lsc.cpp).
constexpr size_t kNumRows = 12 + kNumAtomics + 7 + kNumAtomics + 1;

constexpr std::array<InstrDesc, kNumRows> kRows = [] {
  std::array<InstrDesc, kNumRows> r{};
  size_t i = 0;
  r[i++] = untyped(kLoad, "lsc_load", Dir::Load);
  r[i++] = strided(kLoadStrided, "lsc_load_strided", Dir::Load);
  r[i++] = untyped(kLoadQuad, "lsc_load_quad", Dir::Load);
  r[i++] = block2d(kLoadBlock2d, "lsc_load_block2d", Dir::Load);
  r[i++] = untyped(kStore, "lsc_store", Dir::Store);
  r[i++] = strided(kStoreStrided, "lsc_store_strided", Dir::Store);
  r[i++] = untyped(kStoreQuad, "lsc_store_quad", Dir::Store);
  r[i++] = block2d(kStoreBlock2d, "lsc_store_block2d", Dir::Store);
  for (const AtomicName& a : kAtomics) r[i++] = untyped(a.sub, a.name, Dir::Atomic);
  r[i++] = untyped(kLoadStatus, "lsc_load_status", Dir::Load);
  r[i++] = untyped(kStoreUncompressed, "lsc_store_uncompressed", Dir::Store);
  r[i++] = apndctr(kApndctrAdd, "lsc_apndctr_atomic_add");
  r[i++] = apndctr(kApndctrSub, "lsc_apndctr_atomic_sub");
  r[i++] = typed(kLoadQuad, "lsc_load_quad", "lsc_load_quad", Dir::Load);
  r[i++] = typedBlock2d(kLoadBlock2d, "lsc_load_block2d", Dir::Load);
  r[i++] = typed(kStoreQuad, "lsc_store_quad", "lsc_store_quad", Dir::Store);
  r[i++] = typedBlock2d(kStoreBlock2d, "lsc_store_block2d", Dir::Store);
  for (const AtomicName& a : kAtomics) r[i++] = typed(a.sub, a.name, a.name, Dir::Atomic);
  r[i++] = typed(kLoadStatus, "lsc_load_status", "lsc_load_status", Dir::Load);
  r[i++] = typed(kStoreUncompressed, "lsc_store_uncompressed", "lsc_store_uncompressed", Dir::Store);
  // "lsc_read_surface_info" on the page; IGC spells it lsc_read_state_info.
  r[i++] = typed(kReadSurfaceInfo, "lsc_read_state_info", "lsc_read_surface_info", Dir::None);
  // LSC_FENCE page: ExecSize, Pred, LscSFID, LscFenceOp, LscScope.
  r[i++] = {.op = Opcode::LSC_FENCE, .mnemonic = "lsc_fence", .pageMnemonic = "LSC_FENCE", .cls = InstrClass::Sync,
            .execSizes = execBit(1), .sat = false, .page = "LSC_FENCE", .props = kFence, .syntax = Syntax::Lsc,
            .numFields = 5,
            .fields = {execField("ExecSize"), predField("Pred"), e8("LscSFID", kFenceSfids, 0, 3),
                       e8("LscFenceOp", kFenceOps, 0, 5), e8("LscScope", kScopes, 0, 6)}};
  if (i != kNumRows) throw "kNumRows does not count the rows";  // a compile-time error
  for (const InstrDesc& d : r)
    for (size_t f = 0; f < kMaxFields; ++f)
      if ((f < d.numFields) != (d.fields[f].name[0] != '\0')) throw "numFields does not count the fields";
  return r;
}();

}  // namespace

std::span<const InstrDesc> lscRows() { return kRows; }

}  // namespace visakit::rows

namespace visakit::lsc {

bool isLsc(const InstrDesc& d) {
  return d.op == Opcode::LSC_UNTYPED || d.op == Opcode::LSC_TYPED || d.op == Opcode::LSC_FENCE;
}

OpInfo opInfo(const InstrDesc& d) {
  OpInfo i;
  if (d.op == Opcode::LSC_FENCE) return i;
  const bool typedOp = d.op == Opcode::LSC_TYPED;
  const auto sub = static_cast<uint8_t>(d.subOp);
  i.form = typedOp ? Form::Typed : Form::Simple;
  switch (sub) {
    case kLoad:
    case kLoadStatus: i.dir = Dir::Load; break;
    case kLoadQuad: i.dir = Dir::Load; i.quad = true; break;
    case kStoreQuad: i.dir = Dir::Store; i.quad = true; break;
    case kStore:
    case kStoreUncompressed: i.dir = Dir::Store; break;
    case kLoadStrided: i.dir = Dir::Load; i.form = Form::Strided; break;
    case kStoreStrided: i.dir = Dir::Store; i.form = Form::Strided; break;
    case kLoadBlock2d: i.dir = Dir::Load; i.form = typedOp ? Form::TypedBlock2d : Form::Block2d; break;
    case kStoreBlock2d: i.dir = Dir::Store; i.form = typedOp ? Form::TypedBlock2d : Form::Block2d; break;
    case kApndctrAdd:
    case kApndctrSub: i.dir = Dir::Atomic; i.form = Form::Apndctr; i.extra = 1; break;
    case kReadSurfaceInfo: i.dir = Dir::None; break;
    case kAtomicIinc:
    case kAtomicIdec:
    case kAtomicLoad: i.dir = Dir::Atomic; i.extra = 0; break;
    case kAtomicIcas:
    case kAtomicFcas: i.dir = Dir::Atomic; i.extra = 2; break;
    default: i.dir = Dir::Atomic; i.extra = 1; break;  // the binary atomics
  }
  return i;
}

Block2dLayout block2dLayout(uint64_t dataSize, bool transpose, unsigned width, unsigned height, unsigned grf) {
  // LOAD_BLOCK2D: grf_row_size = transpose ? H : W; grf_row_pitch = round_up_pow2(row size);
  // grf_block_size = pitch * (transpose ? W : H); grf_block_pitch = round_to_multiple_of(elems_per_reg, size).
  Block2dLayout l;
  l.esize = memBytes(dataSize);
  l.perDword = 4 / l.esize;
  l.perReg = std::max(1u, grf / l.esize);
  const unsigned rowSize = transpose ? height : width;
  l.rowPitch = roundUpPow2(rowSize);
  l.blockSize = l.rowPitch * (transpose ? width : height);
  l.blockPitch = (l.blockSize + l.perReg - 1) / l.perReg * l.perReg;
  return l;
}

uint32_t footprint(const InstrDesc& d, const Instruction& inst, int field, unsigned grf) {
  auto value = [&](const char* name) -> uint64_t {
    int i = d.findName(name);
    return i >= 0 ? inst.f[i].value : 0;
  };
  const std::string_view name = d.fields[field].name;
  const OpInfo op = opInfo(d);
  const unsigned exec = d.find(FieldKind::ExecSize) >= 0 ? inst.execSize() : 1;
  if (op.form == Form::Block2d) {
    // LOAD_BLOCK2D: Blocks blocks of grf_block_pitch elements; a store has one block.
    const Block2dLayout l = block2dLayout(value("DataSize"), value("DataOrder") == kTranspose,
                                          static_cast<unsigned>(value("BlockWidth")), static_cast<unsigned>(value("BlockHeight")), grf);
    const uint64_t blocks = name == "DstData" ? value("Blocks") : 1;
    return static_cast<uint32_t>(std::min<uint64_t>(blocks * l.blockPitch * l.esize, 0xffffffffu));
  }
  if (op.form == Form::TypedBlock2d) {
    // "each row starts at row_id*register_pitch bytes and BlockWidth bytes are returned";
    // reg_pitch = BlockWidth < 4 ? 4 : round_up_pow2(BlockWidth).
    const uint64_t w = value("BlockWidth"), h = value("BlockHeight");
    const uint64_t pitch = w < 4 ? 4 : roundUpPow2(w);
    return h ? static_cast<uint32_t>((h - 1) * pitch + w) : 0;
  }
  // Addresses: one per lane (AddrSize bytes each); the strided base is one address.
  if (name == "Src0AddrBase") return addrBytes(value("AddrSize"));
  if (name.starts_with("Src0Addrs")) return exec * addrBytes(value("AddrSize"));
  if (d.subOp == kReadSurfaceInfo) return 0;  // the page does not say what it returns
  if (d.subOp == kLoadStatus && name == "DstData") return 4;  // dest.bit[n]: one dword (L13)
  // Data: a vector of components (the quad ops' ChMask channels; one for atomics).
  const uint64_t ds = value("DataSize");
  const unsigned rb = regBytes(ds);
  const unsigned comps = op.quad ? popcount4(value("ChMask")) : op.dir == Dir::Atomic ? 1 : vecLen(value("DataElemsPerAddr"));
  if (comps == 0) return 0;
  if (value("DataOrder") == kTranspose) return exec * comps * rb;
  return (comps - 1) * componentStride(exec, rb, grf) + exec * rb;
}

bool reach(const InstrDesc& d, const Instruction& inst, Reach& r) {
  if (!isLsc(d) || d.op == Opcode::LSC_FENCE) return false;
  r = Reach{};
  const OpInfo op = opInfo(d);
  r.store = op.dir == Dir::Store || op.dir == Dir::Atomic;
  auto value = [&](const char* name) -> int64_t {
    int i = d.findName(name);
    return i >= 0 ? static_cast<int64_t>(inst.f[i].value) : -1;
  };
  if (op.form == Form::Block2d) {  // a flat 64-bit surface base address
    r.flat = true;
    return true;
  }
  const int64_t sfid = value("LscSFID");
  const int64_t type = value("AddrType");
  if (sfid == kSlm) {
    r.slm = true;
    return true;
  }
  if (type == kFlat) {
    r.flat = true;
  } else if (type == kSs) {
    r.surface = kSurfScratch;
    r.flat = true;  // an unbound %scratch is the stateless space (spec-decisions M1, L9)
  } else if (type == kBss) {
    r.surface = kSurfBss;
  } else if (type == kBti) {
    r.viaTable = true;
    const int s = d.findName("Surface");
    if (s >= 0 && inst.f[s].kind == Operand::Kind::Immediate)
      r.bti = static_cast<int>(std::min<uint64_t>(inst.f[s].value & 0xffffffffu, 0x7fffffff));
  }
  return true;
}

}  // namespace visakit::lsc
