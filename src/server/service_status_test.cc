#include "server/service_status.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

TEST(ServiceStatusTest, HttpStatusesAndCoreErrors) {
  EXPECT_EQ(HttpStatusOf(Refusal::kBadRequest), 400);
  EXPECT_EQ(HttpStatusOf(Refusal::kUnauthenticated), 401);
  EXPECT_EQ(HttpStatusOf(Refusal::kForbidden), 403);
  EXPECT_EQ(HttpStatusOf(Refusal::kNotFound), 404);
  EXPECT_EQ(HttpStatusOf(Refusal::kPayloadTooLarge), 413);
  EXPECT_EQ(HttpStatusOf(Refusal::kUnsupportedMediaType), 415);
  EXPECT_EQ(HttpStatusOf(Refusal::kUnprocessable), 422);
  EXPECT_EQ(HttpStatusOf(Refusal::kRateLimited), 429);
  EXPECT_EQ(HttpStatusOf(Refusal::kUnavailable), 503);
  EXPECT_EQ(HttpStatusOf(Refusal::kInternal), 500);
  EXPECT_EQ(FromStatus(Status::InputError("x")).refusal, Refusal::kBadRequest);
  EXPECT_EQ(FromStatus(Status::UsageError("x")).refusal, Refusal::kBadRequest);
  EXPECT_EQ(FromStatus(Status::RuleError("x")).refusal, Refusal::kUnprocessable);
  Denial store = FromStatus(Status::StoreError("store x: locked"));
  EXPECT_EQ(store.refusal, Refusal::kUnavailable);
  EXPECT_EQ(store.message, "store x: locked");
  EXPECT_GT(store.retry_after_s, 0);
  EXPECT_EQ(FromStatus(Status::Internal("bug")).refusal, Refusal::kInternal);
  ServiceResult<int> value(3), denied(Denial{Refusal::kForbidden, "no"});
  EXPECT_TRUE(value.ok());
  EXPECT_EQ(value.value(), 3);
  EXPECT_FALSE(denied.ok());
  EXPECT_EQ(denied.denial().message, "no");
}

}  // namespace
}  // namespace griffin::server
