// TEMPORARY: replaced by the binary reader/writer (issue 4).
#include "visakit/visakit.hpp"
namespace visakit {
bool looksBinary(std::string_view b) { return b.size() >= 4 && b.substr(0, 4) == std::string_view("CISA", 4); }
std::vector<uint8_t> writeBinary(const Module&) { return {}; }
std::optional<Module> readBinary(std::string_view, Diagnostics& d) { d.error({}, "binary input not implemented yet"); return std::nullopt; }
void encodeInstruction(const Instruction&, std::vector<uint8_t>&) {}
bool decodeInstruction(std::string_view, size_t&, Instruction&, std::string& e, unsigned, unsigned) { e = "not implemented"; return false; }
}
