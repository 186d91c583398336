// The launch ABI of IGC's OpenCL kernels (launch.hpp). Token layouts:
// docs/spec-decisions.md P1-P12; how a launch uses them: K1-.
#include "cl/launch.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "visakit/visakit.hpp"

namespace visakit::cl {

// The hardware threads' payloads (spec-decisions K3-K6): r0 with the group
// ids (and the scratch slot), the local ids of the thread's lanes, the
// cross-thread data.
class ThreadPayloads final : public sim::PayloadSource {
 public:
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1};
  uint32_t threads = 1;  // per work-group
  unsigned simd = 8, grf = 32;
  uint32_t scratchPerThread = 0;  // MEDIA_VFE_STATE: bytes of scratch per hardware thread
  uint64_t privatePerThread = 0;  // K7: bytes of private memory per slot
  std::vector<uint8_t> crossThread;

  std::array<uint32_t, 3> groups() const override { return grid; }
  uint32_t threadsPerGroup() const override { return threads; }
  // THREAD_PAYLOAD (K4): the local-id channels present (X, then Y, then Z), and the one
  // unused GRF of per-thread data a kernel without them may have.
  unsigned idChannels = 3;
  bool unusedGrf = false;
  uint32_t localIdBlock() const { return (2 * simd + grf - 1) / grf * grf; }
  uint32_t perThreadBytes() const { return idChannels ? idChannels * localIdBlock() : unusedGrf ? grf : 0; }
  uint32_t crossThreadOffset() const { return grf + perThreadBytes(); }

  std::array<uint64_t, 3> localId(uint32_t thread, uint32_t lane) const {
    uint64_t wi = uint64_t{thread} * simd + lane;
    return {wi % local[0], wi / local[0] % local[1], wi / (local[0] * local[1])};
  }

  // K4's per-thread data of each thread of a group, the same in every group (prepareIds):
  // perThreadBytes() bytes per thread, and the lanes of work-items of the group.
  std::vector<uint8_t> idBlocks;
  std::vector<uint32_t> laneMasks;
  // The local ids X, Y, Z of each lane (uw), one block each (the channels present).
  void prepareIds() {
    const uint64_t items = local[0] * local[1] * local[2];
    const uint32_t per = perThreadBytes(), block = localIdBlock();
    idBlocks.assign(uint64_t{threads} * per, 0);
    laneMasks.assign(threads, 0);
    for (uint32_t thread = 0; thread < threads; ++thread) {
      uint8_t* ids = idBlocks.data() + uint64_t{thread} * per;
      for (uint32_t lane = 0; lane < simd; ++lane) {
        if (uint64_t{thread} * simd + lane >= items) break;
        laneMasks[thread] |= 1u << lane;
        const auto id = localId(thread, lane);
        for (unsigned d = 0; d < idChannels; ++d) {
          const uint16_t v = static_cast<uint16_t>(id[d]);
          std::memcpy(ids + d * block + 2 * lane, &v, 2);
        }
      }
    }
  }

  void threadStart(const std::array<uint32_t, 3>& group, uint32_t thread, uint32_t slot, std::vector<uint8_t>& grf,
                   uint32_t& dispatchMask) const override {
    auto put32 = [&](size_t at, uint32_t v) {
      if (at + 4 <= grf.size()) std::memcpy(grf.data() + at, &v, 4);
    };
    // K3: r0.1, r0.6, r0.7 = the work-group's ids; r0.5 = the thread's scratch offset;
    // r0.2 bits 0-7 = the thread's index in its group (Xe-HP and later hardware put
    // it there, and IGC's get_sub_group_id reads it on those platforms).
    put32(4, group[0]);
    put32(8, thread & 0xffu);
    put32(24, group[1]);
    put32(28, group[2]);
    put32(20, slot * scratchPerThread);
    // K4: the local ids of the thread's lanes of work-items (the first lanes; prepareIds), each
    // id whole where the payload reaches; the other lanes' bytes are not written.
    dispatchMask = thread < threads ? laneMasks[thread] : 0;
    const size_t idBytes = 2u * static_cast<unsigned>(std::popcount(dispatchMask));
    const uint32_t block = localIdBlock();
    for (unsigned d = 0; d < idChannels && idBytes; ++d) {
      const size_t at = this->grf + d * block;
      if (at < grf.size())
        std::memcpy(grf.data() + at, idBlocks.data() + uint64_t{thread} * perThreadBytes() + d * block,
                    std::min(idBytes, (grf.size() - at) & ~size_t{1}));
    }
    // K5: the cross-thread data after them.
    const size_t c = crossThreadOffset();
    if (c < grf.size() && !crossThread.empty())
      std::memcpy(grf.data() + c, crossThread.data(), std::min(crossThread.size(), grf.size() - c));
  }

