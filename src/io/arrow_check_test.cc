#include "io/arrow_check.h"

#include <gtest/gtest.h>

#include <arrow/api.h>

#include "io/arrow_source.h"

namespace griffin {
namespace {

// A utf8 array of `length` values over raw offsets and character bytes (no checks).
std::shared_ptr<arrow::Array> RawStrings(int64_t length, std::vector<int32_t> offsets, const std::string& chars) {
  return arrow::MakeArray(arrow::ArrayData::Make(arrow::utf8(), length,
                                                 {nullptr, arrow::Buffer::FromVector(std::move(offsets)),
                                                  arrow::Buffer::FromString(chars)},
                                                 0));
}

std::shared_ptr<arrow::RecordBatch> OneColumn(std::shared_ptr<arrow::Array> array, int64_t rows) {
  auto schema = arrow::schema({arrow::field("s", array->type())});
  return arrow::RecordBatch::Make(schema, rows, {std::move(array)});
}

Status CheckStatus(std::shared_ptr<arrow::RecordBatch> batch) {
  return CheckArrowBatch(std::move(batch), "bad.arrow").status();
}

TEST(ArrowCheckTest, OffsetsPastTheDataAreAnInputErrorNamingTheColumn) {
  Status status = CheckStatus(OneColumn(RawStrings(3, {0, 3, 100000000, 6}, "abcdef"), 3));
  ASSERT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_NE(status.message().find("bad.arrow: invalid Arrow data in column \"s\""), std::string::npos)
      << status.message();
}

TEST(ArrowCheckTest, NegativeAndDecreasingOffsetsAreInputErrors) {
  EXPECT_EQ(CheckStatus(OneColumn(RawStrings(3, {0, -5, 3, 6}, "abcdef"), 3)).code(), StatusCode::kInputError);
  EXPECT_EQ(CheckStatus(OneColumn(RawStrings(3, {-4, 0, 3, 6}, "abcdef"), 3)).code(), StatusCode::kInputError);
  EXPECT_EQ(CheckStatus(OneColumn(RawStrings(3, {0, 3, 1, 3}, "abc"), 3)).code(), StatusCode::kInputError);
}

TEST(ArrowCheckTest, OffsetErrorsOfASlicedColumnAndLargeStringsAreFound) {
  // A slice: the offsets checked are those from the array's offset on.
  auto sliced = RawStrings(4, {0, 1, 5, 2, 4}, "abcd")->Slice(2, 2);  // offsets 5, 2, 4: decreasing
  EXPECT_EQ(CheckStatus(OneColumn(sliced, 2)).code(), StatusCode::kInputError);
  auto sound_slice = RawStrings(4, {9, 0, 1, 2, 4}, "abcd")->Slice(1, 3);  // the bad first offset is cut off
  EXPECT_TRUE(CheckStatus(OneColumn(sound_slice, 3)).ok());
  auto large = arrow::MakeArray(arrow::ArrayData::Make(
      arrow::large_utf8(), 3, {nullptr, arrow::Buffer::FromVector(std::vector<int64_t>{0, 3, 1, 3}),
                               arrow::Buffer::FromString("abc")}, 0));
  EXPECT_EQ(CheckStatus(OneColumn(large, 3)).code(), StatusCode::kInputError);
  auto large_past = arrow::MakeArray(arrow::ArrayData::Make(
      arrow::large_utf8(), 2, {nullptr, arrow::Buffer::FromVector(std::vector<int64_t>{0, 9, 3}),
                               arrow::Buffer::FromString("abc")}, 0));
  EXPECT_EQ(CheckStatus(OneColumn(large_past, 2)).code(), StatusCode::kInputError);
}

TEST(ArrowCheckTest, NullCountNotMatchingTheBitmapIsAnInputError) {
  auto bitmap = arrow::Buffer::FromVector(std::vector<uint8_t>{0b101});  // row 1 null: one null
  auto data = arrow::ArrayData::Make(arrow::utf8(), 3, {bitmap, arrow::Buffer::FromVector(std::vector<int32_t>{0, 1, 1, 2}),
                                                        arrow::Buffer::FromString("ab")}, 2);
  Status status = CheckStatus(OneColumn(arrow::MakeArray(data), 3));
  EXPECT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_NE(status.message().find("null_count"), std::string::npos) << status.message();
  data->null_count = 1;
  EXPECT_TRUE(CheckStatus(OneColumn(arrow::MakeArray(data), 3)).ok());
}

TEST(ArrowCheckTest, ColumnShorterThanTheBatchIsAnInputError) {
  EXPECT_EQ(CheckStatus(OneColumn(RawStrings(2, {0, 1, 2}, "ab"), 5)).code(), StatusCode::kInputError);
}

TEST(ArrowCheckTest, DictionaryIndexOutOfRangeIsAnInputError) {
  auto indices = arrow::MakeArray(arrow::ArrayData::Make(
      arrow::int32(), 2, {nullptr, arrow::Buffer::FromVector(std::vector<int32_t>{0, 7})}, 0));
  auto dictionary = RawStrings(2, {0, 1, 2}, "ab");
  auto array = arrow::DictionaryArray::FromArrays(arrow::dictionary(arrow::int32(), arrow::utf8()), indices,
                                                  dictionary);
  // FromArrays checks indices itself; build the same data unchecked.
  auto data = indices->data()->Copy();
  data->type = arrow::dictionary(arrow::int32(), arrow::utf8());
  data->dictionary = dictionary->data();
  EXPECT_FALSE(array.ok());
  EXPECT_EQ(CheckStatus(OneColumn(arrow::MakeArray(data), 2)).code(), StatusCode::kInputError);
}

TEST(ArrowCheckTest, SoundBatchIsKeptAsItIs) {
  auto strings = RawStrings(2, {0, 2, 4}, "abcd");
  auto batch = OneColumn(strings, 2);
  auto checked = CheckArrowBatch(batch, "ok.arrow");
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  EXPECT_EQ((*checked)->column_data(0)->buffers[2]->data(), strings->data()->buffers[2]->data());  // no copy
}

TEST(ArrowCheckTest, MisalignedBuffersAreCopiedAligned) {
  auto bytes = arrow::Buffer::FromVector(std::vector<int64_t>{0, 1, 2, 3});
  auto misaligned = arrow::SliceBuffer(bytes, 1, 24);  // 24 bytes starting at an odd address
  auto ints = arrow::MakeArray(arrow::ArrayData::Make(arrow::int64(), 3, {nullptr, misaligned}, 0));
  auto checked = CheckArrowBatch(OneColumn(ints, 3), "x.arrow");
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*checked)->column_data(0)->buffers[1]->data()) % alignof(int64_t), 0u);
}

