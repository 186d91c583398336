#include "cl/patch_tokens.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

namespace visakit::cl {

namespace {

// Names as IGC prints them (patch_parser.cpp of IGC 1.0.12504); ids 0..58 of patch_list.h.
constexpr std::array<std::string_view, kNumTokens> kTokenNames = {
    "PATCH_TOKEN_UNKNOWN", "PATCH_TOKEN_MEDIA_STATE_POINTERS", "PATCH_TOKEN_STATE_SIP",
    "PATCH_TOKEN_CS_URB_STATE", "PATCH_TOKEN_CONSTANT_BUFFER", "PATCH_TOKEN_SAMPLER_STATE_ARRAY",
    "PATCH_TOKEN_INTERFACE_DESCRIPTOR", "PATCH_TOKEN_VFE_STATE", "PATCH_TOKEN_BINDING_TABLE_STATE",
    "PATCH_TOKEN_ALLOCATE_SCRATCH_SURFACE", "PATCH_TOKEN_ALLOCATE_SIP_SURFACE",
    "PATCH_TOKEN_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT", "PATCH_TOKEN_IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT",
    "PATCH_TOKEN_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT", "PATCH_TOKEN_ALLOCATE_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_LOCAL_SURFACE", "PATCH_TOKEN_SAMPLER_KERNEL_ARGUMENT",
    "PATCH_TOKEN_DATA_PARAMETER_BUFFER", "PATCH_TOKEN_MEDIA_VFE_STATE",
    "PATCH_TOKEN_MEDIA_INTERFACE_DESCRIPTOR_LOAD", "PATCH_TOKEN_MEDIA_CURBE_LOAD",
    "PATCH_TOKEN_INTERFACE_DESCRIPTOR_DATA", "PATCH_TOKEN_THREAD_PAYLOAD", "PATCH_TOKEN_EXECUTION_ENVIRONMENT",
    "PATCH_TOKEN_ALLOCATE_PRIVATE_MEMORY", "PATCH_TOKEN_DATA_PARAMETER_STREAM",
    "PATCH_TOKEN_KERNEL_ARGUMENT_INFO", "PATCH_TOKEN_KERNEL_ATTRIBUTES_INFO", "PATCH_TOKEN_STRING",
    "PATCH_TOKEN_ALLOCATE_PRINTF_SURFACE", "PATCH_TOKEN_STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT",
    "PATCH_TOKEN_STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT",
    "PATCH_TOKEN_ALLOCATE_STATELESS_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_STATELESS_PRINTF_SURFACE", "PATCH_TOKEN_CB_MAPPING", "PATCH_TOKEN_CB2CR_GATHER_TABLE",
    "PATCH_TOKEN_ALLOCATE_STATELESS_EVENT_POOL_SURFACE", "PATCH_TOKEN_NULL_SURFACE_LOCATION",
    "PATCH_TOKEN_ALLOCATE_STATELESS_PRIVATE_MEMORY",
    "PATCH_TOKEN_ALLOCATE_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO",
    "PATCH_TOKEN_ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO",
    "PATCH_TOKEN_ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION",
    "PATCH_TOKEN_ALLOCATE_STATELESS_DEFAULT_DEVICE_QUEUE_SURFACE",
    "PATCH_TOKEN_STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT", "PATCH_TOKEN_GLOBAL_POINTER_PROGRAM_BINARY_INFO",
    "PATCH_TOKEN_CONSTANT_POINTER_PROGRAM_BINARY_INFO",
    "PATCH_TOKEN_CONSTRUCTOR_DESTRUCTOR_KERNEL_PROGRAM_BINARY_INFO", "PATCH_TOKEN_INLINE_VME_SAMPLER_INFO",
    "PATCH_TOKEN_GTPIN_FREE_GRF_INFO", "PATCH_TOKEN_GTPIN_INFO", "PATCH_TOKEN_PROGRAM_SYMBOL_TABLE",
    "PATCH_TOKEN_PROGRAM_RELOCATION_TABLE", "PATCH_TOKEN_MEDIA_VFE_STATE_SLOT1",
    "PATCH_TOKEN_ALLOCATE_SYNC_BUFFER", "PATCH_TOKEN_GLOBAL_HOST_ACCESS_TABLE",
    "PATCH_TOKEN_ALLOCATE_RT_GLOBAL_BUFFER",
};

// DATA_PARAMETER_TOKEN names as printed; IGC prints UNKNOWN_TYPE for 0, 36, 37, 39 and 50,
// which are spelled here after their enum names.
constexpr std::array<std::string_view, kNumDataParamTypes> kDataParamNames = {
    "UNKNOWN", "KERNEL_ARGUMENT", "LOCAL_WORK_SIZE", "GLOBAL_WORK_SIZE", "NUM_WORK_GROUPS",
    "WORK_DIMENSIONS", "LOCAL_ID", "EXECUTION_MASK", "SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES",
    "IMAGE_WIDTH", "IMAGE_HEIGHT", "IMAGE_DEPTH", "IMAGE_CHANNEL_DATA_TYPE", "IMAGE_CHANNEL_ORDER",
    "SAMPLER_ADDRESS_MODE", "SAMPLER_NORMALIZED_COORDS", "GLOBAL_WORK_OFFSET", "NUM_HARDWARE_THREADS",
    "IMAGE_ARRAY_SIZE", "PRINTF_SURFACE_SIZE", "IMAGE_NUM_SAMPLES", "SAMPLER_COORDINATE_SNAP_WA_REQUIRED",
    "PARENT_EVENT", "VME_MB_BLOCK_TYPE", "VME_SUBPIXEL_MODE", "VME_SAD_ADJUST_MODE", "VME_SEARCH_PATH_TYPE",
    "IMAGE_NUM_MIP_LEVELS", "ENQUEUED_LOCAL_WORK_SIZE", "MAX_WORKGROUP_SIZE", "PREFERRED_WORKGROUP_MULTIPLE",
    "LOCAL_MEMORY_STATELESS_WINDOW_START_ADDRESS", "LOCAL_MEMORY_STATELESS_WINDOW_SIZE",
    "PRIVATE_MEMORY_STATELESS_SIZE", "SIMD_SIZE", "OBJECT_ID", "VME_IMAGE_TYPE", "VME_MB_SKIP_BLOCK_TYPE",
    "CHILD_BLOCK_SIMD_SIZE", "IMAGE_SRGB_CHANNEL_ORDER", "STAGE_IN_GRID_ORIGIN", "STAGE_IN_GRID_SIZE",
    "BUFFER_OFFSET", "BUFFER_STATEFUL", "FLAT_IMAGE_BASEOFFSET", "FLAT_IMAGE_WIDTH", "FLAT_IMAGE_HEIGHT",
    "FLAT_IMAGE_PITCH", "RT_STACK_ID", "IMPL_ARG_BUFFER", "LOCAL_ID_BUFFER",
};

// ---- Field layouts: the key IGC prints and the byte offset in the token (header included).

template <class S>
struct Spec {
  const char* key = nullptr;  // nullptr: not printed (binary only)
  uint16_t at = 0;
  uint32_t S::*u32 = nullptr;
  bool S::*b = nullptr;
  uint64_t S::*u64 = nullptr;
  unsigned width() const { return u64 ? 8 : 4; }
};
template <class S>
constexpr Spec<S> f(const char* key, uint16_t at, uint32_t S::*m) {
  Spec<S> s;
  s.key = key, s.at = at, s.u32 = m;
  return s;
}
template <class S>
constexpr Spec<S> f(const char* key, uint16_t at, bool S::*m) {
  Spec<S> s;
  s.key = key, s.at = at, s.b = m;
  return s;
}
template <class S>
constexpr Spec<S> f(const char* key, uint16_t at, uint64_t S::*m) {
  Spec<S> s;
  s.key = key, s.at = at, s.u64 = m;
  return s;
}

using DP = DataParameter;
const Spec<DP> kDataParam[] = {
    f("ArgumentNumber", 12, &DP::argumentNumber), f("Offset", 16, &DP::offset),
    f("DataSize", 20, &DP::dataSize),             f("SourceOffset", 24, &DP::sourceOffset),
    f("LocationIndex1", 28, &DP::locationIndex),  f("LocationIndex2", 32, &DP::locationIndex2),
    f("IsEmulationArgument", 36, &DP::isEmulationArgument),
};
using PA = PointerArg;
const Spec<PA> kPointerArg[] = {
    f("ArgumentNumber", 8, &PA::argumentNumber),     f("SurfaceStateHeapOffset", 12, &PA::surfaceStateHeapOffset),
    f("DataParamOffset", 16, &PA::dataParamOffset),   f("DataParamSize", 20, &PA::dataParamSize),
    f("LocationIndex", 24, &PA::locationIndex),       f("LocationIndex2", 28, &PA::locationIndex2),
    f("IsEmulationArgument", 32, &PA::isEmulationArgument),
};
// The constant and device-queue variants print no LocationIndex lines.
const Spec<PA> kPointerArgShort[] = {
    f("ArgumentNumber", 8, &PA::argumentNumber),     f("SurfaceStateHeapOffset", 12, &PA::surfaceStateHeapOffset),
    f("DataParamOffset", 16, &PA::dataParamOffset),   f("DataParamSize", 20, &PA::dataParamSize),
    f(nullptr, 24, &PA::locationIndex),               f(nullptr, 28, &PA::locationIndex2),
    f("IsEmulationArgument", 32, &PA::isEmulationArgument),
};
using SS = StatelessSurface;
const Spec<SS> kSurfaceIndexed[] = {  // global / constant buffers: key "Index"
    f("Index", 8, &SS::index), f("SurfaceStateHeapOffset", 12, &SS::surfaceStateHeapOffset),
    f("DataParamOffset", 16, &SS::dataParamOffset), f("DataParamSize", 20, &SS::dataParamSize),
};
const Spec<SS> kSurfacePrintf[] = {
    f("PrintfSurfaceIndex", 8, &SS::index), f("SurfaceStateHeapOffset", 12, &SS::surfaceStateHeapOffset),
    f("DataParamOffset", 16, &SS::dataParamOffset), f("DataParamSize", 20, &SS::dataParamSize),
};
const Spec<SS> kSurfaceEventPool[] = {  // sic: IGC prints "EventPooolSurfaceIndex"
    f("EventPooolSurfaceIndex", 8, &SS::index), f("SurfaceStateHeapOffset", 12, &SS::surfaceStateHeapOffset),
    f("DataParamOffset", 16, &SS::dataParamOffset), f("DataParamSize", 20, &SS::dataParamSize),
};
const Spec<SS> kSurfacePlain[] = {
    f("SurfaceStateHeapOffset", 8, &SS::surfaceStateHeapOffset), f("DataParamOffset", 12, &SS::dataParamOffset),
    f("DataParamSize", 16, &SS::dataParamSize),
};
using PM = PrivateMemory;
const Spec<PM> kPrivate[] = {
    f("SurfaceHeapOffset", 8, &PM::surfaceStateHeapOffset), f("DataParamOffset", 12, &PM::dataParamOffset),
    f("DataParamSize", 16, &PM::dataParamSize), f("PerThreadPrivateMemorySize", 20, &PM::perThreadPrivateMemorySize),
    f("IsSimtThread", 24, &PM::isSimtThread),
};
using BT = BindingTableState;
const Spec<BT> kBindingTable[] = {
    f("Offset", 8, &BT::offset), f("Count", 12, &BT::count), f("SurfaceStateOffset", 16, &BT::surfaceStateOffset)};
using ID = InterfaceDescriptorData;
const Spec<ID> kIdd[] = {
    f("Offset", 8, &ID::offset), f("SamplerStateOffset", 12, &ID::samplerStateOffset),
    f("KernelOffset", 16, &ID::kernelOffset), f("BindingTableOffset", 20, &ID::bindingTableOffset)};
using VF = MediaVfeState;
const Spec<VF> kVfe[] = {f("ScratchSpaceOffset", 8, &VF::scratchSpaceOffset),
                         f("PerThreadScratchSpace", 12, &VF::perThreadScratchSpace)};
const Spec<VF> kVfeSlot1[] = {f("ScratchSpaceOffset", 8, &VF::scratchSpaceOffset),
                              f("PerThreadScratchSpaceSlot1", 12, &VF::perThreadScratchSpace)};
using LS = LocalSurface;
const Spec<LS> kLocal[] = {f("Offset", 8, &LS::offset),
                           f("TotalInlineLocalMemorySize", 12, &LS::totalInlineLocalMemorySize)};
using TP = ThreadPayload;
const Spec<TP> kPayload[] = {
    f("HeaderPresent", 8, &TP::headerPresent),
    f("LocalIDXPresent", 12, &TP::localIdXPresent),
    f("LocalIDYPresent", 16, &TP::localIdYPresent),
    f("LocalIDZPresent", 20, &TP::localIdZPresent),
    f("LocalIDFlattenedPresent", 24, &TP::localIdFlattenedPresent),
    f("IndirectPayloadStorage", 28, &TP::indirectPayloadStorage),
    f("UnusedPerThreadConstantPresent", 32, &TP::unusedPerThreadConstantPresent),
    f("GetLocalIDPresent", 36, &TP::getLocalIdPresent),
    f("GetGroupIDPresent", 40, &TP::getGroupIdPresent),
    f("GetGlobalOffsetPresent", 44, &TP::getGlobalOffsetPresent),
    f("StageInGridOriginPresent", 48, &TP::stageInGridOriginPresent),
    f("StageInGridSizePresent", 52, &TP::stageInGridSizePresent),
    f("OffsetToSkipPerThreadDataLoad", 56, &TP::offsetToSkipPerThreadDataLoad),
    f("OffsetToSkipSetFFIDGP", 60, &TP::offsetToSkipSetFfidGp),
    f("PassInlineData", 64, &TP::passInlineData),
    f("RTStackIDPresent", 68, &TP::rtStackIdPresent),
    f("generateLocalID", 72, &TP::generateLocalId),
    f("emitLocalMask", 76, &TP::emitLocalMask),
    f("walkOrder", 80, &TP::walkOrder),
    f("tileY", 84, &TP::tileY),
};
using EE = ExecutionEnvironment;
const Spec<EE> kExecEnv[] = {
    f("RequiredWorkGroupSizeX", 8, &EE::requiredWorkGroupSizeX),
    f("RequiredWorkGroupSizeY", 12, &EE::requiredWorkGroupSizeY),
    f("RequiredWorkGroupSizeZ", 16, &EE::requiredWorkGroupSizeZ),
    f("LargestCompiledSIMDSize", 20, &EE::largestCompiledSimdSize),
    f("CompiledSubGroupsNumber", 24, &EE::compiledSubGroupsNumber),
    f("HasBarriers", 28, &EE::hasBarriers),
    f("DisableMidThreadPreemption", 32, &EE::disableMidThreadPreemption),
    f("CompiledSIMD8", 36, &EE::compiledSimd8),
    f("CompiledSIMD16", 40, &EE::compiledSimd16),
    f("CompiledSIMD32", 44, &EE::compiledSimd32),
    f("HasDeviceEnqueue", 48, &EE::hasDeviceEnqueue),
    f("MayAccessUndeclaredResource", 52, &EE::mayAccessUndeclaredResource),
    f("UsesFencesForReadWriteImages", 56, &EE::usesFencesForReadWriteImages),
    f("UsesStatelessSpillFill", 60, &EE::usesStatelessSpillFill),
    f("UsesMultiScratchSpaces", 64, &EE::usesMultiScratchSpaces),
    f("IsCoherent", 68, &EE::isCoherent),
    f(nullptr, 72, &EE::isInitializer),
    f(nullptr, 76, &EE::isFinalizer),
    f("SubgroupIndependentForwardProgressRequired", 80, &EE::subgroupIndependentForwardProgressRequired),
    f("CompiledForGreaterThan4GBBuffers", 84, &EE::compiledForGreaterThan4GbBuffers),
    f("NumGRFRequired", 88, &EE::numGrfRequired),
    f(nullptr, 92, &EE::workgroupWalkOrderDims),
    f("HasGlobalAtomics", 96, &EE::hasGlobalAtomics),
    f("HasDPAS", 100, &EE::hasDpas),
    f("HasRTCalls", 104, &EE::hasRtCalls),
    f("NumThreadsRequired", 108, &EE::numThreadsRequired),
    f("NumStatelessWrites", 112, &EE::statelessWritesCount),
    f("NumIndirectStateless", 116, &EE::indirectStatelessCount),
    f("UseBindlessMode", 120, &EE::useBindlessMode),
    f("HasStackCalls", 124, &EE::hasStackCalls),
    f("SIMDInfo", 128, &EE::simdInfo),
    f("RequireDisableEUFusion", 136, &EE::requireDisableEuFusion),
};
using PB = ProgramBuffer;
const Spec<PB> kConstantBuffer[] = {f("BufferIndex", 8, &PB::bufferIndex),
                                    f("InitializationDataSize", 12, &PB::initializationDataSize)};
const Spec<PB> kGlobalBuffer[] = {f("BufferType", 8, &PB::type), f("BufferIndex", 12, &PB::bufferIndex),
                                  f("InitializationDataSize", 16, &PB::initializationDataSize)};
using PP = PointerPatch;
const Spec<PP> kGlobalPointer[] = {
    f("GlobalBufferIndex", 8, &PP::bufferIndex), f("GlobalPointerOffset", 12, &PP::pointerOffset),
    f("BufferType", 20, &PP::targetType), f("BufferIndex", 24, &PP::targetIndex)};
const Spec<PP> kConstantPointer[] = {
    f("ConstantBufferIndex", 8, &PP::bufferIndex), f("ConstantPointerOffset", 12, &PP::pointerOffset),
    f("BufferType", 20, &PP::targetType), f("BufferIndex", 24, &PP::targetIndex)};

template <class S, size_t N>
constexpr unsigned bytesOf(const Spec<S> (&specs)[N]) {
  unsigned n = 8;
  for (const auto& s : specs) n = std::max(n, unsigned(s.at) + s.width());
  return n;
}

// ---- Numbers as printed (%d of a uint32_t may be negative; %x for the checksum).

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool parseSigned(std::string_view s, bool neg, uint64_t limitPos, uint64_t limitNeg, uint64_t& out) {
  uint64_t v = 0;
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  if (ec != std::errc() || p != s.data() + s.size()) return false;
  if (neg) {
    if (v > limitNeg) return false;
    out = uint64_t(0) - v;
  } else {
    if (v > limitPos) return false;
    out = v;
  }
  return true;
}

// A 32-bit value printed with %d (or %u): -2^31 .. 2^32-1, wrapped to 32 bits.
bool parseU32(std::string_view s, uint32_t& out) {
  s = trim(s);
  bool neg = !s.empty() && s.front() == '-';
  if (neg) s.remove_prefix(1);
  uint64_t v;
  if (!parseSigned(s, neg, 0xffffffffull, 0x80000000ull, v)) return false;
  out = uint32_t(v);
  return true;
}

bool parseU64(std::string_view s, uint64_t& out) {
  s = trim(s);
  bool neg = !s.empty() && s.front() == '-';
  if (neg) s.remove_prefix(1);
  return parseSigned(s, neg, ~0ull, 0x8000000000000000ull, out);
}

bool parseHex(std::string_view s, uint64_t max, uint64_t& out) {
  s = trim(s);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return ec == std::errc() && p == s.data() + s.size() && out <= max;
}

bool parseBool(std::string_view s, bool& out) {
  s = trim(s);
  if (s == "true") return out = true, true;
  if (s == "false") return out = false, true;
  uint32_t v;
  if (!parseU32(s, v)) return false;
  out = v != 0;
  return true;
}

uint32_t rd32(std::span<const uint8_t> b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t rd64(std::span<const uint8_t> b, size_t at) { return rd32(b, at) | uint64_t(rd32(b, at + 4)) << 32; }

// ---- Text tokens to structs.

struct TextCtx {
  std::string_view file;
  std::string* err;
  bool fail(unsigned line, const std::string& msg) {
    *err = fmt::format("{}:{}: error: {}", file, line, msg);
    return false;
  }
};

const Field* findField(const RawToken& t, std::string_view key, TextCtx& cx, bool& dup) {
  const Field* found = nullptr;
  dup = false;
  for (const Field& fl : t.fields)
    if (fl.key == key) {
      if (found) {
        dup = true;
        cx.fail(fl.line, fmt::format("{}: '{}' given twice", t.name, key));
        return nullptr;
      }
      found = &fl;
    }
  return found;
}

template <class S, size_t N>
bool fromText(const RawToken& t, const Spec<S> (&specs)[N], S& out, TextCtx& cx) {
  for (const auto& s : specs) {
    if (!s.key) continue;
    bool dup;
    const Field* fl = findField(t, s.key, cx, dup);
    if (dup) return false;
    if (!fl) return cx.fail(t.line, fmt::format("{}: missing '{}'", t.name, s.key));
    bool ok = s.u32 ? parseU32(fl->value, out.*s.u32) : s.b ? parseBool(fl->value, out.*s.b)
                                                            : parseU64(fl->value, out.*s.u64);
    if (!ok) return cx.fail(fl->line, fmt::format("{}: '{}' is not a number: '{}'", t.name, s.key, fl->value));
  }
  return true;
}

template <class S, size_t N>
void fromBytes(std::span<const uint8_t> tok, const Spec<S> (&specs)[N], S& out) {
  for (const auto& s : specs) {
    if (s.u32) out.*s.u32 = rd32(tok, s.at);
    else if (s.b) out.*s.b = rd32(tok, s.at) != 0;
    else out.*s.u64 = rd64(tok, s.at);
  }
}

// "12 | value = "__global"" -> size 12 and the string.
bool sizedString(std::string_view v, uint32_t& size, std::string& str) {
  size_t bar = v.find('|');
  if (bar == std::string_view::npos || !parseU32(v.substr(0, bar), size)) return false;
  std::string_view rest = trim(v.substr(bar + 1));
  if (!rest.starts_with("value")) return false;
  rest = trim(rest.substr(5));
  if (rest.empty() || rest.front() != '=') return false;
  rest = trim(rest.substr(1));
  if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') return false;
  str = std::string(rest.substr(1, rest.size() - 2));
  return true;
}

// A binary token's string: its byte count at `sizeAt`, the bytes after it, up to a NUL.
bool bytesString(std::span<const uint8_t> b, size_t sizeAt, const RawToken& t, std::string& out, std::string& msg) {
  const uint32_t n = rd32(b, sizeAt);
  if (n > b.size() - sizeAt - 4) {
    msg = fmt::format("{}: string of {} bytes runs past the token's {} bytes", t.name, n, b.size());
    return false;
  }
  auto sp = b.subspan(sizeAt + 4, n);
  out.assign(sp.begin(), std::find(sp.begin(), sp.end(), uint8_t(0)));
  return true;
}

bool textString(const RawToken& t, const char* key, std::string& out, TextCtx& cx) {
  bool dup;
  const Field* fl = findField(t, key, cx, dup);
  if (dup) return false;
  if (!fl) return cx.fail(t.line, fmt::format("{}: missing '{}'", t.name, key));
  uint32_t size;
  if (!sizedString(fl->value, size, out))
    return cx.fail(fl->line, fmt::format("{}: '{}' is not 'N | value = \"...\"': '{}'", t.name, key, fl->value));
  if (size == 0 ? !out.empty() : out.size() >= size)
    return cx.fail(fl->line, fmt::format("{}: '{}' string of {} bytes does not fit its size {}", t.name, key,
                                         out.size(), size));
  return true;
}

enum class Kind { None, DataParam, PointerGlobal, PointerConstant, PointerDeviceQueue, SurfIndexed, SurfPrintf,
                  SurfEventPool, SurfPlain, Private, Bt, Idd, Midl, Vfe, VfeSlot1, Local, Stream, Payload, ExecEnv,
                  ArgInfo, Attributes, Str, ConstBuf, GlobalBuf, GlobalPtr, ConstPtr };

Kind kindOf(uint32_t id) {
  switch (Token(id)) {
    case Token::DataParameterBuffer: return Kind::DataParam;
    case Token::StatelessGlobalMemoryObjectKernelArgument: return Kind::PointerGlobal;
    case Token::StatelessConstantMemoryObjectKernelArgument: return Kind::PointerConstant;
    case Token::StatelessDeviceQueueKernelArgument: return Kind::PointerDeviceQueue;
    case Token::AllocateStatelessGlobalMemorySurfaceWithInitialization:
    case Token::AllocateStatelessConstantMemorySurfaceWithInitialization: return Kind::SurfIndexed;
    case Token::AllocateStatelessPrintfSurface: return Kind::SurfPrintf;
    case Token::AllocateStatelessEventPoolSurface: return Kind::SurfEventPool;
    case Token::AllocateStatelessDefaultDeviceQueueSurface:
    case Token::AllocateSyncBuffer:
    case Token::AllocateRtGlobalBuffer: return Kind::SurfPlain;
    case Token::AllocateStatelessPrivateMemory: return Kind::Private;
    case Token::BindingTableState: return Kind::Bt;
    case Token::InterfaceDescriptorData: return Kind::Idd;
    case Token::MediaInterfaceDescriptorLoad: return Kind::Midl;
    case Token::MediaVfeState: return Kind::Vfe;
    case Token::MediaVfeStateSlot1: return Kind::VfeSlot1;
    case Token::AllocateLocalSurface: return Kind::Local;
    case Token::DataParameterStream: return Kind::Stream;
    case Token::ThreadPayload: return Kind::Payload;
    case Token::ExecutionEnvironment: return Kind::ExecEnv;
    case Token::KernelArgumentInfo: return Kind::ArgInfo;
    case Token::KernelAttributesInfo: return Kind::Attributes;
    case Token::String: return Kind::Str;
    case Token::AllocateConstantMemorySurfaceProgramBinaryInfo: return Kind::ConstBuf;
    case Token::AllocateGlobalMemorySurfaceProgramBinaryInfo: return Kind::GlobalBuf;
    case Token::GlobalPointerProgramBinaryInfo: return Kind::GlobalPtr;
    case Token::ConstantPointerProgramBinaryInfo: return Kind::ConstPtr;
    default: return Kind::None;
  }
}

// Stores a decoded singleton, refusing a second one.
template <class T>
bool setOnce(std::optional<T>& slot, const T& v, const RawToken& t, std::string& msg) {
  if (slot) {
    msg = fmt::format("a second {}", t.name);
    return false;
  }
  slot = v;
  return true;
}

// The typed part of one kernel token, from text (bytes empty) or bytes. On error `msg` is set
// (text errors are reported by cx directly and return false with msg empty).
template <bool kText>
bool typedKernel(const RawToken& t, std::span<const uint8_t> b, KernelPatchList& k, TextCtx* cx, std::string& msg) {
  auto fill = [&](const auto& specs, auto& out) {
    if constexpr (kText) return fromText(t, specs, out, *cx);
    else return fromBytes(b, specs, out), true;
  };
  switch (kindOf(t.id)) {
    case Kind::DataParam: {
      DataParameter d;
      if (!fill(kDataParam, d)) return false;
      if constexpr (kText) {
        bool dup;
        const Field* fl = findField(t, "Type", *cx, dup);
        if (dup) return false;
        if (!fl) return cx->fail(t.line, fmt::format("{}: missing 'Type'", t.name));
        d.typeName = std::string(trim(fl->value));
        d.type = DataParamType(dataParamType(d.typeName).value_or(0));
      } else {
        uint32_t ty = rd32(b, 8);
        d.typeName = std::string(dataParamName(ty));
        d.type = ty < kNumDataParamTypes ? DataParamType(ty) : DataParamType::Unknown;
        if (d.typeName.empty()) d.typeName = fmt::format("{}", ty);
      }
      k.dataParameters.push_back(std::move(d));
      return true;
    }
    case Kind::PointerGlobal:
    case Kind::PointerConstant:
    case Kind::PointerDeviceQueue: {
      PointerArg p;
      Kind kd = kindOf(t.id);
      p.space = kd == Kind::PointerGlobal ? PointerArg::Space::Global
                : kd == Kind::PointerConstant ? PointerArg::Space::Constant : PointerArg::Space::DeviceQueue;
      if (!(kd == Kind::PointerGlobal ? fill(kPointerArg, p) : fill(kPointerArgShort, p))) return false;
      k.pointerArgs.push_back(p);
      return true;
    }
    case Kind::SurfIndexed:
    case Kind::SurfPrintf:
    case Kind::SurfEventPool:
    case Kind::SurfPlain: {
      StatelessSurface s;
      s.token = t.id;
      Kind kd = kindOf(t.id);
      bool ok = kd == Kind::SurfIndexed ? fill(kSurfaceIndexed, s) : kd == Kind::SurfPrintf ? fill(kSurfacePrintf, s)
                : kd == Kind::SurfEventPool ? fill(kSurfaceEventPool, s) : fill(kSurfacePlain, s);
      if (!ok) return false;
      k.statelessSurfaces.push_back(s);
      return true;
    }
    case Kind::Private: {
      PrivateMemory v;
      return fill(kPrivate, v) && setOnce(k.privateMemory, v, t, msg);
    }
    case Kind::Bt: {
      BindingTableState v;
      return fill(kBindingTable, v) && setOnce(k.bindingTable, v, t, msg);
    }
    case Kind::Idd: {
      InterfaceDescriptorData v;
      return fill(kIdd, v) && setOnce(k.interfaceDescriptor, v, t, msg);
    }
    case Kind::Vfe: {
      MediaVfeState v;
      return fill(kVfe, v) && setOnce(k.mediaVfeState, v, t, msg);
    }
    case Kind::VfeSlot1: {
      MediaVfeState v;
      return fill(kVfeSlot1, v) && setOnce(k.mediaVfeStateSlot1, v, t, msg);
    }
    case Kind::Local: {
      LocalSurface v;
      return fill(kLocal, v) && setOnce(k.localSurface, v, t, msg);
    }
    case Kind::Payload: {
      ThreadPayload v;
      return fill(kPayload, v) && setOnce(k.threadPayload, v, t, msg);
    }
    case Kind::ExecEnv: {
      ExecutionEnvironment v;
      return fill(kExecEnv, v) && setOnce(k.executionEnvironment, v, t, msg);
    }
    case Kind::Midl:
    case Kind::Stream: {
      struct One {
        uint32_t v = 0;
      } one;
      const Spec<One> midl[] = {f("InterfaceDescriptorDataOffset", 8, &One::v)};
      const Spec<One> stream[] = {f("DataParameterStreamSize", 8, &One::v)};
      bool isMidl = kindOf(t.id) == Kind::Midl;
      if (!(isMidl ? fill(midl, one) : fill(stream, one))) return false;
      return setOnce(isMidl ? k.interfaceDescriptorDataOffset : k.dataParameterStreamSize, one.v, t, msg);
    }
    case Kind::ArgInfo: {
      KernelArgInfo a;
      if constexpr (kText) {
        bool dup;
        const Field* fl = findField(t, "ArgumentNumber", *cx, dup);
        if (dup) return false;
        if (!fl) return cx->fail(t.line, fmt::format("{}: missing 'ArgumentNumber'", t.name));
        if (!parseU32(fl->value, a.argumentNumber))
          return cx->fail(fl->line, fmt::format("{}: 'ArgumentNumber' is not a number: '{}'", t.name, fl->value));
        if (!textString(t, "AddressQualifierSize", a.addressQualifier, *cx) ||
            !textString(t, "AccessQualifierSize", a.accessQualifier, *cx) ||
            !textString(t, "ArgumentNameSize", a.name, *cx) || !textString(t, "TypeNameSize", a.typeName, *cx) ||
            !textString(t, "TypeQualifierSize", a.typeQualifier, *cx))
          return false;
      } else {
        a.argumentNumber = rd32(b, 8);
        size_t pos = 32;
        std::string* dst[] = {&a.addressQualifier, &a.accessQualifier, &a.name, &a.typeName, &a.typeQualifier};
        for (int i = 0; i < 5; ++i) {
          uint32_t n = rd32(b, 12 + 4 * i);
          if (n > b.size() - pos) {
            msg = fmt::format("{}: string {} of {} bytes runs past the token's {} bytes", t.name, i + 1, n, b.size());
            return false;
          }
          auto s = b.subspan(pos, n);
          auto z = std::find(s.begin(), s.end(), uint8_t(0));
          dst[i]->assign(s.begin(), z);
          pos += n;
        }
      }
      k.argInfo.push_back(std::move(a));
      return true;
    }
    case Kind::Attributes: {
      std::string s;
      if constexpr (kText) {
        if (!textString(t, "AttributeSize", s, *cx)) return false;
      } else if (!bytesString(b, 8, t, s, msg)) {
        return false;
      }
      return setOnce(k.attributes, s, t, msg);
    }
    case Kind::Str: {
      // printf's strings (K12): Index, then StringSize bytes (NUL-terminated), as the
      // source wrote them (a newline is the two characters \n; printf.cpp reads them).
      uint32_t index = 0;
      std::string s;
      if constexpr (kText) {
        bool dup;
        const Field* fi = findField(t, "String Index", *cx, dup);
        if (dup) return false;
        if (!fi || !parseU32(fi->value, index))
          return cx->fail(fi ? fi->line : t.line, fmt::format("{}: 'String Index' is missing or not a number", t.name));
        if (!textString(t, "String Size", s, *cx)) return false;
      } else {
        index = rd32(b, 8);
        if (!bytesString(b, 12, t, s, msg)) return false;
      }
      if (!k.strings.emplace(index, std::move(s)).second) {
        if constexpr (kText) return cx->fail(t.line, fmt::format("{}: a second string {}", t.name, index));
        msg = fmt::format("{}: a second string {}", t.name, index);
        return false;
      }
      return true;
    }
    default:
      return true;
  }
}

unsigned minBytes(uint32_t id) {
  switch (kindOf(id)) {
    case Kind::DataParam: return bytesOf(kDataParam);
    case Kind::PointerGlobal:
    case Kind::PointerConstant:
    case Kind::PointerDeviceQueue: return bytesOf(kPointerArg);
    case Kind::SurfIndexed:
    case Kind::SurfPrintf:
    case Kind::SurfEventPool: return bytesOf(kSurfaceIndexed);
    case Kind::SurfPlain: return bytesOf(kSurfacePlain);
    case Kind::Private: return bytesOf(kPrivate);
    case Kind::Bt: return bytesOf(kBindingTable);
    case Kind::Idd: return bytesOf(kIdd);
    case Kind::Midl:
    case Kind::Stream: return 12;
    case Kind::Vfe:
    case Kind::VfeSlot1: return bytesOf(kVfe);
    case Kind::Local: return bytesOf(kLocal);
    case Kind::Payload: return bytesOf(kPayload);
    case Kind::ExecEnv: return bytesOf(kExecEnv);
    case Kind::ArgInfo: return 32;
    case Kind::Attributes: return 12;
    case Kind::Str: return 16;
    case Kind::ConstBuf: return bytesOf(kConstantBuffer);
    case Kind::GlobalBuf: return bytesOf(kGlobalBuffer);
    case Kind::GlobalPtr:
    case Kind::ConstPtr: return bytesOf(kGlobalPointer);
    default: return 8;
  }
}

template <bool kText>
bool typedProgram(const RawToken& t, std::span<const uint8_t> b, ProgramScope& p, TextCtx* cx) {
  auto fill = [&](const auto& specs, auto& out) {
    if constexpr (kText) return fromText(t, specs, out, *cx);
    else return fromBytes(b, specs, out), true;
  };
  switch (kindOf(t.id)) {
    case Kind::ConstBuf:
    case Kind::GlobalBuf: {
      ProgramBuffer buf;
      bool isConst = kindOf(t.id) == Kind::ConstBuf;
      if (!(isConst ? fill(kConstantBuffer, buf) : fill(kGlobalBuffer, buf))) return false;
      if constexpr (!kText) buf.data.assign(b.begin() + t.size, b.begin() + t.size + buf.initializationDataSize);
      (isConst ? p.constantBuffers : p.globalBuffers).push_back(std::move(buf));
      return true;
    }
    case Kind::GlobalPtr:
    case Kind::ConstPtr: {
      PointerPatch pp;
      bool isGlobal = kindOf(t.id) == Kind::GlobalPtr;
      if (!(isGlobal ? fill(kGlobalPointer, pp) : fill(kConstantPointer, pp))) return false;
      (isGlobal ? p.globalPointers : p.constantPointers).push_back(pp);
      return true;
    }
    default:
      return true;
  }
}

// ---- .cos lines.

bool startsWithSpace(std::string_view l) { return !l.empty() && (l.front() == '\t' || l.front() == ' '); }

Field splitField(std::string_view line, unsigned no) {
  std::string_view s = trim(line);
  size_t eq = s.find('=');
  size_t colon = s.find(':');
  size_t at = eq != std::string_view::npos ? eq : colon;
  Field fl;
  fl.line = no;
  if (at == std::string_view::npos) {
    fl.key = std::string(s);
  } else {
    fl.key = std::string(trim(s.substr(0, at)));
    fl.value = std::string(trim(s.substr(at + 1)));
  }
  return fl;
}

// "PATCH_TOKEN_X (0000001E) (size = 36)" or "(size = 28 )"; "*** UNKNOWN TOKEN 0000003F (size = 8)***".
bool tokenHeader(std::string_view l, RawToken& t, std::string& why) {
  std::string_view name, rest;
  if (l.starts_with("*** UNKNOWN TOKEN ")) {
    rest = l.substr(18);
    if (!rest.ends_with("***")) return why = "expected '***' at the end", false;
    rest.remove_suffix(3);
    size_t sp = rest.find(' ');
    if (sp == std::string_view::npos) return why = "expected 'UNKNOWN TOKEN XXXXXXXX (size = N)'", false;
    uint64_t id;
    if (!parseHex(rest.substr(0, sp), 0xffffffff, id)) return why = "bad token id", false;
    t.id = uint32_t(id);
    rest = trim(rest.substr(sp));
  } else {
    size_t sp = l.find(' ');
    if (sp == std::string_view::npos) return why = "expected 'PATCH_TOKEN_X (XXXXXXXX) (size = N)'", false;
    name = l.substr(0, sp);
    rest = trim(l.substr(sp));
    if (rest.size() < 10 || rest[0] != '(' || rest[9] != ')') return why = "expected '(XXXXXXXX)' after the name", false;
    uint64_t id;
    if (!parseHex(rest.substr(1, 8), 0xffffffff, id)) return why = "bad token id", false;
    t.id = uint32_t(id);
    rest = trim(rest.substr(10));
    t.name = std::string(name);
    auto known = tokenId(name);
    if (known && *known != t.id)
      return why = fmt::format("{} has id {:X}, not {:08X}", name, *known, t.id), false;
    if (!known && t.id < kNumTokens)
      return why = fmt::format("token id {:08X} is {}, not {}", t.id, tokenName(t.id), name), false;
  }
  if (!rest.starts_with("(size") || !rest.ends_with(")")) return why = "expected '(size = N)'", false;
  rest = trim(rest.substr(5, rest.size() - 6));
  if (rest.empty() || rest.front() != '=') return why = "expected '(size = N)'", false;
  if (!parseU32(rest.substr(1), t.size) || trim(rest.substr(1)).starts_with("-"))
    return why = "bad token size", false;
  if (t.name.empty()) t.name = std::string(tokenName(t.id));
  return true;
}

}  // namespace

std::string_view tokenName(uint32_t id) { return id < kNumTokens ? kTokenNames[id] : std::string_view(); }

std::optional<uint32_t> tokenId(std::string_view name) {
  for (uint32_t i = 0; i < kNumTokens; ++i)
    if (kTokenNames[i] == name) return i;
  return std::nullopt;
}

std::string_view dataParamName(uint32_t type) {
  return type < kNumDataParamTypes ? kDataParamNames[type] : std::string_view();
}

std::optional<uint32_t> dataParamType(std::string_view name) {
  for (uint32_t i = 1; i < kNumDataParamTypes; ++i)
    if (kDataParamNames[i] == name) return i;
  return std::nullopt;
}

std::optional<uint32_t> KernelPatchList::argSurfaceStateOffset(uint32_t arg) const {
  for (const auto& p : pointerArgs)
    if (p.argumentNumber == arg) return p.surfaceStateHeapOffset;
  return std::nullopt;
}

const DataParameter* KernelPatchList::dataParameter(DataParamType type, uint32_t argumentNumber,
                                                    uint32_t sourceOffset) const {
  for (const auto& d : dataParameters)
    if (d.type == type && d.argumentNumber == argumentNumber && d.sourceOffset == sourceOffset) return &d;
  return nullptr;
}

std::optional<uint32_t> bindingTableIndex(const KernelPatchList& k, uint32_t ssOffset,
                                          std::span<const uint8_t> ssh) {
  if (!k.bindingTable) return std::nullopt;
  const BindingTableState& bt = *k.bindingTable;
  if (ssh.empty()) {
    if (ssOffset % 64 != 0 || ssOffset / 64 >= bt.count) return std::nullopt;
    return ssOffset / 64;
  }
  for (uint32_t i = 0; i < bt.count; ++i) {
    uint64_t at = uint64_t(bt.offset) + 4ull * i;
    if (at + 4 > ssh.size()) return std::nullopt;
    if (rd32(ssh, size_t(at)) == ssOffset) return i;
  }
  return std::nullopt;
}

namespace {

bool parseCosInto(std::string_view text, std::string_view file, CosFile& out, std::string& err) {
  TextCtx cx{file, &err};
  enum class Block { None, Token, Surface, Header } block = Block::None;
  enum class Section { None, Program, Kernel } section = Section::None;
  std::vector<RawToken>* list = nullptr;
  std::string trailerName;
  bool sawKernel = false, sawHeader = false;
  std::vector<Field> headerFields;
  unsigned headerLine = 0;

  unsigned no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find('\0') != std::string_view::npos) return cx.fail(no, "NUL byte in the text");
    if (trim(line).empty()) continue;
    if (startsWithSpace(line)) {
      Field fl = splitField(line, no);
      if (block == Block::Token) list->back().fields.push_back(std::move(fl));
      else if (block == Block::Surface) out.surfaceStates.back().fields.push_back(std::move(fl));
      else if (block == Block::Header) headerFields.push_back(std::move(fl));
      else return cx.fail(no, fmt::format("indented line outside a token: '{}'", trim(line)));
      continue;
    }
    block = Block::None;
    if (line.starts_with("//")) continue;
    if (line == "** Program Scope patch lists **") {
      if (section != Section::None) return cx.fail(no, "the program-scope section must come first");
      section = Section::Program;
      out.programScopePrinted = true;
      list = &out.program.tokens;
      continue;
    }
    if (line.starts_with("** Kernel Patch Lists : Kernel Name = ") && line.ends_with(" **")) {
      if (sawKernel) return cx.fail(no, "a second kernel section (one .cos holds one kernel)");
      sawKernel = true;
      section = Section::Kernel;
      out.kernel.name = std::string(line.substr(38, line.size() - 38 - 3));
      if (out.kernel.name.empty()) return cx.fail(no, "empty kernel name");
      list = &out.kernel.tokens;
      continue;
    }
    if (line.starts_with("SURFACE_STATE = {")) {
      if (section != Section::Kernel) return cx.fail(no, "SURFACE_STATE outside the kernel section");
      std::string_view body = line.substr(17);
      if (!body.ends_with("}")) return cx.fail(no, "SURFACE_STATE: expected '}' at the end");
      body.remove_suffix(1);
      SurfaceStateDump ss;
      ss.line = no;
      while (!trim(body).empty()) {
        size_t comma = body.find(',');
        std::string_view w = trim(body.substr(0, comma));
        uint64_t v;
        if (!parseHex(w, 0xffffffff, v)) return cx.fail(no, fmt::format("SURFACE_STATE: bad dword '{}'", w));
        ss.dwords.push_back(uint32_t(v));
        if (comma == std::string_view::npos) break;
        body = body.substr(comma + 1);
      }
      out.surfaceStates.push_back(std::move(ss));
      block = Block::Surface;
      continue;
    }
    if (line.starts_with("PATCH_TOKEN_") || line.starts_with("*** UNKNOWN TOKEN ")) {
      if (section == Section::None) return cx.fail(no, "a token before any section");
      if (sawHeader) return cx.fail(no, "a token after the kernel binary header");
      RawToken t;
      t.line = no;
      std::string why;
      if (!tokenHeader(line, t, why)) return cx.fail(no, why);
      list->push_back(std::move(t));
      block = Block::Token;
      continue;
    }
    if (line.starts_with("Kernel Name: ")) {
      if (section != Section::Kernel || !trailerName.empty())
        return cx.fail(no, "'Kernel Name:' outside the kernel section");
      trailerName = std::string(line.substr(13));
      if (trailerName != out.kernel.name)
        return cx.fail(no, fmt::format("'Kernel Name: {}' does not match the section's '{}'", trailerName,
                                       out.kernel.name));
      continue;
    }
    if (line == "Gen7 Kernel Binary Header:") {
      if (section != Section::Kernel || sawHeader) return cx.fail(no, "unexpected kernel binary header");
      sawHeader = true;
      headerLine = no;
      block = Block::Header;
      continue;
    }
    return cx.fail(no, fmt::format("unexpected line: '{}'", line.substr(0, 80)));
  }
  if (!sawKernel) return cx.fail(no ? no : 1, "no '** Kernel Patch Lists : Kernel Name = ... **' section");

