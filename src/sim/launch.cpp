// Launch preparation and results, the same for both tiers (launch.hpp).
#include "sim/launch.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "isa/lsc.hpp"
#include "sim/convert.hpp"
#include "sim/sem/sem.hpp"

namespace visakit::sim {

std::optional<uint32_t> surfaceByBindingName(const Kernel& k, std::string_view name) {
  for (uint32_t i = 0; i < k.surfaces.size(); ++i)
    if (k.surfaces[i].name == name || k.surfaces[i].declName == name) return kNumPredefSurfaces + i;
  if (auto p = predefSurfaceByName(name)) return *p;
  if (name.size() > 1 && name[0] == 'T') {
    uint32_t id = 0;
    auto [ptr, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), id);
    if (ec == std::errc() && ptr == name.data() + name.size() && id < kNumPredefSurfaces + k.surfaces.size())
      return id;
  }
  return std::nullopt;
}

Dims dimsOf(const LaunchConfig& cfg) {
  Dims d;
  if (cfg.groupThreads && cfg.threads[0] * uint64_t{cfg.threads[1]} == 1) {
    d.tx = cfg.groupThreads;
    d.ty = 1;
  } else {
    d.tx = cfg.threads[0];
    d.ty = cfg.threads[1];
  }
  // Counted in 64 bits (at most 2^32 x 2^32 per group, 2^96 in all): a count
  // that does not fit is reported as such, never wrapped.
  d.perGroup = uint64_t{d.tx} * d.ty;
  u128 total = u128{cfg.groups[0]} * cfg.groups[1] * cfg.groups[2] * d.perGroup;
  d.groups = uint64_t{cfg.groups[0]} * cfg.groups[1] * cfg.groups[2];
  d.total = total > ~uint64_t{0} ? ~uint64_t{0} : static_cast<uint64_t>(total);
  return d;
}

std::string surfaceDisplayName(const Kernel& k, uint32_t id) {
  if (id < kNumPredefSurfaces) return std::string(predefSurfaceName(id));
  const SimpleVar* s = k.surface(id);
  return s && !s->name.empty() ? s->name : k.surfaceName(id);
}

namespace {

// ---- --arg VALUE parsing (per the variable's type) ----
bool parseIntText(std::string_view s, Type t, uint64_t& out) {
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return false;
  unsigned n = intBits(t);
  if (neg) {
    if (n < 64 ? v > (uint64_t{1} << (n - 1)) : v > (uint64_t{1} << 63)) return false;
    out = lowBits(-static_cast<i128>(v), n);
  } else {
    if (n < 64 && v > ((uint64_t{1} << n) - 1)) return false;
    out = v;
  }
  return true;
}

bool parseFloatText(std::string_view s, Type t, uint64_t& out) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
    if (ec != std::errc() || p != s.data() + s.size() || (typeSize(t) < 8 && v >> (8 * typeSize(t)))) return false;
    out = v;
    return true;
  }
  std::string str(s);
  char* end = nullptr;
  double d = std::strtod(str.c_str(), &end);
  if (str.empty() || end != str.c_str() + str.size()) return false;
  out = doubleToFloatBits(d, t, Type::DF);
  if (t == Type::F) out = std::bit_cast<uint32_t>(static_cast<float>(d));  // no denormal flush for an input
  return true;
}

