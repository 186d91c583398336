// visakit cl's bad input: a clear error, a documented exit code, nothing written.
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;

std::string source() { return (fs::path(VISAKIT_SOURCE_DIR) / "tests/cl/saxpy.cl").string(); }

struct Tmp {
  fs::path dir = fs::temp_directory_path() / ("visakit_cl_cli_" + std::to_string(::getpid()));
  Tmp() { fs::create_directories(dir); }
  ~Tmp() { fs::remove_all(dir); }
  std::string file(const std::string& n, size_t bytes) { return write(n, std::string(bytes, '\0')); }
  // Writes `text` to dir/n; its path.
  std::string write(const std::string& n, const std::string& text) {
    fs::path p = dir / n;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

TEST(ClCli, KernelNotInTheFileNamesTheOnesThere) {
  auto r = vtest::runCli("cl '" + source() + "' --kernel nope --global 16");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("kernel 'nope' not found in '" + source() + "'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("saxpy4"), std::string::npos) << r.output;
}

TEST(ClCli, ArgumentCountAndTypeAreChecked) {
  Tmp t;
  std::string x = t.file("x.bin", 4096);
  auto missing = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=f32:1 --arg 1=@" + x);
  EXPECT_EQ(missing.exit, 1) << missing.output;
  EXPECT_NE(missing.output.find("argument 2 'y'"), std::string::npos) << missing.output;
  auto type = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=@" + x + " --arg 1=@" + x +
                            " --arg 2=@" + x);
  EXPECT_EQ(type.exit, 1) << type.output;
  EXPECT_NE(type.output.find("argument 0"), std::string::npos) << type.output;
}

TEST(ClCli, UsageErrorsExitTwo) {
  EXPECT_EQ(vtest::runCli("cl '" + source() + "' --kernel saxpy").exit, 2);  // no --global
  auto r = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 4294967296,4294967296");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("do not fit in 64 bits"), std::string::npos) << r.output;
  EXPECT_EQ(vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 --arg 0=f33:1").exit, 2);
  for (const char* bad : {"--max-steps -5", "--jobs -1", "--max-steps x"}) {
    r = vtest::runCli("cl '" + source() + "' --kernel saxpy --global 16 " + bad);
    EXPECT_EQ(r.exit, 2) << bad << "\n" << r.output;
  }
  EXPECT_EQ(vtest::runCli("cl --help").exit, 0);
}

TEST(ClCli, MissingOclocIsAClearError) {
  Tmp t;
  std::string out = (t.dir / "y.out").string();
  // PATH without ocloc (the CLI is called by its full path).
  std::string cmd = "env PATH=/nonexistent " + std::string(VISAKIT_CLI) + " cl '" + source() +
                    "' --kernel saxpy --global 16 --arg 0=f32:1 --arg 1=zero:64 --arg 2=zero:64 --out 2=" + out + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p);
  std::string text;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 1) << text;
  EXPECT_NE(text.find("ocloc not found"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(out));
}

TEST(ClCli, AMissingInputFileIsAClearError) {
  auto failsSaying = [](const std::string& args, const std::string& message) {
    auto r = vtest::runCli(args);
    EXPECT_EQ(r.exit, 1) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  };
  failsSaying("cl /nonexistent/k.cl --kernel k --global 1", "cannot open '/nonexistent/k.cl': No such file or directory");
  // A file with no end (a device) stops at the input limit; a folder given as a file says so.
  failsSaying("cl /dev/zero --kernel k --global 1", "'/dev/zero' has more than 268435456 bytes (the limit of an input file)");
  failsSaying("check /dev/zero", "'/dev/zero' has more than 268435456 bytes (--max-file-size)");
  failsSaying("check /tmp", "'/tmp' is a directory");
}

}  // namespace

namespace {

// spec-decisions T9: a 64-byte alias of %r0 is valid with 64-byte GRFs only;
// the GRF size comes from --grf-size, --platform, or the .asm beside the file.
TEST(ClCli, GrfFromPlatform) {
  Tmp t;
  const std::string text =
      ".version 4.1\n.kernel \"k\"\n.decl V40 v_type=G type=d num_elts=16 align=wordx32 alias=<%r0, 0>\n"
      "    mov (M1, 16) V40(0,0)<1> 0x1:d\n    ret (M1, 1)\n";
  fs::path k = t.dir / "OCL_asm1_simd16_entry_0001.visaasm";
  std::ofstream(k) << text;
  auto bare = vtest::runCli("check '" + k.string() + "'");
  EXPECT_EQ(bare.exit, 1) << bare.output;
  EXPECT_NE(bare.output.find("has 32 bytes"), std::string::npos) << bare.output;
  EXPECT_EQ(vtest::runCli("check --grf-size 64 '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform pvc '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform PVCXT '" + k.string() + "'").exit, 0);
  EXPECT_EQ(vtest::runCli("check --platform acm-g10 '" + k.string() + "'").exit, 1);
  auto unknown = vtest::runCli("check --platform gen99 '" + k.string() + "'");
  EXPECT_EQ(unknown.exit, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown platform 'gen99'"), std::string::npos) << unknown.output;
  EXPECT_EQ(vtest::runCli("check --platform pvc --grf-size 64 '" + k.string() + "'").exit, 2);
  // The dump's .asm names the platform.
  std::ofstream(t.dir / "OCL_asm1_simd16_entry_0001.asm") << "//.kernel k\n//.platform PVCXT\n//.thread_config x\n";
  auto dumped = vtest::runCli("check '" + k.string() + "'");
  EXPECT_EQ(dumped.exit, 0) << dumped.output;
  // A function's file (IGC's _f<K>.visaasm at -cl-opt-disable) has no .asm: its kernel's names it.
  fs::path f = t.dir / "OCL_asm1_simd16_entry_0001_f0.visaasm";
  std::ofstream(f) << ".version 4.1\n.global_function \"g\"\n.decl V40 v_type=G type=d num_elts=16 align=wordx32 alias=<%r0, 0>\n"
                      "    mov (M1, 16) V40(0,0)<1> 0x1:d\n    fret (M1, 16)\n";
  auto fn = vtest::runCli("check '" + f.string() + "'");
  EXPECT_EQ(fn.exit, 0) << fn.output;
  std::ofstream(t.dir / "OCL_asm1_simd16_entry_0001.asm") << "//.kernel k\n//.platform TGLLP\n";
  EXPECT_EQ(vtest::runCli("check '" + k.string() + "'").exit, 1);
  EXPECT_EQ(vtest::runCli("check '" + f.string() + "'").exit, 1);
}

}  // namespace

namespace {

std::string corpus(const std::string& f) { return (fs::path(VISAKIT_SOURCE_DIR) / "tests/cl" / f).string(); }

std::string ints(Tmp& t, const std::string& name, int n, int first) {
  fs::path p = t.dir / name;
  std::ofstream o(p, std::ios::binary);
  for (int i = 0; i < n; ++i) {
    int32_t v = first + i;
    o.write(reinterpret_cast<const char*>(&v), 4);
  }
  return p.string();
}

// Issue "visakit cl": --check names the argument, the work-item and the .cl
// line. broken_oob.cl's last work-item (255) reads in[256], byte 1024 of the
// 1024-byte argument 0 'in', on line 12; on pvc the access is stateless (an
// address past the buffer's end, in no allocation: CL22).
TEST(ClCli, CheckNamesTheArgumentTheWorkItemAndTheLine) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 256, 0);
  for (const char* dev : {"skl", "acm-g10", "pvc"}) {
    const std::string out = (t.dir / (std::string(dev) + ".bin")).string();
    auto r = vtest::runCli("cl '" + corpus("broken_oob.cl") + "' --device " + dev +
                           " --kernel avg3_oob --global 256 --local 64 --arg 0=@" + in + " --arg 1=zero:1024 --out 1=" + out +
                           " --check");
    EXPECT_EQ(r.exit, 3) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find(corpus("broken_oob.cl") + ":12: error: out of bounds read in "), std::string::npos)
        << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("out[i] = (left + in[i] + in[i + 1]) / 3;"), std::string::npos) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("work-item global (255,0,0) local (63,0,0) group (3,0,0): "), std::string::npos)
        << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("byte 1024 of argument 0 'in' (4 bytes)"), std::string::npos) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("1 finding"), std::string::npos) << dev << "\n" << r.output;
  }
}

