#include "connectors/sql/pushdown_compiler.h"

#include <algorithm>
#include <cmath>

#include "util/value_parse.h"

namespace griffin::sql {
namespace {

constexpr const char* kRowColumn = "_griffin_row";

void CollectExprColumns(const ExprNode& node, std::vector<std::string>* names) {
  if (node.kind == ExprNode::Kind::kColumn) names->push_back(node.name);
  for (const auto& child : node.children) CollectExprColumns(*child, names);
}

void AddUnique(std::vector<std::string>* names, const std::string& name) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

class Compiler {
 public:
  Compiler(const Plan& plan, const SqlDialect& dialect, const PushdownSource& source, int64_t max_violations,
           bool engine_error_uniques)
      : plan_(plan), dialect_(dialect), source_(source), max_violations_(max_violations),
        engine_error_uniques_(engine_error_uniques) {
    query_.placements.resize(plan.checks().size());
    for (size_t i = 0; i < plan.checks().size(); ++i) query_.placements[i].check_index = static_cast<int>(i);
  }

  Result<PushdownQuery> Compile() {
    AddOutput("COUNT(*)", AggregateOutput::Kind::kRows, -1);
    for (const ColumnPlan& column : plan_.columns())
      for (const CompiledColumnCheck& check : column.checks) RETURN_IF_ERROR(CompileColumnCheck(column, check));
    for (const RowPlan& row : plan_.rows()) CompileRowCheck(row);
    for (const TablePlan& table : plan_.table()) CompileTableCheck(table);
    FinishBadRows();
    query_.aggregate_sql = "SELECT " + Join(select_, ",\n       ") + "\nFROM " + AggregateFrom();
    for (CheckPlacement& placement : query_.placements)
      if (placement.pushed && (!placement.violation.empty())) placement.sample_sql = SampleSql(placement);
    CompileFallback();
    return std::move(query_);
  }

 private:
  std::string Id(const std::string& name) const { return dialect_.QuoteIdentifier(name); }
  // A column's value as the engine judges it: a string column's null
  // spellings (PushdownSource::null_values) are NULL. nullopt when a null
  // spelling has no literal in the dialect.
  std::optional<std::string> Value(const std::string& name, ValueType type) const {
    const std::string c = Id(name);
    if (type != ValueType::kString || source_.null_values.empty()) return c;
    std::vector<std::string> literals;
    for (const std::string& value : source_.null_values) {
      auto literal = dialect_.StringLiteral(value);
      if (!literal) return std::nullopt;
      literals.push_back(*literal);
    }
    return "(CASE WHEN " + c + " IN (" + Join(literals, ", ") + ") THEN NULL ELSE " + c + " END)";
  }
  std::string NullSpellingProblem(const std::string& name) const {
    return "a null spelling of column '" + name + "' has no " + dialect_.name() + " literal";
  }
  std::string FromWhere() const {
    return source_.from + (source_.where.empty() ? "" : " WHERE (" + source_.where + ")");
  }
  void AddOutput(const std::string& sql, AggregateOutput::Kind kind, int check_index) {
    select_.push_back(sql);
    query_.outputs.push_back({kind, check_index});
  }
  void Fallback(int check_index, std::string reason) {
    query_.placements[check_index].pushed = false;
    query_.placements[check_index].reason = std::move(reason);
  }
  CheckPlacement& Push(int check_index) {
    query_.placements[check_index].pushed = true;
    return query_.placements[check_index];
  }
  bool IsError(int check_index) const { return plan_.checks()[check_index].options.severity == Severity::kError; }

  // Why `column` cannot be judged in SQL as rule type `type`, or nullopt.
  std::optional<std::string> StorageProblem(const std::string& column, ValueType type) const {
    if (!source_.columns) return std::nullopt;
    auto found = source_.columns->find(column);
    if (found == source_.columns->end()) return "column '" + column + "' is not in the source";
    if (found->second != NativeStorage(type))
      return "column '" + column + "' is stored as " + StoredTypeName(found->second) + ", which the engine reads as " +
             ValueTypeName(type) + " by its own conversion rules";
    return std::nullopt;
  }

  const ColumnCheck* RuleOf(const ColumnPlan& column, const CompiledColumnCheck& check) const {
    const SourceLocation& at = plan_.checks()[check.check_index].location;
    for (const ColumnRule& rule : plan_.rules().columns) {
      if (rule.name != column.name) continue;
      for (const ColumnCheck& c : rule.checks)
        if (!(c.location < at) && !(at < c.location)) return &c;
    }
    return nullptr;
  }

