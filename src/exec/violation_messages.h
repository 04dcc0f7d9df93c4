// Values and default messages for the report's violations list.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "io/batch.h"
#include "plan/plan.h"
#include "report/report.h"
#include "util/text_cut.h"

namespace griffin {

// A batch value as read, viewed where the batch holds its text (no copy of
// a string however long; numbers and dates of Arrow columns are formatted).
// Valid while the batch lives.
class ValueView {
 public:
  static ValueView Null() { return {}; }
  static ValueView Of(JsonScalar::Kind kind, std::string_view text) { return ValueView(kind, text, {}); }
  static ValueView Formatted(JsonScalar::Kind kind, std::string text) { return ValueView(kind, {}, std::move(text)); }
  // A float of a typed input: a JSON number, or null for NaN and ±inf (JSON
  // has neither); messages show the double itself (nan, inf).
  static ValueView Number(double value);

  JsonScalar::Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == JsonScalar::Kind::kNull; }
  std::string_view text() const { return formatted_.empty() ? view_ : std::string_view(formatted_); }
  // Set by Number(): the double as read.
  const std::optional<double>& number() const { return number_; }

 private:
  ValueView() = default;
  ValueView(JsonScalar::Kind kind, std::string_view view, std::string formatted)
      : kind_(kind), view_(view), formatted_(std::move(formatted)) {}
  JsonScalar::Kind kind_ = JsonScalar::Kind::kNull;
  std::string_view view_;
  std::string formatted_;
  std::optional<double> number_;
};

// The value of batch column `column_index` at `row` as read: a string for
// text inputs, the JSON type for JSON lines, a number/bool/string for Arrow.
ValueView ViewValue(const Batch& batch, int column_index, int64_t row);

// The report's `value` of a violation: the value as read, cut to
// kMaxShownBytes (util/text_cut.h). A cut raw JSON token (a huge JSON array
// or number) becomes a string, since its prefix is no longer valid JSON.
JsonScalar ReportValue(const ValueView& value);

// ReportValue(ViewValue(...)).
JsonScalar ValueAsRead(const Batch& batch, int column_index, int64_t row);

// The message of a violation: the check's custom `message` (with {value},
// {column} and {row} substituted) or the default for its kind. Values,
// patterns and short lists inside it are cut to kMaxQuotedBytes; an `in` or
// `not_in` list of more than kMaxListedValues values is described by its size;
// the whole message is cut to kMaxShownBytes. `first_row` is the first
// occurrence for unique checks (else -1).
std::string ViolationMessage(const Plan& plan, int check_index, const CompiledColumnCheck* column_check,
                             const ValueView& value, int64_t row, int64_t first_row);

}  // namespace griffin