  std::string msg;
  for (const RawToken& t : out.program.tokens)
    if (!typedProgram<true>(t, {}, out.program, &cx)) return false;
  for (const RawToken& t : out.kernel.tokens)
    if (!typedKernel<true>(t, {}, out.kernel, &cx, msg)) return msg.empty() ? false : cx.fail(t.line, msg);

  if (sawHeader) {
    RawToken h;
    h.name = "Gen7 Kernel Binary Header";
    h.line = headerLine;
    h.fields = std::move(headerFields);
    KernelHeader kh;
    struct Num {
      const char* key;
      uint32_t* dst;
    } nums[] = {{"KernelNameSize", &kh.kernelNameSize},          {"PatchListSize", &kh.patchListSize},
                {"KernelHeapSize", &kh.kernelHeapSize},          {"GeneralStateHeapSize", &kh.generalStateHeapSize},
                {"DynamicStateHeapSize", &kh.dynamicStateHeapSize}, {"SurfaceStateHeapSize", &kh.surfaceStateHeapSize}};
    bool dup;
    for (const char* key : {"CheckSum", "ShaderHashCode"}) {
      const Field* fl = findField(h, key, cx, dup);
      if (dup) return false;
      if (!fl) return cx.fail(headerLine, fmt::format("kernel binary header: missing '{}'", key));
      uint64_t v;
      bool ok = key[0] == 'C' ? parseHex(fl->value, 0xffffffff, v) : parseU64(fl->value, v);
      if (!ok) return cx.fail(fl->line, fmt::format("kernel binary header: bad '{}': '{}'", key, fl->value));
      if (key[0] == 'C') kh.checkSum = uint32_t(v);
      else kh.shaderHashCode = v;
    }
    for (const Num& n : nums) {
      const Field* fl = findField(h, n.key, cx, dup);
      if (dup) return false;
      if (!fl) return cx.fail(headerLine, fmt::format("kernel binary header: missing '{}'", n.key));
      if (!parseU32(fl->value, *n.dst))
        return cx.fail(fl->line, fmt::format("kernel binary header: bad '{}': '{}'", n.key, fl->value));
    }
    out.kernel.header = kh;
  }
  return true;
}

}  // namespace