  std::optional<std::string> Literal(const griffin::Literal& literal, ValueType type) const {
    switch (type) {
      case ValueType::kString: return dialect_.StringLiteral(literal.text);
      case ValueType::kInt64:
        if (literal.kind != griffin::Literal::Kind::kInt) return std::nullopt;
        return std::to_string(literal.int_value);
      case ValueType::kFloat64: {
        const double value = literal.kind == griffin::Literal::Kind::kInt ? static_cast<double>(literal.int_value)
                                                                          : literal.float_value;
        if (std::isnan(value)) return std::nullopt;  // the engine's NaN equality is its own
        return dialect_.DoubleLiteral(value == 0 ? 0.0 : value);
      }
      case ValueType::kBool:
        if (literal.kind != griffin::Literal::Kind::kBool) return std::nullopt;
        return literal.int_value ? "TRUE" : "FALSE";
      case ValueType::kDate:
        if (literal.kind != griffin::Literal::Kind::kDate) return std::nullopt;
        return dialect_.DateLiteral(FormatDate(literal.int_value));
      case ValueType::kTimestamp: return std::nullopt;  // time zones: left to the engine
    }
    return std::nullopt;
  }

  // A min/max/gt/lt bound in the column's type.
  std::optional<std::string> Bound(const ColumnPlan& column, const CompiledColumnCheck& check) const {
    switch (column.type) {
      case ValueType::kInt64:
        if (check.bound_is_float) return std::nullopt;
        return std::to_string(check.bound_int);
      case ValueType::kFloat64: return dialect_.DoubleLiteral(check.bound_float);
      case ValueType::kDate:
        if (check.date_vs_micros || check.bound_text == "now") return std::nullopt;
        return dialect_.DateLiteral(FormatDate(check.bound_int));
      default: return std::nullopt;
    }
  }

  Status CompileColumnCheck(const ColumnPlan& column, const CompiledColumnCheck& check) {
    const int index = check.check_index;
    if (auto problem = StorageProblem(column.name, column.type)) {
      Fallback(index, *problem);
      return Status::OK();
    }
    const auto value = Value(column.name, column.type);
    if (!value) return Fallback(index, NullSpellingProblem(column.name)), Status::OK();
    const std::string c = *value;
    const bool is_float = column.type == ValueType::kFloat64;
    const std::string nan = is_float ? dialect_.IsNan(c) : "";
    auto or_nan = [&](const std::string& predicate) { return nan.empty() ? predicate : predicate + " OR " + nan; };
    std::string evaluated = "COUNT(" + c + ")";
    std::string violation;
    const ColumnCheck* rule = RuleOf(column, check);
    switch (check.kind) {
      case ColumnCheckKind::kNotNull:
        evaluated = "COUNT(*)";
        violation = c + " IS NULL";
        break;
      case ColumnCheckKind::kType:
        evaluated = "COUNT(*)";  // a column stored as its type: every value is one
        break;
      case ColumnCheckKind::kMin: case ColumnCheckKind::kMax: case ColumnCheckKind::kGt: case ColumnCheckKind::kLt: {
        auto bound = Bound(column, check);
        if (!bound) return Fallback(index, "the bound " + check.bound_text + " of a " + ValueTypeName(column.type) +
                                               " column is compared by the engine's own rules"), Status::OK();
        const char* op = check.kind == ColumnCheckKind::kMin ? " < " : check.kind == ColumnCheckKind::kMax ? " > "
                         : check.kind == ColumnCheckKind::kGt ? " <= " : " >= ";
        violation = or_nan(c + op + *bound);  // NaN fails every bound (rules-v1)
        break;
      }
      case ColumnCheckKind::kFinite:
        violation = or_nan(dialect_.IsInfinite(c));
        break;
      case ColumnCheckKind::kIn: case ColumnCheckKind::kNotIn: {
        std::vector<std::string> literals;
        for (const griffin::Literal& value : rule ? rule->values : std::vector<griffin::Literal>{}) {
          auto literal = Literal(value, column.type);
          if (!literal) return Fallback(index, "the value " + value.text + " has no exact " + dialect_.name() +
                                                   " spelling for a " + ValueTypeName(column.type) + " column"), Status::OK();
          literals.push_back(*literal);
        }
        if (!rule || literals.empty()) return Fallback(index, "no list of values"), Status::OK();
        violation = c + (check.kind == ColumnCheckKind::kIn ? " NOT IN (" : " IN (") + Join(literals, ", ") + ")";
        break;
      }
      case ColumnCheckKind::kLength: {
        std::vector<std::string> parts;
        const std::string length = dialect_.CharLength(c);
        if (rule && rule->length_min) parts.push_back(length + " < " + std::to_string(*rule->length_min));
        if (rule && rule->length_max) parts.push_back(length + " > " + std::to_string(*rule->length_max));
        if (parts.empty()) return Fallback(index, "no length bounds"), Status::OK();
        violation = Join(parts, " OR ");
        break;
      }
      case ColumnCheckKind::kRegex: case ColumnCheckKind::kContains: {
        const std::string pattern = rule ? rule->pattern : "";
        auto matches = check.kind == ColumnCheckKind::kRegex ? dialect_.RegexFullMatch(c, pattern)
                                                             : dialect_.RegexContains(c, pattern);
        if (!matches) return Fallback(index, std::string(dialect_.name()) + " has no RE2 regular expressions"),
                      Status::OK();
        violation = "NOT " + *matches;
        break;
      }
      case ColumnCheckKind::kUnique:
        return CompileUnique(index, {column.name}, {column.type}), Status::OK();
    }
    CheckPlacement& placement = Push(index);
    placement.violation = violation;
    placement.sample_columns = {column.name};
    AddOutput(evaluated, AggregateOutput::Kind::kEvaluated, index);
    AddOutput(violation.empty() ? "0" : "COUNT(CASE WHEN " + violation + " THEN 1 END)",
              AggregateOutput::Kind::kViolations, index);
    if (IsError(index) && !violation.empty()) bad_terms_.push_back("(" + violation + ")");
    return Status::OK();
  }

