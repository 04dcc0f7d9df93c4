// Cost of checking foreign Arrow data (io/arrow_check.h) on the engine's
// batches: 1,000,000 rows x 10 columns (3 int64, 2 float64, 1 bool, 3 utf8 of
// 8-24 bytes, 1 dictionary of utf8), in 65,536-row slices as ArrowSource cuts
// them, on one thread (1 dictionary of utf8 with int8 indices). Compare with `griffin validate --threads 1` on the same
// table written as Arrow IPC (docs/benchmarks.md).
//   ./build/griffin_benchmarks --benchmark_filter=ArrowCheck
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include <arrow/api.h>

#include "io/arrow_check.h"
#include "io/arrow_source.h"

namespace griffin {
namespace {

constexpr int64_t kRows = 1000000;
constexpr int64_t kSliceRows = 65536;

std::shared_ptr<arrow::RecordBatch> MakeTable() {
  std::mt19937_64 random(20261204);
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (int c = 0; c < 3; ++c) {
    arrow::Int64Builder builder;
    for (int64_t r = 0; r < kRows; ++r) (void)builder.Append(static_cast<int64_t>(random() % 1000000));
    fields.push_back(arrow::field("i" + std::to_string(c), arrow::int64()));
    arrays.push_back(builder.Finish().ValueOrDie());
  }
  for (int c = 0; c < 2; ++c) {
    arrow::DoubleBuilder builder;
    for (int64_t r = 0; r < kRows; ++r) {
      if (r % 17 == 0) (void)builder.AppendNull();
      else (void)builder.Append(static_cast<double>(random() % 100000) / 7.0);
    }
    fields.push_back(arrow::field("f" + std::to_string(c), arrow::float64()));
    arrays.push_back(builder.Finish().ValueOrDie());
  }
  arrow::BooleanBuilder flags;
  for (int64_t r = 0; r < kRows; ++r) (void)flags.Append(random() % 2 == 0);
  fields.push_back(arrow::field("flag", arrow::boolean()));
  arrays.push_back(flags.Finish().ValueOrDie());
  for (int c = 0; c < 3; ++c) {
    arrow::StringBuilder builder;
    std::string value;
    for (int64_t r = 0; r < kRows; ++r) {
      value.assign(8 + random() % 17, 'a');
      for (char& ch : value) ch = static_cast<char>('a' + random() % 26);
      if (r % 5 == 0) value += "\xc3\xa9";  // some multi-byte text
      (void)builder.Append(value);
    }
    fields.push_back(arrow::field("s" + std::to_string(c), arrow::utf8()));
    arrays.push_back(builder.Finish().ValueOrDie());
  }
  arrow::StringDictionaryBuilder codes;
  for (int64_t r = 0; r < kRows; ++r) (void)codes.Append("code" + std::to_string(random() % 50));
  fields.push_back(arrow::field("code", arrow::dictionary(arrow::int8(), arrow::utf8())));
  arrays.push_back(codes.Finish().ValueOrDie());
  return arrow::RecordBatch::Make(arrow::schema(fields), kRows, arrays);
}

void BM_ArrowCheck(benchmark::State& state) {
  const auto table = MakeTable();
  for (auto _ : state) {
    for (int64_t offset = 0; offset < kRows; offset += kSliceRows) {
      auto checked = CheckArrowBatch(table->Slice(offset, kSliceRows), "bench.arrow");
      if (!checked.ok()) {
        state.SkipWithError(checked.status().message().c_str());
        return;
      }
      auto batch = BatchFromRecordBatch(*checked, 0);
      MarkInvalidUtf8Rows(batch.get());
      benchmark::DoNotOptimize(batch->malformed_records.size());
    }
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ArrowCheck)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace griffin
