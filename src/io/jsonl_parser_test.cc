#include "io/jsonl_parser.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::Rows;
using Cells = std::vector<std::vector<std::string>>;

std::shared_ptr<Batch> DecodeText(const std::string& text, std::vector<std::string> columns) {
  JsonlLayout layout;
  layout.name = "t.jsonl";
  layout.columns = std::move(columns);
  int64_t records = std::count(text.begin(), text.end(), '\n') + 1;
  return DecodeJsonl(layout, testing::MakeSpan(text, records));
}

Rows RowsOf(const std::string& text, std::vector<std::string> columns) {
  Rows rows;
  testing::AppendRows(*DecodeText(text, std::move(columns)), &rows);
  return rows;
}

TEST(JsonlParserTest, ExtractsValuesByKind) {
  auto batch = DecodeText(
      "{\"s\": \"a\\\"b\", \"n\": 3.0e2 , \"b\": true, \"o\": {\"x\": [1, 2]}, \"z\": null}\n"
      "{\"s\": \"plain\", \"n\": -7, \"b\": false, \"o\": [1,{\"y\":2}], \"extra\": 1}\n",
      {"s", "n", "b", "o", "z", "missing"});
  ASSERT_EQ(batch->num_rows, 2);
  const auto& s = batch->columns[0].text;
  EXPECT_EQ(s.values[0], "a\"b");
  EXPECT_EQ(s.values[1], "plain");
  EXPECT_EQ(s.json_kinds[0], JsonKind::kString);
  const auto& n = batch->columns[1].text;
  EXPECT_EQ(n.values[0], "3.0e2");
  EXPECT_EQ(n.values[1], "-7");
  EXPECT_EQ(n.json_kinds[1], JsonKind::kNumber);
  const auto& b = batch->columns[2].text;
  EXPECT_EQ(b.values[0], "true");
  EXPECT_EQ(b.values[1], "false");
  EXPECT_EQ(b.json_kinds[0], JsonKind::kBool);
  const auto& o = batch->columns[3].text;
  EXPECT_EQ(o.values[0], "{\"x\": [1, 2]}");
  EXPECT_EQ(o.values[1], "[1,{\"y\":2}]");
  EXPECT_EQ(o.json_kinds[1], JsonKind::kOther);
  const auto& z = batch->columns[4].text;
  EXPECT_EQ(z.is_null, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(z.json_kinds[0], JsonKind::kNull);
  EXPECT_EQ(batch->column_seen, (std::vector<uint8_t>{1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(batch->raw_records[1].substr(0, 16), "{\"s\": \"plain\", \"");
  EXPECT_TRUE(batch->malformed.empty());
}

TEST(JsonlParserTest, NullValuesMatchStringsOnly) {
  JsonlLayout layout;
  layout.name = "t.jsonl";
  layout.columns = {"s"};
  layout.nulls = NullMatcher({"", "NA", "7"});
  const std::string text =
      "{\"s\": \"NA\"}\n{\"s\": \"\"}\n{\"s\": \"N\\u0041\"}\n{\"s\": 7}\n{\"s\": \"na\"}\n"
      "{\"s\": \" NA\"}\n";
  auto batch = DecodeJsonl(layout, testing::MakeSpan(text, 6));
  ASSERT_EQ(batch->num_rows, 6);
  const auto& s = batch->columns[0].text;
  EXPECT_EQ(s.is_null, (std::vector<uint8_t>{1, 1, 1, 0, 0, 0}));  // escaped "NA" too; case and spaces count
  EXPECT_EQ(s.json_kinds[0], JsonKind::kNull);
  EXPECT_EQ(s.json_kinds[3], JsonKind::kNumber);  // a number is never a null spelling
  EXPECT_EQ(s.values[4], "na");
  EXPECT_EQ(batch->column_seen, (std::vector<uint8_t>{1}));
}

TEST(JsonlParserTest, MalformedLines) {
  Rows rows = RowsOf(
      "{\"a\": 1}\n[1, 2]\n\"text\"\n{\"a\": tru}\n{\"a\": 1} {\"a\": 2}\n{\"a\": \"\xFF\"}\n"
      "{\"a\": {\"x\": [1,}}\n{\"a\": 2}\r\n",
      {"a"});
  ASSERT_EQ(rows.cells.size(), 8u);
  EXPECT_EQ(rows.cells[0], (std::vector<std::string>{"1"}));
  EXPECT_EQ(rows.cells[1], (std::vector<std::string>{"<malformed: line is not a JSON object>"}));
  EXPECT_EQ(rows.cells[2], (std::vector<std::string>{"<malformed: line is not a JSON object>"}));
  EXPECT_EQ(rows.cells[3][0].rfind("<malformed: invalid JSON: ", 0), 0u) << rows.cells[3][0];
  EXPECT_EQ(rows.cells[4][0].rfind("<malformed: invalid JSON: ", 0), 0u) << rows.cells[4][0];
  EXPECT_EQ(rows.cells[5], (std::vector<std::string>{"<malformed: invalid UTF-8 at byte 8 of the record>"}));
  EXPECT_EQ(rows.cells[6][0].rfind("<malformed: invalid JSON: ", 0), 0u) << rows.cells[6][0];
  EXPECT_EQ(rows.cells[7], (std::vector<std::string>{"2"}));
  EXPECT_EQ(rows.raw[7], "{\"a\": 2}");
}

TEST(JsonlParserTest, OutOfRangeNumbersAreValuesNotMalformedRows) {
  // simdjson's DOM parser refuses them; JSON does not (io/json_syntax.h).
  Rows rows = RowsOf("{\"a\": 1e999}\n{\"a\": 99999999999999999999999, \"b\": [-1E400]}\n{\"a\": 1e999 \"b\": 1}\n"
                     "[1e999]\n",
                     {"a"});
  ASSERT_EQ(rows.cells.size(), 4u);
  EXPECT_EQ(rows.cells[0], (std::vector<std::string>{"1e999"}));
  EXPECT_EQ(rows.cells[1], (std::vector<std::string>{"99999999999999999999999"}));
  EXPECT_EQ(rows.cells[2][0].rfind("<malformed: invalid JSON: ", 0), 0u) << rows.cells[2][0];
  EXPECT_EQ(rows.cells[3], (std::vector<std::string>{"<malformed: line is not a JSON object>"}));
}

TEST(JsonlParserTest, BlankLinesAreNotRowsAndNoTrailingNewline) {
  Rows rows = RowsOf("\n  \n{\"a\":\"x\"}\n\t\r\n{\"a\":5}", {"a"});
  EXPECT_EQ(rows.cells, (Cells{{"x"}, {"5"}}));
}

TEST(JsonlParserTest, RepeatedKeyLastWinsAndEmptyObject) {
  Rows rows = RowsOf("{\"a\": 1, \"a\": \"two\"}\n{}\n", {"a"});
  EXPECT_EQ(rows.cells, (Cells{{"two"}, {"<null>"}}));
}

TEST(JsonlParserTest, KeyWithNullValueCountsAsSeen) {
  auto batch = DecodeText("{\"a\": null}\n", {"a", "b"});
  EXPECT_EQ(batch->column_seen, (std::vector<uint8_t>{1, 0}));
}

TEST(JsonlParserTest, EscapedKeysAndUnicode) {
  Rows rows = RowsOf("{\"k\\u0065y\": \"caf\\u00e9 \xE2\x82\xAC\"}\n", {"key"});
  EXPECT_EQ(rows.cells, (Cells{{"caf\xC3\xA9 \xE2\x82\xAC"}}));
}

TEST(JsonlParserTest, SourceChunksAndNamesColumns) {
  testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "{\"i\": " + std::to_string(i) + "}\n\n";
  std::string path = dir.Write("a.jsonl", text);
  ReadOptions options;
  options.json_columns = {"i", "never"};
  for (int64_t batch_rows : {1, 3, 7, 1000}) {
    options.batch_rows = batch_rows;
    options.chunk_bytes = 50;
    auto stream = OpenByteStream(path, Compression::kNone);
    ASSERT_TRUE(stream.ok());
    auto source = MakeJsonlSource(std::move(*stream), path, options, 2, text.size());
    Rows rows = testing::ReadAll(*source);
    EXPECT_EQ(rows.columns, (std::vector<std::string>{"i", "never"}));
    ASSERT_EQ(rows.cells.size(), 100u);
    EXPECT_EQ(rows.cells[42], (std::vector<std::string>{"42", "<null>"}));
    EXPECT_EQ(rows.input_index[0], 2);
  }
}

TEST(JsonlParserTest, EmptyInputGivesOneEmptyBatch) {
  testing::TempDir dir;
  std::string path = dir.Write("e.jsonl", "");
  ReadOptions options;
  options.json_columns = {"a"};
  auto stream = OpenByteStream(path, Compression::kNone);
  ASSERT_TRUE(stream.ok());
  auto source = MakeJsonlSource(std::move(*stream), path, options, 0, 0);
  int64_t batches = 0;
  Rows rows = testing::ReadAll(*source, &batches);
  EXPECT_EQ(batches, 1);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"a"}));
}

}  // namespace
}  // namespace griffin

namespace griffin {
namespace {

TEST(JsonlParserTest, AllKeysBecomeColumnsInFirstAppearanceOrder) {
  const std::string text = "{\"b\": 1}\n{\"a\": \"x\", \"b\": null}\nnot json\n{\"c\\u0041\": true}\n";
  JsonlLayout layout;
  layout.name = "t";
  layout.all_keys = true;
  const auto batch = DecodeJsonl(layout, testing::MakeSpan(text, 4));
  ASSERT_EQ(batch->columns.size(), 3u);
  EXPECT_EQ(batch->columns[0].name, "b");
  EXPECT_EQ(batch->columns[1].name, "a");
  EXPECT_EQ(batch->columns[2].name, "cA");
  EXPECT_EQ(batch->columns[0].text.is_null, (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(batch->columns[1].text.values[1], "x");
  EXPECT_EQ(batch->columns[1].text.is_null[0], 1);
  EXPECT_EQ(batch->columns[2].text.values[3], "true");
  EXPECT_TRUE(batch->IsMalformed(2));
}

}  // namespace
}  // namespace griffin
