// Parser for .visaasm text in the dialect Intel's compiler prints
// (igc-dialect.md §1; chapter 8). Operands are parsed field by field as the
// instruction table describes them. Every error of the file is reported: on
// an error the rest of the line is skipped.
#include <algorithm>
#include <charconv>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

#include "support/memory.hpp"
#include "text/lexer.hpp"
#include "text/syntax.hpp"
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

// Name -> value hash map (open addressing). Keys are views of the source text,
// which outlives the parser.
template <class V>
class NameMap {
 public:
  const V* find(std::string_view k) const {
    if (slots_.empty()) return nullptr;
    for (size_t h = hash(k) & mask_;; h = (h + 1) & mask_) {
      const Slot& sl = slots_[h];
      if (!sl.key.data()) return nullptr;
      if (same(sl.key, k)) return &sl.val;
    }
  }
  // Adds k -> v unless k is present; the stored value and whether it was added.
  std::pair<V*, bool> insert(std::string_view k, V v) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    size_t h = hash(k) & mask_;
    for (; slots_[h].key.data(); h = (h + 1) & mask_)
      if (same(slots_[h].key, k)) return {&slots_[h].val, false};
    slots_[h] = {k, v};
    ++count_;
    return {&slots_[h].val, true};
  }
  size_t size() const { return count_; }
  void clear() {
    slots_ = {};
    count_ = 0;
    mask_ = 0;
  }

 private:
  struct Slot {
    std::string_view key;  // data() == nullptr: empty
    V val{};
  };
  std::vector<Slot> slots_;
  size_t count_ = 0, mask_ = 0;

  static bool same(std::string_view a, std::string_view b) {  // inline: names are short
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  static size_t hash(std::string_view k) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (char c : k) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& sl : old)
      if (sl.key.data()) {
        size_t h = hash(sl.key) & mask_;
        while (slots_[h].key.data()) h = (h + 1) & mask_;
        slots_[h] = sl;
      }
  }
};

// What the parser needs of an instruction's row, computed once per row.
struct ParseInfo {
  int8_t textField[kMaxFields];    // field index of each text operand
  int8_t numText = 0;
  int8_t suffixField[kMaxFields];  // field index of each ".x" suffix, in order
  int8_t numSuffix = 0;
  int8_t parenField = -1;          // a field written "(N)" where the execution size would be
  bool hasPred = false, hasExec = false;
};

const ParseInfo& parseInfo(const InstrDesc& d) {
  static const std::vector<ParseInfo> infos = [] {
    std::vector<ParseInfo> v;
    for (const InstrDesc& r : instructionTable()) {
      ParseInfo pi;
      pi.numText = static_cast<int8_t>(r.numTextOperands());
      for (int p = 0; p < pi.numText; ++p) pi.textField[p] = static_cast<int8_t>(r.atTextPos(p));
      for (int sfx = 0;; ++sfx) {
        int fi = -1;
        for (int i = 0; i < r.numFields; ++i)
          if (r.fields[i].suffix == sfx) fi = i;
        if (fi < 0) break;
        pi.suffixField[pi.numSuffix++] = static_cast<int8_t>(fi);
      }
      for (int i = 0; i < r.numFields; ++i)
        if (r.fields[i].flags & kParen) pi.parenField = static_cast<int8_t>(i);
      pi.hasPred = r.find(FieldKind::Pred) >= 0;
      pi.hasExec = r.find(FieldKind::ExecSize) >= 0;
      v.push_back(pi);
    }
    return v;
  }();
  return infos[rowIndex(d)];
}

class Parser;

// The parser as a custom syntax sees it (text/syntax.hpp).
class Reader final : public text::TextReader {
 public:
  explicit Reader(Parser& p) : p_(p) {}
  const Token& peek(size_t ahead) override;
  const Token& next() override;
  bool atEol() override;
  [[noreturn]] void fail(const Token& t, const std::string& msg) override;
  void expectPunct(char c, std::string_view what) override;
  const Token& expectIdent(std::string_view what) override;
  uint64_t expectInt(std::string_view what, uint64_t max) override;
  void field(const FieldDesc& f, Operand& o) override;
  void execSize(Instruction& inst) override;
  uint32_t generalVar(const Token& name) override;
  uint32_t surfaceVar(const Token& name) override;
  bool variable(const Token& name, char& cls, uint32_t& id) override;
  Kernel& kernel() override;

 private:
  Parser& p_;
};

class Parser {
  friend class Reader;

