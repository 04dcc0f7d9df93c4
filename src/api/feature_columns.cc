#include "api/feature_columns.h"

namespace griffin {
namespace {

const ColumnRule* FindRule(const RuleSet& rules, const std::string& name) {
  for (const ColumnRule& rule : rules.columns)
    if (rule.name == name) return &rule;
  return nullptr;
}

const ColumnCheck* FindErrorCheck(const ColumnRule& rule, ColumnCheckKind kind) {
  for (const ColumnCheck& check : rule.checks)
    if (check.kind == kind && check.options.severity == Severity::kError) return &check;
  return nullptr;
}

FeatureDType DefaultDType(ValueType type, bool narrow) {
  switch (type) {
    case ValueType::kFloat64: return narrow ? FeatureDType::kFloat32 : FeatureDType::kFloat64;
    case ValueType::kBool: return FeatureDType::kBool;
    case ValueType::kString: return FeatureDType::kInt32;   // category codes
    default: return narrow ? FeatureDType::kInt32 : FeatureDType::kInt64;
  }
}

bool IsNumericDType(FeatureDType dtype) { return dtype != FeatureDType::kBool; }

// Why `rule` cannot feed batches, or "" when it can.
std::string Unsuitable(const ColumnRule& rule) {
  if (FindErrorCheck(rule, ColumnCheckKind::kNotNull) == nullptr)
    return "it may be null in clean rows; give it `not_null: true` (error severity) in the rule file";
  if (rule.type == ValueType::kString && FindErrorCheck(rule, ColumnCheckKind::kIn) == nullptr)
    return "it is a string column without an error-severity `in:` list; only listed categories become codes";
  return "";
}

}  // namespace

const char* FeatureDTypeName(FeatureDType dtype) {
  switch (dtype) {
    case FeatureDType::kFloat32: return "float32";
    case FeatureDType::kFloat64: return "float64";
    case FeatureDType::kInt32: return "int32";
    case FeatureDType::kInt64: return "int64";
    case FeatureDType::kBool: return "bool";
  }
  return "?";
}

Result<FeatureDType> ParseFeatureDType(const std::string& name) {
  for (FeatureDType dtype : {FeatureDType::kFloat32, FeatureDType::kFloat64, FeatureDType::kInt32,
                             FeatureDType::kInt64, FeatureDType::kBool})
    if (name == FeatureDTypeName(dtype)) return dtype;
  return Status::UsageError("unknown dtype '" + name + "' (expected float32, float64, int32, int64 or bool)");
}

int FeatureDTypeWidth(FeatureDType dtype) {
  switch (dtype) {
    case FeatureDType::kFloat32:
    case FeatureDType::kInt32: return 4;
    case FeatureDType::kBool: return 1;
    default: return 8;
  }
}

Result<std::vector<FeatureColumn>> PlanFeatureColumns(const Plan& plan, const std::vector<std::string>& names,
                                                      const std::map<std::string, std::string>& dtypes,
                                                      bool narrow) {
  const RuleSet& rules = plan.rules();
  std::vector<const ColumnRule*> chosen;
  if (names.empty()) {
    for (const ColumnRule& rule : rules.columns)
      if (Unsuitable(rule).empty()) chosen.push_back(&rule);
    if (chosen.empty())
      return Status::UsageError("no column of dataset '" + rules.dataset +
                                "' can feed batches: each needs `not_null: true`, and a string column an `in:` list");
  } else {
    for (const std::string& name : names) {
      const ColumnRule* rule = FindRule(rules, name);
      if (rule == nullptr)
        return Status::UsageError("column '" + name + "' is not declared in the rules of dataset '" +
                                  rules.dataset + "'");
      for (const ColumnRule* seen : chosen)
        if (seen == rule) return Status::UsageError("column '" + name + "' is listed twice");
      const std::string why = Unsuitable(*rule);
      if (!why.empty()) return Status::UsageError("column '" + name + "' cannot feed batches: " + why);
      chosen.push_back(rule);
    }
  }
  for (const auto& [name, dtype] : dtypes) {
    bool found = false;
    for (const ColumnRule* rule : chosen) found |= rule->name == name;
    if (!found) return Status::UsageError("dtypes names column '" + name + "', which is not among the columns");
  }

  std::vector<FeatureColumn> out;
  for (const ColumnRule* rule : chosen) {
    FeatureColumn column;
    column.name = rule->name;
    column.slot = plan.FindColumn(rule->name);
    if (column.slot < 0) return Status::Internal("declared column '" + rule->name + "' has no plan slot");
    column.source_type = rule->type;
    column.dtype = DefaultDType(rule->type, narrow);
    auto requested = dtypes.find(rule->name);
    if (requested != dtypes.end()) {
      ASSIGN_OR_RETURN(column.dtype, ParseFeatureDType(requested->second));
      const bool is_bool = rule->type == ValueType::kBool;
      const bool is_int = column.dtype == FeatureDType::kInt32 || column.dtype == FeatureDType::kInt64;
      const bool is_float = column.dtype == FeatureDType::kFloat32 || column.dtype == FeatureDType::kFloat64;
      // Floats never silently become integers; codes stay integers.
      const bool fits = rule->type == ValueType::kString    ? is_int
                        : rule->type == ValueType::kFloat64 ? is_float
                                                            : is_bool || IsNumericDType(column.dtype);
      if (!fits)
        return Status::UsageError("column '" + rule->name + "' (" + ValueTypeName(rule->type) +
                                  ") cannot be given dtype " + requested->second);
    }
    if (rule->type == ValueType::kString)
      for (const Literal& value : FindErrorCheck(*rule, ColumnCheckKind::kIn)->values)
        column.vocabulary.push_back(value.text);
    out.push_back(std::move(column));
  }
  return out;
}

}  // namespace griffin
