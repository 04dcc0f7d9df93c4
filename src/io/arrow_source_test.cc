#include "io/arrow_source.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "io/io_test_util.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/ipc/writer.h>
#include <parquet/arrow/writer.h>

namespace griffin {
namespace {

using testing::TempDir;

std::shared_ptr<arrow::Table> SampleTable(int64_t rows) {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    if (i % 3 == 0) EXPECT_TRUE(names.AppendNull().ok());
    else EXPECT_TRUE(names.Append("n" + std::to_string(i)).ok());
  }
  auto schema = arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  return arrow::Table::Make(schema, {*ids.Finish(), *names.Finish()});
}

void WriteParquet(const std::shared_ptr<arrow::Table>& table, const std::string& path,
                  int64_t row_group_rows) {
  auto out = arrow::io::FileOutputStream::Open(path);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), *out, row_group_rows).ok());
  ASSERT_TRUE((*out)->Close().ok());
}

void WriteIpc(const std::shared_ptr<arrow::Table>& table, const std::string& path, bool file_format,
              int64_t batch_rows) {
  auto out = arrow::io::FileOutputStream::Open(path);
  ASSERT_TRUE(out.ok());
  auto writer = file_format ? arrow::ipc::MakeFileWriter(*out, table->schema())
                            : arrow::ipc::MakeStreamWriter(*out, table->schema());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteTable(*table, batch_rows).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ASSERT_TRUE((*out)->Close().ok());
}

// Reads every batch; checks the ids run 0..rows-1 and batches hold <= max_rows.
void ExpectSequentialIds(InputSource& source, int64_t rows, int64_t max_rows, int input_index) {
  int64_t next_id = 0;
  for (;;) {
    auto chunk = source.NextChunk();
    ASSERT_TRUE(chunk.ok()) << chunk.status().message();
    if (*chunk == nullptr) break;
    auto batch = (*chunk)->Decode();
    ASSERT_TRUE(batch.ok());
    const Batch& b = **batch;
    EXPECT_LE(b.num_rows, max_rows);
    EXPECT_EQ(b.input_index, input_index);
    ASSERT_EQ(b.columns.size(), 2u);
    EXPECT_EQ(b.columns[0].name, "id");
    EXPECT_EQ(b.columns[1].name, "name");
    EXPECT_NE(b.arrow_keepalive, nullptr);
    auto ids = std::static_pointer_cast<arrow::Int64Array>(b.columns[0].array);
    auto names = std::static_pointer_cast<arrow::StringArray>(b.columns[1].array);
    ASSERT_EQ(ids->length(), b.num_rows);
    for (int64_t row = 0; row < b.num_rows; ++row, ++next_id) {
      EXPECT_EQ(ids->Value(row), next_id);
      EXPECT_EQ(names->IsNull(row), next_id % 3 == 0);
      if (!names->IsNull(row)) {
        EXPECT_EQ(names->GetView(row), "n" + std::to_string(next_id));
      }
    }
  }
  EXPECT_EQ(next_id, rows);
}

TEST(ArrowSourceTest, Parquet) {
  TempDir dir;
  std::string path = dir.Path("t.parquet");
  WriteParquet(SampleTable(1000), path, 300);
  ReadOptions options;
  options.batch_rows = 128;
  auto source = OpenParquetSource(path, options, 4);
  ASSERT_TRUE(source.ok()) << source.status().message();
  ExpectSequentialIds(**source, 1000, 128, 4);
  EXPECT_EQ((*source)->bytes_read(), (*source)->total_bytes());
}

TEST(ArrowSourceTest, ArrowIpcFileAndStream) {
  TempDir dir;
  for (bool file_format : {true, false}) {
    std::string path = dir.Path(file_format ? "t.arrow" : "t.ipc");
    WriteIpc(SampleTable(1000), path, file_format, 400);
    ReadOptions options;
    options.batch_rows = 150;
    auto source = OpenArrowIpcSource(path, options, 1);
    ASSERT_TRUE(source.ok()) << source.status().message();
    ExpectSequentialIds(**source, 1000, 150, 1);
  }
}

TEST(ArrowSourceTest, EmptyFileGivesOneEmptyBatchWithColumns) {
  TempDir dir;
  std::string path = dir.Path("e.parquet");
  WriteParquet(SampleTable(0), path, 100);
  auto source = OpenParquetSource(path, ReadOptions{}, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  auto chunk = (*source)->NextChunk();
  ASSERT_TRUE(chunk.ok() && *chunk != nullptr);
  auto batch = (*chunk)->Decode();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->num_rows, 0);
  ASSERT_EQ((*batch)->columns.size(), 2u);
  EXPECT_EQ((*batch)->columns[1].array->type_id(), arrow::Type::STRING);
  auto end = (*source)->NextChunk();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
}

