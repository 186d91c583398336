// The .cos text IGC prints for a kernel's patch tokens (src/cl/patch_tokens.cpp). Expected
// values are read off the fixture files in tests/fixtures/cl-dumps by hand.
#include <gtest/gtest.h>

#include "cl/patch_tokens.hpp"
#include "test_util.hpp"

namespace {

using namespace visakit::cl;
namespace fs = std::filesystem;

fs::path fixture(const std::string& rel) { return fs::path(VISAKIT_SOURCE_DIR) / "tests/fixtures/cl-dumps" / rel; }

CosFile parseFixture(const std::string& rel) {
  CosFile c;
  std::string err;
  EXPECT_TRUE(parseCos(vtest::readAll(fixture(rel)), rel, c, err)) << err;
  return c;
}

const char* kLookup = "program-skl/OCL_asm71cedd5a19fe3ca0_simd32_entry_0001.cos";
const char* kAtom = "program-skl/OCL_asm71cedd5a19fe3ca0_simd32_entry_0002.cos";
const char* kAddPvc = "add-pvc/OCL_asm11091fc94eeaac57_simd32_entry_0001.cos";
const char* kWide = "simd16-skl/OCL_asmddf605c02b3cd10c_simd16_entry_0001.cos";

constexpr uint32_t kNone = 0xffffffff;  // printed as -1

TEST(ClCos, ProgramScopeOfProgramSkl) {
  CosFile c = parseFixture(kLookup);
  const ProgramScope& p = c.program;
  EXPECT_TRUE(c.programScopePrinted);
  ASSERT_EQ(p.tokens.size(), 4u);
  ASSERT_EQ(p.constantBuffers.size(), 1u);
  EXPECT_EQ(p.constantBuffers[0].bufferIndex, 0u);
  EXPECT_EQ(p.constantBuffers[0].initializationDataSize, 40u);  // int[8] and an 8-byte pointer
  EXPECT_TRUE(p.constantBuffers[0].data.empty());               // the bytes are only in the .progbin
  ASSERT_EQ(p.globalBuffers.size(), 1u);
  EXPECT_EQ(p.globalBuffers[0].type, 0u);
  EXPECT_EQ(p.globalBuffers[0].initializationDataSize, 24u);
  ASSERT_EQ(p.globalPointers.size(), 1u);
  EXPECT_EQ(p.globalPointers[0], (PointerPatch{0, 16, 0, 0}));
  ASSERT_EQ(p.constantPointers.size(), 1u);
  EXPECT_EQ(p.constantPointers[0], (PointerPatch{0, 32, 1, 0}));
}

TEST(ClCos, LookupKernel) {
  CosFile c = parseFixture(kLookup);
  const KernelPatchList& k = c.kernel;
  EXPECT_EQ(k.name, "lookup");
  EXPECT_EQ(k.tokens.size(), 32u);
  EXPECT_EQ(c.surfaceStates.size(), 5u);
  ASSERT_EQ(c.surfaceStates[0].dwords.size(), 16u);
  EXPECT_EQ(c.surfaceStates[0].dwords[0], 0x83ffc000u);
  EXPECT_EQ(k.interfaceDescriptorDataOffset, 0u);
  EXPECT_EQ(k.interfaceDescriptor, (InterfaceDescriptorData{0, 0, 0, 320}));
  EXPECT_EQ(k.bindingTable, (BindingTableState{320, 5, 0}));

  ASSERT_EQ(k.dataParameters.size(), 16u);
  const DataParameter& slm = k.dataParameters[0];
  EXPECT_EQ(slm.type, DataParamType::SumOfLocalMemoryObjectArgumentSizes);
  EXPECT_EQ(slm.typeName, "SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES");
  EXPECT_EQ(slm.argumentNumber, 2u);
  EXPECT_EQ(slm.offset, 32u);
  EXPECT_EQ(slm.dataSize, 8u);
  EXPECT_EQ(slm.sourceOffset, 4u);
  EXPECT_EQ(slm.locationIndex, kNone);
  EXPECT_EQ(slm.locationIndex2, kNone);
  EXPECT_FALSE(slm.isEmulationArgument);
  const DataParameter* gwoY = k.dataParameter(DataParamType::GlobalWorkOffset, 0, 4);
  ASSERT_TRUE(gwoY);
  EXPECT_EQ(gwoY->offset, 4u);
  EXPECT_EQ(gwoY->locationIndex, 0u);
  const DataParameter* stateful = k.dataParameter(DataParamType::BufferStateful, 3);
  ASSERT_TRUE(stateful);
  EXPECT_EQ(stateful->offset, 56u);
  EXPECT_EQ(stateful->dataSize, 4u);
  const DataParameter* lwsZ = k.dataParameter(DataParamType::LocalWorkSize, 0, 8);
  ASSERT_TRUE(lwsZ);
  EXPECT_EQ(lwsZ->offset, 20u);  // the first of the two LOCAL_WORK_SIZE triples (the second is at 80)
  const DataParameter* elws = k.dataParameter(DataParamType::EnqueuedLocalWorkSize, 0, 0);
  ASSERT_TRUE(elws);
  EXPECT_EQ(elws->offset, 96u);

  ASSERT_EQ(k.pointerArgs.size(), 3u);
  EXPECT_EQ(k.pointerArgs[0], (PointerArg{PointerArg::Space::Global, 0, 0, 40, 8, kNone, kNone, false}));
  EXPECT_EQ(k.pointerArgs[1], (PointerArg{PointerArg::Space::Global, 1, 64, 48, 8, kNone, kNone, false}));
  EXPECT_EQ(k.pointerArgs[2], (PointerArg{PointerArg::Space::Constant, 3, 128, 56, 8, kNone, kNone, false}));
  EXPECT_EQ(k.argSurfaceStateOffset(3), 128u);
  EXPECT_FALSE(k.argSurfaceStateOffset(2));  // the __local argument has no surface

  ASSERT_EQ(k.statelessSurfaces.size(), 2u);
  EXPECT_EQ(k.statelessSurfaces[0],
            (StatelessSurface{uint32_t(Token::AllocateStatelessConstantMemorySurfaceWithInitialization), 0, 192, 64, 8}));
  EXPECT_EQ(k.statelessSurfaces[1],
            (StatelessSurface{uint32_t(Token::AllocateStatelessGlobalMemorySurfaceWithInitialization), 0, 256, 72, 8}));
  EXPECT_FALSE(k.privateMemory);
  EXPECT_FALSE(k.mediaVfeState);
  EXPECT_FALSE(k.localSurface);
  EXPECT_EQ(k.dataParameterStreamSize, 128u);

  ASSERT_TRUE(k.threadPayload);
  ThreadPayload tp;
  tp.localIdXPresent = tp.localIdYPresent = tp.localIdZPresent = true;
  tp.indirectPayloadStorage = true;
  EXPECT_EQ(*k.threadPayload, tp);

  ASSERT_TRUE(k.executionEnvironment);
  const ExecutionEnvironment& ee = *k.executionEnvironment;
  EXPECT_EQ(ee.largestCompiledSimdSize, 32u);
  EXPECT_EQ(ee.hasBarriers, 1u);
  EXPECT_TRUE(ee.compiledSimd32);
  EXPECT_FALSE(ee.compiledSimd16);
  EXPECT_TRUE(ee.subgroupIndependentForwardProgressRequired);
  EXPECT_FALSE(ee.hasGlobalAtomics);
  EXPECT_EQ(ee.numGrfRequired, 128u);
  EXPECT_EQ(ee.numThreadsRequired, 7u);
  EXPECT_EQ(ee.statelessWritesCount, 0u);
  EXPECT_EQ(ee.indirectStatelessCount, 1u);
  EXPECT_EQ(ee.simdInfo, 65536u);

  EXPECT_EQ(k.attributes, "");
  ASSERT_EQ(k.argInfo.size(), 4u);
  EXPECT_EQ(k.argInfo[0], (KernelArgInfo{0, "__global", "NONE", "idx", "int*;8", "const"}));
  EXPECT_EQ(k.argInfo[2], (KernelArgInfo{2, "__local", "NONE", "tmp", "int*;8", "NONE"}));
  EXPECT_EQ(k.argInfo[3], (KernelArgInfo{3, "__constant", "NONE", "coef", "int*;8", "const"}));

  ASSERT_TRUE(k.header);
  EXPECT_EQ(k.header->checkSum, 0x27e1388cu);
  EXPECT_EQ(k.header->shaderHashCode, 8200735350541139104ull);
  EXPECT_EQ(k.header->kernelNameSize, 8u);
  EXPECT_EQ(k.header->patchListSize, 1396u);
  EXPECT_EQ(k.header->kernelHeapSize, 1280u);
  EXPECT_EQ(k.header->generalStateHeapSize, 0u);
  EXPECT_EQ(k.header->dynamicStateHeapSize, 32u);
  EXPECT_EQ(k.header->surfaceStateHeapSize, 340u);
}

TEST(ClCos, BindingTableIndexFromTheTextAlone) {
  CosFile c = parseFixture(kLookup);
  // The vISA text sets T6 to 0, 1, 2, 3, 4 before the accesses of idx, out, coef, table, bins.
  EXPECT_EQ(bindingTableIndex(c.kernel, 0), 0u);
  EXPECT_EQ(bindingTableIndex(c.kernel, 64), 1u);
  EXPECT_EQ(bindingTableIndex(c.kernel, 128), 2u);
  EXPECT_EQ(bindingTableIndex(c.kernel, 192), 3u);
  EXPECT_EQ(bindingTableIndex(c.kernel, 256), 4u);
  EXPECT_FALSE(bindingTableIndex(c.kernel, 320));  // past the 5 entries
  EXPECT_FALSE(bindingTableIndex(c.kernel, 32));   // not a surface state's start
}

TEST(ClCos, AtomKernelScratchSlmAndPrivate) {
  CosFile c = parseFixture(kAtom);
  const KernelPatchList& k = c.kernel;
  EXPECT_EQ(k.name, "atom");
  EXPECT_FALSE(c.programScopePrinted);  // only the first kernel's .cos prints the program scope
  EXPECT_EQ(k.tokens.size(), 29u);
  EXPECT_EQ(k.mediaVfeState, (MediaVfeState{0, 8192}));
  EXPECT_EQ(k.localSurface, (LocalSurface{0, 64}));
  EXPECT_EQ(k.privateMemory, (PrivateMemory{256, 72, 8, 0, 1}));
  const DataParameter* n = k.dataParameter(DataParamType::KernelArgument, 2);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->offset, 48u);
  EXPECT_EQ(n->dataSize, 4u);
  EXPECT_EQ(k.dataParameterStreamSize, 96u);
  ASSERT_TRUE(k.executionEnvironment);
  EXPECT_TRUE(k.executionEnvironment->hasGlobalAtomics);
  EXPECT_EQ(k.executionEnvironment->statelessWritesCount, 3u);
  EXPECT_EQ(k.executionEnvironment->indirectStatelessCount, 2u);
  ASSERT_TRUE(k.header);
  EXPECT_EQ(k.header->checkSum, 0xcc169ddeu);
  EXPECT_EQ(k.header->patchListSize, 1188u);
  EXPECT_EQ(k.header->kernelHeapSize, 1664u);
}

