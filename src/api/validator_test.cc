#include "api/validator.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <arrow/api.h>

#include "connectors/sql/pushdown_runner.h"
#include "connectors/sql/sqlite_test_util.h"
#include "exec/engine.h"
#include "io/io_test_util.h"
#include "report/json_writer.h"

namespace griffin {
namespace {

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, not_null: true, unique: true}
  amount: {type: float64, min: 0}
)";

std::shared_ptr<arrow::RecordBatchReader> Reader() {
  arrow::StringBuilder ids;
  arrow::DoubleBuilder amounts;
  EXPECT_TRUE(ids.AppendValues({"a", "b", "a", "c"}).ok());
  EXPECT_TRUE(ids.AppendNull().ok());
  EXPECT_TRUE(amounts.AppendValues({1.0, -2.0, 3.0, 4.0, 5.0}).ok());
  auto schema = arrow::schema({arrow::field("id", arrow::utf8()), arrow::field("amount", arrow::float64())});
  auto batch = arrow::RecordBatch::Make(schema, 5, {ids.Finish().ValueOrDie(), amounts.Finish().ValueOrDie()});
  return arrow::RecordBatchReader::Make({batch}, schema).ValueOrDie();
}

TEST(ValidatorTest, ValidatesAnArrowReaderAndCollectsBadRows) {
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  ValidationOptions options;
  options.batch_rows = 2;   // rows across batches keep their input numbering
  auto result = (*validator)->ValidateReader(Reader(), "<mem>", options);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->report.rows, 5);
  // Row 1: amount < 0; row 2: second "a"; row 4: null id.
  EXPECT_EQ(result->bad_row_indices, (std::vector<int64_t>{1, 2, 4}));
  ASSERT_EQ(result->bad_error_offsets.size(), 4u);
  EXPECT_EQ(result->bad_errors[0].check, "amount.min");
  EXPECT_EQ(result->report.inputs, (std::vector<std::string>{"<mem>"}));
  const std::string json = ReportToJson(result->report);
  EXPECT_NE(json.find("\"rows\": 5"), std::string::npos) << json;
}

// A table of `rows` rows whose columns depend on `seed` (ids with repeats,
// integers as strings or as int64, floats with nulls, text with nulls).
std::shared_ptr<arrow::RecordBatchReader> MixedReader(int rows, int seed, bool text_numbers) {
  arrow::StringBuilder ids, texts, counts_text;
  arrow::Int64Builder counts;
  arrow::DoubleBuilder amounts;
  for (int r = 0; r < rows; ++r) {
    EXPECT_TRUE(ids.Append("id" + std::to_string((r * (seed + 3)) % (rows - seed % 5))).ok());
    if ((r + seed) % 9 == 0) EXPECT_TRUE(texts.AppendNull().ok());
    else EXPECT_TRUE(texts.Append(std::string(static_cast<size_t>((r + seed) % 7), 'x')).ok());
    const int64_t count = (r * 7 + seed) % 50 - 3;
    if (text_numbers) EXPECT_TRUE(counts_text.Append(r % 11 == 0 ? "n/a" : std::to_string(count)).ok());
    else EXPECT_TRUE(counts.Append(count).ok());
    if ((r + seed) % 13 == 0) EXPECT_TRUE(amounts.AppendNull().ok());
    else EXPECT_TRUE(amounts.Append((r % 17) - 4.5).ok());
  }
  std::shared_ptr<arrow::Array> count_array =
      text_numbers ? counts_text.Finish().ValueOrDie() : counts.Finish().ValueOrDie();
  auto schema = arrow::schema({arrow::field("id", arrow::utf8()), arrow::field("text", arrow::utf8()),
                               arrow::field("count", count_array->type()), arrow::field("amount", arrow::float64())});
  auto batch = arrow::RecordBatch::Make(schema, rows, {ids.Finish().ValueOrDie(), texts.Finish().ValueOrDie(),
                                                       count_array, amounts.Finish().ValueOrDie()});
  return arrow::RecordBatchReader::Make({batch}, schema).ValueOrDie();
}

// Calls of one Validator reuse the buffers of its earlier calls: each call's
// report and verdicts equal a fresh Validator's, whatever came before.
TEST(ValidatorTest, ReusedBuffersGiveEachCallAFreshValidatorsAnswer) {
  const char* rules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, unique: true}
  text: {type: string, not_null: true, length: {max: 4}}
  count: {type: int64, min: 0, unique: true}
  amount: {type: float64, max: 8}
rows:
  - name: pair
    unique: [id, count]
  - name: expr
    expr: "count < 40 or amount < 0"
