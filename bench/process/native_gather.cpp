// The native side of the whole-process benchmarks (bench_process.cpp): a
// straightforward program that does what `visakit run bench/kernels/gather.visaasm`
// does to the same files: reads Src and Idx, Dst[i] = Src[Idx[i]] (u32), writes Dst.
//
//   visakit-bench-native-gather SRC IDX DST
//
// Exit 0 on success; 1 with a message on a file error or an index out of range.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "../native.hpp"

namespace {

// The whole file as u32 words (its size a multiple of 4); nullptr on error.
std::unique_ptr<uint32_t[]> readWords(const char* path, size_t& words) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return nullptr;
  std::unique_ptr<uint32_t[]> out;
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  if (size >= 0 && size % 4 == 0 && std::fseek(f, 0, SEEK_SET) == 0) {
    words = static_cast<size_t>(size) / 4;
    out.reset(new uint32_t[words ? words : 1]);  // (not value-initialized: fread fills it)
    if (std::fread(out.get(), 4, words, f) != words) out.reset();
  }
  std::fclose(f);
  return out;
}

int failWith(const std::string& msg) {
  std::fprintf(stderr, "visakit-bench-native-gather: %s\n", msg.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return failWith("usage: visakit-bench-native-gather SRC IDX DST");
  size_t ns = 0, ni = 0;
  auto src = readWords(argv[1], ns);
  if (!src) return failWith(std::string("cannot read ") + argv[1]);
  auto idx = readWords(argv[2], ni);
  if (!idx) return failWith(std::string("cannot read ") + argv[2]);
  for (size_t i = 0; i < ni; ++i)
    if (idx[i] >= ns) return failWith("index " + std::to_string(idx[i]) + " out of range");
  std::unique_ptr<uint32_t[]> dst(new uint32_t[ni ? ni : 1]);
  visakit::bench::nativeGather(src.get(), idx.get(), dst.get(), ni);
  std::FILE* f = std::fopen(argv[3], "wb");
  if (!f) return failWith(std::string("cannot write ") + argv[3]);
  bool ok = std::fwrite(dst.get(), 4, ni, f) == ni;
  ok = std::fclose(f) == 0 && ok;
  return ok ? 0 : failWith(std::string("cannot write ") + argv[3]);
}