// CL22, CL26: where an access missed, said from the buffer it belongs to. out[i - 1] by work-item 0:
// on skl a surface offset of -4 (0xfffffffc as the 32-bit offset it is); on pvc an address 4 bytes
// before out's allocation, which is nearer than the end of `in` below it. A __local argument of
// 64 bytes read at t[16] by local id 15: the SLM byte and the argument's.
TEST(ClCli, CheckSaysWhereAMissedAccessWasHeaded) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 64, 0);
  const std::string cl = t.write("before.cl", "__kernel void before(__global const int* in, __global int* out)\n{\n"
                                 "    int i = get_global_id(0);\n    out[i - 1] = in[i];\n}\n");
  auto skl = vtest::runCli("cl '" + cl + "' --device skl --kernel before --global 64 --local 16 --arg 0=@" + in +
                           " --arg 1=zero:256 --check");
  EXPECT_EQ(skl.exit, 3) << skl.output;
  EXPECT_NE(skl.output.find("before.cl:4: error: out of bounds write in argument 1 'out' (1 time)"), std::string::npos) << skl.output;
  EXPECT_NE(skl.output.find("local (0,0,0) group (0,0,0): byte 4294967292 of argument 1 'out' (-4 as a signed 32-bit offset) (4 bytes)"),
            std::string::npos)
      << skl.output;
  auto pvc = vtest::runCli("cl '" + cl + "' --device pvc --kernel before --global 64 --local 16 --arg 0=@" + in +
                           " --arg 1=zero:256 --check");
  EXPECT_EQ(pvc.exit, 3) << pvc.output;
  EXPECT_NE(pvc.output.find("before.cl:4: error: out of bounds write in no allocation, before the start of argument 1 'out' (1 time)"),
            std::string::npos)
      << pvc.output;
  EXPECT_NE(pvc.output.find(": 4 bytes before the start of argument 1 'out' (4 bytes)"), std::string::npos) << pvc.output;
  const std::string lcl = t.write("local_over.cl", "__kernel void local_over(__global int* out, __local int* t)\n{\n"
                                  "    int l = get_local_id(0);\n    t[l] = l * 3;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "    out[get_global_id(0)] = t[l + 1];\n}\n");
  auto local = vtest::runCli("cl '" + lcl + "' --device skl --kernel local_over --global 32 --local 16 --arg 0=zero:128 --arg 1=local:64 --check");
  EXPECT_EQ(local.exit, 3) << local.output;
  EXPECT_NE(local.output.find("local_over.cl:6: error: out of bounds read in __local memory (2 times)"), std::string::npos) << local.output;
  EXPECT_NE(local.output.find("local (15,0,0) group (1,0,0): byte 64 of __local memory: byte 64 of argument 1 't', which is 64 bytes long (4 bytes)"),
            std::string::npos)
      << local.output;
  // An address far below every allocation: a null or wild pointer, not an index before one.
  const std::string wild = t.write("wild.cl", "__kernel void wild(__global int* out, ulong a)\n{\n"
                                   "    ((__global int*)a)[get_global_id(0)] = 1;\n    out[0] = 2;\n}\n");
  auto w = vtest::runCli("cl '" + wild + "' --device pvc --kernel wild --global 16 --arg 0=zero:64 --arg 1=u64:16 --check");
  EXPECT_EQ(w.exit, 3) << w.output;
  EXPECT_NE(w.output.find("wild.cl:3: error: out of bounds write in no allocation (below every buffer: a null or wild pointer)"),
            std::string::npos)
      << w.output;
  EXPECT_NE(w.output.find("address 0x10, in no allocation (4 bytes)"), std::string::npos) << w.output;
}