TEST(ClCos, AddOnPvcIsStateless) {
  CosFile c = parseFixture(kAddPvc);
  const KernelPatchList& k = c.kernel;
  EXPECT_TRUE(c.programScopePrinted);
  EXPECT_TRUE(c.program.tokens.empty());
  EXPECT_EQ(k.tokens.size(), 22u);
  EXPECT_FALSE(k.dataParameter(DataParamType::BufferStateful, 0));
  ASSERT_EQ(k.pointerArgs.size(), 2u);
  EXPECT_EQ(k.pointerArgs[0].dataParamOffset, 32u);
  EXPECT_EQ(k.pointerArgs[1].dataParamOffset, 40u);
  EXPECT_EQ(k.pointerArgs[1].surfaceStateHeapOffset, 64u);
  const DataParameter* arg = k.dataParameter(DataParamType::KernelArgument, 2);
  ASSERT_TRUE(arg);
  EXPECT_EQ(arg->offset, 48u);
  EXPECT_EQ(k.dataParameterStreamSize, 64u);
  ASSERT_TRUE(k.threadPayload);
  EXPECT_EQ(k.threadPayload->offsetToSkipPerThreadDataLoad, 128u);
  ASSERT_TRUE(k.executionEnvironment);
  EXPECT_EQ(k.executionEnvironment->simdInfo, 98308u);
  ASSERT_TRUE(k.header);
  EXPECT_EQ(k.header->checkSum, 0x34f8281cu);
  EXPECT_EQ(k.header->patchListSize, 1000u);
}

