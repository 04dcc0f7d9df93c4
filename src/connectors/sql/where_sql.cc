#include "connectors/sql/where_sql.h"

#include <arrow/builder.h>

#include "connectors/sql/sql_increment.h"
#include "rules/where_predicate.h"
#include "util/value_parse.h"

namespace griffin::sql {
namespace {

class WhereWriter {
 public:
  WhereWriter(const SqlDialect& dialect, const Placeholders& placeholder, int first)
      : dialect_(dialect), placeholder_(placeholder), next_(first) {}

  Result<std::string> Write(const WherePredicate& node) {
    using Kind = WherePredicate::Kind;
    const auto& kids = node.children;
    const std::string maybe_not = node.negated ? "NOT " : "";
    switch (node.kind) {
      case Kind::kColumn: return dialect_.QuoteIdentifier(node.column);
      case Kind::kLiteral: return Value(node.literal);
      case Kind::kAnd: case Kind::kOr: {
        ASSIGN_OR_RETURN(std::string left, Write(*kids[0]));
        ASSIGN_OR_RETURN(std::string right, Write(*kids[1]));
        return "(" + left + (node.kind == Kind::kAnd ? " AND " : " OR ") + right + ")";
      }
      case Kind::kNot: {
        ASSIGN_OR_RETURN(std::string inner, Write(*kids[0]));
        return "(NOT " + inner + ")";
      }
      case Kind::kCompare: {
        ASSIGN_OR_RETURN(std::string left, Write(*kids[0]));
        ASSIGN_OR_RETURN(std::string right, Write(*kids[1]));
        return "(" + left + " " + node.op + " " + right + ")";
      }
      case Kind::kIsNull: {
        ASSIGN_OR_RETURN(std::string operand, Write(*kids[0]));
        return "(" + operand + (node.negated ? " IS NOT NULL)" : " IS NULL)");
      }
      case Kind::kIn: {
        ASSIGN_OR_RETURN(std::string operand, Write(*kids[0]));
        std::string list;
        for (size_t i = 1; i < kids.size(); ++i) {
          ASSIGN_OR_RETURN(std::string value, Write(*kids[i]));
          list += (i > 1 ? ", " : "") + value;
        }
        return "(" + operand + " " + maybe_not + "IN (" + list + "))";
      }
      case Kind::kBetween: {
        ASSIGN_OR_RETURN(std::string operand, Write(*kids[0]));
        ASSIGN_OR_RETURN(std::string low, Write(*kids[1]));
        ASSIGN_OR_RETURN(std::string high, Write(*kids[2]));
        return "(" + operand + " " + maybe_not + "BETWEEN " + low + " AND " + high + ")";
      }
      case Kind::kLike: {
        ASSIGN_OR_RETURN(std::string operand, Write(*kids[0]));
        ASSIGN_OR_RETURN(std::string pattern, Write(*kids[1]));
        return "(" + operand + " " + maybe_not + "LIKE " + pattern + ")";
      }
    }
    return Status::Internal("where: unknown node");
  }

  std::vector<Literal> TakeParams() { return std::move(params_); }

 private:
  Result<std::string> Value(const Literal& literal) {
    if (placeholder_) {
      params_.push_back(literal);
      return placeholder_(next_++);
    }
    std::optional<std::string> spelled;
    switch (literal.kind) {
      case Literal::Kind::kString: spelled = dialect_.StringLiteral(literal.text); break;
      case Literal::Kind::kInt: spelled = std::to_string(literal.int_value); break;
      case Literal::Kind::kFloat: spelled = dialect_.DoubleLiteral(literal.float_value); break;
      case Literal::Kind::kBool: spelled = literal.int_value ? "TRUE" : "FALSE"; break;
      case Literal::Kind::kDate: spelled = dialect_.DateLiteral(FormatDate(literal.int_value)); break;
      default: break;
    }
    if (!spelled) return Status::UsageError(std::string("where: ") + dialect_.name() + " cannot spell the value " +
                                            DescribeParam(literal));
    return *spelled;
  }

