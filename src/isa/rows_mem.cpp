// The legacy data-port memory messages (family M): GATHER4_SCALED,
// DWORD_ATOMIC, the SVM family, OWORD_LD/ST/LD_UNALIGNED, MEDIA_LD/ST,
// GATHER/SCATTER, QW_GATHER and the typed ones. Fields in the order of each
// page's Format table (and IGC's reader, ByteCodeReaderNG.cpp); the rows whose
// text the generic layout cannot write use Syntax::Mem (text/syntax_mem.cpp).
#include "isa/rows.hpp"

namespace visakit::rows {
namespace {

// OWORD_LD/ST Size, SVM_BLOCK_LD/ST Properties bits 0-2: the number of owords ("(N)" in the text).
constexpr EnumName kOwordNames[] = {{0, "1"}, {1, "2"}, {2, "4"}, {3, "8"}, {4, "16"}};
constexpr EnumDesc kOwords{kOwordNames, 5};
// SVM_GATHER/SCATTER Block_size (spec-decisions M6): 0 = 1 byte, 1 = 4 bytes, 2 = 8 bytes.
constexpr EnumName kSvmBlockNames[] = {{0, "1"}, {1, "4"}, {2, "8"}};
constexpr EnumDesc kSvmBlock{kSvmBlockNames, 3};
// GATHER/SCATTER Elt_size: 0b00 1 byte, 0b01 2 bytes, 0b10 4 bytes.
constexpr EnumName kEltNames[] = {{0, "1"}, {1, "2"}, {2, "4"}};
constexpr EnumDesc kElt{kEltNames, 3};
// MEDIA_LD/ST Modifiers, IGC's spellings (Common_ISA.cpp media_ld_mod_str / media_st_mod_str);
// the pages allow 0, 2 (top_field) and 3 (bottom_field) only (rules_mem.cpp).
constexpr EnumName kMediaLdNames[] = {{0, "nomod"}, {1, "modified"}, {2, "top"}, {3, "bottom"}, {4, "top_mod"}, {5, "bottom_mod"}};
constexpr EnumDesc kMediaLd{kMediaLdNames, 6};
constexpr EnumName kMediaStNames[] = {{0, "nomod"}, {1, "reserved"}, {2, "top"}, {3, "bottom"}};
constexpr EnumDesc kMediaSt{kMediaStNames, 4};

constexpr TypeMask kUQ = types(T::UQ);
constexpr uint8_t kExec1to16 = 0x1F, kExec1to8 = 0x0F;
constexpr uint8_t kExec8or16 = static_cast<uint8_t>(execBit(8) | execBit(16));

constexpr FieldDesc fSub{.kind = SubOp, .width = 1, .name = "SubOp"};
// The atomic operation: bits 0-4 the op, bit 5 .16, bit 6 .64 (DWORD_ATOMIC / SVM_ATOMIC pages);
// written as a suffix by the Mem syntax, checked by rules_mem.cpp.
constexpr FieldDesc fOp{.kind = Int, .width = 1, .name = "Op", .maxVal = 0xff};
constexpr FieldDesc hidden(const char* n, uint32_t lo, uint32_t hi) {
  return {.kind = Int, .width = 1, .name = n, .minVal = lo, .maxVal = hi};
}
constexpr FieldDesc hiddenEnum(const char* n, const EnumDesc& e, uint32_t lo, uint32_t hi) {
  return {.kind = Enum, .width = 1, .name = n, .minVal = lo, .maxVal = hi, .names = &e};
}
// A scalar vector source of one type ("(scalar) ... Must have type UD/UQ").
constexpr FieldDesc scalarSrc(const char* n, int pos, TypeMask t) {
  return {.kind = Vec, .name = n, .textPos = static_cast<int8_t>(pos), .access = R, .classes = kG | kImm, .types = t,
          .flags = kScalar};
}
constexpr FieldDesc intAt(const char* n, int pos, uint32_t lo, uint32_t hi) { return intField(1, n, pos, lo, hi); }

constexpr InstrDesc mem(Opcode op, int sub, const char* m, const char* pm, uint8_t execSizes, uint32_t props, Syntax syn,
                        std::initializer_list<FieldDesc> fs) {
  InstrDesc d{.op = op, .subOp = static_cast<int16_t>(sub), .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Memory,
              .execSizes = execSizes, .sat = false, .page = pm, .props = props, .syntax = syn};
  for (const FieldDesc& f : fs) d.fields[d.numFields++] = f;
  return d;
}

constexpr uint32_t kAtomicProps = kMayLoad | kMayStore | kAtomic;

constexpr InstrDesc kRows[] = {
    // GATHER4_SCALED page: exec 8, 16; Channels != 0; Dst "Must have type UD,D,F", channel-major.
    mem(Opcode::GATHER4_SCALED, -1, "gather4_scaled", "GATHER4_SCALED", kExec8or16, kMayLoad, Syntax::Generic,
        {fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), zero(2, "Scale"), surface(0), globalOffset(1),
         raw("Element_offset", 2, R, kUD, ExecDwords), raw("Dst", 3, W, kData32, Scatter4Src)}),
    // DWORD_ATOMIC page: Op, Exec_size (1-16), Pred, Surface, Element_offset, Src0, Src1, Dst.
    mem(Opcode::DWORD_ATOMIC, -1, "dword_atomic", "DWORD_ATOMIC", kExec1to16, kAtomicProps, Syntax::Mem,
        {fOp, fExec, fPred, surface(0), raw("Element_offset", 1, R, kUD, ExecDwords), raw("Src0", 2, R, 0, AtomicData, kNullOk),
         raw("Src1", 3, R, 0, AtomicData, kNullOk), raw("Dst", 4, W, 0, AtomicData, kNullOk)}),
    // SVM_BLOCK_LD / SVM_BLOCK_ST pages: Properties (bits 0-2 owords, bit 3 unaligned), Address (UQ scalar), data.
    mem(Opcode::SVM, 1, "svm_block_ld", "SVM_BLOCK_LD", kAllExec, kMayLoad, Syntax::Mem,
        {fSub, hidden("Properties", 0, 0xff), scalarSrc("Address", 0, kUQ), raw("Dst", 1, W, 0, Owords)}),
    mem(Opcode::SVM, 2, "svm_block_st", "SVM_BLOCK_ST", kAllExec, kMayStore, Syntax::Mem,
        {fSub, hidden("Properties", 0, 0xff), scalarSrc("Address", 0, kUQ), raw("Src", 1, R, 0, Owords)}),
    // SVM_GATHER / SVM_SCATTER pages: exec 1-16; Block_size 1, 4, 8 bytes; Num_blocks 1-8; Addresses UQ.
    mem(Opcode::SVM, 3, "svm_gather", "SVM_GATHER", kExec1to16, kMayLoad, Syntax::Generic,
        {fSub, fExec, fPred, suffixEnum("Block_size", 0, kSvmBlock, 0, 2), suffixEnum("Num_blocks", 1, kBlocks, 0, 3),
         raw("Addresses", 0, R, kUQ, ExecQwords), raw("Dst", 1, W, 0, SvmData)}),
    mem(Opcode::SVM, 4, "svm_scatter", "SVM_SCATTER", kExec1to16, kMayStore, Syntax::Generic,
        {fSub, fExec, fPred, suffixEnum("Block_size", 0, kSvmBlock, 0, 2), suffixEnum("Num_blocks", 1, kBlocks, 0, 3),
         raw("Addresses", 0, R, kUQ, ExecQwords), raw("Src", 1, R, 0, SvmData)}),
    // SVM_ATOMIC page: exec 1-8; binary Addresses, Src0, Src1, Dst; text <addresses> <dst> <src0> <src1>.
    mem(Opcode::SVM, 5, "svm_atomic", "SVM_ATOMIC", kExec1to8, kAtomicProps, Syntax::Mem,
        {fSub, fExec, fPred, fOp, raw("Addresses", 0, R, kUQ, ExecQwords), raw("Src0", 2, R, 0, AtomicData, kNullOk),
         raw("Src1", 3, R, 0, AtomicData, kNullOk), raw("Dst", 1, W, 0, AtomicData, kNullOk)}),
    // SVM_GATHER4_SCALED / SVM_SCATTER4_SCALED pages: exec 8, 16; Address UQ scalar; Element_offset UQ.
    // IGC spells them svm_gather4scaled / svm_scatter4scaled (spec-decisions M10).
    mem(Opcode::SVM, 6, "svm_gather4scaled", "SVM_GATHER4_SCALED", kExec8or16, kMayLoad, Syntax::Generic,
        {fSub, fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), zero(2, "Scale"), scalarSrc("Address", 0, kUQ),
         raw("Element_offset", 1, R, kUQ, ExecQwords), raw("Dst", 2, W, kData32, Scatter4Src)}),
    mem(Opcode::SVM, 7, "svm_scatter4scaled", "SVM_SCATTER4_SCALED", kExec8or16, kMayStore, Syntax::Generic,
        {fSub, fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), zero(2, "Scale"), scalarSrc("Address", 0, kUQ),
         raw("Element_offset", 1, R, kUQ, ExecQwords), raw("Src", 2, R, kData32, Scatter4Src)}),
    // OWORD_LD / OWORD_LD_UNALIGNED / OWORD_ST pages: Size (1-16 owords), [Is_modified], Surface, Offset (UD scalar), data.
    mem(Opcode::OWORD_LD, -1, "oword_ld", "OWORD_LD", kAllExec, kMayLoad, Syntax::Mem,
        {hiddenEnum("Size", kOwords, 0, 4), hidden("Is_modified", 0, 1), surface(0), scalarSrc("Offset", 1, kUD),
         raw("Dst", 2, W, 0, Owords)}),
    mem(Opcode::OWORD_ST, -1, "oword_st", "OWORD_ST", kAllExec, kMayStore, Syntax::Mem,
        {hiddenEnum("Size", kOwords, 0, 4), surface(0), scalarSrc("Offset", 1, kUD), raw("Src", 2, R, 0, Owords)}),
    mem(Opcode::OWORD_LD_UNALIGNED, -1, "oword_ld_unaligned", "OWORD_LD_UNALIGNED", kAllExec, kMayLoad, Syntax::Mem,
        {hiddenEnum("Size", kOwords, 0, 4), hidden("Is_modified", 0, 1), surface(0), scalarSrc("Offset", 1, kUD),
         raw("Dst", 2, W, 0, Owords)}),
    // MEDIA_LD / MEDIA_ST pages: Modifiers, Surface, Plane 0-3, Block_width 1-64, Block_height 1-64, X/Y offsets (UD scalars).
    mem(Opcode::MEDIA_LD, -1, "media_ld", "MEDIA_LD", kAllExec, kMayLoad, Syntax::Mem,
        {hiddenEnum("Modifiers", kMediaLd, 0, 5), surface(0), intAt("Plane", 1, 0, 3), hidden("Block_width", 1, 64),
         hidden("Block_height", 1, 64), scalarSrc("X_offset", 2, kUD), scalarSrc("Y_offset", 3, kUD),
         raw("Dst", 4, W, 0, MediaBlock)}),
    mem(Opcode::MEDIA_ST, -1, "media_st", "MEDIA_ST", kAllExec, kMayStore, Syntax::Mem,
        {hiddenEnum("Modifiers", kMediaSt, 0, 3), surface(0), intAt("Plane", 1, 0, 3), hidden("Block_width", 1, 64),
         hidden("Block_height", 1, 64), scalarSrc("X_offset", 2, kUD), scalarSrc("Y_offset", 3, kUD),
         raw("Src", 4, R, 0, MediaBlock)}),
    // GATHER / SCATTER pages: no Exec_size or Pred; Num_elts holds the size (8, 16, 1) and the mask (bits 4-7).
    mem(Opcode::GATHER, -1, "gather", "GATHER", kAllExec, kMayLoad, Syntax::Mem,
        {hiddenEnum("Elt_size", kElt, 0, 2), hidden("Is_modified", 0, 1), hidden("Num_elts", 0, 0xff), surface(0),
         scalarSrc("Global_offset", 1, kUD), raw("Element_offset", 2, R, kUD, GatherElts), raw("Dst", 3, W, kData32, GatherElts)}),
    mem(Opcode::SCATTER, -1, "scatter", "SCATTER", kAllExec, kMayStore, Syntax::Mem,
        {hiddenEnum("Elt_size", kElt, 0, 2), hidden("Num_elts", 0, 0xff), surface(0), scalarSrc("Global_offset", 1, kUD),
         raw("Element_offset", 2, R, kUD, GatherElts), raw("Src", 3, R, kData32, GatherElts)}),
    // QW_GATHER page: exec 1-16; Num_blocks 0b00 only; Dst Q, UQ, DF.
    mem(Opcode::QW_GATHER, -1, "qw_gather", "QW_GATHER", kExec1to16, kMayLoad, Syntax::Generic,
        {fExec, fPred, suffixEnum("Num_blocks", 0, kBlocks, 0, 0), surface(0), raw("Offset", 1, R, kUD, ExecDwords),
         raw("Dst", 2, W, types(T::Q, T::UQ, T::DF), QwSrc)}),
    // GATHER4_TYPED / SCATTER4_TYPED pages (vISA 3.2+ layout): exec 8; U, V, R, LOD (V0 where not applicable).
    mem(Opcode::GATHER4_TYPED, -1, "gather4_typed", "GATHER4_TYPED", execBit(8), kMayLoad, Syntax::Generic,
        {fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), surface(0), raw("U", 1, R, kUD, ExecDwords),
         raw("V", 2, R, kUD, ExecDwords, kNullOk), raw("R", 3, R, kUD, ExecDwords, kNullOk),
         raw("LOD", 4, R, kUD, ExecDwords, kNullOk), raw("Dst", 5, W, kData32, Scatter4Src)}),
    mem(Opcode::SCATTER4_TYPED, -1, "scatter4_typed", "SCATTER4_TYPED", execBit(8), kMayStore, Syntax::Generic,
        {fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), surface(0), raw("U", 1, R, kUD, ExecDwords),
         raw("V", 2, R, kUD, ExecDwords, kNullOk), raw("R", 3, R, kUD, ExecDwords, kNullOk),
         raw("LOD", 4, R, kUD, ExecDwords, kNullOk), raw("Src", 5, R, kData32, Scatter4Src)}),
    // TYPED_ATOMIC page: Op, Exec_size (8), Pred, Surface, U, V, R, LOD, Src0, Src1, Dst.
    mem(Opcode::TYPED_ATOMIC, -1, "typed_atomic", "TYPED_ATOMIC", execBit(8), kAtomicProps, Syntax::Mem,
        {fOp, fExec, fPred, surface(0), raw("U", 1, R, kUD, ExecDwords), raw("V", 2, R, kUD, ExecDwords, kNullOk),
         raw("R", 3, R, kUD, ExecDwords, kNullOk), raw("LOD", 4, R, kUD, ExecDwords, kNullOk),
         raw("Src0", 5, R, 0, AtomicData, kNullOk), raw("Src1", 6, R, 0, AtomicData, kNullOk),
         raw("Dst", 7, W, 0, AtomicData, kNullOk)}),
};

}  // namespace

std::span<const InstrDesc> memRows() { return kRows; }

}  // namespace visakit::rows
