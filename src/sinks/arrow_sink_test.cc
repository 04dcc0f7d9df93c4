// Parquet and Arrow IPC outputs (through OpenRowSink), read back with Arrow's
// own readers.
#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>

#include "sinks/row_sink.h"
#include "sinks/sink_test_util.h"

namespace griffin {
namespace {

using testing::ReadBatches;
using testing::ReadFileBytes;
using testing::RowErrors;
using testing::TempDir;
using testing::TypedBatch;
using testing::WriteOutput;

// The file's table and its number of row groups / record batches.
std::shared_ptr<arrow::Table> ReadTable(const std::string& path, int* groups = nullptr) {
  auto file = arrow::io::ReadableFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return nullptr;
  std::shared_ptr<arrow::Table> table;
  if (path.ends_with(".parquet")) {
    auto reader = parquet::arrow::OpenFile(*file, arrow::default_memory_pool());
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return nullptr;
    auto read = (*reader)->ReadTable();
    EXPECT_TRUE(read.ok());
    if (!read.ok()) return nullptr;
    table = *read;
    if (groups) *groups = (*reader)->num_row_groups();
  } else {
    auto reader = arrow::ipc::RecordBatchFileReader::Open(*file);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return nullptr;
    auto read = (*reader)->ToTable();
    EXPECT_TRUE(read.ok());
    if (!read.ok()) return nullptr;
    table = *read;
    if (groups) *groups = (*reader)->num_record_batches();
  }
  return table;
}

std::string Cell(const arrow::Table& table, const std::string& column, int64_t row) {
  auto chunked = table.GetColumnByName(column);
  EXPECT_NE(chunked, nullptr) << column;
  if (!chunked) return "<no column>";
  auto scalar = chunked->GetScalar(row);
  EXPECT_TRUE(scalar.ok());
  return (*scalar)->is_valid ? (*scalar)->ToString() : "<null>";
}

// The errors of a quarantine row as "check: message; ...".
std::string ErrorsCell(const arrow::Table& table, int64_t row) {
  auto scalar = table.GetColumnByName("_griffin_errors")->GetScalar(row);
  EXPECT_TRUE(scalar.ok());
  const auto& items = static_cast<const arrow::StructArray&>(*static_cast<const arrow::ListScalar&>(**scalar).value);
  const auto& checks = static_cast<const arrow::StringArray&>(*items.field(0));
  const auto& messages = static_cast<const arrow::StringArray&>(*items.field(1));
  std::string text;
  for (int64_t i = 0; i < items.length(); ++i)
    text += (i ? "; " : "") + std::string(checks.GetView(i)) + ": " + std::string(messages.GetView(i));
  return text;
}

std::string Cell(const Batch& batch, int column, int64_t row) {
  auto scalar = batch.columns[column].array->GetScalar(row);
  return (*scalar)->is_valid ? (*scalar)->ToString() : "<null>";
}

class ArrowSinkTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Path(const std::string& name) const { return dir_.Path(name + GetParam()); }
  TempDir dir_;
};

INSTANTIATE_TEST_SUITE_P(Formats, ArrowSinkTest, ::testing::Values(".parquet", ".arrow", ".feather"),
                         [](const auto& info) { return info.param.substr(1); });

TEST_P(ArrowSinkTest, TypedInputsRoundTripWithTheirTypes) {
  std::vector<std::shared_ptr<Batch>> batches = {TypedBatch(0, 4), TypedBatch(4, 0), TypedBatch(4, 3)};
  auto all = TypedBatch(0, 7);
  const RowErrors errors = {{1, {{"score.not_null", "score is null"}}},
                            {5, {{"id.min", "id 50 is below min 60"}, {"name.regex", "name 'n,5' does not match"}}}};
  SinkOptions tagged;
  tagged.version_tag = 9;
  auto clean = WriteOutput(Path("clean"), SinkKind::kClean, tagged, batches, errors);
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  auto bad = WriteOutput(Path("bad"), SinkKind::kQuarantine, tagged, batches, errors);
  ASSERT_TRUE(bad.ok()) << bad.status().message();
  EXPECT_EQ(clean->rows, 5);
  EXPECT_EQ(bad->rows, 2);
  EXPECT_EQ(clean->bytes, static_cast<int64_t>(ReadFileBytes(Path("clean")).size()));

  auto clean_table = ReadTable(Path("clean"));
  auto bad_table = ReadTable(Path("bad"));
  ASSERT_TRUE(clean_table && bad_table);
  EXPECT_EQ(clean_table->schema()->ToString(),
            "id: int64\nscore: double\nname: string\nts: timestamp[us, tz=UTC]\n_griffin_version: int64 not null");
  EXPECT_EQ(bad_table->schema()->ToString(),
            "id: int64\nscore: double\nname: string\nts: timestamp[us, tz=UTC]\n_griffin_row: int64 not null\n"
            "_griffin_errors: list<element: struct<check: string, message: string>> not null\n_griffin_raw: string");
  ASSERT_EQ(clean_table->num_rows(), 5);
  ASSERT_EQ(bad_table->num_rows(), 2);
  const std::vector<std::string> names = {"id", "score", "name", "ts"};
  int64_t next_clean = 0, next_bad = 0;
  for (int64_t row = 0; row < 7; ++row) {
    const bool is_bad = row == 1 || row == 5;
    const arrow::Table& table = is_bad ? *bad_table : *clean_table;
    const int64_t out_row = is_bad ? next_bad++ : next_clean++;
    for (size_t c = 0; c < names.size(); ++c)
      EXPECT_EQ(Cell(table, names[c], out_row), Cell(*all, static_cast<int>(c), row)) << names[c] << " " << row;
    if (is_bad) {
      EXPECT_EQ(Cell(table, "_griffin_row", out_row), std::to_string(row));
      EXPECT_EQ(Cell(table, "_griffin_raw", out_row), "<null>");
    } else {
      EXPECT_EQ(Cell(table, "_griffin_version", out_row), "9");
    }
  }
  EXPECT_EQ(ErrorsCell(*bad_table, 0), "score.not_null: score is null");
  EXPECT_EQ(ErrorsCell(*bad_table, 1), "id.min: id 50 is below min 60; name.regex: name 'n,5' does not match");
  EXPECT_EQ(Cell(*clean_table, "ts", 0), "2024-01-02 03:04:05.000000Z");
}

TEST_P(ArrowSinkTest, TextInputsBecomeStringColumnsAndMalformedRowsKeepTheirRaw) {
  ReadOptions options;
  options.batch_rows = 2;
  auto batches = ReadBatches(dir_.Write("in.csv", "id,name\n1,a\n2,\"b,\nc\"\n3\n4,\n"), options);
  ASSERT_TRUE(WriteOutput(Path("clean"), SinkKind::kClean, {}, batches, {{1, {{"c", "m"}}}}).ok());
  ASSERT_TRUE(WriteOutput(Path("bad"), SinkKind::kQuarantine, {}, batches, {{1, {{"c", "m"}}}}).ok());
  auto clean = ReadTable(Path("clean"));
  auto bad = ReadTable(Path("bad"));
  ASSERT_TRUE(clean && bad);
  EXPECT_EQ(clean->schema()->ToString(), "id: string\nname: string");
  ASSERT_EQ(clean->num_rows(), 2);
  EXPECT_EQ(Cell(*clean, "id", 0), "1");
  EXPECT_EQ(Cell(*clean, "name", 0), "a");
  EXPECT_EQ(Cell(*clean, "id", 1), "4");
  EXPECT_EQ(Cell(*clean, "name", 1), "<null>");
  ASSERT_EQ(bad->num_rows(), 2);
  EXPECT_EQ(Cell(*bad, "id", 0), "2");
  EXPECT_EQ(Cell(*bad, "name", 0), "b,\nc");
  EXPECT_EQ(Cell(*bad, "_griffin_raw", 0), "<null>");
  EXPECT_EQ(Cell(*bad, "id", 1), "<null>");
  EXPECT_EQ(Cell(*bad, "name", 1), "<null>");
  EXPECT_EQ(Cell(*bad, "_griffin_row", 1), "2");
  EXPECT_EQ(Cell(*bad, "_griffin_raw", 1), "3");
  EXPECT_EQ(ErrorsCell(*bad, 1), "malformed: record has 1 field, expected 2");
}

TEST_P(ArrowSinkTest, GroupsOf64KRowsWhateverTheBatching) {
  RowErrors errors;
  for (int64_t row = 0; row < 70000; row += 100) errors[row] = {{"c", "row " + std::to_string(row)}};
  std::vector<std::shared_ptr<Batch>> small, large;
  for (int64_t first = 0; first < 70000; first += 1000) small.push_back(TypedBatch(first, 1000));
  for (int64_t first = 0; first < 70000; first += 35000) large.push_back(TypedBatch(first, 35000));
  ASSERT_TRUE(WriteOutput(Path("small"), SinkKind::kClean, {}, small, errors).ok());
  ASSERT_TRUE(WriteOutput(Path("large"), SinkKind::kClean, {}, large, errors).ok());
  EXPECT_TRUE(ReadFileBytes(Path("small")) == ReadFileBytes(Path("large")));
  int groups = 0;
  auto table = ReadTable(Path("small"), &groups);
  ASSERT_TRUE(table);
  EXPECT_EQ(groups, 2);
  ASSERT_EQ(table->num_rows(), 69300);
  EXPECT_EQ(Cell(*table, "id", 0), "10");
  EXPECT_EQ(Cell(*table, "id", 69298), "699980");
  EXPECT_EQ(Cell(*table, "id", 69299), "<null>");  // row 69999
  // Clean row 65536 (the second group's first) is input row 66198.
  EXPECT_EQ(Cell(*table, "name", 65536), "n\"66198");
  EXPECT_EQ(Cell(*table, "name", 65535), "n,66197");
  auto bad = WriteOutput(Path("bad"), SinkKind::kQuarantine, {}, small, errors);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->rows, 700);
  auto bad_table = ReadTable(Path("bad"), &groups);
  EXPECT_EQ(groups, 1);
  EXPECT_EQ(Cell(*bad_table, "_griffin_row", 699), "69900");
  EXPECT_EQ(ErrorsCell(*bad_table, 699), "c: row 69900");
}

