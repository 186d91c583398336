// Patch tokens: the OpenCL launch ABI of IGC's patch-token program binaries,
// read from a kernel's `.cos` text (IGC's printout of the tokens) or decoded
// from the binary `.progbin` (progbin.hpp). Layouts: docs/spec-decisions.md,
// "OpenCL launch ABI: patch tokens".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace visakit::cl {

// Token ids (the PATCH_TOKEN enum of ICBE version 1081).
enum class Token : uint32_t {
  Unknown = 0, MediaStatePointers = 1, StateSip = 2, CsUrbState = 3, ConstantBuffer = 4,
  SamplerStateArray = 5, InterfaceDescriptor = 6, VfeState = 7, BindingTableState = 8,
  AllocateScratchSurface = 9, AllocateSipSurface = 10, GlobalMemoryObjectKernelArgument = 11,
  ImageMemoryObjectKernelArgument = 12, ConstantMemoryObjectKernelArgument = 13,
  AllocateSurfaceWithInitialization = 14, AllocateLocalSurface = 15, SamplerKernelArgument = 16,
  DataParameterBuffer = 17, MediaVfeState = 18, MediaInterfaceDescriptorLoad = 19, MediaCurbeLoad = 20,
  InterfaceDescriptorData = 21, ThreadPayload = 22, ExecutionEnvironment = 23, AllocatePrivateMemory = 24,
  DataParameterStream = 25, KernelArgumentInfo = 26, KernelAttributesInfo = 27, String = 28,
  AllocatePrintfSurface = 29, StatelessGlobalMemoryObjectKernelArgument = 30,
  StatelessConstantMemoryObjectKernelArgument = 31, AllocateStatelessSurfaceWithInitialization = 32,
  AllocateStatelessPrintfSurface = 33, CbMapping = 34, Cb2CrGatherTable = 35,
  AllocateStatelessEventPoolSurface = 36, NullSurfaceLocation = 37, AllocateStatelessPrivateMemory = 38,
  AllocateConstantMemorySurfaceWithInitialization = 39, AllocateGlobalMemorySurfaceWithInitialization = 40,
  AllocateGlobalMemorySurfaceProgramBinaryInfo = 41, AllocateConstantMemorySurfaceProgramBinaryInfo = 42,
  AllocateStatelessGlobalMemorySurfaceWithInitialization = 43,
  AllocateStatelessConstantMemorySurfaceWithInitialization = 44,
  AllocateStatelessDefaultDeviceQueueSurface = 45, StatelessDeviceQueueKernelArgument = 46,
  GlobalPointerProgramBinaryInfo = 47, ConstantPointerProgramBinaryInfo = 48,
  ConstructorDestructorKernelProgramBinaryInfo = 49, InlineVmeSamplerInfo = 50, GtpinFreeGrfInfo = 51,
  GtpinInfo = 52, ProgramSymbolTable = 53, ProgramRelocationTable = 54, MediaVfeStateSlot1 = 55,
  AllocateSyncBuffer = 56, GlobalHostAccessTable = 57, AllocateRtGlobalBuffer = 58,
};
constexpr uint32_t kNumTokens = 59;
// "PATCH_TOKEN_BINDING_TABLE_STATE" for 8; "" past the table.
std::string_view tokenName(uint32_t id);
std::optional<uint32_t> tokenId(std::string_view name);

