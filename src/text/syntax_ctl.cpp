// The text of family C's rows that the generic layout cannot express, as
// IGC 12504's printer (IsaDisassembly.cpp) writes them and its grammar
// (CISA.y / CISA.l) reads them:
//   fence_sw | fence_global[.EISCRL1] | fence_local[.EISCRL1]   (FENCE: one mask byte)
//   [(P)] call (M1, 1) NAME | [(P)] fccall (M1, 1) NAME         (CALL: the label's kind picks the spelling)
//   switchjmp (M1, 1) INDEX (L0, L1, ...)                       (SWITCHJMP)
//   nbarrier.wait ID | nbarrier.signal ID COUNT                 (NBARRIER)
//   lifetime.start VAR | lifetime.end VAR                       (LIFETIME: any variable class)
//   [(P)] raw_send[c] (M1, 16) 0xEXDESC NSRC NDST DESC SRC DST  (RAW_SEND)
//   [(P)] raw_sends[c].SFID[.eot].NSRC0.NSRC1.NDST (M1, 16) EXDESC DESC SRC0 SRC1 DST  (RAW_SENDS)
#include <charconv>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "text/syntax.hpp"

namespace visakit::text {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return r;
}

Operand intOperand(uint64_t v, SrcLoc loc) {
  Operand o;
  o.kind = Operand::Kind::Int;
  o.value = v;
  o.loc = loc;
  return o;
}

std::string predText(const Kernel& k, const Instruction& inst) {
  if (!inst.pred.id) return {};
  const SimpleVar* p = k.pred(inst.pred.id);
  std::string n = p && !p->name.empty() ? p->name : fmt::format("P{}", inst.pred.id);
  return fmt::format("({}{}{}) ", inst.pred.invert ? "!" : "", n,
                     inst.pred.control == 1 ? ".any" : inst.pred.control == 2 ? ".all" : "");
}

std::string field(const Kernel& k, const InstrDesc& d, const Instruction& inst, int i) {
  return operandText(k, d.fields[i], inst.f[i]);
}

// ".x" after the mnemonic: the suffix's identifier.
const Token& suffix(TextReader& r, std::string_view what) {
  r.expectPunct('.', fmt::format("before the {}", what));
  return r.expectIdent(what);
}

// ---- FENCE page: Mask bit 0 E (commit), 1 I, 2 S, 3 C, 4 R, 5 local (SLM only), 6 L1, 7 software only ----
constexpr const char* kFenceLetters[] = {"E", "I", "S", "C", "R", nullptr, "L1"};

void parseFence(TextReader& r, const InstrDesc&, Instruction& inst, const Token& mn) {
  std::string m = lower(mn.text);
  uint64_t mask = m == "fence_sw" ? 0x80 : m == "fence_local" ? 0x20 : 0;
  if (m != "fence_sw" && r.peek().is('.')) {
    r.next();
    // CISA.l: "."(E?I?S?C?R?(L1)?): the letters in this order, each at most once; none is allowed.
    if (r.peek().kind == Tok::Ident) {
      const Token& t = r.next();
      std::string_view s = t.text;
      for (unsigned b = 0; b < 7 && !s.empty(); ++b)
        if (kFenceLetters[b] && s.starts_with(kFenceLetters[b])) {
          mask |= 1u << b;
          s.remove_prefix(std::string_view(kFenceLetters[b]).size());
        }
      if (!s.empty())
        r.fail(t, fmt::format("invalid fence options '.{}' (expected a subset of E, I, S, C, R, L1 in that order)", t.text));
    }
  }
  inst.f[0] = intOperand(mask, mn.loc);
}

std::string printFence(const Kernel&, const InstrDesc&, const Instruction& inst) {
  // IGC's printInstructionCommon: _sw for bit 7; else _local / _global and, for a
  // non-zero mask, "." and its letters (fence_local. for bit 5 alone).
  const unsigned mask = static_cast<unsigned>(inst.f[0].value);
  if (mask & 0x80) return "fence_sw";
  std::string s = mask & 0x20 ? "fence_local" : "fence_global";
  if (mask != 0) {
    s += ".";
    for (unsigned b = 0; b < 7; ++b)
      if (kFenceLetters[b] && (mask & (1u << b))) s += kFenceLetters[b];
  }
  return s;
}

// ---- CALL / FCCALL pages: one opcode; an FC label (kind 2) makes it fccall ----
void parseCall(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  r.execSize(inst);
  r.field(d.fields[2], inst.f[2]);
  if (lower(mn.text) == "fccall") r.kernel().labels[inst.f[2].id].kind = 2;
}

std::string printCall(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  uint32_t id = inst.f[2].id;
  bool fc = id < k.labels.size() && k.labels[id].kind == 2;
  return fmt::format("{}{} {} {}", predText(k, inst), fc ? "fccall" : "call", execSizeText(inst), field(k, d, inst, 2));
}

