// Helpers for the server's C++ tests: a ServiceCore over a temporary rules
// directory with one key ("token-a", id "a") limited to no dataset list.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "io/io_test_util.h"
#include "server/service_core.h"
#include "util/sha256.h"

namespace griffin::server::testing {

inline const char* kStepsRules = R"(griffin: 1
dataset: steps
columns:
  x: {type: float64, not_null: true, min: 0}
training:
  loss: {finite: true}
)";

struct TestService {
  griffin::testing::TempDir dir;
  std::unique_ptr<ServiceCore> core;

  // `store`: a store file in `dir` ("": --no-store); `configure` may add to
  // the options (rule files written to dir/rules first, sources) before start.
  explicit TestService(const std::string& store = "",
                       const std::function<void(TestService&, ServiceCore::Options&)>& configure = nullptr) {
    ::mkdir(dir.Path("rules").c_str(), 0755);
    dir.Write("rules/steps.yaml", kStepsRules);
    ServiceCore::Options options;
    options.rules_dir = dir.Path("rules");
    options.store_uri = store.empty() ? "" : dir.Path(store);
    ApiKey key;
    key.id = "a";
    key.digest = Sha256("token-a");
    options.config.keys.push_back(key);
    options.config.limits.rate = RateLimit{1000, 1000};
    if (configure) configure(*this, options);
    auto created = ServiceCore::Create(std::move(options));
    EXPECT_TRUE(created.ok()) << created.status().message();
    if (created.ok()) core = std::move(*created);
  }
};

}  // namespace griffin::server::testing
