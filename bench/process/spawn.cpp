// Times one process for the whole-process benchmarks (bench_process.cpp):
//
//   visakit-bench-spawn RESULT PROGRAM [ARGS...]
//
// runs PROGRAM to completion and writes "<wall seconds> <peak RSS KiB>" to RESULT;
// exits with PROGRAM's exit status (127 if it could not start, 128+N if signal N
// ended it). It exists for the peak RSS: Linux keeps a process's RSS high-water
// mark across execve, so a program started straight from the (large) benchmark
// process would report the benchmark's memory; started from this small one, its
// own shows.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: visakit-bench-spawn RESULT PROGRAM [ARGS...]\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    execv(argv[2], argv + 2);
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) != pid)
    if (errno != EINTR) return 127;
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::FILE* f = std::fopen(argv[1], "w");
  if (!f) return 127;
  std::fprintf(f, "%.9f %ld\n", sec, ru.ru_maxrss);
  if (std::fclose(f) != 0) return 127;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