// ---- SWITCHJMP page: Num_labels, Index, Label0 .. ----
int countedSlots(const InstrDesc& d, int& first) {
  int n = 0;
  first = -1;
  for (int i = 0; i < d.numFields; ++i)
    if (d.fields[i].flags & kCounted) {
      if (first < 0) first = i;
      ++n;
    }
  return n;
}

void parseSwitchjmp(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  r.execSize(inst);
  r.field(d.fields[2], inst.f[2]);
  r.expectPunct('(', "to start the label list");
  int first;
  const int slots = countedSlots(d, first);
  int n = 0;
  while (!r.peek().is(')')) {  // CISA.y SwitchLabels: identifiers, commas optional
    if (r.peek().is(',')) {
      r.next();
      continue;
    }
    const Token& t = r.peek();
    if (t.kind != Tok::Ident) r.fail(t, fmt::format("expected a label or ')', found {}", describe(t)));
    if (n == slots)
      r.fail(t, fmt::format("switchjmp with more than {} labels: visakit holds at most {} (spec-decisions C10)", slots, slots));
    r.field(d.fields[first + n], inst.f[first + n]);
    ++n;
  }
  r.next();
  if (n == 0) r.fail(mn, "switchjmp needs at least one label (SWITCHJMP page: Num_labels in [1..32])");
  inst.f[1] = intOperand(static_cast<uint64_t>(n), mn.loc);
}

std::string printSwitchjmp(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  int first;
  const int slots = countedSlots(d, first);
  std::string labels;
  for (int i = 0; i < slots && inst.f[first + i].kind != Operand::Kind::None; ++i)
    labels += (i ? ", " : "") + field(k, d, inst, first + i);
  return fmt::format("switchjmp {} {} ({})", execSizeText(inst), field(k, d, inst, 2), labels);
}

// ---- NBARRIER (IGC 12504): Mode, Id, Num_threads; the wait form carries its Id twice ----
void parseNbarrier(TextReader& r, const InstrDesc& d, Instruction& inst, const Token&) {
  const Token& m = suffix(r, "nbarrier mode (.wait or .signal)");
  auto mode = d.fields[0].names->valueOf(m.text);
  if (!mode) r.fail(m, fmt::format("invalid nbarrier mode '.{}' (expected .wait or .signal)", m.text));
  inst.f[0] = intOperand(*mode, m.loc);
  r.field(d.fields[1], inst.f[1]);
  if (*mode == 1) r.field(d.fields[2], inst.f[2]);
  else inst.f[2] = inst.f[1];  // IGC's AppendVISANamedBarrierWait pads with the Id
}

std::string printNbarrier(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  bool signal = inst.f[0].value == 1;
  std::string s = fmt::format("nbarrier.{} {}", signal ? "signal" : "wait", field(k, d, inst, 1));
  if (signal) s += " " + field(k, d, inst, 2);
  return s;
}

// ---- LIFETIME page: properties bit 0 (0 start, 1 end), bits 4-5 class (0 general, 1 address, 2 predicate) ----
void parseLifetime(TextReader& r, const InstrDesc&, Instruction& inst, const Token&) {
  const Token& m = suffix(r, "lifetime marker (.start or .end)");
  if (m.text != "start" && m.text != "end") r.fail(m, fmt::format("invalid lifetime marker '.{}' (expected .start or .end)", m.text));
  const Token& v = r.expectIdent("variable");
  char cls;
  uint32_t id;
  if (!r.variable(v, cls, id)) r.fail(v, fmt::format("use of undeclared variable '{}'", v.text));
  unsigned c = cls == 'G' ? 0 : cls == 'A' ? 1 : cls == 'P' ? 2 : 3;
  if (c == 3) r.fail(v, fmt::format("'{}' is not a general, address or predicate variable (LIFETIME page)", v.text));
  inst.f[0] = intOperand((m.text == "end" ? 1u : 0u) | c << 4, m.loc);
  inst.f[1] = intOperand(id, v.loc);
}

std::string printLifetime(const Kernel& k, const InstrDesc&, const Instruction& inst) {
  const unsigned props = static_cast<unsigned>(inst.f[0].value);
  const uint32_t id = static_cast<uint32_t>(inst.f[1].value);
  std::string name;
  switch ((props >> 4) & 3) {
    case 0: name = k.varName(id); break;
    case 1: name = id < k.addrs.size() && !k.addrs[id].name.empty() ? k.addrs[id].name : fmt::format("A{}", id); break;
    case 2: {
      const SimpleVar* p = k.pred(id);
      name = p && !p->name.empty() ? p->name : fmt::format("P{}", id);
      break;
    }
    default: name = fmt::format("<class 3 variable {}>", id);
  }
  return fmt::format("lifetime.{} {}", props & 1 ? "end" : "start", name);
}

// ---- RAW_SEND page: Modifiers bit 0 = raw_sendc ----
void parseRawSend(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  inst.f[0] = intOperand(lower(mn.text) == "raw_sendc" ? 1 : 0, mn.loc);
  r.execSize(inst);
  for (int i : {3, 4, 5, 6, 7, 8}) r.field(d.fields[i], inst.f[i]);
}