 public:
  Parser(std::string_view src, Diagnostics& d, const Options& o) : src_(src), lexer_(src, d), diags_(d), opts_(o) {
    if (src.size() > o.limits.maxFileBytes) {
      d.error({}, fmt::format("input is {} bytes, over the limit of {} (--max-file-size)", src.size(), o.limits.maxFileBytes));
      tooBig_ = true;
      return;
    }
    setLine(lexer_.line());
  }

  std::optional<Module> run(Module* partial) {
    if (tooBig_) return std::nullopt;
    mod_.grfSize = opts_.grfSize;
    bool versionSeen = false;
    while (peek().kind != Tok::End) {
      if (peek().kind == Tok::Newline) {
        nextLine();
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
      if (diags_.errorCount() + pending_.size() > Diagnostics::kErrorLimit) {
        // (binary bytes read as text: an error on every line)
        stopped_ = true;
        break;
      }
    }
    if (stopped_) {
      diags_.note(peek().loc, "too many errors: visakit stops reading the file here");
      for (auto& [loc, msg] : pending_) diags_.error(loc, std::move(msg));
      if (partial) *partial = std::move(mod_);
      return std::nullopt;
    }
    finishKernel();
    if (!versionSeen) error(peek().loc, "expected '.version' directive");
    // The whole file is lexed first in effect: every lexical error is
    // reported, before the parse errors.
    while (last_->kind != Tok::End) setLine(lexer_.line());
    for (auto& [loc, msg] : pending_) diags_.error(loc, std::move(msg));
    if (diags_.hasErrors()) {
      if (partial) *partial = std::move(mod_);
      return std::nullopt;
    }
    return std::move(mod_);
  }

 private:
  std::string_view src_;
  text::Lexer lexer_;
  // The current line's tokens (the lexer's buffer): the current one and the
  // last one, the line's Newline / End.
  const Token* cur_ = nullptr;
  const Token* last_ = nullptr;
  Token lineEnd_;  // next()'s copy of a Newline it moved past
  bool tooBig_ = false;
  bool stopped_ = false;  // more than Diagnostics::kErrorLimit errors: the rest of the file is not read
  Diagnostics& diags_;
  std::vector<std::pair<SrcLoc, std::string>> pending_;  // parse errors, reported after the lexical ones
  Options opts_;
  Module mod_;
  Kernel* k_ = nullptr;
  NameMap<Sym> syms_;
  NameMap<uint32_t> labels_;
  int64_t pendingFunction_ = -1;  // the label a '.function' just defined

  // ---- token helpers ----
  // Lookahead never needs to pass the end of the line: every peek(o) follows
  // checks that the tokens before it are not the line's end.
  const Token& peek() const { return *cur_; }
  const Token& peek(size_t o) const { return o <= static_cast<size_t>(last_ - cur_) ? cur_[o] : *last_; }
  const Token& next() {
    const Token* t = cur_;
    if (t != last_) {
      ++cur_;
      return *t;
    }
    if (t->kind == Tok::Newline) {  // not reached: statements never consume their Newline
      lineEnd_ = *t;
      nextLine();
      return lineEnd_;
    }
    return *t;
  }
  void setLine(std::span<const Token> toks) {
    cur_ = toks.data();
    last_ = &toks.back();
  }
  // Moves past the current line's Newline: lexes the next line.
  void nextLine() { setLine(lexer_.line()); }
  bool atEol() const { return cur_ == last_; }  // Newline and End only end lines
  void skipLine() { cur_ = last_; }
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const Token& t, const std::string& msg) {
    error(t.loc, msg);
    throw ParseError{};
  }
  void error(SrcLoc loc, std::string msg) { pending_.emplace_back(loc, std::move(msg)); }
  [[noreturn, gnu::cold, gnu::noinline]] void limit(const Token& t, const std::string& msg) {
    error(t.loc, msg);
    throw LimitError{};
  }
  // The expect* helpers: the token is never the line's last one when it matches.
  void expectPunct(char c, std::string_view what) {
    if (!cur_->is(c)) [[unlikely]] failExpected(c, what);
    ++cur_;
  }
  // (`what` formatted with arg only when the punctuation is missing)
  void expectPunct(char c, fmt::format_string<std::string_view> what, std::string_view arg) {
    if (!cur_->is(c)) [[unlikely]] failExpected(c, fmt::vformat(what, fmt::make_format_args(arg)));
    ++cur_;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void failExpected(char c, std::string_view what) {
    fail(peek(), fmt::format("expected '{}' {}, found {}", c, what, text::describe(peek())));
  }
  const Token& expectIdent(std::string_view what) {
    if (cur_->kind != Tok::Ident) [[unlikely]] failExpected(what);
    return *cur_++;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void failExpected(std::string_view what) {
    fail(peek(), fmt::format("expected {}, found {}", what, text::describe(peek())));
  }
  uint64_t expectInt(std::string_view what, uint64_t max) {
    bool neg = false;
    if (cur_->is('-')) {
      ++cur_;
      neg = true;
    }
    const Token& t = *cur_;
    if (t.kind != Tok::Int) [[unlikely]] failExpected(what);
    ++cur_;
    if (neg || t.intVal > max) [[unlikely]] failRange(t, what, max, neg);
    return t.intVal;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void failRange(const Token& t, std::string_view what, uint64_t max, bool neg) {
    fail(t, fmt::format("{} must be in the range [0, {}], found {}{}", what, max, neg ? "-" : "", t.text));
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
      if (peek(1).isIdent("loc") || peek(1).isIdent("file")) {  // LOC / FILE (CISA.l: .loc, .file)
        next();
        pendingFunction_ = -1;
        instruction();
        expectEol();
        return;
      }
      directive();
      return;
    }
    if (t.is('{') || t.is('}')) {  // declaration scopes: names stay kernel-wide
      next();
      return;
    }
    if (t.kind == Tok::Ident && peek(1).is(':') && (!lookupMnemonic(t.text) || lookupMnemonic(t.text)->syntax == Syntax::Label)) {
      labelDef();
      return;
    }
    pendingFunction_ = -1;
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
    } else if (n == "function" && k_) {
      subroutine(d);
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
    } else if (n == "input" || n == "parameter" || n.starts_with("implicit_")) {
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

  void finishKernel() {
    // Give back what growCode over-estimated.
    if (k_ && k_->code.capacity() >= 4096 && k_->code.capacity() > 2 * k_->code.size()) k_->code.shrink_to_fit();
    k_ = nullptr;
  }

  void define(const Token& name, Sym s) {
    if (syms_.size() >= opts_.limits.maxVars)
      limit(name, fmt::format("more than {} declarations in kernel '{}' (--max-vars)", opts_.limits.maxVars, k_->name));
    if (syms_.find(name.text) || predefVarByName(name.text)) fail(name, fmt::format("redeclaration of '{}'", name.text));
    syms_.insert(name.text, s);
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
      expectPunct('=', "after '{}'", key.text);
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
    if (dir.starts_with("implicit_")) {  // IGC's input_info_t::getImplicitKindString names (Common_ISA.h)
      std::string_view kind = dir.substr(9);
      if (kind == "LOCAL_SIZE") in.implicitKind = 1;
      else if (kind == "GROUP_COUNT") in.implicitKind = 2;
      else if (kind == "LOCAL_ID") in.implicitKind = 3;
      else if (kind == "PSEUDO_INPUT") in.implicitKind = 0x10;
      else if (unsigned v = 0; kind.starts_with("UNDEFINED_") &&
               std::from_chars(kind.data() + 10, kind.data() + kind.size(), v).ptr == kind.data() + kind.size() && v > 0 && v < 32)
        in.implicitKind = static_cast<uint8_t>(v);
      else
        fail(name, fmt::format("unknown implicit input kind '.{}' (expected .implicit_LOCAL_SIZE, GROUP_COUNT, LOCAL_ID, "
                               "PSEUDO_INPUT or UNDEFINED_<1-31>)", dir));
    }
    const Sym* it = syms_.find(name.text);
    if (!it) fail(name, fmt::format("use of undeclared variable '{}'", name.text));
    switch (it->kind) {
      case Sym::Kind::Gen: in.cls = Input::Class::General; break;
      case Sym::Kind::Sampler: in.cls = Input::Class::Sampler; break;
      case Sym::Kind::Surface: in.cls = Input::Class::Surface; break;
      default: fail(name, fmt::format("'{}' cannot be a kernel input (only general, sampler and surface variables)", name.text));
    }
    in.id = it->id;
    bool haveSize = false;
    while (!atEol()) {
      const Token& key = expectIdent("'offset=' or 'size='");
      expectPunct('=', "after '{}'", key.text);
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
    auto [id, fresh] = labels_.insert(t.text, static_cast<uint32_t>(k_->labels.size()));
    if (fresh) {
      LabelDecl l;
      l.name = std::string(t.text);
      l.loc = t.loc;
      k_->labels.push_back(std::move(l));
    }
    return *id;
  }

  void labelDef() {
    const Token& name = next();
    next();  // ':'
    needKernel(name);
    uint32_t id = labelId(name);
    LabelDecl& l = k_->labels[id];
    // IGC prints a subroutine as '.function "NAME"' then 'NAME:' (one
    // instruction; its reader skips the label too, spec-decisions T9).
    if (l.defined && l.kind == 1 && pendingFunction_ == static_cast<int64_t>(id)) {
      pendingFunction_ = -1;
      return;
    }
    pendingFunction_ = -1;
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

  // .function "NAME": the SUBROUTINE instruction, which starts subroutine NAME.
  void subroutine(const Token& d) {
    const Token& name = peek();
    if (name.kind != Tok::String && name.kind != Tok::Ident)
      fail(name, fmt::format("expected function name, found {}", text::describe(name)));
    // The name is also the subroutine's label ('NAME:' after it), so it must read as one.
    if (!text::isIdentifier(name.text))
      fail(name, fmt::format("function name '{}' is not an identifier (it is also the subroutine's label)", name.text));
    next();
    uint32_t id = labelId(name);
    LabelDecl& l = k_->labels[id];
    if (l.defined) fail(name, fmt::format("redefinition of label '{}'", name.text));
    l.defined = true;
    l.kind = 1;
    l.loc = name.loc;
    Instruction inst;
    inst.op = Opcode::SUBROUTINE;
    inst.loc = d.loc;
    inst.f[0].kind = Operand::Kind::Label;
    inst.f[0].id = id;
    inst.f[0].loc = name.loc;
    pushInstruction(inst, name);
    pendingFunction_ = id;
    expectEol();
  }

  // ---- instructions ----
  void instruction() {
    needKernel(peek());
    std::vector<Instruction>& code = k_->code;
    if (code.size() >= opts_.limits.maxInstructions) {  // its errors first, then the limit's
      Instruction inst;
      const Token& mn = instructionInto(inst);
      pushInstruction(inst, mn);
      return;
    }
    // Parsed in place: no copy of the instruction.
    if (code.size() == code.capacity() && code.size() >= 1024) growCode(code);
    static const Instruction kBlank{};
    Instruction& inst = code.emplace_back(kBlank);  // a copy: cheaper than member-wise initialization
    try {
      instructionInto(inst);
    } catch (...) {
      code.pop_back();
      throw;
    }
  }

  // Parses the instruction statement into `inst` (default-initialized); returns the mnemonic.
  const Token& instructionInto(Instruction& inst) {
    bool hasPred = false;
    SrcLoc predLoc;
    if (peek().is('(')) {
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
    if (!desc || desc->syntax == Syntax::Label || desc->syntax == Syntax::Function) fail(mn, fmt::format("unknown instruction '{}'", mn.text));
    const ParseInfo& info = parseInfo(*desc);
    inst.op = desc->op;
    inst.subOp = desc->subOp;
    inst.f.resize(desc->numFields);  // (references to its fields stay valid while it is parsed)
    inst.loc = mn.loc;
    if (const text::CustomSyntax* cs = text::customSyntax(desc->syntax)) {
      if (hasPred && !info.hasPred) {
        error(predLoc, fmt::format("'{}' cannot be predicated", desc->mnemonic));
        throw ParseError{};
      }
      Reader r(*this);
      cs->parse(r, *desc, inst, mn);
      return mn;
    }
    if (hasPred && !info.hasPred) {
      error(predLoc, fmt::format("'{}' cannot be predicated", desc->mnemonic));
      throw ParseError{};
    }
    if (desc->subOp >= 0) {
      int si = desc->find(FieldKind::SubOp);
      inst.f[si].kind = Operand::Kind::Int;
      inst.f[si].value = static_cast<uint64_t>(desc->subOp);
      inst.f[si].loc = mn.loc;
    }
    if (info.numSuffix > 0 || peek().is('.')) suffixes(*desc, info, inst, mn);
    if (info.parenField >= 0) {
      expectPunct('(', "to start the {}", desc->fields[info.parenField].name);
      operand(desc->fields[info.parenField], inst.f[info.parenField]);
      expectPunct(')', "to end the {}", desc->fields[info.parenField].name);
    }
    if (info.hasExec) execSize(inst);
    const int numText = info.numText;
    for (int pos = 0; pos < numText; ++pos) {
      int fi = info.textField[pos];
      if (atEol())
        fail(peek(), fmt::format("missing operand '{}' of '{}' (expected {} operands)", desc->fields[fi].name,
                                 desc->mnemonic, numText));
      operand(desc->fields[fi], inst.f[fi]);
    }
    return mn;
  }

  void pushInstruction(const Instruction& inst, const Token& at) {
    std::vector<Instruction>& code = k_->code;
    if (code.size() >= opts_.limits.maxInstructions)
      limit(at, fmt::format("more than {} instructions in kernel '{}' (--max-instructions)", opts_.limits.maxInstructions, k_->name));
    if (code.size() == code.capacity() && code.size() >= 1024) growCode(code);
    code.push_back(inst);
  }

  // A big kernel's code grows to about its final size in one step (the lines
  // left in the kernel that may hold an instruction, at most 128 times the
  // current size) rather than by doubling, which copies and over-allocates.
  // Reserved pages are not touched unless used; finishKernel gives back an
  // over-estimate.
  void growCode(std::vector<Instruction>& code) {
    // + 1: the instruction being added, on the current line.
    size_t want = code.size() + 1 + instructionLinesAhead(src_, lexer_.offset(), code.size() * 128);
    want = std::min<size_t>(want, opts_.limits.maxInstructions);
    if (want <= code.capacity() * 2) return;
    std::vector<Instruction> fresh;
    fresh.reserve(want);
    adviseHugePages(fresh.data(), want * sizeof(Instruction));  // before the pages are touched
    fresh.insert(fresh.end(), std::make_move_iterator(code.begin()), std::make_move_iterator(code.end()));
    code.swap(fresh);
  }

  // Lines from `pos` up to the next kernel or function directive whose first
  // character is not '.' or '/' (an estimate; counting stops at `max`).
  static size_t instructionLinesAhead(std::string_view s, size_t pos, size_t max) {
    size_t n = 0;
    while (pos < s.size() && n < max) {
      size_t end = s.find('\n', pos);
      if (end == std::string_view::npos) end = s.size();
      while (pos < end && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r')) ++pos;
      if (pos < end) {
        if (s[pos] == '.') {
          std::string_view d = s.substr(pos + 1, end - pos - 1);
          if ((d.starts_with("kernel") && !d.starts_with("kernel_attr")) || d.starts_with("function") ||
              d.starts_with("global_function"))
            break;
        } else if (s[pos] != '/') {
          ++n;
        }
      }
      pos = end + 1;
    }
    return n;
  }

  // The ".x" suffixes after the mnemonic: .sat, then the row's suffix fields in
  // order. "4.1" lexes as one number: its parts are two suffixes.
  void suffixes(const InstrDesc& d, const ParseInfo& info, Instruction& inst, const Token& mn) {
    int nextSfx = 0;
    while (peek().is('.')) {
      next();
      const Token& s = peek();
      if (s.kind != Tok::Ident && s.kind != Tok::Int && s.kind != Tok::Float)
        fail(s, fmt::format("expected suffix after '.', found {}", text::describe(s)));
      next();
      std::string_view text = s.text;
      while (!text.empty()) {
        size_t dot = s.kind == Tok::Float ? text.find('.') : std::string_view::npos;
        std::string_view part = text.substr(0, dot);
        text = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
        if (part == "sat" && d.sat && !inst.sat) {
          inst.sat = true;
          continue;
        }
        if (nextSfx >= info.numSuffix) fail(s, fmt::format("unexpected suffix '.{}' on '{}'", part, d.mnemonic));
        int fi = info.suffixField[nextSfx++];
        suffixValue(d, d.fields[fi], s, part, inst.f[fi]);
      }
    }
    if (nextSfx < info.numSuffix) {
      const FieldDesc& f = d.fields[info.suffixField[nextSfx]];
      fail(mn, fmt::format("'{}' needs a {} suffix ({})", d.mnemonic, f.name, suffixChoices(f)));
    }
  }

  static std::string suffixChoices(const FieldDesc& f) {
    std::string r;
    if (f.names)
      for (unsigned i = 0; i < f.names->count && i < 8; ++i) r += (r.empty() ? "." : ", .") + std::string(f.names->names[i].text);
    if (f.names && f.names->count > 8) r += ", ...";
    return r.empty() ? "a number" : r;
  }

  void suffixValue(const InstrDesc& d, const FieldDesc& f, const Token& s, std::string_view part, Operand& o) {
    o.kind = Operand::Kind::Int;
    o.loc = s.loc;
    if (f.names) {
      auto v = f.names->valueOf(part);
      if (!v) fail(s, fmt::format("invalid {} '.{}' on '{}' (expected {})", f.name, part, d.mnemonic, suffixChoices(f)));
      o.value = *v;
      return;
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || ptr != part.data() + part.size())
      fail(s, fmt::format("invalid {} '.{}' on '{}' (expected a number)", f.name, part, d.mnemonic));
    o.value = v;
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
    const uint64_t size = n.intVal;
    if (size == 0 || size > 32 || (size & (size - 1)) != 0)  // 1, 2, 4, 8, 16 or 32
      fail(n, fmt::format("invalid execution size {} (expected 1, 2, 4, 8, 16 or 32)", n.text));
    expectPunct(')', "to end the execution size");
    inst.execCode = static_cast<uint8_t>(std::countr_zero(size));
    inst.emask = emask;
  }

  Sym lookupSym(const Token& t) {
    const Sym* it = syms_.find(t.text);
    if (!it) fail(t, fmt::format("use of undeclared variable '{}'", t.text));
    return *it;
  }

  uint32_t resolveGeneral(const Token& t) { return resolveGeneral(t, syms_.find(t.text)); }
  // `it`: the name's symbol (nullptr if none). Predefined names are never symbols.
  uint32_t resolveGeneral(const Token& t, const Sym* it) {
    if (it) {
      if (it->kind != Sym::Kind::Gen) fail(t, fmt::format("'{}' is not a general variable", t.text));
      return it->id;
    }
    if (auto p = predefVarByName(t.text)) return *p;
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

  uint32_t resolvePred(const Token& t) {
    Sym s = lookupSym(t);
    if (s.kind != Sym::Kind::Pred) fail(t, fmt::format("'{}' is not a predicate variable", t.text));
    return s.id;
  }

  uint32_t resolveSurface(const Token& t) {
    if (const Sym* it = syms_.find(t.text)) {
      if (it->kind != Sym::Kind::Surface) fail(t, fmt::format("'{}' is not a surface variable", t.text));
      return it->id;
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

  // vxh: an indirect source may also be <width,hs> (VxH: one address element per `width` lanes). Also the page's
  // <;width,hstride> (chapter 5 "Indirect Operands").
  Region region(bool dst, bool vxh = false) {
    Region r;
    expectPunct('<', "to start the region");
    auto val = [&](const char* what) -> uint8_t {
      const Token& t = peek();
      if (t.kind != Tok::Int) fail(t, fmt::format("expected {}, found {}", what, text::describe(t)));
      next();
      if (t.intVal > 32 || (t.intVal & (t.intVal - 1)) != 0)  // 0, 1, 2, 4, 8, 16 or 32
        fail(t, fmt::format("invalid {} {} (expected 0, 1, 2, 4, 8, 16 or 32)", what, t.text));
      return static_cast<uint8_t>(t.intVal);
    };
    if (dst) {
      r.hs = val("horizontal stride");
    } else if (vxh && peek().is(';')) {  // <;width,hs>
      next();
      r.w = val("width");
      expectPunct(',', "after the width");
      r.hs = val("horizontal stride");
    } else {
      r.vs = val("vertical stride");
      if (vxh && peek().is(',')) {  // <width,hs>
        next();
        r.w = r.vs;
        r.vs = kRegionNull;
        if (r.w == 32) fail(cur_[-2], "invalid width 32 (expected 1, 2, 4, 8 or 16)");
        r.hs = val("horizontal stride");
        expectPunct('>', "to end the region");
        return r;
      }
      expectPunct(';', "after the vertical stride");
      r.w = val("width");
      expectPunct(',', "after the width");
      r.hs = val("horizontal stride");
    }
    expectPunct('>', "to end the region");
    return r;
  }

  // The operand parsers fill `o`, a default-initialized operand.
  void general(const Token& name, const Sym* sym, bool dst, Operand& o) {
    o.kind = Operand::Kind::General;
    o.id = resolveGeneral(name, sym);
    o.loc = name.loc;
    if (peek().is('(')) {
      next();
      o.row = static_cast<uint8_t>(expectInt("row offset", 255));
      expectPunct(',', "between row and column");
      o.col = static_cast<uint8_t>(expectInt("column offset", 255));
      expectPunct(')', "after the column offset");
    }
    o.region = region(dst);
  }

  void immediate(Operand& o) {
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
        return;
      } else d = static_cast<double>(v.intVal);
      if (neg) d = -d;
      o.value = t == Type::F ? std::bit_cast<uint32_t>(static_cast<float>(d)) : std::bit_cast<uint64_t>(d);
      return;
    }
    if (v.kind == Tok::Float) fail(v, fmt::format("a floating-point value needs type f or df, not {}", tt.text));
    if (t == Type::HF || t == Type::BF) {
      if (!v.hex || neg || v.intVal > 0xffff) fail(v, fmt::format("{} immediates are written as 16-bit hexadecimal", tt.text));
      o.value = v.intVal;
      return;
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
    cur_ += len;
    return m;
  }

  uint32_t resolveSampler(const Token& t) {
    if (const Sym* it = syms_.find(t.text)) {
      if (it->kind != Sym::Kind::Sampler) fail(t, fmt::format("'{}' is not a sampler variable", t.text));
      return it->id;
    }
    if (t.text == "S31") return 31;  // the predefined bindless sampler (igc-dialect.md §1.2)
    fail(t, fmt::format("use of undeclared sampler '{}'", t.text));
  }

  uint32_t resolveAddr(const Token& t, const Sym* it) {
    if (!it || it->kind != Sym::Kind::Addr) fail(t, fmt::format("'{}' is not an address variable", t.text));
    return it->id;
  }

  void operand(const FieldDesc& f, Operand& o) {
    const Token& t = peek();
    switch (f.kind) {
      case FieldKind::Int: {
        o.kind = Operand::Kind::Int;
        o.loc = t.loc;
        uint64_t max = f.width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.width)) - 1;
        if ((f.flags & kSigned) && peek().is('-')) {
          next();
          const Token& n = peek();
          uint64_t mag = expectInt(f.name, max / 2 + 1);
          o.value = (~mag + 1) & max;
          o.loc.len = n.loc.col + n.loc.len - o.loc.col;
          return;
        }
        o.value = expectInt(f.name, max);
        return;
      }
      case FieldKind::Enum: {
        o.kind = Operand::Kind::Int;
        o.loc = t.loc;
        if (f.names && t.kind == Tok::Ident) {
          next();
          auto v = f.names->valueOf(t.text);
          if (!v) fail(t, fmt::format("invalid {} '{}' (expected {})", f.name, t.text, suffixChoices(f)));
          o.value = *v;
          return;
        }
        uint64_t max = f.width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.width)) - 1;
        o.value = expectInt(f.name, max);
        return;
      }
      case FieldKind::Surface: {
        const Token& n = expectIdent("surface");
        o.kind = Operand::Kind::Surface;
        o.id = resolveSurface(n);
        o.loc = n.loc;
        return;
      }
      case FieldKind::Sampler: {
        const Token& n = expectIdent("sampler");
        o.kind = Operand::Kind::Sampler;
        o.id = resolveSampler(n);
        o.loc = n.loc;
        return;
      }
      case FieldKind::Label: {
        const Token& n = expectIdent("label");
        o.kind = Operand::Kind::Label;
        o.id = labelId(n);
        o.loc = n.loc;
        return;
      }
      case FieldKind::Raw: {
        const Token& n = expectIdent("raw operand (VAR.offset)");
        o.kind = Operand::Kind::Raw;
        o.id = resolveGeneral(n);
        o.loc = n.loc;
        expectPunct('.', "between the raw operand's variable and its byte offset");
        o.offset = static_cast<uint16_t>(expectInt("raw operand offset", 0xffff));
        o.loc.len = cur_[-1].loc.col + cur_[-1].loc.len - o.loc.col;
        return;
      }
      case FieldKind::Vec: vector(f, o); return;
      case FieldKind::String: {  // a file or function name: a string literal or an identifier
        if (t.kind != Tok::String && t.kind != Tok::Ident) failExpected(f.name);
        next();
        o.kind = Operand::Kind::Int;
        o.loc = t.loc;
        o.value = k_->strings.size();
        k_->strings.emplace_back(t.text);
        return;
      }
      default: fail(t, fmt::format("field '{}' has no text form", f.name));
    }
  }

  // A vector operand of any class (chapter 5; chapter 8 "Operands"):
  //   [mod] V(r,c)<region> | A0(off)<w> | P1 | [mod] r[A0(off),imm]<region>:type
  //   | &V[off] | T6(off) | value:type
  void vector(const FieldDesc& f, Operand& o) {
    bool dst = f.access == Access::Write || f.access == Access::ReadWrite;
    Mod mod = dst ? Mod::None : modifier();
    const Token& n = peek();
    o.loc = n.loc;
    if (n.is('&')) {  // address of a variable: &V, &V[off], &V+off
      next();
      const Token& v = expectIdent("variable after '&'");
      o.kind = Operand::Kind::AddressOf;
      const Sym* it = syms_.find(v.text);
      if (it && (it->kind == Sym::Kind::Surface || it->kind == Sym::Kind::Sampler)) {
        o.id = it->id;
        o.row = it->kind == Sym::Kind::Surface ? 1 : 2;
      } else {
        o.id = resolveGeneral(v, it);
      }
      if (peek().is('[')) {
        next();
        o.offset = static_cast<uint16_t>(expectInt("address-of offset", 0xffff));
        expectPunct(']', "after the address-of offset");
      } else if (peek().is('+')) {
        next();
        o.offset = static_cast<uint16_t>(expectInt("address-of offset", 0xffff));
      }
      o.loc.len = cur_[-1].loc.col + cur_[-1].loc.len - o.loc.col;
      return;
    }
    if (n.isIdent("r") && peek(1).is('[')) {  // indirect: r[A0(off), imm]<region>:type
      next();
      next();
      const Token& a = expectIdent("address variable");
      o.kind = Operand::Kind::Indirect;
      o.mod = mod;
      o.id = resolveAddr(a, syms_.find(a.text));
      expectPunct('(', "after the address variable");
      o.col = static_cast<uint8_t>(expectInt("address element", 255));
      expectPunct(')', "after the address element");
      expectPunct(',', "before the indirect offset");
      bool neg = false;
      if (peek().is('-')) {
        next();
        neg = true;
      }
      uint64_t off = expectInt("indirect offset", neg ? 0x8000 : 0x7fff);
      o.value = (neg ? (~off + 1) : off) & 0xffff;
      expectPunct(']', "after the indirect offset");
      o.region = region(dst, true);
      expectPunct(':', "before the indirect operand's type");
      const Token& tt = expectIdent("type");
      auto ty = parseTypeName(tt.text);
      if (!ty) fail(tt, fmt::format("unknown type '{}'", tt.text));
      o.type = *ty;
      o.loc.len = tt.loc.col + tt.loc.len - o.loc.col;
      return;
    }
    if (n.kind == Tok::Ident) {
      next();
      const Sym* it = syms_.find(n.text);
      if (it && it->kind == Sym::Kind::Pred) {
        o.kind = Operand::Kind::Predicate;
        o.id = it->id;
        o.mod = mod;
        return;
      }
      if (it && it->kind == Sym::Kind::Addr) {  // A0(off)<width>
        o.kind = Operand::Kind::Address;
        o.id = it->id;
        expectPunct('(', "after the address variable");
        o.col = static_cast<uint8_t>(expectInt("address element", 255));
        expectPunct(')', "after the address element");
        if (peek().is('<')) {
          next();
          o.region.w = static_cast<uint8_t>(expectInt("address width", 32));
          expectPunct('>', "after the address width");
        } else {
          o.region.w = 1;
        }
        return;
      }
      bool state = (it && (it->kind == Sym::Kind::Surface || it->kind == Sym::Kind::Sampler)) ||
                   (!it && peek().is('(') && (predefSurfaceByName(n.text) || isNumbered(n.text, 'T')));
      if (state) {  // T6(off): a surface's state
        o.kind = Operand::Kind::State;
        if (it && it->kind == Sym::Kind::Sampler) {
          o.id = it->id;
          o.row = 1;
        } else {
          o.id = resolveSurface(n);
        }
        expectPunct('(', "after the surface");
        o.col = static_cast<uint8_t>(expectInt("state element", 255));
        expectPunct(')', "after the state element");
        return;
      }
      general(n, it, dst, o);
      o.mod = mod;
      return;
    }
    if (dst) fail(n, fmt::format("expected destination operand, found {}", text::describe(n)));
    if (mod != Mod::None) fail(n, "a source modifier needs a variable operand");
    immediate(o);
  }

  static bool isNumbered(std::string_view s, char c) {
    if (s.size() < 2 || s[0] != c) return false;
    for (char x : s.substr(1))
      if (x < '0' || x > '9') return false;
    return true;
  }
};

const Token& Reader::peek(size_t ahead) { return p_.peek(ahead); }
const Token& Reader::next() { return p_.next(); }
bool Reader::atEol() { return p_.atEol(); }
void Reader::fail(const Token& t, const std::string& msg) { p_.fail(t, msg); }
void Reader::expectPunct(char c, std::string_view what) { p_.expectPunct(c, what); }
const Token& Reader::expectIdent(std::string_view what) { return p_.expectIdent(what); }
uint64_t Reader::expectInt(std::string_view what, uint64_t max) { return p_.expectInt(what, max); }
void Reader::field(const FieldDesc& f, Operand& o) { p_.operand(f, o); }
void Reader::execSize(Instruction& inst) { p_.execSize(inst); }
uint32_t Reader::generalVar(const Token& name) { return p_.resolveGeneral(name); }
uint32_t Reader::surfaceVar(const Token& name) { return p_.resolveSurface(name); }
bool Reader::variable(const Token& name, char& cls, uint32_t& id) {
  if (const Sym* s = p_.syms_.find(name.text)) {
    constexpr char kCls[] = {'G', 'P', 'A', 'S', 'T'};
    cls = kCls[static_cast<unsigned>(s->kind)];
    id = s->id;
    return true;
  }
  if (auto v = predefVarByName(name.text)) {
    cls = 'G';
    id = *v;
    return true;
  }
  return false;
}
Kernel& Reader::kernel() { return *p_.k_; }

}  // namespace

std::optional<Module> parseText(std::string_view source, Diagnostics& diags, const Options& opts, Module* partial) {
  Parser p(source, diags, opts);
  return p.run(partial);
}

}  // namespace visakit