table:
  - mean: {column: amount, max: 100}
)";
  auto reused = Validator::FromText(rules, "<test>");
  ASSERT_TRUE(reused.ok()) << reused.status().message();
  ValidationOptions options;
  options.threads = 1;
  const int sizes[] = {3000, 17, 1000, 2999, 1, 400};
  for (int call = 0; call < 12; ++call) {
    const int rows = sizes[call % 6];
    const bool text_numbers = call % 4 == 1;
    options.batch_rows = call % 3 == 2 ? 256 : 65536;
    auto fresh = Validator::FromText(rules, "<test>");
    ASSERT_TRUE(fresh.ok());
    auto want = (*fresh)->ValidateReader(MixedReader(rows, call, text_numbers), "<mem>", options);
    auto got = (*reused)->ValidateReader(MixedReader(rows, call, text_numbers), "<mem>", options);
    ASSERT_TRUE(want.ok() && got.ok()) << want.status().message() << got.status().message();
    want->report.elapsed_s = got->report.elapsed_s = 0;
    EXPECT_EQ(ReportToJson(got->report), ReportToJson(want->report)) << "call " << call;
    EXPECT_EQ(got->bad_row_indices, want->bad_row_indices) << "call " << call;
    ASSERT_EQ(got->bad_errors.size(), want->bad_errors.size()) << "call " << call;
    for (size_t i = 0; i < got->bad_errors.size(); ++i)
      EXPECT_EQ(got->bad_errors[i].message, want->bad_errors[i].message) << "call " << call;
  }
}

TEST(ValidatorTest, WithoutCollectingBadRowsOnlyTheReportIsFilled) {
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok());
  ValidationOptions options;
  options.collect_bad_rows = false;
  auto result = (*validator)->ValidateReader(Reader(), "<mem>", options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->report.bad_rows, 3);
  EXPECT_TRUE(result->bad_row_indices.empty());
}

TEST(ValidatorTest, BadRulesAndOptionsAreErrors) {
  auto bad = Validator::FromText("griffin: 1\ncolumns: 3\n", "<bad>");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kRuleError);
  EXPECT_NE(bad.status().message().find("<bad>"), std::string::npos) << bad.status().message();

  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok());
  ValidationOptions options;
  options.batch_rows = 0;
  auto result = (*validator)->ValidateReader(Reader(), "<mem>", options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUsageError);
  EXPECT_FALSE((*validator)->ValidatePaths({}, ValidationOptions()).ok());
}

TEST(ValidatorTest, ThreadsPastTheCapAreAUsageError) {
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok());
  ValidationOptions options;
  options.threads = kMaxThreads + 1;
  auto refused = (*validator)->ValidateReader(Reader(), "<mem>", options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(refused.status().message(), "threads: must be 0 (all cores) to 1024");
  options.threads = kMaxThreads;
  EXPECT_TRUE((*validator)->ValidateReader(Reader(), "<mem>", options).ok());
}

TEST(ValidatorTest, WithNowRecompilesTheRulesAtAnotherNow) {
  auto validator = Validator::FromText("griffin: 1\ndataset: t\ncolumns:\n  at: {type: timestamp, max: now}\n", "<t>");
  ASSERT_TRUE(validator.ok());
  const std::string csv = "at\n2030-01-01T00:00:00Z\n";
  auto before = (*validator)->WithNow(1700000000LL * 1000000);   // 2023
  auto after = (*validator)->WithNow(2000000000LL * 1000000);    // 2033
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ((*before)->ValidateText(csv, InputFormat::kCsv, "<b>", ValidationOptions{})->report.bad_rows, 1);
  EXPECT_EQ((*after)->ValidateText(csv, InputFormat::kCsv, "<b>", ValidationOptions{})->report.bad_rows, 0);
  EXPECT_EQ((*after)->rules().sha256, (*validator)->rules().sha256);
}

TEST(ValidatorTest, ValidatesTextInMemory) {
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok());
  const std::string csv = "id,amount\na,1\nb,-2\na,3\n";
  auto result = (*validator)->ValidateText(csv, InputFormat::kCsv, "<body>", ValidationOptions{});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->report.rows, 3);
  EXPECT_EQ(result->bad_row_indices, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(result->report.inputs, (std::vector<std::string>{"<body>"}));

  const std::string lines = "{\"id\": \"a\", \"amount\": 1}\nnot json\n";
  auto jsonl = (*validator)->ValidateText(lines, InputFormat::kJsonl, "<body>", ValidationOptions{});
  ASSERT_TRUE(jsonl.ok()) << jsonl.status().message();
  EXPECT_EQ(jsonl->report.rows, 2);
  EXPECT_EQ(jsonl->report.malformed_rows, 1);

  auto header = (*validator)->ValidateText("id,amount,id\n", InputFormat::kCsv, "<body>", ValidationOptions{});
  ASSERT_FALSE(header.ok());
  EXPECT_EQ(header.status().code(), StatusCode::kInputError);
  EXPECT_EQ(header.status().message().rfind("<body>:1: duplicate column name", 0), 0u) << header.status().message();
}

