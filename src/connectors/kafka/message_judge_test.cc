#include "connectors/kafka/message_judge.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace griffin::kafka {
namespace {

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, not_null: true}
  amount: {type: float64, min: 0}
  note: {type: string, length: {max: 3, severity: warn}}
)";

std::vector<std::string> Checks(const MessageVerdict& verdict) {
  std::vector<std::string> checks;
  for (const RowError& error : verdict.errors) checks.push_back(error.check);
  return checks;
}

TEST(MessageJudge, MatchesTheJsonLinesPathMessageForMessage) {
  auto validator = Validator::FromText(kRules, "<rules>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  std::vector<std::string> messages = {
      R"({"id": "a", "amount": 1})",
      R"({"id": "b", "amount": -2})",
      R"({"amount": 3})",
      "not json",
      "[1, 2]",
      R"({"id": "c", "amount": 4, "note": "long note"})",
      "{\"id\": \"d\",\n \"amount\": 5}",    // a line break between tokens: whitespace
      "{\"id\": \"e\n\", \"amount\": 6}",    // a raw line break in a string
      "",
      " \n\t",
      "{\"id\": \"\xff\", \"amount\": 7}",
  };
  std::vector<std::string_view> values(messages.begin(), messages.end());
  auto judged = JudgeMessages(**validator, values, ValidationOptions{});
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  ASSERT_EQ(judged->verdicts.size(), messages.size());
  using Names = std::vector<std::string>;
  EXPECT_EQ(Checks(judged->verdicts[0]), Names{});
  EXPECT_EQ(Checks(judged->verdicts[1]), Names{"amount.min"});
  EXPECT_EQ(Checks(judged->verdicts[2]), Names{"id.not_null"});
  EXPECT_EQ(Checks(judged->verdicts[3]), Names{"malformed"});
  EXPECT_EQ(Checks(judged->verdicts[4]), Names{"malformed"});
  EXPECT_EQ(Checks(judged->verdicts[5]), Names{});  // warn checks never reject
  EXPECT_EQ(Checks(judged->verdicts[6]), Names{});
  EXPECT_EQ(Checks(judged->verdicts[7]), Names{"malformed"});
  EXPECT_EQ(judged->verdicts[7].errors[0].message, "invalid JSON: a raw line break inside a string");
  EXPECT_EQ(judged->verdicts[8].errors[0].message, "empty message");
  EXPECT_EQ(judged->verdicts[9].errors[0].message, "empty message");
  EXPECT_EQ(Checks(judged->verdicts[10]), Names{"malformed"});
  EXPECT_NE(judged->verdicts[10].errors[0].message.find("invalid UTF-8"), std::string::npos);

  // The same one-line records as a JSON-lines text: the same bad rows, errors and messages.
  std::string text;
  std::vector<size_t> line_messages = {0, 1, 2, 3, 4, 5, 10};
  for (size_t m : line_messages) text += messages[m] + "\n";
  auto direct = (*validator)->ValidateText(text, InputFormat::kJsonl, "t.jsonl", ValidationOptions{});
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  size_t bad = 0;
  for (size_t row = 0; row < line_messages.size(); ++row) {
    const MessageVerdict& verdict = judged->verdicts[line_messages[row]];
    const bool direct_bad = bad < direct->bad_row_indices.size() && direct->bad_row_indices[bad] == int64_t(row);
    ASSERT_EQ(!verdict.errors.empty(), direct_bad) << "row " << row;
    if (!direct_bad) continue;
    std::vector<RowError> expected(direct->bad_errors.begin() + direct->bad_error_offsets[bad],
                                   direct->bad_errors.begin() + direct->bad_error_offsets[bad + 1]);
    ASSERT_EQ(verdict.errors.size(), expected.size()) << "row " << row;
    for (size_t e = 0; e < expected.size(); ++e) {
      EXPECT_EQ(verdict.errors[e].check, expected[e].check);
      EXPECT_EQ(verdict.errors[e].message, expected[e].message);
    }
    ++bad;
  }
  EXPECT_EQ(bad, direct->bad_row_indices.size());
}

TEST(MessageJudge, EmptyBatchIsClean) {
  auto validator = Validator::FromText(kRules, "<rules>");
  ASSERT_TRUE(validator.ok());
  auto judged = JudgeMessages(**validator, {}, ValidationOptions{});
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  EXPECT_TRUE(judged->verdicts.empty());
}

}  // namespace
}  // namespace griffin::kafka

