#include "cl/launch_args.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace visakit::cl {
namespace {

namespace fs = std::filesystem;

enum class Num { Ok, NotNumber, TooLarge };

// Decimal or 0x hexadecimal, no sign, no spaces.
Num parseUnsigned(std::string_view s, uint64_t& v) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return Num::NotNumber;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (p != s.data() + s.size()) return Num::NotNumber;
  if (ec == std::errc::result_out_of_range) return Num::TooLarge;
  if (ec != std::errc()) return Num::NotNumber;
  return Num::Ok;
}

bool isHexPrefixed(std::string_view s) { return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'); }

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "X[,Y[,Z]]" for option `opt`; each value >= minValue.
std::optional<std::vector<uint64_t>> parseDims(std::string_view opt, std::string_view text, uint64_t minValue,
                                               std::string& err) {
  std::vector<uint64_t> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view part = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (out.size() == 3) {
      err = fmt::format("{} '{}': at most 3 dimensions", opt, text);
      return std::nullopt;
    }
    uint64_t v = 0;
    switch (parseUnsigned(part, v)) {
      case Num::NotNumber:
        err = part.empty() ? fmt::format("{} '{}': dimension {} is empty", opt, text, out.size())
                           : fmt::format("{} '{}': '{}' is not a number (decimal or 0x hexadecimal)", opt, text, part);
        return std::nullopt;
      case Num::TooLarge:
        err = fmt::format("{} '{}': {} does not fit in 64 bits", opt, text, part);
        return std::nullopt;
      case Num::Ok: break;
    }
    if (v < minValue) {
      err = fmt::format("{} '{}': dimension {} is {}; every size must be at least {}", opt, text, out.size(), v, minValue);
      return std::nullopt;
    }
    out.push_back(v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string joinDims(const std::array<uint64_t, 3>& a, unsigned dims, std::string_view sep) {
  std::string s;
  for (unsigned i = 0; i < dims; ++i) s += (i ? std::string(sep) : std::string()) + std::to_string(a[i]);
  return s;
}

constexpr std::array<std::pair<std::string_view, ScalarType>, 10> kSpecTypes{{
    {"i8", ScalarType::I8}, {"u8", ScalarType::U8}, {"i16", ScalarType::I16}, {"u16", ScalarType::U16},
    {"i32", ScalarType::I32}, {"u32", ScalarType::U32}, {"i64", ScalarType::I64}, {"u64", ScalarType::U64},
    {"f32", ScalarType::F32}, {"f64", ScalarType::F64},
}};

uint64_t widthMask(unsigned bytes) { return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1; }

// An integer VALUE of type t: decimal (optionally negative for signed types) or
// 0x hexadecimal (the bit pattern in the type's width; -0x.. is the negated value).
bool parseIntegerValue(ScalarType t, std::string_view v, uint64_t& bits, std::string& why) {
  const unsigned bytes = scalarTypeSize(t);
  const bool neg = !v.empty() && v[0] == '-';
  std::string_view digits = neg ? v.substr(1) : v;
  const bool hex = isHexPrefixed(digits);
  const uint64_t mask = widthMask(bytes);
  const uint64_t smax = mask >> 1;  // the largest positive signed value
  auto range = [&] {
    if (isSigned(t))
      return fmt::format("out of range for {} [-{}, {}], or 0x0 to 0x{:x} as bits", scalarTypeName(t), smax + 1, smax, mask);
    return fmt::format("out of range for {} [0, {}]", scalarTypeName(t), mask);
  };
  if (neg && !isSigned(t)) {
    why = fmt::format("'{}' is negative; {} is unsigned", v, scalarTypeName(t));
    return false;
  }
  uint64_t m = 0;
  switch (parseUnsigned(digits, m)) {
    case Num::NotNumber:
      why = fmt::format("'{}' is not an integer (decimal{}, or 0x hexadecimal)", v, isSigned(t) ? ", negative" : "");
      return false;
    case Num::TooLarge: why = fmt::format("{} is {}", v, range()); return false;
    case Num::Ok: break;
  }
  if (neg) {
    if (m > smax + 1) {
      why = fmt::format("{} is {}", v, range());
      return false;
    }
    bits = (~m + 1) & mask;
    return true;
  }
  const uint64_t max = (isSigned(t) && !hex) ? smax : mask;
  if (m > max) {
    why = fmt::format("{} is {}", v, range());
    return false;
  }
  bits = m;
  return true;
}

template <class F>
bool parseFloatText(std::string_view v, bool neg, bool hex, F& out, std::errc& ec) {
  std::string_view t = v.substr((neg ? 1 : 0) + (hex ? 2 : 0));
  if (t.empty()) return false;
  auto r = std::from_chars(t.data(), t.data() + t.size(), out, hex ? std::chars_format::hex : std::chars_format::general);
  ec = r.ec;
  if (r.ptr != t.data() + t.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) return false;
  if (neg) out = -out;
  return true;
}

// A float VALUE of type t (f32/f64): a decimal literal (1.5, -2e-3, 3), a
// hexadecimal float with a 'p' exponent (0x1.8p1), raw bits (0x3fc00000, no
// '.' and no 'p'), inf, -inf or nan (the canonical quiet NaN).
bool parseFloatValue(ScalarType t, std::string_view v, uint64_t& bits, std::string& why) {
  const bool f32 = t == ScalarType::F32;
  const std::string_view name = scalarTypeName(t);
  if (equalsNoCase(v, "inf") || equalsNoCase(v, "-inf")) {
    bits = f32 ? 0x7f800000u : 0x7ff0000000000000u;
    if (v[0] == '-') bits |= f32 ? 0x80000000u : 0x8000000000000000u;
    return true;
  }
  if (equalsNoCase(v, "nan")) {
    bits = f32 ? 0x7fc00000u : 0x7ff8000000000000u;
    return true;
  }
  const bool neg = !v.empty() && v[0] == '-';
  std::string_view body = neg ? v.substr(1) : v;
  const bool hex = isHexPrefixed(body);
  const bool hasP = body.find_first_of("pP") != std::string_view::npos;
  if (hex && !hasP) {
    if (body.find('.') != std::string_view::npos) {
      why = fmt::format("'{}': a hexadecimal float needs a 'p' exponent (0x1.8p1); 0x without one gives the bits", v);
      return false;
    }
    if (neg) {
      why = fmt::format("'{}': bits (0x without a 'p' exponent) cannot be negative; set the sign bit", v);
      return false;
    }
    uint64_t m = 0;
    Num n = parseUnsigned(body, m);
    if (n == Num::NotNumber) {
      why = fmt::format("'{}' is not a number", v);
      return false;
    }
    if (n == Num::TooLarge || m > widthMask(scalarTypeSize(t))) {
      why = fmt::format("{} has more than {} bits", v, 8 * scalarTypeSize(t));
      return false;
    }
    bits = m;
    return true;
  }
  // Only digits, '.', exponents and hexadecimal digits from here: from_chars
  // would also take "infinity" and "nan(...)", which are not VALUEs.
  if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')) {
    why = fmt::format("'{}' is not a number (decimal, 0x1.8p1 hexadecimal float, 0x bits, inf, -inf, nan)", v);
    return false;
  }
  std::errc ec{};
  bool ok = false;
  if (f32) {
    float f = 0;
    ok = parseFloatText(v, neg, hex, f, ec);
    bits = std::bit_cast<uint32_t>(f);
  } else {
    double d = 0;
    ok = parseFloatText(v, neg, hex, d, ec);
    bits = std::bit_cast<uint64_t>(d);
  }
  if (!ok) {
    why = fmt::format("'{}' is not a number (decimal, 0x1.8p1 hexadecimal float, 0x bits, inf, -inf, nan)", v);
    return false;
  }
  if (ec == std::errc::result_out_of_range) {
    // Too large or too small? Read it again in a wider type to tell.
    std::string copy(v);
    errno = 0;
    long double wide = std::strtold(copy.c_str(), nullptr);
    bool large = std::fabs(wide) >= 1.0L;
    why = large ? fmt::format("{} is out of range for {}: beyond the largest finite value (write inf for infinity)", v, name)
                : fmt::format("{} is out of range for {}: it rounds to 0", v, name);
    return false;
  }
  return true;
}

}  // namespace

std::string_view scalarTypeName(ScalarType t) {
  switch (t) {
    case ScalarType::I8: return "i8";
    case ScalarType::U8: return "u8";
    case ScalarType::I16: return "i16";
    case ScalarType::U16: return "u16";
    case ScalarType::I32: return "i32";
    case ScalarType::U32: return "u32";
    case ScalarType::I64: return "i64";
    case ScalarType::U64: return "u64";
    case ScalarType::F16: return "f16";
    case ScalarType::F32: return "f32";
    case ScalarType::F64: return "f64";
  }
  return "?";
}

unsigned scalarTypeSize(ScalarType t) {
  switch (t) {
    case ScalarType::I8:
    case ScalarType::U8: return 1;
    case ScalarType::I16:
    case ScalarType::U16:
    case ScalarType::F16: return 2;
    case ScalarType::I32:
    case ScalarType::U32:
    case ScalarType::F32: return 4;
    case ScalarType::I64:
    case ScalarType::U64:
    case ScalarType::F64: return 8;
  }
  return 1;
}

bool isFloat(ScalarType t) { return t == ScalarType::F16 || t == ScalarType::F32 || t == ScalarType::F64; }
bool isSigned(ScalarType t) {
  return t == ScalarType::I8 || t == ScalarType::I16 || t == ScalarType::I32 || t == ScalarType::I64;
}

std::optional<LaunchShape> parseLaunchShape(std::string_view global, std::optional<std::string_view> local,
                                            std::optional<std::string_view> offset, const LaunchLimits& limits,
                                            std::string& err) {
  LaunchShape s;
  auto g = parseDims("--global", global, 1, err);
  if (!g) return std::nullopt;
  s.dims = static_cast<unsigned>(g->size());
  std::copy(g->begin(), g->end(), s.global.begin());

  // The work-item count, without ever wrapping.
  uint64_t items = 1;
  for (unsigned i = 0; i < s.dims; ++i) {
    if (__builtin_mul_overflow(items, s.global[i], &items)) {
      err = fmt::format("--global '{}': {} work-items do not fit in 64 bits", global, joinDims(s.global, s.dims, " x "));
      return std::nullopt;
    }
  }
  if (items > limits.maxWorkItems) {
    err = fmt::format("--global '{}': {} work-items ({}), over the limit of {} (--max-work-items)", global, items,
                      joinDims(s.global, s.dims, " x "), limits.maxWorkItems);
    return std::nullopt;
  }
  s.workItems = items;

  if (local) {
    auto l = parseDims("--local", *local, 1, err);
    if (!l) return std::nullopt;
    if (l->size() != s.dims) {
      err = fmt::format("--local '{}': {} dimension{}, but --global '{}' has {}", *local, l->size(),
                        l->size() == 1 ? "" : "s", global, s.dims);
      return std::nullopt;
    }
    std::array<uint64_t, 3> la{1, 1, 1};
    std::copy(l->begin(), l->end(), la.begin());
    uint64_t groupItems = 1;
    for (unsigned i = 0; i < s.dims; ++i) {
      if (s.global[i] % la[i] != 0) {
        err = fmt::format(
            "--local '{}': the global size {} of dimension {} is not a multiple of the local size {} "
            "(work-groups are whole, as in OpenCL 1.2)",
            *local, s.global[i], i, la[i]);
        return std::nullopt;
      }
      groupItems *= la[i];  // cannot wrap: each local size divides its global size
    }
    if (groupItems > limits.maxWorkGroupSize) {
      err = fmt::format("--local '{}': {} work-items in a work-group, over the limit of {}", *local, groupItems,
                        limits.maxWorkGroupSize);
      return std::nullopt;
    }
    s.local = la;
  }

  if (offset) {
    auto o = parseDims("--offset", *offset, 0, err);
    if (!o) return std::nullopt;
    if (o->size() != s.dims) {
      err = fmt::format("--offset '{}': {} dimension{}, but --global '{}' has {}", *offset, o->size(),
                        o->size() == 1 ? "" : "s", global, s.dims);
      return std::nullopt;
    }
    for (unsigned i = 0; i < s.dims; ++i) {
      if ((*o)[i] > std::numeric_limits<uint64_t>::max() - (s.global[i] - 1)) {
        err = fmt::format("--offset '{}': the largest global id of dimension {} ({} + {} - 1) does not fit in 64 bits",
                          *offset, i, (*o)[i], s.global[i]);
        return std::nullopt;
      }
      s.offset[i] = (*o)[i];
    }
  }
  return s;
}

std::vector<uint8_t> scalarBytes(const ScalarArg& a) {
  if (!a.raw.empty()) return a.raw;
  std::vector<uint8_t> b(scalarTypeSize(a.type));
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(a.bits >> (8 * i));
  return b;
}

std::string argSpecText(const KernelArgValue& v) {
  if (const auto* b = std::get_if<BufferArg>(&v)) return b->spec;
  if (const auto* l = std::get_if<LocalArg>(&v)) return fmt::format("local:{}", l->bytes);
  return std::get<ScalarArg>(v).spec;
}

std::optional<KernelArgValue> parseArgValue(unsigned index, std::string_view spec, const LaunchLimits& limits,
                                            std::string& err) {
  const std::string where = fmt::format("--arg {}={}", index, spec);
  auto sizeOf = [&](std::string_view what, std::string_view text, uint64_t& n) {
    switch (parseUnsigned(text, n)) {
      case Num::NotNumber:
        err = fmt::format("{}: '{}' is not a byte count (decimal or 0x hexadecimal)", where, text);
        return false;
      case Num::TooLarge: err = fmt::format("{}: {} does not fit in 64 bits", where, text); return false;
      case Num::Ok: break;
    }
    if (n == 0) {
      err = fmt::format("{}: a {} needs at least 1 byte", where, what);
      return false;
    }
    if (n > limits.maxBufferBytes) {
      err = fmt::format("{}: {} bytes, over the limit of {} (--max-buffer-size)", where, n, limits.maxBufferBytes);
      return false;
    }
    return true;
  };

  if (!spec.empty() && spec[0] == '@') {
    std::string path(spec.substr(1));
    if (path.empty()) {
      err = fmt::format("{}: expected a file name after '@'", where);
      return std::nullopt;
    }
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      err = fmt::format("{}: '{}' is a directory", where, path);
      return std::nullopt;
    }
    uint64_t size = fs::file_size(path, ec);
    if (ec) {
      err = fmt::format("{}: cannot open '{}': {}", where, path, ec.message());
      return std::nullopt;
    }
    if (size == 0) {
      err = fmt::format("{}: '{}' is empty; a buffer needs at least 1 byte", where, path);
      return std::nullopt;
    }
    if (size > limits.maxBufferBytes) {
      err = fmt::format("{}: '{}' is {} bytes, over the limit of {} (--max-buffer-size)", where, path, size,
                        limits.maxBufferBytes);
      return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      err = fmt::format("{}: cannot open '{}': {}", where, path, std::strerror(errno));
      return std::nullopt;
    }
    BufferArg b;
    b.spec = std::string(spec);
    b.file = true;
    b.bytes.resize(size);
    in.read(reinterpret_cast<char*>(b.bytes.data()), static_cast<std::streamsize>(size));
    if (static_cast<uint64_t>(in.gcount()) != size || in.peek() != std::char_traits<char>::eof()) {
      err = fmt::format("{}: cannot read '{}' (it changed size while being read)", where, path);
      return std::nullopt;
    }
    return KernelArgValue{std::move(b)};
  }

  size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    err = fmt::format("{}: expected @FILE, zero:N, local:N or TYPE:VALUE", where);
    return std::nullopt;
  }
  std::string_view kind = spec.substr(0, colon), rest = spec.substr(colon + 1);
  if (kind == "zero") {
    uint64_t n = 0;
    if (!sizeOf("buffer", rest, n)) return std::nullopt;
    BufferArg b;
    b.spec = std::string(spec);
    b.bytes.assign(n, 0);
    return KernelArgValue{std::move(b)};
  }
  if (kind == "local") {
    uint64_t n = 0;
    if (!sizeOf("__local buffer", rest, n)) return std::nullopt;
    return KernelArgValue{LocalArg{n}};
  }
  auto it = std::find_if(kSpecTypes.begin(), kSpecTypes.end(), [&](const auto& p) { return p.first == kind; });
  if (it == kSpecTypes.end()) {
    err = fmt::format("{}: '{}' is not a type (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64; or @FILE, zero:N, local:N)",
                      where, kind);
    return std::nullopt;
  }
  ScalarArg s;
  s.type = it->second;
  s.spec = std::string(spec);
  std::string why;
  bool ok = isFloat(s.type) ? parseFloatValue(s.type, rest, s.bits, why) : parseIntegerValue(s.type, rest, s.bits, why);
  if (!ok) {
    err = fmt::format("{}: {}", where, why);
    return std::nullopt;
  }
  return KernelArgValue{std::move(s)};
}