TEST(ClCos, WideKernelIsSimd16) {
  CosFile c = parseFixture(kWide);
  ASSERT_TRUE(c.kernel.executionEnvironment);
  EXPECT_EQ(c.kernel.executionEnvironment->largestCompiledSimdSize, 16u);
  EXPECT_TRUE(c.kernel.executionEnvironment->compiledSimd16);
  EXPECT_FALSE(c.kernel.executionEnvironment->compiledSimd32);
  EXPECT_EQ(c.kernel.executionEnvironment->simdInfo, 1048832u);
  EXPECT_EQ(c.kernel.tokens.size(), 24u);
}

TEST(ClCos, NamesAndIds) {
  EXPECT_EQ(tokenName(8), "PATCH_TOKEN_BINDING_TABLE_STATE");
  EXPECT_EQ(tokenName(58), "PATCH_TOKEN_ALLOCATE_RT_GLOBAL_BUFFER");
  EXPECT_EQ(tokenName(59), "");
  EXPECT_EQ(tokenId("PATCH_TOKEN_STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT"), 30u);
  EXPECT_FALSE(tokenId("PATCH_TOKEN_NOPE"));
  EXPECT_EQ(dataParamName(43), "BUFFER_STATEFUL");
  EXPECT_EQ(dataParamType("ENQUEUED_LOCAL_WORK_SIZE"), 28u);
  EXPECT_EQ(dataParamType("IMPL_ARG_BUFFER"), 49u);
  EXPECT_FALSE(dataParamType("UNKNOWN_TYPE"));
}

