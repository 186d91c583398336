// The core rows: the seed memory instructions and the ALU, compare and
// control instructions they were first run with.
#include "isa/rows.hpp"

namespace visakit::rows {
namespace {

// The pages and IGC 12504's CISA_INST_table: ALU destinations are general or
// indirect (AND/OR/XOR/NOT also predicate), sources general, indirect or
// immediate (the logic ops also predicate). The table's address-of sources
// are not taken: no binary can hold one outside ADDR_ADD (spec-decisions A1).
constexpr uint8_t kGI = kG | kI;

constexpr InstrDesc kRows[] = {
    alu2(Opcode::ADD, "add", "ADD", kNum, kArith, true, 0, kGI),
    alu2(Opcode::MUL, "mul", "MUL", kNum, kArith, true, 0, kGI),
    // AND, OR, XOR, NOT pages: integer or predicate operands.
    alu2(Opcode::AND, "and", "AND", kInt, kLogic, false, kIntOnly, kGI | kP),
    alu2(Opcode::OR, "or", "OR", kInt, kLogic, false, kIntOnly, kGI | kP),
    alu2(Opcode::XOR, "xor", "XOR", kInt, kLogic, false, kIntOnly, kGI | kP),
    alu1(Opcode::NOT, "not", "NOT", kInt, kLogic, false, kIntOnly, kGI | kP),
    alu2(Opcode::SHL, "shl", "SHL", kInt, kArith, true, kIntOnly, kGI),
    alu2(Opcode::SHR, "shr", "SHR", kInt, kArith, true, kIntOnly, kGI),
    // MOV page: src0 may be a predicate (with exec size 1).
    {.op = Opcode::MOV, .mnemonic = "mov", .pageMnemonic = "MOV", .cls = InstrClass::Alu, .execSizes = kAllExec, .sat = true,
     .page = "MOV", .numFields = 4, .fields = {fExec, fPred, dst(kNum | types(T::BF), kGI), src("Src0", 1, kNum | types(T::BF), kArith, kGI | kImm | kP)}},
    alu2(Opcode::SEL, "sel", "SEL", kNum, kArith, true, 0, kGI),
    // SETP page: Exec_size, Dst (predicate), Src0; no predication.
    {.op = Opcode::SETP, .mnemonic = "setp", .pageMnemonic = "SETP", .cls = InstrClass::Alu, .execSizes = kAllExec,
     .sat = false, .page = "SETP", .props = kIntOnly, .numFields = 3,
     .fields = {fExec, FieldDesc{.kind = Vec, .name = "Dst", .textPos = 0, .access = W, .classes = kP},
                src("Src0", 1, types(T::UB, T::UW, T::UD, T::B, T::W, T::D), 0, kGI | kImm)}},
    // CMP page: Exec_size, Rel_op, Dst, Src0, Src1; no predication. Dst: predicate or general.
    {.op = Opcode::CMP, .mnemonic = "cmp", .pageMnemonic = "CMP", .cls = InstrClass::Compare, .execSizes = kAllExec,
     .sat = false, .page = "CMP", .numFields = 5,
     .fields = {fExec, suffixEnum("Rel_op", 0, kRelOps, 0, 5),
                FieldDesc{.kind = Vec, .name = "Dst", .textPos = 0, .access = W, .classes = kG | kP, .types = kNum},
                src("Src0", 1, kNum, kArith, kGI | kImm), src("Src1", 2, kNum, kArith, kGI | kImm)}},
    {.op = Opcode::LABEL, .mnemonic = "label", .pageMnemonic = "LABEL", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "LABEL", .props = kNoExec | kJoin, .syntax = Syntax::Label, .numFields = 1,
     .fields = {FieldDesc{.kind = Label, .width = 2, .name = "Label"}}},
    // SUBROUTINE page: starts a subroutine; printed '.function "NAME"' then 'NAME:'.
    {.op = Opcode::SUBROUTINE, .mnemonic = "func", .pageMnemonic = "SUBROUTINE", .cls = InstrClass::Control,
     .execSizes = kAllExec, .sat = false, .page = "SUBROUTINE", .props = kNoExec | kJoin, .syntax = Syntax::Function,
     .numFields = 1, .fields = {FieldDesc{.kind = Label, .width = 2, .name = "Label"}}},
    {.op = Opcode::JMP, .mnemonic = "jmp", .pageMnemonic = "JMP", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "JMP", .props = kControl, .numFields = 3, .fields = {fExec, fPred, label(0)}},
    {.op = Opcode::RET, .mnemonic = "ret", .pageMnemonic = "RET", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "RET", .props = kControl, .numFields = 2, .fields = {fExec, fPred}},
    {.op = Opcode::GOTO, .mnemonic = "goto", .pageMnemonic = "GOTO", .cls = InstrClass::Control, .execSizes = kAllExec,
     .sat = false, .page = "GOTO", .props = kControl, .numFields = 3, .fields = {fExec, fPred, label(0)}},
    // URB_WRITE page: exec 8 only; Num_out 1-8; Global_offset 0-2047. Text order
    // is num_out, global_offset, channel_mask (igc-dialect.md §6.2).
    {.op = Opcode::URB_WRITE, .mnemonic = "urb_write_3d", .pageMnemonic = "URB_WRITE", .cls = InstrClass::Memory,
     .execSizes = execBit(8), .sat = false, .page = "URB_WRITE", .props = kMayStore | kUrb, .numFields = 8,
     .fields = {fExec, fPred, intField(1, "Num_out", 0, 1, 8), raw("Channel_mask", 2, R, kUD, Urb8Dwords, kNullOk),
                intField(2, "Global_offset", 1, 0, 2047), raw("URB_handle", 3, R, kUD, Urb8Dwords),
                raw("Per_slot_offset", 4, R, kUD, Urb8Dwords, kNullOk), raw("Vertex_data", 5, R, kData32, UrbVertexData)}},
    // SCATTER4_SCALED page: exec 8, 16; Channels != 0.
    {.op = Opcode::SCATTER4_SCALED, .mnemonic = "scatter4_scaled", .pageMnemonic = "SCATTER4_SCALED",
     .cls = InstrClass::Memory, .execSizes = static_cast<uint8_t>(execBit(8) | execBit(16)), .sat = false,
     .page = "SCATTER4_SCALED", .props = kMayStore, .numFields = 8,
     .fields = {fExec, fPred, suffixEnum("Channels", 0, kChannels, 1, 15), zero(2, "Scale"), surface(0), globalOffset(1),
                raw("Element_offset", 2, R, kUD, ExecDwords), raw("Src", 3, R, kData32, Scatter4Src)}},
    scaled(Opcode::GATHER_SCALED, "gather_scaled", "GATHER_SCALED", "Dst", W, kMayLoad),
    scaled(Opcode::SCATTER_SCALED, "scatter_scaled", "SCATTER_SCALED", "Src", R, kMayStore),
    // QW_SCATTER page: exec 1-16; Num_blocks 0b00 (1 block) only; Src Q, UQ, DF.
    {.op = Opcode::QW_SCATTER, .mnemonic = "qw_scatter", .pageMnemonic = "QW_SCATTER", .cls = InstrClass::Memory,
     .execSizes = 0x1F, .sat = false, .page = "QW_SCATTER", .props = kMayStore, .numFields = 6,
     .fields = {fExec, fPred, suffixEnum("Num_blocks", 0, kBlocks, 0, 0), surface(0),
                raw("Offset", 1, R, kUD, ExecDwords), raw("Src", 2, R, types(T::Q, T::UQ, T::DF), QwSrc)}},
};

}  // namespace

std::span<const InstrDesc> coreRows() { return kRows; }

}  // namespace visakit::rows
