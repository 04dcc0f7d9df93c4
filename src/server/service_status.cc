#include "server/service_status.h"

namespace griffin::server {

int HttpStatusOf(Refusal refusal) {
  switch (refusal) {
    case Refusal::kBadRequest: return 400;
    case Refusal::kUnauthenticated: return 401;
    case Refusal::kForbidden: return 403;
    case Refusal::kNotFound: return 404;
    case Refusal::kPayloadTooLarge: return 413;
    case Refusal::kUnsupportedMediaType: return 415;
    case Refusal::kUnprocessable: return 422;
    case Refusal::kRateLimited: return 429;
    case Refusal::kUnavailable: return 503;
    case Refusal::kInternal: return 500;
  }
  return 500;
}

Denial FromStatus(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInputError:
    case StatusCode::kUsageError: return {Refusal::kBadRequest, status.message()};
    case StatusCode::kRuleError: return {Refusal::kUnprocessable, status.message()};
    case StatusCode::kStoreError: return {Refusal::kUnavailable, status.message(), 1.0};
    default: return {Refusal::kInternal, status.message()};
  }
}

}  // namespace griffin::server
