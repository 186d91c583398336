// The patch-token program binary (.progbin): program-scope data, kernels, bounds. Expected
// values read off the fixtures' bytes (xxd) and their .cos text by hand.
#include <gtest/gtest.h>

#include <tuple>

#include "cl/dump.hpp"
#include "cl/progbin.hpp"
#include "test_util.hpp"

namespace {

using namespace visakit::cl;
namespace fs = std::filesystem;

fs::path fixture(const std::string& rel) { return fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-dumps" / rel; }

std::vector<uint8_t> bytesOf(const fs::path& p) {
  std::string s = vtest::readAll(p);
  return std::vector<uint8_t>(s.begin(), s.end());
}

const char* kProgram = "program-skl/OCL_asm71cedd5a19fe3ca0.progbin";

ProgramBinary parseFixture(const std::string& rel) {
  ProgramBinary p;
  std::string err;
  EXPECT_TRUE(parseProgbin(bytesOf(fixture(rel)), rel, p, err)) << err;
  return p;
}

std::vector<uint8_t> le32(std::initializer_list<uint32_t> words) {
  std::vector<uint8_t> out;
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(w >> (8 * i)));
  return out;
}

TEST(ClProgbin, ProgramSklHeaderAndProgramScopeData) {
  ProgramBinary p = parseFixture(kProgram);
  EXPECT_EQ(p.version, 1081u);
  EXPECT_EQ(p.device, 12u);
  EXPECT_EQ(deviceFamilyName(p.device), "Gen9");
  EXPECT_EQ(p.gpuPointerSize, 8u);
  EXPECT_EQ(p.steppingId, 9u);
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].name, "lookup");
  EXPECT_EQ(p.kernels[1].name, "atom");

  // __constant int table[8] = {1, 2, 3, 5, 8, 13, 21, 34}; then `second` = &table[2]: offset 8.
  ASSERT_EQ(p.program.constantBuffers.size(), 1u);
  std::vector<uint8_t> constants = le32({1, 2, 3, 5, 8, 13, 21, 34, 8, 0});
  EXPECT_EQ(p.program.constantBuffers[0].data, constants);
  EXPECT_EQ(p.program.constantBuffers[0].initializationDataSize, 40u);
  // __global counter = 7, bins = {100, 200, 300}, middle = &bins[1]: offset 8.
  ASSERT_EQ(p.program.globalBuffers.size(), 1u);
  EXPECT_EQ(p.program.globalBuffers[0].data, le32({7, 100, 200, 300, 8, 0}));
  ASSERT_EQ(p.program.constantPointers.size(), 1u);
  EXPECT_EQ(p.program.constantPointers[0], (PointerPatch{0, 32, 1, 0}));
  ASSERT_EQ(p.program.globalPointers.size(), 1u);
  EXPECT_EQ(p.program.globalPointers[0], (PointerPatch{0, 16, 0, 0}));
  ASSERT_EQ(p.program.tokens.size(), 4u);
  EXPECT_EQ(p.program.tokens[0].offset, 28u);
  EXPECT_EQ(p.program.tokens[0].bytes.size(), 56u);  // 16-byte token + 40 bytes inline
  EXPECT_EQ(p.program.tokens[2].offset, 128u);
}

TEST(ClProgbin, LookupKernelHeaderHeapsAndBindingTable) {
  ProgramBinary p = parseFixture(kProgram);
  const KernelBinary* k = p.kernel("lookup");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->offset, 184u);
  EXPECT_EQ(k->header.checkSum, 0x27e1388cu);
  EXPECT_EQ(k->header.shaderHashCode, 8200735350541139104ull);
  EXPECT_EQ(k->header.kernelUnpaddedSize, 1144u);
  EXPECT_EQ(k->kernelHeap.size(), 1280u);
  EXPECT_EQ(k->dynamicStateHeap.size(), 32u);
  EXPECT_EQ(k->surfaceStateHeap.size(), 340u);
  EXPECT_EQ(k->bindingTable(), (std::vector<uint32_t>{0, 64, 128, 192, 256}));
  EXPECT_EQ(k->patchList.tokens.size(), 32u);
  EXPECT_EQ(k->patchList.tokens[0].offset, 1884u);
  EXPECT_EQ(k->patchList.tokens[0].id, uint32_t(Token::MediaInterfaceDescriptorLoad));
  // Binding-table index of each surface, read from the table in the heap.
  EXPECT_EQ(bindingTableIndex(k->patchList, 128, k->surfaceStateHeap), 2u);
  EXPECT_EQ(bindingTableIndex(k->patchList, 256, k->surfaceStateHeap), 4u);
  EXPECT_FALSE(bindingTableIndex(k->patchList, 32, k->surfaceStateHeap));
  EXPECT_EQ(p.kernel("atom")->header.checkSum, 0xcc169ddeu);
  EXPECT_FALSE(p.kernel("nope"));
}

