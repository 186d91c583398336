// visakit cl's compile cache (docs/spec-decisions.md CL31): ocloc's dumps of an OpenCL C source,
// kept under the cache root by everything that determines them, so that a later run of the same
// source for the same device, build options and compiler reads them instead of compiling again.
//
//   ROOT/cl/<16 hex digits: the key's hash>/key      the key (compared whole on a lookup)
//                                           /dump/     IGC's dumps
//                                           /out/, ocloc.stdout, ocloc.stderr: ocloc's own
#pragma once

#include <optional>
#include <string>

#include "cl/ocloc.hpp"

namespace visakit::cl {

// The cache root: $VISAKIT_CACHE_DIR, else $XDG_CACHE_HOME/visakit, else $HOME/.cache/visakit,
// made absolute (a relative one is the current folder's); "" (no cache) when none is set.
std::string cacheRoot();

// What determines ocloc's dumps of req (source text `source`, executable `exe`), as text: the
// source, the device, the options, the compiler's files (ocloc and the libraries of Intel's
// compiler beside it and on the library path: path, size, modification time, inode) and the
// IGC_ environment. nullopt when such a compile is not cached: the source has an #include
// (the key would not hold the included text), or NEOReadDebugKeys is set.
std::optional<std::string> compileKey(const OclocRequest& req, const std::string& exe, const std::string& source);

// The dump folder of the entry of `key` under `root` (its key file's modification time set to
// now: the entry's last use); "" when there is none with this key.
std::string findCached(const std::string& root, const std::string& key);

// The folder a compile to be stored is made in (ROOT/cl, made if missing); "" if it cannot be made.
std::string cacheWorkFolder(const std::string& root);

// Stores `run`, a successful compile made in cacheWorkFolder(root), as the entry of `key`: its
// key written, its temporary folder renamed into place, then the entries beyond the cache's
// size (maxEntries) removed, those used longest ago first (none used in the last minute). True
// with run.dumpDir the entry's dump folder; false when it could not be stored (another run
// stored it first, a write failed): run is then as it was, its folder temporary.
bool storeCompile(const std::string& root, const std::string& key, OclocRun& run);

// How many entries the cache keeps: $VISAKIT_CACHE_ENTRIES (a count from 1), else 256.
size_t maxEntries();

}  // namespace visakit::cl
