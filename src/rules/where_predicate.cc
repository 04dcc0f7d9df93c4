#include "rules/where_predicate.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "rules/expr_lexer.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

using Node = WherePredicate;
using NodePtr = std::unique_ptr<WherePredicate>;

std::string Lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

class WhereParser {
 public:
  explicit WhereParser(std::string_view text) : lexer_(text) {}

  Result<NodePtr> Parse() {
    RETURN_IF_ERROR(Advance());
    ASSIGN_OR_RETURN(NodePtr node, ParseOr());
    if (token_.kind != ExprToken::Kind::kEnd) return Unexpected("AND, OR or the end");
    return node;
  }

 private:
  Status Advance() {
    ASSIGN_OR_RETURN(token_, lexer_.Next());
    return Status::OK();
  }
  bool IsKeyword(const char* word) const { return token_.kind == ExprToken::Kind::kKeyword && token_.text == word; }
  // between, like, date: plain identifiers to the lexer.
  bool IsWord(const char* word) const {
    return token_.kind == ExprToken::Kind::kIdentifier && Lower(token_.text) == word;
  }
  bool IsOperator(const char* op) const { return token_.kind == ExprToken::Kind::kOperator && token_.text == op; }
  Status Unexpected(const std::string& expected) const {
    return ExprSyntaxError(token_.offset, "expected " + expected + ", got " + DescribeToken(token_));
  }
  Status Expect(bool found, const std::string& expected) { return found ? Advance() : Unexpected(expected); }

  static NodePtr Make(Node::Kind kind, std::vector<NodePtr> children) {
    auto node = std::make_unique<Node>();
    node->kind = kind;
    node->children = std::move(children);
    return node;
  }
  static std::vector<NodePtr> Two(NodePtr a, NodePtr b) {
    std::vector<NodePtr> nodes;
    nodes.push_back(std::move(a));
    nodes.push_back(std::move(b));
    return nodes;
  }

  Result<NodePtr> ParseOr() { return ParseChain("or", Node::Kind::kOr, &WhereParser::ParseAnd); }
  Result<NodePtr> ParseAnd() { return ParseChain("and", Node::Kind::kAnd, &WhereParser::ParseNot); }

  // next (keyword next)*, left-associative.
  Result<NodePtr> ParseChain(const char* keyword, Node::Kind kind, Result<NodePtr> (WhereParser::*next)()) {
    ASSIGN_OR_RETURN(NodePtr left, (this->*next)());
    while (IsKeyword(keyword)) {
      RETURN_IF_ERROR(Advance());
      ASSIGN_OR_RETURN(NodePtr right, (this->*next)());
      left = Make(kind, Two(std::move(left), std::move(right)));
    }
    return left;
  }

  Result<NodePtr> ParseNot() {
    if (++depth_ > 200) return ExprSyntaxError(token_.offset, "nested too deeply (more than 200 levels)");
    Result<NodePtr> node = ParseNotInner();
    --depth_;
    return node;
  }

  Result<NodePtr> ParseNotInner() {
    if (IsKeyword("not")) {
      RETURN_IF_ERROR(Advance());
      ASSIGN_OR_RETURN(NodePtr inner, ParseNot());
      std::vector<NodePtr> one;
      one.push_back(std::move(inner));
      return Make(Node::Kind::kNot, std::move(one));
    }
    if (IsOperator("(")) {
      RETURN_IF_ERROR(Advance());
      ASSIGN_OR_RETURN(NodePtr inner, ParseOr());
      RETURN_IF_ERROR(Expect(IsOperator(")"), "')'"));
      return inner;
    }
    return ParseTest();
  }

  Result<NodePtr> ParseTest() {
    ASSIGN_OR_RETURN(NodePtr left, ParseOperand());
    static const char* const kComparisons[] = {"==", "!=", "<", "<=", ">", ">="};
    for (const char* op : kComparisons) {
      if (!IsOperator(op)) continue;
      RETURN_IF_ERROR(Advance());
      ASSIGN_OR_RETURN(NodePtr right, ParseOperand());
      NodePtr node = Make(Node::Kind::kCompare, Two(std::move(left), std::move(right)));
      node->op = std::string(op) == "==" ? "=" : std::string(op) == "!=" ? "<>" : op;
      return node;
    }
    if (IsKeyword("is")) {
      RETURN_IF_ERROR(Advance());
      const bool negated = IsKeyword("not");
      if (negated) RETURN_IF_ERROR(Advance());
      RETURN_IF_ERROR(Expect(IsKeyword("null"), "NULL"));
      std::vector<NodePtr> one;
      one.push_back(std::move(left));
      NodePtr node = Make(Node::Kind::kIsNull, std::move(one));
      node->negated = negated;
      return node;
    }
    const bool negated = IsKeyword("not");
    if (negated) RETURN_IF_ERROR(Advance());
    NodePtr node;
    if (IsKeyword("in")) {
      ASSIGN_OR_RETURN(node, ParseIn(std::move(left)));
    } else if (IsWord("between")) {
      RETURN_IF_ERROR(Advance());
      ASSIGN_OR_RETURN(NodePtr low, ParseOperand());
      RETURN_IF_ERROR(Expect(IsKeyword("and"), "AND (BETWEEN low AND high)"));
      ASSIGN_OR_RETURN(NodePtr high, ParseOperand());
      std::vector<NodePtr> three = Two(std::move(left), std::move(low));
      three.push_back(std::move(high));
      node = Make(Node::Kind::kBetween, std::move(three));
    } else if (IsWord("like")) {
      RETURN_IF_ERROR(Advance());
      if (token_.kind != ExprToken::Kind::kString) return Unexpected("a 'pattern' after LIKE");
      ASSIGN_OR_RETURN(NodePtr pattern, ParseOperand());
      node = Make(Node::Kind::kLike, Two(std::move(left), std::move(pattern)));
    } else {
      return Unexpected(negated ? "IN, BETWEEN or LIKE after NOT"
                                : "a comparison (= != < <= > >=), IS [NOT] NULL, IN, BETWEEN or LIKE");
    }
    node->negated = negated;
    return node;
  }

