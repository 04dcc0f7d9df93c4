#include "sinks/arrow_batch_builder.h"

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>

#include "sinks/file_row_sink.h"
#include "sinks/value_text.h"

namespace griffin {
namespace {

Status FromArrow(const arrow::Status& status) {
  return status.ok() ? Status::OK() : Status::Internal("arrow: " + status.ToString());
}

template <typename T>
Result<T> FromArrow(arrow::Result<T> result) {
  if (!result.ok()) return Status::Internal("arrow: " + result.status().ToString());
  return std::move(result).ValueUnsafe();
}

std::shared_ptr<arrow::DataType> ErrorsType() {
  // "element" as Parquet names a list's items, so both formats read back alike.
  auto item = arrow::struct_({arrow::field("check", arrow::utf8()), arrow::field("message", arrow::utf8())});
  return arrow::list(arrow::field("element", item));
}

// A text column (or typed values rendered as text) as a utf8 array.
Result<std::shared_ptr<arrow::Array>> TextArray(const Batch& batch, const BatchColumn& column,
                                                const std::vector<int32_t>& rows) {
  arrow::StringBuilder builder;
  RETURN_IF_ERROR(FromArrow(builder.Reserve(static_cast<int64_t>(rows.size()))));
  if (!column.array) {
    int64_t bytes = 0;
    for (int32_t r : rows)
      if (!batch.IsMalformed(r) && !column.text.is_null[r]) bytes += static_cast<int64_t>(column.text.values[r].size());
    RETURN_IF_ERROR(FromArrow(builder.ReserveData(bytes)));
  }
  std::string text;
  for (int32_t r : rows) {
    if ((batch.IsMalformed(r) && !column.array) || ColumnValueIsNull(column, r)) {
      RETURN_IF_ERROR(FromArrow(builder.AppendNull()));
    } else if (!column.array) {
      RETURN_IF_ERROR(FromArrow(builder.Append(column.text.values[r])));
    } else {
      text.clear();
      AppendArrowText(*column.array, r, &text);
      RETURN_IF_ERROR(FromArrow(builder.Append(text)));
    }
  }
  return FromArrow(builder.Finish());
}

// The kept rows of a typed column: runs of consecutive rows are sliced and
// concatenated (a copy). All rows: the array itself. A typed row is malformed
// only for invalid UTF-8 (io/arrow_check.h) and keeps its values.
Result<std::shared_ptr<arrow::Array>> TypedArray(const std::shared_ptr<arrow::Array>& array,
                                                 const std::vector<int32_t>& rows) {
  struct Run {
    int64_t start, length;
  };
  std::vector<Run> runs;
  for (int32_t r : rows) {
    if (!runs.empty() && runs.back().start + runs.back().length == r) {
      ++runs.back().length;
    } else {
      runs.push_back({r, 1});
    }
  }
  if (runs.size() == 1 && runs[0].start == 0 && runs[0].length == array->length()) return array;
  arrow::ArrayVector pieces;
  for (const Run& run : runs) pieces.push_back(array->Slice(run.start, run.length));
  if (pieces.empty()) return FromArrow(arrow::MakeEmptyArray(array->type()));
  return FromArrow(arrow::Concatenate(pieces));
}

Result<std::shared_ptr<arrow::Array>> ErrorsArray(const RowVerdicts& verdicts, size_t num_rows) {
  ASSIGN_OR_RETURN(std::unique_ptr<arrow::ArrayBuilder> base, FromArrow(arrow::MakeBuilder(ErrorsType())));
  auto* list = static_cast<arrow::ListBuilder*>(base.get());
  auto* item = static_cast<arrow::StructBuilder*>(list->value_builder());
  auto* check = static_cast<arrow::StringBuilder*>(item->field_builder(0));
  auto* message = static_cast<arrow::StringBuilder*>(item->field_builder(1));
  for (size_t i = 0; i < num_rows; ++i) {
    RETURN_IF_ERROR(FromArrow(list->Append()));
    if (i + 1 >= verdicts.error_offsets.size()) continue;
    for (uint32_t e = verdicts.error_offsets[i]; e < verdicts.error_offsets[i + 1] && e < verdicts.errors.size(); ++e) {
      RETURN_IF_ERROR(FromArrow(item->Append()));
      RETURN_IF_ERROR(FromArrow(check->Append(verdicts.errors[e].check)));
      RETURN_IF_ERROR(FromArrow(message->Append(verdicts.errors[e].message)));
    }
  }
  return FromArrow(list->Finish());
}

}  // namespace

std::shared_ptr<arrow::Schema> OutputSchema(const Batch* first, const OutputColumns& added) {
  arrow::FieldVector fields;
  if (first != nullptr) {
    for (const BatchColumn& column : first->columns)
      fields.push_back(arrow::field(column.name, column.array ? column.array->type() : arrow::utf8()));
  }
  if (added.quarantine) {
    fields.push_back(arrow::field(std::string(kRowColumn), arrow::int64(), /*nullable=*/false));
    fields.push_back(arrow::field(std::string(kErrorsColumn), ErrorsType(), /*nullable=*/false));
    fields.push_back(arrow::field(std::string(kRawColumn), arrow::utf8()));
  }
  if (added.version_tag) fields.push_back(arrow::field(std::string(kVersionColumn), arrow::int64(), false));
  return arrow::schema(std::move(fields));
}

Result<std::shared_ptr<arrow::RecordBatch>> BuildOutputBatch(const std::shared_ptr<arrow::Schema>& schema,
                                                             const OutputColumns& added,
                                                             const RowVerdicts& verdicts,
                                                             const std::vector<int32_t>& rows,
                                                             const std::string& input_name) {
  const Batch& batch = *verdicts.batch;
  arrow::ArrayVector arrays;
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const BatchColumn& column = batch.columns[c];
    const auto& type = schema->field(static_cast<int>(c))->type();
    if (column.array && column.array->type()->Equals(*type)) {
      ASSIGN_OR_RETURN(auto array, TypedArray(column.array, rows));
      arrays.push_back(std::move(array));
    } else if (type->id() == arrow::Type::STRING) {
      ASSIGN_OR_RETURN(auto array, TextArray(batch, column, rows));
      arrays.push_back(std::move(array));
    } else {
      return Status::InputError(input_name + ": column " + column.name + " is " +
                                (column.array ? column.array->type()->ToString() : std::string("text")) +
                                ", but an earlier input made it " + type->ToString() +
                                "; outputs need one schema");
    }
  }
  const int64_t num_rows = static_cast<int64_t>(rows.size());
  if (added.quarantine) {
    arrow::Int64Builder row_builder;
    arrow::StringBuilder raw_builder;
    for (int32_t r : rows) {
      RETURN_IF_ERROR(FromArrow(row_builder.Append(verdicts.base_row + r)));
      RETURN_IF_ERROR(FromArrow(batch.IsMalformed(r) ? raw_builder.Append(MalformedRawText(batch, r))
                                                     : raw_builder.AppendNull()));
    }
    ASSIGN_OR_RETURN(auto row_array, FromArrow(row_builder.Finish()));
    ASSIGN_OR_RETURN(auto errors_array, ErrorsArray(verdicts, rows.size()));
    ASSIGN_OR_RETURN(auto raw_array, FromArrow(raw_builder.Finish()));
    arrays.push_back(std::move(row_array));
    arrays.push_back(std::move(errors_array));
    arrays.push_back(std::move(raw_array));
  }
  if (added.version_tag) {
    arrow::Int64Builder version_builder;
    RETURN_IF_ERROR(FromArrow(version_builder.AppendValues(std::vector<int64_t>(rows.size(), *added.version_tag))));
    ASSIGN_OR_RETURN(auto version_array, FromArrow(version_builder.Finish()));
    arrays.push_back(std::move(version_array));
  }
  return arrow::RecordBatch::Make(schema, num_rows, std::move(arrays));
}

}  // namespace griffin
