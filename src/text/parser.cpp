// Parser for .visaasm text in the dialect Intel's compiler prints
// (igc-dialect.md §1; chapter 8). Operands are parsed field by field as the
// instruction table describes them. Every error of the file is reported: on
// an error the rest of the line is skipped.
#include <bit>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "text/lexer.hpp"
#include "visakit/visakit.hpp"

namespace visakit {
namespace {

using text::Tok;
using text::Token;

struct ParseError {};
struct LimitError {};  // a limit was exceeded: stop parsing the file

struct Sym {
  enum class Kind : uint8_t { Gen, Pred, Addr, Sampler, Surface } kind;
  uint32_t id;
};

class Parser {
 public:
  Parser(std::string_view src, Diagnostics& d, const Options& o) : diags_(d), opts_(o) {
    if (src.size() > o.limits.maxFileBytes) {
      d.error({}, fmt::format("input is {} bytes, over the limit of {} (--max-file-size)", src.size(), o.limits.maxFileBytes));
      tooBig_ = true;
      return;
    }
    toks_ = text::lex(src, d);
  }

  std::optional<Module> run(Module* partial) {
    if (tooBig_) return std::nullopt;
    bool versionSeen = false;
    while (peek().kind != Tok::End) {
      if (peek().kind == Tok::Newline) {
        ++p_;
        continue;
      }
      try {
        if (!versionSeen) {
          if (!(peek().is('.') && peek(1).isIdent("version"))) {
            error(peek().loc, "expected '.version' directive before anything else");
            versionSeen = true;  // report once
            throw ParseError{};
          }
          versionSeen = true;
        }
        statement();
      } catch (const ParseError&) {
        skipLine();
      } catch (const LimitError&) {
        break;
      }
    }
    finishKernel();
    if (!versionSeen) error(peek().loc, "expected '.version' directive");
    if (diags_.hasErrors()) {
      if (partial) *partial = std::move(mod_);
      return std::nullopt;
    }
    return std::move(mod_);
  }

 private:
  std::vector<Token> toks_;
  bool tooBig_ = false;
  size_t p_ = 0;
  Diagnostics& diags_;
  Options opts_;
  Module mod_;
  Kernel* k_ = nullptr;
  struct NameHash {  // heterogeneous lookup: no std::string per operand
    using is_transparent = void;
    size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  std::unordered_map<std::string, Sym, NameHash, std::equal_to<>> syms_;
  std::unordered_map<std::string, uint32_t> labels_;

  // ---- token helpers ----
  const Token& peek(size_t o = 0) const {
    size_t i = p_ + o;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (p_ < toks_.size() - 1) ++p_;
    return t;
  }
  bool atEol() const { return peek().kind == Tok::Newline || peek().kind == Tok::End; }
  void skipLine() {
    while (!atEol()) ++p_;
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) {
    error(t.loc, msg);
    throw ParseError{};
  }
  void error(SrcLoc loc, std::string msg) { diags_.error(loc, std::move(msg)); }
  [[noreturn]] void limit(const Token& t, const std::string& msg) {
    error(t.loc, msg);
    throw LimitError{};
  }
  void expectPunct(char c, std::string_view what) {
    if (!peek().is(c)) fail(peek(), fmt::format("expected '{}' {}, found {}", c, what, text::describe(peek())));
    next();
  }
  const Token& expectIdent(std::string_view what) {
    if (peek().kind != Tok::Ident) fail(peek(), fmt::format("expected {}, found {}", what, text::describe(peek())));
    return next();
  }
  uint64_t expectInt(std::string_view what, uint64_t max) {
    bool neg = false;
    if (peek().is('-')) {
      next();
      neg = true;
    }
    const Token& t = peek();
    if (t.kind != Tok::Int) fail(t, fmt::format("expected {}, found {}", what, text::describe(t)));
    next();
    if (neg || t.intVal > max)
      fail(t, fmt::format("{} must be in the range [0, {}], found {}{}", what, max, neg ? "-" : "", t.text));
    return t.intVal;
  }
  void expectEol() {
    if (!atEol()) fail(peek(), fmt::format("unexpected {} at end of statement", text::describe(peek())));
  }
  void needKernel(const Token& t) {
    if (!k_) fail(t, "this statement must come after a '.kernel' directive");
  }

