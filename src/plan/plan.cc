#include "plan/plan.h"

#include <cstdlib>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "util/text_cut.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// An `in` / `not_in` list for messages: "[a, b, c]" when short, else by its
// size ("the 100,000 allowed values"), so that no message repeats a long list.
std::string LiteralListText(const std::vector<Literal>& values, ColumnCheckKind kind) {
  std::string out = "[";
  for (size_t i = 0; i < values.size() && values.size() <= kMaxListedValues && out.size() <= kMaxQuotedBytes; ++i) {
    if (i) out += ", ";
    out += values[i].text;
  }
  out += "]";
  if (values.size() <= kMaxListedValues && out.size() <= kMaxQuotedBytes) return out;
  return "the " + WithThousands(static_cast<int64_t>(values.size())) +
         (kind == ColumnCheckKind::kIn ? " allowed values" : " forbidden values");
}

// Resolves a min/max/gt/lt bound into the column representation.
Status ResolveBound(const Literal& bound, ValueType type, int64_t now_micros,
                    CompiledColumnCheck* out) {
  out->bound_text = bound.text;
  switch (bound.kind) {
    case Literal::Kind::kInt:
      out->bound_int = bound.int_value;
      out->bound_float = static_cast<double>(bound.int_value);
      out->bound_is_float = type == ValueType::kFloat64;
      return Status::OK();
    case Literal::Kind::kFloat:
      out->bound_float = bound.float_value;
      out->bound_is_float = true;
      return Status::OK();
    case Literal::Kind::kDate:
      out->bound_int = type == ValueType::kTimestamp ? bound.int_value * 86400000000LL
                                                      : bound.int_value;
      return Status::OK();
    case Literal::Kind::kTimestamp:
      out->bound_int = bound.int_value;
      out->date_vs_micros = type == ValueType::kDate;
      return Status::OK();
    case Literal::Kind::kNow:
      out->bound_text = "now";
      out->bound_int = now_micros;
      out->date_vs_micros = type == ValueType::kDate;
      return Status::OK();
    default:
      return Status::Internal("unexpected bound literal " + bound.text);
  }
}

void ResolveValueList(const std::vector<Literal>& values, ValueType type, CompiledColumnCheck* out) {
  out->bound_text = LiteralListText(values, out->kind);
  std::vector<std::string> strings;
  std::vector<int64_t> ints;
  for (const Literal& v : values) {
    if (type == ValueType::kString) {
      strings.push_back(v.text);
    } else if (type == ValueType::kFloat64) {
      double f = v.kind == Literal::Kind::kInt ? static_cast<double>(v.int_value) : v.float_value;
      if (std::isnan(f)) out->float_values_has_nan = true;
      else out->float_values.push_back(f == 0 ? 0.0 : f);
    } else {
      ints.push_back(v.int_value);
    }
  }
  std::sort(out->float_values.begin(), out->float_values.end());
  out->string_values = StringValueSet(strings);
  out->int_values = IntValueSet(std::move(ints));
}

void CollectExprColumns(const ExprNode& node, std::vector<std::string>* names) {
  if (node.kind == ExprNode::Kind::kColumn) names->push_back(node.name);
  for (const auto& child : node.children) CollectExprColumns(*child, names);
}

}  // namespace

Result<std::shared_ptr<const Plan>> Plan::Compile(const RuleSet& rules, int64_t now_micros) {
  std::shared_ptr<Plan> plan(new Plan(rules));
  plan->now_micros_ = now_micros;
  for (const ColumnRule& rule : plan->rules_.columns) RETURN_IF_ERROR(plan->AddColumnChecks(rule));
  RETURN_IF_ERROR(plan->AddRowChecks());
  RETURN_IF_ERROR(plan->AddTableChecks());
  plan->AddHistoryChecks();

  // Report order is file order: sort by key location and remap indices.
  std::vector<int> order(plan->checks_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return plan->checks_[a].location < plan->checks_[b].location;
  });
  std::vector<int> new_index(order.size());
  std::vector<CheckInfo> sorted;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    new_index[order[pos]] = static_cast<int>(pos);
    sorted.push_back(plan->checks_[order[pos]]);
  }
  plan->checks_ = std::move(sorted);
  for (ColumnPlan& column : plan->columns_)
    for (CompiledColumnCheck& check : column.checks) check.check_index = new_index[check.check_index];
  for (RowPlan& row : plan->rows_) row.check_index = new_index[row.check_index];
  for (TablePlan& table : plan->table_) table.check_index = new_index[table.check_index];
  for (HistoryPlan& history : plan->history_) history.check_index = new_index[history.check_index];
  return std::shared_ptr<const Plan>(std::move(plan));
}

