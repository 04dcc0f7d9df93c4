#include "rules/row_rule_loader.h"

#include <optional>
#include <string>

#include "rules/expr_checks.h"
#include "rules/expr_parser.h"

namespace griffin::rules_internal {

namespace {

Status LoadExpr(const YamlContext& ctx, const Field& field, const std::vector<ColumnRule>& columns,
                RowCheck* check) {
  ASSIGN_OR_RETURN(check->expr_text, ReadString(ctx, field));
  check->expr_location = field.key_location;
  // The parser's errors read "at offset N: <what>"; they gain file, line and key here.
  Result<std::shared_ptr<const ExprNode>> parsed = ParseExpression(check->expr_text);
  if (!parsed.ok()) return ctx.Error(field, parsed.status().message());
  check->expr = std::move(parsed).value();
  if (check->expr == nullptr) return ctx.Error(field, "empty expression");
  Status literals = CheckExpressionLiterals(*check->expr, columns);
  if (!literals.ok()) return ctx.Error(field, literals.message());
  return Status::OK();
}

Status LoadUniqueColumns(const YamlContext& ctx, const Field& field, RowCheck* check) {
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, field, "a list of column names"));
  if (items.empty()) return ctx.Error(field, "needs at least one column");
  for (const Field& item : items) {
    ASSIGN_OR_RETURN(std::string name, ReadString(ctx, item));
    if (name.empty()) return ctx.Error(item, "column names cannot be empty");
    check->unique_columns.push_back(std::move(name));
  }
  return Status::OK();
}

Result<RowCheck> LoadRowCheck(const YamlContext& ctx, const Field& item,
                              const std::vector<ColumnRule>& columns) {
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, item, "a map like {name: ..., expr: ...}"));
  RowCheck check;
  check.location = item.key_location;
  std::optional<Field> expr, unique;
  bool has_name = false;
  for (const Field& entry : entries) {
    if (entry.key == "name") {
      ASSIGN_OR_RETURN(check.name, ReadString(ctx, entry));
      if (check.name.empty()) return ctx.Error(entry, "row check names cannot be empty");
      has_name = true;
    } else if (entry.key == "expr") {
      expr = entry;
    } else if (entry.key == "unique") {
      unique = entry;
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, true, &check.options));
      if (!is_option) {
        return UnknownKey(ctx, entry, {"name", "expr", "unique", "severity", "mostly", "message"});
      }
    }
  }
  if (!has_name) return ctx.Error(item, "missing name (every row check needs one)");
  if (expr.has_value() && unique.has_value()) {
    return ctx.Error(item, "give either expr or unique, not both");
  }
  if (expr.has_value()) {
    check.kind = RowCheck::Kind::kExpr;
    RETURN_IF_ERROR(LoadExpr(ctx, *expr, columns, &check));
  } else if (unique.has_value()) {
    check.kind = RowCheck::Kind::kUnique;
    RETURN_IF_ERROR(LoadUniqueColumns(ctx, *unique, &check));
  } else {
    return ctx.Error(item, "needs expr or unique");
  }
  return check;
}

}  // namespace

Result<std::vector<RowCheck>> LoadRowChecks(const YamlContext& ctx, const Field& rows,
                                            const std::vector<ColumnRule>& columns) {
  std::vector<RowCheck> checks;
  if (rows.node.IsNull()) return checks;
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, rows, "a list of row checks"));
  for (const Field& item : items) {
    ASSIGN_OR_RETURN(RowCheck check, LoadRowCheck(ctx, item, columns));
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace griffin::rules_internal
