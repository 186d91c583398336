// The ALU family: every arithmetic, logic, bit and math instruction page of
// reference/visa/instructions beyond the core rows (rows_core.cpp), one row
// each, fields in the order of the page's Format table (which is the order of
// IGC 12504's CISA_INST_table).
//
// Operand classes are the page's ("general,indirect,immediate"; address-of,
// which IGC's CISA_INST_table lists for many sources, is not taken:
// spec-decisions A1). Types are the page's "Supported Types" / type
// maps; relations between the operands' types are rules (rules_alu.cpp).
#include "isa/rows.hpp"

namespace visakit::rows {
namespace {

constexpr uint8_t kGI = kG | kI;                  // "general,indirect"
constexpr uint8_t kGII = kG | kI | kImm;          // "general,indirect,immediate"
constexpr uint8_t kNo2 = static_cast<uint8_t>(kAllExec & ~execBit(2));  // BFE, BFI: "<exec_size> must not be 2"

constexpr TypeMask kI32 = types(T::B, T::UB, T::W, T::UW, T::D, T::UD);  // B,D,UB,UD,UW,W
constexpr TypeMask kDUD = types(T::D, T::UD);
constexpr TypeMask kDW = types(T::D, T::UD, T::W, T::UW);                // D,UD,UW,W
constexpr TypeMask kF = types(T::F);
constexpr TypeMask kFHF = types(T::F, T::HF);
constexpr TypeMask kFDF = types(T::F, T::DF);
constexpr TypeMask kWUW = types(T::W, T::UW);
constexpr TypeMask kBUB = types(T::B, T::UB);

constexpr FieldDesc d(TypeMask t, uint8_t classes = kGI) { return dst(t, classes); }
constexpr FieldDesc s(int pos, TypeMask t, uint16_t mods, uint8_t classes = kGII) {
  constexpr const char* kNames[] = {"Src0", "Src1", "Src2", "Src3"};
  return src(kNames[pos], pos + 1, t, mods, classes);
}
// A source after a second destination or a predicate destination: text position pos + 2.
constexpr FieldDesc s2(int pos, TypeMask t, uint16_t mods, uint8_t classes = kGII) {
  constexpr const char* kNames[] = {"Src0", "Src1"};
  return src(kNames[pos], pos + 2, t, mods, classes);
}
// ADDC's Carry, SUBB's Borrow: a second general destination (text position 1).
constexpr FieldDesc dst2(const char* n, TypeMask t) {
  return {.kind = Vec, .name = n, .textPos = 1, .access = W, .classes = kGI, .types = t};
}
// INVM, RSQTM: "PredDst ... Operand class: predicate" (text position 1).
constexpr FieldDesc predDst() { return {.kind = Vec, .name = "PredDst", .textPos = 1, .access = W, .classes = kP}; }

template <class... F>
constexpr InstrDesc row(Opcode op, const char* m, const char* pm, uint8_t exec, bool sat, uint32_t props, F... f) {
  return {.op = op, .mnemonic = m, .pageMnemonic = pm, .cls = InstrClass::Alu, .execSizes = exec, .sat = sat, .page = pm,
          .props = props, .numFields = static_cast<uint8_t>(sizeof...(F)), .fields = {f...}};
}
// A row whose text the ALU syntax reads and prints (src/text/syntax_alu.cpp).
constexpr InstrDesc custom(InstrDesc r, const char* aliases = nullptr) {
  r.syntax = Syntax::Alu;
  r.aliases = aliases;
  return r;
}
// Unary and binary forms: Exec_size, Pred, Dst, Src0[, Src1] with one type set.
constexpr InstrDesc un(Opcode op, const char* m, const char* pm, TypeMask t, uint16_t mods, bool sat, uint32_t props = 0,
                       uint8_t srcCls = kGII) {
  return row(op, m, pm, kAllExec, sat, props, fExec, fPred, d(t), s(0, t, mods, srcCls));
}
constexpr InstrDesc bin(Opcode op, const char* m, const char* pm, TypeMask t, uint16_t mods, bool sat, uint32_t props = 0,
                        uint8_t srcCls = kGII) {
  return row(op, m, pm, kAllExec, sat, props, fExec, fPred, d(t), s(0, t, mods, srcCls), s(1, t, mods, srcCls));
}
constexpr InstrDesc tern(Opcode op, const char* m, const char* pm, uint8_t exec, TypeMask t, uint16_t mods, bool sat,
                         uint32_t props = 0, uint8_t srcCls = kGII) {
  return row(op, m, pm, exec, sat, props, fExec, fPred, d(t), s(0, t, mods, srcCls), s(1, t, mods, srcCls),
             s(2, t, mods, srcCls));
}

// MIN_MAX page: "Op(ub) Bit[0]: 0b0 min, 0b1 max", right after Exec_size (no Pred).
constexpr EnumName kMinMaxNames[] = {{0, "min"}, {1, "max"}};
constexpr EnumDesc kMinMax{kMinMaxNames, 2};
constexpr FieldDesc kMinMaxOp{.kind = Enum, .width = 1, .name = "Op", .minVal = 0, .maxVal = 1, .names = &kMinMax};
// BFN page: "BooleanFuncCtrl(ub)", the last field, printed as the ".xNN" suffix.
constexpr FieldDesc kBfnCtrl{.kind = Int, .width = 1, .name = "BooleanFuncCtrl", .minVal = 0, .maxVal = 255};

constexpr TypeMask kMinMaxTypes = kInt | types(T::F, T::DF, T::HF);  // B,D,DF,F,HF,Q,UB,UD,UQ,UW,W
constexpr TypeMask kRotTypes = types(T::D, T::UD, T::W, T::UW, T::Q, T::UQ);

constexpr InstrDesc kRows[] = {
    // Arithmetic (integer and float).
    bin(Opcode::AVG, "avg", "AVG", kI32, kArith, true, kIntOnly),
    bin(Opcode::DIV, "div", "DIV", kI32 | types(T::F, T::DF, T::HF), kArith, true),
    tern(Opcode::MAD, "mad", "MAD", kAllExec, kI32 | types(T::F, T::DF, T::HF, T::BF), kArith, true),
    bin(Opcode::MULH, "mulh", "MULH", kDUD, kArith, false, kIntOnly),
    // LRP page: Dst "general"; sources "general,immediate".
    row(Opcode::LRP, "lrp", "LRP", kAllExec, true, 0, fExec, fPred, d(kF, kG), s(0, kF, kArith, kG | kImm),
        s(1, kF, kArith, kG | kImm), s(2, kF, kArith, kG | kImm)),
    bin(Opcode::MOD, "mod", "MOD", kI32, kArith, true, kIntOnly),
    // SAD2 page: Dst W,UW; sources B,UB.
    row(Opcode::SAD2, "sad2", "SAD2", kAllExec, true, kIntOnly, fExec, fPred, d(kWUW), s(0, kBUB, kArith), s(1, kBUB, kArith)),
    // SAD2ADD page: Src2 W,UW; no source modifier.
    row(Opcode::SAD2ADD, "sad2add", "SAD2ADD", kAllExec, true, kIntOnly, fExec, fPred, d(kWUW), s(0, kBUB, 0), s(1, kBUB, 0),
        s(2, kWUW, 0)),
    // MADW page: exec 1-16; Dst holds the low halves, then (GRF-aligned) the high halves.
    tern(Opcode::MADW, "madw", "MADW", 0x1F, kDUD, kArith, false, kIntOnly),
    // ADD3 page: immediate16 sources (rules_alu.cpp); ADD3O's Pred is the overflow it writes.
    custom(tern(Opcode::ADD3, "add3", "ADD3", kAllExec, kDW, kArith, true, kIntOnly, kGII)),
    custom(tern(Opcode::ADD3O, "add3.o", "ADD3O", kAllExec, kDW, kArith, false, kIntOnly, kGII)),
    // DP4A page: D,UD; no source modifier.
    tern(Opcode::DP4A, "dp4a", "DP4A", kAllExec, kDUD, 0, true, kIntOnly, kGII),
    // PLANE (PLN page): exec 8, 16; F; sources "general,indirect".
    row(Opcode::PLANE, "plane", "PLANE", static_cast<uint8_t>(execBit(8) | execBit(16)), true, 0, fExec, fPred, d(kF),
        s(0, kF, 0, kGI), s(1, kF, 0, kGI)),

    // Math functions.
    un(Opcode::EXP, "exp", "EXP", kFHF, kArith, true),
    un(Opcode::LOG, "log", "LOG", kFHF, kArith, true),
    bin(Opcode::POW, "pow", "POW", kFHF, kArith, true),
    un(Opcode::SIN, "sin", "SIN", kFHF, kArith, true),
    un(Opcode::COS, "cos", "COS", kFHF, kArith, true),
    // SQRT page: F, HF; DF too (IGC emits it under -cl-fast-relaxed-math: a named warning, rules_alu.cpp).
    un(Opcode::SQRT, "sqrt", "SQRT", types(T::F, T::HF, T::DF), kArith, true),
    un(Opcode::RSQRT, "rsqrt", "RSQRT", kFHF, kArith, true),
    un(Opcode::INV, "inv", "INV", types(T::F, T::DF, T::HF), kArith, true),
    un(Opcode::FRC, "frc", "FRC", kF, kArith, false),
    un(Opcode::RNDD, "rndd", "RNDD", kF, kArith, true),
    un(Opcode::RNDU, "rndu", "RNDU", kF, kArith, true),
    un(Opcode::RNDE, "rnde", "RNDE", kF, kArith, true),
    un(Opcode::RNDZ, "rndz", "RNDZ", kF, kArith, true),
    // IEEE macros: DF, F; INVM, RSQTM also write PredDst. The DIVM and SQRTM pages name no
    // source modifier; they take INVM's and RSQTM's arithmetic ones, which IGC emits (A36).
    bin(Opcode::DIVM, "divm", "DIVM", kFDF, kArith, true),
    un(Opcode::SQRTM, "sqrtm", "SQRTM", kFDF, kArith, true),
    row(Opcode::INVM, "invm", "INVM", kAllExec, false, 0, fExec, fPred, d(kFDF), predDst(), s2(0, kFDF, kArith, kGII),
        s2(1, kFDF, kArith, kGII)),
    row(Opcode::RSQTM, "rsqtm", "RSQTM", kAllExec, false, 0, fExec, fPred, d(kFDF), predDst(), s2(0, kFDF, kArith, kGII)),

    // Bits and shifts (no source modifiers except ASR's).
    // ASR page type maps (UD..B, UQ, Q); "Dst and src0 must have signed integral type" is a rule.
    bin(Opcode::ASR, "asr", "ASR", kInt, kArith, false, kIntOnly),
    row(Opcode::CBIT, "cbit", "CBIT", kAllExec, false, kIntOnly, fExec, fPred, d(kUD), s(0, types(T::UB, T::UW, T::UD), 0)),
    // FBL page: UD; UW too (IGC emits it for work_group_broadcast: a named warning, rules_alu.cpp).
    row(Opcode::FBL, "fbl", "FBL", kAllExec, false, kIntOnly, fExec, fPred, d(kUD), s(0, types(T::UW, T::UD), 0)),
    row(Opcode::FBH, "fbh", "FBH", kAllExec, false, kIntOnly, fExec, fPred, d(kUD), s(0, kDUD, 0)),
    // LZD page text: "LZD[.sat]".
    un(Opcode::LZD, "lzd", "LZD", kUD, 0, true, kIntOnly),
    // BFREV page: UD; D too (IGC emits it: a named warning, rules_alu.cpp).
    un(Opcode::BFREV, "bfrev", "BFREV", kDUD, 0, false, kIntOnly, kGII),
    row(Opcode::BFE, "bfe", "BFE", kNo2, false, kIntOnly, fExec, fPred, d(kDUD), s(0, kDUD, 0, kGII), s(1, kDUD, 0, kGII),
        s(2, kDUD, 0, kGII)),
    row(Opcode::BFI, "bfi", "BFI", kNo2, false, kIntOnly, fExec, fPred, d(kDUD), s(0, kDUD, 0, kGII), s(1, kDUD, 0, kGII),
        s(2, kDUD, 0, kGII), s(3, kDUD, 0, kGII)),
    custom(row(Opcode::BFN, "bfn", "BFN", kAllExec, false, kIntOnly, fExec, fPred, d(kDW), s(0, kDW, 0, kGII),
               s(1, kDW, 0, kGII), s(2, kDW, 0, kGII), kBfnCtrl)),
    bin(Opcode::ROL, "rol", "ROL", kRotTypes, 0, false, kIntOnly),
    bin(Opcode::ROR, "ror", "ROR", kRotTypes, 0, false, kIntOnly),
    // ADDC, SUBB pages: UD; Dst, then Carry / Borrow, then the sources.
    row(Opcode::ADDC, "addc", "ADDC", kAllExec, false, kIntOnly, fExec, fPred, d(kUD), dst2("Carry", kUD),
        s2(0, kUD, 0, kGII), s2(1, kUD, 0, kGII)),
    row(Opcode::SUBB, "subb", "SUBB", kAllExec, false, kIntOnly, fExec, fPred, d(kUD), dst2("Borrow", kUD),
        s2(0, kUD, 0, kGII), s2(1, kUD, 0, kGII)),

    // MIN_MAX page: Exec_size, Op, Dst, Src0, Src1 (no Pred); spelled min / max.
    custom(row(Opcode::FMINMAX, "min", "MIN_MAX", kAllExec, true, 0, fExec, kMinMaxOp, d(kMinMaxTypes),
               s(0, kMinMaxTypes, kArith, kGII), s(1, kMinMaxTypes, kArith, kGII)),
           "max|MIN|MAX"),

    // Conversions without a predicate (FCVT page; SRND as IGC 12504 reads it, spec-decisions A25).
    // FCVT: B is listed but no conversion of it is defined (spec-decisions A24).
    row(Opcode::FCVT, "fcvt", "FCVT", kAllExec, false, 0, fExec, d(types(T::UB, T::HF, T::F, T::UD), kG),
        s(0, types(T::UB, T::HF, T::F, T::UD), 0, kG)),
    row(Opcode::SRND, "srnd", "SRND", kAllExec, false, 0, fExec, d(types(T::HF, T::UB), kG), s(0, types(T::F, T::HF), 0, kG),
        s(1, types(T::UW, T::UB), 0, kG | kImm)),
};

}  // namespace

std::span<const InstrDesc> aluRows() { return kRows; }

}  // namespace visakit::rows
