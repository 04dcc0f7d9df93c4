#include "rules/rule_loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "rules/rule_loader_test_util.h"
#include "util/sha256.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

std::string TextError(const std::string& text) {
  Result<RuleSet> rules = LoadRuleText(text, "r.yaml");
  if (rules.ok()) return "OK";
  EXPECT_EQ(rules.status().code(), StatusCode::kRuleError);
  return rules.status().message();
}

// The full example of rules-v1 (docs/rules.md, "The contract").
constexpr const char* kSpecExample = R"(griffin: 1                     # rule-file format version (required)
dataset: transactions          # name used in reports, history and lineage (required)
description: Settlement feed   # free text (optional)

source:                        # how to read text inputs (optional; CLI flags override)
  format: csv                  # csv | tsv | jsonl | parquet | arrow; default: from the file extension
  delimiter: ","
  header: true
  null_values: ["", "NA"]      # default: [""] (an empty field is null)

columns:                       # one entry per column; the map form below
  txn_id:
    type: string
    not_null: true
    unique: true
    regex: '^TX[0-9]{10}$'
  amount:
    type: float64
    not_null: true
    finite: true
    min: 0
    max: 1000000
  currency:
    type: string
    in: [USD, EUR, GBP]
  email:
    type: string
    regex: {pattern: '^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$', mostly: 0.99, severity: warn}
  label:
    type: int64
    in: [0, 1]
  created_at:
    type: timestamp
    max: now                   # not in the future

rows:                          # checks across columns, evaluated per row
  - name: refunds_are_negative
    expr: "kind != 'refund' or amount < 0"
  - name: one_txn_per_account_and_time
    unique: [account_id, created_at]

table:                         # checks on whole-dataset aggregates
  - row_count: {min: 1000}
  - mean: {column: amount, min: 10, max: 500}
  - null_fraction: {column: email, max: 0.05}

score:
  min: 0.7                     # the run fails when quality_score < 0.7 (optional)
)";

TEST(RuleLoader, LoadsTheSpecExample) {
  Result<RuleSet> result = LoadRuleText(kSpecExample, "rules.yaml");
  ASSERT_TRUE(result.ok()) << result.status().message();
  const RuleSet& rules = *result;
  EXPECT_EQ(rules.version, 1);
  EXPECT_EQ(rules.dataset, "transactions");
  EXPECT_EQ(rules.description, "Settlement feed");
  EXPECT_EQ(rules.source.format, "csv");
  EXPECT_EQ(rules.source.delimiter, ',');
  EXPECT_TRUE(rules.source.header);
  EXPECT_EQ(rules.source.null_values, (std::vector<std::string>{"", "NA"}));
  ASSERT_EQ(rules.columns.size(), 6u);
  EXPECT_EQ(rules.columns[0].name, "txn_id");
  EXPECT_EQ(rules.columns[0].location.line, 12);
  ASSERT_EQ(rules.columns[0].checks.size(), 4u);
  EXPECT_EQ(rules.columns[0].checks[3].kind, ColumnCheckKind::kRegex);
  EXPECT_EQ(rules.columns[0].checks[3].pattern, "^TX[0-9]{10}$");
  EXPECT_EQ(rules.columns[0].checks[3].location.line, 16);
  EXPECT_EQ(rules.columns[0].checks[3].location.column, 5);
  EXPECT_EQ(rules.columns[1].type, ValueType::kFloat64);
  EXPECT_EQ(rules.columns[1].checks[4].kind, ColumnCheckKind::kMax);
  EXPECT_EQ(rules.columns[1].checks[4].bound.float_value, 1000000.0);
  EXPECT_EQ(rules.columns[3].checks[1].options.severity, Severity::kWarn);
  EXPECT_EQ(rules.columns[3].checks[1].options.mostly, 0.99);
  EXPECT_EQ(rules.columns[4].checks[1].values[1].int_value, 1);
  EXPECT_EQ(rules.columns[5].checks[1].bound.kind, Literal::Kind::kNow);
  ASSERT_EQ(rules.rows.size(), 2u);
  EXPECT_EQ(rules.rows[0].name, "refunds_are_negative");
  ASSERT_NE(rules.rows[0].expr, nullptr);
  EXPECT_EQ(rules.rows[0].expr->op, "or");
  EXPECT_EQ(rules.rows[1].unique_columns, (std::vector<std::string>{"account_id", "created_at"}));
  ASSERT_EQ(rules.table.size(), 3u);
  EXPECT_EQ(rules.table[1].metric, TableMetric::kMean);
  EXPECT_EQ(rules.table[1].column, "amount");
  EXPECT_EQ(rules.score_min, 0.7);
  EXPECT_EQ(rules.path, "<text>");
  EXPECT_EQ(rules.text, kSpecExample);
  EXPECT_EQ(rules.sha256, Sha256Hex(kSpecExample));
}