std::optional<KernelArgs> parseKernelArgs(const std::vector<std::string>& args, const std::vector<std::string>& outs,
                                          const LaunchLimits& limits, std::string& err) {
  auto splitIndex = [&](std::string_view opt, std::string_view what, const std::string& s, unsigned& index,
                        std::string_view& rest) {
    size_t eq = s.find('=');
    std::string_view idx = std::string_view(s).substr(0, eq == std::string::npos ? 0 : eq);
    uint64_t v = 0;
    bool digits = !idx.empty() && std::all_of(idx.begin(), idx.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (eq == std::string::npos || !digits) {
      err = fmt::format("{} '{}': expected I={} (I the argument's index, from 0)", opt, s, what);
      return false;
    }
    if (parseUnsigned(idx, v) != Num::Ok || v >= kMaxArgs) {
      err = fmt::format("{} '{}': argument index {} is over the limit of {}", opt, s, idx, kMaxArgs - 1);
      return false;
    }
    index = static_cast<unsigned>(v);
    rest = std::string_view(s).substr(eq + 1);
    return true;
  };

  KernelArgs out;
  uint64_t total = 0;
  for (const auto& a : args) {
    unsigned index = 0;
    std::string_view spec;
    if (!splitIndex("--arg", "SPEC", a, index, spec)) return std::nullopt;
    if (index < out.values.size() && out.values[index]) {
      err = fmt::format("--arg {} is given twice ('{}' and '{}')", index, argSpecText(*out.values[index]), spec);
      return std::nullopt;
    }
    auto v = parseArgValue(index, spec, limits, err);
    if (!v) return std::nullopt;
    if (const auto* b = std::get_if<BufferArg>(&*v)) {
      total += b->bytes.size();  // each <= maxBufferBytes < 2^64 / kMaxArgs: no wrap
      if (total > limits.maxTotalBytes) {
        err = fmt::format("--arg {}={}: the buffer arguments need {} bytes, over the limit of {} (--max-memory)", index,
                          spec, total, limits.maxTotalBytes);
        return std::nullopt;
      }
    }
    if (out.values.size() <= index) out.values.resize(index + 1);
    out.values[index] = std::move(*v);
  }

  std::map<std::string, unsigned> files;
  for (const auto& o : outs) {
    unsigned index = 0;
    std::string_view file;
    if (!splitIndex("--out", "FILE", o, index, file)) return std::nullopt;
    if (file.empty()) {
      err = fmt::format("--out '{}': expected a file name after '='", o);
      return std::nullopt;
    }
    for (const auto& [i, f] : out.outs) {
      if (i == index) {
        err = fmt::format("--out {} is given twice ('{}' and '{}')", index, f, file);
        return std::nullopt;
      }
    }
    if (index >= out.values.size() || !out.values[index]) {
      err = fmt::format("--out {}={}: argument {} has no --arg", index, file, index);
      return std::nullopt;
    }
    if (!std::holds_alternative<BufferArg>(*out.values[index])) {
      err = fmt::format("--out {}={}: argument {} is {}, not a buffer; only @FILE and zero:N arguments can be written",
                        index, file, index, argSpecText(*out.values[index]));
      return std::nullopt;
    }
    // One file however it is spelled: absolute, with links and dot-dots resolved where they exist.
    std::error_code ec;
    fs::path abs = fs::absolute(fs::path(file), ec);
    if (ec) abs = fs::path(file);
    fs::path canon = fs::weakly_canonical(abs, ec);
    std::string key = (ec ? abs.lexically_normal() : canon).string();
    auto [it, fresh] = files.emplace(key, index);
    if (!fresh) {
      err = fmt::format("--out {}={}: argument {} is written to the same file", index, file, it->second);
      return std::nullopt;
    }
    out.outs.emplace_back(index, std::string(file));
  }
  return out;
}

std::optional<AddressQualifier> parseAddressQualifier(std::string_view s) {
  s = trim(s);
  if (s.substr(0, 2) == "__") s.remove_prefix(2);
  if (s == "global") return AddressQualifier::Global;
  if (s == "local") return AddressQualifier::Local;
  if (s == "constant") return AddressQualifier::Constant;
  if (s == "private") return AddressQualifier::Private;
  return std::nullopt;
}

std::string_view addressQualifierName(AddressQualifier q) {
  switch (q) {
    case AddressQualifier::Global: return "__global";
    case AddressQualifier::Local: return "__local";
    case AddressQualifier::Constant: return "__constant";
    case AddressQualifier::Private: return "__private";
  }
  return "?";
}

std::optional<uint64_t> TypeInfo::valueSize() const {
  if (scalar) return uint64_t{scalarTypeSize(*scalar)} * slots;
  if (!pointer && argSize) return argSize;
  return std::nullopt;
}

TypeInfo parseTypeName(std::string_view typeName) {
  TypeInfo ti;
  std::string_view s = trim(typeName);
  size_t semi = s.rfind(';');
  if (semi != std::string_view::npos) {
    uint64_t n = 0;
    if (parseUnsigned(trim(s.substr(semi + 1)), n) == Num::Ok) {
      ti.argSize = n;
      s = trim(s.substr(0, semi));
    }
  }
  if (!s.empty() && s.back() == '*') {
    ti.pointer = true;
    s = trim(s.substr(0, s.size() - 1));
  }
  ti.base = std::string(s);

  static constexpr std::array<std::pair<std::string_view, ScalarType>, 15> kNames{{
      {"char", ScalarType::I8}, {"uchar", ScalarType::U8}, {"unsigned char", ScalarType::U8},
      {"short", ScalarType::I16}, {"ushort", ScalarType::U16}, {"unsigned short", ScalarType::U16},
      {"int", ScalarType::I32}, {"uint", ScalarType::U32}, {"unsigned int", ScalarType::U32},
      {"long", ScalarType::I64}, {"ulong", ScalarType::U64}, {"unsigned long", ScalarType::U64},
      {"half", ScalarType::F16}, {"float", ScalarType::F32}, {"double", ScalarType::F64},
  }};
  for (const auto& [name, type] : kNames) {
    if (s.substr(0, name.size()) != name) continue;
    std::string_view width = s.substr(name.size());
    if (width.empty()) {
      ti.scalar = type;
      return ti;
    }
    if (name.find(' ') != std::string_view::npos) continue;  // "unsigned int4" is not a type
    for (unsigned n : {2u, 3u, 4u, 8u, 16u}) {
      if (width == std::to_string(n)) {
        ti.scalar = type;
        ti.components = n;
        ti.slots = n == 3 ? 4 : n;
        return ti;
      }
    }
  }
  return ti;
}

namespace {

// "a uint", "an int", "an image2d_t": by the first letter of the type.
std::string withArticle(std::string_view type) {
  bool an = !type.empty() && std::string_view("aeioAEIO").find(type[0]) != std::string_view::npos;
  return fmt::format("{} {}", an ? "an" : "a", type);
}

// `count` arguments, `get(i)` the value of argument i or nullptr when there is none.
template <class Get>
std::vector<std::string> checkArgs(const std::vector<KernelParam>& params, size_t count, Get get) {
  std::vector<std::string> problems;
  for (size_t i = params.size(); i < count; ++i) {
    const KernelArgValue* extra = get(i);
    if (!extra) continue;
    problems.push_back(params.empty() ? fmt::format("--arg {}={}: the kernel has no arguments", i, argSpecText(*extra))
                                      : fmt::format("--arg {}={}: the kernel has {} argument{} (0 to {})", i,
                                                    argSpecText(*extra), params.size(), params.size() == 1 ? "" : "s",
                                                    params.size() - 1));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelParam& p = params[i];
    const TypeInfo ti = parseTypeName(p.typeName);
    const std::string who = p.name.empty() ? fmt::format("argument {}", i) : fmt::format("argument {} '{}'", i, p.name);
    const std::string type = ti.base + (ti.pointer ? "*" : "");
    const KernelArgValue* given = i < count ? get(i) : nullptr;

    if (ti.base == "sampler_t" || ti.base.rfind("image", 0) == 0 || ti.base.rfind("pipe", 0) == 0 ||
        ti.base == "queue_t" || ti.base == "clk_event_t") {
      problems.push_back(fmt::format("{} is {}; visakit cl binds only buffers, __local buffers and scalars", who, withArticle(type)));
      continue;
    }
    if (!given) {
      problems.push_back(fmt::format("{} (a {} {}) has no --arg", who, addressQualifierName(p.address), type));
      continue;
    }
    const KernelArgValue& v = *given;
    const std::string spec = argSpecText(v);
    const uint64_t elem = ti.pointer ? ti.valueSize().value_or(0) : 0;  // 0: unknown
    auto wholeElements = [&](uint64_t bytes) {
      if (elem && bytes % elem != 0)
        problems.push_back(fmt::format("{} is a {} {} ({}-byte elements); {} gives {} bytes, not a whole number of them",
                                       who, addressQualifierName(p.address), type, elem, spec, bytes));
    };
    switch (p.address) {
      case AddressQualifier::Global:
      case AddressQualifier::Constant:
        if (const auto* b = std::get_if<BufferArg>(&v)) {
          wholeElements(b->bytes.size());
        } else {
          problems.push_back(fmt::format("{} is a {} {} buffer; {} is {} (use @FILE or zero:N)", who,
                                         addressQualifierName(p.address), type, spec,
                                         std::holds_alternative<LocalArg>(v) ? "a __local buffer" : "a scalar"));
        }
        break;
      case AddressQualifier::Local:
        if (const auto* l = std::get_if<LocalArg>(&v)) {
          wholeElements(l->bytes);
        } else {
          problems.push_back(fmt::format("{} is a __local {}; {} is {} (use local:N)", who, type, spec,
                                         std::holds_alternative<BufferArg>(v) ? "a __global buffer" : "a scalar"));
        }
        break;
      case AddressQualifier::Private: {
        const auto* s = std::get_if<ScalarArg>(&v);
        std::optional<uint64_t> size = ti.argSize ? ti.argSize : ti.valueSize();
        std::string sizeText = size ? fmt::format(" ({} byte{})", *size, *size == 1 ? "" : "s") : std::string();
        if (const auto* b = std::get_if<BufferArg>(&v); b && b->file) {
          // A file of exactly its bytes: the value as raw bytes (vectors and structs of any size;
          // one of unknown size, a typedef name, is checked where it is set).
          if (size && b->bytes.size() != *size)
            problems.push_back(fmt::format("{} is {}{}; {} gives {} byte{}", who, withArticle(type), sizeText, spec,
                                           b->bytes.size(), b->bytes.size() == 1 ? "" : "s"));
          break;
        }
        if (!s) {
          problems.push_back(fmt::format("{} is {}{}; {} is {} (use TYPE:VALUE, or @FILE of its bytes)", who,
                                         withArticle(type), sizeText, spec,
                                         std::holds_alternative<LocalArg>(v) ? "a __local buffer" : "a buffer"));
          break;
        }
        const uint64_t givenBytes = s->raw.empty() ? scalarTypeSize(s->type) : s->raw.size();
        if (size && *size != givenBytes) {
          problems.push_back(fmt::format("{} is {}{}; {} gives {} byte{}", who, withArticle(type), sizeText, spec, givenBytes,
                                         givenBytes == 1 ? "" : "s"));
          break;
        }
        if (!ti.scalar || !s->raw.empty()) break;  // struct, typedef name: only the size is known; raw bytes: any
        const bool paramFloat = ti.components == 1 && ti.scalar != ScalarType::F16 && isFloat(*ti.scalar);
        if (paramFloat && !isFloat(s->type)) {
          problems.push_back(fmt::format("{} is {}{}; {} is an integer (use {}:VALUE)", who, withArticle(type), sizeText, spec,
                                         *ti.scalar == ScalarType::F32 ? "f32" : "f64"));
        } else if (!paramFloat && isFloat(s->type)) {
          problems.push_back(fmt::format("{} is {}{}; {} is a floating-point value (use an integer type{})", who, withArticle(type),
                                         sizeText, spec,
                                         ti.components > 1 || ti.scalar == ScalarType::F16 ? " for its bits" : ""));
        }
        break;
      }
    }
  }
  return problems;
}

}  // namespace

std::vector<std::string> checkKernelArgs(const std::vector<KernelParam>& params, const KernelArgs& args) {
  return checkArgs(params, args.values.size(), [&](size_t i) -> const KernelArgValue* {
    return args.values[i] ? &*args.values[i] : nullptr;
  });
}

void takeByValueFiles(const std::vector<KernelParam>& params, KernelArgs& args) {
  for (size_t i = 0; i < params.size() && i < args.values.size(); ++i) {
    if (params[i].address != AddressQualifier::Private || !args.values[i]) continue;
    if (const auto* b = std::get_if<BufferArg>(&*args.values[i]); b && b->file) {
      ScalarArg s;
      s.raw = b->bytes;
      s.spec = b->spec;
      args.values[i] = std::move(s);
    }
  }
}

std::vector<std::string> checkKernelArgs(const std::vector<KernelParam>& params, std::span<const KernelArgValue> args) {
  return checkArgs(params, args.size(), [&](size_t i) -> const KernelArgValue* { return &args[i]; });
}

std::optional<Tolerance> parseTolerance(std::string_view s, std::string& err) {
  Tolerance t;
  if (s.substr(0, 4) == "ulp:") {
    switch (parseUnsigned(s.substr(4), t.ulps)) {
      case Num::NotNumber:
        err = fmt::format("--tolerance '{}': '{}' is not a whole number of ulps", s, s.substr(4));
        return std::nullopt;
      case Num::TooLarge: err = fmt::format("--tolerance '{}': does not fit in 64 bits", s); return std::nullopt;
      case Num::Ok: break;
    }
    t.kind = Tolerance::Kind::Ulp;
    return t;
  }
  if (s.substr(0, 4) == "rel:") {
    std::string_view x = s.substr(4);
    auto [p, ec] = std::from_chars(x.data(), x.data() + x.size(), t.rel);
    bool digitsOnly = !x.empty() && (std::isdigit(static_cast<unsigned char>(x[0])) || x[0] == '.');
    if (!digitsOnly || ec != std::errc() || p != x.data() + x.size() || !std::isfinite(t.rel)) {
      err = fmt::format("--tolerance '{}': '{}' is not a finite non-negative number", s, x);
      return std::nullopt;
    }
    t.kind = Tolerance::Kind::Rel;
    return t;
  }
  err = fmt::format("--tolerance '{}': expected ulp:N or rel:X", s);
  return std::nullopt;
}

}  // namespace visakit::cl
