#include "rules/expr_checks.h"

#include <re2/re2.h>

#include <string>

#include "util/value_parse.h"

namespace griffin::rules_internal {

namespace {

Status ErrorAt(int offset, const std::string& what) {
  return Status::RuleError("at offset " + std::to_string(offset) + ": " + what);
}

const ColumnRule* FindColumn(const std::vector<ColumnRule>& columns, const std::string& name) {
  for (const ColumnRule& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

bool IsComparison(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

bool IsStringLiteral(const ExprNode& node) {
  return node.kind == ExprNode::Kind::kLiteral &&
         node.literal_kind == ExprNode::LiteralKind::kString;
}

// The declared date/timestamp column `node` names, if it does.
const ColumnRule* TemporalColumn(const ExprNode& node, const std::vector<ColumnRule>& columns) {
  if (node.kind != ExprNode::Kind::kColumn) return nullptr;
  const ColumnRule* column = FindColumn(columns, node.name);
  if (column == nullptr) return nullptr;
  if (column->type != ValueType::kDate && column->type != ValueType::kTimestamp) return nullptr;
  return column;
}

// A string literal compared with a date/timestamp column must be a date or
// timestamp (a date compared with a timestamp is midnight UTC).
Status CheckTemporalLiteral(const ExprNode& literal, const ColumnRule& column) {
  if (!IsStringLiteral(literal)) return Status::OK();
  const std::string& text = literal.text;
  bool parses = ParseDate(text).has_value() || ParseTimestamp(text).has_value();
  if (!parses && column.timestamp_format.has_value()) {
    parses = ParseTimestampWithFormat(text, *column.timestamp_format).has_value();
  }
  if (parses) return Status::OK();
  return ErrorAt(literal.offset, "'" + text + "' is not a date or timestamp (column " +
                                     column.name + " is " + ValueTypeName(column.type) + ")");
}

Status CheckNode(const ExprNode& node, const std::vector<ColumnRule>& columns) {
  if (node.kind == ExprNode::Kind::kCall && node.name == "matches" && node.children.size() == 2 &&
      IsStringLiteral(*node.children[1])) {
    RE2 regex(node.children[1]->text, RE2::Quiet);
    if (!regex.ok()) {
      return ErrorAt(node.children[1]->offset, "bad regex in matches(): " + regex.error());
    }
  }
  if (node.kind == ExprNode::Kind::kBinary && IsComparison(node.op) && node.children.size() == 2) {
    const ExprNode& left = *node.children[0];
    const ExprNode& right = *node.children[1];
    if (const ColumnRule* column = TemporalColumn(left, columns)) {
      RETURN_IF_ERROR(CheckTemporalLiteral(right, *column));
    }
    if (const ColumnRule* column = TemporalColumn(right, columns)) {
      RETURN_IF_ERROR(CheckTemporalLiteral(left, *column));
    }
  }
  if (node.kind == ExprNode::Kind::kIn && !node.children.empty()) {
    if (const ColumnRule* column = TemporalColumn(*node.children[0], columns)) {
      for (size_t i = 1; i < node.children.size(); ++i) {
        RETURN_IF_ERROR(CheckTemporalLiteral(*node.children[i], *column));
      }
    }
  }
  for (const auto& child : node.children) {
    if (child) RETURN_IF_ERROR(CheckNode(*child, columns));
  }
  return Status::OK();
}

}  // namespace

Status CheckExpressionLiterals(const ExprNode& root, const std::vector<ColumnRule>& columns) {
  return CheckNode(root, columns);
}

}  // namespace griffin::rules_internal