TEST(RuleLoader, MinimalFileHasDefaults) {
  Result<RuleSet> rules = LoadBody("");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_EQ(rules->dataset, "d");
  EXPECT_TRUE(rules->columns.empty());
  EXPECT_EQ(rules->source.null_values, (std::vector<std::string>{""}));
  EXPECT_EQ(rules->source.quote, '"');
  EXPECT_FALSE(rules->source.delimiter.has_value());
  EXPECT_FALSE(rules->score_min.has_value());
}

TEST(RuleLoaderErrors, InvalidYaml) {
  EXPECT_EQ(TextError("griffin: 1\ndataset: [a,\n"), "r.yaml:3: invalid YAML: end of sequence flow not found");
  // yaml-cpp says only "bad file" past its nesting limit.
  const std::string deep = "griffin: 1\ndataset: d\ncolumns:\n  a:\n    in: " + std::string(600, '[') + std::string(600, ']');
  EXPECT_EQ(TextError(deep), "r.yaml:5: invalid YAML: nested 500 levels deep (the limit is 499)");
}

TEST(RuleLoaderErrors, MissingGriffin) {
  EXPECT_EQ(TextError("dataset: d\n"),
            "r.yaml:1: griffin: missing (add `griffin: 1`, the format version)");
  EXPECT_EQ(TextError(""), "r.yaml:1: griffin: missing (add `griffin: 1`, the format version)");
}

TEST(RuleLoaderErrors, MissingDataset) {
  EXPECT_EQ(TextError("griffin: 1\n"), "r.yaml:1: dataset: missing (the dataset name used in reports)");
  EXPECT_EQ(TextError("griffin: 1\ndataset:\n"), "r.yaml:2: dataset: expected text, found nothing");
  EXPECT_EQ(TextError("griffin: 1\ndataset: ''\n"), "r.yaml:2: dataset: cannot be empty");
}

TEST(RuleLoaderErrors, WrongVersion) {
  EXPECT_EQ(TextError("dataset: d\ngriffin: 2\n"),
            "r.yaml:2: griffin: unsupported version 2 (this Griffin reads version 1)");
  EXPECT_EQ(TextError("griffin: one\ndataset: d\n"),
            "r.yaml:1: griffin: expected 1, the rule-file format version");
}

TEST(RuleLoaderErrors, RootIsNotAMap) {
  EXPECT_EQ(TextError("- a\n- b\n"),
            "r.yaml:1: expected a map with griffin, dataset, columns, ..., found a list");
}

TEST(RuleLoaderErrors, UnknownTopLevelKey) {
  EXPECT_EQ(BodyError("colums: {}\n"),
            "r.yaml:3: colums: unknown key (expected one of: griffin, dataset, description, "
            "source, columns, rows, table, score, training, alerts, stream)");
}

TEST(RuleLoaderErrors, DuplicateKey) {
  EXPECT_EQ(BodyError("columns:\n  a: {type: int64}\n  b: {}\n  a: {}\n"),
            "r.yaml:6: columns.a: duplicate key (first given at line 4)");
  EXPECT_EQ(TextError("griffin: 1\ndataset: d\ndataset: e\n"),
            "r.yaml:3: dataset: duplicate key (first given at line 2)");
}

TEST(RuleLoaderErrors, WrongSectionKinds) {
  EXPECT_EQ(BodyError("columns: 5\n"),
            "r.yaml:3: columns: expected a map of column names to their checks, found '5'");
  EXPECT_EQ(BodyError("rows: {a: 1}\n"), "r.yaml:3: rows: expected a list of row checks, found a map");
  EXPECT_EQ(BodyError("table: x\n"), "r.yaml:3: table: expected a list of table checks, found 'x'");
  EXPECT_EQ(BodyError("description: [a]\n"), "r.yaml:3: description: expected text, found a list");
}