std::string printRawSend(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  return fmt::format("{}{} {} 0x{:x} {} {} {} {} {}", predText(k, inst), inst.f[0].value & 1 ? "raw_sendc" : "raw_send",
                     execSizeText(inst), inst.f[3].value, inst.f[4].value, inst.f[5].value, field(k, d, inst, 6),
                     field(k, d, inst, 7), field(k, d, inst, 8));
}

// ---- RAW_SENDS page: Modifiers bit 0 = sendsc, bit 1 = EOT; the counts and SFID as dotted suffixes ----
void parseRawSends(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  std::string m = lower(mn.text);
  bool cond = m.starts_with("raw_sendsc");
  bool eot = m.ends_with("_eot");
  std::vector<uint64_t> nums;
  const Token* last = &mn;
  while (r.peek().is('.')) {  // "2.1" lexes as one number: its parts are two suffixes
    r.next();
    const Token& t = r.next();
    last = &t;
    if (t.kind == Tok::Ident && t.text == "eot" && !eot && nums.size() == 1) {
      eot = true;
      continue;
    }
    if (t.kind != Tok::Int && t.kind != Tok::Float) r.fail(t, fmt::format("expected a number after '.', found {}", describe(t)));
    for (std::string_view s = t.text; !s.empty();) {
      size_t dot = s.find('.');
      std::string_view part = s.substr(0, dot);
      uint64_t v = 0;
      auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
      if (ec != std::errc() || p != part.data() + part.size() || v > 255) r.fail(t, fmt::format("invalid count '{}'", part));
      nums.push_back(v);
      s = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
    }
  }
  // IGC's printer: SFID.[eot.]NSRC0.NSRC1.NDST; its grammar's raw_sendsc form leaves out SFID (0).
  if (nums.size() == 3 && cond) nums.insert(nums.begin(), 0);
  if (nums.size() != 4)
    r.fail(*last, fmt::format("{} needs .SFID.NSRC0.NSRC1.NDST (RAW_SENDS page), found {} numbers", mn.text, nums.size()));
  inst.f[0] = intOperand((cond ? 1u : 0u) | (eot ? 2u : 0u), mn.loc);
  inst.f[6] = intOperand(nums[0], mn.loc);
  inst.f[3] = intOperand(nums[1], mn.loc);
  inst.f[4] = intOperand(nums[2], mn.loc);
  inst.f[5] = intOperand(nums[3], mn.loc);
  r.execSize(inst);
  for (int i : {7, 8, 9, 10, 11}) r.field(d.fields[i], inst.f[i]);
}

std::string printRawSends(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  const uint64_t mod = inst.f[0].value;
  return fmt::format("{}{}.{}.{}{}.{}.{} {} {} {} {} {} {}", predText(k, inst), mod & 1 ? "raw_sendsc" : "raw_sends",
                     inst.f[6].value, mod & 2 ? "eot." : "", inst.f[3].value, inst.f[4].value, inst.f[5].value,
                     execSizeText(inst), field(k, d, inst, 7), field(k, d, inst, 8), field(k, d, inst, 9),
                     field(k, d, inst, 10), field(k, d, inst, 11));
}

void parse(TextReader& r, const InstrDesc& d, Instruction& inst, const Token& mn) {
  switch (d.op) {
    case Opcode::FENCE: parseFence(r, d, inst, mn); return;
    case Opcode::CALL: parseCall(r, d, inst, mn); return;
    case Opcode::SWITCHJMP: parseSwitchjmp(r, d, inst, mn); return;
    case Opcode::NBARRIER: parseNbarrier(r, d, inst, mn); return;
    case Opcode::LIFETIME: parseLifetime(r, d, inst, mn); return;
    case Opcode::RAW_SEND: parseRawSend(r, d, inst, mn); return;
    case Opcode::RAW_SENDS: parseRawSends(r, d, inst, mn); return;
    default: r.fail(mn, fmt::format("'{}' has no custom syntax", mn.text));
  }
}

std::string print(const Kernel& k, const InstrDesc& d, const Instruction& inst) {
  switch (d.op) {
    case Opcode::FENCE: return printFence(k, d, inst);
    case Opcode::CALL: return printCall(k, d, inst);
    case Opcode::SWITCHJMP: return printSwitchjmp(k, d, inst);
    case Opcode::NBARRIER: return printNbarrier(k, d, inst);
    case Opcode::LIFETIME: return printLifetime(k, d, inst);
    case Opcode::RAW_SEND: return printRawSend(k, d, inst);
    case Opcode::RAW_SENDS: return printRawSends(k, d, inst);
    default: return d.mnemonic;
  }
}

constexpr CustomSyntax kCtl{parse, print};

}  // namespace

const CustomSyntax& ctlSyntax() { return kCtl; }

}  // namespace visakit::text