  // ---- statements ----
  void statement() {
    const Token& t = peek();
    if (t.is('.') && peek(1).kind == Tok::Ident) {
      directive();
      return;
    }
    if (t.is('{') || t.is('}')) {  // declaration scopes: names stay kernel-wide
      next();
      return;
    }
    if (t.kind == Tok::Ident && peek(1).is(':') && !lookupMnemonic(t.text)) {
      labelDef();
      return;
    }
    instruction();
    expectEol();
  }

  void directive() {
    next();  // '.'
    const Token& d = next();
    std::string_view n = d.text;
    if (n == "version") {
      // "4.2" lexes as one number.
      const Token& v = peek();
      size_t dot = v.text.find('.');
      if (v.kind != Tok::Float || dot == std::string_view::npos || v.text.find_first_not_of("0123456789.") != std::string_view::npos ||
          dot > 3 || v.text.size() - dot - 1 > 3 || dot == 0 || dot + 1 == v.text.size())
        fail(v, fmt::format("expected version 'MAJOR.MINOR', found {}", text::describe(v)));
      next();
      unsigned maj = static_cast<unsigned>(std::stoul(std::string(v.text.substr(0, dot))));
      unsigned min = static_cast<unsigned>(std::stoul(std::string(v.text.substr(dot + 1))));
      if (maj > 255 || min > 255) fail(v, "version numbers must be at most 255");
      mod_.major = static_cast<uint8_t>(maj);
      mod_.minor = static_cast<uint8_t>(min);
      expectEol();
    } else if (n == "kernel" || n == "global_function" || n == "function") {
      finishKernel();
      const Token& name = peek();
      if (name.kind != Tok::String && name.kind != Tok::Ident)
        fail(name, fmt::format("expected kernel name, found {}", text::describe(name)));
      next();
      if (mod_.kernels.size() >= opts_.limits.maxKernels)
        limit(d, fmt::format("more than {} kernels and functions in one file (--max-kernels)", opts_.limits.maxKernels));
      mod_.kernels.emplace_back();
      k_ = &mod_.kernels.back();
      k_->name = std::string(name.text);
      k_->isFunction = n != "kernel";
      k_->loc = d.loc;
      syms_.clear();
      labels_.clear();
      expectEol();
    } else if (n == "decl") {
      needKernel(d);
      decl();
      expectEol();
    } else if (n == "input" || n.starts_with("implicit_")) {
      needKernel(d);
      input(n);
      expectEol();
    } else if (n == "kernel_attr") {
      needKernel(d);
      kernelAttr();
      // IGC's printer leaves out the newline after the last attribute: the
      // next statement may follow on the same line (spec-decisions T5).
    } else if (n == "funcdecl") {
      skipLine();
    } else {
      fail(d, fmt::format("unknown directive '.{}'", n));
    }
  }

  void finishKernel() { k_ = nullptr; }

  void define(const Token& name, Sym s) {
    if (syms_.size() >= opts_.limits.maxVars)
      limit(name, fmt::format("more than {} declarations in kernel '{}' (--max-vars)", opts_.limits.maxVars, k_->name));
    std::string key(name.text);
    if (syms_.count(key) || predefVarByName(key)) fail(name, fmt::format("redeclaration of '{}'", key));
    syms_.emplace(std::move(key), s);
  }

  std::vector<Attribute> attrList() {
    // attrs={a,b=3,c="s"}
    std::vector<Attribute> out;
    expectPunct('{', "to start the attribute list");
    while (!peek().is('}')) {
      const Token& n = expectIdent("attribute name");
      Attribute a;
      a.name = std::string(n.text);
      if (peek().is('=')) {
        next();
        attrValue(a);
      }
      out.push_back(std::move(a));
      if (peek().is(',')) next();
      else if (!peek().is('}')) fail(peek(), fmt::format("expected ',' or '}}' in attribute list, found {}", text::describe(peek())));
    }
    next();
    return out;
  }

