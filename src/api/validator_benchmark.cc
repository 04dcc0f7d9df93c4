// Small-batch latency of Validator::ValidateReader: a 10,000-row, 10-column
// in-memory Arrow batch, as griffin.Validator.validate(pyarrow_table) runs it
// (per-row errors collected, as the Python package always asks).
//   ./build/griffin_benchmarks --benchmark_filter=Validator
// Wall time per call; p50_us / p99_us are the median and 99th percentile of
// the individual calls.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <random>

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>

#include "api/validator.h"

namespace griffin {
namespace {

constexpr int64_t kRows = 10000;

// Every column of the input, 24 checks with a regex, a unique and a row expression.
const char* kRulesFull = R"(griffin: 1
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

// 13 checks on 6 of the 10 columns, no regex.
const char* kRules12 = R"(griffin: 1
dataset: latency
columns:
  id: {type: int64, not_null: true, unique: true}
  amount: {type: float64, min: -1000, max: 1000}
  currency: {type: string, in: [USD, EUR, GBP, JPY]}
  label: {type: int64, in: [0, 1]}
  qty: {type: int64, min: 1}
rows:
  - name: refund_negative
    expr: "label == 0 or amount < 500"
)";

// The same size with a regex instead of the label checks.
const char* kRules12Regex = R"(griffin: 1
dataset: latency
columns:
  id: {type: int64, not_null: true, unique: true}
  amount: {type: float64, min: -1000, max: 1000}
  currency: {type: string, in: [USD, EUR, GBP, JPY]}
  email: {type: string, regex: '^[^@ ]+@[^@ ]+\.[A-Za-z]{2,}$'}
  qty: {type: int64, min: 1}
rows:
  - name: refund_negative
    expr: "label == 0 or amount < 500"
)";

// Ten columns; every `bad_every`-th row breaks qty.min, currency.in,
// email.regex and amount.max (0: no bad rows). Emails are distinct.
std::shared_ptr<arrow::Table> MakeTable(int64_t bad_every) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-100, 100);
  arrow::Int64Builder id, label, qty;
  arrow::DoubleBuilder amount, score, ratio;
  arrow::StringBuilder currency, email, code;
  arrow::BooleanBuilder flag;
  const char* currencies[] = {"USD", "EUR", "GBP", "JPY"};
  for (int64_t r = 0; r < kRows; ++r) {
    const bool bad = bad_every > 0 && r % bad_every == 0;
    (void)id.Append(r);
    (void)amount.Append(bad ? 5000 : uniform(rng));
    (void)score.Append(uniform(rng));
    (void)currency.Append(bad ? "XXX" : currencies[r % 4]);
    (void)email.Append(bad ? "broken" : "user" + std::to_string(r) + "@example" + std::to_string(r % 7) + ".com");
    (void)label.Append(r % 50 == 0);
    (void)qty.Append(bad ? 0 : 1 + r % 7);
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

// Runs validations of `table` and reports the median and p99 of the calls.
void RunLatency(benchmark::State& state, const char* rules, const std::shared_ptr<arrow::Table>& table,
                int threads, bool collect_bad_rows, int64_t max_violations = kDefaultMaxViolations) {
  auto validator = *Validator::FromText(rules, "<bench>");
  ValidationOptions options;
  options.threads = threads;
  options.collect_bad_rows = collect_bad_rows;
  options.max_violations = max_violations;
  std::vector<double> micros;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto reader = std::make_shared<arrow::TableBatchReader>(*table);
    auto result = validator->ValidateReader(reader, "<bench>", options);
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    if (!result.ok()) state.SkipWithError(result.status().message().c_str());
    benchmark::DoNotOptimize(result);
  }
  if (micros.empty()) return;
  std::sort(micros.begin(), micros.end());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
  state.SetItemsProcessed(state.iterations() * table->num_rows());
}

// Args: threads, collect_bad_rows (the original rule set; ~1% bad emails).
void BM_ValidatorSmallBatch(benchmark::State& state) {
  static const auto table = MakeTable(100);
  RunLatency(state, kRulesFull, table, static_cast<int>(state.range(0)), state.range(1) != 0);
}
BENCHMARK(BM_ValidatorSmallBatch)->Args({1, 1})->Args({2, 1})->Args({1, 0})->Unit(benchmark::kMicrosecond)->UseRealTime();

