// Status and Result<T>: how every fallible call in the Griffin core reports
// failure. No exceptions cross a library boundary; front ends (CLI, server,
// Python) turn a Status into an exit code, an HTTP status or an exception.
//
//   Result<RuleSet> rules = LoadRuleFile("rules.yaml");
//   if (!rules.ok()) return rules.status();
//
// A Status message is one line meant for a person, already naming the file
// and line or row where there is one ("rules.yaml:12: columns.amount.min: ...").
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace griffin {

enum class StatusCode {
  kOk = 0,
  kRuleError,     // the rule file is wrong (CLI exit 2)
  kUsageError,    // the command line is wrong (CLI exit 2)
  kInputError,    // an input could not be read (CLI exit 3)
  kStoreError,    // the run store failed (CLI exit 3)
  kResourceLimit, // a state would pass its memory limit where it cannot spill, and the caller asked to stop (CLI exit 3)
  kInternal,      // a bug
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status RuleError(std::string m) { return {StatusCode::kRuleError, std::move(m)}; }
  static Status UsageError(std::string m) { return {StatusCode::kUsageError, std::move(m)}; }
  static Status InputError(std::string m) { return {StatusCode::kInputError, std::move(m)}; }
  static Status StoreError(std::string m) { return {StatusCode::kStoreError, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status ResourceLimit(std::string m) { return {StatusCode::kResourceLimit, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Holds either a T or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace griffin

#define GRIFFIN_CONCAT_INNER(a, b) a##b
#define GRIFFIN_CONCAT(a, b) GRIFFIN_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
// (Named RETURN_IF_ERROR because Arrow's headers define RETURN_NOT_OK for
// arrow::Status; the two must not meet in one translation unit.)
#define RETURN_IF_ERROR(expr)                              \
  do {                                                   \
    ::griffin::Status _griffin_status = (expr);          \
    if (!_griffin_status.ok()) return _griffin_status;   \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, MakeX());` binds the value or returns the Status.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  ASSIGN_OR_RETURN_IMPL(GRIFFIN_CONCAT(_griffin_result_, __LINE__), lhs, rexpr)
#define ASSIGN_OR_RETURN_IMPL(result, lhs, rexpr) \
  auto result = (rexpr);                          \
  if (!result.ok()) return result.status();       \
  lhs = std::move(result).value();
