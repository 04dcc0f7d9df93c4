#include "exec/violation_messages.h"

#include <limits>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {type: int64, not_null: true, unique: true, min: 0, max: 9, gt: -1, lt: 10}
  amount: {type: float64, finite: true}
  email: {type: string, regex: '^a+$', contains: 'b', in: [x, y], not_in: [z], length: {min: 2, max: 3}}
  note:
    type: string
    length: {min: 1, message: "bad {column} {value} at {row}"}
    in: {values: [q], message: "{value}/{value} in {column}"}
rows:
  - name: pair
    unique: [id, email]
  - name: positive
    expr: "amount > 0"
)";

std::shared_ptr<const Plan> CompilePlan() {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

// The message of check `name` for `value` (row 7, first occurrence row 3).
std::string Message(const Plan& plan, const std::string& name, const JsonScalar& value) {
  for (size_t c = 0; c < plan.checks().size(); ++c) {
    if (plan.checks()[c].name != name) continue;
    const CompiledColumnCheck* column_check = nullptr;
    for (const ColumnPlan& column : plan.columns())
      for (const CompiledColumnCheck& check : column.checks)
        if (check.check_index == static_cast<int>(c)) column_check = &check;
    const ValueView view = value.number    ? ValueView::Number(*value.number)
                           : value.is_null() ? ValueView::Null()
                                             : ValueView::Of(value.kind, value.text);
    return ViolationMessage(plan, static_cast<int>(c), column_check, view, 7, 3);
  }
  ADD_FAILURE() << "no check " << name;
  return "";
}

TEST(ViolationMessagesTest, DefaultMessagesQuoteStringsAndShowNumbersBare) {
  auto plan = CompilePlan();
  const JsonScalar five = JsonScalar::Raw("5");
  const JsonScalar text = JsonScalar::String("abc");
  EXPECT_EQ(Message(*plan, "id.type", JsonScalar::String("x1")), "id 'x1' is not a valid int64");
  EXPECT_EQ(Message(*plan, "id.not_null", JsonScalar::Null()), "id is null");
  EXPECT_EQ(Message(*plan, "id.unique", five), "id 5 duplicates row 3");
  EXPECT_EQ(Message(*plan, "id.min", JsonScalar::Raw("-2")), "id -2 is below min 0");
  EXPECT_EQ(Message(*plan, "id.max", five), "id 5 is above max 9");
  EXPECT_EQ(Message(*plan, "id.gt", five), "id 5 is not greater than -1");
  EXPECT_EQ(Message(*plan, "id.lt", five), "id 5 is not less than 10");
  EXPECT_EQ(Message(*plan, "amount.finite", JsonScalar::Null()), "amount null is not finite");
  EXPECT_EQ(Message(*plan, "email.regex", text), "email 'abc' does not match /^a+$/");
  EXPECT_EQ(Message(*plan, "email.contains", text), "email 'abc' contains no match of /b/");
  EXPECT_EQ(Message(*plan, "email.in", text), "email 'abc' is not in [x, y]");
  EXPECT_EQ(Message(*plan, "email.not_in", JsonScalar::String("z")), "email 'z' is in [z]");
  EXPECT_EQ(Message(*plan, "email.length", JsonScalar::String("h\xc3\xa9llo")),
            "email 'h\xc3\xa9llo' has length 5, outside [2, 3]");
  EXPECT_EQ(Message(*plan, "note.length", JsonScalar::String("")), "bad note  at 7");  // custom: no quotes
  EXPECT_EQ(Message(*plan, "note.in", JsonScalar::Null()), "null/null in note");
  EXPECT_EQ(Message(*plan, "pair", JsonScalar::Null()), "(id, email) duplicates row 3");
  EXPECT_EQ(Message(*plan, "positive", JsonScalar::Null()), "positive is false: amount > 0");
}

TEST(ViolationMessagesTest, NaNFailsBoundsRatherThanLyingBelowOrAbove) {
  auto plan = CompilePlan();
  auto rules = LoadRuleText("griffin: 1\ndataset: t\ncolumns:\n  x: {type: float64, min: 0, max: 9, gt: -1, "
                            "lt: 10}\n", "r.yaml");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto floats = Plan::Compile(*rules, 0);
  ASSERT_TRUE(floats.ok());
  EXPECT_EQ(Message(**floats, "x.min", JsonScalar::String("NaN")), "x NaN fails min 0");  // text as read
  EXPECT_EQ(Message(**floats, "x.max", JsonScalar::String("nan")), "x nan fails max 9");
  const JsonScalar arrow_nan = JsonScalar::Number(std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(arrow_nan.is_null());  // JSON has no NaN
  EXPECT_EQ(Message(**floats, "x.gt", arrow_nan), "x nan fails gt -1");
  EXPECT_EQ(Message(**floats, "x.lt", arrow_nan), "x nan fails lt 10");
  EXPECT_EQ(Message(**floats, "x.min", JsonScalar::Number(-0.5)), "x -0.5 is below min 0");
  EXPECT_EQ(Message(*plan, "amount.finite", arrow_nan), "amount nan is not finite");
}

TEST(ViolationMessagesTest, FloatsDeclaredInt64SayTheValueIsNotIntegral) {
  auto plan = CompilePlan();
  EXPECT_EQ(Message(*plan, "id.type", JsonScalar::Number(987555.5)),
            "id 987555.5 is not an integral value for int64");
  EXPECT_EQ(Message(*plan, "id.type", JsonScalar::Number(std::numeric_limits<double>::infinity())),
            "id inf is not an integral value for int64");
  EXPECT_EQ(Message(*plan, "id.type", JsonScalar::Raw("3.0")), "id 3.0 is not a valid int64");  // a JSON number
}

TEST(ViolationMessagesTest, StringsSpelledAsNullValuesReadAsNull) {
  arrow::StringBuilder builder;
  ASSERT_TRUE(builder.AppendValues({"NA", "x", ""}).ok());
  Batch batch;
  batch.num_rows = 3;
  batch.columns.push_back({"s", {}, builder.Finish().ValueOrDie()});
  EXPECT_EQ(ValueAsRead(batch, 0, 0).text, "NA");  // no null spellings: a value
  batch.string_nulls = std::make_shared<const NullMatcher>(std::vector<std::string>{"", "NA"});
  EXPECT_TRUE(ValueAsRead(batch, 0, 0).is_null());
  EXPECT_EQ(ValueAsRead(batch, 0, 1).text, "x");
  EXPECT_TRUE(ValueAsRead(batch, 0, 2).is_null());
}

TEST(ViolationMessagesTest, LengthWithoutMaxSaysInf) {
  auto rules = LoadRuleText("griffin: 1\ndataset: t\ncolumns:\n  s: {type: string, length: {min: 4}}\n", "r.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Message(**plan, "s.length", JsonScalar::String("ab")), "s 'ab' has length 2, outside [4, inf]");
}

TEST(ViolationMessagesTest, HugeValuesAreCutInTheValueAndTheMessage) {
  auto plan = CompilePlan();
  const std::string huge(1 << 20, 'x');
  const std::string message = Message(*plan, "email.regex", JsonScalar::String(huge));
  EXPECT_EQ(message, "email '" + CutText(huge, kMaxQuotedBytes) + "' does not match /^a+$/");
  // A length message counts the whole value, not what is shown of it.
  EXPECT_EQ(Message(*plan, "email.length", JsonScalar::String(huge)),
            "email '" + CutText(huge, kMaxQuotedBytes) + "' has length 1048576, outside [2, 3]");
  // Custom messages repeat the cut value; the whole message is cut too.
  const std::string custom = Message(*plan, "note.in", JsonScalar::String(huge));
  EXPECT_EQ(custom, CutText(CutText(huge, kMaxQuotedBytes) + "/" + CutText(huge, kMaxQuotedBytes) + " in note"));

  Batch batch;
  batch.num_rows = 1;
  batch.columns.push_back({"s", {{huge}, {0}, {}}, nullptr});
  const JsonScalar value = ValueAsRead(batch, 0, 0);
  EXPECT_EQ(value.kind, JsonScalar::Kind::kString);
  EXPECT_EQ(value.text, CutText(huge));
  EXPECT_EQ(value.text.size(), kMaxShownBytes + std::string("\xE2\x80\xA6(1048576 bytes)").size());
}

TEST(ViolationMessagesTest, AHugeJsonTokenIsCutIntoAString) {
  const std::string array = "[" + std::string(4000, '1') + "]";
  Batch batch;
  batch.num_rows = 1;
  batch.columns.push_back({"j", {{array}, {0}, {JsonKind::kOther}}, nullptr});
  const JsonScalar value = ValueAsRead(batch, 0, 0);
  EXPECT_EQ(value.kind, JsonScalar::Kind::kString);  // a cut token is no longer valid JSON
  EXPECT_EQ(value.text, CutText(array));
}

TEST(ViolationMessagesTest, LongListsAreDescribedByTheirSize) {
  std::string rules = "griffin: 1\ndataset: t\ncolumns:\n  s:\n    type: string\n    in: [";
  for (int i = 0; i < 100000; ++i) rules += (i ? ", v" : "v") + std::to_string(i);
  rules += "]\n    not_in: [a, b, c, d, e, f, g, h, i, j, k]\n  n: {type: int64, in: [1, 2, 3]}\n";
  auto loaded = LoadRuleText(rules, "r.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto plan = Plan::Compile(*loaded, 0);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Message(**plan, "s.in", JsonScalar::String("zz")), "s 'zz' is not in the 100,000 allowed values");
  EXPECT_EQ(Message(**plan, "s.not_in", JsonScalar::String("a")), "s 'a' is in the 11 forbidden values");
  EXPECT_EQ(Message(**plan, "n.in", JsonScalar::Raw("7")), "n 7 is not in [1, 2, 3]");
}

template <typename Builder, typename Value>
void ExpectIntegersAsArrowWritesThem(std::vector<Value> values) {
  Builder builder;
  for (Value v : values) ASSERT_TRUE(builder.Append(v).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  std::shared_ptr<arrow::Array> array = builder.Finish().ValueOrDie();
  Batch batch;
  batch.num_rows = array->length();
  batch.columns.push_back({"n", {}, array});
  for (int64_t r = 0; r < array->length(); ++r) {
    JsonScalar value = ValueAsRead(batch, 0, r);
    if (array->IsNull(r)) {
      EXPECT_TRUE(value.is_null());
      continue;
    }
    EXPECT_EQ(value.kind, JsonScalar::Kind::kRaw);
    EXPECT_EQ(value.text, array->GetScalar(r).ValueOrDie()->ToString()) << array->type()->ToString();
  }
}

TEST(ViolationMessagesTest, ArrowIntegersReadAsTheirDecimalText) {
  ExpectIntegersAsArrowWritesThem<arrow::Int8Builder, int8_t>({0, -128, 127});
  ExpectIntegersAsArrowWritesThem<arrow::Int16Builder, int16_t>({-32768, 32767, 5});
  ExpectIntegersAsArrowWritesThem<arrow::Int32Builder, int32_t>({std::numeric_limits<int32_t>::min(), 42});
  ExpectIntegersAsArrowWritesThem<arrow::Int64Builder, int64_t>(
      {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), -1});
  ExpectIntegersAsArrowWritesThem<arrow::UInt8Builder, uint8_t>({0, 255});
  ExpectIntegersAsArrowWritesThem<arrow::UInt16Builder, uint16_t>({65535});
  ExpectIntegersAsArrowWritesThem<arrow::UInt32Builder, uint32_t>({4294967295u});
  ExpectIntegersAsArrowWritesThem<arrow::UInt64Builder, uint64_t>({std::numeric_limits<uint64_t>::max(), 0});
}

}  // namespace
}  // namespace griffin
