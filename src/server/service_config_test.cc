#include "server/service_config.h"

#include <gtest/gtest.h>

#include "util/sha256.h"

namespace griffin::server {
namespace {

const std::string kSha = Sha256Hex("token");

std::string ErrorOf(const std::string& yaml) {
  auto config = ParseServiceConfig(yaml, "serve.yaml", "/etc/griffin");
  return config.ok() ? "OK" : config.status().message();
}

TEST(ServiceConfigTest, ReadsKeysLimitsTlsAndStore) {
  auto config = ParseServiceConfig("keys:\n"
                                   "  - id: trainer\n"
                                   "    sha256: " + kSha + "\n"
                                   "    datasets: [steps]\n"
                                   "    rate: {per_second: 5, burst: 10}\n"
                                   "  - {id: admin, sha256: " + Sha256Hex("other") + ", rate: none}\n"
                                   "limits: {max_body_bytes: 2048, request_timeout_s: 1.5, max_concurrent: 4,\n"
                                   "         http_threads: 8, rate: {per_second: 50}, shutdown_grace_s: 3,\n"
                                   "         header_timeout_s: 2, max_connections: 500, reload_settle_s: 0.25}\n"
                                   "tls: {cert: certs/server.crt, key: /abs/server.key}\n"
                                   "store: {metrics_sample: 0.5}\n",
                                   "serve.yaml", "/etc/griffin");
  ASSERT_TRUE(config.ok()) << config.status().message();
  ASSERT_EQ(config->keys.size(), 2u);
  EXPECT_EQ(config->keys[0].id, "trainer");
  EXPECT_EQ(config->keys[0].digest, Sha256("token"));
  EXPECT_EQ(config->keys[0].datasets, (std::vector<std::string>{"steps"}));
  EXPECT_EQ(config->keys[0].rate->per_second, 5);
  EXPECT_EQ(config->keys[0].rate->burst, 10);
  EXPECT_EQ(config->keys[1].rate->per_second, 0);  // none: unlimited
  EXPECT_FALSE(config->keys[1].datasets.has_value());
  EXPECT_EQ(config->limits.max_body_bytes, 2048);
  EXPECT_EQ(config->limits.request_timeout_s, 1.5);
  EXPECT_EQ(config->limits.max_concurrent, 4);
  EXPECT_EQ(config->limits.http_threads, 8);
  EXPECT_EQ(config->limits.rate->burst, 50);  // burst defaults to per_second
  EXPECT_EQ(config->limits.shutdown_grace_s, 3);
  EXPECT_EQ(config->tls_cert, "/etc/griffin/certs/server.crt");
  EXPECT_EQ(config->tls_key, "/abs/server.key");
  EXPECT_EQ(config->metrics_sample, 0.5);
  EXPECT_EQ(config->limits.header_timeout_s, 2);
  EXPECT_EQ(config->limits.max_connections, 500);
  EXPECT_EQ(config->limits.reload_settle_s, 0.25);

  auto empty = ParseServiceConfig("", "serve.yaml", "");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->keys.empty());
  EXPECT_EQ(empty->limits.max_concurrent, 32);
}

// A dataset may name a source the service reads itself (docs/service.md).
TEST(ServiceConfigTest, SourcesNameDatasetsReadFromADatabase) {
  auto config = ParseServiceConfig("sources:\n  orders: 'sqlite:///d/app.db?table=orders'\n", "serve.yaml", "");
  ASSERT_TRUE(config.ok()) << config.status().message();
  ASSERT_EQ(config->sources.size(), 1u);
  EXPECT_EQ(config->sources.at("orders"), "sqlite:///d/app.db?table=orders");
}

// Object stores and Delta tables are sources too: delta: is claimed by its adapter,
// not a URI scheme.
TEST(ServiceConfigTest, SourcesNameObjectsAndDeltaTables) {
  auto config = ParseServiceConfig(
      "sources:\n  a: 's3://bucket/orders.parquet'\n  b: 'gs://bucket/day/'\n  c: 'delta:s3://bucket/tables/t'\n",
      "serve.yaml", "");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->sources.at("c"), "delta:s3://bucket/tables/t");
  EXPECT_EQ(config->sources.size(), 3u);
}

TEST(ServiceConfigTest, ErrorsNameTheLineAndKey) {
  EXPECT_EQ(ErrorOf("keys:\n  - {id: a, sha256: abc}\n"),
            "serve.yaml:2: keys[0].sha256: expected 64 hex digits (the sha256 of the token: sha256sum, not the token)");
  EXPECT_EQ(ErrorOf("keys:\n  - {sha256: " + kSha + "}\n"), "serve.yaml:2: keys[0]: missing id");
  EXPECT_EQ(ErrorOf("keys:\n  - {id: a}\n"), "serve.yaml:2: keys[0]: missing sha256");
  EXPECT_EQ(ErrorOf("keys:\n  - {id: a, sha256: " + kSha + "}\n  - {id: a, sha256: " + kSha + "}\n"),
            "serve.yaml:3: keys[1]: key id 'a' is given twice");
  EXPECT_EQ(ErrorOf("keys:\n  - {id: a, sha256: " + kSha + "}\n  - {id: b, sha256: " + kSha + "}\n"),
            "serve.yaml:3: keys[1]: key 'b' has the same sha256 as key 'a'");
  EXPECT_EQ(ErrorOf("limits: {max_concurrent: 0}\n"),
            "serve.yaml:1: limits.max_concurrent: expected a whole number from 1 to 100000");
  EXPECT_EQ(ErrorOf("limits: {rate: {burst: 3}}\n"), "serve.yaml:1: limits.rate: missing per_second");
  EXPECT_EQ(ErrorOf("limits: {speed: 1}\n").rfind("serve.yaml:1: limits.speed: unknown key (expected one of: ", 0), 0u);
  EXPECT_EQ(ErrorOf("tls: {cert: a.crt}\n"), "serve.yaml:1: tls: needs both cert and key");
  EXPECT_EQ(ErrorOf("store: {metrics_sample: 2}\n"),
            "serve.yaml:1: store.metrics_sample: must be between 0 and 1, found 2");
  EXPECT_EQ(ErrorOf("users: []\n"),
            "serve.yaml:1: users: unknown key (expected one of: keys, limits, tls, store, alerts, sources)");
  EXPECT_EQ(ErrorOf("sources: {orders: orders.csv}\n"),
            "serve.yaml:1: sources.orders: expected a source URI such as postgresql://user@host/db?table=name, "
            "s3://bucket/key or delta:PATH, got "
            "'orders.csv'");
  EXPECT_EQ(ErrorOf("sources: {orders: 'nosuch://u:pw@h/x'}\n"),
            "serve.yaml:1: sources.orders: expected a source URI such as postgresql://user@host/db?table=name, "
            "s3://bucket/key or delta:PATH, got "
            "'nosuch://u:***@h/x'");
  EXPECT_EQ(ErrorOf("keys: [\n").rfind("serve.yaml:", 0), 0u);
  auto missing = LoadServiceConfig("/nonexistent/serve.yaml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "cannot read /nonexistent/serve.yaml: No such file or directory");
}

}  // namespace
}  // namespace griffin::server