  const SqlDialect& dialect_;
  const Placeholders& placeholder_;
  int next_;
  std::vector<Literal> params_;
};

}  // namespace

Placeholders BindingFor(SqlEngine engine) {
  return [engine](int n) { return Placeholder(engine, n); };
}

Result<WhereSql> CompileWhere(const std::string& where, const SqlDialect& dialect, const Placeholders& placeholder,
                              int first) {
  if (where.empty()) return WhereSql{};
  Result<std::unique_ptr<WherePredicate>> parsed = ParseWhere(where);
  if (!parsed.ok()) return Status::UsageError("where: " + parsed.status().message());
  WhereWriter writer(dialect, placeholder, first);
  ASSIGN_OR_RETURN(std::string sql, writer.Write(**parsed));
  if (sql.front() != '(') sql = "(" + sql + ")";
  return WhereSql{std::move(sql), writer.TakeParams()};
}

Status CheckWhereColumns(const std::string& where, const std::vector<std::string>& columns, SqlEngine engine,
                         const std::string& context) {
  if (where.empty()) return Status::OK();
  Result<std::unique_ptr<WherePredicate>> parsed = ParseWhere(where);
  if (!parsed.ok()) return Status::UsageError("where: " + parsed.status().message());
  auto fold = [&](std::string name) {
    if (engine != SqlEngine::kPostgresql)
      for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return name;
  };
  std::string listed;
  for (const std::string& column : columns) listed += (listed.empty() ? "" : ", ") + column;
  for (const std::string& name : WhereColumns(**parsed)) {
    bool found = false;
    for (const std::string& column : columns) found = found || fold(column) == fold(name);
    if (!found)
      return Status::InputError(context + ": where names column '" + name + "', which the source does not have (it has: " +
                                listed + ")");
  }
  return Status::OK();
}

arrow::ArrayVector WhereArrays(const std::vector<Literal>& params, SqlEngine engine) {
  const bool sqlite = engine == SqlEngine::kSqlite;
  arrow::ArrayVector arrays;
  for (const Literal& param : params) {
    std::shared_ptr<arrow::Array> array;
    auto finish = [&](arrow::ArrayBuilder& builder) { (void)builder.Finish(&array); };
    switch (param.kind) {
      case Literal::Kind::kInt: {
        arrow::Int64Builder builder;
        (void)builder.Append(param.int_value);
        finish(builder);
        break;
      }
      case Literal::Kind::kFloat: {
        arrow::DoubleBuilder builder;
        (void)builder.Append(param.float_value);
        finish(builder);
        break;
      }
      case Literal::Kind::kBool:
        if (sqlite) {
          arrow::Int64Builder builder;
          (void)builder.Append(param.int_value ? 1 : 0);
          finish(builder);
        } else {
          arrow::BooleanBuilder builder;
          (void)builder.Append(param.int_value != 0);
          finish(builder);
        }
        break;
      case Literal::Kind::kDate:
        if (sqlite) {
          arrow::StringBuilder builder;
          (void)builder.Append(FormatDate(param.int_value));
          finish(builder);
        } else {
          arrow::Date32Builder builder;
          (void)builder.Append(static_cast<int32_t>(param.int_value));
          finish(builder);
        }
        break;
      default: {
        arrow::StringBuilder builder;
        (void)builder.Append(param.text);
        finish(builder);
        break;
      }
    }
    arrays.push_back(std::move(array));
  }
  return arrays;
}

std::string DescribeParam(const Literal& param) {
  switch (param.kind) {
    case Literal::Kind::kInt: return std::to_string(param.int_value);
    case Literal::Kind::kFloat: return param.text;
    case Literal::Kind::kBool: return param.int_value ? "TRUE" : "FALSE";
    case Literal::Kind::kDate: return "DATE '" + FormatDate(param.int_value) + "'";
    default: {
      std::string quoted = "'";
      for (char c : param.text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
      return quoted + "'";
    }
  }
}

}  // namespace griffin::sql
