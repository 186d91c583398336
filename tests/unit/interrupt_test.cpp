// Atomic outputs (issue 6): a run interrupted by SIGINT or SIGTERM leaves the
// old output file or none, never a partial one, and no temporary file.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

#include "test_util.hpp"

namespace fs = std::filesystem;
extern char** environ;

namespace {

const char* kSpin =
    ".version 4.2\n.kernel \"spin\"\n"
    ".decl Buf v_type=T num_elts=1\n"
    ".input Buf offset=32 size=4\n"
    "top:\n"
    "    jmp (M1, 1) top\n";

const char* kCopy =
    ".version 4.2\n.kernel \"copy\"\n"
    ".decl Buf v_type=T num_elts=1\n"
    ".input Buf offset=32 size=4\n"
    "    ret (M1, 1)\n";

// Starts visakit with args, sends `sig` after `delay`, returns the exit status.
int runAndSignal(const std::vector<std::string>& args, int sig, std::chrono::milliseconds delay) {
  std::vector<char*> argv;
  std::string cli = VISAKIT_CLI;
  argv.push_back(cli.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, cli.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  std::this_thread::sleep_for(delay);
  kill(pid, sig);
  int st = 0;
  waitpid(pid, &st, 0);
  return st;
}

fs::path freshDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("visakit_interrupt_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Interrupt, DuringTheRunTheOldOutputStays) {
  for (int sig : {SIGINT, SIGTERM}) {
    fs::path d = freshDir("run" + std::to_string(sig));
    std::ofstream(d / "spin.visaasm") << kSpin;
    std::ofstream(d / "out.bin") << "old contents";
    int st = runAndSignal({"run", (d / "spin.visaasm").string(), "--surface", "Buf=zero:64", "--out",
                           "Buf=" + (d / "out.bin").string(), "--max-steps", "100000000000", "--jobs", "1"},
                          sig, std::chrono::milliseconds(300));
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << st;
    EXPECT_EQ(vtest::readAll(d / "out.bin"), "old contents");
    EXPECT_EQ(std::distance(fs::directory_iterator(d), {}), 2) << "a temporary file was left behind";
  }
}

TEST(Interrupt, WhileWritingAnOutputNoPartialFile) {
  // A 192 MiB output takes a while to write; interrupt at several moments.
  const uint64_t bytes = 192ull << 20;
  int checked = 0;
  for (int delay : {50, 150, 300, 600, 1000}) {
    for (int sig : {SIGINT, SIGTERM}) {
      fs::path d = freshDir("write" + std::to_string(delay) + "_" + std::to_string(sig));
      std::ofstream(d / "copy.visaasm") << kCopy;
      int st = runAndSignal({"run", (d / "copy.visaasm").string(), "--surface", "Buf=zero:" + std::to_string(bytes),
                             "--out", "Buf=" + (d / "out.bin").string()},
                            sig, std::chrono::milliseconds(delay));
      // Either it finished (whole file) or it was interrupted (no file); never anything else.
      size_t files = static_cast<size_t>(std::distance(fs::directory_iterator(d), {}));
      if (WIFEXITED(st)) {
        EXPECT_EQ(WEXITSTATUS(st), 0);
        EXPECT_EQ(fs::file_size(d / "out.bin"), bytes);
        EXPECT_EQ(files, 2u);
      } else {
        EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << st;
        // The signal may land after the rename: then the output is complete.
        bool complete = fs::exists(d / "out.bin") && fs::file_size(d / "out.bin") == bytes;
        EXPECT_TRUE(!fs::exists(d / "out.bin") || complete) << "partial output after signal at " << delay << " ms";
        EXPECT_EQ(files, complete ? 2u : 1u) << "a temporary file was left behind";
        if (!complete) ++checked;
      }
      fs::remove_all(d);
    }
  }
  EXPECT_GT(checked, 0) << "no run was interrupted";
}

}  // namespace