bool parseCos(std::string_view text, std::string_view file, CosFile& out, std::string& err) {
  CosFile tmp;
  if (!parseCosInto(text, file, tmp, err)) {
    out = CosFile{};
    return false;
  }
  out = std::move(tmp);
  return true;
}

namespace {

template <bool kProgram, class Out>
bool decodeList(std::span<const uint8_t> list, uint64_t base, Out& out, std::string& err) {
  size_t pos = 0;
  while (pos < list.size()) {
    uint64_t at = base + pos;
    if (list.size() - pos < 8) {
      err = fmt::format("byte {}: {} bytes left in the patch list, too few for a token header", at, list.size() - pos);
      return false;
    }
    RawToken t;
    t.id = rd32(list, pos);
    t.size = rd32(list, pos + 4);
    t.offset = at;
    t.name = std::string(tokenName(t.id));
    std::string label = t.name.empty() ? fmt::format("token {}", t.id) : t.name;
    if (t.size < 8) {
      err = fmt::format("byte {}: {} has size {}, less than its 8-byte header", at, label, t.size);
      return false;
    }
    if (t.size > list.size() - pos) {
      err = fmt::format("byte {}: {} of {} bytes runs past the end of the patch list ({} bytes left)", at, label,
                        t.size, list.size() - pos);
      return false;
    }
    unsigned need = minBytes(t.id);
    if (t.size < need) {
      err = fmt::format("byte {}: {} has size {}, less than the {} bytes of its fields", at, label, t.size, need);
      return false;
    }
    uint64_t total = t.size;
    Kind kd = kindOf(t.id);
    if (kProgram && (kd == Kind::ConstBuf || kd == Kind::GlobalBuf)) {
      // The inline data follows the token and is not counted in its size.
      uint32_t inl = rd32(list, pos + (kd == Kind::ConstBuf ? 12 : 16));
      total += inl;
      if (total > list.size() - pos) {
        err = fmt::format("byte {}: {} with {} bytes of inline data runs past the end of the patch list ({} bytes "
                          "left)", at, label, inl, list.size() - pos);
        return false;
      }
    }
    auto bytes = list.subspan(pos, size_t(total));
    t.bytes.assign(bytes.begin(), bytes.end());
    std::string msg;
    bool ok;
    if constexpr (kProgram) ok = typedProgram<false>(t, bytes, out, nullptr);
    else ok = typedKernel<false>(t, bytes.first(t.size), out, nullptr, msg);
    if (!ok) {
      err = fmt::format("byte {}: {}", at, msg);
      return false;
    }
    out.tokens.push_back(std::move(t));
    pos += size_t(total);
  }
  return true;
}

}  // namespace

bool decodeKernelPatchList(std::span<const uint8_t> list, uint64_t base, KernelPatchList& out, std::string& err) {
  return decodeList<false>(list, base, out, err);
}

bool decodeProgramPatchList(std::span<const uint8_t> list, uint64_t base, ProgramScope& out, std::string& err) {
  return decodeList<true>(list, base, out, err);
}

}  // namespace visakit::cl