// broken_race.cl reads its neighbours' __local slots (lines 14, 15) with no
// barrier after the writes (line 12): work-items of one group race.
TEST(ClCli, CheckFindsTheRaceOnLocalMemory) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 128, 1);
  for (const char* dev : {"skl", "acm-g10"}) {
    auto r = vtest::runCli("cl '" + corpus("broken_race.cl") + "' --device " + dev +
                           " --kernel neighbours_race --global 128 --local 64 --arg 0=@" + in + " --arg 1=zero:512 --check");
    EXPECT_EQ(r.exit, 3) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("broken_race.cl:14: error: data race (read/write) in __local memory"), std::string::npos)
        << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("broken_race.cl:15: error: data race (read/write) in __local memory"), std::string::npos)
        << dev << "\n" << r.output;
    // CL24: IGC's LSC SLM messages on acm-g10 carry warnings: counted, not printed.
    EXPECT_EQ(r.output.find("[-W"), std::string::npos) << dev << "\n" << r.output;
    if (std::string(dev) == "acm-g10") {
      EXPECT_NE(r.output.find("warnings on IGC's vISA"), std::string::npos) << r.output;
    }
  }
}

// The dump in tests/fixtures/cl-altered has one instruction altered by hand:
// work-items 16-31 of each 32 write in + 3 where pocl writes 3 * in. With
// in = 0, 1, 2, ...: 32 of 64 elements differ, the first work-item 16 (19 vs 48).
// A race on a __local argument names the argument and the byte in it (its offset in the
// group's SLM less the argument's start, after the kernel's own 32 bytes, K10). With 64
// work-items in two SIMD32 threads, work-item 63 reads t[0], which thread 0 writes (byte 0),
// and work-item 31 reads t[32], which thread 1 (work-item 32) writes (byte 128): each race's
// other side is thread 0, local ids 0 to 31.
TEST(ClCli, CheckNamesTheLocalArgument) {
  Tmp t;
  const std::string cl = t.write("race_arg.cl", "__kernel void race_arg(__global int* out, __local int* t)\n{\n    __local int pad[8];\n"
                                  "    int l = get_local_id(0);\n    if (l == 0) pad[0] = 5;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "    t[l] = l + pad[0];\n    out[get_global_id(0)] = t[(l + 1) % 64];\n}\n");
  for (const char* dev : {"skl", "acm-g10"}) {
    auto r = vtest::runCli("cl '" + cl + "' --device " + dev +
                           " --kernel race_arg --global 64 --local 64 --arg 0=zero:256 --arg 1=local:256 --check");
    EXPECT_EQ(r.exit, 3) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("race_arg.cl:8: error: data race (read/write) in argument 1 't' (__local)"), std::string::npos)
        << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("local (63,0,0) group (0,0,0): byte 0 of argument 1 't' (4 bytes)"), std::string::npos)
        << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("byte 128 of argument 1 't' (4 bytes)"), std::string::npos) << dev << "\n" << r.output;
    // CL30: the other access's hardware thread (both races' other side is thread 0 of the group).
    EXPECT_NE(r.output.find("also accessed by the work-items of work-group (0,0,0) with local ids (0,0,0) to (31,0,0)"),
              std::string::npos)
        << dev << "\n" << r.output;
  }
}

