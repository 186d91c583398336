// OpenCL printf as Intel's runtime prints it (spec-decisions K12): the kernel
// appends records to its printf buffer; after the run they are formatted in
// buffer order.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace visakit::cl {

// The records of a printf buffer (dword 0: the offset of its first free byte,
// from 4): each a string index (the format, `strings`), then per conversion a
// data-type dword and the value (K12); a string index of all ones ends them (IGC's
// mark for a record that did not fit). Returns the text; on a malformed buffer
// false with `err` (and the text of the records before it).
bool formatPrintfBuffer(std::span<const uint8_t> buffer, const std::map<uint32_t, std::string>& strings, std::string& text,
                        std::string& err);

}  // namespace visakit::cl
