#include "io/json_array_stream.h"

#include <gtest/gtest.h>

#include <string>

namespace griffin {
namespace {

// All the stream gives for `json`, read `piece` bytes at a time; or the error.
std::string Lines(const std::string& json, size_t piece = 3) {
  auto stream = MakeJsonArrayStream(MakeMemoryStream(json), "a.json");
  std::string out;
  for (;;) {
    std::string buffer(piece, '\0');
    Result<size_t> got = stream->Read(buffer.data(), buffer.size());
    if (!got.ok()) return "error: " + got.status().message();
    if (*got == 0) return out;
    out.append(buffer.data(), *got);
  }
}

TEST(JsonArrayStreamTest, ElementsBecomeLines) {
  EXPECT_EQ(Lines("[{\"a\": 1}, {\"a\": 2}]"), "{\"a\": 1}\n{\"a\": 2}\n");
  EXPECT_EQ(Lines("[{\"a\": 1}, {\"a\": 2}]", 1), "{\"a\": 1}\n{\"a\": 2}\n");
  EXPECT_EQ(Lines("[{\"a\": 1}, {\"a\": 2}]", 4096), "{\"a\": 1}\n{\"a\": 2}\n");
  EXPECT_EQ(Lines("  [\n  {\"a\": [1, {\"b\": 2}]},\n  {}\n]\n\n"), "{\"a\": [1, {\"b\": 2}]}\n{} \n");
  EXPECT_EQ(Lines("\xEF\xBB\xBF[{}]"), "{}\n");  // a byte order mark before the array
  EXPECT_EQ(Lines("[]"), "");
  EXPECT_EQ(Lines(" \n "), "");  // no array at all: no rows
}

TEST(JsonArrayStreamTest, PrettyPrintedElementsStayOneLine) {
  EXPECT_EQ(Lines("[\n  {\n    \"a\": 1,\n    \"b\": \"x\"\n  }\n]"),
            "{     \"a\": 1,     \"b\": \"x\"   } \n");
}

TEST(JsonArrayStreamTest, StringsKeepCommasBracketsAndEscapes) {
  EXPECT_EQ(Lines("[{\"s\": \"a, ] } [ \\\" \\\\\"}, {\"t\": \"\\\\\"}]"),
            "{\"s\": \"a, ] } [ \\\" \\\\\"}\n{\"t\": \"\\\\\"}\n");
  // A raw line end inside a string (not JSON) becomes a tab: the element stays one line.
  EXPECT_EQ(Lines("[{\"s\": \"a\nb\"}]"), "{\"s\": \"a\tb\"}\n");
}

TEST(JsonArrayStreamTest, MalformedElementsAreStillOneLineEach) {
  EXPECT_EQ(Lines("[1, \"x\", [2, 3], {\"a\" 1}, null]"), "1\n\"x\"\n[2, 3]\n{\"a\" 1}\nnull\n");
}

TEST(JsonArrayStreamTest, ABrokenArrayIsAnInputError) {
  EXPECT_EQ(Lines("{\"a\": 1}\n"),
            "error: a.json: expected a JSON array of objects ('[' first), found '{' (one JSON object per "
            "line is a .jsonl input) at byte 1");
  EXPECT_EQ(Lines("[{}, , {}]"), "error: a.json: element 1 is empty (two commas) at byte 6");
  EXPECT_EQ(Lines("[{}, {},\n]"), "error: a.json: a comma before ']' leaves element 2 empty at byte 10");
  EXPECT_EQ(Lines("[{}] {}"), "error: a.json: text after the array's closing ']': '{' at byte 6");
  EXPECT_EQ(Lines("[{}, {\"a\": 1"),
            "error: a.json: the input ends before the array's closing ']' (in element 1, after byte 12)");
  EXPECT_EQ(Lines("[{}, {\"a\": \"]}"),
            "error: a.json: the input ends before the array's closing ']' (in element 1, after byte 14)");
  EXPECT_EQ(Lines("["), "error: a.json: the input ends before the array's closing ']' (in element 0, after byte 1)");
}

TEST(JsonArrayStreamTest, BytesConsumedAreTheInputs) {
  const std::string json = "[{\"a\": 1}]";
  auto stream = MakeJsonArrayStream(MakeMemoryStream(json), "a.json");
  char buffer[64];
  while (*stream->Read(buffer, sizeof buffer) > 0) {
  }
  EXPECT_EQ(stream->bytes_consumed(), static_cast<int64_t>(json.size()));
}

}  // namespace
}  // namespace griffin
