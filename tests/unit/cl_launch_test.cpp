// The OpenCL launch ABI (src/cl/launch.hpp; docs/spec-decisions.md K1-K11):
// a patch list built by hand, the launch it gives, the payload of every
// hardware thread. Expected bytes are worked out from the decisions by hand.
#include <gtest/gtest.h>

#include <cstring>

#include "cl/launch.hpp"
#include "visakit/kernel.hpp"

namespace visakit::cl {
namespace {

uint64_t le(const std::vector<uint8_t>& b, size_t at, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{b.at(at + i)} << (8 * i);
  return v;
}

DataParameter param(DataParamType t, uint32_t offset, uint32_t arg = 0, uint32_t source = 0, uint32_t size = 4) {
  DataParameter d;
  d.type = t;
  d.offset = offset;
  d.argumentNumber = arg;
  d.sourceOffset = source;
  d.dataSize = size;
  return d;
}

PointerArg pointer(uint32_t arg, uint32_t ctOffset, uint32_t ssOffset) {
  PointerArg p;
  p.argumentNumber = arg;
  p.dataParamOffset = ctOffset;
  p.dataParamSize = 8;
  p.surfaceStateHeapOffset = ssOffset;
  return p;
}

struct Fixture {
  Kernel kernel;
  KernelPatchList patches;
  std::vector<std::optional<KernelArgValue>> args;
  template <class T>
  void arg(T v) {
    args.emplace_back().emplace(std::in_place_type<T>, std::move(v));
  }
  KernelLaunchInput in() {
    KernelLaunchInput i;
    i.kernel = &kernel;
    i.patches = &patches;
    i.simd = 16;
    i.grfSize = 32;
    i.shape.dims = 1;
    i.shape.global = {64, 1, 1};
    i.args = args;
    return i;
  }
};

std::vector<uint8_t> startThread(const PreparedLaunch& l, std::array<uint32_t, 3> group, uint32_t thread,
                                 uint32_t slot, uint32_t& mask, size_t grfBytes = 4096) {
  std::vector<uint8_t> grf(grfBytes, 0xee);
  l.cfg.payload->threadStart(group, thread, slot, grf, mask);
  return grf;
}

// A corrupt patch list cannot make the cross-thread data larger than a thread's registers (256
// GRFs of 64 bytes): a stream size, an offset or a data size past that is an error, not gigabytes.
TEST(ClLaunch, CrossThreadDataBeyondTheRegistersIsAnError) {
  auto prepare = [](Fixture& f) {
    PreparedLaunch l;
    std::string err;
    EXPECT_FALSE(prepareKernelLaunch(f.in(), l, err));
    return err;
  };
  Fixture big;
  big.patches.dataParameterStreamSize = 0xffffffffu;
  EXPECT_EQ(prepare(big), "the patch list's DATA_PARAMETER_STREAM is 4294967295 bytes, more than a thread's registers hold (16384)");
  Fixture far;
  far.patches.dataParameterStreamSize = 64;
  far.patches.dataParameters = {param(DataParamType::GlobalWorkSize, 0xfffffff0u, 0, 0)};
  EXPECT_EQ(prepare(far), "the patch list puts a value at bytes 4294967280..4294967284 of the cross-thread data, past the "
                          "16384 bytes a thread's registers hold");
  Fixture wide;
  wide.patches.dataParameterStreamSize = 64;
  DataParameter p = param(DataParamType::GlobalWorkSize, 16, 0, 0);
  p.dataSize = 16384;
  wide.patches.dataParameters = {p};
  EXPECT_EQ(prepare(wide), "the patch list puts a value at bytes 16..16400 of the cross-thread data, past the 16384 bytes a "
                           "thread's registers hold");
}

// K1, K5, K8: buffers at 0x100000 and 64 KB-aligned addresses with a 64 KB
// gap; their addresses, the scalars and the NDRange in the cross-thread data.
TEST(ClLaunch, CrossThreadDataByHand) {
  Fixture f;
  f.patches.dataParameterStreamSize = 64;
  f.patches.pointerArgs = {pointer(0, 0, 0), pointer(1, 8, 64)};
  BindingTableState bt;
  bt.count = 2;
  f.patches.bindingTable = bt;
  f.patches.dataParameters = {param(DataParamType::KernelArgument, 16, 2),
                              param(DataParamType::GlobalWorkSize, 20, 0, 0),
                              param(DataParamType::GlobalWorkSize, 24, 0, 4),
                              param(DataParamType::LocalWorkSize, 28, 0, 0),
                              param(DataParamType::NumWorkGroups, 32, 0, 0),
                              param(DataParamType::GlobalWorkOffset, 36, 0, 0),
                              param(DataParamType::WorkDimensions, 40),
                              param(DataParamType::SimdSize, 44),
                              param(DataParamType::EnqueuedLocalWorkSize, 48, 0, 8)};
  f.arg(BufferArg{std::vector<uint8_t>(100, 1), "@a"});
  f.arg(BufferArg{std::vector<uint8_t>(0x10000, 2), "@b"});
  f.arg(ScalarArg{ScalarType::I32, 0xfffffff9u, "i32:-7"});
  KernelLaunchInput in = f.in();
  in.shape.offset = {5, 0, 0};
  PreparedLaunch l;
  std::string err;
  ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
  // 64 work-items: the largest divisor up to 256 is 64 itself (K2).
  ASSERT_TRUE(l.shape.local);
  EXPECT_EQ((*l.shape.local)[0], 64u);
  EXPECT_EQ(l.threadsPerGroup, 4u);
  EXPECT_EQ(l.grid, (std::array<uint32_t, 3>{1, 1, 1}));
  // Buffer 0: 100 bytes at 0x100000; the next at alignUp(0x100064, 64K) + 64K.
  ASSERT_EQ(l.argMemory.size(), 3u);
  EXPECT_EQ(l.argMemory[0].address, 0x100000u);
  EXPECT_EQ(l.argMemory[1].address, 0x120000u);
  ASSERT_EQ(l.crossThread.size(), 64u);
  EXPECT_EQ(le(l.crossThread, 0, 8), 0x100000u);
  EXPECT_EQ(le(l.crossThread, 8, 8), 0x120000u);
  EXPECT_EQ(le(l.crossThread, 16, 4), 0xfffffff9u);
  EXPECT_EQ(le(l.crossThread, 20, 4), 64u);  // global size x
  EXPECT_EQ(le(l.crossThread, 24, 4), 1u);   // global size y
  EXPECT_EQ(le(l.crossThread, 28, 4), 64u);  // local size x
  EXPECT_EQ(le(l.crossThread, 32, 4), 1u);   // work-groups x
  EXPECT_EQ(le(l.crossThread, 36, 4), 5u);   // offset x
  EXPECT_EQ(le(l.crossThread, 40, 4), 1u);   // work dimensions
  EXPECT_EQ(le(l.crossThread, 44, 4), 16u);  // SIMD size
  EXPECT_EQ(le(l.crossThread, 48, 4), 1u);   // enqueued local size z
  EXPECT_EQ(le(l.crossThread, 52, 4), 0u);   // untouched bytes stay zero
  // The stateless space names both buffers at those addresses; the binding
  // table maps surface state 0 and 64 to indices 0 and 1 (64 bytes each, P-rules).
  ASSERT_EQ(l.cfg.addresses.size(), 2u);
  EXPECT_EQ(l.cfg.addresses[1].second, 0x120000u);
  ASSERT_EQ(l.cfg.bindingTable.size(), 2u);
  EXPECT_EQ(l.cfg.bindingTable[0].first, 0u);
  EXPECT_EQ(l.cfg.bindingTable[1].first, 1u);
  EXPECT_EQ(l.cfg.bindingTable[1].second, l.bindings[1].name);
  EXPECT_EQ(l.bindings[1].name, "argument 1");
  EXPECT_TRUE(l.bindings[1].allocation);
  // With the kernel's surface state heap the table is read: entries at byte
  // 16 pointing at surface states 64 and 0 make argument 1 index 0.
  std::vector<uint8_t> ssh(24, 0);
  ssh[16] = 64;
  f.patches.bindingTable->offset = 16;
  in.surfaceStateHeap = ssh;
  ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
  ASSERT_EQ(l.cfg.bindingTable.size(), 2u);
  EXPECT_EQ(l.cfg.bindingTable[0], (std::pair<uint32_t, std::string>{1, "argument 0"}));
  EXPECT_EQ(l.cfg.bindingTable[1], (std::pair<uint32_t, std::string>{0, "argument 1"}));
}

// K3, K4, K5: r0 holds the group ids (dwords 1, 6, 7) and the thread's index
// in its group (dword 2); the local ids X, Y, Z as words, one GRF-rounded
// block each (SIMD16 x 2 bytes = one 32-byte GRF), from r1; the cross-thread
// data from r1 + 3 blocks = byte 128.
TEST(ClLaunch, ThreadPayloadSimd16) {
  Fixture f;
  f.patches.dataParameterStreamSize = 8;
  f.patches.dataParameters = {param(DataParamType::KernelArgument, 0, 0)};
  f.arg(ScalarArg{ScalarType::U32, 0x11223344u, "u32:0x11223344"});
  KernelLaunchInput in = f.in();
  in.shape.dims = 3;
  in.shape.global = {8, 6, 4};
  in.shape.local = std::array<uint64_t, 3>{4, 3, 2};  // 24 work-items: 2 threads, the second half full
  PreparedLaunch l;
  std::string err;
  ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
  EXPECT_EQ(l.threadsPerGroup, 2u);
  EXPECT_EQ(l.grid, (std::array<uint32_t, 3>{2, 2, 2}));
  uint32_t mask = 0;
  std::vector<uint8_t> g = startThread(l, {1, 0, 1}, 1, 0, mask);
  EXPECT_EQ(mask, 0xffu);  // work-items 16..23
  EXPECT_EQ(le(g, 4, 4), 1u);
  EXPECT_EQ(le(g, 8, 4), 1u);  // r0.2: thread 1 of its group (K3)
  EXPECT_EQ(le(g, 24, 4), 0u);
  EXPECT_EQ(le(g, 28, 4), 1u);
  EXPECT_EQ(le(startThread(l, {1, 0, 1}, 0, 0, mask), 8, 4), 0u);  // thread 0
  // Lane 0 of thread 1 is work-item 16 of a 4x3x2 group: x 0, y 1, z 1;
  // lane 7 is work-item 23: x 3, y 2, z 1.
  EXPECT_EQ(le(g, 32 + 0, 2), 0u);
  EXPECT_EQ(le(g, 64 + 0, 2), 1u);
  EXPECT_EQ(le(g, 96 + 0, 2), 1u);
  EXPECT_EQ(le(g, 32 + 14, 2), 3u);
  EXPECT_EQ(le(g, 64 + 14, 2), 2u);
  EXPECT_EQ(le(g, 96 + 14, 2), 1u);
  EXPECT_EQ(le(g, 32 + 16, 2), 0xeeeeu);  // lane 8 has no work-item: untouched
  EXPECT_EQ(le(g, 128, 4), 0x11223344u);
  EXPECT_EQ(l.localId(1, 7), (std::array<uint64_t, 3>{3, 2, 1}));
}

// K4 with SIMD32 and 64-byte GRFs (pvc): each block is one 64-byte GRF,
// cross-thread data at 64 + 3 * 64 = 256. SIMD8 with 32-byte GRFs: 16 bytes
// of ids round up to one GRF, cross-thread data at 128.
TEST(ClLaunch, LocalIdBlocksFollowTheGrf) {
  for (auto [simd, grf, ct, block] : {std::array<unsigned, 4>{32, 64, 256, 64}, {8, 32, 128, 32}, {32, 32, 224, 64}}) {
    Fixture f;
    f.patches.dataParameterStreamSize = 4;
    f.patches.dataParameters = {param(DataParamType::SimdSize, 0)};
    KernelLaunchInput in = f.in();
    in.simd = simd;
    in.grfSize = grf;
    in.shape.global = {simd * 2, 1, 1};
    in.shape.local = std::array<uint64_t, 3>{simd * 2, 1, 1};
    PreparedLaunch l;
    std::string err;
    ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
    uint32_t mask = 0;
    std::vector<uint8_t> g = startThread(l, {0, 0, 0}, 1, 0, mask);
    EXPECT_EQ(mask, simd == 32 ? 0xffffffffu : (1u << simd) - 1) << simd;
    EXPECT_EQ(le(g, ct, 4), simd) << simd << "/" << grf;
    EXPECT_EQ(le(g, grf + 2 * (simd - 1), 2), 2 * simd - 1) << simd;     // x of the last lane
    EXPECT_EQ(le(g, grf + block + 2 * (simd - 1), 2), 0u) << simd;       // its y
  }
}

// K4, K5: THREAD_PAYLOAD says which per-thread data come after r0. A kernel that never asks
// for local ids has none, or one unused GRF (UnusedPerThreadConstantPresent): IGC's skl code of
// `atomic_inc(out)` (SIMD32) reads its pointer, cross-thread byte 32, at GRF byte 96 = 32 + 32 + 32;
// acm-g10's at 64 = 32 + 0 + 32. Only X present: one block of ids, and nothing written for Y, Z.
TEST(ClLaunch, PerThreadDataFromTheThreadPayload) {
  struct Case {
    bool x, y, z, unused;
    uint32_t ctd;
  };
  for (const Case& c : {Case{false, false, false, true, 64}, Case{false, false, false, false, 32},
                        Case{true, false, false, false, 96}, Case{true, true, true, true, 224}}) {
    Fixture f;
    ThreadPayload tp;
    tp.localIdXPresent = c.x;
    tp.localIdYPresent = c.y;
    tp.localIdZPresent = c.z;
    tp.unusedPerThreadConstantPresent = c.unused;
    f.patches.threadPayload = tp;
    f.patches.dataParameterStreamSize = 4;
    f.patches.dataParameters = {param(DataParamType::SimdSize, 0)};
    KernelLaunchInput in = f.in();
    in.simd = 32;
    in.grfSize = 32;
    in.shape.global = {64, 1, 1};
    in.shape.local = std::array<uint64_t, 3>{64, 1, 1};
    PreparedLaunch l;
    std::string err;
    ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
    uint32_t mask = 0;
    std::vector<uint8_t> g = startThread(l, {0, 0, 0}, 1, 0, mask);
    SCOPED_TRACE(c.ctd);
    EXPECT_EQ(le(g, c.ctd, 4), 32u);  // SIMD size, cross-thread byte 0
    if (c.x) {
      EXPECT_EQ(le(g, 32 + 2 * 31, 2), 63u);  // x of thread 1's last lane
    }
    if (c.x && !c.y) {
      EXPECT_EQ(le(g, 96 + 4, 4), 0xeeeeeeeeu);  // after the cross-thread data: untouched
    }
  }
  Fixture f;
  ThreadPayload flat;
  flat.localIdFlattenedPresent = true;
  f.patches.threadPayload = flat;
  KernelLaunchInput in = f.in();
  PreparedLaunch l;
  std::string err;
  EXPECT_FALSE(prepareKernelLaunch(in, l, err));
  EXPECT_NE(err.find("THREAD_PAYLOAD"), std::string::npos) << err;
}

// K2: without --local, the largest divisor of global[0] up to 256, else the
// kernel's reqd_work_group_size, which a --local must match.
TEST(ClLaunch, WorkGroupSizes) {
  for (auto [global, local] : {std::pair<uint64_t, uint64_t>{1000, 250}, {1024, 256}, {7, 7}, {509, 1}, {256, 256}}) {
    Fixture f;
    KernelLaunchInput in = f.in();
    in.shape.global = {global, 1, 1};
    PreparedLaunch l;
    std::string err;
    ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
    EXPECT_EQ((*l.shape.local)[0], local) << global;
  }
  Fixture f;
  ExecutionEnvironment env;
  env.requiredWorkGroupSizeX = 8;
  env.requiredWorkGroupSizeY = 2;
  f.patches.executionEnvironment = env;
  KernelLaunchInput in = f.in();
  in.shape.dims = 2;
  in.shape.global = {16, 4, 1};
  PreparedLaunch l;
  std::string err;
  ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
  EXPECT_EQ(*l.shape.local, (std::array<uint64_t, 3>{8, 2, 1}));
  in.shape.local = std::array<uint64_t, 3>{4, 4, 1};
  EXPECT_FALSE(prepareKernelLaunch(in, l, err));
  EXPECT_NE(err.find("requires work-groups of 8x2x1"), std::string::npos) << err;
}

// K10: the kernel's own __local bytes first, then each __local argument at
// the alignment its token gives (sourceOffset); the cross-thread data holds
// each argument's offset from the end of the kernel's own bytes (IGC's code
// adds their size), as compute-runtime's setArgLocal counts them.
TEST(ClLaunch, SharedLocalMemoryLayout) {
  Fixture f;
  LocalSurface ls;
  ls.totalInlineLocalMemorySize = 100;
  f.patches.localSurface = ls;
  f.patches.dataParameterStreamSize = 16;
  f.patches.dataParameters = {param(DataParamType::SumOfLocalMemoryObjectArgumentSizes, 0, 0, 16),
                              param(DataParamType::SumOfLocalMemoryObjectArgumentSizes, 4, 1, 8),
                              param(DataParamType::SumOfLocalMemoryObjectArgumentSizes, 8, 2, 16)};
  f.arg(LocalArg{40});
  f.arg(LocalArg{12});
  f.arg(LocalArg{4});
  KernelLaunchInput in = f.in();
  PreparedLaunch l;
  std::string err;
  ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
  EXPECT_EQ(le(l.crossThread, 0, 4), 0u);   // the first argument right after the kernel's 100 bytes
  EXPECT_EQ(le(l.crossThread, 4, 4), 40u);  // 0 + 40, already 8-aligned
  EXPECT_EQ(le(l.crossThread, 8, 4), 64u);  // alignUp(40 + 12, 16)
  EXPECT_EQ(l.argMemory[0].slmOffset, 100u);
  EXPECT_EQ(l.argMemory[1].slmOffset, 140u);
  EXPECT_EQ(l.argMemory[2].slmOffset, 164u);
  ASSERT_TRUE(l.cfg.slmBytes);
  EXPECT_EQ(*l.cfg.slmBytes, 168u);  // 100 + 64 + 4
}

// K6, K7: scratch of MEDIA_VFE_STATE bytes per hardware thread in flight,
// r0.5 = slot * that; private memory one per-thread (or per-lane x SIMD) block
// per slot, in slot order, the slot named by %hw_id and by %sr0 in the bits
// IGC's code packs back into it (0-2, 4-5 and 7-13; 8-14 on Xe-HPC).
TEST(ClLaunch, ScratchAndPrivateMemorySlots) {
  Fixture f;
  MediaVfeState vfe;
  vfe.perThreadScratchSpace = 1024;
  f.patches.mediaVfeState = vfe;
  PrivateMemory pm;
  pm.perThreadPrivateMemorySize = 12;
  pm.isSimtThread = 1;
  pm.dataParamOffset = 0;
  pm.dataParamSize = 8;
  f.patches.privateMemory = pm;
  f.patches.dataParameterStreamSize = 8;
  KernelLaunchInput in = f.in();
  in.shape.global = {16 * 40, 1, 1};
  in.shape.local = std::array<uint64_t, 3>{16 * 40, 1, 1};  // 40 threads a group
  in.jobs = 1;
  for (const char* platform : {"DG2", "PVCXT", "SKL"}) {
    SCOPED_TRACE(platform);
    in.platform = platform;
    PreparedLaunch l;
    std::string err;
    ASSERT_TRUE(prepareKernelLaunch(in, l, err)) << err;
    const sim::SurfaceBinding* scratch = nullptr;
    const sim::SurfaceBinding* priv = nullptr;
    for (const sim::SurfaceBinding& b : l.bindings) {
      if (b.name == "%scratch") scratch = &b;
      if (b.name == "private memory") priv = &b;
    }
    ASSERT_TRUE(scratch && priv);
    EXPECT_EQ(scratch->bytes.size(), 40u * 1024);
    EXPECT_EQ(priv->bytes.size(), 40u * 12 * 16);  // slots 0..39, 12 x SIMD16 bytes each
    EXPECT_EQ(le(l.crossThread, 0, 8), 0x100000u);
    uint32_t mask = 0;
    std::vector<uint8_t> g = startThread(l, {0, 0, 0}, 3, 5, mask);
    EXPECT_EQ(le(g, 20, 4), 5u * 1024);
    // Slot 37 = 0b100101: bits 0-2 = 5, bits 3-4 = 0, the rest 1 -> 5 | 0 << 4 | 1 << 7 (or << 8).
    const bool xeHpc = std::string(platform) == "PVCXT";
    for (auto [slot, sr0, sr0Hpc] : {std::tuple<uint32_t, uint32_t, uint32_t>{0, 0, 0}, {7, 7, 7}, {8, 16, 16},
                                     {24, 48, 48}, {32, 128, 256}, {37, 133, 261}}) {
      auto v = l.cfg.payload->stateRegister(slot);
      ASSERT_TRUE(v);
      EXPECT_EQ((*v)[0], xeHpc ? sr0Hpc : sr0) << slot;
      EXPECT_EQ(l.cfg.payload->hardwareThreadId(slot), std::optional<uint32_t>(slot));
    }
    // What a slot's thread owns (K6, K7): %scratch from slot x 1024, 1024 bytes;
    // private memory from slot x 192 (12 x SIMD16), 192 bytes.
    for (auto [slot, scratchAt, privateAt] : {std::tuple<uint32_t, uint64_t, uint64_t>{0, 0, 0}, {5, 5120, 960},
                                              {8, 8192, 1536}, {39, 39936, 7488}}) {
      std::vector<sim::PayloadSource::SlotMemory> m = l.cfg.payload->slotMemory(slot);
      ASSERT_EQ(m.size(), 2u);
      EXPECT_EQ(m[0].name, "%scratch");
      EXPECT_EQ(m[0].offset, scratchAt) << slot;
      EXPECT_EQ(m[0].size, 1024u);
      EXPECT_EQ(m[1].name, "private memory");
      EXPECT_EQ(m[1].offset, privateAt) << slot;
      EXPECT_EQ(m[1].size, 192u);
    }
    EXPECT_EQ(7488u + 192u, priv->bytes.size());
  }
  // %sr0 names at most 4096 slots: 103 host threads x 40 threads a group do not fit.
  in.jobs = 103;
  PreparedLaunch l;
  std::string err;
  EXPECT_FALSE(prepareKernelLaunch(in, l, err));
  EXPECT_NE(err.find("4120 private-memory slots"), std::string::npos) << err;
}

// K5: a char in a 4-byte slot: its byte, then zeros (not sign-extended); a
// long split into two 4-byte parameters (SourceOffset 0 and 4).
TEST(ClLaunch, NarrowAndSplitScalars) {
  Fixture f;
  f.patches.dataParameterStreamSize = 16;
  f.patches.dataParameters = {param(DataParamType::KernelArgument, 0, 0, 0, 4),
                              param(DataParamType::KernelArgument, 4, 1, 0, 4),
                              param(DataParamType::KernelArgument, 8, 1, 4, 4)};
  f.arg(ScalarArg{ScalarType::I8, 0xfb, "i8:-5"});
  f.arg(ScalarArg{ScalarType::U64, 0x1122334455667788ull, "u64:0x1122334455667788"});
  PreparedLaunch l;
  std::string err;
  ASSERT_TRUE(prepareKernelLaunch(f.in(), l, err)) << err;
  EXPECT_EQ(le(l.crossThread, 0, 4), 0xfbu);
  EXPECT_EQ(le(l.crossThread, 4, 4), 0x55667788u);
  EXPECT_EQ(le(l.crossThread, 8, 4), 0x11223344u);
}

TEST(ClLaunch, LaunchesItCannotTake) {
  std::string err;
  PreparedLaunch l;
  {
    Fixture f;
    f.patches.pointerArgs = {pointer(0, 0, 0)};
    f.arg(ScalarArg{ScalarType::U32, 1, "u32:1"});
    EXPECT_FALSE(prepareKernelLaunch(f.in(), l, err));
    EXPECT_NE(err.find("argument 0 is a buffer"), std::string::npos) << err;
  }
  {
    Fixture f;
    f.patches.dataParameters = {param(DataParamType::KernelArgument, 0, 0, 4, 4)};
    f.arg(ScalarArg{ScalarType::U32, 1, "u32:1"});
    EXPECT_FALSE(prepareKernelLaunch(f.in(), l, err));
    EXPECT_NE(err.find("is read from byte 4"), std::string::npos) << err;
  }
  {
    Fixture f;
    KernelLaunchInput in = f.in();
    in.simd = 4;
    EXPECT_FALSE(prepareKernelLaunch(in, l, err));
  }
  {
    Fixture f;
    KernelLaunchInput in = f.in();
    in.shape.global = {2048, 1, 1};
    in.shape.local = std::array<uint64_t, 3>{2048, 1, 1};
    EXPECT_FALSE(prepareKernelLaunch(in, l, err));
    EXPECT_NE(err.find("over the limit of 1024"), std::string::npos) << err;
  }
  {
    Fixture f;
    KernelLaunchInput in = f.in();
    in.shape.global = {30, 1, 1};
    in.shape.local = std::array<uint64_t, 3>{4, 1, 1};
    EXPECT_FALSE(prepareKernelLaunch(in, l, err));
    EXPECT_NE(err.find("not a multiple"), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace visakit::cl
