// OpenCL printf records (printf.hpp; spec-decisions K12).
#include "cl/printf.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

namespace visakit::cl {
namespace {

// The data types IGC writes before each value (compute-runtime's PRINTF_DATA_TYPE).
enum class Tag : uint32_t {
  Byte = 1, Short = 2, Int = 3, Float = 4, String = 5, Long = 6, Pointer = 7, Double = 8,
  VecByte = 9, VecShort = 10, VecInt = 11, VecLong = 12, VecFloat = 13, VecDouble = 14,
};

struct Reader {
  std::span<const uint8_t> b;
  size_t at = 0, end = 0;
  bool take(void* out, size_t n) {
    if (end - at < n) return false;
    std::memcpy(out, b.data() + at, n);
    at += n;
    return true;
  }
  bool u32(uint32_t& v) { return take(&v, 4); }
};

// The C escapes of a string as the kernel's source wrote it (\n, \t, \\, \", \xHH, octal): IGC's
// string tokens keep them as written, and the runtime reads them when it prints. A
// malformed one stays as it is.
std::string unescapeC(std::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\\') {
      out += in[i];
      continue;
    }
    if (i + 1 == in.size()) {
      out += in[i];
      break;
    }
    ++i;
    const char c = in[i];
    static constexpr std::string_view kFrom = "ntr\\\"'abfv?", kTo = "\n\t\r\\\"'\a\b\f\v?";
    if (size_t at = kFrom.find(c); at != std::string_view::npos) {
      out += kTo[at];
    } else if (c == 'x' || (c >= '0' && c <= '7')) {
      const bool hex = c == 'x';
      unsigned v = 0, digits = 0;
      size_t j = hex ? i + 1 : i;
      for (; j < in.size() && digits < (hex ? 2u : 3u); ++j, ++digits) {
        const char d = in[j];
        const int dv = d >= '0' && d <= '9' ? d - '0' : hex && d >= 'a' && d <= 'f' ? d - 'a' + 10
                       : hex && d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
        if (dv < 0 || (!hex && dv > 7)) break;
        v = v * (hex ? 16 : 8) + static_cast<unsigned>(dv);
      }
      if (!digits) {
        out += in.substr(i - 1, 2);
        continue;
      }
      out += static_cast<char>(v);
      i = j - 1;
    } else {
      out += in.substr(i - 1, 2);
    }
  }
  return out;
}

// One conversion of the format: "%-08.3v4hld" -> flags "-0", width 8, precision 3,
// vector 4, length "hl", conversion 'd'.
struct Spec {
  std::string flags, width, precision;  // precision with its '.'
  unsigned vector = 0;
  std::string length;
  char conv = 0;
};

// Parses the conversion after '%' at fmt[i]; i ends past it. False: not a conversion.
bool parseSpec(std::string_view f, size_t& i, Spec& s) {
  while (i < f.size() && std::string_view("-+ #0").find(f[i]) != std::string_view::npos) s.flags += f[i++];
  while (i < f.size() && f[i] >= '0' && f[i] <= '9') s.width += f[i++];
  if (i < f.size() && f[i] == '.') {
    s.precision += f[i++];
    while (i < f.size() && f[i] >= '0' && f[i] <= '9') s.precision += f[i++];
  }
  if (i < f.size() && f[i] == 'v') {
    size_t j = i + 1;
    unsigned n = 0;
    while (j < f.size() && f[j] >= '0' && f[j] <= '9') n = n * 10 + static_cast<unsigned>(f[j++] - '0');
    if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) return false;
    s.vector = n;
    i = j;
  }
  for (std::string_view l : {"hh", "hl", "h", "ll", "l"})
    if (f.substr(i, l.size()) == l) {
      s.length = l;
      i += l.size();
      break;
    }
  if (i >= f.size() || std::string_view("diouxXfFeEgGaAcsp").find(f[i]) == std::string_view::npos) return false;
  s.conv = f[i++];
  return true;
}

// snprintf of one value with the spec's flags, width and precision and a C length of our choosing.
template <class T>
std::string cFormat(const Spec& s, std::string_view length, char conv, T v) {
  const std::string f = "%" + s.flags + s.width + s.precision + std::string(length) + conv;
  std::array<char, 512> buf{};
  int n = std::snprintf(buf.data(), buf.size(), f.c_str(), v);
  return n < 0 ? std::string() : std::string(buf.data(), std::min<size_t>(static_cast<size_t>(n), buf.size() - 1));
}

