// Small-batch latency of Validator::ValidateReader: a 10,000-row, 10-column
// in-memory Arrow batch, as griffin.Validator.validate(pyarrow_table) runs it.
//   ./build/griffin_benchmarks --benchmark_filter=Validator
#include <benchmark/benchmark.h>

#include <random>

#include <arrow/api.h>

#include "api/validator.h"

namespace griffin {
namespace {

constexpr int64_t kRows = 10000;

const char* kRules = R"(griffin: 1
dataset: latency
columns:
  id: {type: int64, not_null: true, unique: true, min: 0}
  amount: {type: float64, not_null: true, finite: true, min: -1000, max: 1000}
  score: {type: float64}
  currency: {type: string, in: [USD, EUR, GBP, JPY]}
  email: {type: string, regex: '^[^@ ]+@[^@ ]+\.[A-Za-z]{2,}$', length: {max: 254}}
  label: {type: int64, in: [0, 1]}
  qty: {type: int64, min: 1}
  code: {type: string}
  flag: {type: bool}
  ratio: {type: float64}
rows:
  - name: refund_negative
    expr: "label == 0 or amount < 500"
)";

std::shared_ptr<arrow::Table> MakeTable(bool with_regex_column_values) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-100, 100);
  arrow::Int64Builder id, label, qty;
  arrow::DoubleBuilder amount, score, ratio;
  arrow::StringBuilder currency, email, code;
  arrow::BooleanBuilder flag;
  const char* currencies[] = {"USD", "EUR", "GBP", "JPY"};
  for (int64_t r = 0; r < kRows; ++r) {
    (void)id.Append(r);
    (void)amount.Append(uniform(rng));
    (void)score.Append(uniform(rng));
    (void)currency.Append(currencies[r % 4]);
    (void)email.Append(r % 100 == 0 ? "broken" : "someone" + std::to_string(r % 97) + "@example.com");
    (void)label.Append(r % 50 == 0);
    (void)qty.Append(1 + r % 7);
    (void)code.Append("C" + std::to_string(r % 13));
    (void)flag.Append(r % 3 == 0);
    (void)ratio.Append(uniform(rng) / 100);
  }
  auto finish = [](auto& builder) { return builder.Finish().ValueOrDie(); };
  auto schema = arrow::schema({arrow::field("id", arrow::int64()), arrow::field("amount", arrow::float64()),
                               arrow::field("score", arrow::float64()), arrow::field("currency", arrow::utf8()),
                               arrow::field("email", arrow::utf8()), arrow::field("label", arrow::int64()),
                               arrow::field("qty", arrow::int64()), arrow::field("code", arrow::utf8()),
                               arrow::field("flag", arrow::boolean()), arrow::field("ratio", arrow::float64())});
  return arrow::Table::Make(schema, {finish(id), finish(amount), finish(score), finish(currency), finish(email),
                                     finish(label), finish(qty), finish(code), finish(flag), finish(ratio)});
}

void BM_ValidatorSmallBatch(benchmark::State& state) {
  auto validator = *Validator::FromText(kRules, "<bench>");
  auto table = MakeTable(true);
  ValidationOptions options;
  options.threads = static_cast<int>(state.range(0));
  options.collect_bad_rows = state.range(1) != 0;
  for (auto _ : state) {
    auto reader = std::make_shared<arrow::TableBatchReader>(*table);
    auto result = validator->ValidateReader(reader, "<bench>", options);
    if (!result.ok()) state.SkipWithError(result.status().message().c_str());
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ValidatorSmallBatch)->Args({1, 1})->Args({2, 1})->Args({1, 0})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace griffin

BENCHMARK_MAIN();