  // unique (a column's, or a row check's tuple): counted as non-null tuples
  // minus distinct tuples; per row (samples, bad rows) by a window numbering
  // each tuple's occurrences in row order.
  void CompileUnique(int index, const std::vector<std::string>& columns, const std::vector<ValueType>& types) {
    std::vector<std::string> exprs, not_null;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (auto problem = StorageProblem(columns[i], types[i])) return Fallback(index, *problem);
      if (types[i] == ValueType::kFloat64)
        return Fallback(index, "float equality (NaN, -0.0) of unique is the engine's own");
      if (types[i] == ValueType::kTimestamp) return Fallback(index, "timestamps are left to the engine (time zones)");
      const auto value = Value(columns[i], types[i]);
      if (!value) return Fallback(index, NullSpellingProblem(columns[i]));
      const std::string c = *value;
      exprs.push_back(types[i] == ValueType::kString ? dialect_.BytewiseString(c) : c);
      not_null.push_back(c + " IS NOT NULL");
    }
    if (engine_error_uniques_ && IsError(index))
      return Fallback(index, "an error unique check runs in the engine beside the other engine checks, so that "
                             "bad rows are one union without a window over the rows");
    auto distinct = dialect_.CountDistinctTuples(exprs);
    if (!distinct) return Fallback(index, std::string(dialect_.name()) + " cannot count distinct tuples");
    CheckPlacement& placement = Push(index);
    placement.unique = true;
    placement.sample_columns = columns;
    const std::string evaluated = "COUNT(CASE WHEN " + Join(not_null, " AND ") + " THEN 1 END)";
    AddOutput(evaluated, AggregateOutput::Kind::kEvaluated, index);
    AddOutput(evaluated + " - " + *distinct, AggregateOutput::Kind::kViolations, index);
    placement.violation = Join(not_null, " AND ") + " AND " + DupColumn(index) + " > 1";
    unique_values_[index] = exprs;
    if (IsError(index)) {
      bad_terms_.push_back("(" + placement.violation + ")");
      bad_windows_.push_back(index);
    }
  }

  void CompileRowCheck(const RowPlan& row) {
    if (row.rule->kind == RowCheck::Kind::kExpr)
      return Fallback(row.check_index, "row expressions are evaluated by the engine");
    std::vector<ValueType> types;
    for (int slot : row.column_slots) types.push_back(plan_.columns()[slot].type);
    CompileUnique(row.check_index, row.rule->unique_columns, types);
  }

