// Splits row-expression text (rules-v1 "Row checks") into tokens for
// rules/expr_parser.cc. Internal to the parser.
//
//   ExprLexer lexer(text);
//   ASSIGN_OR_RETURN(ExprToken token, lexer.Next());   // kEnd at the end
//
// Offsets are 0-based counts of Unicode code points (characters), so an error
// points at the character a person sees, even after a non-ASCII column name.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/status.h"

namespace griffin {

struct ExprToken {
  enum class Kind {
    kEnd,
    kIdentifier,        // text = the name as written
    kQuotedIdentifier,  // text = the name with "" unescaped
    kString,            // text = the literal with '' unescaped
    kInteger,           // text = digits
    kDecimal,           // text = spelling with '.' and/or exponent
    kKeyword,           // text = lower-case keyword: and or not is null in true false
    kOperator,          // text = == != < <= > >= + - * / ( ) ,  ('=' and '<>' normalized)
  };
  Kind kind = Kind::kEnd;
  std::string text;
  int offset = 0;  // code points before the token's first character
};

// A person-readable description of a token for error messages ("')'",
// "identifier 'foo'", "end of expression").
std::string DescribeToken(const ExprToken& token);

// Builds the error "at offset N: <what>".
Status ExprSyntaxError(int offset, const std::string& what);

class ExprLexer {
 public:
  explicit ExprLexer(std::string_view text) : text_(text) {}

  // The next token, or a RuleError for an unterminated string or quoted
  // name, a malformed number or a character outside the language.
  Result<ExprToken> Next();

 private:
  int OffsetOf(size_t byte_pos) const;
  Result<ExprToken> LexQuoted(char quote, ExprToken::Kind kind);
  Result<ExprToken> LexNumber();

  std::string_view text_;
  size_t pos_ = 0;
  // Cache for OffsetOf: code points counted up to counted_bytes_.
  mutable size_t counted_bytes_ = 0;
  mutable int counted_points_ = 0;
};

}  // namespace griffin