  void attrValue(Attribute& a) {
    if (peek().kind == Tok::String) {
      a.kind = Attribute::Kind::Str;
      a.strVal = std::string(next().text);
      return;
    }
    bool neg = false;
    if (peek().is('-')) {
      next();
      neg = true;
    }
    const Token& t = peek();
    if (t.kind != Tok::Int) fail(t, fmt::format("expected attribute value, found {}", text::describe(t)));
    next();
    if (t.intVal > 0x7fffffffu + (neg ? 1u : 0u)) fail(t, "attribute value does not fit in 32 bits");
    a.kind = Attribute::Kind::Int;
    a.intVal = neg ? -static_cast<int64_t>(t.intVal) : static_cast<int64_t>(t.intVal);
  }

  void decl() {
    const Token& name = expectIdent("variable name");
    char vtype = 0;
    std::optional<Type> type;
    std::optional<uint64_t> numElts;
    unsigned align = 0;
    std::optional<std::pair<Token, uint64_t>> alias;
    std::optional<Token> vname;
    std::vector<Attribute> attrs;
    while (!atEol()) {
      const Token& key = expectIdent("declaration field");
      expectPunct('=', fmt::format("after '{}'", key.text));
      if (key.text == "v_type") {
        const Token& v = expectIdent("variable class (G, P, A, S or T)");
        if (v.text.size() != 1 || std::string_view("GPAST").find(v.text[0]) == std::string_view::npos)
          fail(v, fmt::format("unknown variable class '{}' (expected G, P, A, S or T)", v.text));
        vtype = v.text[0];
      } else if (key.text == "type") {
        const Token& t = expectIdent("type");
        type = parseTypeName(t.text);
        if (!type) fail(t, fmt::format("unknown type '{}'", t.text));
      } else if (key.text == "num_elts") {
        numElts = expectInt("num_elts", 0xffff);
      } else if (key.text == "align") {
        const Token& a = peek();
        if (a.kind != Tok::Ident && a.kind != Tok::Int) fail(a, "expected alignment");
        next();
        auto code = parseAlignName(a.text, opts_.grfSize);
        if (!code) fail(a, fmt::format("unknown alignment '{}'", a.text));
        align = *code;
      } else if (key.text == "alias") {
        expectPunct('<', "to start alias");
        Token base = expectIdent("alias base variable");
        expectPunct(',', "in alias");
        uint64_t off = expectInt("alias offset", 0xffff);
        expectPunct('>', "to end alias");
        alias = std::make_pair(base, off);
      } else if (key.text == "v_name") {
        vname = expectIdent("v_name");
      } else if (key.text == "attrs") {
        attrs = attrList();
      } else {
        fail(key, fmt::format("unknown declaration field '{}'", key.text));
      }
    }
    if (!vtype) fail(name, fmt::format("declaration of '{}' has no v_type", name.text));
    if (!numElts) fail(name, fmt::format("declaration of '{}' has no num_elts", name.text));
    if (vtype == 'G') {
      if (!type) fail(name, fmt::format("general variable '{}' has no type", name.text));
      GenVar v;
      v.name = std::string(name.text);
      v.type = *type;
      v.numElts = static_cast<uint16_t>(*numElts);
      v.align = static_cast<uint8_t>(align);
      v.attrs = std::move(attrs);
      v.loc = name.loc;
      if (alias) {
        uint32_t base = resolveGeneral(alias->first);
        v.aliasBase = base;
        v.aliasOffset = static_cast<uint16_t>(alias->second);
      }
      define(name, {Sym::Kind::Gen, static_cast<uint32_t>(kNumPredefVars + k_->vars.size())});
      k_->vars.push_back(std::move(v));
      return;
    }
    if (type) fail(name, fmt::format("'type=' is only for general variables"));
    if (alias) fail(alias->first, "'alias=' is only for general variables");
    SimpleVar s;
    s.name = std::string(vname ? vname->text : name.text);
    s.declName = std::string(name.text);
    s.numElts = static_cast<uint16_t>(*numElts);
    s.attrs = std::move(attrs);
    s.loc = name.loc;
    switch (vtype) {
      case 'P':
        define(name, {Sym::Kind::Pred, static_cast<uint32_t>(1 + k_->preds.size())});
        k_->preds.push_back(std::move(s));
        break;
      case 'A':
        define(name, {Sym::Kind::Addr, static_cast<uint32_t>(k_->addrs.size())});
        k_->addrs.push_back(std::move(s));
        break;
      case 'S':
        define(name, {Sym::Kind::Sampler, static_cast<uint32_t>(k_->samplers.size())});
        if (vname && vname->text != name.text) define(*vname, {Sym::Kind::Sampler, static_cast<uint32_t>(k_->samplers.size())});
        k_->samplers.push_back(std::move(s));
        break;
      default: {
        uint32_t id = static_cast<uint32_t>(kNumPredefSurfaces + k_->surfaces.size());
        define(name, {Sym::Kind::Surface, id});
        if (vname && vname->text != name.text) define(*vname, {Sym::Kind::Surface, id});
        k_->surfaces.push_back(std::move(s));
      }
    }
  }