  void CompileTableCheck(const TablePlan& table) {
    const int index = table.check_index;
    const TableCheck& rule = *table.rule;
    if (rule.metric == TableMetric::kRowCount) {
      Push(index);
      return;
    }
    const ColumnPlan& column = plan_.columns()[table.column_slot];
    if (auto problem = StorageProblem(column.name, column.type)) return Fallback(index, *problem);
    const auto value = Value(column.name, column.type);
    if (!value) return Fallback(index, NullSpellingProblem(column.name));
    const std::string c = *value;
    const bool is_float = column.type == ValueType::kFloat64;
    switch (rule.metric) {
      case TableMetric::kNullFraction:
        AddOutput("COUNT(" + c + ")", AggregateOutput::Kind::kNonNull, index);
        break;
      case TableMetric::kDistinctCount:
        if (is_float) return Fallback(index, "float equality (NaN, -0.0) of distinct_count is the engine's own");
        if (column.type == ValueType::kTimestamp) return Fallback(index, "timestamps are left to the engine (time zones)");
        AddOutput("COUNT(DISTINCT " + (column.type == ValueType::kString ? dialect_.BytewiseString(c) : c) + ")",
                  AggregateOutput::Kind::kDistinct, index);
        break;
      case TableMetric::kSum: case TableMetric::kMean: {
        auto sum = column.type == ValueType::kInt64 ? dialect_.ExactIntegerSumText(c) : std::nullopt;
        if (!sum) return Fallback(index, is_float ? "the engine's compensated float sum has no SQL equal"
                                                  : std::string(dialect_.name()) + " has no exact integer sum");
        AddOutput(*sum, AggregateOutput::Kind::kIntegerSumText, index);
        AddOutput("COUNT(" + c + ")", AggregateOutput::Kind::kNonNull, index);
        break;
      }
      case TableMetric::kMin: case TableMetric::kMax:
        if (column.type != ValueType::kInt64 && column.type != ValueType::kFloat64 && column.type != ValueType::kDate)
          return Fallback(index, std::string("min/max of a ") + ValueTypeName(column.type) + " column is the engine's");
        AddOutput(std::string(rule.metric == TableMetric::kMin ? "MIN(" : "MAX(") + c + ")",
                  rule.metric == TableMetric::kMin ? AggregateOutput::Kind::kMin : AggregateOutput::Kind::kMax, index);
        if (is_float && !dialect_.IsNan(c).empty())  // the engine's min/max is NaN when any value is
          AddOutput("COUNT(CASE WHEN " + dialect_.IsNan(c) + " THEN 1 END)", AggregateOutput::Kind::kNanCount, index);
        break;
      case TableMetric::kStddev: return Fallback(index, "the engine's Welford stddev has no SQL equal to the last bit");
      case TableMetric::kQuantile: return Fallback(index, "quantiles are the engine's (nearest rank, sketched past 2^20 values)");
      case TableMetric::kRowCount: break;
    }
    Push(index);
  }

  void FinishBadRows() {
    for (const CheckPlacement& placement : query_.placements)
      if (!placement.pushed) return;  // the engine's fallback run counts bad rows
    query_.bad_rows_in_aggregate = true;
    AddOutput(bad_terms_.empty() ? "0" : "COUNT(CASE WHEN " + Join(bad_terms_, " OR ") + " THEN 1 END)",
              AggregateOutput::Kind::kBadRows, -1);
  }

  std::string DupColumn(int index) const { return "_griffin_dup_" + std::to_string(index); }
  std::string FirstColumn(int index) const { return "_griffin_first_" + std::to_string(index); }

  // The filtered source with `_griffin_row` and the windows of `uniques`.
  std::string RowsSql(const std::vector<std::string>& columns, const std::vector<int>& uniques) const {
    std::vector<std::string> select;
    for (const std::string& column : columns) select.push_back(Id(column));
    select.push_back(dialect_.RowId() + " AS " + std::string(kRowColumn));
    std::string rows = "(SELECT " + Join(select, ", ") + " FROM " + FromWhere() + ") AS _griffin_base";
    if (uniques.empty()) return rows;
    std::vector<std::string> windows = {"_griffin_base.*"};
    for (int index : uniques) {
      std::vector<std::string> partition = unique_values_.at(index);
      const std::string over = "OVER (PARTITION BY " + Join(partition, ", ");
      windows.push_back("ROW_NUMBER() " + over + " ORDER BY " + kRowColumn + ") AS " + DupColumn(index));
      windows.push_back("MIN(" + std::string(kRowColumn) + ") " + over + ") AS " + FirstColumn(index));
    }
    return "(SELECT " + Join(windows, ", ") + " FROM " + rows + ") AS _griffin_rows";
  }

