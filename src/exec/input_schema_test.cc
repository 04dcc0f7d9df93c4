#include "exec/input_schema.h"

#include <gtest/gtest.h>

#include "io/csv_parser.h"

namespace griffin {
namespace {

TEST(InputSchemaTest, ListsEveryHeaderColumnOfAProjectedCsvBatch) {
  const std::string text = "1,x,\"q\"\n";
  TextSpan span;
  span.text = text;
  span.num_records = 1;
  CsvLayout layout;
  layout.name = "t.csv";
  layout.column_names = {"a", "b\"q", "c"};
  const std::string all = R"([{"name": "a", "type": "text"}, {"name": "b\"q", "type": "text"}, )"
                          R"({"name": "c", "type": "text"}])";
  EXPECT_EQ(InputSchemaJson(*DecodeCsv(layout, span)), all);
  KeepCsvColumns({"c"}, &layout);
  auto projected = DecodeCsv(layout, span);
  ASSERT_EQ(projected->columns.size(), 1u);
  EXPECT_EQ(InputSchemaJson(*projected), all);
}

TEST(InputSchemaTest, AnEmptyBatchIsAnEmptyList) { EXPECT_EQ(InputSchemaJson(Batch{}), "[]"); }

}  // namespace
}  // namespace griffin
