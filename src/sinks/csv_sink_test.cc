// CSV/TSV outputs (through OpenRowSink), read back with the project's reader.
#include <gtest/gtest.h>

#include "sinks/row_sink.h"
#include "sinks/sink_test_util.h"
#include "util/sha256.h"

namespace griffin {
namespace {

using testing::ReadBatches;
using testing::ReadFileBytes;
using testing::RowErrors;
using testing::TempDir;
using testing::TextCells;
using testing::WriteOutput;

const char kInput[] =
    "id,name,amount\n"
    "1,alice,10\n"
    "2,\"Smith, J\nJr\",-5\r\n"
    "3,\"say \"\"hi\"\"\",7\n"
    "4,x\n"
    "5,,3\n"
    "6, padded ,1\n";

RowErrors InputErrors() {
  return {{1, {{"amount.min", "amount -5 is below min 0"}}},
          {4, {{"name.not_null", "name is null"}, {"amount.max", "amount 3 is above max 2"}}}};
}

std::vector<std::shared_ptr<Batch>> InputBatches(const TempDir& dir) {
  ReadOptions options;
  options.batch_rows = 2;
  return ReadBatches(dir.Write("in.csv", kInput), options);
}

TEST(CsvSinkTest, CopiesCsvRowsByteForByteAndAddsFields) {
  TempDir dir;
  auto batches = InputBatches(dir);
  ASSERT_GE(batches.size(), 2u);
  auto clean = WriteOutput(dir.Path("clean.csv"), SinkKind::kClean, {}, batches, InputErrors());
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  auto bad = WriteOutput(dir.Path("bad.csv"), SinkKind::kQuarantine, {}, batches, InputErrors());
  ASSERT_TRUE(bad.ok()) << bad.status().message();

  const std::string clean_text = "id,name,amount\n1,alice,10\n3,\"say \"\"hi\"\"\",7\n6, padded ,1\n";
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.csv")), clean_text);
  EXPECT_EQ(clean->rows, 3);
  EXPECT_EQ(clean->kind, "clean");
  EXPECT_EQ(clean->path, dir.Path("clean.csv"));
  EXPECT_EQ(clean->bytes, static_cast<int64_t>(clean_text.size()));
  EXPECT_EQ(clean->sha256, Sha256Hex(clean_text));

  const std::string bad_text =
      "id,name,amount,_griffin_row,_griffin_errors,_griffin_raw\n"
      "2,\"Smith, J\nJr\",-5,1,\"[{\"\"check\"\":\"\"amount.min\"\",\"\"message\"\":\"\"amount -5 is below min "
      "0\"\"}]\",\n"
      ",,,3,\"[{\"\"check\"\":\"\"malformed\"\",\"\"message\"\":\"\"record has 2 fields, expected 3\"\"}]\","
      "\"4,x\"\n"
      "5,,3,4,\"[{\"\"check\"\":\"\"name.not_null\"\",\"\"message\"\":\"\"name is null\"\"},{\"\"check\"\":"
      "\"\"amount.max\"\",\"\"message\"\":\"\"amount 3 is above max 2\"\"}]\",\n";
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.csv")), bad_text);
  EXPECT_EQ(bad->rows, 3);
  EXPECT_EQ(bad->kind, "quarantine");
  EXPECT_EQ(bad->sha256, Sha256Hex(bad_text));
}

TEST(CsvSinkTest, CleanPlusQuarantineRoundTripToTheInput) {
  TempDir dir;
  auto batches = InputBatches(dir);
  const auto input = TextCells(batches, 3);
  ASSERT_EQ(input.size(), 6u);
  for (const std::string ext : {".csv", ".tsv"}) {
    SCOPED_TRACE(ext);
    ASSERT_TRUE(WriteOutput(dir.Path("clean" + ext), SinkKind::kClean, {}, batches, InputErrors()).ok());
    ASSERT_TRUE(WriteOutput(dir.Path("bad" + ext), SinkKind::kQuarantine, {}, batches, InputErrors()).ok());
    auto clean_batches = ReadBatches(dir.Path("clean" + ext), {});
    auto bad_batches = ReadBatches(dir.Path("bad" + ext), {});
    ASSERT_EQ(bad_batches.size(), 1u);
    const Batch& bad = *bad_batches[0];
    ASSERT_EQ(bad.columns.size(), 6u);
    EXPECT_EQ(bad.columns[3].name, "_griffin_row");
    EXPECT_TRUE(bad.malformed.empty() || bad.malformed == std::vector<uint8_t>(bad.num_rows, 0));
    const auto clean_cells = TextCells(clean_batches, 3);
    const auto bad_cells = TextCells(bad_batches, 6);

    size_t next_clean = 0, next_bad = 0;
    for (size_t row = 0; row < input.size(); ++row) {
      SCOPED_TRACE(row);
      if (next_bad < bad_cells.size() && bad_cells[next_bad][3] == std::to_string(row)) {
        const auto& cells = bad_cells[next_bad++];
        if (row == 3) {  // malformed: no values, its raw text
          EXPECT_EQ(cells, (std::vector<std::string>{"<null>", "<null>", "<null>", "3",
                                                     "[{\"check\":\"malformed\",\"message\":\"record has 2 fields, "
                                                     "expected 3\"}]",
                                                     "4,x"}));
        } else {
          EXPECT_EQ(std::vector<std::string>(cells.begin(), cells.begin() + 3), input[row]);
          EXPECT_EQ(cells[5], "<null>");
        }
      } else {
        ASSERT_LT(next_clean, clean_cells.size());
        EXPECT_EQ(clean_cells[next_clean++], input[row]);
      }
    }
    EXPECT_EQ(next_clean, clean_cells.size());
    EXPECT_EQ(next_bad, bad_cells.size());
    EXPECT_EQ(next_bad, 3u);
  }
}

TEST(CsvSinkTest, OtherDelimitersAreRenderedAndQuoted) {
  TempDir dir;
  ReadOptions tsv_options;
  auto batches = ReadBatches(dir.Write("in.tsv", "a\tb\nx,y\tplain\n\tz\n"), tsv_options);
  SinkOptions options;
  options.input_delimiter = '\t';
  ASSERT_TRUE(WriteOutput(dir.Path("out.csv"), SinkKind::kClean, options, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("out.csv")), "a,b\n\"x,y\",plain\n,z\n");
  // Per-input delimiters win over input_delimiter.
  options.input_delimiter = ',';
  options.input_delimiters = {'\t'};
  ASSERT_TRUE(WriteOutput(dir.Path("out2.csv"), SinkKind::kClean, options, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("out2.csv")), "a,b\n\"x,y\",plain\n,z\n");
  // A TSV output of a TSV input copies rows.
  SinkOptions tsv;
  tsv.input_delimiter = '\t';
  ASSERT_TRUE(WriteOutput(dir.Path("out.tsv"), SinkKind::kClean, tsv, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("out.tsv")), "a\tb\nx,y\tplain\n\tz\n");
}

TEST(CsvSinkTest, VersionTagAndSingleColumnRows) {
  TempDir dir;
  auto batches = ReadBatches(dir.Write("in.csv", "v\nx\n\"\"\n"), {});
  SinkOptions tagged;
  tagged.version_tag = 42;
  ASSERT_TRUE(WriteOutput(dir.Path("tagged.csv"), SinkKind::kClean, tagged, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("tagged.csv")), "v,_griffin_version\nx,42\n\"\",42\n");
  // The tag is for clean outputs only.
  ASSERT_TRUE(WriteOutput(dir.Path("bad.csv"), SinkKind::kQuarantine, tagged, batches, {{0, {{"c", "m"}}}}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.csv")),
            "v,_griffin_row,_griffin_errors,_griffin_raw\n"
            "x,0,\"[{\"\"check\"\":\"\"c\"\",\"\"message\"\":\"\"m\"\"}]\",\n");
  // A lone empty field is written "" (an empty line would be no row).
  SinkOptions semicolon;
  semicolon.csv_delimiter = ';';
  ASSERT_TRUE(WriteOutput(dir.Path("semi.csv"), SinkKind::kClean, semicolon, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("semi.csv")), "v\nx\n\"\"\n");
}

TEST(CsvSinkTest, TypedValuesAreRenderedCanonically) {
  TempDir dir;
  std::vector<std::shared_ptr<Batch>> batches = {testing::TypedBatch(0, 3), testing::TypedBatch(3, 2)};
  ASSERT_TRUE(WriteOutput(dir.Path("clean.csv"), SinkKind::kClean, {}, batches, {{2, {{"c", "m"}}}}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.csv")),
            "id,score,name,ts\n"
            "0,0.25,\"n\"\"0\",2024-01-02T03:04:05Z\n"
            "10,,,2024-01-02T03:04:06.000001Z\n"
            "30,3.25,\"n,3\",2024-01-02T03:04:08.000003Z\n"
            ",,,2024-01-02T03:04:09.000004Z\n");
  ASSERT_TRUE(WriteOutput(dir.Path("bad.jsonl"), SinkKind::kQuarantine, {}, batches, {{2, {{"c", "m"}}}}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.jsonl")),
            "{\"id\":20,\"score\":2.25,\"name\":\"n\\\"2\",\"ts\":\"2024-01-02T03:04:07.000002Z\","
            "\"_griffin_row\":2,\"_griffin_errors\":[{\"check\":\"c\",\"message\":\"m\"}]}\n");
}

TEST(CsvSinkTest, EmptyInputsStillGetAHeader) {
  TempDir dir;
  auto batches = ReadBatches(dir.Write("in.csv", "a,b\n"), {});
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0]->num_rows, 0);
  ASSERT_TRUE(WriteOutput(dir.Path("clean.csv"), SinkKind::kClean, {}, batches, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.csv")), "a,b\n");
  ASSERT_TRUE(WriteOutput(dir.Path("bad.csv"), SinkKind::kQuarantine, {}, {}, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.csv")), "_griffin_row,_griffin_errors,_griffin_raw\n");
}

TEST(CsvSinkTest, RerunsAreByteIdentical) {
  TempDir dir;
  auto batches = InputBatches(dir);
  for (const std::string ext : {".csv", ".jsonl", ".parquet", ".arrow"}) {
    SCOPED_TRACE(ext);
    auto first = WriteOutput(dir.Path("a" + ext), SinkKind::kQuarantine, {}, batches, InputErrors());
    auto second = WriteOutput(dir.Path("b" + ext), SinkKind::kQuarantine, {}, batches, InputErrors());
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_EQ(ReadFileBytes(dir.Path("a" + ext)), ReadFileBytes(dir.Path("b" + ext)));
    EXPECT_EQ(first->sha256, second->sha256);
    EXPECT_EQ(first->sha256, Sha256Hex(ReadFileBytes(dir.Path("a" + ext))));
  }
}

}  // namespace
}  // namespace griffin
