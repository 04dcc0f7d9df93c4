#include "exec/quantile_sketch.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(QuantileSketchTest, ExactNearestRank) {
  QuantileSketch<double> sketch;
  for (double v : {5.0, 1.0, 4.0, 2.0, 3.0}) sketch.Add(v);
  EXPECT_EQ(*sketch.Quantile(0.0), 1.0);   // rank max(1, ceil(0)) = 1
  EXPECT_EQ(*sketch.Quantile(0.2), 1.0);   // ceil(1.0) = 1
  EXPECT_EQ(*sketch.Quantile(0.21), 2.0);  // ceil(1.05) = 2
  EXPECT_EQ(*sketch.Quantile(0.5), 3.0);   // ceil(2.5) = 3
  EXPECT_EQ(*sketch.Quantile(1.0), 5.0);
  EXPECT_TRUE(sketch.exact());
}

TEST(QuantileSketchTest, EmptyHasNoQuantile) {
  QuantileSketch<int64_t> sketch;
  EXPECT_FALSE(sketch.Quantile(0.5).has_value());
}

TEST(QuantileSketchTest, NanSortsAfterInfinity) {
  QuantileSketch<double> sketch;
  for (double v : std::vector<double>{NAN, INFINITY, 1.0, NAN}) sketch.Add(v);
  EXPECT_EQ(*sketch.Quantile(0.25), 1.0);
  EXPECT_EQ(*sketch.Quantile(0.5), INFINITY);
  EXPECT_TRUE(std::isnan(*sketch.Quantile(0.75)));
}

TEST(QuantileSketchTest, SketchRankErrorWithinHalfPercent) {
  // Past the exact limit the answer's true rank must be within 0.5% of n.
  const int64_t n = 3'000'000;
  std::mt19937_64 rng(7);
  std::vector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<int64_t>(rng() % 10'000'000);
  QuantileSketch<int64_t> sketch;
  for (int64_t v : values) sketch.Add(v);
  EXPECT_FALSE(sketch.exact());
  std::vector<int64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (double q : {0.01, 0.1, 0.25, 0.5, 0.9, 0.99}) {
    int64_t answer = *sketch.Quantile(q);
    int64_t low = std::lower_bound(sorted.begin(), sorted.end(), answer) - sorted.begin();
    int64_t high = std::upper_bound(sorted.begin(), sorted.end(), answer) - sorted.begin();
    int64_t target = static_cast<int64_t>(std::ceil(q * n));
    int64_t error = target < low ? low - target : (target > high ? target - high : 0);
    EXPECT_LE(error, n / 200) << "q=" << q;
  }
}

TEST(QuantileSketchTest, SameInputSameAnswer) {
  QuantileSketch<double> a, b;
  for (int i = 0; i < 1'500'000; ++i) {
    a.Add(std::sin(i) * 1000);
    b.Add(std::sin(i) * 1000);
  }
  EXPECT_EQ(*a.Quantile(0.37), *b.Quantile(0.37));
}

TEST(QuantileSketchTest, MergedPartsAnswerAsOneExactSketch) {
  QuantileSketch<double> whole(1000), a(1000), b(1000);
  for (int i = 0; i < 800; ++i) {
    whole.Add(i);
    (i < 300 ? a : b).Add(i);
  }
  a.Merge(b);
  ASSERT_TRUE(a.exact());
  EXPECT_EQ(a.count(), 800);
  for (double q : {0.01, 0.5, 0.99}) EXPECT_EQ(*a.Quantile(q), *whole.Quantile(q));
}

TEST(QuantileSketchTest, MergePastTheExactLimitStaysWithinRankError) {
  QuantileSketch<double> total(1 << 12);
  for (int part = 0; part < 40; ++part) {
    QuantileSketch<double> piece(1 << 12);
    for (int i = 0; i < 25000; ++i) piece.Add(part * 25000 + i);
    total.Merge(piece);
  }
  EXPECT_FALSE(total.exact());
  EXPECT_EQ(total.count(), 1'000'000);
  EXPECT_NEAR(*total.Quantile(0.5), 500000, 5000);
  EXPECT_NEAR(*total.Quantile(0.9), 900000, 5000);
}

