#include <limits>
#include "exec/column_converter.h"

#include <cmath>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "exec/test_batches.h"
#include "util/value_parse.h"

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

// A zero-row Arrow batch (found by arrow_ipc_fuzz: UBSan flagged a memset on the
// empty validity vector's null data()) converts to empty columns.
TEST(ColumnConverterTest, EmptyArrowArraysConvertToEmptyColumns) {
  for (ValueType type : {ValueType::kInt64, ValueType::kFloat64, ValueType::kString}) {
    arrow::Int64Builder builder;
    std::shared_ptr<arrow::Array> array = builder.Finish().ValueOrDie();
    Batch batch;
    batch.num_rows = 0;
    batch.columns.push_back({"n", {}, array});
    TypedColumn column = Convert(batch, type);
    EXPECT_TRUE(column.valid.empty());
    EXPECT_TRUE(column.type_error.empty());
  }
}

// Converts a 3-row array to timestamps and expects int64's max, its min, then `third`.
void ExpectSaturatedEnds(const std::shared_ptr<arrow::Array>& array, int64_t third) {
  Batch batch;
  batch.num_rows = 3;
  batch.columns.push_back({"t", {}, array});
  TypedColumn column = Convert(batch, ValueType::kTimestamp);
  ASSERT_EQ(column.valid.size(), 3u);
  EXPECT_EQ(column.ints[0], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(column.ints[1], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(column.ints[2], third);
}

// Timestamps in seconds past int64 microseconds saturate instead of overflowing
// (found by arrow_ipc_fuzz: UBSan flagged the multiplication).
TEST(ColumnConverterTest, HugeSecondTimestampsSaturate) {
  arrow::TimestampBuilder builder(arrow::timestamp(arrow::TimeUnit::SECOND), arrow::default_memory_pool());
  ASSERT_TRUE(builder.AppendValues({1700000000000000, -1700000000000000, 1}).ok());
  ExpectSaturatedEnds(builder.Finish().ValueOrDie(), 1000000);
}

// Days past ~292,000 years have no microsecond timestamp either (date32 read
// as a timestamp; found by arrow_ipc_fuzz with UBSan halting).
TEST(ColumnConverterTest, HugeDate32AsTimestampSaturates) {
  arrow::Date32Builder builder;
  ASSERT_TRUE(builder.AppendValues({939524096, -2091843584, 1}).ok());
  ExpectSaturatedEnds(builder.Finish().ValueOrDie(), 86400000000LL);
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
  bool lossy = true;
  TypedColumn floats = Convert(batch, ValueType::kFloat64, &lossy);
  EXPECT_FALSE(lossy);  // every integer passes float64, as its text would
  EXPECT_TRUE(floats.type_error.empty());
  EXPECT_EQ(floats.valid, (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(floats.floats[2], 3.0);
}

TEST(ColumnConverterTest, BigIntegersRoundToTheNearestDoubleAsTextDoes) {
  arrow::UInt64Builder builder;
  ASSERT_TRUE(builder.AppendValues({9007199254740993ULL, 18446744073709551615ULL}).ok());
  Batch batch;
  batch.num_rows = 2;
  batch.columns.push_back({"u", {}, builder.Finish().ValueOrDie()});
  bool lossy = true;
  TypedColumn floats = Convert(batch, ValueType::kFloat64, &lossy);
  EXPECT_FALSE(lossy);
  EXPECT_EQ(floats.floats[0], *ParseFloat64("9007199254740993"));
  EXPECT_EQ(floats.floats[1], *ParseFloat64("18446744073709551615"));
  Convert(batch, ValueType::kInt64, &lossy);
  EXPECT_TRUE(lossy);  // uint64 into int64 stays a schema error (rules-v1)
}

TEST(ColumnConverterTest, FloatsDeclaredInt64AreJudgedValueByValue) {
  arrow::DoubleBuilder doubles;
  ASSERT_TRUE(doubles.AppendValues({987555.0, 987555.5, std::nan(""), INFINITY, 1e300, -0.0, -3.0}).ok());
  ASSERT_TRUE(doubles.AppendNull().ok());
  Batch batch;
  batch.num_rows = 8;
  batch.columns.push_back({"p", {}, doubles.Finish().ValueOrDie()});
  bool lossy = true;
  TypedColumn ints = Convert(batch, ValueType::kInt64, &lossy);
  EXPECT_FALSE(lossy);  // not a schema error
  EXPECT_EQ(ints.valid, (std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(ints.type_error, (std::vector<uint8_t>{0, 1, 1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(ints.ints[0], 987555);
  EXPECT_EQ(ints.ints[5], 0);
  EXPECT_EQ(ints.ints[6], -3);
  arrow::FloatBuilder singles;
  ASSERT_TRUE(singles.AppendValues({2.0f, 2.5f}).ok());
  Batch batch32;
  batch32.num_rows = 2;
  batch32.columns.push_back({"f", {}, singles.Finish().ValueOrDie()});
  TypedColumn from_float32 = Convert(batch32, ValueType::kInt64, &lossy);
  EXPECT_FALSE(lossy);
  EXPECT_EQ(from_float32.valid, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(from_float32.ints[0], 2);
  batch32.malformed = {1, 0};  // a malformed row is neither valid nor a type error
  TypedColumn skipped = Convert(batch32, ValueType::kInt64, &lossy);
  EXPECT_EQ(skipped.valid, (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(skipped.type_error, (std::vector<uint8_t>{0, 1}));
}

TEST(ColumnConverterTest, ArrowStringsSpelledAsNullValuesAreNull) {
  auto nulls = std::make_shared<const NullMatcher>(std::vector<std::string>{"", "NA"});
  const std::vector<std::string> values = {"a", "NA", "", " NA", "7"};
  arrow::StringBuilder strings;
  arrow::LargeStringBuilder large_strings;
  arrow::StringViewBuilder string_views;
  arrow::StringDictionaryBuilder dictionary;
  ASSERT_TRUE(strings.AppendValues(values).ok() && strings.AppendNull().ok());
  ASSERT_TRUE(large_strings.AppendValues(values).ok() && large_strings.AppendNull().ok());
  for (const std::string& value : values) ASSERT_TRUE(string_views.Append(value).ok() && dictionary.Append(value).ok());
  ASSERT_TRUE(string_views.AppendNull().ok() && dictionary.AppendNull().ok());
  std::vector<std::shared_ptr<arrow::Array>> layouts = {
      strings.Finish().ValueOrDie(), large_strings.Finish().ValueOrDie(), string_views.Finish().ValueOrDie(),
      dictionary.Finish().ValueOrDie()};
  for (const auto& layout : layouts) {
    Batch batch;
    batch.num_rows = 6;
    batch.columns.push_back({"s", {}, layout});
    TypedColumn before = Convert(batch, ValueType::kString);
    EXPECT_EQ(before.valid, (std::vector<uint8_t>{1, 1, 1, 1, 1, 0})) << layout->type()->ToString();
    batch.string_nulls = nulls;
    TypedColumn text = Convert(batch, ValueType::kString);
    EXPECT_EQ(text.valid, (std::vector<uint8_t>{1, 0, 0, 1, 1, 0})) << layout->type()->ToString();
    EXPECT_EQ(text.strings[3], " NA");
    TypedColumn ints = Convert(batch, ValueType::kInt64);  // parsed as text: NA is null, not a type error
    EXPECT_EQ(ints.valid, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0})) << layout->type()->ToString();
    EXPECT_EQ(ints.type_error, (std::vector<uint8_t>{1, 0, 0, 1, 0, 0})) << layout->type()->ToString();
  }
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

// Validity comes from the bitmap a byte at a time: slices at every offset,
// with and without nulls, and malformed rows, must give IsValid exactly.
TEST(ColumnConverterTest, ArrowValidityOfSlicesMatchesIsValid) {
  arrow::Int64Builder ints;
  arrow::StringBuilder strings;
  arrow::LargeStringBuilder large_strings;
  for (int i = 0; i < 100; ++i) {
    if (i % 3 == 0 || i % 11 == 0) {
      ASSERT_TRUE(ints.AppendNull().ok());
      ASSERT_TRUE(strings.AppendNull().ok());
      ASSERT_TRUE(large_strings.AppendNull().ok());
    } else {
      ASSERT_TRUE(ints.Append(i).ok());
      ASSERT_TRUE(strings.Append("v" + std::to_string(i)).ok());
      ASSERT_TRUE(large_strings.Append(std::string(i % 5, 'x')).ok());
    }
  }
  arrow::Int64Builder no_nulls;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(no_nulls.Append(i).ok());
  std::vector<std::shared_ptr<arrow::Array>> arrays = {ints.Finish().ValueOrDie(), strings.Finish().ValueOrDie(),
                                                       large_strings.Finish().ValueOrDie(), no_nulls.Finish().ValueOrDie()};
  for (const auto& whole : arrays) {
    for (int64_t offset : {0, 1, 5, 8, 13}) {
      for (bool with_malformed : {false, true}) {
        std::shared_ptr<arrow::Array> array = whole->Slice(offset, 100 - offset - 3);
        Batch batch;
        batch.num_rows = array->length();
        batch.columns.push_back({"c", {}, array});
        if (with_malformed)
          for (int64_t r = 0; r < batch.num_rows; ++r) batch.malformed.push_back(r % 7 == 2);
        const bool is_string = array->type_id() != arrow::Type::INT64;
        TypedColumn column = Convert(batch, is_string ? ValueType::kString : ValueType::kInt64);
        ASSERT_EQ(column.valid.size(), static_cast<size_t>(array->length()));
        for (int64_t r = 0; r < array->length(); ++r) {
          const std::string where = array->type()->ToString() + " offset " + std::to_string(offset) + " row " +
                                    std::to_string(r) + (with_malformed ? " (malformed rows)" : "");
          EXPECT_EQ(column.valid[r], array->IsValid(r) && !batch.IsMalformed(r)) << where;
          if (!is_string) continue;
          const std::string_view expected = array->IsNull(r) ? std::string_view()
                                            : array->type_id() == arrow::Type::STRING
                                                ? static_cast<const arrow::StringArray&>(*array).GetView(r)
                                                : static_cast<const arrow::LargeStringArray&>(*array).GetView(r);
          EXPECT_EQ(column.strings[r], expected) << where;
        }
        EXPECT_TRUE(column.type_error.empty());
      }
    }
  }
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