// A failed compile that says a lot: ocloc's first errors are kept (the later ones often
// follow from them) and its last lines, with the count of lines left out between.
TEST(ClCli, OclocErrorsKeepTheFirstAndTheLast) {
  Tmp t;
  std::string text = "__kernel void k(__global int* o)\n{\n";
  for (int i = 0; i < 200; ++i) text += "    o[" + std::to_string(i) + "] = undefined_" + std::to_string(i) + ";\n";
  const std::string cl = t.write("many.cl", text + "}\n");
  auto r = vtest::runCli("cl '" + cl + "' --kernel k --global 1 --arg 0=zero:1024");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("ocloc failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("undeclared identifier 'undefined_0'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lines left out) ..."), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("o[199] = undefined_199;"), std::string::npos) << r.output;
  EXPECT_LT(r.output.size(), 6000u) << r.output;
}

// CL28: a kernel that never ends on the OpenCL CPU device is stopped after --compare-timeout
// seconds; the run fails (exit 1) and writes nothing.
TEST(ClCli, CompareTimeoutStopsTheDevice) {
  Tmp t;
  const std::string cl = t.write("forever.cl", "__kernel void forever(__global int* out, int stop)\n{\n    int i = 0;\n"
                                  "    while (out[get_global_id(0)] != stop) { i++; }\n    out[get_global_id(0)] = i;\n}\n");
  const std::string out = (t.dir / "out.bin").string();
  auto r = vtest::runCli("cl '" + cl + "' --kernel forever --global 16 --arg 0=zero:64 --arg 1=i32:5 --out 0=" + out +
                         " --compare --compare-timeout 1");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("kernel 'forever' did not finish within 1 s on the OpenCL CPU device"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--compare-timeout sets the limit"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

// CL29: --max-steps names the work-group and the work-items of the hardware thread it stopped,
// and the OpenCL C line. Work-item 300 of groups of 64 is local id 44 of group 4, in the
// hardware thread of local ids 32 to 47 (SIMD16) or 32 to 63 (SIMD32).
TEST(ClCli, MaxStepsNamesTheWorkItems) {
  Tmp t;
  const std::string cl = t.write("stuck.cl", "__kernel void stuck_one(__global int* out)\n{\n    int gid = get_global_id(0), i = 0, v = 1;\n"
                                  "    while (gid == 300 ? 1 : i < 10) { v = v * 3 + 1; i++; }\n    out[gid] = v;\n}\n");
  for (const char* dev : {"skl", "pvc"}) {
    // The vISA at its line in the compile cache's file, or by number when the compile's folder is gone (CL23).
    for (const std::string cache : {"", " --no-cache"}) {
      auto r = vtest::runCli("cl '" + cl + "' --device " + dev + cache +
                             " --kernel stuck_one --global 512 --local 64 --arg 0=zero:2048 --max-steps 100000");
      EXPECT_EQ(r.exit, 1) << dev << "\n" << r.output;
      EXPECT_NE(r.output.find("the work-items of work-group (4,0,0) with local ids (32,0,0) to ("), std::string::npos) << dev << "\n" << r.output;
      const std::string at = "did not finish within 100000 instructions of their hardware thread (--max-steps); stopped at " + cl + ":4 (vISA: ";
      EXPECT_NE(r.output.find(at + (cache.empty() ? "/" : "instruction #")), std::string::npos) << dev << "\n" << r.output;
      if (cache.empty()) {
        EXPECT_NE(r.output.find(".visaasm:"), std::string::npos) << dev << "\n" << r.output;
      }
    }
  }
}

// CL30: two lanes of one store writing one address: the example names both work-items
// (work-items 0 and 1 both write out[0]).
TEST(ClCli, SameAddressNamesBothWorkItems) {
  Tmp t;
  const std::string cl = t.write("halves.cl", "__kernel void halves(__global int* out)\n{\n    out[get_global_id(0) / 2] = (int)get_global_id(0);\n}\n");
  auto r = vtest::runCli("cl '" + cl + "' --kernel halves --global 16 --local 16 --arg 0=zero:64 --check");
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_NE(r.output.find("halves.cl:3: error: two lanes write the same address in argument 0 'out'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("work-item global (1,0,0) local (1,0,0) group (0,0,0): byte 0 of argument 0 'out' (4 bytes)\n"
                          "      also written by work-item global (0,0,0) local (0,0,0)"),
            std::string::npos)
      << r.output;
}

TEST(ClCli, CompareReportsAnAlteredDump) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 64, 0);
  const std::string out = (t.dir / "out.bin").string();
  const std::string dump = (fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-altered/triple-skl").string();
  auto r = vtest::runCli("cl '" + dump + "' --kernel triple --global 64 --arg 0=@" + in + " --arg 1=zero:256 --out 1=" + out +
                         " --compare");
  EXPECT_EQ(r.exit, 4) << r.output;
  EXPECT_NE(r.output.find("argument 1 'out': 32 of 64 elements differ"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("element 16 (work-item 16,0,0): 19 vs reference 48"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("element 15 "), std::string::npos) << r.output;
  // The output is still written (the run finished): work-item 16 wrote 19, 15 wrote 45.
  std::string b = vtest::readAll(out);
  ASSERT_EQ(b.size(), 256u);
  int32_t v15, v16;
  std::memcpy(&v15, b.data() + 60, 4);
  std::memcpy(&v16, b.data() + 64, 4);
  EXPECT_EQ(v15, 45);
  EXPECT_EQ(v16, 19);
}

// A dump whose vISA does not load: its errors are printed and its warnings counted (CL24),
// not printed around them. The altered dump reads a declared variable nothing writes (a
// warning, A37) and reads past the end of another (an error).
TEST(ClCli, ALoadFailureShowsItsErrors) {
  Tmp t;
  const fs::path src = fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-altered/triple-skl";
  const fs::path dump = t.dir / "dump";
  fs::copy(src, dump);
  const fs::path visa = dump / "OCL_asmcae4cecf640aa906_simd32_entry_0001.visaasm";
  std::string text = vtest::readAll(visa.string());
  const size_t ret = text.rfind("    ret (M1, 1)");
  ASSERT_NE(ret, std::string::npos);
  text.insert(ret, "    mov (M1, 16) V0047(0,0)<1> Unwritten(0,0)<1;1,0>\n    mov (M1, 16) V0047(0,0)<1> V0048(3,0)<1;1,0>\n");
  const size_t decl = text.find(".decl V0048 ");
  ASSERT_NE(decl, std::string::npos);
  text.insert(decl, ".decl Unwritten v_type=G type=d num_elts=16 align=hword\n");
  std::ofstream(visa, std::ios::binary) << text;
  auto r = vtest::runCli("cl '" + dump.string() + "' --kernel triple --global 64 --arg 0=zero:256 --arg 1=zero:256");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("does not load"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("warning: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("warning on it, not shown)"), std::string::npos) << r.output;
}

// A dump whose program binary cannot be read fails, naming it (the .cos beside it has no program
// scope and no heaps: reading it instead ran a kernel other than the one compiled).
TEST(ClCli, AnUnreadableProgramBinaryIsAnError) {
  Tmp t;
  const fs::path dump = t.dir / "dump";
  fs::copy(fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-altered/triple-skl", dump);
  const fs::path bin = dump / "OCL_asmcae4cecf640aa906.progbin";
  fs::remove(bin);
  fs::create_symlink(dump / "nowhere", bin);
  auto r = vtest::runCli("cl '" + dump.string() + "' --kernel triple --global 64 --arg 0=zero:256 --arg 1=zero:256");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("cannot open '" + bin.string() + "': No such file or directory"), std::string::npos) << r.output;
  // One that is not a program binary: its file and byte, LLVM-style, with no second prefix.
  fs::remove(bin);
  std::ofstream(bin) << "not a program binary at all, but long enough for its header";
  auto bad = vtest::runCli("cl '" + dump.string() + "' --kernel triple --global 64 --arg 0=zero:256 --arg 1=zero:256");
  EXPECT_EQ(bad.exit, 1) << bad.output;
  EXPECT_EQ(bad.output.rfind(bin.string() + ": error: byte 0: magic ", 0), 0u) << bad.output;
}

// The launch limits the messages name are options of visakit cl; --grf-size must agree with the dump.
TEST(ClCli, LaunchLimitsAreOptions) {
  const std::string dump = (fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-altered/triple-skl").string();
  const std::string launch = "cl '" + dump + "' --kernel triple --global 64 --arg 0=zero:256 --arg 1=zero:256";
  auto failsSaying = [&](const std::string& options, int exit, const std::string& message) {
    auto r = vtest::runCli(launch + " " + options);
    EXPECT_EQ(r.exit, exit) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  };
  failsSaying("--max-threads 1", 1, "the launch has 2 threads, over the limit of 1 (--max-threads)");
  failsSaying("--max-buffer-size 100", 2, "256 bytes, over the limit of 100 (--max-buffer-size)");
  failsSaying("--max-work-items 32", 2, "64 work-items (64), over the limit of 32 (--max-work-items)");
  failsSaying("--max-memory 300", 2, "over the limit of 300 (--max-memory)");
  EXPECT_EQ(vtest::runCli(launch + " --max-threads abc").exit, 2);
  EXPECT_EQ(vtest::runCli(launch).exit, 0);
  // --grf-size against the dump's platform (SKL: 32-byte GRFs)
  failsSaying("--grf-size 64", 2, "--grf-size 64: the dump is for SKL, whose GRFs are 32 bytes");
  EXPECT_EQ(vtest::runCli(launch + " --grf-size 32").exit, 0);
}

// CL25: a kernel that writes 8 GiB past its buffer crashes pocl. With --check the simulation
// still runs and says where (exit 3, nothing compared); without it the run fails (exit 1,
// nothing written) and the message points to --check.
TEST(ClCli, ComparePoclCrashKeepsTheFindings) {
  Tmp t;
  const std::string cl = t.write("far.cl", "__kernel void far(__global int* p)\n{\n    p[get_global_id(0) + 0x20000000] = 1;\n}\n");
  const std::string out = (t.dir / "out.bin").string();
  const std::string launch = "cl '" + cl + "' --device skl --kernel far --global 16 --arg 0=zero:64 --out 0=" + out + " --compare";
  auto checked = vtest::runCli(launch + " --check");
  EXPECT_EQ(checked.exit, 3) << checked.output;
  EXPECT_NE(checked.output.find("far.cl:3: error: out of bounds write in "), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("visakit: compare: nothing compared: the OpenCL CPU device could not run the kernel: "),
            std::string::npos)
      << checked.output;
  EXPECT_NE(checked.output.find("ended by signal"), std::string::npos) << checked.output;
  EXPECT_EQ(checked.output.find("every output equals"), std::string::npos) << checked.output;
  fs::remove(out);
  auto plain = vtest::runCli(launch);
  EXPECT_EQ(plain.exit, 1) << plain.output;
  EXPECT_NE(plain.output.find("(--check shows the kernel's out-of-bounds accesses)"), std::string::npos) << plain.output;
  EXPECT_FALSE(fs::exists(out));
}

// A kernel pocl cannot build (Intel's sub-group built-ins, which ocloc compiles): the run fails
// with pocl's build log, and no hint about out-of-bounds accesses, which only a crash suggests;
// what pocl writes to stderr itself stays out of the output.
TEST(ClCli, ComparePoclBuildFailureSaysSo) {
  Tmp t;
  const std::string cl = t.write("sg.cl",
                                 "__kernel void sg(__global uint* p)\n{\n    uint g = get_global_id(0);\n"
                                 "    p[g] = intel_sub_group_shuffle(p[g], 0u);\n}\n");
  const std::string out = (t.dir / "out.bin").string();
  auto r = vtest::runCli("cl '" + cl + "' --device skl --kernel sg --global 16 --arg 0=zero:64 --out 0=" + out + " --compare");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("--compare: the OpenCL CPU device could not run the kernel: the OpenCL CPU device could not build the program"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("out-of-bounds"), std::string::npos) << r.output;
  // pocl's compiler's own summary ("1 error generated.") is not printed before visakit's message
  EXPECT_EQ(r.output.rfind("visakit: error: --compare: ", 0), 0u) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

// E22: float denormals are kept whatever %cr0 says; a kernel built with -cl-denorms-are-zero
// (IGC's prolog then leaves %cr0's F denorm mode at flush) gets a note saying so, others none.
TEST(ClCli, DenormsAreZeroIsANote) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 64, 0);
  const std::string launch =
      "cl '" + source() + "' --device acm-g10 --kernel saxpy --global 64 --arg 0=f32:1.5 --arg 1=@" + in + " --arg 2=@" + in;
  auto plain = vtest::runCli(launch);
  EXPECT_EQ(plain.exit, 0) << plain.output;
  EXPECT_EQ(plain.output.find("denormals"), std::string::npos) << plain.output;
  auto daz = vtest::runCli(launch + " --build-options -cl-denorms-are-zero");
  EXPECT_EQ(daz.exit, 0) << daz.output;
  EXPECT_NE(daz.output.find("visakit: note: the kernel sets %cr0 to flush float denormals (-cl-denorms-are-zero); "
                            "visakit keeps them (spec-decisions E22)"),
            std::string::npos)
      << daz.output;
}

// -cl-intel-greater-than-4GB-buffer-required is ocloc's (every buffer access stateless); pocl,
// which --compare builds with, does not take it: it is left out there (CL_INVALID_BUILD_OPTIONS before).
TEST(ClCli, CompareLeavesOutIntelOptions) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 64, 0);
  const std::string cl = t.write("twice.cl", "__kernel void twice(__global int* p) { p[get_global_id(0)] *= 2; }\n");
  auto r = vtest::runCli("cl '" + cl + "' --device skl --kernel twice --global 64 --arg 0=@" + in +
                         " --build-options '-cl-intel-greater-than-4GB-buffer-required' --compare");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_NE(r.output.find("equal"), std::string::npos) << r.output;
}

// K12: printf writes into a buffer the launch gives (its address in the cross-thread data):
// --check finds nothing (an unbound buffer was a write at address 0) and the outputs are right.
TEST(ClCli, PrintfHasItsBuffer) {
  Tmp t;
  const std::string cl = t.write("pf.cl", "__kernel void pf(__global int* out) {\n  int g = get_global_id(0);\n  if (g == 3) printf(\"g=%d\\n\", g);\n"
                                  "  out[g] = 2 * g;\n}\n");
  const std::string out = (t.dir / "out.bin").string();
  for (const char* dev : {"skl", "acm-g10"}) {
    auto r = vtest::runCli("cl '" + cl + "' --device " + dev + " --kernel pf --global 16 --local 16 --arg 0=zero:64 --out 0=" +
                           out + " --check");
    EXPECT_EQ(r.exit, 0) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find("g=3\n"), std::string::npos) << dev << "\n" << r.output;
    // With --compare, once: pocl's run of the kernel prints it too, but into visakit's error
    // if the run fails, not on visakit's output.
    auto c = vtest::runCli("cl '" + cl + "' --device " + dev + " --kernel pf --global 16 --local 16 --arg 0=zero:64 --compare");
    EXPECT_EQ(c.exit, 0) << dev << "\n" << c.output;
    EXPECT_EQ(c.output.find("g=3\n"), c.output.rfind("g=3\n")) << dev << "\n" << c.output;
    EXPECT_NE(c.output.find("g=3\n"), std::string::npos) << dev << "\n" << c.output;
    std::string b = vtest::readAll(out);
    ASSERT_EQ(b.size(), 64u) << dev;
    for (int i = 0; i < 16; ++i) {
      int32_t v;
      std::memcpy(&v, b.data() + 4 * i, 4);
      EXPECT_EQ(v, 2 * i) << dev << " element " << i;
    }
  }
}

// K12: the records printed after the run as C's printf prints them (the text below
// worked out by hand from a = 11, f = 0.5): ints with flags and widths, floats
// (promoted to double where the device has fp64, float where not), %s, %c, long,
// h and hh, and vectors, whose elements are joined by commas.
TEST(ClCli, PrintfPrintsAsTheRuntime) {
  Tmp t;
  const std::string cl = (t.dir / "pf.cl").string();
  std::ofstream(cl) << R"(__kernel void pf(__global const int* a, __global float* f) {
  int i = get_global_id(0);
  if (i == 1) {
    printf("d=%d i=%5i u=%u x=%#x X=%08X o=%o\n", a[i], -a[i], (uint)-a[i], a[i], a[i] * 4096, a[i]);
    printf("f=%f e=%.3e g=%g F=%8.2f\tend\n", f[i], f[i] * 1e6f, f[i] / 4.0f, -f[i]);
    printf("c=%c s=[%s] [%-6s] %%\n", 'A' + i, "hey", "ab");
    printf("l=%ld lx=%lx h=%hd hh=%hhd hu=%hu\n", (long)a[i] * -100000000000L, (ulong)0xdeadbeefcafeUL, (short)-300, (char)-5, (ushort)65000);
    printf("v=%v4hld c4=%v4hhd s2=%v2hd f2=%v2hlf l2=%v2ld\n", (int4)(1, -2, 3, i), (char4)(1, -2, 3, 127), (short2)(-300, 300), (float2)(0.5f, -1.25f), (long2)(-1L, 1L << 40));
  }
}
)";
  const std::string a = (t.dir / "a.bin").string(), f = (t.dir / "f.bin").string();
  {
    const int32_t av[2] = {10, 11};
    const float fv[2] = {0.0f, 0.5f};
    std::ofstream(a, std::ios::binary).write(reinterpret_cast<const char*>(av), sizeof av);
    std::ofstream(f, std::ios::binary).write(reinterpret_cast<const char*>(fv), sizeof fv);
  }
  const std::string want =
      "d=11 i=  -11 u=4294967285 x=0xb X=0000B000 o=13\n"
      "f=0.500000 e=5.000e+05 g=0.125 F=   -0.50\tend\n"
      "c=B s=[hey] [ab    ] %\n"
      "l=-1100000000000 lx=deadbeefcafe h=-300 hh=-5 hu=65000\n"
      "v=1,-2,3,1 c4=1,-2,3,127 s2=-300,300 f2=0.500000,-1.250000 l2=-1,1099511627776\n";
  for (const char* dev : {"skl", "tgllp", "pvc"}) {
    auto r = vtest::runCli("cl '" + cl + "' --device " + dev + " --kernel pf --global 2 --arg 0=@" + a + " --arg 1=@" + f);
    EXPECT_EQ(r.exit, 0) << dev << "\n" << r.output;
    EXPECT_NE(r.output.find(want), std::string::npos) << dev << "\n" << r.output;
  }
  // With --json the text is the summary's "printf".
  auto j = vtest::runCli("cl '" + cl + "' --kernel pf --global 2 --arg 0=@" + a + " --arg 1=@" + f + " --json");
  EXPECT_NE(j.output.find("\"printf\": \"d=11 i=  -11"), std::string::npos) << j.output;
}