// DATA_PARAMETER_BUFFER types (the DATA_PARAMETER_TOKEN enum).
enum class DataParamType : uint32_t {
  Unknown = 0, KernelArgument = 1, LocalWorkSize = 2, GlobalWorkSize = 3, NumWorkGroups = 4,
  WorkDimensions = 5, LocalId = 6, ExecutionMask = 7, SumOfLocalMemoryObjectArgumentSizes = 8,
  ImageWidth = 9, ImageHeight = 10, ImageDepth = 11, ImageChannelDataType = 12, ImageChannelOrder = 13,
  SamplerAddressMode = 14, SamplerNormalizedCoords = 15, GlobalWorkOffset = 16, NumHardwareThreads = 17,
  ImageArraySize = 18, PrintfSurfaceSize = 19, ImageNumSamples = 20, SamplerCoordinateSnapWaRequired = 21,
  ParentEvent = 22, VmeMbBlockType = 23, VmeSubpixelMode = 24, VmeSadAdjustMode = 25,
  VmeSearchPathType = 26, ImageNumMipLevels = 27, EnqueuedLocalWorkSize = 28, MaxWorkgroupSize = 29,
  PreferredWorkgroupMultiple = 30, LocalMemoryStatelessWindowStartAddress = 31,
  LocalMemoryStatelessWindowSize = 32, PrivateMemoryStatelessSize = 33, SimdSize = 34, ObjectId = 35,
  VmeImageType = 36, VmeMbSkipBlockType = 37, ChildBlockSimdSize = 38, ImageSrgbChannelOrder = 39,
  StageInGridOrigin = 40, StageInGridSize = 41, BufferOffset = 42, BufferStateful = 43,
  FlatImageBaseoffset = 44, FlatImageWidth = 45, FlatImageHeight = 46, FlatImagePitch = 47,
  RtStackId = 48, ImplArgBuffer = 49, LocalIdBuffer = 50,
};
constexpr uint32_t kNumDataParamTypes = 51;
// "GLOBAL_WORK_OFFSET" for 16, as IGC prints it; "" past the table.
std::string_view dataParamName(uint32_t type);
std::optional<uint32_t> dataParamType(std::string_view name);

// One key/value line of a token as printed ("Offset = 32" -> {"Offset", "32"}),
// or, decoded from binary, nothing: binary tokens keep their bytes instead.
struct Field {
  std::string key, value;
  unsigned line = 0;
  bool operator==(const Field&) const = default;
};

// Every token as it came, in order: id, name, size and its lines or bytes.
struct RawToken {
  uint32_t id = 0;
  std::string name;  // "PATCH_TOKEN_..." ("" for an id IGC has no name for)
  uint32_t size = 0;
  std::vector<Field> fields;   // .cos
  std::vector<uint8_t> bytes;  // .progbin: the whole token, header included (and inline data)
  unsigned line = 0;           // .cos line; 0 for binary
  uint64_t offset = 0;         // .progbin byte offset
};

struct DataParameter {  // DATA_PARAMETER_BUFFER
  DataParamType type = DataParamType::Unknown;
  std::string typeName;  // as printed; an unknown name is kept here with type Unknown
  uint32_t argumentNumber = 0, offset = 0, dataSize = 0, sourceOffset = 0;
  uint32_t locationIndex = 0, locationIndex2 = 0;  // -1 prints as -1, stored as 0xffffffff
  bool isEmulationArgument = false;
  bool operator==(const DataParameter&) const = default;
};

// STATELESS_{GLOBAL,CONSTANT}_MEMORY_OBJECT_KERNEL_ARGUMENT, STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT:
// a pointer argument; its 64-bit address goes to cross-thread data at dataParamOffset.
struct PointerArg {
  enum class Space : uint8_t { Global, Constant, DeviceQueue };
  Space space = Space::Global;
  uint32_t argumentNumber = 0, surfaceStateHeapOffset = 0, dataParamOffset = 0, dataParamSize = 0;
  uint32_t locationIndex = 0xffffffff, locationIndex2 = 0xffffffff;  // not printed for Constant
  bool isEmulationArgument = false;
  bool operator==(const PointerArg&) const = default;
};

// A surface the runtime allocates and whose address goes to cross-thread data:
// ALLOCATE_STATELESS_{GLOBAL,CONSTANT}_MEMORY_SURFACE_WITH_INITIALIZATION (the program-scope
// buffers, `index` = their buffer index), _PRINTF_SURFACE, _EVENT_POOL_SURFACE,
// _DEFAULT_DEVICE_QUEUE_SURFACE, ALLOCATE_SYNC_BUFFER, ALLOCATE_RT_GLOBAL_BUFFER.
struct StatelessSurface {
  uint32_t token = 0;  // which of the above (a Token value)
  uint32_t index = 0;  // buffer / printf / event-pool index where the token has one
  uint32_t surfaceStateHeapOffset = 0, dataParamOffset = 0, dataParamSize = 0;
  bool operator==(const StatelessSurface&) const = default;
};

struct PrivateMemory {  // ALLOCATE_STATELESS_PRIVATE_MEMORY
  uint32_t surfaceStateHeapOffset = 0, dataParamOffset = 0, dataParamSize = 0;
  uint32_t perThreadPrivateMemorySize = 0;
  uint32_t isSimtThread = 0;  // nonzero: the size is per SIMT lane, else per hardware thread
  bool operator==(const PrivateMemory&) const = default;
};

