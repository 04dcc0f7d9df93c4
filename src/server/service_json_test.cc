#include "server/service_json.h"

#include <gtest/gtest.h>

#include "server/service_status.h"

namespace griffin::server {
namespace {

TEST(ServiceJsonTest, ErrorsDatasetsAndRuns) {
  EXPECT_EQ(ErrorJson("bad \"x\"\n"), "{\"error\": \"bad \\\"x\\\"\\n\"}");
  EXPECT_EQ(ErrorJson("no record", kStoreFailedCode), "{\"error\": \"no record\", \"code\": \"store_failed\"}");
  auto validator = Validator::FromText("griffin: 1\ndataset: d\ndescription: Feed\ncolumns: {a: {}, b: {type: int64}}\n",
                                       "<t>");
  ASSERT_TRUE(validator.ok());
  auto dataset = std::make_shared<Dataset>();
  dataset->name = "d";
  dataset->path = "/rules/d.yaml";
  dataset->sha256 = "abc";
  dataset->validator = *validator;
  dataset->generation = 2;
  dataset->loaded_at = "2024-01-01T00:00:00Z";
  EXPECT_EQ(DatasetListJson({dataset}, [](const Dataset&) { return std::optional<int64_t>(7); }),
            "{\"datasets\": [{\"name\": \"d\", \"file\": \"d.yaml\", \"rules_sha256\": \"abc\", \"version\": 7, "
            "\"generation\": 2, \"loaded_at\": \"2024-01-01T00:00:00Z\", \"description\": \"Feed\", "
            "\"columns\": [\"a\", \"b\"], \"training\": false}]}");
  EXPECT_NE(DatasetListJson({dataset}, [](const Dataset&) { return std::optional<int64_t>(); })
                .find("\"version\": null, \"generation\": 2"),
            std::string::npos);
  EXPECT_EQ(DatasetListJson({}, [](const Dataset&) { return std::optional<int64_t>(); }), "{\"datasets\": []}");
  RunSummary run;
  run.run_id = "r1";
  run.version = 3;
  run.started_at = "s";
  run.status = "running";
  run.quality_score = 0.5;
  run.key_id = "k";
  EXPECT_EQ(RunListJson("d", {run}),
            "{\"dataset\": \"d\", \"runs\": [{\"run_id\": \"r1\", \"run_number\": 3, \"version\": 3, "
            "\"rules_version\": null, \"rules_sha256\": null, \"started_at\": \"s\", \"ended_at\": null, "
            "\"status\": \"running\", \"rows\": 0, \"bad_rows\": 0, \"quality_score\": 0.5, \"passed\": false, "
            "\"key_id\": \"k\", \"origin\": null}]}");
  run.rules_version = 2;
  run.rules_sha256 = "abc";
  EXPECT_NE(RunListJson("d", {run}).find("\"rules_version\": 2, \"rules_sha256\": \"abc\""), std::string::npos);
}

}  // namespace
}  // namespace griffin::server