// mode pushdown runs sql::RunPushdown, the CLI's code path: the same report
// (ran_in says where each check ran), no per-row verdicts; scan, the default,
// gives the same counts row by row.
TEST(ValidatorTest, PushdownModeIsTheCliPushdownRun) {
  griffin::testing::TempDir dir;
  const std::string file = dir.Path("app.db");
  sql::testing::ExecSqlite(file, "CREATE TABLE t(id TEXT, amount REAL);"
                                 "INSERT INTO t VALUES ('a', 1), ('b', -2), ('a', 3), ('c', 4), (NULL, 5);");
  const std::string uri = "sqlite://" + file + "?table=t";
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  ValidationOptions options;
  options.mode = "pushdown";
  auto pushed = (*validator)->ValidatePaths({uri}, options);
  ASSERT_TRUE(pushed.ok()) << pushed.status().message();
  EXPECT_TRUE(pushed->pushdown);
  EXPECT_TRUE(pushed->bad_row_indices.empty());
  auto direct = sql::RunPushdown((*validator)->shared_plan(), uri, ReadOptions(), RunOptions());
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  direct->elapsed_s = pushed->report.elapsed_s;
  direct->inputs = {uri};
  EXPECT_EQ(ReportToJson(pushed->report), ReportToJson(*direct));
  EXPECT_EQ(pushed->report.bad_rows, 3);
  EXPECT_EQ(pushed->report.checks[0].ran_in, "database");

  options.mode = "scan";
  auto scanned = (*validator)->ValidatePaths({uri}, options);
  ASSERT_TRUE(scanned.ok()) << scanned.status().message();
  EXPECT_FALSE(scanned->pushdown);
  EXPECT_EQ(scanned->bad_row_indices, (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(scanned->report.bad_rows, pushed->report.bad_rows);
  EXPECT_EQ(scanned->report.checks[0].ran_in, "");

  options.mode = "pushdown";  // not a database: refused, as the CLI refuses it
  auto refused = (*validator)->ValidateReader(Reader(), "<mem>", options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUsageError);
  EXPECT_NE(refused.status().message().find("validates one database input"), std::string::npos);
  options.mode = "";  // the rule file's source.mode: none here, so scan
  EXPECT_TRUE((*validator)->ValidateReader(Reader(), "<mem>", options).ok());
}

// Without a row consumer a CSV run decodes only the rule columns (id, amount);
// with one it decodes every column. Reports must be the same: bad values in the
// unused columns never count, malformed records in them always do, and a bad
// value in a used column is reported as before.
TEST(ValidatorTest, CsvColumnsNoRuleNamesAreScannedButNotDecoded) {
  const std::string csv =
      "junk_int,id,amount,junk_text\n"
      "1,a,1.5,x\n"
      "not-a-number,b,2,y\n"       // unparseable value in an unused int-looking column: fine
      "3,c,oops,z\n"               // a bad value in a used column: amount.type
      "4,d,-1,\"bad\"quote\n"      // malformed: the bad field is unused
      "5,e,1,w,extra\n"            // malformed: too many fields
      "6,,2,\"ok \"\"quoted\"\"\"\n";  // id null: id.not_null
  auto validator = Validator::FromText(kRules, "<test>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  ValidationOptions projected;
  projected.batch_rows = 2;
  auto got = (*validator)->ValidateText(csv, InputFormat::kCsv, "<csv>", projected);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ValidationOptions whole = projected;
  size_t columns_seen = 0;
  whole.on_rows = [&columns_seen](const RowVerdicts& verdicts) {
    columns_seen = std::max(columns_seen, verdicts.batch->columns.size());
    return Status::OK();
  };
  auto want = (*validator)->ValidateText(csv, InputFormat::kCsv, "<csv>", whole);
  ASSERT_TRUE(want.ok()) << want.status().message();
  EXPECT_EQ(columns_seen, 4u);  // a row consumer sees every column
  got->report.elapsed_s = want->report.elapsed_s = 0;
  EXPECT_EQ(ReportToJson(got->report), ReportToJson(want->report));
  EXPECT_EQ(got->report.rows, 6);
  EXPECT_EQ(got->report.malformed_rows, 2);
  EXPECT_EQ(got->bad_row_indices, (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(got->bad_row_indices, want->bad_row_indices);
  const std::string json = ReportToJson(got->report);
  EXPECT_NE(json.find("amount.type"), std::string::npos) << json;
  EXPECT_NE(json.find("oops"), std::string::npos) << json;
  EXPECT_EQ(json.find("not-a-number"), std::string::npos) << json;
}

}  // namespace
}  // namespace griffin