TEST(ClProgbin, AddOnPvc) {
  ProgramBinary p = parseFixture("add-pvc/OCL_asm11091fc94eeaac57.progbin");
  EXPECT_EQ(p.device, 0xc08u);
  EXPECT_EQ(deviceFamilyName(p.device), "XeHPC");
  EXPECT_EQ(p.steppingId, 7u);
  EXPECT_TRUE(p.program.tokens.empty());
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "add");
  EXPECT_EQ(p.kernels[0].header.checkSum, 0x34f8281cu);
  EXPECT_EQ(p.kernels[0].header.kernelUnpaddedSize, 344u);
  EXPECT_EQ(p.kernels[0].bindingTable(), (std::vector<uint32_t>{0, 64}));
}

// The binary decode gives what IGC printed: every kernel of every fixture, token by token.
TEST(ClProgbin, AgreesWithTheCosOfEveryFixtureKernel) {
  unsigned kernels = 0;
  for (const char* dir : {"add-pvc", "program-skl", "simd16-skl"}) {
    DumpProgram d;
    std::string err;
    ASSERT_TRUE(scanDump(fixture(dir).string(), d, err)) << err;
    ProgramBinary p;
    ASSERT_TRUE(parseProgbin(bytesOf(d.progbin), d.progbin, p, err)) << err;
    ASSERT_EQ(p.kernels.size(), d.kernels.size());
    for (const DumpKernel& dk : d.kernels) {
      SCOPED_TRACE(dk.name);
      CosFile c;
      ASSERT_TRUE(parseCos(vtest::readAll(dk.chosen.cos), dk.chosen.cos, c, err)) << err;
      const KernelBinary* kb = p.kernel(dk.name);
      ASSERT_TRUE(kb);
      const KernelPatchList& b = kb->patchList;
      const KernelPatchList& t = c.kernel;
      EXPECT_EQ(b.name, t.name);
      ASSERT_EQ(b.tokens.size(), t.tokens.size());
      for (size_t i = 0; i < b.tokens.size(); ++i) {
        EXPECT_EQ(b.tokens[i].id, t.tokens[i].id) << i;
        EXPECT_EQ(b.tokens[i].size, t.tokens[i].size) << i;
        EXPECT_EQ(b.tokens[i].name, t.tokens[i].name) << i;
      }
      EXPECT_EQ(b.dataParameters, t.dataParameters);
      EXPECT_EQ(b.pointerArgs, t.pointerArgs);
      EXPECT_EQ(b.statelessSurfaces, t.statelessSurfaces);
      EXPECT_EQ(b.privateMemory, t.privateMemory);
      EXPECT_EQ(b.bindingTable, t.bindingTable);
      EXPECT_EQ(b.interfaceDescriptor, t.interfaceDescriptor);
      EXPECT_EQ(b.interfaceDescriptorDataOffset, t.interfaceDescriptorDataOffset);
      EXPECT_EQ(b.mediaVfeState, t.mediaVfeState);
      EXPECT_EQ(b.localSurface, t.localSurface);
      EXPECT_EQ(b.dataParameterStreamSize, t.dataParameterStreamSize);
      EXPECT_EQ(b.threadPayload, t.threadPayload);
      EXPECT_EQ(b.attributes, t.attributes);
      EXPECT_EQ(b.argInfo, t.argInfo);
      ASSERT_TRUE(b.executionEnvironment && t.executionEnvironment);
      ExecutionEnvironment be = *b.executionEnvironment;
      be.isInitializer = be.isFinalizer = false;  // not printed
      be.workgroupWalkOrderDims = 0;
      EXPECT_EQ(be, *t.executionEnvironment);
      ASSERT_TRUE(t.header);
      KernelHeader bh = kb->header;
      bh.kernelUnpaddedSize = 0;  // not printed
      EXPECT_EQ(bh, *t.header);
      // Every SSH offset the tokens name: the table in the heap and the 64-byte rule agree.
      for (const PointerArg& a : t.pointerArgs)
        EXPECT_EQ(bindingTableIndex(t, a.surfaceStateHeapOffset),
                  bindingTableIndex(b, a.surfaceStateHeapOffset, kb->surfaceStateHeap));
      for (const StatelessSurface& s : t.statelessSurfaces)
        EXPECT_EQ(bindingTableIndex(t, s.surfaceStateHeapOffset),
                  bindingTableIndex(b, s.surfaceStateHeapOffset, kb->surfaceStateHeap));
      // The program scope, printed in the first kernel's .cos, is the binary's.
      EXPECT_EQ(c.programScopePrinted, dk.entry == 1);
      if (!c.programScopePrinted) {
        ++kernels;
        continue;
      }
      EXPECT_EQ(c.program.tokens.size(), p.program.tokens.size());
      ASSERT_EQ(c.program.constantBuffers.size(), p.program.constantBuffers.size());
      for (size_t i = 0; i < c.program.constantBuffers.size(); ++i)
        EXPECT_EQ(c.program.constantBuffers[i].initializationDataSize,
                  p.program.constantBuffers[i].initializationDataSize);
      EXPECT_EQ(c.program.globalPointers, p.program.globalPointers);
      EXPECT_EQ(c.program.constantPointers, p.program.constantPointers);
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 4u);
}

std::string parseError(const std::vector<uint8_t>& b) {
  ProgramBinary p;
  std::string err;
  EXPECT_FALSE(parseProgbin(b, "p.progbin", p, err));
  return err;
}

// P13: PROGRAM_SYMBOL_TABLE entries, laid out by hand as the dumps hold them ({Token 53, Size,
// NumEntries}, then per entry u32 type, offset, size and a 1024-byte name); a count the token
// cannot hold is an error naming the kernel and the token's byte.
TEST(ClProgbin, SymbolTableEntries) {
  auto token = [](uint32_t count, std::vector<std::tuple<uint32_t, uint32_t, uint32_t, std::string>> entries) {
    RawToken t;
    t.id = 53;
    t.offset = 4956;
    auto put = [&](uint32_t v) {
      for (int i = 0; i < 4; ++i) t.bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    };
    put(53);
    put(static_cast<uint32_t>(12 + 1036 * entries.size()));
    put(count);
    for (const auto& [type, offset, size, name] : entries) {
      put(type);
      put(offset);
      put(size);
      std::vector<uint8_t> n(1024, 0);
      std::copy(name.begin(), name.end(), n.begin());
      t.bytes.insert(t.bytes.end(), n.begin(), n.end());
    }
    return t;
  };
  ProgramBinary bin;
  bin.kernels.resize(2);
  bin.kernels[0].name = "k";
  bin.kernels[1].name = "Intel_Symbol_Table_Void_Program";
  bin.kernels[1].patchList.tokens.push_back(token(2, {{4, 0, 32, "tab"}, {3, 64, 16, "counter_base"}}));
  std::vector<ProgramSymbol> syms;
  std::string err;
  ASSERT_TRUE(bin.symbols(syms, err)) << err;
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[0].name, "tab");
  EXPECT_EQ(syms[0].type, ProgramSymbol::kConstantVariable);
  EXPECT_EQ(syms[0].offset, 0u);
  EXPECT_EQ(syms[0].size, 32u);
  EXPECT_EQ(syms[1].name, "counter_base");
  EXPECT_EQ(syms[1].type, ProgramSymbol::kGlobalVariable);
  EXPECT_EQ(syms[1].offset, 64u);
  EXPECT_EQ(syms[1].size, 16u);
  bin.kernels[1].patchList.tokens[0] = token(3, {{4, 0, 32, "tab"}, {3, 64, 16, "counter_base"}});
  EXPECT_FALSE(bin.symbols(syms, err));
  EXPECT_EQ(err, "kernel 'Intel_Symbol_Table_Void_Program': byte 4956: PATCH_TOKEN_PROGRAM_SYMBOL_TABLE of 2084 bytes does not "
                 "hold its 3 entries");
  bin.kernels[1].patchList.tokens.clear();
  EXPECT_TRUE(bin.symbols(syms, err));
  EXPECT_TRUE(syms.empty());
}