// One scalar value of `bytes` bytes (sign-extended integer bits, or float bits) as conversion s.conv.
std::string formatValue(const Spec& s, bool isFloat, unsigned bytes, uint64_t bits) {
  const bool intConv = std::string_view("diouxXc").find(s.conv) != std::string_view::npos;
  if (isFloat) {
    double d;
    if (bytes == 4) {
      float f;
      uint32_t u = static_cast<uint32_t>(bits);
      std::memcpy(&f, &u, 4);
      d = f;
    } else {
      std::memcpy(&d, &bits, 8);
    }
    if (intConv) {  // (a float given to an integer conversion: its value, clamped; NaN is 0)
      const long long iv = std::isnan(d) ? 0 : d >= 0x1p63 ? LLONG_MAX : d < -0x1p63 ? LLONG_MIN : static_cast<long long>(d);
      return cFormat(s, "ll", s.conv == 'c' ? 'd' : s.conv, iv);
    }
    return cFormat(s, "", s.conv, d);
  }
  // Integer bits of `bytes` bytes, sign-extended, then narrowed as the length says.
  int64_t v = bytes >= 8 ? static_cast<int64_t>(bits)
                         : static_cast<int64_t>(bits << (64 - 8 * bytes)) >> (64 - 8 * bytes);
  if (s.conv == 'c') return cFormat(s, "", 'c', static_cast<int>(static_cast<unsigned char>(v)));
  if (!intConv) return cFormat(s, "", s.conv, static_cast<double>(v));
  const bool sgn = s.conv == 'd' || s.conv == 'i';
  if (s.length == "hh") v = sgn ? static_cast<int64_t>(static_cast<int8_t>(v)) : static_cast<int64_t>(static_cast<uint8_t>(v));
  else if (s.length == "h") v = sgn ? static_cast<int64_t>(static_cast<int16_t>(v)) : static_cast<int64_t>(static_cast<uint16_t>(v));
  else if (bytes <= 4 && s.length != "l" && s.length != "ll")
    v = sgn ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(static_cast<uint32_t>(v));
  return sgn ? cFormat(s, "ll", s.conv, static_cast<long long>(v))
             : cFormat(s, "ll", s.conv, static_cast<unsigned long long>(v));
}

}  // namespace

bool formatPrintfBuffer(std::span<const uint8_t> buffer, const std::map<uint32_t, std::string>& strings, std::string& text,
                        std::string& err) {
  text.clear();
  Reader r{buffer, 0, buffer.size()};
  uint32_t used = 0;
  if (!r.u32(used)) return true;
  r.end = std::min<size_t>(used, buffer.size());
  if (used > buffer.size()) {
    err = fmt::format("the printf buffer is full ({} bytes asked for, {} held): later records are lost", used,
                      buffer.size());
  }
  auto fail = [&](const std::string& what) {
    err = fmt::format("printf buffer byte {}: {}", r.at, what);
    return false;
  };
  while (r.end - r.at >= 4) {
    uint32_t index = 0;
    r.u32(index);
    if (index == 0xffffffffu) break;  // IGC's mark where the record that did not fit would start
    auto fs = strings.find(index);
    if (fs == strings.end()) return fail(fmt::format("format string {} is not in the kernel's strings", index));
    const std::string format = unescapeC(fs->second);
    std::string_view f = format;
    for (size_t i = 0; i < f.size();) {
      if (f[i] != '%') {
        text += f[i++];
        continue;
      }
      if (i + 1 < f.size() && f[i + 1] == '%') {
        text += '%';
        i += 2;
        continue;
      }
      size_t j = i + 1;
      Spec s;
      if (!parseSpec(f, j, s)) return fail(fmt::format("'{}' has a conversion this printf does not know", f));
      i = j;
      uint32_t tag = 0;
      if (!r.u32(tag)) return fail("the record ends before its values");
      switch (Tag(tag)) {
        case Tag::String: {
          uint32_t si = 0;
          if (!r.u32(si)) return fail("the record ends in a value");
          auto str = strings.find(si);
          if (str == strings.end()) return fail(fmt::format("string {} is not in the kernel's strings", si));
          text += cFormat(s, "", 's', unescapeC(str->second).c_str());
          break;
        }
        case Tag::Byte: case Tag::Short: case Tag::Int: case Tag::Float: case Tag::Long: case Tag::Double: {
          const bool wide = Tag(tag) == Tag::Long || Tag(tag) == Tag::Double;
          uint64_t bits = 0;
          if (!r.take(&bits, wide ? 8 : 4)) return fail("the record ends in a value");
          text += formatValue(s, Tag(tag) == Tag::Float || Tag(tag) == Tag::Double, wide ? 8 : 4, bits);
          break;
        }
        case Tag::Pointer: {
          uint64_t p = 0;
          if (!r.take(&p, 8)) return fail("the record ends in a value");
          text += cFormat(s, "", 'p', reinterpret_cast<void*>(static_cast<uintptr_t>(p)));
          break;
        }
        case Tag::VecByte: case Tag::VecShort: case Tag::VecInt: case Tag::VecLong: case Tag::VecFloat:
        case Tag::VecDouble: {
          uint32_t n = 0;
          if (!r.u32(n)) return fail("the record ends in a value");
          const Tag t = Tag(tag);
          const unsigned bytes = t == Tag::VecByte ? 1 : t == Tag::VecShort ? 2 : t == Tag::VecLong || t == Tag::VecDouble ? 8 : 4;
          Spec e = s;
          if (e.length == "hl") e.length.clear();  // OpenCL: hl is a vector's 32-bit int or float
          // The elements packed, in a room of 4 bytes an element at least (IGC's char4 takes 16).
          const size_t room = size_t{n} * std::max(4u, bytes);
          if (r.end - r.at < room) return fail("the record ends in a vector");
          const size_t after = r.at + room;
          for (uint32_t k = 0; k < n; ++k) {
            uint64_t bits = 0;
            r.take(&bits, bytes);
            if (k) text += ',';
            text += formatValue(e, t == Tag::VecFloat || t == Tag::VecDouble, bytes, bits);
          }
          r.at = after;
          break;
        }
        default:
          return fail(fmt::format("unknown data type {}", tag));
      }
    }
  }
  return err.empty();
}

}  // namespace visakit::cl