  std::vector<std::string> PushedColumns() const {
    std::vector<std::string> columns;
    for (const CheckPlacement& placement : query_.placements)
      if (placement.pushed)
        for (const std::string& column : placement.sample_columns) AddUnique(&columns, column);
    return columns;
  }

  std::string AggregateFrom() const {
    if (!query_.bad_rows_in_aggregate || bad_windows_.empty()) return FromWhere();
    return RowsSql(PushedColumns(), bad_windows_);
  }

  std::string SampleSql(const CheckPlacement& placement) const {
    std::vector<std::string> select = {kRowColumn};
    if (placement.unique) select.push_back(FirstColumn(placement.check_index));
    for (const std::string& column : placement.sample_columns) select.push_back(Id(column));
    std::vector<int> uniques;
    if (placement.unique) uniques.push_back(placement.check_index);
    const std::string limit = "\nLIMIT " + std::to_string(max_violations_ + 1);
    const std::string rows = "SELECT " + Join(select, ", ") + "\nFROM " + RowsSql(placement.sample_columns, uniques) +
                             "\nWHERE " + placement.violation;
    // Rows numbered as they stream (no PARTITION BY window): the first
    // violations are the first found, so the scan stops there.
    if (dialect_.RowIdsStream() && !placement.unique)
      return "SELECT * FROM (" + rows + limit + ") AS _griffin_first\nORDER BY " + kRowColumn;
    return rows + "\nORDER BY " + kRowColumn + limit;
  }

  // The columns a fallback check reads.
  std::vector<std::string> FallbackCheckColumns(int index) const {
    std::vector<std::string> columns;
    const CheckInfo& info = plan_.checks()[index];
    if (info.column) columns.push_back(*info.column);
    for (const RowPlan& row : plan_.rows()) {
      if (row.check_index != index) continue;
      if (row.rule->kind == RowCheck::Kind::kUnique) columns = row.rule->unique_columns;
      else if (row.rule->expr) CollectExprColumns(*row.rule->expr, &columns);
    }
    return columns;
  }

  void CompileFallback() {
    std::vector<std::string> columns;
    for (const CheckPlacement& placement : query_.placements) {
      if (placement.pushed) continue;
      for (const std::string& column : FallbackCheckColumns(placement.check_index)) {
        const bool present = !source_.columns || source_.columns->count(column);
        if (present) AddUnique(&columns, column);  // a missing one is the engine's schema error
      }
    }
    if (!query_.any_fallback()) return;
    CompileWholeScan();
    query_.fallback_columns = columns;
    std::vector<std::string> select;
    for (const std::string& column : columns) select.push_back(Id(column));
    std::string from = FromWhere();
    std::string order;
    if (!bad_terms_.empty()) {
      query_.fallback_has_pushed_bad = true;
      select.push_back("CASE WHEN " + Join(bad_terms_, " OR ") + " THEN 1 ELSE 0 END AS " + kPushedBadColumn);
      if (!bad_windows_.empty()) {  // windows reorder rows: put them back in row order
        query_.fallback_uses_windows = true;
        from = RowsSql(Concat(columns, PushedColumns()), bad_windows_);
        order = std::string("\nORDER BY ") + kRowColumn;
      }
    }
    if (select.empty()) select.push_back("1 AS _griffin_none");
    query_.fallback_sql = "SELECT " + Join(select, ", ") + "\nFROM " + from + order;
  }

  // Every column the suite reads that the source has, in rule order.
  void CompileWholeScan() {
    std::vector<std::string> columns, select;
    for (const ColumnPlan& column : plan_.columns()) AddUnique(&columns, column.name);
    for (size_t i = 0; i < plan_.checks().size(); ++i)
      for (const std::string& column : FallbackCheckColumns(static_cast<int>(i))) AddUnique(&columns, column);
    for (const std::string& column : columns)
      if (!source_.columns || source_.columns->count(column)) select.push_back(Id(column));
    if (select.empty()) select.push_back("1 AS _griffin_none");
    query_.scan_select = Join(select, ", ");
    query_.scan_sql = "SELECT " + query_.scan_select + "\nFROM " + FromWhere();
  }