TEST(Source, AllKeys) {
  Result<RuleSet> rules = LoadBody(
      "source:\n  format: tsv\n  delimiter: tab\n  header: false\n  null_values: [NA, 'null', '']\n"
      "  quote: \"'\"\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_EQ(rules->source.format, "tsv");
  EXPECT_EQ(rules->source.delimiter, '\t');
  EXPECT_FALSE(rules->source.header);
  EXPECT_EQ(rules->source.null_values, (std::vector<std::string>{"NA", "null", ""}));
  EXPECT_EQ(rules->source.quote, '\'');
  EXPECT_EQ(LoadBody("source: {delimiter: \"\\t\"}\n")->source.delimiter, '\t');
  EXPECT_EQ(LoadBody("source: {delimiter: '\\t'}\n")->source.delimiter, '\t');
  EXPECT_EQ(LoadBody("source: {delimiter: ';'}\n")->source.delimiter, ';');
}

TEST(Source, Where) {
  EXPECT_EQ(LoadBody("source: {where: \"amount > 0 AND region = 'eu'\"}\n")->source.where,
            "amount > 0 AND region = 'eu'");
  EXPECT_EQ(LoadBody("source: {format: csv}\n")->source.where, "");
  EXPECT_EQ(BodyError("source: {where: ''}\n"), "r.yaml:3: source.where: expected a condition, got empty text");
  EXPECT_EQ(BodyError("source: {where: \"k > 1; DROP TABLE t\"}\n"),
            "r.yaml:3: source.where: at offset 5: unexpected character ';' (a predicate in Griffin's language, "
            "docs/sql.md#where; SQL of your own goes in --query)");
  EXPECT_EQ(LoadBody("source: {mode: pushdown}\n")->source.mode, "pushdown");
  EXPECT_EQ(BodyError("source: {mode: fast}\n"), "r.yaml:3: source.mode: expected scan, pushdown or pushdown-split, got 'fast'");
}

TEST(Source, Errors) {
  EXPECT_EQ(BodyError("source:\n  format: xlsx\n"),
            "r.yaml:4: source.format: unknown format 'xlsx' (expected one of: csv, tsv, jsonl, "
            "json, parquet, arrow)");
  EXPECT_EQ(BodyError("source:\n  delimiter: ';;'\n"),
            "r.yaml:4: source.delimiter: expected one character, found ';;'");
  EXPECT_EQ(BodyError("source:\n  header: yes\n"),
            "r.yaml:4: source.header: expected true or false, found 'yes'");
  EXPECT_EQ(BodyError("source:\n  null_values: [NA, null]\n"),
            "r.yaml:4: source.null_values[1]: expected text; quote it ('null', '~' or '') to mean "
            "that text");
  EXPECT_EQ(BodyError("source:\n  quote: ''\n"), "r.yaml:4: source.quote: expected one character, found ''");
  EXPECT_EQ(BodyError("source:\n  encoding: utf8\n"),
            "r.yaml:4: source.encoding: unknown key (expected one of: format, delimiter, header, "
            "null_values, quote, malformed, where, mode, incremental)");
}

TEST(Source, Incremental) {
  EXPECT_EQ(LoadBody("source: {incremental: {column: updated_at}}\n")->source.incremental_column, "updated_at");
  EXPECT_EQ(LoadBody("source: {format: csv}\n")->source.incremental_column, "");
  EXPECT_EQ(BodyError("source: {incremental: {column: ''}}\n"),
            "r.yaml:3: source.incremental.column: expected a column name, got empty text");
  EXPECT_EQ(BodyError("source: {incremental: {col: x}}\n"),
            "r.yaml:3: source.incremental.col: unknown key (expected one of: column)");
  EXPECT_NE(BodyError("source: {incremental: {}}\n").find("source.incremental: expected {column: NAME}"),
            std::string::npos);
}

// rules-v1, amended 2026-12-03: `source.malformed.mostly` is the pass rate the
// report's `malformed` check needs (1.0 when not given).
TEST(Source, MalformedMostly) {
  EXPECT_EQ(LoadBody("columns:\n  a: {}\n")->source.malformed_mostly, 1.0);
  EXPECT_EQ(LoadBody("source:\n  malformed: {mostly: 0.999}\n")->source.malformed_mostly, 0.999);
  EXPECT_EQ(LoadBody("source:\n  malformed: {mostly: 0}\n")->source.malformed_mostly, 0.0);
  EXPECT_EQ(BodyError("source:\n  malformed: {mostly: 1.5}\n"),
            "r.yaml:4: source.malformed.mostly: must be between 0 and 1, found 1.5");
  EXPECT_EQ(BodyError("source:\n  malformed:\n    severity: warn\n"),
            "r.yaml:5: source.malformed.severity: unknown key (expected one of: mostly)");
  EXPECT_EQ(BodyError("source:\n  malformed: 0.9\n"),
            "r.yaml:4: source.malformed: expected a map like {mostly: 0.999}, found '0.9'");
}

TEST(Score, MinAndErrors) {
  EXPECT_EQ(LoadBody("score: {min: 0.9}\n")->score_min, 0.9);
  EXPECT_EQ(BodyError("score:\n  min: 1.5\n"), "r.yaml:4: score.min: must be between 0 and 1, found 1.5");
  EXPECT_EQ(BodyError("score:\n  min: high\n"), "r.yaml:4: score.min: expected a number, found 'high'");
  EXPECT_EQ(BodyError("score:\n  max: 1\n"), "r.yaml:4: score.max: unknown key (expected one of: min)");
  EXPECT_EQ(BodyError("score: 0.7\n"), "r.yaml:3: score: expected a map like {min: 0.9}, found '0.7'");
}

TEST(RuleLoaderErrors, DuplicateRowCheckNames) {
  EXPECT_EQ(BodyError("rows:\n  - {name: x, expr: 'a > 1'}\n  - {name: x, unique: [a]}\n"),
            "r.yaml:5: rows[1].name: duplicate check name 'x' (also at line 4)");
  EXPECT_EQ(BodyError("columns:\n  a: {type: int64, min: 0}\n"
                      "rows:\n  - {name: a.min, expr: 'a > 1'}\n"),
            "r.yaml:6: rows[0].name: duplicate check name 'a.min' (also at line 4)");
  EXPECT_EQ(BodyError("rows:\n  - {name: table.row_count, expr: 'a > 1'}\n"
                      "table:\n  - row_count: {min: 1}\n"),
            "r.yaml:4: rows[0].name: duplicate check name 'table.row_count' (also at line 6)");
}

// `malformed` and `schema` name the report's own checks and reasons.
TEST(RuleLoaderErrors, ReservedRowCheckNames) {
  EXPECT_EQ(BodyError("columns:\n  a: {type: int64}\nrows:\n  - {name: malformed, expr: 'a > 1'}\n"),
            "r.yaml:6: rows[0].name: 'malformed' is reserved for the report's own check (choose another name)");
  EXPECT_EQ(BodyError("rows:\n  - {name: ok, expr: 'a > 1'}\n  - {name: schema, unique: [a]}\n"),
            "r.yaml:5: rows[1].name: 'schema' is reserved for the report's own check (choose another name)");
  // A column named `malformed` is fine: its checks are `malformed.<check>`.
  EXPECT_EQ(BodyError("columns:\n  malformed: {not_null: true}\n"), "OK");
}

TEST(RuleLoader, GeneratedCheckNamesMayRepeat) {
  // Two quantiles of one column, and a column check and a table metric that are
  // both `a.min` (docs/semantics.md, "Report").
  Result<RuleSet> rules = LoadBody(
      "columns:\n  a: {type: int64, min: 0}\n"
      "table:\n  - min: {column: a, min: 0}\n"
      "  - quantile: {column: a, q: 0.5, max: 1}\n  - quantile: {column: a, q: 0.9, max: 5}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_EQ(rules->table.size(), 3u);
}

TEST(RuleLoaderFile, ReadsAFileAndNamesIt) {
  const std::string path = ::testing::TempDir() + "/griffin_rule_loader_test.yaml";
  {
    std::ofstream out(path);
    out << "griffin: 1\ndataset: d\ncolumns:\n  a: {min: 1}\n";
  }
  Result<RuleSet> rules = LoadRuleFile(path);
  ASSERT_FALSE(rules.ok());
  EXPECT_EQ(rules.status().code(), StatusCode::kRuleError);
  EXPECT_EQ(rules.status().message(),
            path + ":4: columns.a.min: min does not apply to string columns (the column has no "
                   "type, so it is string: add a type)");
  {
    std::ofstream out(path);
    out << "griffin: 1\ndataset: d\n";
  }
  rules = LoadRuleFile(path);
  ASSERT_TRUE(rules.ok());
  EXPECT_EQ(rules->path, path);
  EXPECT_EQ(rules->sha256, Sha256Hex("griffin: 1\ndataset: d\n"));
  std::remove(path.c_str());
}

TEST(RuleLoaderFile, MissingFileIsAUsageError) {
  Result<RuleSet> rules = LoadRuleFile("/nonexistent/rules.yaml");
  ASSERT_FALSE(rules.ok());
  EXPECT_EQ(rules.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(rules.status().message(),
            "cannot read rule file /nonexistent/rules.yaml: No such file or directory");
  rules = LoadRuleFile(::testing::TempDir());
  EXPECT_EQ(rules.status().code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin
