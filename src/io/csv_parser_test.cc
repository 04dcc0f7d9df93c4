#include "io/csv_parser.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::MakeSpan;
using testing::Rows;
using Cells = std::vector<std::vector<std::string>>;

std::shared_ptr<Batch> DecodeText(const std::string& text, std::vector<std::string> columns,
                                  std::vector<std::string> nulls = {""}, char delimiter = ',') {
  CsvLayout layout;
  layout.name = "t.csv";
  layout.delimiter = delimiter;
  layout.column_names = std::move(columns);
  layout.nulls = NullMatcher(std::move(nulls));
  int64_t records = std::count(text.begin(), text.end(), '\n') + 1;
  return DecodeCsv(layout, MakeSpan(text, records));
}

Rows RowsOf(const std::string& text, std::vector<std::string> columns,
            std::vector<std::string> nulls = {""}, char delimiter = ',') {
  Rows rows;
  testing::AppendRows(*DecodeText(text, std::move(columns), std::move(nulls), delimiter), &rows);
  return rows;
}

TEST(CsvParserTest, PlainRecords) {
  Rows rows = RowsOf("a,b,c\n1,,3\n", {"x", "y", "z"});
  EXPECT_EQ(rows.cells, (Cells{{"a", "b", "c"}, {"1", "<null>", "3"}}));
  EXPECT_EQ(rows.raw, (std::vector<std::string>{"a,b,c", "1,,3"}));
}

TEST(CsvParserTest, QuotedDelimitersQuotesAndNewlines) {
  Rows rows = RowsOf("\"a,b\",\"say \"\"hi\"\"\",\"line1\nline2\"\nx,\"\",\"\"\"\"\n", {"p", "q", "r"});
  EXPECT_EQ(rows.cells, (Cells{{"a,b", "say \"hi\"", "line1\nline2"}, {"x", "<null>", "\""}}));
  EXPECT_EQ(rows.raw[0], "\"a,b\",\"say \"\"hi\"\"\",\"line1\nline2\"");
}

TEST(CsvParserTest, QuotedEmptyIsNullOnlyWhenEmptyIsANullValue) {
  EXPECT_EQ(RowsOf("\"\",NA,\"NA\"\n", {"a", "b", "c"}, {"NA"}).cells,
            (Cells{{"", "<null>", "<null>"}}));
  EXPECT_EQ(RowsOf("\"\",NA,na\n", {"a", "b", "c"}, {"", "NA"}).cells,
            (Cells{{"<null>", "<null>", "na"}}));
  EXPECT_EQ(RowsOf("\"\",x\n", {"a", "b"}, {}).cells, (Cells{{"", "x"}}));
}

TEST(CsvParserTest, CrlfAndLfLineEnds) {
  Rows rows = RowsOf("a,b\r\n\"c\",\"d\"\r\ne,f\ng,\r\n", {"x", "y"});
  EXPECT_EQ(rows.cells, (Cells{{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "<null>"}}));
  EXPECT_EQ(rows.raw, (std::vector<std::string>{"a,b", "\"c\",\"d\"", "e,f", "g,"}));
}

TEST(CsvParserTest, EmptyLinesAreNotRows) {
  Rows rows = RowsOf("\n\r\na,b\n\n\nc,d\n\r\n", {"x", "y"});
  EXPECT_EQ(rows.cells, (Cells{{"a", "b"}, {"c", "d"}}));
}

TEST(CsvParserTest, NoTrailingNewline) {
  EXPECT_EQ(RowsOf("a,b\nc,d", {"x", "y"}).cells, (Cells{{"a", "b"}, {"c", "d"}}));
  EXPECT_EQ(RowsOf("a,b\n\"c\",\"d\"", {"x", "y"}).cells, (Cells{{"a", "b"}, {"c", "d"}}));
  EXPECT_EQ(RowsOf("a,b\r", {"x", "y"}).cells, (Cells{{"a", "b"}}));
}

TEST(CsvParserTest, LoneQuoteInsideUnquotedFieldIsLiteral) {
  Rows rows = RowsOf("5\" pipe,a\"b\"c\n", {"x", "y"});
  EXPECT_EQ(rows.cells, (Cells{{"5\" pipe", "a\"b\"c"}}));
}

