#include "io/csv_chunker.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <random>
#include <thread>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::Rows;
using testing::TempDir;
using Cells = std::vector<std::vector<std::string>>;

std::unique_ptr<InputSource> SourceOver(const TempDir& dir, const std::string& bytes,
                                        ReadOptions options = {}, char delimiter = ',') {
  std::string path = dir.Write("in.csv", bytes);
  auto stream = OpenByteStream(path, Compression::kNone);
  EXPECT_TRUE(stream.ok());
  return MakeCsvSource(std::move(*stream), path, options, delimiter, /*input_index=*/0,
                       static_cast<int64_t>(bytes.size()));
}

TEST(CsvChunkerTest, HeaderNamesColumns) {
  TempDir dir;
  auto source = SourceOver(dir, "id,\"na,me\",\"q\"\"\"\n1,a,b\n");
  Rows rows = testing::ReadAll(*source);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"id", "na,me", "q\""}));
  EXPECT_EQ(rows.cells, (Cells{{"1", "a", "b"}}));
}

TEST(CsvChunkerTest, ByteOrderMarkIsSkipped) {
  TempDir dir;
  auto source = SourceOver(dir, "\xEF\xBB\xBFid,v\r\n1,2\r\n");
  Rows rows = testing::ReadAll(*source);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"id", "v"}));
  EXPECT_EQ(rows.cells, (Cells{{"1", "2"}}));
}

TEST(CsvChunkerTest, HeaderOnlyGivesOneEmptyBatchWithColumns) {
  TempDir dir;
  for (std::string text : {"a,b\n", "a,b"}) {
    auto source = SourceOver(dir, text);
    int64_t batches = 0;
    Rows rows = testing::ReadAll(*source, &batches);
    EXPECT_EQ(batches, 1);
    EXPECT_EQ(rows.columns, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(rows.cells.empty());
  }
}

TEST(CsvChunkerTest, EmptyInputGivesOneEmptyBatch) {
  TempDir dir;
  auto source = SourceOver(dir, "");
  int64_t batches = 0;
  Rows rows = testing::ReadAll(*source, &batches);
  EXPECT_EQ(batches, 1);
  EXPECT_TRUE(rows.columns.empty());
}

TEST(CsvChunkerTest, BadHeaders) {
  TempDir dir;
  auto duplicate = SourceOver(dir, "a,b,a\n1,2,3\n");
  EXPECT_EQ(testing::FirstError(*duplicate),
            dir.Path("in.csv") + ":1: duplicate column name \"a\" in the header");
  auto unterminated = SourceOver(dir, "a,\"b\n1,2\n");
  EXPECT_EQ(testing::FirstError(*unterminated),
            dir.Path("in.csv") + ":1: malformed header: unterminated quoted field");
  auto after_quote = SourceOver(dir, "a,\"b\"x\n1,2\n");
  EXPECT_EQ(testing::FirstError(*after_quote),
            dir.Path("in.csv") +
                ":1: malformed header: unexpected character after closing quote in field 2");
  auto utf8 = SourceOver(dir, "a,\xFF\n");
  EXPECT_EQ(testing::FirstError(*utf8),
            dir.Path("in.csv") + ":1: malformed header: invalid UTF-8 at byte 3");
}

TEST(CsvChunkerTest, MoreThanTheColumnLimitIsAnInputError) {
  TempDir dir;
  std::string header = "c0";
  for (int64_t c = 1; c <= kMaxColumns; ++c) header += ",c" + std::to_string(c);
  auto wide = SourceOver(dir, header + "\n");
  EXPECT_EQ(testing::FirstError(*wide),
            dir.Path("in.csv") + ":1: the record has 100001 fields; at most 100000 columns are supported");
  std::string at_limit = "c1";
  for (int64_t c = 2; c <= kMaxColumns; ++c) at_limit += ",c" + std::to_string(c);
  auto fits = SourceOver(dir, at_limit + "\n");
  auto chunk = fits->NextChunk();
  EXPECT_TRUE(chunk.ok()) << chunk.status().message();
}

TEST(CsvChunkerTest, NoHeaderNamesColumnsByPosition) {
  TempDir dir;
  ReadOptions options;
  options.header = false;
  auto source = SourceOver(dir, "\n1,\"x\ny\",3\n4,5,6", options);
  Rows rows = testing::ReadAll(*source);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"column_1", "column_2", "column_3"}));
  EXPECT_EQ(rows.cells, (Cells{{"1", "x\ny", "3"}, {"4", "5", "6"}}));
}

TEST(CsvChunkerTest, ProjectionKeepsTheNamedColumnsWithOrWithoutAHeader) {
  TempDir dir;
  ReadOptions options;
  options.json_columns = {"c", "a", "missing"};
  options.project_text_columns = true;
  Rows rows = testing::ReadAll(*SourceOver(dir, "a,b,c\n1,x,3\n4,\"y\"z,6\n", options));
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"a", "c"}));  // input order; "missing" absent
  EXPECT_EQ(rows.cells, (Cells{{"1", "3"}, {"<malformed: unexpected character after closing quote in field 2>"}}));

  options.header = false;
  options.json_columns = {"column_2"};
  rows = testing::ReadAll(*SourceOver(dir, "1,2,3\n4,5\n", options));
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"column_2"}));
  EXPECT_EQ(rows.cells, (Cells{{"2"}, {"<malformed: record has 2 fields, expected 3>"}}));

  options.project_text_columns = false;  // the default: every column
  rows = testing::ReadAll(*SourceOver(dir, "1,2,3\n", options));
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"column_1", "column_2", "column_3"}));
}

