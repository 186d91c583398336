// The passes' results kept between launches (PreparedKernels, sim.hpp): a
// launch that repeats an earlier one in every input of decode() and the launch
// passes runs the form that launch prepared. The key holds those inputs whole,
// so a kept form is the one the passes would give again.
#include <algorithm>
#include <deque>
#include <mutex>

#include "sim/fast/plan/effects.hpp"
#include "sim/fast/plan/plan.hpp"
#include "sim/launch.hpp"

namespace visakit::sim {

namespace {

// What decode() and the passes read of a launch, besides the kernel's own code.
struct FormKey {
  const Kernel* k = nullptr;
  std::vector<const Kernel*> functions;             // the module's, which decode() resolves calls to
  std::vector<std::pair<std::string, uint64_t>> symbols;  // what decode() resolves FADDR's other names to
  unsigned grfSize = 0;
  bool check = false, fold = false, payload = false;
  uint64_t maxSteps = 0;
  uint32_t dispatchMask = 0;
  std::vector<uint8_t> image;                       // planThreadStart folds on it
  std::vector<std::pair<uint32_t, uint32_t>> perThread;  // the payload's register bytes
  std::vector<uint32_t> bindingTable;               // planSurfaceState
  std::vector<uint8_t> writes;                      // the surfaces the launch may write (Program::writesSurface)
  std::vector<uint8_t> spaces;                      // per space: bound, dram, observed (decode, fitToLaunch)
  bool operator==(const FormKey&) const = default;
};

FormKey keyOf(const Kernel& k, const Launch& l, const std::vector<Space>& spaces) {
  const LaunchConfig& cfg = *l.cfg;
  FormKey key;
  key.k = &k;
  key.functions = cfg.functions;
  key.symbols = cfg.symbols;
  key.grfSize = cfg.grfSize;
  key.check = cfg.check;
  key.fold = cfg.foldConstantStart;
  key.payload = cfg.payload != nullptr;
  key.maxSteps = cfg.maxSteps;
  key.dispatchMask = l.dispatchMask;
  key.image = l.regImage;
  if (cfg.payload)
    for (const ByteRange& r : l.payload.written()) key.perThread.emplace_back(r.lo, r.hi);
  key.bindingTable = l.bindingTable;
  key.writes = l.use.writesSurface;
  for (const Space& s : spaces)
    key.spaces.push_back(static_cast<uint8_t>(s.bound | s.dram << 1 | (s.shadow != nullptr) << 2));
  return key;
}

// Whether an explicit launch's threads may observe their concurrency slot:
// the kernel names %sr0 or %hw_id, reads the scratch offset in %r0 (bytes
// 20-23, K3), or uses %scratch.
bool observesSlot(const Program& p, const Launch& l) {
  for (unsigned v : {kVarSr0, kVarHwId})
    if (v < p.vars.size() && p.vars[v].present) return true;
  if (l.use.usesSurface.size() > kSurfScratch && l.use.usesSurface[kSurfScratch]) return true;
  if (kVarR0 >= p.vars.size() || !p.vars[kVarR0].present) return false;
  const ByteRange scratchOffset{p.vars[kVarR0].offset + 20, p.vars[kVarR0].offset + 24};
  bool reads = false;
  for (size_t i = 0; i < p.code.size() && !reads; ++i)
    plan::eachRead(p, p.code[i], [&](uint64_t lo, uint64_t hi) { reads = reads || (lo < scratchOffset.hi && scratchOffset.lo < hi); });
  return reads;
}

std::shared_ptr<const PreparedForm> prepare(const Kernel& k, const Launch& l, const std::vector<Space>& spaces) {
  auto f = std::make_shared<PreparedForm>();
  decode(k, l, f->prog);
  if (!f->prog.unsupported.empty()) return f;
  const LaunchConfig& cfg = *l.cfg;
  f->regImage = l.regImage;
  f->start = planThreadStart(f->prog, f->regImage, cfg.foldConstantStart, l.dispatchMask,
                             cfg.payload ? l.payload.written() : std::vector<ByteRange>{});
  f->observesSlot = cfg.payload && observesSlot(f->prog, l);
  fitToLaunch(f->prog, spaces, cfg.check);
  for (const auto& fn : f->prog.functions) fitToLaunch(*fn, spaces, cfg.check);
  f->straightSteps = planStraight(f->prog, k, l.dispatchMask, cfg.maxSteps, f->straightRetLanes, f->straightPlan);
  return f;
}

}  // namespace

struct PreparedKernels::Impl {
  // A few launch shapes per kernel are usual; past kKeep the oldest goes.
  static constexpr size_t kKeep = 64;
  template <class Key, class V>
  using Kept = std::deque<std::pair<Key, std::shared_ptr<const V>>>;
  std::mutex m;
  Kept<FormKey, PreparedForm> forms;
  Kept<std::pair<const Kernel*, unsigned>, KernelFacts> facts;
  uint64_t hits = 0;  // of forms

  // The value `kept` holds for `key`, else make()'s, which it then keeps.
  // make() runs outside the lock: launches of other kernels go on.
  template <class Key, class V, class Make>
  std::shared_ptr<const V> keptOr(Kept<Key, V>& kept, Key key, Make make, uint64_t* hitCount) {
    {
      std::lock_guard lock(m);
      for (const auto& [kk, v] : kept)
        if (kk == key) {
          if (hitCount) ++*hitCount;
          return v;
        }
    }
    std::shared_ptr<const V> v = make();
    std::lock_guard lock(m);
    if (kept.size() == kKeep) kept.pop_front();
    kept.emplace_back(std::move(key), v);
    return v;
  }
};

std::shared_ptr<const KernelFacts> kernelFacts(const Kernel& k, unsigned grfSize, PreparedKernels* cache) {
  auto make = [&] {
    auto f = std::make_shared<KernelFacts>();
    f->layout = layoutVars(k, grfSize);
    f->use = kernelUse(k);
    return std::shared_ptr<const KernelFacts>(std::move(f));
  };
  if (!cache) return make();
  PreparedKernels::Impl& c = cache->impl();
  return c.keptOr(c.facts, std::pair<const Kernel*, unsigned>{&k, grfSize}, make, nullptr);
}

PreparedKernels::PreparedKernels() : impl_(std::make_unique<Impl>()) {}
PreparedKernels::~PreparedKernels() = default;
size_t PreparedKernels::size() const {
  std::lock_guard lock(impl_->m);
  return impl_->forms.size();
}
uint64_t PreparedKernels::hits() const {
  std::lock_guard lock(impl_->m);
  return impl_->hits;
}
void PreparedKernels::clear() {
  std::lock_guard lock(impl_->m);
  impl_->forms.clear();
  impl_->facts.clear();
}

std::shared_ptr<const PreparedForm> preparedForm(const Kernel& k, const Launch& l, const std::vector<Space>& spaces,
                                                 PreparedKernels* cache) {
  if (!cache) return prepare(k, l, spaces);
  PreparedKernels::Impl& c = cache->impl();
  return c.keptOr(c.forms, keyOf(k, l, spaces), [&] { return prepare(k, l, spaces); }, &c.hits);
}

}  // namespace visakit::sim
