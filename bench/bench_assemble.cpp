// `assemble`: parse + verify + encode a generated 100,000-instruction kernel.
#include <benchmark/benchmark.h>

#include <string>

#include "visakit/visakit.hpp"

namespace {

std::string generatedKernel(int n) {
  std::string s =
      ".version 4.2\n.kernel \"big\"\n"
      ".decl Offs v_type=G type=ud num_elts=16 align=GRF\n"
      ".decl Data v_type=G type=ud num_elts=16 align=GRF\n"
      ".decl A v_type=G type=d num_elts=16 align=GRF\n"
      ".decl P1 v_type=P num_elts=16\n"
      ".decl Buf v_type=T num_elts=1\n"
      ".input Buf offset=32 size=4\n";
  const char* body[] = {
      "    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n",
      "    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x20:d\n",
      "    (P1) gather_scaled.4 (M1, 16) Buf 0x0:ud Offs.0 Data.0\n",
      "    shl (M1, 16) Offs(0,0)<1> Offs(0,0)<1;1,0> 0x2:ud\n",
      "    scatter_scaled.4 (M1, 16) Buf 0x40:ud Offs.0 Data.0\n",
  };
  for (int i = 0; i < n; ++i) s += body[i % 5];
  return s;
}

void BM_Assemble(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::string src = generatedKernel(n);
  for (auto _ : state) {
    visakit::Diagnostics d;
    auto m = visakit::parseText(src, d);
    if (!m || !visakit::verify(*m, d)) state.SkipWithError("kernel did not verify");
    auto bytes = visakit::writeBinary(*m);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src.size()));
}
BENCHMARK(BM_Assemble)->Arg(100000)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
