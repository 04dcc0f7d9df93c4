// Vector kernels over strings (casts, comparisons, functions) and `in` sets.
// A string view is read only where its row is valid: under a null a column's
// view may point anywhere.
#include <re2/re2.h>

#include <algorithm>

#include "plan/expr_vector_ops.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char AsciiUpper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

bool CompareStrings(CompareOp compare, std::string_view x, std::string_view y) {
  if (compare == CompareOp::kEq) return x == y;  // sizes first
  if (compare == CompareOp::kNe) return x != y;
  const int order = x.compare(y);  // bytewise, as memcmp
  switch (compare) {
    case CompareOp::kEq: return order == 0;
    case CompareOp::kNe: return order != 0;
    case CompareOp::kLt: return order < 0;
    case CompareOp::kLe: return order <= 0;
    case CompareOp::kGt: return order > 0;
    case CompareOp::kGe: return order >= 0;
  }
  return false;
}

// lower()/upper(): the output bytes live in out->own_chars, sized once per
// chunk before any view into it is taken.
void MapCase(bool to_lower, const Register& in, int64_t count, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  size_t total = 0;
  for (int64_t r = 0; r < count; ++r) {
    if (in.valid[r]) total += in.strings[r].size();
  }
  out->own_chars.resize(total);
  char* chars = out->own_chars.data();
  size_t pos = 0;
  for (int64_t r = 0; r < count; ++r) {
    valid[r] = in.valid[r];
    if (!in.valid[r]) {
      out->own_strings[r] = std::string_view();
      continue;
    }
    const std::string_view text = in.strings[r];
    for (size_t i = 0; i < text.size(); ++i) {
      chars[pos + i] = to_lower ? AsciiLower(text[i]) : AsciiUpper(text[i]);
    }
    out->own_strings[r] = std::string_view(chars + pos, text.size());
    pos += text.size();
  }
}

template <typename T>
bool SetContains(const std::vector<T>& set, const T& value) {
  if (set.size() <= 8) {
    for (const T& item : set) {
      if (item == value) return true;
    }
    return false;
  }
  auto it = std::lower_bound(set.begin(), set.end(), value);
  return it != set.end() && *it == value;  // NaN finds nothing
}

bool StringSetContains(const std::vector<std::string>& set, std::string_view value) {
  auto it = std::lower_bound(set.begin(), set.end(), value,
                             [](const std::string& item, std::string_view v) { return item < v; });
  return it != set.end() && *it == value;
}

}  // namespace

void RunStringOp(const VectorOp& op, int64_t count, const Register& a, const Register* b,
                 Register* out) {
  switch (op.code) {
    case OpCode::kStringToFloat: {
      uint8_t* valid = UseOwnBuffers(out);
      for (int64_t r = 0; r < count; ++r) {
        std::optional<double> value;
        if (a.valid[r]) value = ParseFloat64(a.strings[r]);
        out->own_floats[r] = value.value_or(0);
        valid[r] = value.has_value();
      }
      return;
    }
    case OpCode::kCompareString: {
      uint8_t* valid = UseOwnBuffers(out);
      for (int64_t r = 0; r < count; ++r) {
        valid[r] = a.valid[r] & b->valid[r];
        out->own_bools[r] = valid[r] && CompareStrings(op.compare, a.strings[r], b->strings[r]);
      }
      return;
    }
    case OpCode::kLength: {
      uint8_t* valid = UseOwnBuffers(out);
      for (int64_t r = 0; r < count; ++r) {
        out->own_ints[r] = a.valid[r] ? Utf8Length(a.strings[r]) : 0;
        valid[r] = a.valid[r];
      }
      return;
    }
    case OpCode::kLower: return MapCase(true, a, count, out);
    case OpCode::kUpper: return MapCase(false, a, count, out);
    case OpCode::kMatches: {
      uint8_t* valid = UseOwnBuffers(out);
      for (int64_t r = 0; r < count; ++r) {
        valid[r] = a.valid[r];
        out->own_bools[r] =
            a.valid[r] &&
            RE2::PartialMatch(re2::StringPiece(a.strings[r].data(), a.strings[r].size()), *op.regex);
      }
      return;
    }
    default: return;
  }
}

// SQL `in`: true on a match; otherwise null when the list holds a null, else
// false. `not in` is the Kleene negation of that.
void RunInSet(const VectorOp& op, int64_t count, const Register& in, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  uint8_t* values = out->own_bools.data();
  for (int64_t r = 0; r < count; ++r) {
    bool found = false;
    if (in.valid[r]) {
      switch (op.code) {
        case OpCode::kInInt:
          found = SetContains(op.in_ints,
                              in.kind == RegKind::kBool ? int64_t{in.bools[r]} : in.ints[r]);
          break;
        case OpCode::kInFloat: found = SetContains(op.in_floats, in.floats[r]); break;
        case OpCode::kInString: found = StringSetContains(op.in_strings, in.strings[r]); break;
        default: break;
      }
    }
    valid[r] = in.valid[r] && (found || !op.in_has_null);
    values[r] = found != op.negated;
  }
}

}  // namespace griffin