bool buildArgs(const Kernel& k, const Layout& p, const LaunchConfig& cfg, std::vector<InputImage>& out, std::string& err) {
  for (const auto& [name, value] : cfg.args) {
    const GenVar* var = nullptr;
    uint32_t id = 0;
    for (uint32_t i = 0; i < k.vars.size(); ++i)
      if (k.vars[i].name == name) {
        var = &k.vars[i];
        id = kNumPredefVars + i;
      }
    if (!var) {
      err = fmt::format("--arg {}: the kernel has no general variable '{}'", name, name);
      return false;
    }
    bool isInput = false;
    for (const Input& in : k.inputs) isInput |= in.cls == Input::Class::General && in.id == id;
    if (!isInput) {
      err = fmt::format("--arg {}: '{}' is not a kernel input (no .input directive)", name, name);
      return false;
    }
    InputImage img;
    img.offset = p.vars[id].offset;
    unsigned ts = typeSize(var->type);
    std::string_view rest = value;
    unsigned n = 0;
    while (true) {
      size_t comma = rest.find(',');
      std::string_view tok = rest.substr(0, comma);
      uint64_t bits = 0;
      bool ok = isFloatType(var->type) ? parseFloatText(tok, var->type, bits) : parseIntText(tok, var->type, bits);
      if (!ok) {
        err = fmt::format("--arg {}={}: '{}' is not a valid {} value", name, value, tok, typeName(var->type));
        return false;
      }
      if (++n > var->numElts) {
        err = fmt::format("--arg {}={}: '{}' has only {} element{}", name, value, name, var->numElts, var->numElts == 1 ? "" : "s");
        return false;
      }
      for (unsigned b = 0; b < ts; ++b) img.bytes.push_back(static_cast<uint8_t>(bits >> (8 * b)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    out.push_back(std::move(img));
  }
  return true;
}

}  // namespace

ThreadCoord threadCoord(const LaunchConfig& cfg, uint32_t t) {
  Dims d = dimsOf(cfg);
  ThreadCoord c;
  uint32_t g = static_cast<uint32_t>(t / d.perGroup), l = static_cast<uint32_t>(t % d.perGroup);
  c.x = l % d.tx;
  c.y = l / d.tx;
  c.gx = g % cfg.groups[0];
  c.gy = (g / cfg.groups[0]) % cfg.groups[1];
  c.gz = g / (cfg.groups[0] * cfg.groups[1]);
  return c;
}

ThreadCoord coordOf(const Launch& l, uint64_t t) {
  ThreadCoord c;
  uint64_t g = t / l.dims.perGroup, i = t % l.dims.perGroup;
  c.x = static_cast<uint32_t>(i % l.dims.tx);
  c.y = static_cast<uint32_t>(i / l.dims.tx);
  c.gx = static_cast<uint32_t>(g % l.groupGrid[0]);
  c.gy = static_cast<uint32_t>((g / l.groupGrid[0]) % l.groupGrid[1]);
  c.gz = static_cast<uint32_t>(g / (uint64_t{l.groupGrid[0]} * l.groupGrid[1]));
  return c;
}

std::vector<ByteRange> PayloadLayout::written() const {
  std::vector<ByteRange> r;
  for (const PayloadCopy& c : copies) r.push_back({c.to, c.to + c.bytes});
  if (sr0.bytes) r.push_back({sr0.to, sr0.to + sr0.bytes});
  if (hwId.bytes) r.push_back({hwId.to, hwId.to + hwId.bytes});
  return r;
}

PayloadLayout payloadLayout(const Kernel& k, const Layout& p, unsigned grfSize) {
  PayloadLayout pl;
  pl.grfBytes = grfSize;
  for (const Input& in : k.inputs) pl.grfBytes = std::max<size_t>(pl.grfBytes, size_t(std::max<int>(0, in.offset)) + in.size);
  auto add = [&](uint32_t var, uint32_t from, size_t n) {
    if (var >= p.vars.size()) return;
    const VarSlot& s = p.vars[var];
    if (s.present && n) pl.copies.push_back({from, s.offset, static_cast<uint32_t>(std::min<size_t>(n, s.bytes))});
  };
  add(kVarR0, 0, grfSize);
  for (const Input& in : k.inputs)
    if (in.cls == Input::Class::General && in.offset >= 0) add(in.id, static_cast<uint32_t>(in.offset), in.size);
  if (kVarSr0 < p.vars.size() && p.vars[kVarSr0].present)
    pl.sr0 = {0, p.vars[kVarSr0].offset, std::min<uint32_t>(16, p.vars[kVarSr0].bytes)};
  if (kVarHwId < p.vars.size() && p.vars[kVarHwId].present)
    pl.hwId = {0, p.vars[kVarHwId].offset, std::min<uint32_t>(4, p.vars[kVarHwId].bytes)};
  return pl;
}

// 4_visa_header.md %sr0: "DMask (sr0.2): the 32-bit mask specifying which channels are active
// at dispatch time" (IGC's sub_group_ballot and sub_group_elect read it; spec-decisions E29).
static void putDispatchMask(uint8_t* sr0, uint32_t mask) { std::memcpy(sr0 + 8, &mask, 4); }

uint32_t loadPayload(const PayloadSource& ps, const PayloadLayout& pl, const ThreadCoord& tc, uint32_t slot,
                     std::vector<uint8_t>& grf, uint8_t* regs) {
  grf.assign(pl.grfBytes, 0);
  uint32_t mask = 0;
  ps.threadStart({tc.gx, tc.gy, tc.gz}, tc.x, slot, grf, mask);
  for (const PayloadCopy& c : pl.copies) std::memcpy(regs + c.to, grf.data() + c.from, c.bytes);
  if (pl.sr0.bytes)
    if (auto sr0 = ps.stateRegister(slot)) std::memcpy(regs + pl.sr0.to, sr0->data(), pl.sr0.bytes);
  if (pl.sr0.bytes >= 12) putDispatchMask(regs + pl.sr0.to, mask);
  if (pl.hwId.bytes)
    if (auto id = ps.hardwareThreadId(slot)) std::memcpy(regs + pl.hwId.to, &*id, pl.hwId.bytes);
  return mask;
}

bool Launch::writes(uint32_t id) const {
  // An allocation may be written by any store (through the binding table or an address).
  return id >= numSurf || (id < use.writesSurface.size() && use.writesSurface[id]);
}

std::optional<uint32_t> Launch::spaceByName(std::string_view name) const {
  for (uint32_t id = numSurf; id < spaceNames.size(); ++id)
    if (spaceNames[id] == name) return id;
  if (auto id = surfaceByBindingName(*k, name); id && *id < bindingOf.size() && bindingOf[*id] >= 0) return id;
  return std::nullopt;
}

KernelUse kernelUse(const Kernel& k) {
  KernelUse u;
  u.usesSurface.assign(kNumPredefSurfaces + k.surfaces.size(), 0);
  u.writesSurface.assign(u.usesSurface.size(), 0);
  u.stateSet.assign(u.usesSurface.size(), 0);
  for (const Instruction& inst : k.code) {
    const InstrDesc* d = rowOf(inst);
    if (!d) continue;
    if (d->has(kUrb)) u.usesUrb = true;
    if (d->has(kBarrier)) u.usesBarrier = true;
    if (lsc::Reach r; lsc::reach(*d, inst, r)) {  // LSC names SLM and surfaces by its fields' values
      u.usesSlm |= r.slm;
      if (r.surface >= 0) {
        u.usesSurface[r.surface] = 1;
        if (r.store) u.writesSurface[r.surface] = 1;
      }
      if (r.bti >= 0) u.btis.push_back(static_cast<uint32_t>(r.bti));
      u.storesViaTable |= r.viaTable && r.store;
      u.storesFlat |= r.flat && r.store;
    }
    for (int i = 0; i < d->numFields; ++i) {
      const Operand& o = inst.f[i];
      if (d->fields[i].kind == FieldKind::Vec && d->fields[i].access == Access::Write && o.kind == Operand::Kind::State &&
          o.row == 0 && o.id < u.stateSet.size())
        u.stateSet[o.id] = 1;
      if (d->fields[i].kind != FieldKind::Surface) continue;
      uint32_t id = inst.f[i].id;
      if (id >= u.usesSurface.size()) continue;
      u.usesSurface[id] = 1;
      if (d->has(kMayStore)) u.writesSurface[id] = 1;
      if (id == kSurfSlm) u.usesSlm = true;
    }
  }
  return u;
}

std::optional<RunResult> prepareLaunch(Launch& l, const Kernel& k, std::vector<SurfaceBinding>& surfaces,
                                       const LaunchConfig& cfg) {
  auto launchError = [&](std::string msg) {
    RunResult res;
    res.status = RunResult::Status::LaunchError;
    res.error = std::move(msg);
    return res;
  };
  l.k = &k;
  l.cfg = &cfg;
  if (const PayloadSource* ps = cfg.payload) {
    // An explicit launch: its groups and threads.
    l.groupGrid = ps->groups();
    for (uint32_t v : l.groupGrid)
      if (v == 0) return launchError("the launch has an empty work-group grid");
    LaunchConfig shape;
    shape.groups = l.groupGrid;
    shape.groupThreads = ps->threadsPerGroup();
    if (shape.groupThreads == 0) return launchError("a work-group has no hardware thread");
    l.dims = dimsOf(shape);
  }
  if (cfg.grfSize != 32 && cfg.grfSize != 64) return launchError(fmt::format("GRF size must be 32 or 64, not {}", cfg.grfSize));
  for (uint32_t v : cfg.threads)
    if (v == 0) return launchError("--threads: every dimension must be at least 1");
  for (uint32_t v : cfg.groups)
    if (v == 0) return launchError("--groups: every dimension must be at least 1");
  if (!cfg.payload) {
    l.dims = dimsOf(cfg);
    l.groupGrid = cfg.groups;
  }
  const Dims dims = l.dims;
  if (!cfg.payload && cfg.groupThreads && cfg.threads[0] * uint64_t{cfg.threads[1]} != 1 && cfg.groupThreads != dims.perGroup)
    return launchError(fmt::format("--group-threads {} does not match --threads {},{} ({} threads per group)", cfg.groupThreads,
                                   cfg.threads[0], cfg.threads[1], dims.perGroup));
  if (dims.perGroup > 0xffff)
    return launchError(fmt::format("a thread group has {} threads; at most 65535", dims.perGroup));
  if (dims.total == ~uint64_t{0} || dims.total > 0xffffffffull)
    return launchError(fmt::format("the launch has {} threads; at most 2^32",
                                   dims.total == ~uint64_t{0} ? std::string("more than 2^64") : std::to_string(dims.total)));
  if (dims.total > cfg.maxThreads)
    return launchError(fmt::format("the launch has {} threads, over the limit of {} (--max-threads)", dims.total, cfg.maxThreads));
  unsigned simd = cfg.simd;
  if (simd == 0) {
    simd = 32;
    if (const Attribute* a = k.attr("SimdSize"); a && a->kind == Attribute::Kind::Int) simd = static_cast<unsigned>(a->intVal);
  }
  if (simd < 1 || simd > 32) return launchError(fmt::format("dispatch SIMD size {} is not in 1..32", simd));
  l.simd = simd;
  l.dispatchMask = simd >= 32 ? 0xffffffffu : (1u << simd) - 1;
  {
    const std::shared_ptr<const KernelFacts> facts = kernelFacts(k, cfg.grfSize, cfg.prepared);
    l.layout = facts->layout;
    l.use = facts->use;
  }
  if (cfg.payload) l.payload = payloadLayout(k, l.layout, cfg.grfSize);
  for (const Kernel* f : reachableFunctions(k, cfg.functions)) {  // a callee's memory is the kernel's (C2)
    KernelUse fu = kernelUse(*f);
    l.use.usesSlm |= fu.usesSlm;
    l.use.usesUrb |= fu.usesUrb;
    l.use.usesBarrier |= fu.usesBarrier;
    l.use.storesViaTable |= fu.storesViaTable;
    l.use.storesFlat |= fu.storesFlat;
    l.use.btis.insert(l.use.btis.end(), fu.btis.begin(), fu.btis.end());
    for (uint32_t id = 0; id < kNumPredefSurfaces; ++id) {
      l.use.usesSurface[id] |= fu.usesSurface[id];
      l.use.writesSurface[id] |= fu.writesSurface[id];
    }
  }
  for (const auto& [bti, name] : cfg.bindingTable)
    if (auto id = surfaceByBindingName(k, name); id && l.use.storesViaTable) l.use.writesSurface[*id] = 1;
  for (const auto& [name, base] : cfg.addresses)
    if (auto id = surfaceByBindingName(k, name); id && l.use.storesFlat) l.use.writesSurface[*id] = 1;
  const KernelUse& use = l.use;

  // ---- bind surfaces ----
  const uint32_t numSurf = l.numSurf = static_cast<uint32_t>(kNumPredefSurfaces + k.surfaces.size());
  uint32_t numSpaces = numSurf;
  for (const SurfaceBinding& b : surfaces) numSpaces += b.allocation;
  std::vector<int>& bindingOf = l.bindingOf;
  bindingOf.assign(numSpaces, -1);
  l.spaceNames.resize(numSpaces);
  for (uint32_t id = 0; id < numSurf; ++id) l.spaceNames[id] = surfaceDisplayName(k, id);
  uint32_t nextAlloc = numSurf;
  for (size_t i = 0; i < surfaces.size(); ++i) {
    if (surfaces[i].allocation) {
      l.spaceNames[nextAlloc] = surfaces[i].name;
      bindingOf[nextAlloc++] = static_cast<int>(i);
      continue;
    }
    auto id = surfaceByBindingName(k, surfaces[i].name);
    if (!id) {
      std::string names;
      for (uint32_t s = kNumPredefSurfaces; s < numSurf; ++s) names += (names.empty() ? "" : ", ") + surfaceDisplayName(k, s);
      return launchError(fmt::format("unknown surface '{}' (the kernel declares: {})", surfaces[i].name,
                                     names.empty() ? "no surfaces" : names));
    }
    if (*id == kSurfSlm) return launchError("%slm is not bound to a file; its size is set with --slm");
    if (bindingOf[*id] >= 0)
      return launchError(fmt::format("surface '{}' is bound twice", surfaceDisplayName(k, *id)));
    bindingOf[*id] = static_cast<int>(i);
  }
  for (uint32_t id = 0; id < numSurf; ++id)
    // An unbound %scratch is the stateless space (spec-decisions M1).
    if (id != kSurfSlm && id != kSurfScratch && use.usesSurface[id] && bindingOf[id] < 0 && !use.stateSet[id]) {
      std::string n = surfaceDisplayName(k, id);
      return launchError(fmt::format("surface '{}' is used by the kernel but not bound (--surface {}=FILE or {}=zero:BYTES)", n, n, n));
    }
  uint64_t slmBytes = 0;
  if (cfg.slmBytes) slmBytes = *cfg.slmBytes;
  else if (const Attribute* a = k.attr("SLMSize"); a && a->kind == Attribute::Kind::Int && a->intVal > 0)
    slmBytes = static_cast<uint64_t>(a->intVal);
  else if (use.usesSlm)
    return launchError("the kernel uses %slm but no SLM size is given (--slm BYTES or the SLMSize attribute)");
  if (use.usesUrb && !cfg.urbBytes) return launchError("the kernel writes the URB but no URB size is given (--urb BYTES)");
  // E31: an SLM is at most 64 KB (chapter 4 SLMSize), all of it reachable with 16 address bits.
  if (slmBytes > kSlmAddrMask + 1)
    return launchError(fmt::format("the SLM of a thread group is {} bytes; it is at most 65536 (64 KB)", slmBytes));
  l.slmBytes = slmBytes;

  // ---- schedule: groups are the unit (they share SLM, they meet at barriers); else every thread is ----
  l.unitIsGroup = use.usesSlm || use.usesBarrier;
  l.units = l.unitIsGroup ? dims.groups : dims.total;
  unsigned jobs = cfg.jobs ? cfg.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = l.jobs = static_cast<unsigned>(std::min<uint64_t>(jobs, std::max<uint64_t>(1, l.units)));

  // Launch memory (issue 6): bound surfaces (+ a copy of the written ones when transactional),
  // SLM per concurrent group, URB, --check shadows (8 bytes per byte).
  {
    uint64_t total = 0;
    auto sizeLimit = [&](uint64_t bytes, const std::string& what) -> std::optional<RunResult> {
      if (bytes > cfg.maxSurfaceBytes)
        return launchError(fmt::format("{} is {} bytes, over the limit of {} (--max-surface-size)", what, bytes, cfg.maxSurfaceBytes));
      return std::nullopt;
    };
    for (uint32_t id = 0; id < numSpaces; ++id)
      if (bindingOf[id] >= 0) {
        uint64_t b = surfaces[bindingOf[id]].contents().size();
        if (auto e = sizeLimit(b, fmt::format("surface '{}'", l.spaceNames[id]))) return *e;
        total += b * (1 + (cfg.check ? 8 : 0) + (cfg.transactional && l.writes(id) ? 1 : 0));
      }
    if (auto e = sizeLimit(slmBytes, "the SLM of a thread group")) return *e;
    if (auto e = sizeLimit(cfg.urbBytes.value_or(0), "the URB")) return *e;
    unsigned all = cfg.jobs ? cfg.jobs : std::max(1u, std::thread::hardware_concurrency());
    total += slmBytes * all + cfg.urbBytes.value_or(0) * (cfg.check ? 9 : 1);
    if (total > cfg.maxMemoryBytes)
      return launchError(fmt::format("the launch needs about {} bytes of memory, over the limit of {} (--max-memory)", total,
                                     cfg.maxMemoryBytes));
  }

  std::string err;
  if (!buildArgs(k, l.layout, cfg, l.inputs, err)) return launchError(err);
  l.regImage.assign((l.layout.usedBytes + 15) / 16 * 16, 0);  // (within regBytes: kRegPad)
  for (const InputImage& in : l.inputs)  // (an input is a laid-out variable: inside usedBytes)
    std::copy(in.bytes.begin(), in.bytes.end(), l.regImage.begin() + in.offset);
  if (kVarSr0 < l.layout.vars.size() && l.layout.vars[kVarSr0].present && l.layout.vars[kVarSr0].bytes >= 12)
    putDispatchMask(l.regImage.data() + l.layout.vars[kVarSr0].offset, l.dispatchMask);

  // ---- memory ----
  // Surfaces run in place on the bindings' contents(). With cfg.transactional,
  // a surface the kernel writes runs on one copy, which replaces the binding's
  // bytes (swap; a copy back into caller memory) only if the run succeeds.
  l.copies.assign(numSpaces, {});
  l.shadows = std::vector<RaceShadow>(numSpaces + 1);
  l.spaces.assign(numSpaces, Space{});
  for (uint32_t id = 0; id < numSpaces; ++id) {
    if (bindingOf[id] < 0) continue;
    std::span<uint8_t> bytes = surfaces[bindingOf[id]].contents();
    Space& s = l.spaces[id];
    if (cfg.transactional && l.writes(id)) {
      l.copies[id].assign(bytes.begin(), bytes.end());
      s.data = l.copies[id].data();
    } else {
      s.data = bytes.data();
    }
    s.size = bytes.size();
    s.bound = true;
    s.plain = !l.writes(id) || jobs == 1;
    s.statIndex = static_cast<uint32_t>(l.statNames.size());
    l.statNames.push_back(l.spaceNames[id]);
    // Race shadow only where the kernel writes: reads of a never-written surface cannot race.
    if (cfg.check && l.writes(id)) {
      l.shadows[id].reset(s.size);
      l.shadows[id].exclusive = jobs == 1;
      s.shadow = &l.shadows[id];
    }
  }
  if (use.usesSlm) {
    l.spaces[kSurfSlm].statIndex = static_cast<uint32_t>(l.statNames.size());
    l.spaces[kSurfSlm].addrMask = kSlmAddrMask;  // E31
    l.statNames.push_back("%slm");
  }
  l.urb.assign(cfg.urbBytes.value_or(0), 0);
  l.urbSpace.data = l.urb.data();
  l.urbSpace.size = l.urb.size();
  l.urbSpace.bound = true;
  l.urbSpace.plain = jobs == 1;
  if (use.usesUrb) {
    l.urbSpace.statIndex = static_cast<uint32_t>(l.statNames.size());
    l.statNames.push_back("URB");
    if (cfg.check) {
      l.shadows[numSpaces].reset(l.urb.size());
      l.shadows[numSpaces].exclusive = jobs == 1;
      l.urbSpace.shadow = &l.shadows[numSpaces];
    }
  }
  // ---- the binding table and the stateless address space ----
  for (const auto& [bti, name] : cfg.bindingTable) {
    auto id = l.spaceByName(name);
    if (!id) return launchError(fmt::format("--bti {}={}: no bound surface '{}'", bti, name, name));
    if (bti > 255) return launchError(fmt::format("--bti {}={}: a binding-table index is 0..255", bti, name));
    if (l.bindingTable.size() <= bti) l.bindingTable.resize(bti + 1, kNoSurface);
    if (l.bindingTable[bti] != kNoSurface) return launchError(fmt::format("--bti {} is given twice", bti));
    l.bindingTable[bti] = *id;
  }
  for (uint32_t bti : use.btis)
    if (bti >= l.bindingTable.size() || l.bindingTable[bti] == kNoSurface)
      return launchError(fmt::format("the kernel uses binding-table index {} (bti({:#x})) but the launch binds no surface to it "
                                     "(--bti {}=NAME)", bti, bti, bti));
  for (const auto& [name, base] : cfg.addresses) {
    auto id = l.spaceByName(name);
    if (!id) return launchError(fmt::format("--address {}: no bound surface '{}'", name, name));
    uint64_t size = l.spaces[*id].size;
    if (base + size < base) return launchError(fmt::format("--address {}={:#x}: the surface ends past 2^64", name, base));
    l.flat.push_back({base, size, *id});
  }
  std::sort(l.flat.begin(), l.flat.end(), [](const FlatRange& a, const FlatRange& b) { return a.base < b.base; });
  for (size_t i = 1; i < l.flat.size(); ++i)
    if (l.flat[i].base < l.flat[i - 1].base + l.flat[i - 1].size)
      return launchError(fmt::format("--address: surfaces '{}' and '{}' overlap in the stateless address space",
                                     l.spaceNames[l.flat[i - 1].spaceId], l.spaceNames[l.flat[i].spaceId]));

  // Slot memory (PayloadSource::slotMemory): host thread j runs its threads in
  // slots j x n .. j x n + n - 1 (n: the threads of a group; the reference tier
  // uses only j x n when a unit is one thread, the fast tier's gangs up to n).
  if (const PayloadSource* ps = cfg.payload) {
    const uint64_t slots = uint64_t{jobs} * dims.perGroup;
    l.slotMemory.resize(slots);
    for (uint32_t slot = 0; slot < slots; ++slot)
      for (const PayloadSource::SlotMemory& m : ps->slotMemory(slot)) {
        auto id = l.spaceByName(m.name);
        if (!id) return launchError(fmt::format("the memory of thread slot {} is in '{}', which is not bound", slot, m.name));
        if (m.offset > l.spaces[*id].size || m.size > l.spaces[*id].size - m.offset)
          return launchError(fmt::format("the memory of thread slot {} ({} bytes at {}) is not inside '{}' ({} bytes)", slot,
                                         m.size, m.offset, m.name, l.spaces[*id].size));
        l.slotMemory[slot].push_back({*id, m.offset, m.size});
      }
  }

  // Barrier epochs of the race checker (spec-decisions C3): thread ids + 1 must stay below its tag bits.
  if (cfg.check && use.usesBarrier && dims.total < (uint64_t{1} << 30)) l.race.useBarriers(static_cast<uint32_t>(dims.perGroup));
  if (cfg.check) l.oob.useReads(registerBytesRead(k, l.layout, cfg.grfSize));
  l.observers.add(&l.oob);
  l.observers.add(&l.same);
  l.observers.add(&l.race);
  return std::nullopt;
}

void finishLaunch(Launch& l, std::vector<SurfaceBinding>& surfaces, const std::vector<WorkerTotals>& workers, RunResult& res) {
  const Kernel& k = *l.k;
  const size_t numStats = l.statNames.size();
  res.stats.threads = l.dims.total;
  res.stats.spaces.resize(numStats);
  for (size_t i = 0; i < numStats; ++i) res.stats.spaces[i].name = l.statNames[i];
  FindingSink merged;
  merged.maxExamples = std::max(1u, l.cfg->maxExamples);
  for (const WorkerTotals& w : workers) {
    res.stats.instructions += w.instructions;
    res.stats.lanes += w.lanes;
    for (size_t i = 0; i < numStats && i < w.spaceBytes.size(); ++i) {
      res.stats.spaces[i].bytesRead += w.spaceBytes[i][0];
      res.stats.spaces[i].bytesWritten += w.spaceBytes[i][1];
    }
    if (!w.findings) continue;
    for (auto& [key, agg] : w.findings->items) {
      FindingSink::Agg& m = merged.items[key];
      m.count += agg.count;
      m.spaceId = agg.spaceId;
      m.examples.insert(m.examples.end(), agg.examples.begin(), agg.examples.end());
    }
  }
  for (auto& [key, agg] : merged.items) {
    Finding f;
    f.instruction = key.first;
    f.kind = static_cast<Finding::Kind>(key.second);
    f.loc = key.first < k.code.size() ? k.code[key.first].loc : SrcLoc{};
    f.count = agg.count;
    if (agg.spaceId == kUrbSpace) {
      f.space = "URB";
      f.spaceSize = l.urb.size();
    } else if (agg.spaceId == kFlatSpace) {  // an address in no allocation of the stateless space
      f.space = kStatelessName;
      f.spaceSize = 0;
    } else {
      f.space = agg.spaceId < l.spaceNames.size() ? l.spaceNames[agg.spaceId] : surfaceDisplayName(k, agg.spaceId);
      f.spaceSize = agg.spaceId == kSurfSlm ? l.slmBytes : l.spaces[agg.spaceId].size;
    }
    std::sort(agg.examples.begin(), agg.examples.end());
    if (agg.examples.size() > merged.maxExamples) agg.examples.resize(merged.maxExamples);
    f.examples = agg.examples;
    res.findings.push_back(std::move(f));
  }
  for (uint32_t id = 0; id < l.bindingOf.size(); ++id) {
    if (l.bindingOf[id] < 0 || l.copies[id].empty()) continue;
    SurfaceBinding& b = surfaces[l.bindingOf[id]];
    if (b.memory.data()) std::memcpy(b.memory.data(), l.copies[id].data(), l.copies[id].size());
    else b.bytes.swap(l.copies[id]);
  }
  res.urb = std::move(l.urb);
}

void takeSlot(const Launch& l, std::vector<Space>& spaces, RefThread& t, uint32_t slot) {
  t.ownScratch = false;
  if (slot >= l.slotMemory.size()) return;
  for (const Launch::SlotRange& r : l.slotMemory[slot]) {
    if (r.spaceId == kSurfScratch) {
      t.ownScratch = true;
      t.scratchBase = r.offset;
      t.scratchSize = r.size;
    }
    if (r.spaceId < spaces.size())
      if (RaceShadow* sh = spaces[r.spaceId].shadow) sh->forget(r.offset, r.offset + r.size);
  }
}

}  // namespace visakit::sim