  // K7: %sr0 names the hardware thread: slot s in the bits IGC's private-memory
  // code keeps and packs back into s: 0-2, 4-5 and 7-13, or 8-14 on Xe-HPC.
  // %hw_id (which Gen9 and Gen12LP kernels use instead) is s itself.
  static constexpr uint32_t kMaxSlots = 4096;  // 12 bits
  bool xeHpcSr0 = false;
  uint32_t encodeSlot(uint32_t s) const {
    return (s & 7) | ((s >> 3) & 3) << 4 | (s >> 5) << (xeHpcSr0 ? 8 : 7);
  }
  std::optional<std::array<uint32_t, 4>> stateRegister(uint32_t slot) const override {
    return std::array<uint32_t, 4>{encodeSlot(slot), 0, 0, 0};
  }
  std::optional<uint32_t> hardwareThreadId(uint32_t slot) const override { return slot; }

  // K6, K7: what the thread of a slot owns: its S bytes of %scratch (from
  // slot x S, as r0.5 says), its P bytes of private memory (from slot x P).
  std::vector<SlotMemory> slotMemory(uint32_t slot) const override {
    std::vector<SlotMemory> m;
    if (scratchPerThread) m.push_back({"%scratch", uint64_t{slot} * scratchPerThread, scratchPerThread});
    if (privatePerThread) m.push_back({"private memory", uint64_t{slot} * privatePerThread, privatePerThread});
    return m;
  }
};

std::array<uint64_t, 3> PreparedLaunch::localId(uint32_t thread, uint32_t lane) const {
  return payload->localId(thread, lane);
}

namespace {

constexpr uint64_t kFirstAddress = 0x100000;  // K8: no buffer at 0 (a null pointer is out of bounds)
constexpr uint64_t kAddressAlign = 0x10000;
constexpr uint64_t kPrintfBufferBytes = 4u << 20;  // K12

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void putLE(std::vector<uint8_t>& b, uint64_t at, unsigned bytes, uint64_t v) {
  if (at + bytes > b.size()) b.resize(at + bytes, 0);
  for (unsigned i = 0; i < bytes; ++i) b[at + i] = i < 8 ? static_cast<uint8_t>(v >> (8 * i)) : 0;
}

// K2: without --local, the work-group is the largest divisor of global[0] up
// to 256 (and 1 in the other dimensions), or the kernel's required size.
std::array<uint64_t, 3> chooseLocal(const LaunchShape& s) {
  std::array<uint64_t, 3> l{1, 1, 1};
  for (uint64_t d = std::min<uint64_t>(256, s.global[0]); d >= 1; --d)
    if (s.global[0] % d == 0) {
      l[0] = d;
      break;
    }
  return l;
}

}  // namespace