// --keep-dumps DIR keeps the compile's dumps (a new folder), which a later run takes as INPUT.
TEST(ClCli, KeepDumps) {
  Tmp t;
  const std::string in = ints(t, "in.bin", 64, 0);
  const std::string kept = (t.dir / "kept").string();
  const std::string args = " --kernel avg3_oob --global 64 --arg 0=@" + in + " --arg 1=zero:256";
  auto first = vtest::runCli("cl '" + corpus("broken_oob.cl") + "' --keep-dumps " + kept + args);
  EXPECT_EQ(first.exit, 0) << first.output;
  bool visaasm = false;
  for (const auto& e : fs::directory_iterator(kept)) visaasm |= e.path().extension() == ".visaasm";
  EXPECT_TRUE(visaasm);
  auto again = vtest::runCli("cl " + kept + args + " --check");
  EXPECT_EQ(again.exit, 3) << again.output;
  EXPECT_NE(again.output.find(kept + "/"), std::string::npos) << again.output;  // the vISA named in the kept folder
  // The compile's temporary copy of the source is gone: the line is named in IGC's copy in the folder.
  EXPECT_NE(again.output.find(".cl:"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find("visakit-cl-"), std::string::npos) << again.output;
  auto noParent = vtest::runCli("cl '" + corpus("broken_oob.cl") + "' --keep-dumps " + (t.dir / "none" / "k").string() + args);
  EXPECT_EQ(noParent.exit, 1) << noParent.output;
  EXPECT_NE(noParent.output.find("there is no folder '" + (t.dir / "none").string() + "'"), std::string::npos)
      << noParent.output;
  auto exists = vtest::runCli("cl '" + corpus("broken_oob.cl") + "' --keep-dumps " + kept + args);
  EXPECT_EQ(exists.exit, 1) << exists.output;
  EXPECT_NE(exists.output.find("it exists"), std::string::npos) << exists.output;
  EXPECT_EQ(vtest::runCli("cl " + kept + " --keep-dumps " + (t.dir / "k2").string() + args).exit, 2);
}

}  // namespace