TEST(CsvParserTest, WrongFieldCounts) {
  Rows rows = RowsOf("1,2,3\n1,2\n1,2,3,4\n\"1\",2\n7,8,9\n", {"a", "b", "c"});
  EXPECT_EQ(rows.cells, (Cells{{"1", "2", "3"},
                               {"<malformed: record has 2 fields, expected 3>"},
                               {"<malformed: record has 4 fields, expected 3>"},
                               {"<malformed: record has 2 fields, expected 3>"},
                               {"7", "8", "9"}}));
  auto batch = DecodeText("1,2,3\n1,2\n", {"a", "b", "c"});
  ASSERT_EQ(batch->malformed_records.size(), 1u);
  EXPECT_EQ(batch->malformed_records[0].row_in_batch, 1);
  EXPECT_EQ(batch->malformed_records[0].raw, "1,2");
  EXPECT_EQ(batch->malformed, (std::vector<uint8_t>{0, 1}));
}

TEST(CsvParserTest, UnterminatedQuoteRunsToEndOfInput) {
  Rows rows = RowsOf("1,2\n3,\"abc\n4,5\n", {"a", "b"});
  EXPECT_EQ(rows.cells, (Cells{{"1", "2"}, {"<malformed: unterminated quoted field>"}}));
  EXPECT_EQ(rows.raw[1], "3,\"abc\n4,5");
}

TEST(CsvParserTest, BytesAfterClosingQuote) {
  Rows rows = RowsOf("\"ab\"c,d\ne,\"f\" \n\"g\",h\n", {"a", "b"});
  EXPECT_EQ(rows.cells, (Cells{{"<malformed: unexpected character after closing quote in field 1>"},
                               {"<malformed: unexpected character after closing quote in field 2>"},
                               {"g", "h"}}));
}

TEST(CsvParserTest, InvalidUtf8) {
  Rows rows = RowsOf("ok,\xC3\xA9\nab,c\xFF\n\xE2\x82,x\n", {"a", "b"});
  EXPECT_EQ(rows.cells, (Cells{{"ok", "\xC3\xA9"},
                               {"<malformed: invalid UTF-8 at byte 5 of the record>"},
                               {"<malformed: invalid UTF-8 at byte 1 of the record>"}}));
}

TEST(CsvParserTest, OneMegabyteField) {
  std::string big(1 << 20, 'x');
  big[1000] = ',';
  Rows rows = RowsOf("\"" + big + "\",1\n" + big.substr(1001) + ",2\n", {"a", "b"});
  ASSERT_EQ(rows.cells.size(), 2u);
  EXPECT_EQ(rows.cells[0][0], big);
  EXPECT_EQ(rows.cells[1][0], big.substr(1001));
  EXPECT_EQ(rows.cells[1][1], "2");
}

TEST(CsvParserTest, Tsv) {
  Rows rows = RowsOf("a b\tc,d\t\"e\tf\"\n", {"x", "y", "z"}, {""}, '\t');
  EXPECT_EQ(rows.cells, (Cells{{"a b", "c,d", "e\tf"}}));
}

TEST(CsvParserTest, ViewsPointIntoOwnedMemory) {
  auto batch = DecodeText("\"a\"\"b\",c\nd,\"e\"\n", {"x", "y"});
  ASSERT_EQ(batch->num_rows, 2);
  EXPECT_EQ(batch->owned_memory.size(), 2u);  // the span and the unescaping arena
  EXPECT_EQ(batch->columns[0].text.values[0], "a\"b");
  EXPECT_EQ(batch->columns[1].text.values[1], "e");
}

TEST(CsvParserTest, LongRecordsCrossScanBlocks) {
  // Fields and quotes on both sides of 64-byte block boundaries.
  std::string text, expected_last;
  Cells expected;
  for (int row = 0; row < 50; ++row) {
    std::string a(row * 3, 'a'), b = "q" + std::to_string(row) + "\"\"x";
    text += a + ",\"" + b + "\"," + std::to_string(row) + "\n";
    expected.push_back({a.empty() ? "<null>" : a, "q" + std::to_string(row) + "\"x",
                        std::to_string(row)});
  }
  EXPECT_EQ(RowsOf(text, {"a", "b", "c"}).cells, expected);
}