TEST(ArrowCheckTest, InvalidUtf8PassesTheCheckAndMarksItsRowsMalformed) {
  // "ok", "a\xff", "\xc3", "\xa9" (each half of a valid pair), "é".
  auto strings = RawStrings(5, {0, 2, 4, 5, 6, 8}, std::string("oka\xff\xc3\xa9\xc3\xa9"));
  auto checked = CheckArrowBatch(OneColumn(strings, 5), "u.arrow");
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  auto batch = BatchFromRecordBatch(*checked, 0);
  MarkInvalidUtf8Rows(batch.get());
  ASSERT_EQ(batch->malformed_records.size(), 3u);
  EXPECT_EQ(batch->malformed, (std::vector<uint8_t>{0, 1, 1, 1, 0}));
  EXPECT_EQ(batch->malformed_records[0].row_in_batch, 1);
  EXPECT_EQ(batch->malformed_records[0].reason, "invalid UTF-8 at byte 2 of column \"s\"");
  EXPECT_EQ(batch->malformed_records[0].raw, "a\xff");
  EXPECT_EQ(batch->malformed_records[2].raw, "\xa9");
}

TEST(ArrowCheckTest, ValidUtf8MarksNothing) {
  auto batch = BatchFromRecordBatch(OneColumn(RawStrings(3, {0, 2, 2, 5}, "\xc3\xa9xyz"), 3), 0);
  MarkInvalidUtf8Rows(batch.get());
  EXPECT_TRUE(batch->malformed.empty());
  EXPECT_TRUE(batch->malformed_records.empty());
}

TEST(ArrowCheckTest, InvalidUtf8InADictionaryMarksTheRowsUsingIt) {
  auto indices = arrow::MakeArray(arrow::ArrayData::Make(
      arrow::int8(), 4, {nullptr, arrow::Buffer::FromVector(std::vector<int8_t>{0, 1, 0, 1})}, 0));
  auto dictionary = RawStrings(2, {0, 2, 3}, "ok\xfe");
  auto data = indices->data()->Copy();
  data->type = arrow::dictionary(arrow::int8(), arrow::utf8());
  data->dictionary = dictionary->data();
  auto checked = CheckArrowBatch(OneColumn(arrow::MakeArray(data), 4), "d.arrow");
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  auto batch = BatchFromRecordBatch(*checked, 0);
  MarkInvalidUtf8Rows(batch.get());
  EXPECT_EQ(batch->malformed, (std::vector<uint8_t>{0, 1, 0, 1}));
  ASSERT_EQ(batch->malformed_records.size(), 2u);
  EXPECT_EQ(batch->malformed_records[1].row_in_batch, 3);
  EXPECT_EQ(batch->malformed_records[1].reason, "invalid UTF-8 at byte 1 of column \"s\"");
}

TEST(ArrowCheckTest, TwoBadColumnsInOneRowGiveOneRecordInRowOrder) {
  auto first = RawStrings(3, {0, 1, 2, 3}, "a\xffz");
  auto second = RawStrings(3, {0, 1, 2, 3}, "\xff" "b\xff");
  auto schema = arrow::schema({arrow::field("a", arrow::utf8()), arrow::field("b", arrow::utf8())});
  auto batch = BatchFromRecordBatch(arrow::RecordBatch::Make(schema, 3, {first, second}), 0);
  MarkInvalidUtf8Rows(batch.get());
  ASSERT_EQ(batch->malformed_records.size(), 3u);
  EXPECT_EQ(batch->malformed_records[0].row_in_batch, 0);
  EXPECT_EQ(batch->malformed_records[1].row_in_batch, 1);
  EXPECT_EQ(batch->malformed_records[1].reason, "invalid UTF-8 at byte 1 of column \"a\"");
  EXPECT_EQ(batch->malformed_records[2].row_in_batch, 2);
}

}  // namespace
}  // namespace griffin
