// JSON lines outputs (through OpenRowSink), read back with the project's
// JSON lines reader (simdjson).
#include <gtest/gtest.h>

#include <simdjson.h>

#include "sinks/row_sink.h"
#include "sinks/sink_test_util.h"

namespace griffin {
namespace {

using testing::ReadBatches;
using testing::ReadFileBytes;
using testing::RowErrors;
using testing::TempDir;
using testing::TextCells;
using testing::WriteOutput;

const char kInput[] =
    "{\"id\":1,\"name\":\"a\",\"extra\":[1,2]}\n"
    "{}\n"
    "{ \"id\" : 2.50 , \"name\":\"b\\\"q\\u00e9\" }  \r\n"
    "{\"id\":\n"
    "[1]\n"
    "{\"name\":null,\"id\":{\"x\":true}}\n"
    "{\"id\":true,\"name\":\"tab\\tnl\\n\"}\n";

ReadOptions JsonOptions(std::vector<std::string> columns = {"id", "name"}) {
  ReadOptions options;
  options.json_columns = std::move(columns);
  options.batch_rows = 3;
  return options;
}

RowErrors InputErrors() { return {{1, {{"id.not_null", "id is null"}}}, {5, {{"id.type", "id {\"x\":true} is not int"}}}}; }

TEST(JsonLinesSinkTest, KeepsRawObjectsAndSplicesTheAddedKeys) {
  TempDir dir;
  auto batches = ReadBatches(dir.Write("in.jsonl", kInput), JsonOptions());
  ASSERT_GE(batches.size(), 2u);
  ASSERT_TRUE(WriteOutput(dir.Path("clean.jsonl"), SinkKind::kClean, {}, batches, InputErrors()).ok());
  ASSERT_TRUE(WriteOutput(dir.Path("bad.ndjson"), SinkKind::kQuarantine, {}, batches, InputErrors()).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.jsonl")),
            "{\"id\":1,\"name\":\"a\",\"extra\":[1,2]}\n"
            "{ \"id\" : 2.50 , \"name\":\"b\\\"q\\u00e9\" }\n"
            "{\"id\":true,\"name\":\"tab\\tnl\\n\"}\n");
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.ndjson")),
            "{\"_griffin_row\":1,\"_griffin_errors\":[{\"check\":\"id.not_null\",\"message\":\"id is null\"}]}\n"
            "{\"_griffin_row\":3,\"_griffin_errors\":[{\"check\":\"malformed\",\"message\":\"invalid JSON: "
            "The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, "
            "etc.\"}],\"_griffin_raw\":\"{\\\"id\\\":\"}\n"
            "{\"_griffin_row\":4,\"_griffin_errors\":[{\"check\":\"malformed\",\"message\":\"line is not a JSON "
            "object\"}],\"_griffin_raw\":\"[1]\"}\n"
            "{\"name\":null,\"id\":{\"x\":true},\"_griffin_row\":5,\"_griffin_errors\":[{\"check\":\"id.type\","
            "\"message\":\"id {\\\"x\\\":true} is not int\"}]}\n");
  SinkOptions tagged;
  tagged.version_tag = 7;
  ASSERT_TRUE(WriteOutput(dir.Path("tagged.jsonl"), SinkKind::kClean, tagged, batches, InputErrors()).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("tagged.jsonl")),
            "{\"id\":1,\"name\":\"a\",\"extra\":[1,2],\"_griffin_version\":7}\n"
            "{ \"id\" : 2.50 , \"name\":\"b\\\"q\\u00e9\" ,\"_griffin_version\":7}\n"
            "{\"id\":true,\"name\":\"tab\\tnl\\n\",\"_griffin_version\":7}\n");
}

