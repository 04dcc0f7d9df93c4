#include "server/ui_pages.h"

#include <gtest/gtest.h>

#include "server/service_test_util.h"

namespace griffin::server {
namespace {

using testing::TestService;

TEST(UiPagesTest, IndexAndRunPagesForTheCallersDatasets) {
  TestService service("runs.db");
  ASSERT_NE(service.core, nullptr);
  ServiceCore& core = *service.core;
  const Caller caller = core.Authenticate("Bearer token-a").value();
  ServiceCore::ValidateOptions options;
  options.await_record = true;  // written before the answer
  ServiceResult<ValidationOutcome> outcome =
      core.Validate(caller, *core.DatasetFor(caller, "steps").value(), "x\n1\n-1\n", BodyFormat::kCsv, options);
  ASSERT_TRUE(outcome.ok()) << outcome.denial().message;

  ServiceResult<std::string> index = UiIndexPage(core, caller);
  ASSERT_TRUE(index.ok()) << index.denial().message;
  EXPECT_NE(index->find("<h3>steps</h3>"), std::string::npos);
  EXPECT_NE(index->find("<a href=\"/ui/runs/" + outcome->run_id + "\">"), std::string::npos);

  ServiceResult<std::string> run = UiRunPage(core, caller, outcome->run_id);
  ASSERT_TRUE(run.ok()) << run.denial().message;
  EXPECT_NE(run->find("<section id=\"violations\""), std::string::npos);
  EXPECT_NE(run->find("<nav><a href=\"/ui/\">all datasets</a></nav>"), std::string::npos);
  EXPECT_EQ(UiRunPage(core, caller, "no-such-run").denial().refusal, Refusal::kNotFound);

  // A key for other datasets sees neither the dataset nor its runs.
  ApiKey other;
  other.id = "b";
  other.datasets = std::vector<std::string>{"elsewhere"};
  const Caller outsider{&other, "b"};
  ServiceResult<std::string> outsider_index = UiIndexPage(core, outsider);
  ASSERT_TRUE(outsider_index.ok());
  EXPECT_EQ(outsider_index->find("steps"), std::string::npos);
  EXPECT_EQ(UiRunPage(core, outsider, outcome->run_id).denial().refusal, Refusal::kNotFound);
}

TEST(UiPagesTest, BasicCredentialsCarryTheKeyAsPassword) {
  EXPECT_EQ(UiAuthorization("Basic dXNlcjp0b2tlbi1h"), "Bearer token-a");        // user:token-a
  EXPECT_EQ(UiAuthorization("basic  OnRva2VuLWE= "), "Bearer token-a");          // :token-a, no user
  EXPECT_EQ(UiAuthorization("Basic dTp0b2s6ZW4="), "Bearer tok:en");             // u:tok:en
  EXPECT_EQ(UiAuthorization("Bearer token-a"), "Bearer token-a");
  EXPECT_EQ(UiAuthorization("Basic bm9jb2xvbg=="), "Basic bm9jb2xvbg==");         // "nocolon": left, then refused
  EXPECT_EQ(UiAuthorization("Basic !!!"), "Basic !!!");
  EXPECT_EQ(UiAuthorization(""), "");
  TestService service;
  ASSERT_NE(service.core, nullptr);
  EXPECT_TRUE(service.core->Authenticate(UiAuthorization("Basic dXNlcjp0b2tlbi1h")).ok());
  EXPECT_FALSE(service.core->Authenticate(UiAuthorization("Basic dXNlcjpub3Bl")).ok());  // user:nope
}

TEST(UiPagesTest, WithoutAStoreTheIndexSaysSo) {
  TestService service;
  ASSERT_NE(service.core, nullptr);
  const Caller caller = service.core->Authenticate("Bearer token-a").value();
  ServiceResult<std::string> index = UiIndexPage(*service.core, caller);
  ASSERT_TRUE(index.ok());
  EXPECT_NE(index->find("--no-store"), std::string::npos);
  EXPECT_EQ(UiRunPage(*service.core, caller, "r").denial().refusal, Refusal::kNotFound);
}

}  // namespace
}  // namespace griffin::server
