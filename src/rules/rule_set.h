// The in-memory form of a rule file (rules-v1), produced by LoadRuleFile /
// LoadRuleText (rules/rule_loader.h) and compiled by plan/. Every check carries
// the location of its key in the YAML so that checks can be ordered as in the
// file and errors can name the line.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/expr_ast.h"
#include "util/value_type.h"

namespace griffin {

struct SourceLocation {
  int line = 0;    // 1-based line of the key in the rule file
  int column = 0;  // 1-based column
  bool operator<(const SourceLocation& o) const {
    return line != o.line ? line < o.line : column < o.column;
  }
};

enum class Severity { kError, kWarn };
const char* SeverityName(Severity s);

// A constant from the rule file, already parsed for the type it is compared with.
struct Literal {
  enum class Kind { kNull, kBool, kInt, kFloat, kString, kDate, kTimestamp, kNow };
  Kind kind = Kind::kNull;
  int64_t int_value = 0;  // kBool (0/1), kInt, kDate (days), kTimestamp (micros)
  double float_value = 0;  // kFloat
  std::string text;        // kString; for every kind the spelling in the file
};

// Options every check may carry (the long form {value|pattern|values, ...}).
struct CheckOptions {
  Severity severity = Severity::kError;
  double mostly = 1.0;
  std::optional<std::string> message;  // replaces the default message
};

enum class ColumnCheckKind {
  kNotNull, kType, kUnique, kMin, kMax, kGt, kLt, kFinite, kRegex, kContains, kIn,
  kNotIn, kLength
};
// The key spelling: "not_null", "type", ... ("length" for kLength).
const char* ColumnCheckKindName(ColumnCheckKind k);

struct ColumnCheck {
  ColumnCheckKind kind;
  Literal bound;                     // kMin kMax kGt kLt (kNow allowed for date/timestamp)
  std::string pattern;               // kRegex kContains (already validated by RE2)
  std::vector<Literal> values;       // kIn kNotIn, typed like the column
  std::optional<int64_t> length_min;  // kLength
  std::optional<int64_t> length_max;
  CheckOptions options;
  SourceLocation location;
};

// `drift:` on a column, Griffin's extension of rules-v1 (docs/rules.md "Drift
// checks"): the column's distribution against a baseline's, with the
// measures of profile/drift.h; fails when the distance exceeds `max`.
// Evaluated after the rows, against the run store or a saved profile
// (history/history_checks.h).
struct DriftCheck {
  enum class Baseline { kLastPassed, kRun, kProfile };
  Baseline baseline = Baseline::kLastPassed;
  std::string reference;       // kRun: a run id or a unique prefix; kProfile: the file as written
  std::string baseline_text;   // as written: "last_passed", "run:ab12", "profile:train.state"
  double max = 0;              // 0 to 1
  CheckOptions options;        // severity and message (mostly does not apply)
  SourceLocation location;
};

// `anomaly:` in `table:`, Griffin's extension of rules-v1 (docs/rules.md
// "Anomaly checks"): a metric of this run against its history in the run
// store, with one of Deequ's strategies. Evaluated after the rows
// (history/anomaly_checks.h).
enum class AnomalyMetric {
  kRowCount, kBadRows, kQualityScore,                        // the run's
  kNullCount, kNullFraction, kDistinctCount, kMean, kStddev, kMin, kMax  // a column's
};
const char* AnomalyMetricName(AnomalyMetric m);  // "row_count", "mean", ...
bool IsColumnAnomalyMetric(AnomalyMetric m);

struct AnomalyCheck {
  // relative_change: (value - previous) / |previous| within [-max_decrease,
  // max_increase] (Deequ's RelativeRateOfChangeStrategy); absolute_change:
  // value - previous likewise (AbsoluteChangeStrategy); z_score: |value -
  // mean| <= max * stddev over the last `window` values (OnlineNormalStrategy
  // over a window).
  enum class Strategy { kRelativeChange, kAbsoluteChange, kZScore };
  std::string metric_text;             // as written: "row_count", "amount.mean"
  AnomalyMetric metric = AnomalyMetric::kRowCount;
  std::optional<std::string> column;   // column metrics
  Strategy strategy = Strategy::kRelativeChange;
  std::optional<double> max_increase, max_decrease;  // change strategies (at least one)
  double max_z = 0;                    // z_score
  int64_t window = 30;                 // z_score: how many earlier values
  int64_t min_history = 0;             // z_score: fewer earlier values pass with a note
  // Seasonal: only the runs `season`, 2*`season`, ... runs back are the
  // history (7 for daily runs: the same weekday); 1 is every run.
  int64_t season = 1;
  CheckOptions options;                // severity and message (mostly does not apply)
  SourceLocation location;
  // The check's name: "table.row_count.anomaly", "amount.mean.anomaly".
  std::string CheckName() const;
};

struct ColumnRule {
  std::string name;
  ValueType type = ValueType::kString;   // kString when the file has no `type`
  std::optional<std::string> timestamp_format;  // `format:` for timestamp/date
  bool required = true;
  std::vector<ColumnCheck> checks;        // in file order; includes kType when given
  std::optional<DriftCheck> drift;        // `drift:`, reported after `checks` by file position
  SourceLocation location;
};

struct RowCheck {
  std::string name;
  enum class Kind { kExpr, kUnique } kind = Kind::kExpr;
  std::string expr_text;
  std::shared_ptr<const ExprNode> expr;   // kExpr: the parsed expression
  SourceLocation expr_location;           // kExpr: the `expr:` key (errors name this line)
  std::vector<std::string> unique_columns;  // kUnique
  CheckOptions options;
  SourceLocation location;
};

enum class TableMetric {
  kRowCount, kNullFraction, kDistinctCount, kMean, kStddev, kSum, kMin, kMax, kQuantile
};
const char* TableMetricName(TableMetric m);

struct TableCheck {
  TableMetric metric;
  std::optional<std::string> column;  // every metric but kRowCount has one
  double q = 0.5;                     // kQuantile
  std::optional<Literal> min;         // bounds, typed like the observed value
  std::optional<Literal> max;
  CheckOptions options;               // severity and message (mostly is not allowed)
  SourceLocation location;
};

struct SourceOptions {
  std::optional<std::string> format;  // csv tsv jsonl parquet arrow
  std::optional<char> delimiter;
  bool header = true;
  std::vector<std::string> null_values = {""};
  char quote = '"';
  // `malformed: {mostly: ..}`: the pass rate the report's `malformed` check
  // needs (rules-v1, amended 2026-12-03); 1.0 fails on any malformed record.
  double malformed_mostly = 1.0;
  // `where:` (Griffin's extension): a SQL condition a database source applies
  // before reading (io/source_registry.h, "filter"); empty: every row.
  std::string where;
  // `mode:` (Griffin's extension) for database sources: "scan" or "pushdown"
  // (docs/sql.md); empty: scan, unless --mode says otherwise.
  std::string mode;
  // `incremental: {column: ..}` (Griffin's extension): a database source reads
  // only the rows whose column is past the last recorded run's watermark
  // (docs/sources.md, "Incremental runs"); empty: every run reads every row.
  std::string incremental_column;
};

// Names the report gives to checks of its own: `malformed` (unreadable text
// records) and `schema` (the reason of rows made bad by a schema error). A
// row check may not take them.
inline constexpr const char* kMalformedCheckName = "malformed";
inline constexpr const char* kSchemaCheckName = "schema";
inline bool IsReservedCheckName(const std::string& name) {
  return name == kMalformedCheckName || name == kSchemaCheckName;
}

// `training:`, Griffin's extension of rules-v1 (docs/rules.md, "Training
// telemetry"): checks on the loss and metrics a training job reports to
// `griffin serve` (POST /metrics). Only the service evaluates them.
enum class TelemetryCheckKind { kRequired, kFinite, kMin, kMax, kSpike };
const char* TelemetryCheckKindName(TelemetryCheckKind k);  // "required", "finite", ...
enum class SpikeDirection { kUp, kDown, kBoth };

struct TelemetryCheck {
  TelemetryCheckKind kind;
  double bound = 0;          // kMin, kMax
  // kSpike: the value is more than `sigma` sample standard deviations from
  // the mean of the previous `window` steps, once `min_history` steps are known.
  double sigma = 0;
  int64_t window = 0;
  int64_t min_history = 0;
  SpikeDirection direction = SpikeDirection::kUp;
  CheckOptions options;      // severity and message (mostly does not apply)
  SourceLocation location;
};

// One reported value: the loss, or one entry of the request's `metrics`.
struct TelemetrySeries {
  std::string name;          // "loss", or the metric's key
  bool is_loss = false;
  std::vector<TelemetryCheck> checks;  // in file order
  SourceLocation location;
  // The checks' names: "loss.<check>" or "metrics.<name>.<check>".
  std::string CheckName(const TelemetryCheck& check) const;
};

struct TrainingRules {
  std::vector<TelemetrySeries> series;  // in file order
  // A batch_hash the service does not know: its data part fails (kFail) or
  // is left out of the score (kNeutral).
  enum class UnknownBatch { kFail, kNeutral } unknown_batch = UnknownBatch::kFail;
  std::optional<double> min_score;      // passed needs quality_score >= min_score
  SourceLocation location;
};

// `stream:`, Griffin's extension of rules-v1 for `griffin stream`
// (docs/semantics.md, "Table checks over a window"): how many records, or how
// long, a window of micro-batches runs before its table checks are evaluated
// over its merged state and it is recorded as one run.
struct StreamRules {
  int64_t window_records = 0;  // `window: 5000`: closes after this many records
  int64_t window_ms = 0;       // `window: 10m`: closes this long after its first batch
};

struct RuleSet {
  int version = 1;
  std::string dataset;
  std::string description;
  SourceOptions source;
  std::vector<ColumnRule> columns;   // in file order
  std::vector<RowCheck> rows;
  std::vector<TableCheck> table;
  std::vector<AnomalyCheck> anomalies;  // `anomaly:` items of `table:`, in file order
  std::optional<double> score_min;
  std::optional<TrainingRules> training;  // absent: no telemetry checks
  std::optional<StreamRules> stream;      // absent: griffin stream's defaults
  std::string path;     // the file it came from ("<text>" for in-memory text)
  std::string text;     // the full YAML text
  std::string sha256;   // hex sha256 of `text`
};

}  // namespace griffin