bool prepareKernelLaunch(const KernelLaunchInput& in, PreparedLaunch& out, std::string& err) {
  const KernelPatchList& pl = *in.patches;
  out = PreparedLaunch{};
  out.shape = in.shape;
  out.simd = in.simd;
  if (in.simd != 8 && in.simd != 16 && in.simd != 32) {
    err = fmt::format("the kernel's SIMD width {} is not 8, 16 or 32", in.simd);
    return false;
  }
  // ---- the NDRange ----
  std::array<uint64_t, 3> req{0, 0, 0};
  if (pl.executionEnvironment)
    req = {pl.executionEnvironment->requiredWorkGroupSizeX, pl.executionEnvironment->requiredWorkGroupSizeY,
           pl.executionEnvironment->requiredWorkGroupSizeZ};
  if (!out.shape.local) {
    if (req[0]) out.shape.local = std::array<uint64_t, 3>{req[0], std::max<uint64_t>(1, req[1]), std::max<uint64_t>(1, req[2])};
    else out.shape.local = chooseLocal(out.shape);
  }
  const std::array<uint64_t, 3> local = *out.shape.local;
  for (unsigned d = 0; d < 3; ++d) {
    if (req[0] && local[d] != std::max<uint64_t>(1, req[d])) {
      err = fmt::format("the kernel requires work-groups of {}x{}x{} (reqd_work_group_size); --local gives {}x{}x{}",
                        req[0], std::max<uint64_t>(1, req[1]), std::max<uint64_t>(1, req[2]), local[0], local[1], local[2]);
      return false;
    }
    if (out.shape.global[d] % local[d]) {
      err = fmt::format("global size {} of dimension {} is not a multiple of the local size {}", out.shape.global[d], d,
                        local[d]);
      return false;
    }
  }
  const uint64_t items = local[0] * local[1] * local[2];
  if (items > 1024) {
    err = fmt::format("a work-group of {} work-items is over the limit of 1024", items);
    return false;
  }
  auto payload = std::make_shared<ThreadPayloads>();
  payload->xeHpcSr0 = grfSizeOfPlatform(in.platform) == 64u;  // (Xe-HPC: the 64-byte GRF platforms, K11)
  payload->simd = in.simd;
  payload->grf = in.grfSize;
  payload->local = local;
  payload->threads = static_cast<uint32_t>((items + in.simd - 1) / in.simd);
  if (const auto& tp = pl.threadPayload) {
    if (tp->localIdFlattenedPresent || (tp->localIdYPresent && !tp->localIdXPresent) ||
        (tp->localIdZPresent && !tp->localIdYPresent)) {
      err = "the kernel's THREAD_PAYLOAD asks for local ids visakit cl does not lay out (flattened, or Y or Z without "
            "the ones before)";
      return false;
    }
    payload->idChannels = unsigned{tp->localIdXPresent} + tp->localIdYPresent + tp->localIdZPresent;
    payload->unusedGrf = tp->unusedPerThreadConstantPresent;
  }
  for (unsigned d = 0; d < 3; ++d) {
    uint64_t g = out.shape.global[d] / local[d];
    if (g > 0xffffffffu) {
      err = fmt::format("{} work-groups in dimension {} do not fit in 32 bits", g, d);
      return false;
    }
    payload->grid[d] = static_cast<uint32_t>(g);
  }

  // ---- memory: buffers at addresses of their own, the binding table ----
  uint64_t next = kFirstAddress;
  auto place = [&](std::string name, std::vector<uint8_t> bytes) {
    sim::SurfaceBinding b;
    b.name = std::move(name);
    b.allocation = true;
    uint64_t size = bytes.size();
    b.bytes = std::move(bytes);
    uint64_t addr = next;
    next = alignUp(next + std::max<uint64_t>(size, 1), kAddressAlign) + kAddressAlign;  // a gap after each
    out.cfg.addresses.emplace_back(b.name, addr);
    out.bindings.push_back(std::move(b));
    return std::pair<int, uint64_t>(static_cast<int>(out.bindings.size() - 1), addr);
  };
  auto bind = [&](uint32_t ssOffset, const std::string& name) {
    if (auto bti = bindingTableIndex(pl, ssOffset, in.surfaceStateHeap)) out.cfg.bindingTable.emplace_back(*bti, name);
  };
  std::vector<uint8_t>& ctd = payload->crossThread;
  // The cross-thread data is in the thread's registers: at most 256 GRFs of 64 bytes, whatever
  // a (corrupt) patch list says.
  constexpr uint64_t kMaxCrossThread = 256 * 64;
  if (pl.dataParameterStreamSize && *pl.dataParameterStreamSize > kMaxCrossThread) {
    err = fmt::format("the patch list's DATA_PARAMETER_STREAM is {} bytes, more than a thread's registers hold ({})",
                      *pl.dataParameterStreamSize, kMaxCrossThread);
    return false;
  }
  if (pl.dataParameterStreamSize) ctd.assign(*pl.dataParameterStreamSize, 0);
  std::string ctdError;
  auto put = [&](uint64_t at, uint64_t bytes, uint64_t v) {
    if (at > kMaxCrossThread || bytes > kMaxCrossThread - at) {
      if (ctdError.empty())
        ctdError = fmt::format("the patch list puts a value at bytes {}..{} of the cross-thread data, past the {} bytes a "
                               "thread's registers hold",
                               at, at + bytes, kMaxCrossThread);
      return;
    }
    putLE(ctd, at, static_cast<unsigned>(bytes), v);
  };
  out.argMemory.assign(std::max<size_t>(in.args.size(), pl.argInfo.size()), {});
  auto argName = [&](uint32_t a) {
    for (const KernelArgInfo& i : pl.argInfo)
      if (i.argumentNumber == a && !i.name.empty()) return fmt::format("argument {} '{}'", a, i.name);
    return fmt::format("argument {}", a);
  };
  auto argValue = [&](uint32_t a) -> const KernelArgValue* {
    return a < in.args.size() && in.args[a] ? &*in.args[a] : nullptr;
  };
  // Buffer arguments: an allocation each (K1), its address to the cross-thread data.
  for (const PointerArg& p : pl.pointerArgs) {
    const KernelArgValue* v = argValue(p.argumentNumber);
    const BufferArg* buf = v ? std::get_if<BufferArg>(v) : nullptr;
    if (!buf) {
      err = fmt::format("{} is a buffer: give it with --arg {}=@FILE or zero:N", argName(p.argumentNumber), p.argumentNumber);
      return false;
    }
    if (out.argMemory[p.argumentNumber].binding < 0) {
      auto [idx, addr] = place(argName(p.argumentNumber), buf->bytes);
      out.argMemory[p.argumentNumber].binding = idx;
      out.argMemory[p.argumentNumber].address = addr;
    }
    const ArgMemory& m = out.argMemory[p.argumentNumber];
    put(p.dataParamOffset, p.dataParamSize ? p.dataParamSize : 8, m.address);
    bind(p.surfaceStateHeapOffset, out.bindings[static_cast<size_t>(m.binding)].name);
  }
  // Program-scope buffers (K9): their bytes from the program binary, pointers inside patched.
  if (in.program) {
    std::vector<uint64_t> constAddr, globalAddr;
    std::vector<int> constIdx, globalIdx;
    for (const ProgramBuffer& b : in.program->constantBuffers) {
      std::vector<uint8_t> bytes = b.data;
      bytes.resize(std::max<size_t>(bytes.size(), b.initializationDataSize), 0);
      auto [i, a] = place(fmt::format("program constant buffer {}", b.bufferIndex), std::move(bytes));
      constIdx.push_back(i);
      constAddr.push_back(a);
    }
    for (const ProgramBuffer& b : in.program->globalBuffers) {
      std::vector<uint8_t> bytes = b.data;
      bytes.resize(std::max<size_t>(bytes.size(), b.initializationDataSize), 0);
      auto [i, a] = place(fmt::format("program global buffer {}", b.bufferIndex), std::move(bytes));
      globalIdx.push_back(i);
      globalAddr.push_back(a);
    }
    auto patch = [&](const std::vector<PointerPatch>& ps, const std::vector<int>& idx) {
      for (const PointerPatch& p : ps) {
        if (p.bufferIndex >= idx.size()) continue;
        const std::vector<uint64_t>& target = p.targetType == 1 ? constAddr : globalAddr;
        if (p.targetIndex >= target.size()) continue;
        std::vector<uint8_t>& bytes = out.bindings[static_cast<size_t>(idx[p.bufferIndex])].bytes;
        if (p.pointerOffset + 8 > bytes.size()) continue;
        uint64_t v;
        std::memcpy(&v, bytes.data() + p.pointerOffset, 8);
        v += target[p.targetIndex];
        std::memcpy(bytes.data() + p.pointerOffset, &v, 8);
      }
    };
    patch(in.program->constantPointers, constIdx);
    patch(in.program->globalPointers, globalIdx);
    // The program's variables by name, for a FADDR of one (P13, C21): IGC's symbol offsets are
    // in buffer 0 of their kind, the one buffer of each kind a program has.
    for (const ProgramSymbol& s : in.symbols) {
      const bool isConst = s.type == ProgramSymbol::kConstantVariable;
      if (!isConst && s.type != ProgramSymbol::kGlobalVariable) continue;
      const std::vector<int>& idx = isConst ? constIdx : globalIdx;
      const uint64_t bytes = idx.empty() ? 0 : out.bindings[static_cast<size_t>(idx[0])].bytes.size();
      if (idx.empty() || uint64_t{s.offset} + s.size > bytes) {
        err = fmt::format("the program's symbol table puts '{}' at bytes {}..{} of its {} buffer, which {}", s.name, s.offset,
                          uint64_t{s.offset} + s.size, isConst ? "constant" : "global",
                          idx.empty() ? "the program binary does not hold" : fmt::format("has {} bytes", bytes));
        return false;
      }
      out.cfg.symbols.emplace_back(s.name, (isConst ? constAddr : globalAddr)[0] + s.offset);
    }
    for (const StatelessSurface& s : pl.statelessSurfaces) {
      const bool isConst = s.token == static_cast<uint32_t>(Token::AllocateStatelessConstantMemorySurfaceWithInitialization);
      const bool isGlobal = s.token == static_cast<uint32_t>(Token::AllocateStatelessGlobalMemorySurfaceWithInitialization);
      if (!isConst && !isGlobal) continue;
      const std::vector<int>& idx = isConst ? constIdx : globalIdx;
      const std::vector<uint64_t>& addr = isConst ? constAddr : globalAddr;
      if (s.index >= idx.size()) {
        err = fmt::format("the kernel uses program-scope {} buffer {}, which the program binary does not hold",
                          isConst ? "constant" : "global", s.index);
        return false;
      }
      put(s.dataParamOffset, s.dataParamSize ? s.dataParamSize : 8, addr[s.index]);
      bind(s.surfaceStateHeapOffset, out.bindings[static_cast<size_t>(idx[s.index])].name);
    }
  }
  // SLM (K10): the kernel's own __local arrays, then each __local argument at its alignment;
  // an argument's offset in the cross-thread data counts from the end of the kernel's own
  // arrays (IGC's code adds their size).
  const uint64_t inlineSlm = pl.localSurface ? pl.localSurface->totalInlineLocalMemorySize : 0;
  uint64_t slm = 0;
  for (const DataParameter& d : pl.dataParameters) {
    if (d.type != DataParamType::SumOfLocalMemoryObjectArgumentSizes) continue;
    const KernelArgValue* v = argValue(d.argumentNumber);
    const LocalArg* la = v ? std::get_if<LocalArg>(v) : nullptr;
    if (!la) {
      err = fmt::format("{} is __local: give it with --arg {}=local:N", argName(d.argumentNumber), d.argumentNumber);
      return false;
    }
    slm = alignUp(slm, std::max<uint32_t>(1, d.sourceOffset));
    out.argMemory[d.argumentNumber].slmOffset = inlineSlm + slm;
    out.argMemory[d.argumentNumber].slmBytes = la->bytes;
    out.argMemory[d.argumentNumber].name = argName(d.argumentNumber);
    put(d.offset, d.dataSize ? d.dataSize : 4, slm);
    slm += la->bytes;
  }
  if (inlineSlm + slm) out.cfg.slmBytes = inlineSlm + slm;
  // Scratch (K6) and private memory (K7): a slot per hardware thread in flight.
  const uint64_t slots = uint64_t{std::max(1u, in.jobs)} * payload->threads;
  if (pl.mediaVfeState && pl.mediaVfeState->perThreadScratchSpace) {
    payload->scratchPerThread = pl.mediaVfeState->perThreadScratchSpace;
    sim::SurfaceBinding b;
    b.name = "%scratch";
    b.bytes.assign(uint64_t{payload->scratchPerThread} * slots, 0);
    out.bindings.push_back(std::move(b));
  }
  if (pl.privateMemory && pl.privateMemory->perThreadPrivateMemorySize) {
    const uint64_t per = uint64_t{pl.privateMemory->perThreadPrivateMemorySize} *
                         (pl.privateMemory->isSimtThread ? in.simd : 1);
    if (slots > ThreadPayloads::kMaxSlots) {
      err = fmt::format("{} host threads x {} hardware threads a work-group need {} private-memory slots; %sr0 names at "
                        "most {} (use fewer --jobs)",
                        std::max(1u, in.jobs), payload->threads, slots, ThreadPayloads::kMaxSlots);
      return false;
    }
    payload->privatePerThread = per;
    auto [i, a] = place("private memory", std::vector<uint8_t>(per * slots, 0));
    (void)i;
    put(pl.privateMemory->dataParamOffset, pl.privateMemory->dataParamSize ? pl.privateMemory->dataParamSize : 8, a);
    bind(pl.privateMemory->surfaceStateHeapOffset, out.bindings.back().name);
  }
  // K12: printf's buffer (ALLOCATE_STATELESS_PRINTF_SURFACE), 4 MiB whose first dword, where the
  // kernel's atomic add finds the next free byte, starts at 4, as Intel's runtime makes it.
  for (const StatelessSurface& s : pl.statelessSurfaces) {
    if (s.token != static_cast<uint32_t>(Token::AllocateStatelessPrintfSurface)) continue;
    std::vector<uint8_t> bytes(kPrintfBufferBytes, 0);
    putLE(bytes, 0, 4, 4);
    auto [i, a] = place("printf buffer", std::move(bytes));
    (void)i;
    put(s.dataParamOffset, s.dataParamSize ? s.dataParamSize : 8, a);
    bind(s.surfaceStateHeapOffset, out.bindings.back().name);
  }
  // ---- the rest of the cross-thread data (K5) ----
  for (const DataParameter& d : pl.dataParameters) {
    const unsigned dim = d.sourceOffset / 4;
    const unsigned bytes = d.dataSize ? d.dataSize : 4;
    auto perDim = [&](const std::array<uint64_t, 3>& v) { put(d.offset, bytes, dim < 3 ? v[dim] : 0); };
    switch (d.type) {
      case DataParamType::GlobalWorkOffset: perDim(out.shape.offset); break;
      case DataParamType::LocalWorkSize:
      case DataParamType::EnqueuedLocalWorkSize: perDim(local); break;
      case DataParamType::GlobalWorkSize: perDim(out.shape.global); break;
      case DataParamType::NumWorkGroups:
        perDim({out.shape.global[0] / local[0], out.shape.global[1] / local[1], out.shape.global[2] / local[2]});
        break;
      case DataParamType::WorkDimensions: put(d.offset, bytes, out.shape.dims); break;
      case DataParamType::BufferOffset:
      case DataParamType::BufferStateful:
      case DataParamType::SumOfLocalMemoryObjectArgumentSizes: break;  // (a marker; above)
      case DataParamType::SimdSize: put(d.offset, bytes, in.simd); break;
      case DataParamType::PrintfSurfaceSize: put(d.offset, bytes, kPrintfBufferBytes); break;  // K12
      case DataParamType::PrivateMemoryStatelessSize:
        put(d.offset, bytes, pl.privateMemory ? pl.privateMemory->perThreadPrivateMemorySize : 0);
        break;
      case DataParamType::KernelArgument: {
        const KernelArgValue* v = argValue(d.argumentNumber);
        const ScalarArg* sa = v ? std::get_if<ScalarArg>(v) : nullptr;
        if (!sa) {
          err = fmt::format("{} is a scalar: give it with --arg {}=TYPE:VALUE", argName(d.argumentNumber), d.argumentNumber);
          return false;
        }
        // K5: the argument's bytes from SourceOffset, at most DataSize of them (a char
        // takes a 4-byte slot: its one byte, then zeros).
        std::vector<uint8_t> b = scalarBytes(*sa);
        if (d.sourceOffset >= b.size()) {
          err = fmt::format("{} is read from byte {}; {} gives {} bytes", argName(d.argumentNumber), d.sourceOffset,
                            argSpecText(*v), b.size());
          return false;
        }
        for (unsigned i = 0; i < bytes && d.sourceOffset + i < b.size(); ++i) put(d.offset + i, 1, b[d.sourceOffset + i]);
        break;
      }
      default:
        err = fmt::format("the kernel needs data parameter {} ({}), which visakit cl does not provide",
                          d.typeName.empty() ? std::string(dataParamName(static_cast<uint32_t>(d.type))) : d.typeName,
                          static_cast<uint32_t>(d.type));
        return false;
    }
  }
  if (!ctdError.empty()) {
    err = ctdError;
    return false;
  }
  out.crossThread = ctd;
  out.threadsPerGroup = payload->threads;
  out.grid = payload->grid;
  out.cfg.grfSize = in.grfSize;
  payload->prepareIds();
  out.cfg.payload = payload.get();
  out.payload = std::move(payload);
  return true;
}

}  // namespace visakit::cl