// Tricky input read with every small batch size and chunk size gives the same rows.
TEST(CsvChunkerTest, ChunkingNeverChangesRows) {
  const std::string text =
      "a,b,c\r\n1,\"x\ny\",z\r\n\n2,\"q\"\"\n\"\"\",w\n3,4\n\"5\"x,6,7\n8,\"9,10\",11\r\n"
      "\r\n12,\"\",\"13\n\n14\"\n15,16,\"unterminated\n17,18,19\n";
  TempDir dir;
  Rows expected = testing::ReadAll(*SourceOver(dir, text));
  ASSERT_EQ(expected.cells.size(), 7u);
  EXPECT_EQ(expected.cells[1], (std::vector<std::string>{"2", "q\"\n\"", "w"}));
  EXPECT_EQ(expected.cells[6], (std::vector<std::string>{"<malformed: unterminated quoted field>"}));
  for (int64_t batch_rows = 1; batch_rows <= 7; ++batch_rows) {
    for (int64_t chunk_bytes : {1, 5, 16, 1 << 20}) {
      ReadOptions options;
      options.batch_rows = batch_rows;
      options.chunk_bytes = chunk_bytes;
      int64_t batches = 0;
      Rows rows = testing::ReadAll(*SourceOver(dir, text, options), &batches);
      EXPECT_EQ(rows.cells, expected.cells) << batch_rows << " " << chunk_bytes;
      EXPECT_EQ(rows.raw, expected.raw) << batch_rows << " " << chunk_bytes;
      EXPECT_GE(batches, (7 + batch_rows - 1) / batch_rows);
    }
  }
}

TEST(CsvChunkerTest, BatchesHoldAtMostBatchRows) {
  std::string text = "v\n";
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + "\n";
  TempDir dir;
  ReadOptions options;
  options.batch_rows = 64;
  auto source = SourceOver(dir, text, options);
  int64_t total = 0;
  for (;;) {
    auto chunk = source->NextChunk();
    ASSERT_TRUE(chunk.ok());
    if (*chunk == nullptr) break;
    auto batch = (*chunk)->Decode();
    ASSERT_TRUE(batch.ok());
    EXPECT_LE((*batch)->num_rows, 64);
    total += (*batch)->num_rows;
  }
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(source->bytes_read(), static_cast<int64_t>(text.size()));
}

TEST(CsvChunkerTest, RecordLargerThanChunkBytes) {
  std::string big(3 << 20, 'y');
  TempDir dir;
  ReadOptions options;
  options.chunk_bytes = 1 << 16;
  Rows rows = testing::ReadAll(*SourceOver(dir, "a,b\n1,\"" + big + "\"\n2," + big + "\n", options));
  ASSERT_EQ(rows.cells.size(), 2u);
  EXPECT_EQ(rows.cells[0][1], big);
  EXPECT_EQ(rows.cells[1][1], big);
}

TEST(CsvChunkerTest, BinaryGarbageNeverCrashes) {
  std::mt19937 random(42);
  std::string garbage(1 << 16, '\0');
  for (char& c : garbage) c = static_cast<char>(random());
  TempDir dir;
  ReadOptions options;
  options.batch_rows = 3;
  options.chunk_bytes = 100;
  auto source = SourceOver(dir, garbage, options);
  std::string error = testing::FirstError(*source);
  // Either a header error or rows, most of them malformed; never a crash.
  if (error.empty()) {
    Rows rows = testing::ReadAll(*SourceOver(dir, garbage, options));
    EXPECT_FALSE(rows.cells.empty());
  } else {
    EXPECT_NE(error.find(":1: "), std::string::npos) << error;
  }
}

TEST(CsvChunkerTest, ReadsFromAPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string text = "k,v\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + ",\"v" + std::to_string(i) + "\"\n";
  std::thread writer([&] {
    size_t at = 0;
    while (at < text.size()) {
      ssize_t n = ::write(fds[1], text.data() + at, std::min<size_t>(4096, text.size() - at));
      if (n <= 0) break;
      at += n;
    }
    ::close(fds[1]);
  });
  ReadOptions options;
  options.chunk_bytes = 10000;
  auto source = MakeCsvSource(MakeFdStream(fds[0], "<stdin>", /*owns_fd=*/true), "<stdin>",
                              options, ',', 0, -1);
  Rows rows = testing::ReadAll(*source);
  writer.join();
  ASSERT_EQ(rows.cells.size(), 20000u);
  EXPECT_EQ(rows.cells[19999], (std::vector<std::string>{"19999", "v19999"}));
  EXPECT_EQ(source->total_bytes(), -1);
}

TEST(CsvRecordScannerTest, CountsRecordsAndStopsBeforeIncompleteOnes) {
  CsvRecordScanner scanner(',', '"');
  std::string text = "a,b\n\"x\ny\",z\n\"open\n";
  int64_t records = 0;
  size_t end = scanner.Scan(text.data(), text.size(), 0, text.size(), 100, &records);
  EXPECT_EQ(records, 2);
  EXPECT_EQ(end, 12u);
  records = 0;
  EXPECT_EQ(scanner.Scan(text.data(), text.size(), 0, text.size(), 1, &records), 4u);
  EXPECT_EQ(records, 1);
  records = 0;
  EXPECT_EQ(scanner.Scan(text.data(), text.size(), 0, 2, 100, &records), 4u);  // stop_at
}

}  // namespace
}  // namespace griffin
