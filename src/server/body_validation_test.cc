#include "server/body_validation.h"

#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/writer.h>
#include <arrow/util/compression.h>

namespace griffin::server {
namespace {

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, not_null: true}
  amount: {type: float64, min: 0}
)";

std::shared_ptr<const Validator> MakeValidator() {
  auto validator = Validator::FromText(kRules, "<test>");
  EXPECT_TRUE(validator.ok()) << validator.status().message();
  return *validator;
}

std::string IpcBytes(const std::shared_ptr<arrow::RecordBatch>& batch, bool file_format) {
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = file_format ? arrow::ipc::MakeFileWriter(sink, batch->schema()).ValueOrDie()
                            : arrow::ipc::MakeStreamWriter(sink, batch->schema()).ValueOrDie();
  EXPECT_TRUE(writer->WriteRecordBatch(*batch).ok());
  EXPECT_TRUE(writer->Close().ok());
  return sink->Finish().ValueOrDie()->ToString();
}

std::shared_ptr<arrow::RecordBatch> Batch() {
  arrow::StringBuilder ids;
  arrow::DoubleBuilder amounts;
  EXPECT_TRUE(ids.AppendValues({"a", "b", "c"}).ok());
  EXPECT_TRUE(amounts.AppendValues({1.0, -2.0, 3.0}).ok());
  auto schema = arrow::schema({arrow::field("id", arrow::utf8()), arrow::field("amount", arrow::float64())});
  return arrow::RecordBatch::Make(schema, 3, {ids.Finish().ValueOrDie(), amounts.Finish().ValueOrDie()});
}

TEST(BodyValidationTest, ContentTypes) {
  EXPECT_EQ(BodyFormatOf("text/csv"), BodyFormat::kCsv);
  EXPECT_EQ(BodyFormatOf("Text/CSV; charset=utf-8"), BodyFormat::kCsv);
  EXPECT_EQ(BodyFormatOf("text/tab-separated-values"), BodyFormat::kTsv);
  EXPECT_EQ(BodyFormatOf("application/x-ndjson"), BodyFormat::kJsonl);
  EXPECT_EQ(BodyFormatOf("application/jsonl"), BodyFormat::kJsonl);
  EXPECT_EQ(BodyFormatOf("application/vnd.apache.arrow.stream"), BodyFormat::kArrow);
  EXPECT_EQ(BodyFormatOf("application/json"), std::nullopt);
  EXPECT_EQ(BodyFormatOf(""), std::nullopt);
}

TEST(BodyValidationTest, TextAndArrowBodies) {
  auto validator = MakeValidator();
  auto csv = ValidateBody(*validator, "id,amount\na,1\n,-2\n", BodyFormat::kCsv, ValidationOptions{});
  ASSERT_TRUE(csv.ok()) << csv.status().message();
  EXPECT_EQ(csv->report.rows, 2);
  EXPECT_EQ(csv->bad_row_indices, (std::vector<int64_t>{1}));
  EXPECT_EQ(csv->report.inputs, (std::vector<std::string>{"<body>"}));
  auto tsv = ValidateBody(*validator, "id\tamount\na\t-1\n", BodyFormat::kTsv, ValidationOptions{});
  ASSERT_TRUE(tsv.ok());
  EXPECT_EQ(tsv->report.bad_rows, 1);
  auto jsonl = ValidateBody(*validator, "{\"id\": \"a\", \"amount\": 2}\n", BodyFormat::kJsonl, ValidationOptions{});
  ASSERT_TRUE(jsonl.ok());
  EXPECT_EQ(jsonl->report.bad_rows, 0);
  for (bool file_format : {false, true}) {
    const std::string bytes = IpcBytes(Batch(), file_format);
    auto arrow = ValidateBody(*validator, bytes, BodyFormat::kArrow, ValidationOptions{});
    ASSERT_TRUE(arrow.ok()) << arrow.status().message();
    EXPECT_EQ(arrow->report.rows, 3);
    EXPECT_EQ(arrow->bad_row_indices, (std::vector<int64_t>{1}));
  }
}