  void input(std::string_view dir) {
    const Token& name = expectIdent("input variable name");
    Input in;
    in.loc = name.loc;
    if (dir.starts_with("implicit_")) in.implicitKind = 1;
    auto it = syms_.find(name.text);
    if (it == syms_.end()) fail(name, fmt::format("use of undeclared variable '{}'", name.text));
    switch (it->second.kind) {
      case Sym::Kind::Gen: in.cls = Input::Class::General; break;
      case Sym::Kind::Sampler: in.cls = Input::Class::Sampler; break;
      case Sym::Kind::Surface: in.cls = Input::Class::Surface; break;
      default: fail(name, fmt::format("'{}' cannot be a kernel input (only general, sampler and surface variables)", name.text));
    }
    in.id = it->second.id;
    bool haveSize = false;
    while (!atEol()) {
      const Token& key = expectIdent("'offset=' or 'size='");
      expectPunct('=', fmt::format("after '{}'", key.text));
      if (key.text == "offset") in.offset = static_cast<int16_t>(expectInt("input offset", 0x7fff));
      else if (key.text == "size") {
        in.size = static_cast<uint16_t>(expectInt("input size", 0xffff));
        haveSize = true;
      } else fail(key, fmt::format("unknown input field '{}'", key.text));
    }
    if (!haveSize) fail(name, fmt::format("input '{}' has no size", name.text));
    k_->inputs.push_back(in);
  }

  void kernelAttr() {
    const Token& n = expectIdent("attribute name");
    Attribute a;
    a.name = std::string(n.text);
    if (peek().is('=')) {
      next();
      attrValue(a);
    }
    k_->attrs.push_back(std::move(a));
  }

  uint32_t labelId(const Token& t) {
    auto [it, fresh] = labels_.emplace(std::string(t.text), static_cast<uint32_t>(k_->labels.size()));
    if (fresh) {
      LabelDecl l;
      l.name = std::string(t.text);
      l.loc = t.loc;
      k_->labels.push_back(std::move(l));
    }
    return it->second;
  }

  void labelDef() {
    const Token& name = next();
    next();  // ':'
    needKernel(name);
    uint32_t id = labelId(name);
    LabelDecl& l = k_->labels[id];
    if (l.defined) fail(name, fmt::format("redefinition of label '{}'", name.text));
    l.defined = true;
    l.loc = name.loc;
    Instruction inst;
    inst.op = Opcode::LABEL;
    inst.loc = name.loc;
    inst.f[0].kind = Operand::Kind::Label;
    inst.f[0].id = id;
    inst.f[0].loc = name.loc;
    pushInstruction(inst, name);
  }

