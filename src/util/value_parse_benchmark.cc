// The fixed-layout fast paths against the general parsers they front:
// ParseFloat64 (util/fixed_decimal.h) on amounts as exporters write them
// ("1234.56", "-0.5"), and ParseDate (util/fixed_date.h) on ISO dates.
//   ./build/griffin_benchmarks --benchmark_filter='Parse(Float64|Date)'
#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "util/value_parse.h"
#include "util/value_parse_internal.h"

namespace griffin {
namespace {

std::vector<std::string> Amounts() {
  std::mt19937_64 random(7);
  std::vector<std::string> values;
  for (int i = 0; i < 4096; ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%s%llu.%02llu", i % 9 == 0 ? "-" : "",
                  static_cast<unsigned long long>(random() % 100000), static_cast<unsigned long long>(random() % 100));
    values.emplace_back(buffer);
  }
  return values;
}

std::vector<std::string> Dates() {
  std::mt19937_64 random(8);
  std::vector<std::string> values;
  for (int i = 0; i < 4096; ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04u-%02u-%02u", static_cast<unsigned>(1950 + random() % 100),
                  static_cast<unsigned>(1 + random() % 12), static_cast<unsigned>(1 + random() % 28));
    values.emplace_back(buffer);
  }
  return values;
}

template <typename Parse>
void Run(benchmark::State& state, const std::vector<std::string>& values, Parse parse) {
  for (auto _ : state)
    for (const std::string& value : values) benchmark::DoNotOptimize(parse(value));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(values.size()));
}

void BM_ParseFloat64(benchmark::State& state) { Run(state, Amounts(), ParseFloat64); }
void BM_ParseFloat64General(benchmark::State& state) { Run(state, Amounts(), internal::ParseFloat64General); }
void BM_ParseDate(benchmark::State& state) { Run(state, Dates(), ParseDate); }
void BM_ParseDateGeneral(benchmark::State& state) { Run(state, Dates(), internal::ParseDateGeneral); }

BENCHMARK(BM_ParseFloat64);
BENCHMARK(BM_ParseFloat64General);
BENCHMARK(BM_ParseDate);
BENCHMARK(BM_ParseDateGeneral);

}  // namespace
}  // namespace griffin
