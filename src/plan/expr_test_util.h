// Test support for ExprProgram: columns built by hand, a resolver over them,
// and verdicts rendered as one character per row (T true, F false, N null).
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plan/expr_program.h"
#include "rules/expr_parser.h"

namespace griffin {

class ExprTestTable {
 public:
  // Each Add* makes one column; std::nullopt is a null row. Columns of one
  // table must all have the same number of rows.
  void AddInt(const std::string& name, const std::vector<std::optional<int64_t>>& values,
              ValueType type = ValueType::kInt64) {
    TypedColumn& column = NewColumn(name, type, values.size());
    for (size_t r = 0; r < values.size(); ++r) {
      column.valid[r] = values[r].has_value();
      column.owned_ints[r] = values[r].value_or(-777);  // garbage under nulls
    }
    column.ints = column.owned_ints.data();
  }
  void AddBool(const std::string& name, const std::vector<std::optional<bool>>& values) {
    std::vector<std::optional<int64_t>> ints;
    for (const auto& v : values) ints.push_back(v ? std::optional<int64_t>(*v) : std::nullopt);
    AddInt(name, ints, ValueType::kBool);
  }
  void AddFloat(const std::string& name, const std::vector<std::optional<double>>& values) {
    TypedColumn& column = NewColumn(name, ValueType::kFloat64, values.size());
    for (size_t r = 0; r < values.size(); ++r) {
      column.valid[r] = values[r].has_value();
      column.owned_floats[r] = values[r].value_or(-777.5);
    }
    column.floats = column.owned_floats.data();
  }
  void AddString(const std::string& name, const std::vector<std::optional<std::string>>& values) {
    TypedColumn& column = NewColumn(name, ValueType::kString, values.size());
    for (size_t r = 0; r < values.size(); ++r) {
      column.valid[r] = values[r].has_value();
      if (values[r]) {
        backing_.push_back(*values[r]);
        column.owned_strings[r] = backing_.back();
      } else {
        // A view that must never be read: string kernels check validity first.
        column.owned_strings[r] = std::string_view(reinterpret_cast<const char*>(16), 1u << 30);
      }
    }
    column.strings = column.owned_strings.data();
  }
  // Marks rows of an existing column as type errors (valid = 0).
  void SetTypeErrors(const std::string& name, const std::vector<int64_t>& rows) {
    TypedColumn& column = columns_[slots_.at(name)];
    column.type_error.assign(column.num_rows, 0);
    for (int64_t r : rows) {
      column.type_error[r] = 1;
      column.valid[r] = 0;
    }
  }
  TypedColumn& column(const std::string& name) { return columns_[slots_.at(name)]; }
  // Gives a column a `format:` (what the resolver reports).
  void SetFormat(const std::string& name, const std::string& format) { formats_[name] = format; }

  ExprColumnResolver Resolver() const {
    return [this](const std::string& name) -> std::optional<ExprColumnInfo> {
      auto it = slots_.find(name);
      if (it == slots_.end()) return std::nullopt;
      ExprColumnInfo info{it->second, columns_[it->second].type};
      if (auto format = formats_.find(name); format != formats_.end()) {
        info.timestamp_format = format->second;
      }
      return info;
    };
  }

  Result<std::unique_ptr<ExprProgram>> Compile(const std::string& text) const {
    ASSIGN_OR_RETURN(auto node, ParseExpression(text));
    return ExprProgram::Compile(*node, text, Resolver());
  }

  // "TFN..." for each row, or "ERROR <message>".
  std::string Eval(const std::string& text) const {
    auto program = Compile(text);
    if (!program.ok()) return "ERROR " + program.status().message();
    return Render(**program);
  }

  std::string Render(const ExprProgram& program) const {
    std::vector<const TypedColumn*> pointers;
    for (const TypedColumn& column : columns_) pointers.push_back(&column);
    std::vector<uint8_t> verdicts;
    program.Evaluate(pointers, num_rows_, &verdicts);
    std::string out;
    for (uint8_t v : verdicts) out += v == 1 ? 'T' : v == 0 ? 'F' : v == 2 ? 'N' : '?';
    return out;
  }

  // The compile error message ("" when it compiles).
  std::string Error(const std::string& text) const {
    auto program = Compile(text);
    if (program.ok()) return "";
    EXPECT_EQ(program.status().code(), StatusCode::kRuleError);
    return program.status().message();
  }

  int64_t num_rows() const { return num_rows_; }

 private:
  TypedColumn& NewColumn(const std::string& name, ValueType type, size_t rows) {
    if (!columns_.empty()) {
      EXPECT_EQ(num_rows_, static_cast<int64_t>(rows)) << name;
    }
    num_rows_ = static_cast<int64_t>(rows);
    slots_[name] = static_cast<int>(columns_.size());
    TypedColumn& column = columns_.emplace_back();
    column.type = type;
    column.num_rows = num_rows_;
    column.valid.assign(rows, 0);
    column.owned_ints.assign(rows, 0);
    column.owned_floats.assign(rows, 0);
    column.owned_strings.assign(rows, std::string_view());
    return column;
  }

  std::deque<TypedColumn> columns_;
  std::deque<std::string> backing_;
  std::map<std::string, int> slots_;
  std::map<std::string, std::string> formats_;
  int64_t num_rows_ = 0;
};

}  // namespace griffin