  Result<NodePtr> ParseIn(NodePtr left) {
    RETURN_IF_ERROR(Advance());
    RETURN_IF_ERROR(Expect(IsOperator("("), "'(' after IN"));
    std::vector<NodePtr> children;
    children.push_back(std::move(left));
    while (true) {
      ASSIGN_OR_RETURN(NodePtr value, ParseOperand());
      if (value->kind != Node::Kind::kLiteral)
        return ExprSyntaxError(token_.offset, "IN takes a list of values, not column '" + value->column + "'");
      children.push_back(std::move(value));
      if (IsOperator(")")) break;
      RETURN_IF_ERROR(Expect(IsOperator(","), "',' or ')' in the IN list"));
    }
    RETURN_IF_ERROR(Advance());
    return Make(Node::Kind::kIn, std::move(children));
  }

  Result<NodePtr> LiteralNode(griffin::Literal literal) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kLiteral;
    node->literal = std::move(literal);
    RETURN_IF_ERROR(Advance());
    return node;
  }

  Result<NodePtr> Number(bool negative) {
    griffin::Literal literal;
    const std::string text = (negative ? "-" : "") + token_.text;
    literal.text = text;
    errno = 0;
    char* end = nullptr;
    if (token_.kind == ExprToken::Kind::kInteger) {
      literal.kind = griffin::Literal::Kind::kInt;
      literal.int_value = std::strtoll(text.c_str(), &end, 10);
      if (errno == ERANGE) return ExprSyntaxError(token_.offset, "the integer " + text + " does not fit 64 bits");
    } else {
      literal.kind = griffin::Literal::Kind::kFloat;
      literal.float_value = std::strtod(text.c_str(), &end);
      if (errno == ERANGE) return ExprSyntaxError(token_.offset, "the number " + text + " is out of range");
    }
    return LiteralNode(std::move(literal));
  }

  Result<NodePtr> ParseOperand() {
    griffin::Literal literal;
    switch (token_.kind) {
      case ExprToken::Kind::kString:
        literal.kind = griffin::Literal::Kind::kString;
        literal.text = token_.text;
        return LiteralNode(std::move(literal));
      case ExprToken::Kind::kInteger: case ExprToken::Kind::kDecimal: return Number(false);
      case ExprToken::Kind::kOperator:
        if (token_.text == "-") {
          RETURN_IF_ERROR(Advance());
          if (token_.kind != ExprToken::Kind::kInteger && token_.kind != ExprToken::Kind::kDecimal)
            return Unexpected("a number after '-'");
          return Number(true);
        }
        break;
      case ExprToken::Kind::kKeyword:
        if (token_.text == "true" || token_.text == "false") {
          literal.kind = griffin::Literal::Kind::kBool;
          literal.int_value = token_.text == "true";
          literal.text = token_.text;
          return LiteralNode(std::move(literal));
        }
        break;
      case ExprToken::Kind::kIdentifier: case ExprToken::Kind::kQuotedIdentifier: {
        auto node = std::make_unique<Node>();
        node->kind = Node::Kind::kColumn;
        node->column = token_.text;
        const bool may_be_date = token_.kind == ExprToken::Kind::kIdentifier && IsWord("date");
        const int offset = token_.offset;
        RETURN_IF_ERROR(Advance());
        if (!may_be_date || token_.kind != ExprToken::Kind::kString) return node;  // a column named date
        const std::optional<int64_t> days = ParseDate(token_.text);
        if (!days) return ExprSyntaxError(offset, "DATE '" + token_.text + "' is not a date (YYYY-MM-DD)");
        literal.kind = griffin::Literal::Kind::kDate;
        literal.int_value = *days;
        literal.text = token_.text;
        return LiteralNode(std::move(literal));
      }
      default: break;
    }
    return Unexpected("a column or a value ('text', a number, TRUE, FALSE, DATE 'YYYY-MM-DD')");
  }

  ExprLexer lexer_;
  ExprToken token_;
  int depth_ = 0;
};

}  // namespace

Result<std::unique_ptr<WherePredicate>> ParseWhere(std::string_view text) { return WhereParser(text).Parse(); }

std::vector<std::string> WhereColumns(const WherePredicate& predicate) {
  std::vector<std::string> names;
  std::vector<const WherePredicate*> stack = {&predicate};
  while (!stack.empty()) {
    const WherePredicate* node = stack.back();
    stack.pop_back();
    if (node->kind == WherePredicate::Kind::kColumn &&
        std::find(names.begin(), names.end(), node->column) == names.end())
      names.push_back(node->column);
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it) stack.push_back(it->get());
  }
  return names;
}

Status CheckWhereOption(std::string_view text) {
  Result<std::unique_ptr<WherePredicate>> parsed = ParseWhere(text);
  if (parsed.ok()) return Status::OK();
  return Status::UsageError("--where: " + parsed.status().message() + kWhereHint);
}

}  // namespace griffin