  // ---- instructions ----
  void instruction() {
    Instruction inst;
    const Token& first = peek();
    needKernel(first);
    bool hasPred = false;
    SrcLoc predLoc;
    if (first.is('(')) {
      next();
      predLoc = peek().loc;
      if (peek().is('!')) {
        next();
        inst.pred.invert = true;
      }
      const Token& pv = expectIdent("predicate variable");
      inst.pred.id = static_cast<uint16_t>(resolvePred(pv));
      if (peek().is('.')) {
        next();
        const Token& c = expectIdent("'any' or 'all'");
        if (c.text == "any") inst.pred.control = 1;
        else if (c.text == "all") inst.pred.control = 2;
        else fail(c, fmt::format("unknown predicate control '.{}' (expected .any or .all)", c.text));
      }
      expectPunct(')', "after predicate");
      hasPred = true;
    }
    const Token& mn = peek();
    if (mn.kind != Tok::Ident) fail(mn, fmt::format("expected instruction, found {}", text::describe(mn)));
    next();
    const InstrDesc* desc = lookupMnemonic(mn.text);
    if (!desc || desc->op == Opcode::LABEL) fail(mn, fmt::format("unknown instruction '{}'", mn.text));
    inst.op = desc->op;
    inst.loc = mn.loc;
    if (hasPred && desc->find(FieldKind::Pred) < 0) {
      error(predLoc, fmt::format("'{}' cannot be predicated", desc->mnemonic));
      throw ParseError{};
    }
    suffixes(*desc, inst, mn);
    if (desc->find(FieldKind::ExecSize) >= 0) execSize(inst);
    const int numText = desc->numTextOperands();
    for (int pos = 0; pos < numText; ++pos) {
      int fi = desc->atTextPos(pos);
      if (atEol())
        fail(peek(), fmt::format("missing operand '{}' of '{}' (expected {} operands)", desc->fields[fi].name,
                                 desc->mnemonic, numText));
      inst.f[fi] = operand(desc->fields[fi]);
    }
    pushInstruction(inst, mn);
  }

  void pushInstruction(const Instruction& inst, const Token& at) {
    if (k_->code.size() >= opts_.limits.maxInstructions)
      limit(at, fmt::format("more than {} instructions in kernel '{}' (--max-instructions)", opts_.limits.maxInstructions, k_->name));
    k_->code.push_back(inst);
  }

  void suffixes(const InstrDesc& d, Instruction& inst, const Token& mn) {
    int suffixField = -1;
    for (int i = 0; i < d.numFields; ++i) {
      FieldKind k = d.fields[i].kind;
      if (k == FieldKind::RelOp || k == FieldKind::NumBlocks || k == FieldKind::ChannelMask) suffixField = i;
    }
    bool gotSuffix = false;
    while (peek().is('.')) {
      next();
      const Token& s = peek();
      if (s.kind != Tok::Ident && s.kind != Tok::Int) fail(s, fmt::format("expected suffix after '.', found {}", text::describe(s)));
      next();
      if (s.text == "sat" && d.sat) {
        inst.sat = true;
        continue;
      }
      if (suffixField < 0 || gotSuffix) fail(s, fmt::format("unexpected suffix '.{}' on '{}'", s.text, d.mnemonic));
      Operand& o = inst.f[suffixField];
      o.kind = Operand::Kind::Int;
      o.loc = s.loc;
      switch (d.fields[suffixField].kind) {
        case FieldKind::RelOp: {
          auto r = parseRelOp(s.text);
          if (!r) fail(s, fmt::format("unknown comparison '.{}' (expected eq, ne, gt, ge, lt or le)", s.text));
          o.value = *r;
          break;
        }
        case FieldKind::NumBlocks: {
          // Encoded as log2 (pages' Num_blocks tables); the verifier checks the range.
          if (s.kind != Tok::Int || (s.intVal != 1 && s.intVal != 2 && s.intVal != 4 && s.intVal != 8))
            fail(s, fmt::format("invalid block count '.{}' (expected 1, 2, 4 or 8)", s.text));
          o.value = static_cast<uint64_t>(std::countr_zero(s.intVal));
          break;
        }
        default: {
          auto m = parseChannelMask(s.text);
          if (!m) fail(s, fmt::format("invalid channel mask '.{}' (expected a non-empty subset of R, G, B, A in RGBA order)", s.text));
          o.value = *m;
        }
      }
      gotSuffix = true;
    }
    if (suffixField >= 0 && !gotSuffix) {
      const char* what = d.fields[suffixField].kind == FieldKind::RelOp       ? "a comparison suffix (.eq, .lt, ...)"
                         : d.fields[suffixField].kind == FieldKind::NumBlocks ? "a block-count suffix (.1, .2, .4)"
                                                                               : "a channel-mask suffix (.R, .RG, ...)";
      fail(mn, fmt::format("'{}' needs {}", d.mnemonic, what));
    }
  }

