// Recursive-descent parser for the row-expression grammar in expr_parser.h.
//
// Two limits keep hostile input from exhausting the stack, here and in every
// later pass that recurses over the tree (compiler, destructor):
//   kMaxNesting     recursion through parentheses, call arguments, in-lists,
//                   `not` and unary `-`;
//   kMaxTreeHeight  height of the finished tree, which long left-associative
//                   chains (a + a + a + ...) grow without any nesting.
#include "rules/expr_parser.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "rules/expr_lexer.h"

namespace griffin {
namespace {

constexpr int kMaxNesting = 256;
constexpr int kMaxTreeHeight = 1000;

using NodePtr = std::shared_ptr<ExprNode>;

// A subtree and its height (a leaf has height 1).
struct Parsed {
  NodePtr node;
  int height = 1;
};

struct FunctionSpec {
  const char* name;
  size_t arity;
};
constexpr FunctionSpec kFunctions[] = {
    {"abs", 1}, {"length", 1}, {"lower", 1}, {"upper", 1}, {"matches", 2}};

std::string LowerAscii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

bool IsComparison(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

class Parser {
 public:
  explicit Parser(std::vector<ExprToken> tokens) : tokens_(std::move(tokens)) {}

  Result<std::shared_ptr<const ExprNode>> ParseAll() {
    if (Peek().kind == ExprToken::Kind::kEnd) return ExprSyntaxError(0, "empty expression");
    ASSIGN_OR_RETURN(Parsed root, ParseOr());
    if (Peek().kind != ExprToken::Kind::kEnd) {
      return ExprSyntaxError(Peek().offset,
                             "unexpected " + DescribeToken(Peek()) + " after a complete expression");
    }
    return std::shared_ptr<const ExprNode>(std::move(root.node));
  }

 private:
  // Counts one level of recursion for as long as it lives.
  class NestingGuard {
   public:
    explicit NestingGuard(int* depth) : depth_(depth) { ++*depth_; }
    ~NestingGuard() { --*depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    int* depth_;
  };

  const ExprToken& Peek() const { return tokens_[pos_]; }
  const ExprToken& PeekAt(size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  ExprToken Take() {
    ExprToken token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  bool IsKeyword(const char* word) const {
    return Peek().kind == ExprToken::Kind::kKeyword && Peek().text == word;
  }
  bool IsOperator(const char* op) const {
    return Peek().kind == ExprToken::Kind::kOperator && Peek().text == op;
  }
  Status Unexpected(const char* expected = nullptr) const {
    std::string what = "unexpected " + DescribeToken(Peek());
    if (expected != nullptr) what += std::string(", expected ") + expected;
    return ExprSyntaxError(Peek().offset, what);
  }
  Status Expect(const char* op) {
    if (!IsOperator(op)) return Unexpected((std::string("'") + op + "'").c_str());
    Take();
    return Status::OK();
  }
  Status CheckNesting(int offset) const {
    if (depth_ > kMaxNesting) {
      return ExprSyntaxError(offset, "expression nested too deeply (more than " +
                                         std::to_string(kMaxNesting) + " levels)");
    }
    return Status::OK();
  }

  static NodePtr NewNode(ExprNode::Kind kind, int offset) {
    auto node = std::make_shared<ExprNode>();
    node->kind = kind;
    node->offset = offset;
    return node;
  }

  // Makes `node` the parent of `children`, enforcing kMaxTreeHeight.
  static Result<Parsed> Adopt(NodePtr node, std::vector<Parsed> children) {
    int height = 0;
    for (Parsed& child : children) {
      height = std::max(height, child.height);
      node->children.push_back(std::move(child.node));
    }
    if (height + 1 > kMaxTreeHeight) {
      return ExprSyntaxError(node->offset, "expression too large (more than " +
                                               std::to_string(kMaxTreeHeight) + " levels deep)");
    }
    return Parsed{std::move(node), height + 1};
  }

  Result<Parsed> Binary(const ExprToken& op_token, std::string op, Parsed left, Parsed right) {
    NodePtr node = NewNode(ExprNode::Kind::kBinary, op_token.offset);
    node->op = std::move(op);
    std::vector<Parsed> children;
    children.push_back(std::move(left));
    children.push_back(std::move(right));
    return Adopt(std::move(node), std::move(children));
  }

  Result<Parsed> ParseOr() {
    NestingGuard guard(&depth_);
    RETURN_IF_ERROR(CheckNesting(Peek().offset));
    ASSIGN_OR_RETURN(Parsed left, ParseAnd());
    while (IsKeyword("or")) {
      ExprToken op = Take();
      ASSIGN_OR_RETURN(Parsed right, ParseAnd());
      ASSIGN_OR_RETURN(left, Binary(op, "or", std::move(left), std::move(right)));
    }
    return left;
  }

  Result<Parsed> ParseAnd() {
    ASSIGN_OR_RETURN(Parsed left, ParseNot());
    while (IsKeyword("and")) {
      ExprToken op = Take();
      ASSIGN_OR_RETURN(Parsed right, ParseNot());
      ASSIGN_OR_RETURN(left, Binary(op, "and", std::move(left), std::move(right)));
    }
    return left;
  }

  Result<Parsed> ParseNot() {
    if (!IsKeyword("not")) return ParsePredicate();
    ExprToken op = Take();
    NestingGuard guard(&depth_);
    RETURN_IF_ERROR(CheckNesting(op.offset));
    ASSIGN_OR_RETURN(Parsed operand, ParseNot());
    NodePtr node = NewNode(ExprNode::Kind::kUnary, op.offset);
    node->op = "not";
    std::vector<Parsed> children;
    children.push_back(std::move(operand));
    return Adopt(std::move(node), std::move(children));
  }

  Result<Parsed> ParsePredicate() {
    ASSIGN_OR_RETURN(Parsed left, ParseSum());
    if (Peek().kind == ExprToken::Kind::kOperator && IsComparison(Peek().text)) {
      ExprToken op = Take();
      ASSIGN_OR_RETURN(Parsed right, ParseSum());
      return Binary(op, op.text, std::move(left), std::move(right));
    }
    if (IsKeyword("is")) {
      ExprToken is = Take();
      NodePtr node = NewNode(ExprNode::Kind::kIsNull, is.offset);
      if (IsKeyword("not")) {
        Take();
        node->negated = true;
      }
      if (!IsKeyword("null")) return Unexpected("'null'");
      Take();
      std::vector<Parsed> children;
      children.push_back(std::move(left));
      return Adopt(std::move(node), std::move(children));
    }
    if (IsKeyword("not") || IsKeyword("in")) {
      NodePtr node = NewNode(ExprNode::Kind::kIn, Peek().offset);
      if (IsKeyword("not")) {
        Take();
        node->negated = true;
        if (!IsKeyword("in")) return Unexpected("'in' after 'not'");
      }
      Take();
      std::vector<Parsed> children;
      children.push_back(std::move(left));
      RETURN_IF_ERROR(ParseList(/*allow_empty=*/false, "empty in list", &children));
      return Adopt(std::move(node), std::move(children));
    }
    return left;
  }

  // "(" or_expr ("," or_expr)* ")" appended to *items; "()" only when allow_empty.
  Status ParseList(bool allow_empty, const char* empty_error, std::vector<Parsed>* items) {
    if (!IsOperator("(")) return Unexpected("'('");
    Take();
    if (IsOperator(")")) {
      if (!allow_empty) return ExprSyntaxError(Peek().offset, empty_error);
      Take();
      return Status::OK();
    }
    while (true) {
      ASSIGN_OR_RETURN(Parsed item, ParseOr());
      items->push_back(std::move(item));
      if (IsOperator(",")) {
        Take();
        continue;
      }
      return Expect(")");
    }
  }

  Result<Parsed> ParseSum() {
    ASSIGN_OR_RETURN(Parsed left, ParseProduct());
    while (IsOperator("+") || IsOperator("-")) {
      ExprToken op = Take();
      ASSIGN_OR_RETURN(Parsed right, ParseProduct());
      ASSIGN_OR_RETURN(left, Binary(op, op.text, std::move(left), std::move(right)));
    }
    return left;
  }

  Result<Parsed> ParseProduct() {
    ASSIGN_OR_RETURN(Parsed left, ParseUnary());
    while (IsOperator("*") || IsOperator("/")) {
      ExprToken op = Take();
      ASSIGN_OR_RETURN(Parsed right, ParseUnary());
      ASSIGN_OR_RETURN(left, Binary(op, op.text, std::move(left), std::move(right)));
    }
    return left;
  }

  Result<Parsed> ParseUnary() {
    if (!IsOperator("-")) return ParsePrimary();
    ExprToken minus = Take();
    // A minus directly before a number is part of the literal, so that
    // -9223372036854775808 is an int64 and `x in (-1)` holds a literal.
    if (Peek().kind == ExprToken::Kind::kInteger || Peek().kind == ExprToken::Kind::kDecimal) {
      ExprToken number = Take();
      return NumberLiteral(number, "-" + number.text, minus.offset);
    }
    NestingGuard guard(&depth_);
    RETURN_IF_ERROR(CheckNesting(minus.offset));
    ASSIGN_OR_RETURN(Parsed operand, ParseUnary());
    NodePtr node = NewNode(ExprNode::Kind::kUnary, minus.offset);
    node->op = "-";
    std::vector<Parsed> children;
    children.push_back(std::move(operand));
    return Adopt(std::move(node), std::move(children));
  }

  static Result<Parsed> NumberLiteral(const ExprToken& token, std::string text, int offset) {
    NodePtr node = NewNode(ExprNode::Kind::kLiteral, offset);
    if (token.kind == ExprToken::Kind::kInteger) {
      int64_t value = 0;
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size()) {
        return ExprSyntaxError(offset, "integer " + text + " is out of the int64 range");
      }
      node->literal_kind = ExprNode::LiteralKind::kInt;
    } else {
      if (std::isinf(std::strtod(text.c_str(), nullptr))) {
        return ExprSyntaxError(offset, "number " + text + " is out of the float64 range");
      }
      node->literal_kind = ExprNode::LiteralKind::kFloat;
    }
    node->text = std::move(text);
    return Parsed{std::move(node), 1};
  }

  Result<Parsed> ParsePrimary() {
    const ExprToken& token = Peek();
    switch (token.kind) {
      case ExprToken::Kind::kInteger:
      case ExprToken::Kind::kDecimal: {
        ExprToken number = Take();
        return NumberLiteral(number, number.text, number.offset);
      }
      case ExprToken::Kind::kString: {
        ExprToken string = Take();
        NodePtr node = NewNode(ExprNode::Kind::kLiteral, string.offset);
        node->literal_kind = ExprNode::LiteralKind::kString;
        node->text = std::move(string.text);
        return Parsed{std::move(node), 1};
      }
      case ExprToken::Kind::kQuotedIdentifier: {
        ExprToken name = Take();
        NodePtr node = NewNode(ExprNode::Kind::kColumn, name.offset);
        node->name = std::move(name.text);
        return Parsed{std::move(node), 1};
      }
      case ExprToken::Kind::kIdentifier: {
        if (PeekAt(1).kind == ExprToken::Kind::kOperator && PeekAt(1).text == "(") {
          return ParseCall();
        }
        ExprToken name = Take();
        NodePtr node = NewNode(ExprNode::Kind::kColumn, name.offset);
        node->name = std::move(name.text);
        return Parsed{std::move(node), 1};
      }
      case ExprToken::Kind::kKeyword:
        if (token.text == "true" || token.text == "false" || token.text == "null") {
          ExprToken word = Take();
          NodePtr node = NewNode(ExprNode::Kind::kLiteral, word.offset);
          node->literal_kind = word.text == "null" ? ExprNode::LiteralKind::kNull
                                                   : ExprNode::LiteralKind::kBool;
          node->text = word.text;
          return Parsed{std::move(node), 1};
        }
        return Unexpected();
      case ExprToken::Kind::kOperator:
        if (token.text == "(") {
          Take();
          ASSIGN_OR_RETURN(Parsed inner, ParseOr());
          RETURN_IF_ERROR(Expect(")"));
          return inner;
        }
        return Unexpected();
      case ExprToken::Kind::kEnd: break;
    }
    return Unexpected();
  }

  Result<Parsed> ParseCall() {
    ExprToken name_token = Take();
    const std::string name = LowerAscii(name_token.text);
    const FunctionSpec* spec = nullptr;
    for (const FunctionSpec& candidate : kFunctions) {
      if (name == candidate.name) spec = &candidate;
    }
    if (spec == nullptr) {
      return ExprSyntaxError(name_token.offset, "unknown function '" + name_token.text +
                                                    "' (known: abs, length, lower, upper, matches)");
    }
    NodePtr node = NewNode(ExprNode::Kind::kCall, name_token.offset);
    node->name = name;
    std::vector<Parsed> args;
    RETURN_IF_ERROR(ParseList(/*allow_empty=*/true, "", &args));
    if (args.size() != spec->arity) {
      return ExprSyntaxError(name_token.offset,
                             name + "() takes " + std::to_string(spec->arity) +
                                 (spec->arity == 1 ? " argument, got " : " arguments, got ") +
                                 std::to_string(args.size()));
    }
    if (name == "matches") {
      const ExprNode& pattern = *args[1].node;
      if (pattern.kind != ExprNode::Kind::kLiteral ||
          pattern.literal_kind != ExprNode::LiteralKind::kString) {
        return ExprSyntaxError(pattern.offset, "matches() needs a string literal as its pattern");
      }
    }
    return Adopt(std::move(node), std::move(args));
  }

  std::vector<ExprToken> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<std::shared_ptr<const ExprNode>> ParseExpression(const std::string& text) {
  ExprLexer lexer(text);
  std::vector<ExprToken> tokens;
  while (true) {
    ASSIGN_OR_RETURN(ExprToken token, lexer.Next());
    const bool end = token.kind == ExprToken::Kind::kEnd;
    tokens.push_back(std::move(token));
    if (end) break;
  }
  Parser parser(std::move(tokens));
  return parser.ParseAll();
}

}  // namespace griffin