// Args: rule set (0: 13 checks, 1: 13 checks with a regex, 2: 24 checks),
// data (0: clean, 1% bad rows; 1: dirty, a third bad; 2: no bad row), threads.
void BM_ValidatorLatency(benchmark::State& state) {
  static const std::shared_ptr<arrow::Table> tables[] = {MakeTable(100), MakeTable(3), MakeTable(0)};
  const char* rules[] = {kRules12, kRules12Regex, kRulesFull};
  RunLatency(state, rules[state.range(0)], tables[state.range(1)], static_cast<int>(state.range(2)), true);
}
BENCHMARK(BM_ValidatorLatency)
    ->ArgsProduct({{0, 1, 2}, {0, 1, 2}, {1, 2}})
    ->ArgNames({"rules", "data", "threads"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// One check family at a time over the clean 10-column batch, 1 thread.
struct Family {
  const char* name;
  const char* columns;  // the rule file's columns section
  bool one_column_input = false;
};
const Family kFamilies[] = {
    {"type_int64_1col_input", "  id: {type: int64}\n", true},
    {"type_int64", "  id: {type: int64}\n"},
    {"type_all_10", "  id: {type: int64}\n  amount: {type: float64}\n  score: {type: float64}\n"
                    "  currency: {type: string}\n  email: {type: string}\n  label: {type: int64}\n"
                    "  qty: {type: int64}\n  code: {type: string}\n  flag: {type: bool}\n  ratio: {type: float64}\n"},
    {"not_null", "  id: {type: int64, not_null: true}\n"},
    {"min_max", "  amount: {type: float64, min: -1000, max: 1000}\n"},
    {"unique_int64", "  id: {type: int64, unique: true}\n"},
    {"unique_string", "  email: {type: string, unique: true}\n"},
    {"in_string", "  currency: {type: string, in: [USD, EUR, GBP, JPY]}\n"},
    {"in_int64", "  label: {type: int64, in: [0, 1]}\n"},
    {"regex", "  email: {type: string, regex: '^[^@ ]+@[^@ ]+\\.[A-Za-z]{2,}$'}\n"},
    {"length", "  email: {type: string, length: {max: 254}}\n"},
    {"row_expr", "  label: {type: int64}\n  amount: {type: float64}\nrows:\n"
                 "  - name: refund_negative\n    expr: \"label == 0 or amount < 500\"\n"},
};

void BM_ValidatorCheckFamily(benchmark::State& state) {
  static const auto clean = MakeTable(100);
  static const auto one_column = arrow::Table::Make(arrow::schema({clean->schema()->field(0)}), {clean->column(0)});
  const Family& family = kFamilies[state.range(0)];
  state.SetLabel(family.name);
  const std::string rules = std::string("griffin: 1\ndataset: family\ncolumns:\n") + family.columns;
  RunLatency(state, rules.c_str(), family.one_column_input ? one_column : clean, 1, true);
}
BENCHMARK(BM_ValidatorCheckFamily)
    ->DenseRange(0, sizeof(kFamilies) / sizeof(kFamilies[0]) - 1)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// The peer benchmark's latency scenario from C++: bench/suite.rules.yaml (13
// checks, the e-mail regex) over bench/data/transactions_10000r_seed20240601.parquet
// (make it with `.venv/bin/python -c "import sys; sys.path.insert(0, 'bench');
// import datasets; datasets.transactions(10000, 'parquet')"`), as
// bench/tools/griffin_py.py's from_frame runs it (max_violations 0). Run from
// the repository root. Arg: threads.
void BM_ValidatorSuite(benchmark::State& state) {
  static const std::shared_ptr<arrow::Table> table = []() -> std::shared_ptr<arrow::Table> {
    auto file = arrow::io::ReadableFile::Open("bench/data/transactions_10000r_seed20240601.parquet");
    if (!file.ok()) return nullptr;
    auto reader = parquet::arrow::OpenFile(*file, arrow::default_memory_pool());
    if (!reader.ok()) return nullptr;
    std::shared_ptr<arrow::Table> out;
    if (!(*reader)->ReadTable(&out).ok()) return nullptr;
    return out->CombineChunks().ValueOr(nullptr);
  }();
  if (table == nullptr) {
    state.SkipWithError("no bench/data/transactions_10000r_seed20240601.parquet (see the comment)");
    return;
  }
  std::ifstream in("bench/suite.rules.yaml");
  const std::string rules((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  RunLatency(state, rules.c_str(), table, static_cast<int>(state.range(0)), true, 0);
}
BENCHMARK(BM_ValidatorSuite)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace griffin

BENCHMARK_MAIN();