  void execSize(Instruction& inst) {
    expectPunct('(', "to start the execution size");
    uint8_t emask = 0;
    if (peek().kind == Tok::Ident) {
      const Token& m = next();
      std::string_view s = m.text;
      if (s == "NoMask") emask = 8;
      else if (s.size() >= 2 && s[0] == 'M' && s[1] >= '1' && s[1] <= '8' && (s.size() == 2 || s.substr(2) == "_NM"))
        emask = static_cast<uint8_t>((s[1] - '1') | (s.size() > 2 ? 8 : 0));
      else fail(m, fmt::format("unknown execution mask '{}' (expected M1..M8, M1_NM..M8_NM or NoMask)", s));
      expectPunct(',', "after the execution mask");
    }
    const Token& n = peek();
    if (n.kind != Tok::Int) fail(n, fmt::format("expected execution size, found {}", text::describe(n)));
    next();
    auto code = execCodeFromSize(static_cast<unsigned>(n.intVal > 64 ? 0 : n.intVal));
    if (!code || n.intVal > 64) fail(n, fmt::format("invalid execution size {} (expected 1, 2, 4, 8, 16 or 32)", n.text));
    expectPunct(')', "to end the execution size");
    inst.execCode = static_cast<uint8_t>(*code);
    inst.emask = emask;
  }

  Sym lookupSym(const Token& t) {
    auto it = syms_.find(t.text);
    if (it == syms_.end()) fail(t, fmt::format("use of undeclared variable '{}'", t.text));
    return it->second;
  }

  uint32_t resolveGeneral(const Token& t) {
    if (auto p = predefVarByName(t.text)) return *p;
    auto it = syms_.find(t.text);
    if (it == syms_.end()) {
      // Parse-mode names of predefined variables: V0..V31.
      if (t.text.size() > 1 && t.text[0] == 'V') {
        unsigned n = 0;
        bool digits = true;
        for (char c : t.text.substr(1)) {
          if (c < '0' || c > '9' || n > 1000) digits = false;
          else n = n * 10 + static_cast<unsigned>(c - '0');
        }
        if (digits && predefVar(n)) return n;
      }
      fail(t, fmt::format("use of undeclared variable '{}'", t.text));
    }
    if (it->second.kind != Sym::Kind::Gen) fail(t, fmt::format("'{}' is not a general variable", t.text));
    return it->second.id;
  }

  uint32_t resolvePred(const Token& t) {
    Sym s = lookupSym(t);
    if (s.kind != Sym::Kind::Pred) fail(t, fmt::format("'{}' is not a predicate variable", t.text));
    return s.id;
  }

  uint32_t resolveSurface(const Token& t) {
    auto it = syms_.find(t.text);
    if (it != syms_.end()) {
      if (it->second.kind != Sym::Kind::Surface) fail(t, fmt::format("'{}' is not a surface variable", t.text));
      return it->second.id;
    }
    if (auto p = predefSurfaceByName(t.text)) return *p;
    // T<id>: the name IGC's printer gives every surface.
    if (t.text.size() > 1 && t.text[0] == 'T') {
      unsigned n = 0;
      bool digits = true;
      for (char c : t.text.substr(1)) {
        if (c < '0' || c > '9' || n > 1000) digits = false;
        else n = n * 10 + static_cast<unsigned>(c - '0');
      }
      if (digits && k_->surface(n)) return n;
    }
    fail(t, fmt::format("use of undeclared surface '{}'", t.text));
  }