TEST(ClProgbin, EveryTruncationIsAClearErrorNamingAByte) {
  for (const char* f : {kProgram, "add-pvc/OCL_asm11091fc94eeaac57.progbin",
                        "simd16-skl/OCL_asmddf605c02b3cd10c.progbin"}) {
    std::vector<uint8_t> all = bytesOf(fixture(f));
    for (size_t len = 0; len < all.size(); ++len) {
      std::string err = parseError(std::vector<uint8_t>(all.begin(), all.begin() + ptrdiff_t(len)));
      ASSERT_EQ(err.rfind("p.progbin: error: ", 0), 0u) << len << ": " << err;
      ASSERT_NE(err.find("byte "), std::string::npos) << len << ": " << err;
    }
  }
  std::vector<uint8_t> all = bytesOf(fixture(kProgram));
  EXPECT_EQ(parseError(std::vector<uint8_t>(all.begin(), all.begin() + 20)),
            "p.progbin: error: byte 0: the program header needs 28 bytes, the file has 20 left");
  EXPECT_EQ(parseError(std::vector<uint8_t>(all.begin(), all.begin() + 100)),
            "p.progbin: error: byte 28: the program-scope patch list needs 156 bytes, the file has 72 left");
  EXPECT_EQ(parseError(std::vector<uint8_t>(all.begin(), all.begin() + 200)),
            "p.progbin: error: byte 184: the header of kernel 1 of 2 needs 40 bytes, the file has 16 left");
}

