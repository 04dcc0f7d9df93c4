// A Batch is a slice of consecutive input rows, decoded and ready for the
// engine. Text inputs (CSV, TSV, JSON lines) give TextColumns of string views
// into memory the batch owns; typed inputs (Parquet, Arrow) give Arrow arrays.
// Malformed records occupy a row (they are data) but hold no values.
//
// A Batch is immutable after decoding and may be read by several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>

#include "io/null_matcher.h"

namespace griffin {

// The JSON type of a value from a JSON lines input.
enum class JsonKind : uint8_t { kNull, kBool, kNumber, kString, kOther };

struct TextColumn {
  // One entry per row of the batch. A null value (a null_values spelling, a
  // JSON null, a missing JSON key, or a malformed row) has is_null = 1 and an
  // empty view. Views point into Batch::owned_memory or Batch::arrow_keepalive.
  std::vector<std::string_view> values;
  std::vector<uint8_t> is_null;
  // JSON lines only: the JSON type of each value (number text is the literal
  // token, strings are unescaped). Empty for CSV/TSV and Arrow strings.
  std::vector<JsonKind> json_kinds;
};

struct BatchColumn {
  std::string name;
  TextColumn text;                      // used when `array` is null
  std::shared_ptr<arrow::Array> array;  // typed inputs; length == Batch::num_rows
};

struct MalformedRecord {
  int64_t row_in_batch;  // 0-based within the batch
  std::string raw;       // the record's raw text (as much as was read)
  std::string reason;    // one line: "record has 5 fields, expected 6"
};

struct Batch {
  int64_t num_rows = 0;              // every row, malformed ones included
  int input_index = 0;               // which of the run's inputs it came from
  std::vector<BatchColumn> columns;  // the input's columns, in input order
  std::vector<uint8_t> malformed;    // per row: 1 when malformed (may be empty: none)
  std::vector<MalformedRecord> malformed_records;  // ordered by row_in_batch
  // Raw text of each row for text inputs (quarantine output keeps it); may be empty.
  std::vector<std::string_view> raw_records;
  // Memory the views point into.
  std::vector<std::shared_ptr<const void>> owned_memory;
  std::shared_ptr<arrow::RecordBatch> arrow_keepalive;
  // Typed inputs: the null spellings (ReadOptions::null_values) that values of
  // string arrays are matched against; a match is null for every check and
  // reads as null in the report (rules-v1, amended 2026-12-03). Null: none.
  // Text inputs apply null_values while decoding instead.
  std::shared_ptr<const NullMatcher> string_nulls;
  // JSON lines only: per column, 1 when its key appeared (with any value, null
  // included) in at least one line of the batch; empty for other inputs. The
  // engine raises "required column never appears" for a key no batch saw.
  std::vector<uint8_t> column_seen;
  // Text inputs decoded with projection (only the rule columns in `columns`):
  // every column of the header, in input order, so that the input's schema
  // (Report::input_schemas, the run store's schema snapshot) still lists the
  // skipped ones. Null when `columns` holds every column.
  std::shared_ptr<const std::vector<std::string>> header_columns;

  bool IsMalformed(int64_t row) const { return !malformed.empty() && malformed[row]; }
  // Index of the column named `name`, or -1.
  int FindColumn(std::string_view name) const {
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace griffin
