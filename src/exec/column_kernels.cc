#include "exec/column_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <xxhash.h>

#include "util/value_parse.h"

namespace griffin {
namespace {

// Runs `fails(row)` over the valid (non-null, well-typed) rows.
template <typename Fails>
void ScanValid(const TypedColumn& column, CheckBatchResult* result, Fails fails) {
  const uint8_t* valid = column.valid.data();
  const int64_t n = column.num_rows;
  int64_t evaluated = 0;
  for (int64_t r = 0; r < n; ++r) {
    if (!valid[r]) continue;
    ++evaluated;
    if (fails(r)) result->rows.push_back(static_cast<int32_t>(r));
  }
  result->evaluated = evaluated;
  result->violations = static_cast<int64_t>(result->rows.size());
}

// A full-match regex over the valid rows: its DFA decides, several values at a
// time; RE2 decides the values the DFA hands back (non-ASCII bytes).
void ScanRegexDfa(const TypedColumn& column, const RegexDfa& dfa, const RE2& re, CheckBatchResult* result) {
  constexpr size_t kChunk = 64;
  std::string_view values[kChunk];
  int32_t rows[kChunk];
  RegexDfa::Verdict verdicts[kChunk];
  size_t pending = 0;
  int64_t evaluated = 0;
  auto decide = [&]() {
    dfa.MatchMany(values, pending, verdicts);
    for (size_t i = 0; i < pending; ++i) {
      bool fails = verdicts[i] == RegexDfa::kNoMatch;
      if (verdicts[i] == RegexDfa::kAskRe2) {
        const re2::StringPiece s(values[i].data(), values[i].size());
        fails = !re.Match(s, 0, s.size(), RE2::ANCHOR_BOTH, nullptr, 0);
      }
      if (fails) result->rows.push_back(rows[i]);
    }
    pending = 0;
  };
  const uint8_t* valid = column.valid.data();
  for (int64_t r = 0; r < column.num_rows; ++r) {
    if (!valid[r]) continue;
    ++evaluated;
    values[pending] = std::string_view(column.strings[r].data(), column.strings[r].size());
    rows[pending++] = static_cast<int32_t>(r);
    if (pending == kChunk) decide();
  }
  if (pending > 0) decide();
  result->evaluated = evaluated;
  result->violations = static_cast<int64_t>(result->rows.size());
}

// Integer comparison against a bound that may be fractional: exact.
struct IntBound {
  int64_t value;
  bool always_pass = false, always_fail = false;
};

IntBound MakeIntBound(const CompiledColumnCheck& check) {
  IntBound bound{check.bound_int};
  if (!check.bound_is_float) return bound;
  double b = check.bound_float;
  if (std::isnan(b)) { bound.always_fail = true; return bound; }
  // min/gt need v >= ceil(b) / v > floor(b); max/lt need v <= floor(b) / v < ceil(b).
  double rounded = (check.kind == ColumnCheckKind::kMin || check.kind == ColumnCheckKind::kLt)
                       ? std::ceil(b) : std::floor(b);
  if (rounded >= 9.2233720368547758e18) {
    bool lower_bound = check.kind == ColumnCheckKind::kMin || check.kind == ColumnCheckKind::kGt;
    (lower_bound ? bound.always_fail : bound.always_pass) = true;
    if (check.kind == ColumnCheckKind::kLt) { bound.always_pass = true; bound.always_fail = false; }
    return bound;
  }
  if (rounded < -9.2233720368547758e18) {
    bool lower_bound = check.kind == ColumnCheckKind::kMin || check.kind == ColumnCheckKind::kGt;
    (lower_bound ? bound.always_pass : bound.always_fail) = true;
    return bound;
  }
  bound.value = static_cast<int64_t>(rounded);
  return bound;
}

void RunBound(const CompiledColumnCheck& check, const TypedColumn& column, CheckBatchResult* result) {
  const ColumnCheckKind kind = check.kind;
  if (column.type == ValueType::kFloat64) {
    const double* v = column.floats;
    const double b = check.bound_float;
    switch (kind) {
      case ColumnCheckKind::kMin: ScanValid(column, result, [&](int64_t r) { return !(v[r] >= b); }); break;
      case ColumnCheckKind::kMax: ScanValid(column, result, [&](int64_t r) { return !(v[r] <= b); }); break;
      case ColumnCheckKind::kGt: ScanValid(column, result, [&](int64_t r) { return !(v[r] > b); }); break;
      default: ScanValid(column, result, [&](int64_t r) { return !(v[r] < b); }); break;
    }
    return;
  }
  const int64_t* v = column.ints;
  if (check.date_vs_micros) {
    // Date column against a timestamp bound: the date's midnight, in micros.
    const int64_t b = check.bound_int;
    const int64_t day = 86400000000LL;
    switch (kind) {
      case ColumnCheckKind::kMin: ScanValid(column, result, [&](int64_t r) { return !(v[r] * day >= b); }); break;
      case ColumnCheckKind::kMax: ScanValid(column, result, [&](int64_t r) { return !(v[r] * day <= b); }); break;
      case ColumnCheckKind::kGt: ScanValid(column, result, [&](int64_t r) { return !(v[r] * day > b); }); break;
      default: ScanValid(column, result, [&](int64_t r) { return !(v[r] * day < b); }); break;
    }
    return;
  }
  IntBound bound = MakeIntBound(check);
  if (bound.always_fail || bound.always_pass) {
    const bool fail = bound.always_fail;
    ScanValid(column, result, [&](int64_t) { return fail; });
    return;
  }
  const int64_t b = bound.value;
  switch (kind) {
    case ColumnCheckKind::kMin: ScanValid(column, result, [&](int64_t r) { return !(v[r] >= b); }); break;
    case ColumnCheckKind::kMax: ScanValid(column, result, [&](int64_t r) { return !(v[r] <= b); }); break;
    case ColumnCheckKind::kGt: ScanValid(column, result, [&](int64_t r) { return !(v[r] > b); }); break;
    default: ScanValid(column, result, [&](int64_t r) { return !(v[r] < b); }); break;
  }
}

// `in` (negated: `not_in`): one loop per column type, the set probed inline.
void RunInList(const CompiledColumnCheck& check, const TypedColumn& column, bool negated,
               CheckBatchResult* result) {
  switch (column.type) {
    case ValueType::kString: {
      const StringValueSet& set = check.string_values;
      const std::string_view* v = column.strings;
      ScanValid(column, result, [&](int64_t r) { return set.Contains(v[r]) == negated; });
      return;
    }
    case ValueType::kFloat64: {
      const std::vector<double>& sorted = check.float_values;
      const double* v = column.floats;
      ScanValid(column, result, [&](int64_t r) {
        const bool found = std::isnan(v[r]) ? check.float_values_has_nan
                                            : std::binary_search(sorted.begin(), sorted.end(), v[r]);
        return found == negated;
      });
      return;
    }
    default: {
      const IntValueSet& set = check.int_values;
      const int64_t* v = column.ints;
      ScanValid(column, result, [&](int64_t r) { return set.Contains(v[r]) == negated; });
      return;
    }
  }
}

// The valid rows, and for a string column their keys' hashes; the key bytes
// stay in the column (NumericKey / ValueKey).
void GatherUniqueKeys(const TypedColumn& column, UniqueKeys* keys) {
  const int64_t n = column.num_rows;
  const bool strings = column.type == ValueType::kString;
  keys->rows.clear();
  keys->hashes.clear();
  keys->rows.reserve(static_cast<size_t>(n));
  if (strings) keys->hashes.reserve(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    if (!column.valid[r]) continue;
    keys->rows.push_back(static_cast<int32_t>(r));
    if (strings) keys->hashes.push_back(XXH3_64bits(column.strings[r].data(), column.strings[r].size()));
  }
}

}  // namespace

std::string_view ValueKey(const TypedColumn& column, int64_t row, char (&scratch)[8]) {
  if (column.type == ValueType::kString) return column.strings[row];
  const uint64_t key = NumericKey(column, row);
  std::memcpy(scratch, &key, 8);
  return std::string_view(scratch, 8);
}

void AppendValueKey(const TypedColumn& column, int64_t row, std::string* out) {
  char scratch[8];
  out->append(ValueKey(column, row, scratch));
}

void RunColumnChecks(const ColumnPlan& column_plan, const TypedColumn& column, const Batch& batch,
                     BatchResult* results) {
  const int64_t n = column.num_rows;
  for (const CompiledColumnCheck& check : column_plan.checks) {
    CheckBatchResult& result = results->checks[check.check_index];
    result.rows.clear();
    if (!column.present) continue;  // a missing column evaluates nothing
    switch (check.kind) {
      case ColumnCheckKind::kNotNull:
      case ColumnCheckKind::kType: {
        // Every row but the malformed ones is evaluated (a malformed row is
        // never valid); a batch without type errors has no type violations.
        const uint8_t* malformed = batch.malformed.empty() ? nullptr : batch.malformed.data();
        int64_t evaluated = n;
        if (malformed)
          for (int64_t r = 0; r < n; ++r) evaluated -= malformed[r] != 0;
        if (check.kind == ColumnCheckKind::kNotNull) {
          const uint8_t* valid = column.valid.data();
          for (int64_t r = 0; r < n; ++r)
            if (!valid[r] && !(malformed && malformed[r])) result.rows.push_back(static_cast<int32_t>(r));
        } else if (!column.type_error.empty()) {
          const uint8_t* type_error = column.type_error.data();
          for (int64_t r = 0; r < n; ++r)
            if (type_error[r] && !(malformed && malformed[r])) result.rows.push_back(static_cast<int32_t>(r));
        }
        result.evaluated = evaluated;
        result.violations = static_cast<int64_t>(result.rows.size());
        break;
      }
      case ColumnCheckKind::kUnique: {
        GatherUniqueKeys(column, &results->unique_keys[check.check_index]);
        result.evaluated = static_cast<int64_t>(results->unique_keys[check.check_index].rows.size());
        break;
      }
      case ColumnCheckKind::kMin: case ColumnCheckKind::kMax:
      case ColumnCheckKind::kGt: case ColumnCheckKind::kLt:
        RunBound(check, column, &result);
        break;
      case ColumnCheckKind::kFinite: {
        const double* v = column.floats;
        ScanValid(column, &result, [&](int64_t r) { return !std::isfinite(v[r]); });
        break;
      }
      case ColumnCheckKind::kRegex: {
        const RE2& re = *check.regex;
        if (check.regex_dfa) {
          ScanRegexDfa(column, *check.regex_dfa, re, &result);
          break;
        }
        ScanValid(column, &result, [&](int64_t r) {  // RE2::FullMatch without its argument plumbing
          const re2::StringPiece s(column.strings[r].data(), column.strings[r].size());
          return !re.Match(s, 0, s.size(), RE2::ANCHOR_BOTH, nullptr, 0);
        });
        break;
      }
      case ColumnCheckKind::kContains: {
        const RE2& re = *check.regex;
        ScanValid(column, &result, [&](int64_t r) {  // RE2::PartialMatch likewise
          const re2::StringPiece s(column.strings[r].data(), column.strings[r].size());
          return !re.Match(s, 0, s.size(), RE2::UNANCHORED, nullptr, 0);
        });
        break;
      }
      case ColumnCheckKind::kIn:
      case ColumnCheckKind::kNotIn:
        RunInList(check, column, check.kind == ColumnCheckKind::kNotIn, &result);
        break;
      case ColumnCheckKind::kLength:
        ScanValid(column, &result, [&](int64_t r) {
          // A string has at most as many code points as bytes: with no
          // minimum, one no longer in bytes than the maximum passes uncounted.
          const std::string_view s = column.strings[r];
          if (check.length_min <= 0 && static_cast<int64_t>(s.size()) <= check.length_max) return false;
          int64_t len = Utf8Length(s);
          return len < check.length_min || len > check.length_max;
        });
        break;
    }
  }
}

}  // namespace griffin
