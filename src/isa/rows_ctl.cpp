// Family C rows: control flow (CALL, FCALL, IFCALL, FRET, FADDR, SWITCHJMP),
// synchronisation (BARRIER, SBARRIER, NBARRIER, FENCE, WAIT, YIELD,
// SAMPLR_CACHE_FLUSH), surface state (MOVS), address registers (ADDR_ADD),
// debug information (FILE, LOC, LIFETIME) and the raw sends (RAW_SEND,
// RAW_SENDS). Binary layouts: the pages' Format tables as IGC 12504's
// CISA_INST_table and ByteCodeReaderNG read them (spec-decisions C-section
// where they differ). RET, LABEL and SUBROUTINE are core rows.
#include "isa/rows.hpp"

namespace visakit::rows {
namespace {

// SBARRIER, NBARRIER pages: Mode bit 0, 0 wait, 1 signal.
constexpr EnumName kBarrierModeNames[] = {{0, "wait"}, {1, "signal"}};
inline constexpr EnumDesc kBarrierModes{kBarrierModeNames, 2};

constexpr TypeMask kUnsigned = types(T::UB, T::UW, T::UD);

constexpr FieldDesc vecDst(TypeMask t, uint8_t classes, int pos = 0) {
  return {.kind = Vec, .name = "Dst", .textPos = static_cast<int8_t>(pos), .access = W, .classes = classes, .types = t};
}
constexpr FieldDesc vecSrc(const char* n, int pos, TypeMask t, uint8_t classes, uint16_t flags = 0) {
  return {.kind = Vec, .name = n, .textPos = static_cast<int8_t>(pos), .access = R, .classes = classes, .types = t, .flags = flags};
}
constexpr FieldDesc stringField(unsigned width, const char* n, int pos, uint16_t flags = 0) {
  return {.kind = String, .width = static_cast<uint8_t>(width), .name = n, .textPos = static_cast<int8_t>(pos), .flags = flags};
}
constexpr FieldDesc ubField(const char* n, uint32_t lo, uint32_t hi, uint16_t flags = 0) {
  return {.kind = Int, .width = 1, .name = n, .minVal = lo, .maxVal = hi, .flags = flags};
}
constexpr FieldDesc countedLabel() { return {.kind = Label, .width = 2, .name = "Label", .flags = kCounted}; }
// FCALL / IFCALL: Arg_size, Return_size in GRFs ("[0-sizeof(%arg)]", checked with the GRF size in rules_ctl).
constexpr FieldDesc grfCount(const char* n, int pos) { return intField(1, n, pos, 0, 255); }
constexpr FieldDesc sendRaw(const char* n, Access a, Footprint fp, uint16_t flags = 0) {
  return {.kind = Raw, .width = 6, .name = n, .access = a, .footprint = fp, .flags = flags};
}

constexpr InstrDesc noOperands(Opcode op, const char* m, const char* pm, const char* page, uint32_t props,
                               const char* aliases = nullptr) {
  return {.op = op, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Sync, .execSizes = kAllExec, .sat = false,
          .page = page, .props = props, .aliases = aliases, .numFields = 0, .fields = {}};
}

constexpr InstrDesc kRows[] = {
    // ADDR_ADD page: Exec_size, Dst (address), Src0 (address, or the address of a
    // general variable or a state: &V, &T6), Src1 (general, immediate; UW); no predication.
    {.op = Opcode::ADDR_ADD, .mnemonic = "addr_add", .pageMnemonic = "ADDR_ADD", .cls = InstrClass::Alu,
     .execSizes = kAllExec, .sat = false, .page = "ADDR_ADD", .numFields = 4,
     .fields = {fExec, vecDst(0, kA), vecSrc("Src0", 1, 0, kA | kAO, kArith),
                vecSrc("Src1", 2, types(T::UW), kG | kImm, kArith)}},
    // MOVS page: Exec_size, Dst (state, general), Src0 (state, general, indirect, immediate); UD.
    {.op = Opcode::MOVS, .mnemonic = "movs", .pageMnemonic = "MOVS", .cls = InstrClass::Misc, .execSizes = kAllExec,
     .sat = false, .page = "MOVS", .props = kSideEffect, .numFields = 3,
     .fields = {fExec, vecDst(kUD, kS | kG), vecSrc("Src0", 1, kUD, kS | kG | kI | kImm)}},
    // CALL page (FCCALL page: the same opcode with an FC label; printed fccall).
    {.op = Opcode::CALL, .mnemonic = "call", .pageMnemonic = "CALL", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "CALL", .props = kControl, .syntax = Syntax::Ctl, .aliases = "fccall|FCCALL", .numFields = 3,
     .fields = {fExec, fPred, label(0)}},
    // FCALL page: Func_id is a string-pool index (the callee's name); Arg_size, Return_size in GRFs.
    {.op = Opcode::FCALL, .mnemonic = "fcall", .pageMnemonic = "FCALL", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "FCALL", .props = kControl, .numFields = 5,
     .fields = {fExec, fPred, stringField(2, "Func_id", 0), grfCount("Arg_size", 1), grfCount("Return_size", 2)}},
    // FRET page.
    {.op = Opcode::FRET, .mnemonic = "fret", .pageMnemonic = "FRET", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "FRET", .props = kControl, .numFields = 2, .fields = {fExec, fPred}},
    // IFCALL page: Func_addr (scalar, UD).
    {.op = Opcode::IFCALL, .mnemonic = "ifcall", .pageMnemonic = "IFCALL", .cls = InstrClass::Control,
     .execSizes = kAllExec, .sat = false, .page = "IFCALL", .props = kControl, .numFields = 5,
     .fields = {fExec, fPred, vecSrc("Func_addr", 0, kUD, kG | kI | kImm, kScalar), grfCount("Arg_size", 1),
                grfCount("Return_size", 2)}},
    // FADDR page: Func_id (string), Dst (UD, UQ); no execution size.
    {.op = Opcode::FADDR, .mnemonic = "faddr", .pageMnemonic = "FADDR", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "FADDR", .numFields = 2,
     .fields = {stringField(2, "Func_id", 0), vecDst(types(T::UD, T::UQ), kG | kI, 1)}},
    // SWITCHJMP page: Exec_size (1), Num_labels [1..32], Index (scalar, unsigned), Label0 .. Label(Num_labels-1).
    // visakit holds at most 21 labels (the IR's operand slots; spec-decisions C10).
    {.op = Opcode::SWITCHJMP, .mnemonic = "switchjmp", .pageMnemonic = "SWITCHJMP", .cls = InstrClass::Control,
     .execSizes = execBit(1), .sat = false, .page = "SWITCHJMP", .props = kControl, .syntax = Syntax::Ctl,
     .numFields = 24,
     .fields = {fExec, ubField("Num_labels", 1, 32, kCount), vecSrc("Index", 0, kUnsigned, kG | kI | kImm, kScalar),
                countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(),
                countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(),
                countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(), countedLabel(),
                countedLabel(), countedLabel(), countedLabel()}},
    // BARRIER page: no operands.
    noOperands(Opcode::BARRIER, "barrier", "BARRIER", "BARRIER", kBarrier),
    // SBARRIER page: Mode .wait / .signal.
    {.op = Opcode::SBARRIER, .mnemonic = "sbarrier", .pageMnemonic = "SBARRIER", .cls = InstrClass::Sync,
     .execSizes = kAllExec, .sat = false, .page = "SBARRIER", .props = kBarrier, .numFields = 1,
     .fields = {suffixEnum("Mode", 0, kBarrierModes, 0, 1)}},
    // NBARRIER (IGC 12504's form, spec-decisions C12): Mode, Id (UB), Num_threads (UB);
    // nbarrier.wait carries its Id again in place of the count.
    {.op = Opcode::NBARRIER, .mnemonic = "nbarrier", .pageMnemonic = "NBARRIER", .cls = InstrClass::Sync,
     .execSizes = kAllExec, .sat = false, .page = "NBARRIER", .props = kBarrier, .syntax = Syntax::Ctl, .numFields = 3,
     .fields = {suffixEnum("Mode", 0, kBarrierModes, 0, 1), vecSrc("Id", 0, types(T::UB), kG | kI | kImm, kScalar),
                vecSrc("Num_threads", 1, types(T::UB), kG | kI | kImm, kScalar)}},
    // FENCE page: Mask (ub); printed fence_sw, fence_local.E, fence_global.EISCRL1 (IGC's printer).
    {.op = Opcode::FENCE, .mnemonic = "fence_global", .pageMnemonic = "FENCE", .cls = InstrClass::Sync,
     .execSizes = kAllExec, .sat = false, .page = "FENCE", .props = kFence, .syntax = Syntax::Ctl,
     .aliases = "fence_local|fence_sw|FENCE_GLOBAL|FENCE_LOCAL|FENCE_SW", .numFields = 1,
     .fields = {ubField("Mask", 0, 255)}},
    // WAIT page: Mask (scalar, UB).
    {.op = Opcode::WAIT, .mnemonic = "wait", .pageMnemonic = "WAIT", .cls = InstrClass::Sync, .execSizes = kAllExec,
     .sat = false, .page = "WAIT", .props = kSideEffect, .numFields = 1,
     .fields = {vecSrc("Mask", 0, types(T::UB), kG | kImm, kScalar)}},
    noOperands(Opcode::YIELD, "yield", "YIELD", "YIELD", 0),
    // CACHE_FLUSH page (opcode SAMPLR_CACHE_FLUSH; IGC prints sampler_cache_flush).
    noOperands(Opcode::SAMPLR_CACHE_FLUSH, "sampler_cache_flush", "CACHE_FLUSH", "CACHE_FLUSH", kSideEffect,
               "samplr_cache_flush|SAMPLR_CACHE_FLUSH"),
    // FILE page: File_name (ud string index); printed FILE "name" (also .file).
    {.op = Opcode::FILE, .mnemonic = "FILE", .pageMnemonic = "FILE", .cls = InstrClass::Misc, .execSizes = kAllExec,
     .sat = false, .page = "FILE", .props = kNoExec, .aliases = "file", .numFields = 1,
     .fields = {stringField(4, "File_name", 0, kQuoted)}},
    // LOC page: Line_number (ud); printed LOC N (also .loc).
    {.op = Opcode::LOC, .mnemonic = "LOC", .pageMnemonic = "LOC", .cls = InstrClass::Misc, .execSizes = kAllExec,
     .sat = false, .page = "LOC", .props = kNoExec, .aliases = "loc", .numFields = 1,
     .fields = {intField(4, "Line_number", 0, 0, 0xffffffffu)}},
    // LIFETIME page: properties (bit 0 start/end, bits 4-5 the variable's class), variable (ud id).
    {.op = Opcode::LIFETIME, .mnemonic = "lifetime", .pageMnemonic = "LIFETIME", .cls = InstrClass::Misc,
     .execSizes = kAllExec, .sat = false, .page = "LIFETIME", .props = kNoExec, .syntax = Syntax::Ctl, .numFields = 2,
     .fields = {ubField("Properties", 0, 255), FieldDesc{.kind = Int, .width = 4, .name = "Variable"}}},
    // RAW_SEND page: Modifiers (raw_send / raw_sendc), Exec_size, Pred, ExMsgDesc (ud), NumSrc [1-15],
    // NumDst [0-16], Desc (scalar, UD), Src, Dst (NumSrc / NumDst GRFs).
    {.op = Opcode::RAW_SEND, .mnemonic = "raw_send", .pageMnemonic = "RAW_SEND", .cls = InstrClass::Misc,
     .execSizes = kAllExec, .sat = false, .page = "RAW_SEND", .props = kMayLoad | kMayStore | kSideEffect,
     .syntax = Syntax::Ctl, .aliases = "raw_sendc", .numFields = 9,
     .fields = {ubField("Modifiers", 0, 1), fExec, fPred, FieldDesc{.kind = Int, .width = 4, .name = "ExMsgDesc"},
                ubField("NumSrc", 1, 15), ubField("NumDst", 0, 16), vecSrc("Desc", -1, kUD, kG | kImm, kScalar),
                sendRaw("Src", R, RawSendSrc), sendRaw("Dst", W, RawSendDst, kNullOk)}},
    // RAW_SENDS (IGC 12504's binary order: NumSrc0, NumSrc1, NumDst, then SFID; spec-decisions C13).
    {.op = Opcode::RAW_SENDS, .mnemonic = "raw_sends", .pageMnemonic = "RAW_SENDS", .cls = InstrClass::Misc,
     .execSizes = kAllExec, .sat = false, .page = "RAW_SENDS", .props = kMayLoad | kMayStore | kSideEffect,
     .syntax = Syntax::Ctl, .aliases = "raw_sendsc|raw_sends_eot|raw_sendsc_eot", .numFields = 12,
     .fields = {ubField("Modifiers", 0, 3), fExec, fPred, ubField("NumSrc0", 0, 255), ubField("NumSrc1", 0, 255),
                ubField("NumDst", 0, 255), ubField("SFID", 0, 15), vecSrc("ExMsgDesc", -1, kUD, kG | kImm, kScalar),
                vecSrc("Desc", -1, kUD, kG | kImm, kScalar), sendRaw("Src0", R, RawSendsSrc0),
                sendRaw("Src1", R, RawSendsSrc1, kNullOk), sendRaw("Dst", W, RawSendDst, kNullOk)}},
};

}  // namespace

std::span<const InstrDesc> ctlRows() { return kRows; }

}  // namespace visakit::rows
