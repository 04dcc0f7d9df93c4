// The Flight service in process, with Arrow's Flight client.
#include "server/flight_service.h"

#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/flight/api.h>

#include "server/service_test_util.h"

namespace griffin::server {
namespace {

namespace flight = arrow::flight;

std::shared_ptr<arrow::RecordBatch> Batch(std::vector<double> values) {
  arrow::DoubleBuilder builder;
  EXPECT_TRUE(builder.AppendValues(values).ok());
  return arrow::RecordBatch::Make(arrow::schema({arrow::field("x", arrow::float64())}),
                                  static_cast<int64_t>(values.size()), {builder.Finish().ValueOrDie()});
}

TEST(FlightServiceTest, ExchangeAndPut) {
  testing::TestService service;
  ASSERT_NE(service.core, nullptr);
  FlightService server(*service.core);
  ASSERT_TRUE(server.Start("127.0.0.1", 0).ok());
  auto location = flight::Location::ForGrpcTcp("127.0.0.1", server.port()).ValueOrDie();
  auto client = flight::FlightClient::Connect(location).ValueOrDie();
  flight::FlightCallOptions options;
  options.headers.emplace_back("authorization", "Bearer token-a");

  auto exchange = client->DoExchange(options, flight::FlightDescriptor::Path({"steps", "h"})).ValueOrDie();
  ASSERT_TRUE(exchange.writer->Begin(Batch({1})->schema()).ok());
  ASSERT_TRUE(exchange.writer->WriteRecordBatch(*Batch({1, -1, 2})).ok());
  auto first = exchange.reader->Next().ValueOrDie();
  ASSERT_NE(first.data, nullptr);
  EXPECT_EQ(first.data->column(3)->ToString(), "[\n  [\n    1\n  ]\n]");  // bad row 1
  ASSERT_TRUE(exchange.writer->WriteRecordBatch(*Batch({-5})).ok());
  auto second = exchange.reader->Next().ValueOrDie();
  EXPECT_EQ(second.data->column(1)->ToString(), "[\n  3\n]");            // first_row
  ASSERT_TRUE(exchange.writer->DoneWriting().ok());
  auto final = exchange.reader->Next().ValueOrDie();
  EXPECT_EQ(final.data, nullptr);
  ASSERT_NE(final.app_metadata, nullptr);
  EXPECT_NE(final.app_metadata->ToString().find("\"bad_rows\": 2"), std::string::npos);
  ASSERT_TRUE(exchange.writer->Close().ok());

  auto put = client->DoPut(options, flight::FlightDescriptor::Path({"steps"}), Batch({1})->schema()).ValueOrDie();
  ASSERT_TRUE(put.writer->WriteRecordBatch(*Batch({3, -3})).ok());
  ASSERT_TRUE(put.writer->DoneWriting().ok());
  std::shared_ptr<arrow::Buffer> answer;
  ASSERT_TRUE(put.reader->ReadMetadata(&answer).ok());
  ASSERT_NE(answer, nullptr);
  EXPECT_NE(answer->ToString().find("\"rows\": 2"), std::string::npos);
  ASSERT_TRUE(put.writer->Close().ok());

  flight::FlightCallOptions anonymous;
  auto refused = client->DoPut(anonymous, flight::FlightDescriptor::Path({"steps"}), Batch({1})->schema());
  arrow::Status closed = refused.ok() ? refused->writer->Close() : refused.status();
  EXPECT_FALSE(closed.ok());
  EXPECT_NE(closed.message().find("missing API key"), std::string::npos) << closed.message();
  server.Shutdown(5);
}

}  // namespace
}  // namespace griffin::server
