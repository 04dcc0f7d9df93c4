#include "rules/expr_lexer.h"

#include <cstdio>

namespace griffin {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsKeyword(const std::string& lower) {
  return lower == "and" || lower == "or" || lower == "not" || lower == "is" || lower == "null" ||
         lower == "in" || lower == "true" || lower == "false";
}

}  // namespace

std::string DescribeToken(const ExprToken& token) {
  switch (token.kind) {
    case ExprToken::Kind::kEnd: return "end of expression";
    case ExprToken::Kind::kIdentifier: return "identifier '" + token.text + "'";
    case ExprToken::Kind::kQuotedIdentifier: return "column name \"" + token.text + "\"";
    case ExprToken::Kind::kString: return "string '" + token.text + "'";
    case ExprToken::Kind::kInteger:
    case ExprToken::Kind::kDecimal: return "number " + token.text;
    case ExprToken::Kind::kKeyword: return "'" + token.text + "'";
    case ExprToken::Kind::kOperator: return "'" + token.text + "'";
  }
  return "token";
}

Status ExprSyntaxError(int offset, const std::string& what) {
  return Status::RuleError("at offset " + std::to_string(offset) + ": " + what);
}

int ExprLexer::OffsetOf(size_t byte_pos) const {
  if (byte_pos < counted_bytes_) {
    counted_bytes_ = 0;
    counted_points_ = 0;
  }
  for (; counted_bytes_ < byte_pos && counted_bytes_ < text_.size(); ++counted_bytes_) {
    // Every byte that is not a UTF-8 continuation byte starts a code point.
    if ((static_cast<unsigned char>(text_[counted_bytes_]) & 0xC0) != 0x80) ++counted_points_;
  }
  return counted_points_;
}

Result<ExprToken> ExprLexer::Next() {
  while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  ExprToken token;
  token.offset = OffsetOf(pos_);
  if (pos_ >= text_.size()) return token;  // kEnd

  const char c = text_[pos_];
  if (IsIdentStart(c)) {
    size_t end = pos_ + 1;
    while (end < text_.size() && IsIdentChar(text_[end])) ++end;
    std::string_view word = text_.substr(pos_, end - pos_);
    pos_ = end;
    std::string lower = Lower(word);
    if (IsKeyword(lower)) {
      token.kind = ExprToken::Kind::kKeyword;
      token.text = std::move(lower);
    } else {
      token.kind = ExprToken::Kind::kIdentifier;
      token.text = std::string(word);
    }
    return token;
  }
  if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
    return LexNumber();
  }
  if (c == '\'') return LexQuoted('\'', ExprToken::Kind::kString);
  if (c == '"') return LexQuoted('"', ExprToken::Kind::kQuotedIdentifier);

  token.kind = ExprToken::Kind::kOperator;
  const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
  auto take = [&](std::string op, size_t length) {
    token.text = std::move(op);
    pos_ += length;
    return token;
  };
  switch (c) {
    case '=': return next == '=' ? take("==", 2) : take("==", 1);
    case '!':
      if (next == '=') return take("!=", 2);
      break;
    case '<':
      if (next == '=') return take("<=", 2);
      if (next == '>') return take("!=", 2);
      return take("<", 1);
    case '>': return next == '=' ? take(">=", 2) : take(">", 1);
    case '+': case '-': case '*': case '/': case '(': case ')': case ',':
      return take(std::string(1, c), 1);
    default: break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7F) {
    return ExprSyntaxError(token.offset, std::string("unexpected character '") + c + "'");
  }
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%02X", byte);
  return ExprSyntaxError(token.offset, std::string("unexpected character (byte ") + hex + ")");
}

Result<ExprToken> ExprLexer::LexQuoted(char quote, ExprToken::Kind kind) {
  ExprToken token;
  token.kind = kind;
  token.offset = OffsetOf(pos_);
  size_t pos = pos_ + 1;
  while (true) {
    if (pos >= text_.size()) {
      return ExprSyntaxError(token.offset, kind == ExprToken::Kind::kString
                                               ? "unterminated string literal"
                                               : "unterminated quoted column name");
    }
    if (text_[pos] == quote) {
      if (pos + 1 < text_.size() && text_[pos + 1] == quote) {  // doubled quote
        token.text.push_back(quote);
        pos += 2;
        continue;
      }
      break;
    }
    token.text.push_back(text_[pos++]);
  }
  pos_ = pos + 1;
  if (kind == ExprToken::Kind::kQuotedIdentifier && token.text.empty()) {
    return ExprSyntaxError(token.offset, "empty quoted column name");
  }
  return token;
}

// Numbers: digits [ '.' digits* ] [ e [+-] digits ], or '.' digits [exponent].
// A number running into a letter, digit, '_' or '.' ("12abc", "1.2.3") is malformed.
Result<ExprToken> ExprLexer::LexNumber() {
  ExprToken token;
  token.kind = ExprToken::Kind::kInteger;
  token.offset = OffsetOf(pos_);
  size_t pos = pos_;
  while (pos < text_.size() && IsDigit(text_[pos])) ++pos;
  if (pos < text_.size() && text_[pos] == '.') {
    token.kind = ExprToken::Kind::kDecimal;
    ++pos;
    while (pos < text_.size() && IsDigit(text_[pos])) ++pos;
  }
  bool malformed = false;
  if (pos < text_.size() && (text_[pos] == 'e' || text_[pos] == 'E')) {
    token.kind = ExprToken::Kind::kDecimal;
    ++pos;
    if (pos < text_.size() && (text_[pos] == '+' || text_[pos] == '-')) ++pos;
    if (pos >= text_.size() || !IsDigit(text_[pos])) malformed = true;
    while (pos < text_.size() && IsDigit(text_[pos])) ++pos;
  }
  if (pos < text_.size() && (IsIdentChar(text_[pos]) || text_[pos] == '.')) malformed = true;
  if (malformed) {
    size_t end = pos;
    while (end < text_.size() && (IsIdentChar(text_[end]) || text_[end] == '.')) ++end;
    return ExprSyntaxError(token.offset,
                           "malformed number '" + std::string(text_.substr(pos_, end - pos_)) + "'");
  }
  token.text = std::string(text_.substr(pos_, pos - pos_));
  pos_ = pos;
  return token;
}

}  // namespace griffin
