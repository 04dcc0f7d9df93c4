#include "server/http_routes.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

TEST(HttpRoutesTest, NamesTheFixedRoutes) {
  EXPECT_EQ(RouteOf("GET", "/healthz"), "healthz");
  EXPECT_EQ(RouteOf("GET", "/metrics"), "prometheus");
  EXPECT_EQ(RouteOf("POST", "/metrics"), "score");
  EXPECT_EQ(RouteOf("GET", "/v1/runs"), "runs");
  EXPECT_EQ(RouteOf("POST", "/v1/datasets/steps/validate"), "validate");
  EXPECT_EQ(RouteOf("GET", "/ui/"), "ui");
  EXPECT_EQ(RouteOf("GET", "/ui/runs/abc"), "ui");
  EXPECT_EQ(RouteOf("GET", "/uix"), "other");
  EXPECT_EQ(RouteOf("GET", "/v1/datasets/steps/other"), "other");
}

TEST(HttpRoutesTest, ADatasetSegmentIsOnePlainName) {
  EXPECT_TRUE(IsValidatePath("/v1/datasets/a/validate"));
  EXPECT_FALSE(IsValidatePath("/v1/datasets/../validate"));
  EXPECT_FALSE(IsValidatePath("/v1/datasets/./validate"));
  EXPECT_FALSE(IsValidatePath("/v1/datasets/a/b/validate"));  // a%2fb, decoded
  EXPECT_FALSE(IsValidatePath("/v1/datasets//validate"));
  EXPECT_FALSE(IsValidatePath("/v1/datasets/validate"));
}

TEST(HttpRoutesTest, AllowedMethods) {
  EXPECT_STREQ(AllowedMethods("validate"), "POST");
  EXPECT_STREQ(AllowedMethods("score"), "GET, POST");
  EXPECT_STREQ(AllowedMethods("healthz"), "GET");
}

}  // namespace
}  // namespace griffin::server
