#include "exec/column_converter.h"

#include <cmath>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "exec/test_batches.h"

namespace griffin {
namespace {

using testing::AddTextColumn;
using testing::TextBatch;

TypedColumn Convert(const Batch& batch, ValueType type, bool* lossy = nullptr) {
  TypedColumn out;
  bool ignored = false;
  std::string message;
  ConvertColumn(batch, &batch.columns[0], {type, std::nullopt}, &out, lossy ? lossy : &ignored, &message);
  return out;
}

TEST(ColumnConverterTest, TextFloatsParseAndFailuresAreTypeErrors) {
  auto batch = TextBatch("x", {"1.5", " -2e3 ", "nan", "abc", std::nullopt, "INF"});
  TypedColumn column = Convert(*batch, ValueType::kFloat64);
  EXPECT_EQ(column.valid, (std::vector<uint8_t>{1, 1, 1, 0, 0, 1}));
  EXPECT_EQ(column.type_error, (std::vector<uint8_t>{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(column.floats[0], 1.5);
  EXPECT_EQ(column.floats[1], -2000);
  EXPECT_TRUE(std::isnan(column.floats[2]));
  EXPECT_TRUE(std::isinf(column.floats[5]));
}

TEST(ColumnConverterTest, StringsAreViewedWithoutCopy) {
  auto batch = TextBatch("s", {"a", "b"});
  TypedColumn column = Convert(*batch, ValueType::kString);
  EXPECT_EQ(column.strings, batch->columns[0].text.values.data());
  EXPECT_TRUE(column.type_error.empty());
}

TEST(ColumnConverterTest, MalformedRowsAreNull) {
  auto batch = TextBatch("i", {"1", "2"});
  batch->malformed = {0, 1};
  TypedColumn column = Convert(*batch, ValueType::kInt64);
  EXPECT_EQ(column.valid, (std::vector<uint8_t>{1, 0}));
  EXPECT_TRUE(column.type_error.empty());
}

TEST(ColumnConverterTest, JsonKindsDecideWhatIsAllowed) {
  Batch batch;
  AddTextColumn(&batch, "j", {"5", "5", "true", "x", "{}"},
                {JsonKind::kNumber, JsonKind::kString, JsonKind::kBool, JsonKind::kString, JsonKind::kOther});
  TypedColumn ints = Convert(batch, ValueType::kInt64);
  EXPECT_EQ(ints.valid, (std::vector<uint8_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(ints.type_error, (std::vector<uint8_t>{0, 0, 1, 1, 1}));
  TypedColumn strings = Convert(batch, ValueType::kString);
  EXPECT_EQ(strings.valid, (std::vector<uint8_t>{0, 1, 0, 1, 0}));
  TypedColumn bools = Convert(batch, ValueType::kBool);
  EXPECT_EQ(bools.valid, (std::vector<uint8_t>{0, 0, 1, 0, 0}));
  EXPECT_EQ(bools.ints[2], 1);
}

TEST(ColumnConverterTest, ArrowInt64IsReadInPlace) {
  arrow::Int64Builder builder;
  ASSERT_TRUE(builder.AppendValues({1, 2, 3}).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  std::shared_ptr<arrow::Array> array = builder.Finish().ValueOrDie();
  Batch batch;
  batch.num_rows = 4;
  batch.columns.push_back({"n", {}, array});
  TypedColumn column = Convert(batch, ValueType::kInt64);
  EXPECT_EQ(column.ints, static_cast<const arrow::Int64Array&>(*array).raw_values());
  EXPECT_EQ(column.valid, (std::vector<uint8_t>{1, 1, 1, 0}));
  TypedColumn floats = Convert(batch, ValueType::kFloat64, nullptr);
  bool lossy = false;
  Convert(batch, ValueType::kFloat64, &lossy);
  EXPECT_TRUE(lossy);  // int64 into float64 can lose precision
  EXPECT_EQ(floats.type_error, (std::vector<uint8_t>{1, 1, 1, 0}));
}

TEST(ColumnConverterTest, ArrowNullTypeIsAllNullForEveryDeclaredType) {
  Batch batch;
  batch.num_rows = 3;
  batch.columns.push_back({"n", {}, std::make_shared<arrow::NullArray>(3)});
  for (ValueType type : {ValueType::kString, ValueType::kInt64, ValueType::kFloat64, ValueType::kBool,
                         ValueType::kDate, ValueType::kTimestamp}) {
    bool lossy = true;
    TypedColumn column = Convert(batch, type, &lossy);
    EXPECT_FALSE(lossy) << ValueTypeName(type);
    EXPECT_TRUE(column.present);
    EXPECT_EQ(column.valid, (std::vector<uint8_t>{0, 0, 0}));
    EXPECT_TRUE(column.type_error.empty());
  }
}

TEST(ColumnConverterTest, ArrowInt32WidensAndDoubleIsInPlace) {
  arrow::Int32Builder ints;
  ASSERT_TRUE(ints.AppendValues({7, -8}).ok());
  arrow::DoubleBuilder doubles;
  ASSERT_TRUE(doubles.AppendValues({0.5, 1.5}).ok());
  Batch batch;
  batch.num_rows = 2;
  batch.columns.push_back({"i", {}, ints.Finish().ValueOrDie()});
  TypedColumn widened = Convert(batch, ValueType::kInt64);
  EXPECT_EQ(widened.ints[1], -8);
  Batch batch2;
  batch2.num_rows = 2;
  auto double_array = doubles.Finish().ValueOrDie();
  batch2.columns.push_back({"d", {}, double_array});
  TypedColumn in_place = Convert(batch2, ValueType::kFloat64);
  EXPECT_EQ(in_place.floats, static_cast<const arrow::DoubleArray&>(*double_array).raw_values());
}

TEST(ColumnConverterTest, ArrowStringsAreParsedAsText) {
  arrow::StringBuilder builder;
  ASSERT_TRUE(builder.AppendValues({"2024-02-29", "2023-02-29"}).ok());
  Batch batch;
  batch.num_rows = 2;
  batch.columns.push_back({"d", {}, builder.Finish().ValueOrDie()});
  TypedColumn dates = Convert(batch, ValueType::kDate);
  EXPECT_EQ(dates.valid, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(dates.type_error, (std::vector<uint8_t>{0, 1}));
}

TEST(ColumnConverterTest, MissingColumnIsAbsentAndNull) {
  Batch batch;
  batch.num_rows = 3;
  TypedColumn out;
  bool lossy = false;
  std::string message;
  ConvertColumn(batch, nullptr, {ValueType::kInt64, std::nullopt}, &out, &lossy, &message);
  EXPECT_FALSE(out.present);
  EXPECT_EQ(out.valid, (std::vector<uint8_t>{0, 0, 0}));
}

}  // namespace
}  // namespace griffin