struct BindingTableState {
  uint32_t offset = 0, count = 0, surfaceStateOffset = 0;
  bool operator==(const BindingTableState&) const = default;
};

struct InterfaceDescriptorData {
  uint32_t offset = 0, samplerStateOffset = 0, kernelOffset = 0, bindingTableOffset = 0;
  bool operator==(const InterfaceDescriptorData&) const = default;
};

struct MediaVfeState {  // MEDIA_VFE_STATE (slot 0) and _SLOT1
  uint32_t scratchSpaceOffset = 0, perThreadScratchSpace = 0;
  bool operator==(const MediaVfeState&) const = default;
};

struct LocalSurface {  // ALLOCATE_LOCAL_SURFACE: SLM the kernel declares itself
  uint32_t offset = 0, totalInlineLocalMemorySize = 0;
  bool operator==(const LocalSurface&) const = default;
};

struct ThreadPayload {
  bool headerPresent = false, localIdXPresent = false, localIdYPresent = false, localIdZPresent = false;
  bool localIdFlattenedPresent = false, indirectPayloadStorage = false, unusedPerThreadConstantPresent = false;
  bool getLocalIdPresent = false, getGroupIdPresent = false, getGlobalOffsetPresent = false;
  bool stageInGridOriginPresent = false, stageInGridSizePresent = false;
  uint32_t offsetToSkipPerThreadDataLoad = 0, offsetToSkipSetFfidGp = 0;
  bool passInlineData = false, rtStackIdPresent = false, generateLocalId = false;
  uint32_t emitLocalMask = 0, walkOrder = 0;
  bool tileY = false;
  bool operator==(const ThreadPayload&) const = default;
};

struct ExecutionEnvironment {
  uint32_t requiredWorkGroupSizeX = 0, requiredWorkGroupSizeY = 0, requiredWorkGroupSizeZ = 0;
  uint32_t largestCompiledSimdSize = 0, compiledSubGroupsNumber = 0;
  uint32_t hasBarriers = 0;  // printed as a number: the count of named barriers
  bool disableMidThreadPreemption = false, compiledSimd8 = false, compiledSimd16 = false, compiledSimd32 = false;
  bool hasDeviceEnqueue = false, mayAccessUndeclaredResource = false, usesFencesForReadWriteImages = false;
  bool usesStatelessSpillFill = false, usesMultiScratchSpaces = false, isCoherent = false;
  bool isInitializer = false, isFinalizer = false;  // binary only (not printed)
  bool subgroupIndependentForwardProgressRequired = false, compiledForGreaterThan4GbBuffers = false;
  uint32_t numGrfRequired = 0;
  uint32_t workgroupWalkOrderDims = 0;  // binary only (not printed)
  bool hasGlobalAtomics = false, hasDpas = false, hasRtCalls = false;
  uint32_t numThreadsRequired = 0, statelessWritesCount = 0, indirectStatelessCount = 0;
  uint32_t useBindlessMode = 0, hasStackCalls = 0;
  uint64_t simdInfo = 0;
  bool requireDisableEuFusion = false;
  bool operator==(const ExecutionEnvironment&) const = default;
};

struct KernelArgInfo {  // KERNEL_ARGUMENT_INFO
  uint32_t argumentNumber = 0;
  std::string addressQualifier, accessQualifier, name, typeName, typeQualifier;
  bool operator==(const KernelArgInfo&) const = default;
};

// The kernel binary header (SKernelBinaryHeaderCommon): the .cos prints it after the tokens.
struct KernelHeader {
  uint32_t checkSum = 0;
  uint64_t shaderHashCode = 0;
  uint32_t kernelNameSize = 0, patchListSize = 0, kernelHeapSize = 0;
  uint32_t generalStateHeapSize = 0, dynamicStateHeapSize = 0, surfaceStateHeapSize = 0;
  uint32_t kernelUnpaddedSize = 0;  // binary only (not printed)
  bool operator==(const KernelHeader&) const = default;
};