TEST_P(ArrowSinkTest, EmptyInputsStillGetASchema) {
  ASSERT_TRUE(WriteOutput(Path("clean"), SinkKind::kClean, {}, {TypedBatch(0, 0)}, {}).ok());
  auto clean = ReadTable(Path("clean"));
  ASSERT_TRUE(clean);
  EXPECT_EQ(clean->num_rows(), 0);
  EXPECT_EQ(clean->schema()->ToString(), "id: int64\nscore: double\nname: string\nts: timestamp[us, tz=UTC]");
  ASSERT_TRUE(WriteOutput(Path("bad"), SinkKind::kQuarantine, {}, {}, {}).ok());
  auto bad = ReadTable(Path("bad"));
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->num_rows(), 0);
  EXPECT_EQ(bad->num_columns(), 3);
}

TEST_P(ArrowSinkTest, LaterTypedInputsRenderIntoTextColumnsButNotTheReverse) {
  auto text = ReadBatches(dir_.Write("in.csv", "id,score,name,ts\n1,2,x,y\n"), {});
  ASSERT_EQ(text.size(), 1u);
  ASSERT_TRUE(WriteOutput(Path("mixed"), SinkKind::kClean, {}, {text[0], TypedBatch(0, 2, 1)}, {}).ok());
  auto mixed = ReadTable(Path("mixed"));
  ASSERT_TRUE(mixed);
  EXPECT_EQ(mixed->schema()->ToString(), "id: string\nscore: string\nname: string\nts: string");
  ASSERT_EQ(mixed->num_rows(), 3);
  EXPECT_EQ(Cell(*mixed, "score", 1), "0.25");
  EXPECT_EQ(Cell(*mixed, "ts", 2), "2024-01-02T03:04:06.000001Z");
  SinkOptions options;
  options.input_names = {"a.parquet", "b.csv"};
  text[0]->input_index = 1;
  auto typed_first = WriteOutput(Path("bad_mix"), SinkKind::kClean, options, {TypedBatch(0, 2), text[0]}, {});
  ASSERT_FALSE(typed_first.ok());
  EXPECT_EQ(typed_first.status().code(), StatusCode::kInputError);
  EXPECT_EQ(typed_first.status().message(),
            "b.csv: column id is text, but an earlier input made it int64; outputs need one schema");
}

