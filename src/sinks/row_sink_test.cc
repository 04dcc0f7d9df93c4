// What every output format shares: format by extension, atomic commit and
// abort, the one-schema rule, the summary.
#include "sinks/row_sink.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"
#include "sinks/atomic_file.h"
#include "sinks/sink_test_util.h"
#include "util/sha256.h"

namespace griffin {
namespace {

using testing::ListDir;
using testing::MakeVerdicts;
using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteOutput;

const std::vector<std::string> kExtensions = {".csv", ".tsv", ".jsonl", ".ndjson", ".parquet",
                                              ".arrow", ".feather", ".ipc", ".CSV"};

std::shared_ptr<Batch> TwoColumns(const std::string& second, int input_index) {
  auto batch = std::make_shared<Batch>();
  batch->input_index = input_index;
  testing::AddTextColumn(batch.get(), "a", {"1", "2", std::nullopt});
  testing::AddTextColumn(batch.get(), second, {"x", std::nullopt, "z"});
  return batch;
}

TEST(RowSinkTest, UnsupportedExtensionsAreUsageErrors) {
  TempDir dir;
  auto txt = OpenRowSink(dir.Path("out.txt"), SinkKind::kClean, {});
  ASSERT_FALSE(txt.ok());
  EXPECT_EQ(txt.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(txt.status().message(), "--clean " + dir.Path("out.txt") +
                                        ": unsupported output format (use .csv, .tsv, .jsonl, .ndjson, .parquet, "
                                        ".arrow, .feather or .ipc)");
  auto gz = OpenRowSink(dir.Path("out.csv.gz"), SinkKind::kQuarantine, {});
  ASSERT_FALSE(gz.ok());
  EXPECT_EQ(gz.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(gz.status().message(), "--quarantine " + dir.Path("out.csv.gz") + ": compressed outputs are not supported");
  auto json = OpenRowSink(dir.Path("out.json"), SinkKind::kClean, {});  // an input format only
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(json.status().message(),
            "--clean " + dir.Path("out.json") + ": .json outputs are not supported (use .jsonl for JSON lines)");
  EXPECT_FALSE(OpenRowSink("-", SinkKind::kClean, {}).ok());
  EXPECT_TRUE(ListDir(dir.path()).empty());
}

TEST(RowSinkTest, UnwritableDirectoryIsAnInputError) {
  TempDir dir;
  auto sink = OpenRowSink(dir.Path("missing/out.parquet"), SinkKind::kClean, {});
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), StatusCode::kInputError);
  EXPECT_EQ(sink.status().message().rfind(dir.Path("missing/out.parquet") + ": cannot create a file in ", 0), 0u);
}

TEST(RowSinkTest, NothingUnderTheFinalNameBeforeCommit) {
  for (const std::string& ext : kExtensions) {
    SCOPED_TRACE(ext);
    TempDir dir;
    const std::string path = dir.Path("out" + ext);
    auto batch = TwoColumns("b", 0);
    auto verdicts = MakeVerdicts(*batch, 0, {{1, {{"b.not_null", "b is null"}}}});
    auto sink = OpenRowSink(path, SinkKind::kQuarantine, {});
    ASSERT_TRUE(sink.ok()) << sink.status().message();
    ASSERT_TRUE((*sink)->Write(verdicts->verdicts).ok());
    auto names = ListDir(dir.path());
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0].rfind(".out" + ext + ".tmp-", 0), 0u) << names[0];
    auto done = (*sink)->Commit();
    ASSERT_TRUE(done.ok()) << done.status().message();
    EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out" + ext});
    const std::string bytes = ReadFileBytes(path);
    EXPECT_EQ(done->path, path);
    EXPECT_EQ(done->kind, "quarantine");
    EXPECT_EQ(done->rows, 1);
    EXPECT_EQ(done->bytes, static_cast<int64_t>(bytes.size()));
    EXPECT_EQ(done->sha256, Sha256Hex(bytes));
    EXPECT_FALSE((*sink)->Write(verdicts->verdicts).ok());
    EXPECT_FALSE((*sink)->Commit().ok());
    (*sink)->Abort();  // after a commit: no effect
    EXPECT_EQ(ReadFileBytes(path), bytes);
  }
}

TEST(RowSinkTest, AbortAndDestructionLeaveNothingAndKeepAnOldFile) {
  for (const std::string& ext : kExtensions) {
    SCOPED_TRACE(ext);
    TempDir dir;
    const std::string path = dir.Path("out" + ext);
    auto batch = TwoColumns("b", 0);
    auto verdicts = MakeVerdicts(*batch, 0, {});
    {
      auto sink = OpenRowSink(path, SinkKind::kClean, {});
      ASSERT_TRUE(sink.ok());
      ASSERT_TRUE((*sink)->Write(verdicts->verdicts).ok());
      (*sink)->Abort();
      (*sink)->Abort();
      EXPECT_TRUE(ListDir(dir.path()).empty());
      EXPECT_FALSE((*sink)->Commit().ok());
      EXPECT_TRUE(ListDir(dir.path()).empty());
    }
    dir.Write("out" + ext, "old");
    {
      auto sink = OpenRowSink(path, SinkKind::kClean, {});
      ASSERT_TRUE(sink.ok());
      ASSERT_TRUE((*sink)->Write(verdicts->verdicts).ok());
    }  // destroyed without Commit
    EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out" + ext});
    EXPECT_EQ(ReadFileBytes(path), "old");
    // A commit replaces the old file.
    auto done = WriteOutput(path, SinkKind::kClean, {}, {batch}, {});
    ASSERT_TRUE(done.ok());
    EXPECT_EQ(done->rows, 3);
    EXPECT_NE(ReadFileBytes(path), "old");
    EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out" + ext});
  }
}

TEST(RowSinkTest, InputsWithDifferentColumnsAreAnInputError) {
  for (const std::string& ext : kExtensions) {
    SCOPED_TRACE(ext);
    TempDir dir;
    auto result = WriteOutput(dir.Path("out" + ext), SinkKind::kClean, {},
                              {TwoColumns("b", 0), TwoColumns("b", 0), TwoColumns("c", 1)}, {});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kInputError);
    EXPECT_EQ(result.status().message(),
              "inputs have different columns (input 1: a,b; input 2: a,c); outputs need one schema");
    EXPECT_TRUE(ListDir(dir.path()).empty());  // the failed sink was destroyed
    SinkOptions named;
    named.input_names = {"a.csv", "b.csv"};
    result = WriteOutput(dir.Path("out" + ext), SinkKind::kQuarantine, named, {TwoColumns("b", 0), TwoColumns("c", 1)},
                         {});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().message(),
              "inputs have different columns (a.csv: a,b; b.csv: a,c); outputs need one schema");
  }
}

TEST(RowSinkTest, CleanRowsFollowBadRowsWhenTheBadBytesAreMissing) {
  TempDir dir;
  auto batch = TwoColumns("b", 0);
  auto verdicts = MakeVerdicts(*batch, 10, {{11, {{"c", "m"}}}});
  verdicts->verdicts.bad = nullptr;
  auto sink = OpenRowSink(dir.Path("clean.csv"), SinkKind::kClean, {});
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->Write(verdicts->verdicts).ok());
  auto done = (*sink)->Commit();
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->rows, 2);
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.csv")), "a,b\n1,x\n,z\n");
}

}  // namespace
}  // namespace griffin