Status Plan::AddColumnChecks(const ColumnRule& rule) {
  ColumnPlan column;
  column.name = rule.name;
  column.type = rule.type;
  column.timestamp_format = rule.timestamp_format;
  column.required = rule.required;
  for (const ColumnCheck& check : rule.checks) {
    CompiledColumnCheck compiled;
    compiled.kind = check.kind;
    compiled.check_index = static_cast<int>(checks_.size());
    switch (check.kind) {
      case ColumnCheckKind::kMin: case ColumnCheckKind::kMax:
      case ColumnCheckKind::kGt: case ColumnCheckKind::kLt:
        RETURN_IF_ERROR(ResolveBound(check.bound, rule.type, now_micros_, &compiled));
        break;
      case ColumnCheckKind::kRegex: case ColumnCheckKind::kContains: {
        RE2::Options options;
        options.set_log_errors(false);
        auto regex = std::make_shared<RE2>(check.pattern, options);
        if (!regex->ok())
          return Status::RuleError(rules_.path + ":" + std::to_string(check.location.line) + ": columns." +
                                   rule.name + ": bad regex: " + regex->error());
        compiled.regex = std::move(regex);
        compiled.bound_text = check.pattern;
        if (check.kind == ColumnCheckKind::kRegex) {
          // GRIFFIN_NO_REGEX_DFA=1 keeps every regex on RE2: a diagnostic switch,
          // which the tests use to compare the two paths' reports.
          static const bool no_dfa = std::getenv("GRIFFIN_NO_REGEX_DFA") != nullptr;
          std::string why_not = "GRIFFIN_NO_REGEX_DFA is set";
          if (!no_dfa) compiled.regex_dfa = RegexDfa::Compile(check.pattern, &why_not);
          compiled.regex_path = compiled.regex_dfa
                                    ? "dfa (" + std::to_string(compiled.regex_dfa->states()) + " states, " +
                                          std::to_string(compiled.regex_dfa->byte_classes()) +
                                          " byte classes; values with non-ASCII bytes go to RE2)"
                                    : "re2 (" + why_not + ")";
        } else {
          compiled.regex_path = "re2 (contains: a partial match)";
        }
        break;
      }
      case ColumnCheckKind::kIn: case ColumnCheckKind::kNotIn:
        ResolveValueList(check.values, rule.type, &compiled);
        break;
      case ColumnCheckKind::kLength:
        compiled.length_min = check.length_min.value_or(0);
        compiled.length_max = check.length_max.value_or(INT64_MAX);
        break;
      case ColumnCheckKind::kType:
        compiled.bound_text = ValueTypeName(rule.type);
        break;
      default:
        break;
    }
    CheckInfo info;
    info.name = rule.name + "." + ColumnCheckKindName(check.kind);
    info.column = rule.name;
    info.check = ColumnCheckKindName(check.kind);
    info.scope = CheckScope::kColumn;
    info.options = check.options;
    info.location = check.location;
    checks_.push_back(std::move(info));
    column.checks.push_back(std::move(compiled));
  }
  columns_.push_back(std::move(column));
  return Status::OK();
}

int Plan::AddUndeclaredColumn(const std::string& name) {
  int slot = FindColumn(name);
  if (slot >= 0) return slot;
  ColumnPlan column;
  column.name = name;
  column.type = ValueType::kString;  // text inputs; typed inputs rebind per schema
  column.required = true;
  column.declared = false;
  columns_.push_back(std::move(column));
  return static_cast<int>(columns_.size()) - 1;
}

Status Plan::AddRowChecks() {
  for (const RowCheck& rule : rules_.rows) {
    const bool is_unique = rule.kind == RowCheck::Kind::kUnique;
    RowPlan row;
    row.rule = &rule;
    row.check_index = static_cast<int>(checks_.size());
    std::vector<std::string> names;
    if (is_unique) names = rule.unique_columns;
    else if (rule.expr) CollectExprColumns(*rule.expr, &names);
    for (const std::string& name : names) row.column_slots.push_back(AddUndeclaredColumn(name));
    if (!is_unique) row.column_slots.clear();  // an expression's columns are bound by the engine
    CheckInfo info;
    info.name = rule.name;
    info.check = is_unique ? "unique" : "expr";
    info.scope = CheckScope::kRow;
    info.options = rule.options;
    info.location = rule.location;
    checks_.push_back(std::move(info));
    rows_.push_back(std::move(row));
  }
  return Status::OK();
}

void Plan::AddHistoryChecks() {
  for (const ColumnRule& rule : rules_.columns) {
    if (!rule.drift) continue;
    CheckInfo info;
    info.check = "drift";
    info.name = rule.name + ".drift";
    info.column = rule.name;
    info.scope = CheckScope::kTable;
    info.options = rule.drift->options;
    info.location = rule.drift->location;
    history_.push_back(HistoryPlan{static_cast<int>(checks_.size()), &rule});
    checks_.push_back(std::move(info));
  }
  for (const AnomalyCheck& anomaly : rules_.anomalies) {
    CheckInfo info;
    info.check = "anomaly";
    info.name = anomaly.CheckName();
    info.column = anomaly.column;
    info.scope = CheckScope::kTable;
    info.options = anomaly.options;
    info.location = anomaly.location;
    history_.push_back(HistoryPlan{static_cast<int>(checks_.size()), nullptr, &anomaly});
    checks_.push_back(std::move(info));
  }
}

Status Plan::AddTableChecks() {
  for (const TableCheck& rule : rules_.table) {
    TablePlan table;
    table.rule = &rule;
    table.check_index = static_cast<int>(checks_.size());
    CheckInfo info;
    info.check = TableMetricName(rule.metric);
    if (rule.column) {
      table.column_slot = FindColumn(*rule.column);
      if (table.column_slot < 0)
        return Status::RuleError(rules_.path + ":" + std::to_string(rule.location.line) +
                                 ": table: column '" + *rule.column + "' is not declared in columns");
      info.name = *rule.column + "." + info.check;
      info.column = rule.column;
    } else {
      info.name = "table." + info.check;
    }
    info.scope = CheckScope::kTable;
    info.options = rule.options;
    info.location = rule.location;
    checks_.push_back(std::move(info));
    table_.push_back(std::move(table));
  }
  return Status::OK();
}

int Plan::FindColumn(const std::string& name) const {
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Plan::ReferencedColumns() const {
  std::vector<std::string> names;
  for (const ColumnPlan& column : columns_) names.push_back(column.name);
  return names;
}

}  // namespace griffin