// ---- Hand-written text: what is kept, what is refused.

const char* kHead = "** Program Scope patch lists **\n\n** Kernel Patch Lists : Kernel Name = k **\n\n";

std::string parseError(const std::string& text) {
  CosFile c;
  std::string err;
  EXPECT_FALSE(parseCos(text, "t.cos", c, err)) << text;
  return err;
}

TEST(ClCos, UnknownTokensAndTypesAreKeptByName) {
  std::string text = std::string(kHead) +
                     "PATCH_TOKEN_FUTURE_THING (0000007C) (size = 16)\n"
                     "\tFoo = 1\n"
                     "\tBar Baz = two words\n"
                     "*** UNKNOWN TOKEN 0000007B (size = 8)***\n"
                     "PATCH_TOKEN_DATA_PARAMETER_BUFFER (00000011) (size = 40)\n"
                     "\tType = SOMETHING_NEW\n\tArgumentNumber = 1\n\tOffset = 8\n\tDataSize = 4\n"
                     "\tSourceOffset = 0\n\tLocationIndex1 = -1\n\tLocationIndex2 = 4294967295\n"
                     "\tIsEmulationArgument = true\n";
  CosFile c;
  std::string err;
  ASSERT_TRUE(parseCos(text, "t.cos", c, err)) << err;
  ASSERT_EQ(c.kernel.tokens.size(), 3u);
  EXPECT_EQ(c.kernel.tokens[0].id, 0x7cu);
  EXPECT_EQ(c.kernel.tokens[0].name, "PATCH_TOKEN_FUTURE_THING");
  EXPECT_EQ(c.kernel.tokens[0].size, 16u);
  ASSERT_EQ(c.kernel.tokens[0].fields.size(), 2u);
  EXPECT_EQ(c.kernel.tokens[0].fields[1].key, "Bar Baz");
  EXPECT_EQ(c.kernel.tokens[0].fields[1].value, "two words");
  EXPECT_EQ(c.kernel.tokens[0].fields[1].line, 7u);
  EXPECT_EQ(c.kernel.tokens[1].id, 0x7bu);
  EXPECT_EQ(c.kernel.tokens[1].name, "");
  ASSERT_EQ(c.kernel.dataParameters.size(), 1u);
  const DataParameter& d = c.kernel.dataParameters[0];
  EXPECT_EQ(d.type, DataParamType::Unknown);
  EXPECT_EQ(d.typeName, "SOMETHING_NEW");
  EXPECT_EQ(d.locationIndex, kNone);
  EXPECT_EQ(d.locationIndex2, kNone);
  EXPECT_TRUE(d.isEmulationArgument);
}

