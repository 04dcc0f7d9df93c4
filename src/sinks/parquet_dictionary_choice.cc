#include "sinks/parquet_dictionary_choice.h"

#include <arrow/array.h>
#include <arrow/type_traits.h>

#include <string_view>
#include <unordered_set>

namespace griffin {
namespace {

// Whether more than half of the non-null values differ, counting only until
// the answer is known.
template <typename ArrayType>
bool MostlyDistinct(const ArrayType& array) {
  const int64_t values = array.length() - array.null_count();
  if (values == 0) return false;
  const int64_t half = values / 2;
  std::unordered_set<std::string_view> seen;
  seen.reserve(static_cast<size_t>(half) + 1);
  int64_t left = values;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) continue;
    seen.insert(array.GetView(i));
    --left;
    if (static_cast<int64_t>(seen.size()) > half) return true;
    if (static_cast<int64_t>(seen.size()) + left <= half) return false;
  }
  return false;
}

}  // namespace

std::vector<std::string> MostlyDistinctTextColumns(const arrow::RecordBatch& group) {
  std::vector<std::string> names;
  for (int c = 0; c < group.num_columns(); ++c) {
    const arrow::Array& column = *group.column(c);
    bool distinct = false;
    switch (column.type_id()) {
      case arrow::Type::STRING:
      case arrow::Type::BINARY:
        distinct = MostlyDistinct(static_cast<const arrow::BinaryArray&>(column));
        break;
      case arrow::Type::LARGE_STRING:
      case arrow::Type::LARGE_BINARY:
        distinct = MostlyDistinct(static_cast<const arrow::LargeBinaryArray&>(column));
        break;
      case arrow::Type::STRING_VIEW:
      case arrow::Type::BINARY_VIEW:
        distinct = MostlyDistinct(static_cast<const arrow::BinaryViewArray&>(column));
        break;
      default:
        break;
    }
    if (distinct) names.push_back(group.schema()->field(c)->name());
  }
  return names;
}

}  // namespace griffin
