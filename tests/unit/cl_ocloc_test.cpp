// Running ocloc (src/cl/ocloc.cpp): the argument vector and environment it gets, its failures,
// and the temporary directory that is gone afterwards, also after SIGINT or SIGTERM.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "cl/dump.hpp"
#include "cl/ocloc.hpp"
#include "cl/patch_tokens.hpp"
#include "cl/progbin.hpp"
#include "test_util.hpp"

namespace {

using namespace visakit::cl;
namespace fs = std::filesystem;

// A private $TMPDIR for the test (so that what is left in it can be counted) and helpers.
struct Sandbox {
  fs::path dir, tmp;
  std::string oldTmp;
  bool hadTmp = false;
  explicit Sandbox(const std::string& name) {
    dir = fs::temp_directory_path() / ("visakit_clocloc_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    tmp = dir / "tmp";
    fs::create_directories(tmp);
    if (const char* t = std::getenv("TMPDIR")) hadTmp = true, oldTmp = t;
    ::setenv("TMPDIR", tmp.c_str(), 1);
  }
  ~Sandbox() {
    if (hadTmp) ::setenv("TMPDIR", oldTmp.c_str(), 1);
    else ::unsetenv("TMPDIR");
    fs::remove_all(dir);
  }
  size_t leftInTmp() const { return size_t(std::distance(fs::directory_iterator(tmp), {})); }
  // An executable shell script standing in for ocloc.
  std::string script(const std::string& name, const std::string& body) const {
    fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  std::string source() const {
    fs::path p = dir / "k.cl";
    if (!fs::exists(p)) std::ofstream(p) << "__kernel void k() {}\n";
    return p.string();
  }
};

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(ClTempDir, RemovedWithItsContents) {
  Sandbox sb("tempdir");
  std::string err, path;
  {
    auto d = TempDir::create("visakit-test-", err);
    ASSERT_TRUE(d) << err;
    path = d->path();
    EXPECT_EQ(fs::path(path).parent_path(), sb.tmp);
    EXPECT_TRUE(fs::path(path).filename().string().starts_with("visakit-test-"));
    fs::create_directories(fs::path(path) / "a" / "b");
    std::ofstream(fs::path(path) / "a" / "b" / "f") << "x";
    std::ofstream(fs::path(path) / "g") << "y";
    TempDir moved = std::move(*d);
    EXPECT_EQ(moved.path(), path);
    d.reset();  // the moved-from one removes nothing
    EXPECT_TRUE(fs::exists(fs::path(path) / "a" / "b" / "f"));
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

TEST(ClTempDir, UnwritableTmpdirIsAnError) {
  Sandbox sb("badtmp");
  ::setenv("TMPDIR", (sb.dir / "missing").c_str(), 1);
  std::string err;
  EXPECT_FALSE(TempDir::create("visakit-test-", err));
  EXPECT_EQ(err.rfind("cannot make a temporary directory '" + (sb.dir / "missing").string() + "/visakit-test-XXXXXX'", 0),
            0u) << err;
}

// In a child process: a TempDir with files in it, then wait for `sig`. The parent checks the
// child died of that signal (or exited with `code` when a handler of its own was there) and the
// directory is gone.
void signalRemovesTempDir(int sig, bool ownHandler) {
  Sandbox sb("signal" + std::to_string(sig) + (ownHandler ? "h" : ""));
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(fds[0]);
    if (ownHandler) std::signal(sig, [](int) { ::_exit(42); });
    std::string err;
    auto d = TempDir::create("visakit-sig-", err);
    if (!d) ::_exit(2);
    std::ofstream(fs::path(d->path()) / "file") << "data";
    fs::create_directories(fs::path(d->path()) / "sub");
    std::ofstream(fs::path(d->path()) / "sub" / "deeper") << "data";
    std::string p = d->path() + "\n";
    if (::write(fds[1], p.data(), p.size()) != ssize_t(p.size())) ::_exit(3);
    for (;;) ::pause();
  }
  ::close(fds[1]);
  std::string path;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') path += c;
  ::close(fds[0]);
  ASSERT_FALSE(path.empty());
  EXPECT_TRUE(fs::exists(fs::path(path) / "sub" / "deeper"));
  ::kill(pid, sig);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  if (ownHandler) EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 42) << st;
  else EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << st;
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

TEST(ClTempDir, SigintRemovesIt) { signalRemovesTempDir(SIGINT, false); }
TEST(ClTempDir, SigtermRemovesIt) { signalRemovesTempDir(SIGTERM, false); }
TEST(ClTempDir, SigintThenTheHandlerThatWasThere) { signalRemovesTempDir(SIGINT, true); }

TEST(ClOcloc, MissingOcloc) {
  Sandbox sb("missing");
  std::string old = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (sb.dir / "nothing-here").c_str(), 1);
  EXPECT_EQ(findOcloc(), "");
  OclocRun run;
  std::string err;
  EXPECT_FALSE(runOcloc({sb.source(), "skl", "", ""}, run, err));
  ::setenv("PATH", old.c_str(), 1);
  EXPECT_EQ(err, "ocloc not found: install the Debian package intel-opencl-icd");
  EXPECT_FALSE(runOcloc({sb.source(), "skl", "", (sb.dir / "no-ocloc").string()}, run, err));
  EXPECT_EQ(err, "ocloc not found at '" + (sb.dir / "no-ocloc").string() +
                     "': install the Debian package intel-opencl-icd");
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

TEST(ClOcloc, ArgumentsEnvironmentAndDirectory) {
  Sandbox sb("args");
  std::string fake = sb.script("ocloc", "printf '%s\\n' \"$@\" > args.txt\n"
                                        "echo \"$IGC_ShaderDumpEnable\" > env.txt\n"
                                        "echo \"$IGC_DumpToCustomDir\" >> env.txt\n"
                                        "echo \"$VISAKIT_TEST_MARK\" >> env.txt\n"
                                        "echo said this\n");
  ::setenv("VISAKIT_TEST_MARK", "kept", 1);
  ::setenv("IGC_ShaderDumpEnable", "0", 1);  // ours wins
  OclocRun run;
  std::string err;
  bool ok = runOcloc({sb.source(), "tgllp", "-cl-std=CL2.0 -DX=\"a b\"", fake}, run, err);
  ::unsetenv("VISAKIT_TEST_MARK");
  ::unsetenv("IGC_ShaderDumpEnable");
  ASSERT_TRUE(ok) << err;
  ASSERT_TRUE(run.dir);
  std::string root = run.dir->path();
  EXPECT_EQ(run.dumpDir, root + "/dump");
  EXPECT_TRUE(fs::is_directory(run.dumpDir));
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_EQ(run.stdoutText, "said this\n");
  EXPECT_EQ(lines(vtest::readAll(fs::path(root) / "args.txt")),
            (std::vector<std::string>{"compile", "-file", sb.source(), "-device", "tgllp", "-out_dir",
                                      root + "/out", "-options", "-cl-std=CL2.0 -DX=\"a b\""}));
  EXPECT_EQ(lines(vtest::readAll(fs::path(root) / "env.txt")),
            (std::vector<std::string>{"1", root + "/dump", "kept"}));
  run.dir.reset();
  EXPECT_FALSE(fs::exists(root));
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

TEST(ClOcloc, FailureQuotesItsOutputAndLeavesNothing) {
  Sandbox sb("fail");
  std::string fake = sb.script("ocloc", "echo 'k.cl:1:1: error: boom' >&2\nexit 3\n");
  OclocRun run;
  std::string err;
  EXPECT_FALSE(runOcloc({sb.source(), "skl", "", fake}, run, err));
  EXPECT_EQ(err, "ocloc failed (exit status 3):\nk.cl:1:1: error: boom");
  EXPECT_FALSE(run.dir);
  EXPECT_EQ(sb.leftInTmp(), 0u);

  std::string killed = sb.script("killed", "kill -9 $$\n");
  EXPECT_FALSE(runOcloc({sb.source(), "skl", "", killed}, run, err));
  EXPECT_EQ(err, "ocloc was killed by signal 9");
  EXPECT_FALSE(runOcloc({(sb.dir / "nope.cl").string(), "skl", "", fake}, run, err));
  EXPECT_EQ(err, "cannot read '" + (sb.dir / "nope.cl").string() + "': no such file");
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

// SIGINT while ocloc runs: the child ocloc is ended and the directory removed.
TEST(ClOcloc, SigintDuringTheRun) {
  Sandbox sb("sigrun");
  fs::path pidFile = sb.dir / "ocloc.pid";
  std::string fake = sb.script("ocloc", "echo $$ > '" + pidFile.string() + "'\nexec sleep 30\n");
  std::string src = sb.source();
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    OclocRun run;
    std::string err;
    runOcloc({src, "skl", "", fake}, run, err);
    ::_exit(5);
  }
  pid_t ocloc = 0;
  for (int i = 0; i < 500 && ocloc == 0; ++i) {
    ::usleep(10000);
    std::ifstream in(pidFile);
    in >> ocloc;
  }
  ASSERT_GT(ocloc, 0);
  EXPECT_EQ(sb.leftInTmp(), 1u);
  ::kill(pid, SIGINT);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) << st;
  EXPECT_EQ(sb.leftInTmp(), 0u);
  EXPECT_NE(::kill(ocloc, 0), 0);  // gone (killed and reaped by the handler)
}

// The real ocloc: a compile error is told with the build log (the offending line).
TEST(ClOcloc, RealOclocFailureShowsTheBuildLog) {
  ASSERT_FALSE(findOcloc().empty()) << "ocloc not installed: run scripts/setup.sh (package intel-opencl-icd)";
  Sandbox sb("realfail");
  fs::path src = sb.dir / "bad.cl";
  std::ofstream(src) << "__kernel void k(__global int* o) { o[0] = undefined_thing; }\n";
  OclocRun run;
  std::string err;
  EXPECT_FALSE(runOcloc({src.string(), "skl", "", ""}, run, err));
  EXPECT_NE(err.find("error: use of undeclared identifier 'undefined_thing'"), std::string::npos) << err;
  EXPECT_NE(err.find("o[0] = undefined_thing;"), std::string::npos) << err;
  EXPECT_FALSE(run.dir);
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

// The real ocloc (scripts/setup.sh installs it): a dump this code reads end to end.
TEST(ClOcloc, RealOclocDumpReadsBack) {
  ASSERT_FALSE(findOcloc().empty()) << "ocloc not installed: run scripts/setup.sh (package intel-opencl-icd)";
  Sandbox sb("real");
  OclocRun run;
  std::string err;
  fs::path src = fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-dumps/add.cl";
  ASSERT_TRUE(runOcloc({src.string(), "pvc", "", ""}, run, err)) << err;
  DumpProgram d;
  ASSERT_TRUE(scanDump(run.dumpDir, d, err)) << err;
  EXPECT_EQ(d.platform, "PVCXT");
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(d.kernels[0].name, "add");
  CosFile c;
  ASSERT_TRUE(parseCos(vtest::readAll(d.kernels[0].chosen.cos), d.kernels[0].chosen.cos, c, err)) << err;
  std::string bin = vtest::readAll(d.progbin);
  ProgramBinary p;
  ASSERT_TRUE(parseProgbin(std::vector<uint8_t>(bin.begin(), bin.end()), d.progbin, p, err)) << err;
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].patchList.pointerArgs, c.kernel.pointerArgs);
  run = OclocRun{};
  EXPECT_EQ(sb.leftInTmp(), 0u);
}

}  // namespace
