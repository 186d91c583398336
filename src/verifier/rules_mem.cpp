// Page rules of the family-M rows that the fields cannot state
// (docs/spec-decisions.md, section "Legacy memory messages (family M)").
#include <algorithm>
#include <bit>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "isa/mem_ops.hpp"
#include "verifier/rules.hpp"

namespace visakit {
namespace {

using namespace memops;

// The type of a raw operand's variable; false for %null or an undeclared variable.
bool rawType(const RuleCtx& c, const Operand& o, Type& t) {
  uint32_t bytes;
  return o.kind == Operand::Kind::Raw && o.id != kVarNull && c.kernel().varInfo(o.id, t, bytes);
}
bool isNull(const Operand& o) { return o.kind == Operand::Kind::Raw && o.id == kVarNull; }

std::string upper(std::string_view s) {
  std::string r(s);
  for (char& ch : r) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return r;
}

// DWORD_ATOMIC, SVM_ATOMIC, TYPED_ATOMIC pages (spec-decisions M2, M3, M5).
void atomicRule(RuleCtx& c) {
  const InstrDesc& d = c.row();
  const Operand& opF = c.field("Op");
  const unsigned code = opF.value & kOpBits, width = opF.value & (kOp16 | kOp64);
  const SrcLoc& at = c.locOf(opF);
  const bool svm = d.op == Opcode::SVM;
  if (!onPage(code)) {
    if (const char* n = atomicName(code))
      c.error(at, fmt::format("atomic operation .{} is not on the {} page (its Op table has no code 0x{:x})", n, d.page, code));
    else c.error(at, fmt::format("atomic operation code 0x{:x} is not on the {} page", code, d.page));
    return;
  }
  if ((opF.value & 0x80) || width == (kOp16 | kOp64) || (!svm && width == kOp64)) {
    c.error(at, fmt::format("Op 0x{:02x}: bits 5-7 must be 0, .16 (bit 5){} ({} page)", opF.value, svm ? " or .64 (bit 6)" : "", d.page));
    return;
  }
  if (isFloatOp(code) && width == kOp64) c.error(at, fmt::format(".{}.64: the float operations are 16- or 32-bit ({} page)", atomicName(code), d.page));
  const std::string opName = upper(code == kIMin ? "imin" : code == kIMax ? "imax" : atomicName(code));
  const Operand& src0 = c.field("Src0");
  const Operand& src1 = c.field("Src1");
  if (usesSrc0(code) && isNull(src0)) c.error(c.locOf(src0), fmt::format("{} needs Src0 ({} page)", opName, d.page));
  if (!usesSrc0(code) && !isNull(src0)) c.error(c.locOf(src0), fmt::format("Src0 of {} must be V0 (%null) ({} page)", opName, d.page));
  if (usesSrc1(code) && isNull(src1)) c.error(c.locOf(src1), fmt::format("{} needs Src1 ({} page)", opName, d.page));
  if (!usesSrc1(code) && !isNull(src1)) c.error(c.locOf(src1), fmt::format("Src1 of {} must be V0 (%null) ({} page)", opName, d.page));
  // Notes: "Dst, Src0, and Src1, if present, must have the same type": D (Q) for IMIN/IMAX, F for
  // the float operations, UD (UQ) for the others; 64-bit types for .64. An integer type of the
  // other signedness, or integer operands whose types differ only in it, is what IGC emits: a
  // named warning (M5).
  const unsigned size = width == kOp64 ? 8 : 4;
  const Type want = isFloatOp(code) ? Type::F : isSignedOp(code) ? (size == 8 ? Type::Q : Type::D) : (size == 8 ? Type::UQ : Type::UD);
  std::optional<Type> first;
  for (const char* n : {"Dst", "Src0", "Src1"}) {
    const Operand& o = c.field(n);
    Type t;
    if (!rawType(c, o, t)) continue;
    if (typeSize(t) != size || isFloat(t) != isFloatOp(code) || (isFloat(t) && t != Type::F)) {
      c.error(c.locOf(o), fmt::format("{} of {}{} must have type {}, but '{}' has type {} ({} page)", n, opName,
                                      width == kOp64 ? ".64" : width == kOp16 ? ".16" : "", upper(typeName(want)),
                                      c.kernel().varName(o.id), upper(typeName(t)), d.page));
      continue;
    }
    if (t != want)
      c.warning("atomic-type", c.locOf(o), fmt::format("{} of {} has type {}; the {} page asks for {}", n, opName,
                                                       upper(typeName(t)), d.page, upper(typeName(want))));
    else if (first && *first != t)
      c.warning("atomic-type", c.locOf(o), fmt::format("{} of {} has type {}, another operand {}; the {} page asks for one type", n,
                                                       opName, upper(typeName(t)), upper(typeName(*first)), d.page));
    if (!first) first = t;
  }
}

// SVM_GATHER / SVM_SCATTER pages: Num_blocks and the data type (M7).
void svmBlocksRule(RuleCtx& c) {
  const InstrDesc& d = c.row();
  const Operand& nbF = c.field("Num_blocks");
  const unsigned nb = 1u << (nbF.value & 3), exec = c.inst().execSize();
  const unsigned bs = c.field("Block_size").value == 2 ? 8 : c.field("Block_size").value == 1 ? 4 : 1;
  if (nb > 1 && exec < 8)  // (IGC's SIMD1 loads of adjacent bytes: a named warning, A27)
    c.warning("svm-blocks-exec", c.locOf(nbF),
              fmt::format("{} blocks need execution size 8 or 16, not {} ({} page: \"When num_blocks > 1, exec_size must >= 8\")", nb,
                          exec, d.page));
  if (nb == 8 && (bs != 4 || exec != 8))
    c.error(c.locOf(nbF), fmt::format("8 blocks are only valid for 4-byte blocks and execution size 8 ({} page)", d.page));
  const Operand& data = c.field(d.subOp == 3 ? "Dst" : "Src");
  Type t;
  if (rawType(c, data, t) && typeSize(t) != bs)
    c.warning("svm-block-type", c.locOf(data), fmt::format("'{}' has type {} ({} bytes) for {}-byte blocks; the {} page asks for a type of the block size",
                                                           c.kernel().varName(data.id), upper(typeName(t)), typeSize(t), bs, d.page));
}

// SVM_BLOCK_LD / SVM_BLOCK_ST pages: Properties bits 0-2 owords (1-8), bit 3 (BLOCK_LD only) unaligned.
void svmBlockRule(RuleCtx& c) {
  const InstrDesc& d = c.row();
  const Operand& p = c.field("Properties");
  const uint64_t allowed = d.subOp == 1 ? 0xf : 0x7;
  if ((p.value & ~allowed) || (p.value & 7) > 3)
    c.error(c.locOf(p), fmt::format("Properties 0x{:02x}: bits 0-2 give 1, 2, 4 or 8 owords{} ({} page)", p.value,
                                    d.subOp == 1 ? ", bit 3 .unaligned, the others are 0" : ", the others are 0", d.page));
}

// OWORD_LD / OWORD_LD_UNALIGNED / OWORD_ST pages: "16 owords. may only be used when surface is T0".
void owordRule(RuleCtx& c) {
  const Operand& size = c.field("Size");
  if (size.value == 4 && c.field("Surface").id != kSurfSlm)
    c.error(c.locOf(size), fmt::format("16 owords may only be used with surface T0 (%slm) ({} page)", c.row().page));
}

// GATHER / SCATTER pages: Num_elts bits 0-1 are 8, 16 or 1 elements, bits 4-7 the mask (chapter 3, V3).
void gatherRule(RuleCtx& c) {
  const Operand& n = c.field("Num_elts");
  const unsigned code = n.value & 3, emask = static_cast<unsigned>(n.value >> 4) & 15;
  if (code == 3 || (n.value & 0xc)) {
    c.error(c.locOf(n), fmt::format("Num_elts 0x{:02x}: bits 0-1 must be 0 (8), 1 (16) or 2 (1 element), bits 2-3 0 ({} page)", n.value,
                                    c.row().page));
    return;
  }
  const unsigned exec = code == 0 ? 8 : code == 1 ? 16 : 1, off = emaskOffset(emask);
  if (off % exec) c.error(c.locOf(n), fmt::format("mask offset {} (M{}) is not aligned to the execution size {}", off, (emask & 7) + 1, exec));
  else if (off + exec > 32) c.error(c.locOf(n), fmt::format("mask offset {} + execution size {} exceeds 32 channels", off, exec));
}

// MEDIA_LD / MEDIA_ST pages: modifiers, the width/height table, 2D surfaces only.
void mediaRule(RuleCtx& c) {
  const InstrDesc& d = c.row();
  const Operand& m = c.field("Modifiers");
  if (m.value != 0 && m.value != 2 && m.value != 3)
    c.error(c.locOf(m), fmt::format("Modifiers {} is not allowed (0 none, 2 top_field, 3 bottom_field; {} page)", m.value, d.page));
  const Operand& s = c.field("Surface");
  if (s.id == kSurfSlm || s.id == kSurfScratch)
    c.error(c.locOf(s), fmt::format("{} must be a 2D surface, not {} ({} page)", d.pageMnemonic, c.kernel().surfaceName(s.id), d.page));
  const unsigned w = static_cast<unsigned>(c.field("Block_width").value), h = static_cast<unsigned>(c.field("Block_height").value);
  // "Legal width/height combination": widths 1-4, 5-8, 9-16, 17-32, 33-64 allow 64, 32, 16, 8, 4 rows.
  const unsigned pitch = std::max(4u, std::bit_ceil(w)), maxH = w >= 1 && w <= 64 ? 256 / pitch : 0;
  if (w >= 1 && w <= 64 && h > maxH)
    c.error(c.locOf(c.field("Block_height")), fmt::format("a block {} bytes wide has at most {} rows, not {} ({} page)", w, maxH, h, d.page));
  const Operand& x = c.field("X_offset");
  if (d.op == Opcode::MEDIA_ST && x.kind == Operand::Kind::Immediate && (x.value & 3))
    c.error(c.locOf(x), fmt::format("X_offset 0x{:x} must be dword-aligned ({} page)", x.value, d.page));
}

// GATHER4_TYPED / SCATTER4_TYPED pages: 1D/2D/3D surfaces (not T0, T5); the channel masks listed.
void typedRule(RuleCtx& c) {
  const InstrDesc& d = c.row();
  const Operand& s = c.field("Surface");
  if (s.id == kSurfSlm || s.id == kSurfScratch)
    c.error(c.locOf(s), fmt::format("{} needs a typed surface, not {} ({} page)", d.pageMnemonic, c.kernel().surfaceName(s.id), d.page));
  const Operand& ch = c.field("Channels");
  if (ch.value == 0xb || ch.value == 0xd)
    c.error(c.locOf(ch), fmt::format("channel mask .{} is not one of the {} page's (R, G, B, A, RG, RB, RA, RGB, RGBA, GB, GA, GBA, BA)",
                                     channelMaskText(static_cast<unsigned>(ch.value)), d.page));
}

constexpr RowRule kRules[] = {
    {Opcode::DWORD_ATOMIC, -1, atomicRule}, {Opcode::TYPED_ATOMIC, -1, atomicRule}, {Opcode::SVM, 5, atomicRule},
    {Opcode::SVM, 3, svmBlocksRule},         {Opcode::SVM, 4, svmBlocksRule},
    {Opcode::SVM, 1, svmBlockRule},          {Opcode::SVM, 2, svmBlockRule},
    {Opcode::OWORD_LD, -1, owordRule},      {Opcode::OWORD_ST, -1, owordRule}, {Opcode::OWORD_LD_UNALIGNED, -1, owordRule},
    {Opcode::GATHER, -1, gatherRule},       {Opcode::SCATTER, -1, gatherRule},
    {Opcode::MEDIA_LD, -1, mediaRule},      {Opcode::MEDIA_ST, -1, mediaRule},
    {Opcode::GATHER4_TYPED, -1, typedRule}, {Opcode::SCATTER4_TYPED, -1, typedRule},
};

}  // namespace

std::span<const RowRule> memRules() { return kRules; }

}  // namespace visakit
