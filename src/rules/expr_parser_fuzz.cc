// libFuzzer target: parse any text as a row expression; when it parses,
// compile it against columns of every type and evaluate it over a tiny batch
// holding ordinary values, extremes, NaN, nulls and type errors.
//
//   clang++ -std=c++20 -fsanitize=fuzzer,address,undefined -Isrc ... -lre2
//   ./expr_parser_fuzz -max_total_time=30
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "plan/expr_program.h"
#include "rules/expr_parser.h"

namespace {

using griffin::TypedColumn;
using griffin::ValueType;

constexpr int64_t kRows = 6;

struct FuzzTable {
  std::deque<TypedColumn> columns;
  std::vector<std::string> names;

  TypedColumn& Add(const std::string& name, ValueType type) {
    names.push_back(name);
    TypedColumn& column = columns.emplace_back();
    column.type = type;
    column.num_rows = kRows;
    column.valid = {1, 1, 1, 1, 0, 0};
    column.type_error = {0, 0, 0, 0, 1, 0};
    return column;
  }

  FuzzTable() {
    const int64_t kMax = std::numeric_limits<int64_t>::max();
    const int64_t kMin = std::numeric_limits<int64_t>::min();
    for (const char* name : {"i", "j"}) {
      TypedColumn& c = Add(name, ValueType::kInt64);
      c.owned_ints = {0, -1, kMax, kMin, 7, 3};
      c.ints = c.owned_ints.data();
    }
    for (const char* name : {"f", "g"}) {
      TypedColumn& c = Add(name, ValueType::kFloat64);
      c.owned_floats = {0.0, -0.0, 1.5, std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity(), 1e308};
      c.floats = c.owned_floats.data();
    }
    for (const char* name : {"s", "t"}) {
      TypedColumn& c = Add(name, ValueType::kString);
      c.owned_strings = {"", "12", "h\xC3\xA9llo", "ABC", "x", "nan"};
      c.strings = c.owned_strings.data();
    }
    TypedColumn& b = Add("b", ValueType::kBool);
    b.owned_ints = {0, 1, 1, 0, 1, 0};
    b.ints = b.owned_ints.data();
    TypedColumn& d = Add("d", ValueType::kDate);
    d.owned_ints = {0, 19723, -719162, 2932896, kMax, kMin};
    d.ints = d.owned_ints.data();
    TypedColumn& ts = Add("ts", ValueType::kTimestamp);
    ts.owned_ints = {0, 1704067200000000, kMin, kMax, -1, 1};
    ts.ints = ts.owned_ints.data();
    // A column the input lacks.
    TypedColumn& absent = Add("absent", ValueType::kInt64);
    absent.present = false;
    absent.valid.clear();
    absent.type_error.clear();
  }
};

const FuzzTable& Table() {
  static const FuzzTable* table = new FuzzTable();
  return *table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto node = griffin::ParseExpression(text);
  if (!node.ok()) return 0;
  const FuzzTable& table = Table();
  griffin::ExprColumnResolver resolver =
      [&table](const std::string& name) -> std::optional<griffin::ExprColumnInfo> {
    for (size_t slot = 0; slot < table.names.size(); ++slot) {
      if (table.names[slot] == name) {
        return griffin::ExprColumnInfo{static_cast<int>(slot), table.columns[slot].type};
      }
    }
    return std::nullopt;
  };
  auto program = griffin::ExprProgram::Compile(**node, text, resolver);
  if (!program.ok()) return 0;
  std::vector<const TypedColumn*> columns;
  for (const TypedColumn& column : table.columns) columns.push_back(&column);
  std::vector<uint8_t> verdicts;
  (*program)->Evaluate(columns, kRows, &verdicts);
  if (verdicts.size() != static_cast<size_t>(kRows)) __builtin_trap();
  for (uint8_t verdict : verdicts) {
    if (verdict > 2) __builtin_trap();
  }
  return 0;
}
