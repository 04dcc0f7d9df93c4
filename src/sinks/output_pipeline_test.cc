// OutputPipeline: the files are byte for byte those of RowSink::Write, for
// every format, worker count and pending bound; the first error in input
// order is the one reported.
#include "sinks/output_pipeline.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"
#include "sinks/sink_test_util.h"

namespace griffin {
namespace {

using testing::MakeVerdicts;
using testing::ReadFileBytes;
using testing::RowErrors;
using testing::TempDir;
using testing::TypedBatch;

// 12 typed batches of 7..29 rows; about one row in four bad, with 1-2 errors.
std::vector<std::shared_ptr<Batch>> Batches() {
  std::vector<std::shared_ptr<Batch>> batches;
  int64_t first = 0;
  for (int i = 0; i < 12; ++i) {
    const int64_t rows = 7 + (i * 11) % 23;
    batches.push_back(TypedBatch(first, rows));
    first += rows;
  }
  return batches;
}

RowErrors Errors(int64_t rows) {
  RowErrors errors;
  for (int64_t r = 0; r < rows; ++r) {
    if (r % 4 == 1) errors[r].push_back({"id.min", "value " + std::to_string(r) + " < 5"});
    if (r % 6 == 1) errors[r].push_back({"name.regex", "\"n,\" does not match"});
  }
  return errors;
}

// Writes every batch through Write (pipeline == nullptr) or the pipeline.
std::string WriteAll(const std::string& path, SinkKind kind, int threads, int max_pending, bool pipelined) {
  SinkOptions options;
  if (kind == SinkKind::kClean) options.version_tag = 7;
  auto sink = OpenRowSink(path, kind, options);
  EXPECT_TRUE(sink.ok()) << sink.status().message();
  auto batches = Batches();
  int64_t total = 0;
  for (const auto& batch : batches) total += batch->num_rows;
  const RowErrors errors = Errors(total);
  {
    OutputPipeline pipeline({sink->get()}, threads, max_pending);
    int64_t base = 0;
    for (const auto& batch : batches) {
      auto owned = MakeVerdicts(*batch, base, errors);
      owned->verdicts.batch_owner = batch;
      Status written = pipelined ? pipeline.Write(owned->verdicts) : (*sink)->Write(owned->verdicts);
      EXPECT_TRUE(written.ok()) << written.message();
      base += batch->num_rows;
    }
    Status finished = pipeline.Finish();
    EXPECT_TRUE(finished.ok()) << finished.message();
  }
  auto committed = (*sink)->Commit();
  EXPECT_TRUE(committed.ok()) << committed.status().message();
  const int64_t bad = static_cast<int64_t>(errors.size());
  if (committed.ok()) EXPECT_EQ(committed->rows, kind == SinkKind::kClean ? total - bad : bad);
  return ReadFileBytes(path);
}

TEST(OutputPipelineTest, SameBytesAsWriteForEveryFormatAndThreadCount) {
  TempDir dir;
  for (const std::string ext : {".csv", ".jsonl", ".parquet", ".arrow"}) {
    for (SinkKind kind : {SinkKind::kClean, SinkKind::kQuarantine}) {
      const std::string expected = WriteAll(dir.Path("direct" + ext), kind, 1, 0, /*pipelined=*/false);
      ASSERT_FALSE(expected.empty());
      for (int threads : {1, 2, 5}) {
        for (int max_pending : {1, 3, 0}) {
          EXPECT_EQ(WriteAll(dir.Path("piped" + ext), kind, threads, max_pending, true), expected)
              << ext << " threads " << threads << " pending " << max_pending;
        }
      }
    }
  }
}

TEST(OutputPipelineTest, WithoutABatchOwnerWritesOnTheCallingThread) {
  TempDir dir;
  const std::string expected = WriteAll(dir.Path("direct.csv"), SinkKind::kQuarantine, 1, 0, false);
  auto sink = OpenRowSink(dir.Path("owned.csv"), SinkKind::kQuarantine, {});
  ASSERT_TRUE(sink.ok());
  auto batches = Batches();
  int64_t total = 0;
  for (const auto& batch : batches) total += batch->num_rows;
  const RowErrors errors = Errors(total);
  OutputPipeline pipeline({sink->get()}, 2, 2);
  int64_t base = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    auto owned = MakeVerdicts(*batches[i], base, errors);
    if (i % 2) owned->verdicts.batch_owner = batches[i];  // mixed: order must still hold
    ASSERT_TRUE(pipeline.Write(owned->verdicts).ok());
    base += batches[i]->num_rows;
  }
  ASSERT_TRUE(pipeline.Finish().ok());
  ASSERT_TRUE((*sink)->Commit().ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("owned.csv")), expected);
}

TEST(OutputPipelineTest, AnEncodeErrorIsReportedInOrderAndSticks) {
  TempDir dir;
  auto sink = OpenRowSink(dir.Path("out.parquet"), SinkKind::kClean, {});
  ASSERT_TRUE(sink.ok());
  // The first input makes `id` int64; a later one has it as text: Encode fails.
  auto first = TypedBatch(0, 10);
  auto text = std::make_shared<Batch>();
  text->input_index = 1;
  for (const char* name : {"id", "score", "name", "ts"}) testing::AddTextColumn(text.get(), name, {"1", "2"});
  OutputPipeline pipeline({sink->get()}, 2, 8);
  Status status;
  int64_t base = 0;
  for (const auto& batch : {first, text, first}) {
    auto owned = MakeVerdicts(*batch, base, {});
    owned->verdicts.batch_owner = batch;
    if (status.ok()) status = pipeline.Write(owned->verdicts);
    base += batch->num_rows;
  }
  if (status.ok()) status = pipeline.Finish();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_NE(status.message().find("column id is"), std::string::npos) << status.message();
  EXPECT_EQ(pipeline.Finish().message(), status.message());  // sticks
  auto again = MakeVerdicts(*first, base, {});
  again->verdicts.batch_owner = first;
  EXPECT_EQ(pipeline.Write(again->verdicts).message(), status.message());
}

}  // namespace
}  // namespace griffin