namespace griffin::kafka {
namespace {

const char* kCsvRules = R"(griffin: 1
dataset: c
source: {format: csv}
columns:
  id: {type: string, not_null: true}
  "amount, usd": {type: float64, min: 0}
)";

TEST(MessageJudge, CsvMessagesAreRecordsUnderTheRuleColumns) {
  auto validator = Validator::FromText(kCsvRules, "<rules>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  std::vector<std::string> messages = {"a,1", "b,-2\n", ",3\r\n", "c,1,extra", "\"d\ne\",4", "f,1\ng,2", "", "h,x"};
  std::vector<std::string_view> values(messages.begin(), messages.end());
  auto judged = JudgeMessages(**validator, values, ValidationOptions{});
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  using Names = std::vector<std::string>;
  EXPECT_EQ(Checks(judged->verdicts[0]), Names{});
  EXPECT_EQ(Checks(judged->verdicts[1]), Names{"amount, usd.min"});
  EXPECT_EQ(Checks(judged->verdicts[2]), Names{"id.not_null"});
  EXPECT_EQ(Checks(judged->verdicts[3]), Names{"malformed"});
  EXPECT_EQ(Checks(judged->verdicts[4]), Names{});  // a quoted line break is data
  EXPECT_EQ(judged->verdicts[5].errors[0].message, "more than one record in the message");
  EXPECT_EQ(judged->verdicts[6].errors[0].message, "empty message");
  EXPECT_EQ(Checks(judged->verdicts[7]), Names{"amount, usd.type"});

  // The same records in a CSV file with the header: the same verdicts and messages.
  std::string text = "id,\"amount, usd\"\na,1\nb,-2\n,3\nc,1,extra\n\"d\ne\",4\nh,x\n";
  auto direct = (*validator)->ValidateText(text, InputFormat::kCsv, "c.csv", ValidationOptions{});
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  std::vector<size_t> record_messages = {0, 1, 2, 3, 4, 7};
  ASSERT_EQ(direct->bad_row_indices, (std::vector<int64_t>{1, 2, 3, 5}));
  for (size_t b = 0; b < direct->bad_row_indices.size(); ++b) {
    const MessageVerdict& verdict = judged->verdicts[record_messages[direct->bad_row_indices[b]]];
    ASSERT_EQ(int64_t(verdict.errors.size()), direct->bad_error_offsets[b + 1] - direct->bad_error_offsets[b]);
    for (size_t e = 0; e < verdict.errors.size(); ++e) {
      EXPECT_EQ(verdict.errors[e].message, direct->bad_errors[direct->bad_error_offsets[b] + e].message);
    }
  }
}

TEST(MessageJudge, AReusedBufferJudgesEachBatchAlone) {
  auto validator = Validator::FromText(kRules, "<rules>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  std::string scratch = "{\"id\": null}\n";  // left over from an earlier batch: not judged again
  std::vector<std::string> first = {R"({"id": "a", "amount": -1, "note": "x"})",
                                    R"({"id": "b", "amount": 2, "note": "x"})",
                                    "{\"id\": \"c\",\n \"amount\": 3, \"note\": \"x\"}"};
  std::vector<std::string> second = {R"({"id": null, "amount": 1, "note": "x"})"};
  using Names = std::vector<std::string>;
  for (const auto& [batch, expected] : {std::pair{first, std::vector<Names>{{"amount.min"}, {}, {}}},
                                        std::pair{second, std::vector<Names>{{"id.not_null"}}}}) {
    std::vector<std::string_view> values(batch.begin(), batch.end());
    auto judged = JudgeMessages(**validator, values, ValidationOptions{}, &scratch);
    ASSERT_TRUE(judged.ok()) << judged.status().message();
    ASSERT_EQ(judged->verdicts.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(Checks(judged->verdicts[i]), expected[i]) << i;
    EXPECT_EQ(judged->report.rows, static_cast<int64_t>(batch.size()));
  }
}

TEST(MessageJudge, ARowOffsetNumbersTheReportButVerdictsStayByMessage) {
  auto validator = Validator::FromText(kRules, "<rules>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  std::vector<std::string_view> values = {R"({"id": "a", "amount": 1, "note": "ok"})", "",
                                          R"({"id": "b", "amount": -2})"};
  ValidationOptions options;
  options.row_offset = 1000;
  std::string state;
  options.partial_state = &state;
  auto judged = JudgeMessages(**validator, values, options);
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  using Names = std::vector<std::string>;
  EXPECT_EQ(Checks(judged->verdicts[0]), Names{});
  EXPECT_EQ(Checks(judged->verdicts[1]), Names{"malformed"});
  EXPECT_EQ(Checks(judged->verdicts[2]), Names{"amount.min"});
  ASSERT_EQ(judged->report.violations.size(), 1u);
  EXPECT_EQ(judged->report.violations[0].row, 1001);  // the engine's second row (the empty message never reached it)
  EXPECT_FALSE(state.empty());

  // A required column in no message: a schema error found at the batch's end
  // makes every row bad, numbered from the offset too.
  auto schema = JudgeMessages(**validator, {R"({"id": "c", "amount": 1})", R"({"id": "d", "amount": -1})"}, options);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  EXPECT_EQ(Checks(schema->verdicts[0]), Names{"schema"});
  EXPECT_EQ(Checks(schema->verdicts[1]), (Names{"schema", "amount.min"}));
}

}  // namespace
}  // namespace griffin::kafka
