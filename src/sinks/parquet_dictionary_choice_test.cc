#include "sinks/parquet_dictionary_choice.h"

#include <arrow/builder.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace griffin {
namespace {

template <typename Builder>
std::shared_ptr<arrow::Array> Text(const std::vector<std::optional<std::string>>& values) {
  Builder builder;
  for (const auto& value : values) {
    arrow::Status status = value ? builder.Append(*value) : builder.AppendNull();
    EXPECT_TRUE(status.ok());
  }
  std::shared_ptr<arrow::Array> array;
  EXPECT_TRUE(builder.Finish(&array).ok());
  return array;
}

TEST(ParquetDictionaryChoiceTest, ColumnsOfMostlyDistinctTextAreNamed) {
  constexpr int kRows = 100;
  std::vector<std::optional<std::string>> ids, codes, half, nulls, sparse_ids;
  arrow::Int64Builder numbers;
  for (int r = 0; r < kRows; ++r) {
    ids.push_back("id" + std::to_string(r));
    codes.push_back(std::string(1, static_cast<char>('A' + r % 4)));
    half.push_back("h" + std::to_string(r / 2));  // 50 distinct of 100: not more than half
    nulls.push_back(std::nullopt);
    sparse_ids.push_back(r % 10 == 0 ? std::optional<std::string>("s" + std::to_string(r)) : std::nullopt);
    ASSERT_TRUE(numbers.Append(r).ok());
  }
  std::shared_ptr<arrow::Array> number_array;
  ASSERT_TRUE(numbers.Finish(&number_array).ok());
  auto schema = arrow::schema({arrow::field("ids", arrow::utf8()), arrow::field("codes", arrow::utf8()),
                               arrow::field("half", arrow::utf8()), arrow::field("nulls", arrow::utf8()),
                               arrow::field("sparse.ids", arrow::utf8()), arrow::field("numbers", arrow::int64()),
                               arrow::field("large", arrow::large_utf8()), arrow::field("bytes", arrow::binary())});
  auto batch = arrow::RecordBatch::Make(
      schema, kRows,
      {Text<arrow::StringBuilder>(ids), Text<arrow::StringBuilder>(codes), Text<arrow::StringBuilder>(half),
       Text<arrow::StringBuilder>(nulls), Text<arrow::StringBuilder>(sparse_ids), number_array,
       Text<arrow::LargeStringBuilder>(ids), Text<arrow::BinaryBuilder>(codes)});
  EXPECT_EQ(MostlyDistinctTextColumns(*batch), (std::vector<std::string>{"ids", "sparse.ids", "large"}));

  // One more distinct value tips `half` over.
  half[0] = "unique";
  auto tipped = arrow::RecordBatch::Make(arrow::schema({arrow::field("half", arrow::utf8())}), kRows,
                                         {Text<arrow::StringBuilder>(half)});
  EXPECT_EQ(MostlyDistinctTextColumns(*tipped), (std::vector<std::string>{"half"}));

  auto empty = arrow::RecordBatch::Make(arrow::schema({arrow::field("ids", arrow::utf8())}), 0,
                                        {Text<arrow::StringBuilder>({})});
  EXPECT_TRUE(MostlyDistinctTextColumns(*empty).empty());
}

}  // namespace
}  // namespace griffin
