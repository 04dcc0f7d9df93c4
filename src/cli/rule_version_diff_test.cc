#include "cli/rule_version_diff.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

RuleVersionRecord Version(int64_t number, const std::string& sha256, const std::string& text) {
  RuleVersionRecord v;
  v.number = number;
  v.sha256 = sha256;
  v.first_seen = "2024-01-0" + std::to_string(number) + "T00:00:00Z";
  v.text = text;
  return v;
}

TEST(RuleVersionDiffTest, TextIsAUnifiedDiffUnderVersionHeaders) {
  const RuleVersionRecord from = Version(1, "aaaaaaaaaaaaaaaa", "griffin: 1\ndataset: d\ncolumns:\n  x: {min: 0}\n");
  const RuleVersionRecord to = Version(2, "bbbbbbbbbbbbbbbb", "griffin: 1\ndataset: d\ncolumns:\n  x: {min: 10}\n");
  EXPECT_EQ(RuleVersionDiffText(from, to),
            "--- rules v1 aaaaaaaaaaaa (first seen 2024-01-01T00:00:00Z)\n"
            "+++ rules v2 bbbbbbbbbbbb (first seen 2024-01-02T00:00:00Z)\n"
            "@@ -1,4 +1,4 @@\n griffin: 1\n dataset: d\n columns:\n-  x: {min: 0}\n+  x: {min: 10}\n");
  EXPECT_NE(RuleVersionDiffText(from, from).find("(no change)\n"), std::string::npos);
}

TEST(RuleVersionDiffTest, JsonHasTheHunksLineByLine) {
  const RuleVersionRecord from = Version(1, "aa", "a\n\"b\"\n");
  const RuleVersionRecord to = Version(3, "cc", "a\nc\n");
  EXPECT_EQ(RuleVersionDiffJson("d", from, to),
            "{\"dataset\": \"d\", \"from\": {\"version\": 1, \"sha256\": \"aa\", \"first_seen\": "
            "\"2024-01-01T00:00:00Z\"}, \"to\": {\"version\": 3, \"sha256\": \"cc\", \"first_seen\": "
            "\"2024-01-03T00:00:00Z\"}, \"changed\": true, \"hunks\": [\n"
            "  {\"old_start\": 1, \"old_lines\": 2, \"new_start\": 1, \"new_lines\": 2, \"lines\": ["
            "{\"kind\": \"context\", \"text\": \"a\", \"old_line\": 1, \"new_line\": 1}, "
            "{\"kind\": \"removed\", \"text\": \"\\\"b\\\"\", \"old_line\": 2, \"new_line\": null}, "
            "{\"kind\": \"added\", \"text\": \"c\", \"old_line\": null, \"new_line\": 2}]}\n]}\n");
  EXPECT_NE(RuleVersionDiffJson("d", from, from).find("\"changed\": false, \"hunks\": []}"), std::string::npos);
}

}  // namespace
}  // namespace griffin