TEST(BodyValidationTest, BadBodiesAreInputErrors) {
  auto validator = MakeValidator();
  auto garbage = ValidateBody(*validator, "not arrow at all", BodyFormat::kArrow, ValidationOptions{});
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), StatusCode::kInputError);
  EXPECT_EQ(garbage.status().message().rfind("<body>: ", 0), 0u) << garbage.status().message();
  const std::string bytes = IpcBytes(Batch(), false);
  auto truncated = ValidateBody(*validator, std::string_view(bytes).substr(0, bytes.size() / 2), BodyFormat::kArrow,
                                ValidationOptions{});
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kInputError);
}

TEST(BodyValidationTest, MisalignedArrowBuffersAreRead) {
  // The IPC body one byte into a string: every buffer is misaligned.
  const std::string shifted = "-" + IpcBytes(Batch(), false);
  auto result = ValidateBody(*MakeValidator(), std::string_view(shifted).substr(1), BodyFormat::kArrow,
                             ValidationOptions{});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->report.rows, 3);
  EXPECT_EQ(result->report.bad_rows, 1);
}

TEST(BodyValidationTest, ArrowWithBadOffsetsIsRefusedNotRead) {
  // A string array whose offsets point far past its data buffer.
  auto offsets = arrow::Buffer::FromVector(std::vector<int32_t>{0, 1, 1000000, 2000000});
  auto data = arrow::Buffer::FromString("abc");
  auto ids = arrow::MakeArray(arrow::ArrayData::Make(arrow::utf8(), 3, {nullptr, offsets, data}, 0));
  arrow::DoubleBuilder amount_builder;
  EXPECT_TRUE(amount_builder.AppendValues({1.0, 2.0, 3.0}).ok());
  auto amounts = amount_builder.Finish().ValueOrDie();
  auto schema = arrow::schema({arrow::field("id", arrow::utf8()), arrow::field("amount", arrow::float64())});
  const std::string bytes = IpcBytes(arrow::RecordBatch::Make(schema, 3, {ids, amounts}), false);
  auto result = ValidateBody(*MakeValidator(), bytes, BodyFormat::kArrow, ValidationOptions{});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInputError);
  EXPECT_NE(result.status().message().find("invalid Arrow data"), std::string::npos) << result.status().message();
}

TEST(BodyValidationTest, CompressedArrowIsBoundByItsDecodedSize) {
  // 1,000,000 rows: about 2.6 MB with ZSTD, 13 MB decoded.
  arrow::StringBuilder ids;
  arrow::DoubleBuilder amounts;
  for (int row = 0; row < 1000000; ++row) {
    ASSERT_TRUE(ids.Append("a").ok());
    ASSERT_TRUE(amounts.Append(1.0).ok());
  }
  auto schema = arrow::schema({arrow::field("id", arrow::utf8()), arrow::field("amount", arrow::float64())});
  auto batch = arrow::RecordBatch::Make(schema, 1000000, {ids.Finish().ValueOrDie(), amounts.Finish().ValueOrDie()});
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto write_options = arrow::ipc::IpcWriteOptions::Defaults();
  write_options.codec = arrow::util::Codec::Create(arrow::Compression::ZSTD).ValueOrDie();
  auto writer = arrow::ipc::MakeStreamWriter(sink, schema, write_options).ValueOrDie();
  ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(writer->Close().ok());
  const std::string bytes = sink->Finish().ValueOrDie()->ToString();
  ASSERT_LT(bytes.size(), 4u << 20);
  bool too_large = false;  // the body is within 4 MiB; what it decodes to is not
  auto refused = ValidateBody(*MakeValidator(), bytes, BodyFormat::kArrow, ValidationOptions{}, 4 << 20, &too_large);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(too_large);
  auto read = ValidateBody(*MakeValidator(), bytes, BodyFormat::kArrow, ValidationOptions{}, 64 << 20, &too_large);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_FALSE(too_large);
  EXPECT_EQ(read->report.rows, 1000000);
}

}  // namespace
}  // namespace griffin::server