  Region region(bool dst) {
    Region r;
    expectPunct('<', "to start the region");
    auto val = [&](const char* what) -> uint8_t {
      const Token& t = peek();
      if (t.kind != Tok::Int) fail(t, fmt::format("expected {}, found {}", what, text::describe(t)));
      next();
      if (t.intVal > 32 || !regionCode(static_cast<unsigned>(t.intVal)))
        fail(t, fmt::format("invalid {} {} (expected 0, 1, 2, 4, 8, 16 or 32)", what, t.text));
      return static_cast<uint8_t>(t.intVal);
    };
    if (dst) {
      r.hs = val("horizontal stride");
    } else {
      r.vs = val("vertical stride");
      expectPunct(';', "after the vertical stride");
      r.w = val("width");
      expectPunct(',', "after the width");
      r.hs = val("horizontal stride");
    }
    expectPunct('>', "to end the region");
    return r;
  }

  Operand general(const Token& name, bool dst) {
    Operand o;
    o.kind = Operand::Kind::General;
    o.id = resolveGeneral(name);
    o.loc = name.loc;
    if (peek().is('(')) {
      next();
      o.row = static_cast<uint8_t>(expectInt("row offset", 255));
      expectPunct(',', "between row and column");
      o.col = static_cast<uint8_t>(expectInt("column offset", 255));
      expectPunct(')', "after the column offset");
    }
    o.region = region(dst);
    return o;
  }

  Operand immediate() {
    Operand o;
    o.kind = Operand::Kind::Immediate;
    o.loc = peek().loc;
    bool neg = false;
    if (peek().is('-')) {
      next();
      neg = true;
    }
    const Token& v = peek();
    if (v.kind != Tok::Int && v.kind != Tok::Float) fail(v, fmt::format("expected operand, found {}", text::describe(v)));
    next();
    expectPunct(':', "before the immediate's type");
    const Token& tt = expectIdent("immediate type");
    auto type = parseTypeName(tt.text);
    if (!type || *type == Type::BOOL) fail(tt, fmt::format("unknown immediate type '{}'", tt.text));
    o.type = *type;
    o.loc.len = tt.loc.col + tt.loc.len - o.loc.col;
    Type t = *type;
    if (t == Type::F || t == Type::DF) {
      double d;
      if (v.kind == Tok::Float) d = v.floatVal;
      else if (v.hex) {  // hex gives the bit pattern
        if (neg) fail(v, "a negative hexadecimal float immediate is not allowed");
        if (t == Type::F && v.intVal > 0xffffffffu) fail(v, "immediate does not fit in type f");
        o.value = v.intVal;
        return o;
      } else d = static_cast<double>(v.intVal);
      if (neg) d = -d;
      o.value = t == Type::F ? std::bit_cast<uint32_t>(static_cast<float>(d)) : std::bit_cast<uint64_t>(d);
      return o;
    }
    if (v.kind == Tok::Float) fail(v, fmt::format("a floating-point value needs type f or df, not {}", tt.text));
    if (t == Type::HF || t == Type::BF) {
      if (!v.hex || neg || v.intVal > 0xffff) fail(v, fmt::format("{} immediates are written as 16-bit hexadecimal", tt.text));
      o.value = v.intVal;
      return o;
    }
    uint64_t raw = neg ? (~v.intVal + 1) : v.intVal;
    unsigned bits = typeSize(t) * 8;
    if (t == Type::V || t == Type::UV || t == Type::VF) bits = 32;
    if (bits < 64) {
      // Fits if representable in the type, or as IGC prints narrow negatives:
      // sign-extended to 32 bits (0xffffffff:w).
      uint64_t mask = (uint64_t{1} << bits) - 1;
      int64_t sv = static_cast<int64_t>(raw);
      bool fitsUnsigned = !neg && raw <= mask;
      bool fitsSigned = neg ? sv >= -(int64_t{1} << (bits - 1)) : false;
      uint64_t trunc = raw & mask;
      uint64_t ext = (bits < 32 && isSigned(t) && (trunc >> (bits - 1)))
                         ? (trunc | (0xffffffffull & ~mask)) : trunc;
      bool fitsExt = !neg && bits < 32 && raw <= 0xffffffffu && ext == raw;
      if (!fitsUnsigned && !fitsSigned && !fitsExt)
        fail(v, fmt::format("immediate {}{} does not fit in type {}", neg ? "-" : "", v.text, tt.text));
      // Narrow integers are stored extended to 32 bits (igc-dialect.md §2.4).
      if (bits < 32) raw = isSigned(t) && (trunc >> (bits - 1)) ? (trunc | (0xffffffffull & ~mask)) : trunc;
      else raw &= mask;
    }
    o.value = raw;
    return o;
  }

