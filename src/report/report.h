// The result of one validation run: the data behind the JSON report of
// cli-and-report-v1 (and the text and JUnit renderings). Plain data.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace griffin {

class TableProfile;

// How many row violations a report lists per check when the caller does not
// say (cli-and-report-v1 `--max-violations`, amended 2026-12-03: per check,
// so that a noisy check cannot hide every example of another).
inline constexpr int64_t kDefaultMaxViolations = 100;

// A JSON scalar as it should be written: null, a string, or a raw JSON token
// (a number or true/false, already valid JSON).
struct JsonScalar {
  enum class Kind { kNull, kString, kRaw } kind = Kind::kNull;
  std::string text;
  static JsonScalar Null() { return {}; }
  static JsonScalar String(std::string s) { return {Kind::kString, std::move(s)}; }
  static JsonScalar Raw(std::string s) { return {Kind::kRaw, std::move(s)}; }
  // A double: non-finite values are written as null (JSON has no NaN).
  static JsonScalar Number(double value);
  static JsonScalar Integer(int64_t value) { return Raw(std::to_string(value)); }
  bool is_null() const { return kind == Kind::kNull; }
  // The double a Number() holds, NaN and ±inf included, for what people read
  // (messages, the text report); never written to JSON.
  std::optional<double> number = std::nullopt;
};

struct CheckReport {
  std::string name;
  std::optional<std::string> column;
  std::string check;
  std::string severity;     // "error" | "warn"
  bool is_table = false;
  // Row-level checks:
  int64_t evaluated = 0;
  int64_t violations = 0;
  double pass_rate = 1.0;
  double mostly = 1.0;
  // Table checks:
  JsonScalar observed;
  JsonScalar min_bound, max_bound;
  std::string observed_text;  // for people: "nan", "12.5", "2024-01-01"
  bool passed = true;
  std::string message;        // custom message, or a default summary of a failure
  // Griffin's additions for checks against history (drift), written only
  // when set (docs/report.md):
  std::string note;           // "note": why the check passed without a comparison
  std::string detail_key;     // "drift": the key of detail_json in the check object
  std::string detail_json;    // a JSON object (the baseline, the values that moved most...)
  // --mode pushdown (docs/sql.md), written only when set: where the check
  // ran, "database" (compiled to SQL) or "engine" (scan mode over its own
  // columns), and why.
  std::string ran_in;
  std::string ran_in_reason;
  // Table checks of an incremental run (source.incremental): "increment" (the
  // rows past the last run's watermark) or "table" (every row: the first run,
  // or no run store). Empty, and not written, otherwise.
  std::string scope;
};

// What an incremental run read: `column` past `after` (the last recorded
// run's watermark; none: the whole table) through `through` (the largest
// value read; none: no row had one). In the JSON report as "increment".
struct IncrementReport {
  std::string column;
  std::optional<std::string> after, through;
  std::string scope;          // "increment" | "table"
};

struct ViolationReport {
  int64_t row = 0;
  std::optional<std::string> column;
  std::string check;
  JsonScalar value;
  std::string message;
};

struct SchemaError {
  std::string column;
  std::string message;
};

// Per-column profile of a run (recorded in the run store, not in the JSON report).
struct ColumnSummary {
  std::string column;
  int64_t count = 0, nulls = 0;
  std::optional<std::string> min, max;
  std::optional<double> mean, stddev;
  int64_t distinct = 0;
  bool distinct_exact = false;
};

// A run whose state passed its memory limit (--memory-limit): the bytes its
// spilled states wrote to temporary files, and the checks whose state spilled
// (a `unique` check, or the distinct_count checks of a column). `passes`: 2
// when the run read its inputs twice because a `unique` state passed the
// limit in a run that writes outputs (the CLI's two-pass run, docs/engine.md).
struct SpillSummary {
  int64_t bytes = 0;
  std::vector<std::string> checks;
  int passes = 1;
};

struct Report {
  std::string griffin_version;
  std::string run_id;
  std::string dataset;
  std::vector<std::string> inputs;
  std::string rules_sha256;
  int64_t rows = 0;
  int64_t bad_rows = 0;
  int64_t malformed_rows = 0;
  double quality_score = 1.0;
  std::optional<double> score_min;
  bool passed = true;
  std::vector<SchemaError> schema_errors;
  std::vector<CheckReport> checks;
  std::vector<ViolationReport> violations;
  bool violations_truncated = false;
  double elapsed_s = 0;
  int threads = 1;
  int64_t input_bytes = 0;
  // In the JSON report when not empty: the table version each table-format input
  // was read at, and each table-format output committed as (Delta), in input order
  // then output order.
  struct TableVersion {
    std::string table;  // as the inputs list names it, or the output as given
    std::string role;   // "input", "clean", "quarantine"
    int64_t version = -1;
  };
  std::vector<TableVersion> table_versions;
  // Not in the JSON report; for the run store's metrics and lineage:
  std::vector<ColumnSummary> column_summaries;  // declared columns, when profiling was on
  // The profile of the columns with a drift check (profile/table_profile.h),
  // when RunOptions::table_profiling was on: stored with the run, compared by
  // drift checks.
  std::shared_ptr<const TableProfile> profile;
  std::vector<int64_t> input_rows;              // rows read from each input, by input index
  // The schema each input showed, by input index: JSON [{"name": .., "type": ..}]
  // (type: an Arrow type, or "text" / "json" for text inputs). For the schema cache.
  std::vector<std::string> input_schemas;
  // In the reports too: how each input's schema changed since the last run of
  // the same rules over it ("in.csv: column 'x' added"), from the run store.
  std::vector<std::string> schema_changes;
  // In the JSON report as "spill", only when the run spilled.
  std::optional<SpillSummary> spill;
  // Not in the reports: the largest state (bytes) held past the memory limit by
  // states that may not spill in this run (`unique` when verdicts leave batch by
  // batch, a stream or a partial state); 0 when the limit held. The CLI warns.
  int64_t unspillable_state_bytes = 0;
  std::optional<IncrementReport> increment;
  // Not in the reports: when schema_errors is not empty, how many rows were
  // merged (and handed to a row consumer with their per-check verdicts, some
  // as clean) before the first schema error was known: 0 when it was known
  // from the first batch. A front end whose outputs took those rows must redo
  // them, since a schema error makes every row bad (rules-v1).
  int64_t rows_before_schema_error = 0;
};

}  // namespace griffin
