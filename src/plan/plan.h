// A rule set compiled once into what the engine runs: every check gets its
// position in the report, regexes are compiled, bounds and `in` lists are
// resolved to the column's representation, and `now` is fixed to the run's
// start. Built once per run (or per validator); immutable and thread-safe.
//
//   ASSIGN_OR_RETURN(auto plan, Plan::Compile(rules, now_micros));
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "plan/regex_dfa.h"

#include "plan/value_set.h"
#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin {

enum class CheckScope { kColumn, kRow, kTable };

// One entry of the report's `checks` list, in rule-file order.
struct CheckInfo {
  std::string name;                   // amount.min, a row check's name, table.row_count
  std::optional<std::string> column;  // null for row checks and table.row_count
  std::string check;                  // "min", "expr", "unique", "row_count", ...
  CheckScope scope;
  CheckOptions options;
  SourceLocation location;
};

// Messages list an `in` / `not_in` list of at most this many values (and at
// most kMaxQuotedBytes of text); a longer list is described by its size.
inline constexpr size_t kMaxListedValues = 10;

// A column check resolved for fast evaluation.
struct CompiledColumnCheck {
  int check_index;                   // into Plan::checks
  ColumnCheckKind kind;
  // kMin kMax kGt kLt: the bound in the column's representation. For int64
  // columns with a fractional bound, `bound_is_float` and bound_float are used.
  int64_t bound_int = 0;
  double bound_float = 0;
  bool bound_is_float = false;
  bool date_vs_micros = false;       // date column, timestamp bound: compare days*86400e6 with bound_int
  std::shared_ptr<const RE2> regex;  // kRegex kContains
  // kRegex: the pattern's DFA (plan/regex_dfa.h), which decides ASCII values
  // without RE2; null when the pattern is outside its subset (RE2 decides).
  std::shared_ptr<const RegexDfa> regex_dfa;
  // kRegex kContains: the path the pattern takes, for `griffin validate --explain`:
  // "dfa (N states, K byte classes)" or "re2 (why)".
  std::string regex_path;
  IntValueSet int_values;                        // kIn kNotIn for integer-backed types
  std::vector<double> float_values;              // kIn kNotIn for float64 (sorted)
  StringValueSet string_values;                  // kIn kNotIn for strings
  bool float_values_has_nan = false;
  int64_t length_min = 0, length_max = INT64_MAX;
  // The bound / list / pattern as written, for messages; an `in` / `not_in`
  // list of more than kMaxListedValues values (or a long one) is described by
  // its size instead: "the 100,000 allowed values".
  std::string bound_text;
};

struct ColumnPlan {
  std::string name;
  ValueType type;
  std::optional<std::string> timestamp_format;
  bool required = true;
  bool declared = true;              // false: only named by expressions / row unique
  std::vector<CompiledColumnCheck> checks;
};

struct RowPlan {
  int check_index;
  const RowCheck* rule;
  std::vector<int> column_slots;     // kUnique: into Plan::columns
};

struct TablePlan {
  int check_index;
  const TableCheck* rule;
  int column_slot = -1;              // into Plan::columns; -1 for row_count
};

// A check judged after the rows against history or a saved profile (a
// column's `drift`, a table `anomaly`). The merger reports it as not
// evaluated (passed, with a note); history/history_checks.h replaces that
// report where a run store or the baseline is at hand.
struct HistoryPlan {
  int check_index;
  const ColumnRule* drift_column = nullptr;   // a drift check: its column (rule->drift is set)
  const AnomalyCheck* anomaly = nullptr;      // an anomaly check
};

class Plan {
 public:
  // `now_micros` resolves every `now` bound (the run's start, UTC).
  static Result<std::shared_ptr<const Plan>> Compile(const RuleSet& rules, int64_t now_micros);

  const RuleSet& rules() const { return rules_; }
  const std::vector<CheckInfo>& checks() const { return checks_; }
  const std::vector<ColumnPlan>& columns() const { return columns_; }
  const std::vector<RowPlan>& rows() const { return rows_; }
  const std::vector<TablePlan>& table() const { return table_; }
  const std::vector<HistoryPlan>& history() const { return history_; }
  int64_t now_micros() const { return now_micros_; }
  // Slot of a column in columns(), or -1.
  int FindColumn(const std::string& name) const;
  // Names the text readers must extract (every column any rule names).
  std::vector<std::string> ReferencedColumns() const;

 private:
  explicit Plan(const RuleSet& rules) : rules_(rules) {}
  Status AddColumnChecks(const ColumnRule& rule);
  Status AddRowChecks();
  Status AddTableChecks();
  void AddHistoryChecks();
  int AddUndeclaredColumn(const std::string& name);

  RuleSet rules_;  // a copy: the plan owns everything it points to
  std::vector<CheckInfo> checks_;
  std::vector<ColumnPlan> columns_;
  std::vector<RowPlan> rows_;
  std::vector<TablePlan> table_;
  std::vector<HistoryPlan> history_;
  int64_t now_micros_ = 0;
};

}  // namespace griffin
