#include "api/feature_stream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::TempDir;

const char* kRules = R"(griffin: 1
dataset: t
columns:
  n: {type: int64, not_null: true, min: 0}
  x: {type: float64, not_null: true, finite: true}
  c: {type: string, not_null: true, in: [a, b]}
)";

// Rows n = 0..rows-1; every 10th row has a negative n (quarantined).
std::string Csv(int rows) {
  std::ostringstream out;
  out << "n,x,c\n";
  for (int r = 0; r < rows; ++r) out << (r % 10 == 9 ? -r : r) << "," << r * 0.5 << "," << (r % 2 ? "b" : "a") << "\n";
  return out.str();
}

struct Fixture {
  TempDir dir;
  std::shared_ptr<const Validator> validator;
  std::vector<FeatureColumn> columns;
  Fixture() {
    auto v = Validator::FromText(kRules, "<test>");
    EXPECT_TRUE(v.ok()) << v.status().message();
    validator = *v;
    auto planned = PlanFeatureColumns(validator->plan(), {"n", "c"}, {}, false);
    EXPECT_TRUE(planned.ok());
    columns = *planned;
  }
};

FeatureStreamOptions Options(int64_t batch_size) {
  FeatureStreamOptions options;
  options.batcher.batch_size = batch_size;
  options.read_batch_rows = 7;   // many engine chunks per output batch
  options.threads = 2;
  options.prefetch = 1;
  return options;
}

TEST(FeatureStreamTest, YieldsTheCleanRowsInOrderAndWritesTheQuarantine) {
  Fixture f;
  const std::string csv = f.dir.Write("in.csv", Csv(100));
  FeatureStreamOptions options = Options(16);
  options.quarantine_path = f.dir.Path("bad.csv");
  auto stream = FeatureStream::OpenPaths(f.validator, {csv}, f.columns, options);
  ASSERT_TRUE(stream.ok()) << stream.status().message();
  std::vector<int64_t> n;
  std::vector<int32_t> codes;
  while (true) {
    auto batch = (*stream)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().message();
    if (!*batch) break;
    ASSERT_EQ((*batch)->rows, 16);
    const int64_t* ns = reinterpret_cast<const int64_t*>((*batch)->columns[0]->data());
    const int32_t* cs = reinterpret_cast<const int32_t*>((*batch)->columns[1]->data());
    n.insert(n.end(), ns, ns + 16);
    codes.insert(codes.end(), cs, cs + 16);
  }
  // 90 clean rows -> 5 batches of 16, 10 dropped.
  ASSERT_EQ(n.size(), 80u);
  std::vector<int64_t> expected;
  for (int r = 0; r < 100 && expected.size() < 80; ++r)
    if (r % 10 != 9) expected.push_back(r);
  EXPECT_EQ(n, expected);
  for (size_t i = 0; i < n.size(); ++i) EXPECT_EQ(codes[i], n[i] % 2);
  EXPECT_EQ((*stream)->quarantined_rows(), 10);
  EXPECT_EQ((*stream)->clean_rows(), 90);
  EXPECT_EQ((*stream)->dropped_rows(), 10);
  ASSERT_NE((*stream)->result(), nullptr);
  EXPECT_EQ((*stream)->result()->report.bad_rows, 10);
  ASSERT_TRUE((*stream)->quarantine().has_value());
  EXPECT_EQ((*stream)->quarantine()->rows, 10);
  std::ifstream quarantined(f.dir.Path("bad.csv"));
  std::string header;
  std::getline(quarantined, header);
  EXPECT_EQ(header.rfind("n,x,c,_griffin_row", 0), 0u) << header;
}

TEST(FeatureStreamTest, CancellingAStreamBlockedOnAFullQueueStopsItAndWritesNothing) {
  Fixture f;
  const std::string csv = f.dir.Write("in.csv", Csv(5000));
  FeatureStreamOptions options = Options(4);
  options.quarantine_path = f.dir.Path("bad.parquet");
  auto stream = FeatureStream::OpenPaths(f.validator, {csv}, f.columns, options);
  ASSERT_TRUE(stream.ok());
  auto first = (*stream)->Next();
  ASSERT_TRUE(first.ok() && first->has_value());
  (*stream)->Cancel();
  auto next = (*stream)->Next();
  EXPECT_FALSE(next.ok());
  stream->reset();   // joins the producer
  EXPECT_FALSE(std::filesystem::exists(f.dir.Path("bad.parquet")));
  for (const auto& entry : std::filesystem::directory_iterator(f.dir.path()))
    EXPECT_EQ(entry.path().filename(), "in.csv");   // no temporary file left either
}

TEST(FeatureStreamTest, InputErrorsReachTheConsumer) {
  Fixture f;
  auto stream = FeatureStream::OpenPaths(f.validator, {f.dir.Path("missing.csv")}, f.columns, Options(4));
  ASSERT_TRUE(stream.ok());
  auto batch = (*stream)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), StatusCode::kInputError);
  EXPECT_NE(batch.status().message().find("missing.csv"), std::string::npos) << batch.status().message();
  EXPECT_EQ((*stream)->result(), nullptr);
}

TEST(FeatureStreamTest, DestroyingAnUnreadStreamDoesNotHang) {
  Fixture f;
  const std::string csv = f.dir.Write("in.csv", Csv(20000));
  for (int i = 0; i < 5; ++i) {
    auto stream = FeatureStream::OpenPaths(f.validator, {csv}, f.columns, Options(2));
    ASSERT_TRUE(stream.ok());
  }
}

}  // namespace
}  // namespace griffin