TEST(JsonLinesSinkTest, EveryLineIsValidJsonAndRowsRoundTrip) {
  TempDir dir;
  auto batches = ReadBatches(dir.Write("in.jsonl", kInput), JsonOptions());
  const auto input = TextCells(batches, 2);
  ASSERT_EQ(input.size(), 7u);
  ASSERT_TRUE(WriteOutput(dir.Path("clean.jsonl"), SinkKind::kClean, {}, batches, InputErrors()).ok());
  ASSERT_TRUE(WriteOutput(dir.Path("bad.jsonl"), SinkKind::kQuarantine, {}, batches, InputErrors()).ok());

  // Each line parses on its own, with simdjson directly.
  for (const std::string name : {"clean.jsonl", "bad.jsonl"}) {
    simdjson::dom::parser parser;
    simdjson::dom::document_stream stream;
    const simdjson::padded_string text(ReadFileBytes(dir.Path(name)));
    ASSERT_EQ(parser.parse_many(text).get(stream), simdjson::SUCCESS);
    int lines = 0;
    for (auto doc : stream) {
      simdjson::dom::element element;
      ASSERT_EQ(doc.get(element), simdjson::SUCCESS) << name;
      EXPECT_TRUE(element.is_object());
      ++lines;
    }
    EXPECT_EQ(lines, name == "clean.jsonl" ? 3 : 4);
  }

  auto clean = ReadBatches(dir.Path("clean.jsonl"), JsonOptions());
  auto bad = ReadBatches(dir.Path("bad.jsonl"), JsonOptions({"id", "name", "_griffin_row", "_griffin_errors",
                                                             "_griffin_raw"}));
  const auto clean_cells = TextCells(clean, 2);
  const auto bad_cells = TextCells(bad, 5);
  size_t next_clean = 0, next_bad = 0;
  for (size_t row = 0; row < input.size(); ++row) {
    SCOPED_TRACE(row);
    if (next_bad < bad_cells.size() && bad_cells[next_bad][2] == std::to_string(row)) {
      const auto& cells = bad_cells[next_bad++];
      if (row == 3 || row == 4) {
        EXPECT_EQ(cells[0], "<null>");
        EXPECT_EQ(cells[1], "<null>");
        EXPECT_EQ(cells[4], row == 3 ? "{\"id\":" : "[1]");
      } else {
        EXPECT_EQ(std::vector<std::string>(cells.begin(), cells.begin() + 2), input[row]);
        EXPECT_EQ(cells[4], "<null>");
      }
    } else {
      ASSERT_LT(next_clean, clean_cells.size());
      EXPECT_EQ(clean_cells[next_clean++], input[row]);
    }
  }
  EXPECT_EQ(next_clean, clean_cells.size());
  EXPECT_EQ(next_bad, 4u);
  EXPECT_EQ(bad_cells[0][3], "[{\"check\":\"id.not_null\",\"message\":\"id is null\"}]");
}

TEST(JsonLinesSinkTest, BuildsObjectsFromOtherInputs) {
  TempDir dir;
  auto csv = ReadBatches(dir.Write("in.csv", "a,b\n1,\"x\"\"y\"\n,2\n3\n"), {});
  ASSERT_TRUE(WriteOutput(dir.Path("clean.jsonl"), SinkKind::kClean, {}, csv, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("clean.jsonl")), "{\"a\":\"1\",\"b\":\"x\\\"y\"}\n{\"a\":null,\"b\":\"2\"}\n");
  ASSERT_TRUE(WriteOutput(dir.Path("csv_bad.jsonl"), SinkKind::kQuarantine, {}, csv, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("csv_bad.jsonl")),
            "{\"_griffin_row\":2,\"_griffin_errors\":[{\"check\":\"malformed\",\"message\":\"record has 1 "
            "field, expected 2\"}],\"_griffin_raw\":\"3\"}\n");
  // A JSON lines input whose rules name no key keeps whole lines.
  auto keyless = ReadBatches(dir.Write("in.jsonl", "{\"k\":1}\n{ }\n"), JsonOptions({}));
  ASSERT_TRUE(WriteOutput(dir.Path("bad.jsonl"), SinkKind::kQuarantine, {}, keyless,
                          {{0, {{"c", "m"}}}, {1, {{"c", "n"}}}}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("bad.jsonl")),
            "{\"k\":1,\"_griffin_row\":0,\"_griffin_errors\":[{\"check\":\"c\",\"message\":\"m\"}]}\n"
            "{ \"_griffin_row\":1,\"_griffin_errors\":[{\"check\":\"c\",\"message\":\"n\"}]}\n");
  ASSERT_TRUE(WriteOutput(dir.Path("empty.jsonl"), SinkKind::kClean, {}, {}, {}).ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("empty.jsonl")), "");
}

}  // namespace
}  // namespace griffin
