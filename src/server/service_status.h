// How a service request ends when it does not succeed, in terms both edges
// can report: an HTTP status (http_service.cc) or a Flight status code
// (flight_service.cc). Core errors (griffin::Status) map onto it with
// FromStatus; the service's own decisions (auth, limits) are made here.
//
//   ServiceResult<std::shared_ptr<const Dataset>> found = core.FindDataset(key, name);
//   if (!found.ok()) return Reply(found.denial());
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "util/status.h"

namespace griffin::server {

enum class Refusal {
  kBadRequest,            // 400: bad JSON, bad query, unreadable body
  kUnauthenticated,       // 401: no key, or an unknown key
  kForbidden,             // 403: the key may not use this dataset
  kNotFound,              // 404: unknown dataset or route
  kPayloadTooLarge,       // 413
  kUnsupportedMediaType,  // 415: a Content-Type the endpoint does not read
  kUnprocessable,         // 422: the body does not fit the dataset's rules (columns, types)
  kRateLimited,           // 429, with a retry delay
  kUnavailable,           // 503: overloaded, shutting down, or the run store is behind
  kInternal,              // 500: a bug
};

int HttpStatusOf(Refusal refusal);

// Error codes a refusal may carry beside its message, for callers that act on
// them ({"error": ..., "code": ...}):
// the run was validated but could not be written to the run store.
inline constexpr const char* kStoreFailedCode = "store_failed";

struct Denial {
  Refusal refusal = Refusal::kInternal;
  std::string message;        // one line, for the caller
  double retry_after_s = 0;   // kRateLimited / kUnavailable: when to try again
  std::string code;           // empty, or one of the codes above
};

// A core error as a denial: InputError and UsageError are bad requests,
// RuleError (the rules do not bind to the body's columns) is unprocessable,
// StoreError unavailable, anything else internal.
Denial FromStatus(const Status& status);

// A T or a Denial.
template <typename T>
class ServiceResult {
 public:
  ServiceResult(T value) : value_(std::move(value)) {}            // NOLINT: implicit by design
  ServiceResult(Denial denial) : denial_(std::move(denial)) {}    // NOLINT
  bool ok() const { return value_.has_value(); }
  const Denial& denial() const { return denial_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Denial denial_;
};

}  // namespace griffin::server