TEST(ClCos, MalformedTextIsAClearErrorWithItsLine) {
  EXPECT_EQ(parseError("hello\n"), "t.cos:1: error: unexpected line: 'hello'");
  EXPECT_EQ(parseError("PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n"),
            "t.cos:1: error: a token before any section");
  EXPECT_EQ(parseError("\tOffset = 1\n"), "t.cos:1: error: indented line outside a token: 'Offset = 1'");
  EXPECT_EQ(parseError(""), "t.cos:1: error: no '** Kernel Patch Lists : Kernel Name = ... **' section");
  EXPECT_EQ(parseError(std::string(kHead) + "** Kernel Patch Lists : Kernel Name = k2 **\n"),
            "t.cos:5: error: a second kernel section (one .cos holds one kernel)");
  EXPECT_EQ(parseError(std::string(kHead) + "PATCH_TOKEN_BINDING_TABLE_STATE (00000009) (size = 20)\n"),
            "t.cos:5: error: PATCH_TOKEN_BINDING_TABLE_STATE has id 8, not 00000009");
  EXPECT_EQ(parseError(std::string(kHead) + "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = x)\n"),
            "t.cos:5: error: bad token size");
  EXPECT_EQ(parseError(std::string(kHead) + "PATCH_TOKEN_BINDING_TABLE_STATE (0000008) (size = 20)\n"),
            "t.cos:5: error: expected '(XXXXXXXX)' after the name");
  EXPECT_EQ(parseError(std::string(kHead) +
                       "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n\tOffset = 1\n\tSurfaceStateOffset = 0\n"),
            "t.cos:5: error: PATCH_TOKEN_BINDING_TABLE_STATE: missing 'Count'");
  EXPECT_EQ(parseError(std::string(kHead) +
                       "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n\tOffset = 1\n\tCount = many\n"
                       "\tSurfaceStateOffset = 0\n"),
            "t.cos:7: error: PATCH_TOKEN_BINDING_TABLE_STATE: 'Count' is not a number: 'many'");
  EXPECT_EQ(parseError(std::string(kHead) +
                       "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n\tOffset = 4294967296\n\tCount = 1\n"
                       "\tSurfaceStateOffset = 0\n"),
            "t.cos:6: error: PATCH_TOKEN_BINDING_TABLE_STATE: 'Offset' is not a number: '4294967296'");
  EXPECT_EQ(parseError(std::string(kHead) +
                       "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n\tOffset = 1\n\tCount = 1\n"
                       "\tCount = 2\n\tSurfaceStateOffset = 0\n"),
            "t.cos:8: error: PATCH_TOKEN_BINDING_TABLE_STATE: 'Count' given twice");
  std::string bt = "PATCH_TOKEN_BINDING_TABLE_STATE (00000008) (size = 20)\n\tOffset = 1\n\tCount = 1\n"
                   "\tSurfaceStateOffset = 0\n";
  EXPECT_EQ(parseError(std::string(kHead) + bt + bt), "t.cos:9: error: a second PATCH_TOKEN_BINDING_TABLE_STATE");
  EXPECT_EQ(parseError(std::string(kHead) + "Kernel Name: other\n"),
            "t.cos:5: error: 'Kernel Name: other' does not match the section's 'k'");
  EXPECT_EQ(parseError(std::string(kHead) + "SURFACE_STATE = { 1, zz }\n"), "t.cos:5: error: SURFACE_STATE: bad dword 'zz'");
  EXPECT_EQ(parseError(std::string(kHead) + "PATCH_TOKEN_KERNEL_ARGUMENT_INFO (0000001A) (size = 40)\n"
                                            "\tArgumentNumber = 0\n\tAddressQualifierSize = 4 | value = \"__global\"\n"),
            "t.cos:7: error: PATCH_TOKEN_KERNEL_ARGUMENT_INFO: 'AddressQualifierSize' string of 8 bytes does not fit "
            "its size 4");
  EXPECT_EQ(parseError(std::string(kHead) + "Gen7 Kernel Binary Header:\n\tCheckSum = xyz\n"),
            "t.cos:6: error: kernel binary header: bad 'CheckSum': 'xyz'");
  EXPECT_EQ(parseError(std::string(kHead) + "PATCH_TOKEN_X (00000001) (size = 8)\n"),
            "t.cos:5: error: token id 00000001 is PATCH_TOKEN_MEDIA_STATE_POINTERS, not PATCH_TOKEN_X");
  EXPECT_EQ(parseError(std::string(kHead) + std::string("a\0b\n", 4)), "t.cos:5: error: NUL byte in the text");
}

// Every prefix and a byte changed every so often: an answer, never a crash or hang.
TEST(ClCos, MangledFixturesNeverCrash) {
  for (const char* f : {kLookup, kAtom}) {
    std::string text = vtest::readAll(fixture(f));
    unsigned failed = 0;
    for (size_t len = 0; len < text.size(); len += 37) {
      CosFile c;
      std::string err;
      if (!parseCos(std::string_view(text).substr(0, len), "t.cos", c, err)) {
        ++failed;
        EXPECT_EQ(err.rfind("t.cos:", 0), 0u) << err;
      }
    }
    EXPECT_GT(failed, 0u);
    for (size_t at = 0; at < text.size(); at += 53) {
      for (char ch : {'\n', '=', '\t', 'x', '-', '\0'}) {
        std::string m = text;
        m[at] = ch;
        CosFile c;
        std::string err;
        if (!parseCos(m, "t.cos", c, err)) {
          EXPECT_NE(err.find(": error: "), std::string::npos);
        }
      }
    }
  }
}

}  // namespace
