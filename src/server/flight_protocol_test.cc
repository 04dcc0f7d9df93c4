#include "server/flight_protocol.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin::server {
namespace {

namespace flight = arrow::flight;

TEST(FlightProtocolTest, Descriptors) {
  auto path = ParseFlightTarget(flight::FlightDescriptor::Path({"steps"}));
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->dataset, "steps");
  EXPECT_TRUE(path->batch_hash.empty());
  EXPECT_TRUE(path->store);
  auto hashed = ParseFlightTarget(flight::FlightDescriptor::Path({"steps", "h-1"}));
  ASSERT_TRUE(hashed.ok());
  EXPECT_EQ(hashed->batch_hash, "h-1");
  auto command = ParseFlightTarget(flight::FlightDescriptor::Command(
      R"({"dataset": "tx", "batch_hash": "b", "max_violations": 5, "store": false})"));
  ASSERT_TRUE(command.ok()) << command.status().message();
  EXPECT_EQ(command->dataset, "tx");
  EXPECT_EQ(command->max_violations, 5);
  EXPECT_FALSE(command->store);
  auto message = [](const flight::FlightDescriptor& d) {
    auto parsed = ParseFlightTarget(d);
    return parsed.ok() ? std::string("OK") : parsed.status().message();
  };
  EXPECT_EQ(message(flight::FlightDescriptor::Path({})), "descriptor: expected a path [dataset] or [dataset, batch_hash]");
  EXPECT_EQ(message(flight::FlightDescriptor::Path({"a", "b", "c"})),
            "descriptor: expected a path [dataset] or [dataset, batch_hash]");
  EXPECT_EQ(message(flight::FlightDescriptor::Path({"a", "bad hash"})),
            "descriptor: batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  // "" names a hash, a bad one (the OpenAPI document: minLength 1), not "none".
  EXPECT_EQ(message(flight::FlightDescriptor::Path({"a", ""})),
            "descriptor: batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  EXPECT_EQ(message(flight::FlightDescriptor::Command(R"({"dataset": "a", "batch_hash": ""})")),
            "descriptor: batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  EXPECT_EQ(message(flight::FlightDescriptor::Command("[1]")),
            "descriptor: a command must be a JSON object like {\"dataset\": \"name\"}");
  EXPECT_EQ(message(flight::FlightDescriptor::Command(R"({"dataset": "a", "max_violations": -1})")).rfind(
                "descriptor: bad or unknown field 'max_violations'", 0),
            0u);
  EXPECT_EQ(message(flight::FlightDescriptor::Command("{}")), "descriptor: no dataset named");
}

TEST(FlightProtocolTest, ResultBatches) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\ncolumns:\n  x: {type: int64, min: 0, max: {value: 9, severity: warn}}\n"
                            "rows:\n  - {name: r, expr: 'x != 3'}\n",
                            "<t>");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ResultBatchBuilder builder(*rules);
  RowVerdicts verdicts;
  verdicts.base_row = 10;
  verdicts.bad_rows = {1, 4};
  verdicts.error_offsets = {0, 2, 3};
  verdicts.errors = {{"x.min", "m"}, {"r", "m"}, {"x.min", "m"}};
  auto built = builder.Build(2, 10, 6, &verdicts);
  ASSERT_TRUE(built.ok()) << built.status().message();
  const auto& batch = **built;
  EXPECT_TRUE(batch.schema()->Equals(*ResultBatchBuilder::Schema()));
  EXPECT_EQ(batch.num_rows(), 1);
  EXPECT_EQ(batch.column(3)->ToString(), "[\n  [\n    11,\n    14\n  ]\n]");
  // Error checks in file order: x.type, x.min, r (x.max is warn).
  const std::string checks = batch.column(4)->ToString();
  EXPECT_NE(checks.find("\"x.type\",\n      \"x.min\",\n      \"r\""), std::string::npos) << checks;
  EXPECT_NE(checks.find("0,\n      2,\n      1"), std::string::npos) << checks;
  auto empty = builder.Build(3, 16, 0, nullptr);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->column(3)->ToString(), "[\n  []\n]");
}

}  // namespace
}  // namespace griffin::server