namespace {

// SIGINT once the compile is done and the simulation runs (a kernel that
// spins): the process ends by SIGINT, its temporary folder (no compile
// cache) is gone and no --out is written.
TEST(ClCli, SigintDuringTheSimulationRemovesTheTemporaryFolder) {
  Tmp t;
  fs::path tmp = t.dir / "tmp";
  fs::create_directories(tmp);
  fs::path src = t.dir / "spin.cl";
  std::ofstream(src) << "__kernel void spin(__global int* a) {\n  int i = 0;\n  while (a[0] == 0) i++;\n  a[1] = i;\n}\n";
  fs::path out = t.dir / "out.bin";
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    ::execl(VISAKIT_CLI, VISAKIT_CLI, "cl", src.c_str(), "--no-cache", "--kernel", "spin", "--global", "4096", "--arg", "0=zero:64",
            "--out", ("0=" + out.string()).c_str(), "--max-steps", "1000000000", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait for the dump's .visaasm (the compile is over) and no child process left (ocloc ended).
  auto compiled = [&] {
    std::error_code ec;
    bool found = false;
    for (fs::recursive_directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec))
      found |= it->path().extension() == ".visaasm";
    if (!found) return false;
    const std::string p = std::to_string(pid);
    std::ifstream kids("/proc/" + p + "/task/" + p + "/children");
    std::string k;
    return !(kids >> k);
  };
  bool ready = false;
  for (int i = 0; i < 3000 && !ready; ++i) {
    ::usleep(10000);
    ready = compiled();
  }
  ASSERT_TRUE(ready) << "the compile did not finish";
  ::usleep(300000);
  ::kill(pid, SIGINT);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) << st;
  EXPECT_TRUE(fs::is_empty(tmp));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