TEST(ClProgbin, CorruptFieldsAreClearErrors) {
  const std::vector<uint8_t> good = bytesOf(fixture(kProgram));
  auto with = [&](size_t at, uint32_t v) {
    std::vector<uint8_t> b = good;
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
    return parseError(b);
  };
  EXPECT_EQ(with(0, 0x41534943),
            "p.progbin: error: byte 0: magic 41534943 is not 'CTNI' (0x494e5443): not a patch-token program binary");
  EXPECT_EQ(with(4, 1080), "p.progbin: error: byte 4: version 1080: only version 1081 (IGC 1.0.12504's layout) is read");
  EXPECT_EQ(with(12, 3), "p.progbin: error: byte 12: GPU pointer size 3 (4 or 8 expected)");
  // The constant buffer's inline size (byte 40) larger than the list.
  EXPECT_EQ(with(40, 1000),
            "p.progbin: error: program scope: byte 28: PATCH_TOKEN_ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO "
            "with 1000 bytes of inline data runs past the end of the patch list (156 bytes left)");
  // The first token of lookup's patch list (byte 1884) with size 0, then with a size past the list.
  EXPECT_EQ(with(1888, 0),
            "p.progbin: error: kernel 'lookup': byte 1884: PATCH_TOKEN_MEDIA_INTERFACE_DESCRIPTOR_LOAD has size 0, "
            "less than its 8-byte header");
  EXPECT_EQ(with(1888, 4),
            "p.progbin: error: kernel 'lookup': byte 1884: PATCH_TOKEN_MEDIA_INTERFACE_DESCRIPTOR_LOAD has size 4, "
            "less than its 8-byte header");
  EXPECT_EQ(with(1888, 8),
            "p.progbin: error: kernel 'lookup': byte 1884: PATCH_TOKEN_MEDIA_INTERFACE_DESCRIPTOR_LOAD has size 8, "
            "less than the 12 bytes of its fields");
  EXPECT_EQ(with(1888, 5000),
            "p.progbin: error: kernel 'lookup': byte 1884: PATCH_TOKEN_MEDIA_INTERFACE_DESCRIPTOR_LOAD of 5000 bytes "
            "runs past the end of the patch list (1396 bytes left)");
  // Kernel name size (byte 184 + 12) too large; the kernel count (byte 16) one too many.
  EXPECT_EQ(with(196, 0x7fffffff),
            "p.progbin: error: byte 224: the kernel name needs 2147483647 bytes, the file has 6328 left");
  EXPECT_EQ(with(16, 3), "p.progbin: error: byte 6552: the header of kernel 3 of 3 needs 40 bytes, the file has 0 left");
  EXPECT_EQ(with(16, 1), "p.progbin: error: byte 3280: 3272 bytes after the last of the 1 kernels");
  std::vector<uint8_t> extra = good;
  extra.push_back(0);
  EXPECT_EQ(parseError(extra), "p.progbin: error: byte 6552: 1 bytes after the last of the 2 kernels");
}

TEST(ClProgbin, AFailureLeavesNothingBehind) {
  std::vector<uint8_t> b = bytesOf(fixture(kProgram));
  ProgramBinary p;
  std::string err;
  ASSERT_TRUE(parseProgbin(b, "p.progbin", p, err)) << err;
  b.pop_back();
  EXPECT_FALSE(parseProgbin(b, "p.progbin", p, err));
  EXPECT_TRUE(p.kernels.empty());
  EXPECT_TRUE(p.program.tokens.empty());
  EXPECT_EQ(p.version, 0u);
}

TEST(ClProgbin, FlippedBytesNeverCrash) {
  const std::vector<uint8_t> good = bytesOf(fixture(kProgram));
  for (size_t at = 0; at < good.size(); ++at)
    for (uint8_t v : {uint8_t(0), uint8_t(0xff), uint8_t(good[at] ^ 0x40)}) {
      std::vector<uint8_t> b = good;
      b[at] = v;
      ProgramBinary p;
      std::string err;
      if (!parseProgbin(b, "p.progbin", p, err)) {
        ASSERT_EQ(err.rfind("p.progbin: error: ", 0), 0u) << err;
      }
    }
}

}  // namespace