  static std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
    for (const std::string& item : b) AddUnique(&a, item);
    return a;
  }

  const Plan& plan_;
  const SqlDialect& dialect_;
  const PushdownSource& source_;
  int64_t max_violations_;
  bool engine_error_uniques_;
  PushdownQuery query_;
  std::vector<std::string> select_;
  std::vector<std::string> bad_terms_;  // pushed error checks' violation predicates
  std::vector<int> bad_windows_;        // pushed error unique checks (need windows per row)
  std::map<int, std::vector<std::string>> unique_values_;  // pushed unique checks: the values they compare
};

}  // namespace

StoredType NativeStorage(ValueType type) {
  switch (type) {
    case ValueType::kString: return StoredType::kText;
    case ValueType::kInt64: return StoredType::kInteger;
    case ValueType::kFloat64: return StoredType::kDouble;
    case ValueType::kBool: return StoredType::kBool;
    case ValueType::kDate: return StoredType::kDate;
    case ValueType::kTimestamp: return StoredType::kTimestamp;
  }
  return StoredType::kOther;
}

const char* StoredTypeName(StoredType type) {
  switch (type) {
    case StoredType::kText: return "text";
    case StoredType::kInteger: return "an integer";
    case StoredType::kDouble: return "a double";
    case StoredType::kBool: return "a boolean";
    case StoredType::kDate: return "a date";
    case StoredType::kTimestamp: return "a timestamp";
    case StoredType::kOther: return "another type";
  }
  return "another type";
}

bool PushdownQuery::any_fallback() const {
  for (const CheckPlacement& placement : placements)
    if (!placement.pushed) return true;
  return false;
}

Result<PushdownQuery> CompilePushdown(const Plan& plan, const SqlDialect& dialect, const PushdownSource& source,
                                      int64_t max_violations) {
  ASSIGN_OR_RETURN(PushdownQuery query, Compiler(plan, dialect, source, max_violations, false).Compile());
  if (!source.windowless_fallback || !query.fallback_uses_windows) return query;
  return Compiler(plan, dialect, source, max_violations, true).Compile();
}

}  // namespace griffin::sql

namespace griffin::sql {

std::string DialectTableName(const SqlDialect& dialect, const std::string& table) {
  const size_t dot = table.find('.');
  if (dot == std::string::npos) return dialect.QuoteIdentifier(table);
  return dialect.QuoteIdentifier(table.substr(0, dot)) + "." + dialect.QuoteIdentifier(table.substr(dot + 1));
}

std::string RenderPushdownScript(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect) {
  // Comments hold check names and reasons: a line break in them would end the comment.
  auto comment = [](std::string text) {
    for (char& c : text)
      if (c == '\n' || c == '\r') c = ' ';
    return "-- " + text + "\n";
  };
  std::string out = comment(std::string("griffin pushdown, dialect ") + dialect.name() + ", dataset " +
                            plan.rules().dataset);
  for (const CheckPlacement& placement : query.placements) {
    const std::string& name = plan.checks()[placement.check_index].name;
    out += comment(name + (placement.pushed ? ": in the database" : ": in the engine (scan), " + placement.reason));
  }
  out += "\n" + comment("1. The aggregate: every pushed check's counts and metrics, in one pass") +
         query.aggregate_sql + ";\n";
  for (const CheckPlacement& placement : query.placements) {
    if (placement.sample_sql.empty()) continue;
    out += "\n" + comment("2. When " + plan.checks()[placement.check_index].name +
                          " fails: its first violations in row order (_griffin_row)") +
           placement.sample_sql + ";\n";
  }
  if (!query.fallback_sql.empty())
    out += "\n" + comment("3. The rows the engine scans for the checks it runs") + query.fallback_sql + ";\n";
  if (!query.scan_sql.empty())
    out += "\n" + comment("The plan --mode pushdown takes: checks run in the engine, which reads every row anyway, so the "
                           "whole suite runs in one scan of these rows instead of 1-3 (--mode pushdown-split runs 1-3)") +
           query.scan_sql + ";\n";
  return out;
}

}  // namespace griffin::sql