// A kernel's patch list, decoded. Tokens this struct has no member for are in `tokens` only.
struct KernelPatchList {
  std::string name;
  std::vector<DataParameter> dataParameters;
  std::vector<PointerArg> pointerArgs;
  std::vector<StatelessSurface> statelessSurfaces;
  std::optional<PrivateMemory> privateMemory;
  std::optional<BindingTableState> bindingTable;
  std::optional<InterfaceDescriptorData> interfaceDescriptor;
  std::optional<uint32_t> interfaceDescriptorDataOffset;  // MEDIA_INTERFACE_DESCRIPTOR_LOAD
  std::optional<MediaVfeState> mediaVfeState, mediaVfeStateSlot1;
  std::optional<LocalSurface> localSurface;
  std::optional<uint32_t> dataParameterStreamSize;  // cross-thread data bytes
  std::optional<ThreadPayload> threadPayload;
  std::optional<ExecutionEnvironment> executionEnvironment;
  std::optional<std::string> attributes;  // KERNEL_ATTRIBUTES_INFO
  std::vector<KernelArgInfo> argInfo;
  std::map<uint32_t, std::string> strings;  // PATCH_TOKEN_STRING by index: printf's formats and %s strings
  std::optional<KernelHeader> header;
  std::vector<RawToken> tokens;  // every token, in order

  // SSH offset of argument `arg`'s surface state (stateless pointer arguments), if any.
  std::optional<uint32_t> argSurfaceStateOffset(uint32_t arg) const;
  const DataParameter* dataParameter(DataParamType type, uint32_t argumentNumber, uint32_t sourceOffset = 0) const;
};

struct ProgramBuffer {  // ALLOCATE_{CONSTANT,GLOBAL}_MEMORY_SURFACE_PROGRAM_BINARY_INFO
  uint32_t bufferIndex = 0;
  uint32_t type = 0;  // global only: GLOBAL_BUFFER_TYPE (0 inline, 1 inline uninitialised)
  uint32_t initializationDataSize = 0;
  std::vector<uint8_t> data;  // .progbin only: the inline bytes that follow the token
  bool operator==(const ProgramBuffer&) const = default;
};

// {GLOBAL,CONSTANT}_POINTER_PROGRAM_BINARY_INFO: at `pointerOffset` in buffer `bufferIndex` (of the
// token's own kind) sits an offset into buffer `targetIndex` of kind `targetType` (0 global,
// 1 constant); the loader adds that buffer's address.
struct PointerPatch {
  uint32_t bufferIndex = 0;
  uint64_t pointerOffset = 0;
  uint32_t targetType = 0, targetIndex = 0;
  bool operator==(const PointerPatch&) const = default;
};

struct ProgramScope {
  std::vector<ProgramBuffer> constantBuffers, globalBuffers;
  std::vector<PointerPatch> constantPointers, globalPointers;
  std::vector<RawToken> tokens;  // every token, in order
};

// A `.cos` file: one kernel's tokens, SURFACE_STATE dumps and header; the program-scope tokens
// only in the first kernel's file (programScopePrinted).
struct SurfaceStateDump {
  std::vector<uint32_t> dwords;
  std::vector<Field> fields;
  unsigned line = 0;
};
struct CosFile {
  bool programScopePrinted = false;
  ProgramScope program;
  KernelPatchList kernel;
  std::vector<SurfaceStateDump> surfaceStates;
};

// Parses `.cos` text. On error returns false with "<file>:<line>: error: <message>" in err,
// and `out` empty.
bool parseCos(std::string_view text, std::string_view file, CosFile& out, std::string& err);

// The binding-table index whose entry points at surface state `ssOffset`. With the kernel's
// surface state heap (from the .progbin) the table is read; without it, ssOffset / 64 (IGC
// lays out one 64-byte surface state per index; docs/spec-decisions.md). nullopt: no such entry.
std::optional<uint32_t> bindingTableIndex(const KernelPatchList& k, uint32_t ssOffset,
                                          std::span<const uint8_t> surfaceStateHeap = {});

// Decodes one patch list from binary (progbin.cpp uses it). `base` is the list's byte offset
// in the file, for messages. Program-scope lists carry inline data after two token kinds.
bool decodeKernelPatchList(std::span<const uint8_t> list, uint64_t base, KernelPatchList& out, std::string& err);
bool decodeProgramPatchList(std::span<const uint8_t> list, uint64_t base, ProgramScope& out, std::string& err);

}  // namespace visakit::cl
