#include "connectors/objectstore/listing_cache.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

ObjectUri Uri(const std::string& text) { return *ParseObjectUri(text); }

TEST(ListingCacheTest, RecallsTheLatestEntryOfAFile) {
  ForgetListingsForTesting();
  EXPECT_FALSE(RecentListing(Uri("s3://b/a.csv")));
  RememberListing(Uri("s3://b/a.csv"), arrow::fs::FileInfo("b/a.csv", arrow::fs::FileType::File));  // size unknown
  EXPECT_FALSE(RecentListing(Uri("s3://b/a.csv")));
  arrow::fs::FileInfo first("b/a.csv", arrow::fs::FileType::File);
  first.set_size(10);
  RememberListing(Uri("s3://b/a.csv"), first);
  arrow::fs::FileInfo second = first;
  second.set_size(12);
  RememberListing(Uri("s3://b/a.csv"), second);
  ASSERT_TRUE(RecentListing(Uri("s3://b/a.csv")));
  EXPECT_EQ(RecentListing(Uri("s3://b/a.csv"))->size(), 12);
  EXPECT_FALSE(RecentListing(Uri("s3://b/other.csv")));
  // The same bucket and key in another store is another object.
  EXPECT_FALSE(RecentListing(Uri("s3://b/a.csv?endpoint=http://127.0.0.1:9")));
  EXPECT_FALSE(RecentListing(Uri("gs://b/a.csv")));
}

TEST(ListingCacheTest, KeepsNoDirectories) {
  ForgetListingsForTesting();
  arrow::fs::FileInfo dir("b/dir", arrow::fs::FileType::Directory);
  RememberListing(Uri("s3://b/dir"), dir);
  EXPECT_FALSE(RecentListing(Uri("s3://b/dir")));
}

}  // namespace
}  // namespace griffin