TEST(QuantileSketchTest, SerializedStateRoundTripsAndCorruptBytesFail) {
  QuantileSketch<int64_t> sketch(100);
  for (int64_t i = 0; i < 50000; ++i) sketch.Add(i * 7 % 1001);
  ByteWriter out;
  sketch.Serialize(&out);
  QuantileSketch<int64_t> back;
  ByteReader in(out.bytes());
  ASSERT_TRUE(back.Deserialize(&in));
  ByteWriter again;
  back.Serialize(&again);
  EXPECT_EQ(again.bytes(), out.bytes());
  EXPECT_EQ(*back.Quantile(0.25), *sketch.Quantile(0.25));
  ByteReader cut(std::string_view(out.bytes()).substr(0, out.bytes().size() / 2));
  EXPECT_FALSE(QuantileSketch<int64_t>().Deserialize(&cut));
}

// Found by partial_state_fuzz: a state whose count says more values than the
// exact sketch holds made Quantile read past them; a compacted one with no
// retained value made it read an empty vector's back().
TEST(QuantileSketchTest, BytesWhoseCountsDisagreeWithTheValuesAreRefused) {
  auto bytes_of = [](int64_t exact_limit, int64_t count, std::vector<int64_t> exact,
                     std::vector<std::vector<int64_t>> levels) {
    ByteWriter out;
    out.U64(static_cast<uint64_t>(exact_limit));
    out.I64(count);
    out.U64(exact.size());
    for (int64_t v : exact) out.I64(v);
    out.U64(levels.size());
    for (const auto& level : levels) {
      out.U8(0);
      out.U64(level.size());
      for (int64_t v : level) out.I64(v);
    }
    return out.Take();
  };
  auto reads = [](const std::string& bytes) {
    ByteReader in(bytes);
    return QuantileSketch<int64_t>().Deserialize(&in);
  };
  EXPECT_TRUE(reads(bytes_of(100, 3, {1, 2, 3}, {})));
  EXPECT_FALSE(reads(bytes_of(100, 4, {1, 2, 3}, {})));         // claims a 4th value
  EXPECT_FALSE(reads(bytes_of(100, 2, {1, 2, 3}, {})));
  EXPECT_TRUE(reads(bytes_of(100, 6, {}, {{}, {5, 9, 12}})));
  EXPECT_FALSE(reads(bytes_of(100, 6, {}, {{}, {}})));          // compacted, nothing retained
  EXPECT_FALSE(reads(bytes_of(100, 6, {1}, {{5, 9, 12}})));     // exact values beside levels
  std::vector<std::vector<int64_t>> deep(62);
  deep[61] = {1, 2, 3, 4};                                      // 4 * 2^61 overflows the weights
  EXPECT_FALSE(reads(bytes_of(100, 6, {}, deep)));
}

TEST(QuantileSketchTest, RepeatedAndSortedAddsAnswerAsSingleAdds) {
  QuantileSketch<int64_t> single(1000), repeated(1000);
  for (int64_t v : {7, 3, 9}) {
    for (int i = 0; i < 300; ++i) single.Add(v);
    repeated.AddRepeated(v, 300);
  }
  repeated.SortExact();
  ASSERT_TRUE(repeated.exact());
  EXPECT_EQ(repeated.count(), single.count());
  for (double q : {0.1, 0.34, 0.5, 0.67, 0.9}) EXPECT_EQ(*repeated.Quantile(q), *single.Quantile(q)) << q;
  repeated.AddRepeated(1, 200);  // past the exact limit: compacted, still within the rank bound
  EXPECT_FALSE(repeated.exact());
  EXPECT_EQ(repeated.count(), 1100);
  EXPECT_EQ(*repeated.Quantile(0.1), 1);
  EXPECT_EQ(*repeated.Quantile(0.5), 7);
}

}  // namespace
}  // namespace griffin