TEST(ArrowSourceTest, CorruptFilesAreInputErrors) {
  TempDir dir;
  std::string bad = dir.Write("bad.parquet", "a,b\n1,2\n this is a CSV file, not Parquet\n");
  auto parquet = OpenParquetSource(bad, ReadOptions{}, 0);
  ASSERT_FALSE(parquet.ok());
  EXPECT_EQ(parquet.status().code(), StatusCode::kInputError);
  EXPECT_EQ(parquet.status().message().rfind(bad + ": ", 0), 0u) << parquet.status().message();

  std::string bad_ipc = dir.Write("bad.arrow", "definitely not arrow");
  auto ipc = OpenArrowIpcSource(bad_ipc, ReadOptions{}, 0);
  std::string message = ipc.ok() ? testing::FirstError(**ipc) : ipc.status().message();
  EXPECT_EQ(message.rfind(bad_ipc + ": ", 0), 0u) << message;

  // A Parquet file cut short.
  std::string good = dir.Path("good.parquet");
  WriteParquet(SampleTable(100), good, 50);
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string cut = dir.Write("cut.parquet", bytes.substr(0, bytes.size() / 2));
  auto truncated = OpenParquetSource(cut, ReadOptions{}, 0);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().message().rfind(cut + ": ", 0), 0u);
}

TEST(ArrowSourceTest, RecordBatchReaderIsViewedInPlace) {
  arrow::Int64Builder builder;
  ASSERT_TRUE(builder.AppendValues({1, 2, 3, 4, 5}).ok());
  auto array = builder.Finish().ValueOrDie();
  auto schema = arrow::schema({arrow::field("n", arrow::int64())});
  auto record_batch = arrow::RecordBatch::Make(schema, 5, {array});
  auto reader = arrow::RecordBatchReader::Make({record_batch, record_batch}, schema).ValueOrDie();
  ReadOptions options;
  options.batch_rows = 3;
  auto source = OpenRecordBatchReaderSource(reader, "<memory>", options, 2);
  std::vector<int64_t> sizes;
  while (true) {
    auto chunk = source->NextChunk();
    ASSERT_TRUE(chunk.ok());
    if (*chunk == nullptr) break;
    auto batch = (*chunk)->Decode();
    ASSERT_TRUE(batch.ok());
    sizes.push_back((*batch)->num_rows);
    EXPECT_EQ((*batch)->input_index, 2);
    const auto& values = static_cast<const arrow::Int64Array&>(*(*batch)->columns[0].array);
    // A slice of the same buffer: no copy.
    EXPECT_EQ(values.values()->data(), static_cast<const arrow::Int64Array&>(*array).values()->data());
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{3, 2, 3, 2}));
  EXPECT_GT(source->bytes_read(), 0);
}

TEST(ArrowSourceTest, CorruptIpcFileIsAnInputErrorBeforeAnyValueIsRead) {
  // The repro: string offsets [0, 3, 100000000, 6] (SIGBUS before).
  TempDir dir;
  auto offsets = arrow::Buffer::FromVector(std::vector<int32_t>{0, 3, 100000000, 6});
  auto strings = arrow::MakeArray(
      arrow::ArrayData::Make(arrow::utf8(), 3, {nullptr, offsets, arrow::Buffer::FromString("abcdef")}, 0));
  auto schema = arrow::schema({arrow::field("s", arrow::utf8())});
  auto table = arrow::Table::Make(schema, {strings});
  for (bool file_format : {true, false}) {
    const std::string path = dir.Path(file_format ? "bad.arrow" : "bad_stream.arrow");
    WriteIpc(table, path, file_format, 3);
    auto source = OpenArrowIpcSource(path, ReadOptions{}, 0);
    ASSERT_TRUE(source.ok()) << source.status().message();
    auto chunk = (*source)->NextChunk();
    ASSERT_TRUE(chunk.ok() && *chunk != nullptr);
    auto batch = (**chunk).Decode();
    ASSERT_FALSE(batch.ok());
    EXPECT_EQ(batch.status().code(), StatusCode::kInputError);
    EXPECT_EQ(batch.status().message().rfind(path + ": invalid Arrow data in column \"s\"", 0), 0u)
        << batch.status().message();
  }
}

TEST(ArrowSourceTest, IpcBytesInMemoryReadLikeAFile) {
  auto table = SampleTable(10);
  TempDir dir;
  const std::string path = dir.Path("t.arrow");
  WriteIpc(table, path, true, 4);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto source = OpenArrowIpcBuffer(arrow::Buffer::FromString(bytes), "<bytes>", ReadOptions{}, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  ExpectSequentialIds(**source, 10, 4, 0);
}

TEST(ArrowSourceTest, SchemaWiderThanTheColumnLimitIsAnInputError) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  auto empty = arrow::MakeEmptyArray(arrow::int8()).ValueOrDie();
  for (int64_t c = 0; c <= kMaxColumns; ++c) {
    fields.push_back(arrow::field("c" + std::to_string(c), arrow::int8()));
    arrays.push_back(empty);
  }
  auto batch = arrow::RecordBatch::Make(arrow::schema(fields), 0, arrays);
  auto reader = arrow::RecordBatchReader::Make({batch}).ValueOrDie();
  auto source = OpenRecordBatchReaderSource(reader, "<wide>", ReadOptions{});
  auto chunk = source->NextChunk();
  ASSERT_FALSE(chunk.ok());
  EXPECT_EQ(chunk.status().message(), "<wide>: the schema has 100001 columns; at most 100000 are supported");
}

}  // namespace
}  // namespace griffin
