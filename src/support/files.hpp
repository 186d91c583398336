// Reading whole input files with a size limit.
#pragma once

#include <cstdint>
#include <string>

namespace visakit {

// The bytes of `path` into `out`, at most `maxBytes` of them: false with `err` ("cannot open 'X':
// ...", "'X' is a directory", "'X' has more than N bytes (<limit>)") otherwise. Reads until the
// end whatever the file is (a pipe, a device), so a size stat() does not give is bounded too
// (/dev/zero). `limit` names the limit for the user ("--max-file-size").
bool readFileLimited(const std::string& path, uint64_t maxBytes, std::string& out, std::string& err,
                     const char* limit = "--max-file-size");

}  // namespace visakit