// SinkOptions::parquet_codec is the codec of every column chunk, and the rows
// read back are the same for every codec; the names map as the CLI gives them.
TEST(ParquetCodecTest, EachCodecWritesReadableFilesWithThatCodec) {
  TempDir dir;
  std::vector<std::shared_ptr<Batch>> batches = {TypedBatch(0, 7)};
  const std::vector<std::pair<std::string, parquet::Compression::type>> codecs = {
      {"snappy", parquet::Compression::SNAPPY}, {"zstd", parquet::Compression::ZSTD},
      {"lz4", parquet::Compression::LZ4}, {"none", parquet::Compression::UNCOMPRESSED}};
  std::shared_ptr<arrow::Table> first;
  for (const auto& [name, expected] : codecs) {
    SinkOptions options;
    std::optional<ParquetCodec> codec = ParquetCodecNamed(name);
    ASSERT_TRUE(codec.has_value()) << name;
    options.parquet_codec = *codec;
    const std::string path = dir.Path(name + ".parquet");
    ASSERT_TRUE(WriteOutput(path, SinkKind::kClean, options, batches, {}).ok()) << name;
    auto reader = parquet::ParquetFileReader::OpenFile(path);
    auto metadata = reader->metadata();
    ASSERT_GE(metadata->num_row_groups(), 1);
    for (int c = 0; c < metadata->num_columns(); ++c)
      EXPECT_EQ(metadata->RowGroup(0)->ColumnChunk(c)->compression(), expected) << name << " column " << c;
    auto table = ReadTable(path);
    ASSERT_TRUE(table) << name;
    if (!first) first = table;
    EXPECT_TRUE(table->Equals(*first)) << name;
  }
  EXPECT_TRUE(IsParquetOutput("out.parquet"));
  EXPECT_TRUE(IsParquetOutput("s3://bucket/out.parquet?endpoint=http://127.0.0.1:9"));
  EXPECT_FALSE(IsParquetOutput("out.csv"));
  EXPECT_FALSE(IsParquetOutput(""));
  // --parquet-compression also reaches a Delta table's data files, and only those tables.
  EXPECT_TRUE(WritesParquetPages("out.parquet"));
  EXPECT_TRUE(WritesParquetPages("delta:/tmp/table"));
  EXPECT_TRUE(WritesParquetPages("delta:s3://bucket/table"));
  EXPECT_FALSE(WritesParquetPages("out.csv"));
  EXPECT_FALSE(WritesParquetPages("s3://bucket/out.csv"));
  EXPECT_FALSE(WritesParquetPages("postgresql://u@127.0.0.1/db?table=t"));
  EXPECT_FALSE(WritesParquetPages(""));
}

}  // namespace
}  // namespace griffin