  Mod modifier() {
    // (-), (abs), (-abs), (~) before a source operand.
    if (!peek().is('(')) return Mod::None;
    const Token& a = peek(1);
    Mod m;
    size_t len;
    if (a.is('-') && peek(2).is(')')) m = Mod::Neg, len = 3;
    else if (a.is('~') && peek(2).is(')')) m = Mod::Not, len = 3;
    else if (a.isIdent("abs") && peek(2).is(')')) m = Mod::Abs, len = 3;
    else if (a.is('-') && peek(2).isIdent("abs") && peek(3).is(')')) m = Mod::NegAbs, len = 4;
    else fail(peek(), "expected a source modifier: (-), (abs), (-abs) or (~)");
    p_ += len;
    return m;
  }

  Operand operand(const FieldDesc& f) {
    const Token& t = peek();
    switch (f.kind) {
      case FieldKind::Int8:
      case FieldKind::Int16: {
        Operand o;
        o.kind = Operand::Kind::Int;
        o.loc = t.loc;
        o.value = expectInt(f.name, f.kind == FieldKind::Int8 ? 255 : 0xffff);
        return o;
      }
      case FieldKind::Surface: {
        const Token& n = expectIdent("surface");
        Operand o;
        o.kind = Operand::Kind::Surface;
        o.id = resolveSurface(n);
        o.loc = n.loc;
        return o;
      }
      case FieldKind::Label: {
        const Token& n = expectIdent("label");
        Operand o;
        o.kind = Operand::Kind::Label;
        o.id = labelId(n);
        o.loc = n.loc;
        return o;
      }
      case FieldKind::Raw: {
        const Token& n = expectIdent("raw operand (VAR.offset)");
        Operand o;
        o.kind = Operand::Kind::Raw;
        o.id = resolveGeneral(n);
        o.loc = n.loc;
        expectPunct('.', "between the raw operand's variable and its byte offset");
        o.offset = static_cast<uint16_t>(expectInt("raw operand offset", 0xffff));
        o.loc.len = toks_[p_ - 1].loc.col + toks_[p_ - 1].loc.len - o.loc.col;
        return o;
      }
      case FieldKind::PredDst: {
        const Token& n = expectIdent("predicate variable");
        Operand o;
        o.kind = Operand::Kind::Predicate;
        o.id = resolvePred(n);
        o.loc = n.loc;
        return o;
      }
      default: break;
    }
    // Vector operands: dst, src, cmp dst.
    bool dst = f.kind == FieldKind::VecDst || f.kind == FieldKind::CmpDst;
    Mod mod = dst ? Mod::None : modifier();
    const Token& n = peek();
    if (n.kind == Tok::Ident) {
      next();
      auto it = syms_.find(n.text);
      if (it != syms_.end() && it->second.kind == Sym::Kind::Pred) {
        Operand o;
        o.kind = Operand::Kind::Predicate;
        o.id = it->second.id;
        o.loc = n.loc;
        o.mod = mod;
        return o;
      }
      Operand o = general(n, dst);
      o.mod = mod;
      return o;
    }
    if (dst) fail(n, fmt::format("expected destination operand, found {}", text::describe(n)));
    if (mod != Mod::None) fail(n, "a source modifier needs a variable operand");
    return immediate();
  }
};

}  // namespace

std::optional<Module> parseText(std::string_view source, Diagnostics& diags, const Options& opts, Module* partial) {
  Parser p(source, diags, opts);
  return p.run(partial);
}

}  // namespace visakit
