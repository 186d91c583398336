// Running Intel's offline compiler `ocloc` with IGC's dumps switched on, into a private
// temporary directory that is removed in any case, SIGINT and SIGTERM included.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace visakit::cl {

// A directory made with mkdtemp under $TMPDIR (or /tmp), removed with everything in it by the
// destructor, or by the SIGINT/SIGTERM handler installed with the first TempDir (which then
// ends the process with that signal, through the handler that was there before, if any).
class TempDir {
 public:
  // prefix: the directory's name before the random part ("visakit-cl-"); parent: the folder
  // it is made in ("" = $TMPDIR, else /tmp).
  static std::optional<TempDir> create(const std::string& prefix, std::string& err, const std::string& parent = "");
  TempDir(TempDir&& o) noexcept;
  TempDir& operator=(TempDir&& o) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }
  // Removes the directory now (also done by the destructor).
  void remove();
  // Keeps the directory (moved elsewhere by now): no longer removed by the destructor or a signal.
  void release();

 private:
  TempDir() = default;
  std::string path_;
  int slot_ = -1;  // in the process-wide registry the signal handler reads
};

struct OclocRequest {
  std::string source;   // the .cl file
  std::string device;   // "skl", "tgllp", "pvc", ...
  std::string options;  // -options (build options), "" for none
  std::string ocloc;    // the executable; "" = `ocloc` found on PATH
  std::string workIn = {};  // the folder the compile's temporary folder is made in ("" = $TMPDIR)
};

struct OclocRun {
  std::optional<TempDir> dir;  // holds dump/ (IGC's dumps) and out/ (ocloc's own outputs)
  std::string dumpDir;
  int exitCode = -1;
  std::string stdoutText, stderrText;
};

// Runs `ocloc compile -file SOURCE -device DEVICE -q -out_dir DIR/out [-options OPTIONS]` with
// the working directory DIR, our environment plus IGC_ShaderDumpEnable=1 and
// IGC_DumpToCustomDir=DIR/dump. False with a message in err if ocloc is missing, cannot start,
// is killed or exits nonzero (the message then quotes its output).
bool runOcloc(const OclocRequest& req, OclocRun& out, std::string& err);

// The ocloc executable on PATH (or "" if none).
std::string findOcloc();

// The executable runOcloc would start for req (req.ocloc, else ocloc on PATH); "" with a
// message in err if there is none.
std::string oclocExecutable(const OclocRequest& req, std::string& err);

}  // namespace visakit::cl