// Decodes with only `kept` of `columns` stored (KeepCsvColumns).
Rows ProjectedRowsOf(const std::string& text, std::vector<std::string> columns,
                     const std::vector<std::string>& kept) {
  CsvLayout layout;
  layout.name = "t.csv";
  layout.column_names = std::move(columns);
  KeepCsvColumns(kept, &layout);
  int64_t records = std::count(text.begin(), text.end(), '\n') + 1;
  Rows rows;
  testing::AppendRows(*DecodeCsv(layout, MakeSpan(text, records)), &rows);
  return rows;
}

TEST(CsvParserTest, ProjectionStoresOnlyTheKeptColumnsInInputOrder) {
  const std::string text = "1,x,\"q,\"\"r\",4\n5,,7,8\n";
  Rows rows = ProjectedRowsOf(text, {"a", "b", "c", "d"}, {"d", "c"});
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(rows.cells, (Cells{{"q,\"r", "4"}, {"7", "8"}}));
  EXPECT_EQ(rows.raw, (std::vector<std::string>{"1,x,\"q,\"\"r\",4", "5,,7,8"}));
  // No wanted columns: every column, as without projection.
  EXPECT_EQ(ProjectedRowsOf(text, {"a", "b", "c", "d"}, {}).cells, RowsOf(text, {"a", "b", "c", "d"}).cells);
}

// A projected batch names every header column (the run's schema snapshot);
// a batch that holds them all, or decodes every column, leaves that null.
TEST(CsvParserTest, AProjectedBatchCarriesTheWholeHeader) {
  const std::string text = "1,x,3\n";
  CsvLayout layout;
  layout.name = "t.csv";
  layout.column_names = {"a", "b", "c"};
  KeepCsvColumns({"c", "a"}, &layout);
  auto projected = DecodeCsv(layout, MakeSpan(text, 1));
  ASSERT_EQ(projected->columns.size(), 2u);
  ASSERT_NE(projected->header_columns, nullptr);
  EXPECT_EQ(*projected->header_columns, (std::vector<std::string>{"a", "b", "c"}));
  KeepCsvColumns({"a", "b", "c"}, &layout);
  EXPECT_EQ(DecodeCsv(layout, MakeSpan(text, 1))->header_columns, nullptr);
  KeepCsvColumns({}, &layout);
  EXPECT_EQ(DecodeCsv(layout, MakeSpan(text, 1))->header_columns, nullptr);
}

TEST(CsvParserTest, ProjectionFindsMalformedRecordsInSkippedColumns) {
  // Every problem lies in column b or past the last kept column; the reasons
  // (and raw text) are those of the full decode, field numbers included.
  const std::string text =
      "1,ok,3\n"
      "2,\"ab\"c,3\n"      // a character after the closing quote of field 2
      "3,x,3,extra\n"       // too many fields
      "4,x\n"               // too few
      "5,\xff,3\n"          // invalid UTF-8 in the skipped field
      "6,\"x\"\"y\",3\n"    // a quoted skipped field, fine
      "7,\"open,3\n";       // unterminated quote
  const std::vector<std::string> columns = {"a", "b", "c"};
  Rows projected = ProjectedRowsOf(text, columns, {"a", "c"});
  Rows full = RowsOf(text, columns);
  EXPECT_EQ(projected.raw, full.raw);
  ASSERT_EQ(projected.cells.size(), 7u);
  for (size_t r = 0; r < full.cells.size(); ++r) {
    if (full.cells[r][0].rfind("<malformed", 0) == 0) {
      EXPECT_EQ(projected.cells[r], full.cells[r]) << "row " << r;
    } else {
      EXPECT_EQ(projected.cells[r], (std::vector<std::string>{full.cells[r][0], full.cells[r][2]})) << "row " << r;
    }
  }
  EXPECT_EQ(projected.cells[1][0], "<malformed: unexpected character after closing quote in field 2>");
  EXPECT_EQ(projected.cells[2][0], "<malformed: record has 4 fields, expected 3>");
  EXPECT_EQ(projected.cells[3][0], "<malformed: record has 2 fields, expected 3>");
  EXPECT_EQ(projected.cells[4][0], "<malformed: invalid UTF-8 at byte 3 of the record>");
  EXPECT_EQ(projected.cells[5], (std::vector<std::string>{"6", "3"}));
  EXPECT_EQ(projected.cells[6][0], "<malformed: unterminated quoted field>");
}

}  // namespace
}  // namespace griffin
