// libFuzzer target: bytes -> Arrow IPC (the file or stream format) through the
// engine's reader path: OpenArrowIpcBuffer (io/arrow_source), each chunk's
// Decode (io/arrow_check: corrupt data must be an InputError), then every
// column converted to every rules type (exec/column_converter) and every
// value rendered as the outputs render it (sinks/value_text). Hostile bytes
// must give errors, never a crash or an out-of-bounds read (ASan watches the
// input, which libFuzzer holds in a heap block of its exact size).
//
// Built by `cmake -DGRIFFIN_FUZZ=ON` (clang) as build-fuzz/arrow_ipc_fuzz;
// seeds: fuzz/seeds/arrow_ipc_fuzz/ (fuzz/make_arrow_ipc_seeds.py).
#include <arrow/buffer.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "exec/column_converter.h"
#include "io/arrow_source.h"
#include "sinks/value_text.h"

namespace griffin {
namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "invariant failed: %s\n", what);
    std::abort();
  }
}

// Reads every value of a checked batch the ways the engine and the outputs do.
void ReadEverything(const Batch& batch) {
  for (const BatchColumn& column : batch.columns) {
    Check(column.array != nullptr && column.array->length() == batch.num_rows, "column length is the batch's");
    for (ValueType type : {ValueType::kString, ValueType::kInt64, ValueType::kFloat64, ValueType::kBool,
                           ValueType::kDate, ValueType::kTimestamp}) {
      ConvertOptions options;
      options.type = type;
      TypedColumn typed;
      bool lossy = false;
      std::string lossy_message;
      ConvertColumn(batch, &column, options, &typed, &lossy, &lossy_message);
    }
    std::string text;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      text.clear();
      AppendArrowText(*column.array, row, &text);
    }
  }
  Check(batch.malformed.empty() || batch.malformed.size() == static_cast<size_t>(batch.num_rows),
        "malformed flags cover the batch");
}

}  // namespace
}  // namespace griffin

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace griffin;
  ReadOptions options;
  options.batch_rows = 7;  // slices fall inside record batches too
  auto bytes = std::make_shared<arrow::Buffer>(data, static_cast<int64_t>(size));
  auto source = OpenArrowIpcBuffer(bytes, "fuzz.arrow", options);
  if (!source.ok()) {
    Check(source.status().code() == StatusCode::kInputError, "open errors are input errors");
    return 0;
  }
  for (int chunks = 0; chunks < 10000; ++chunks) {
    auto chunk = (*source)->NextChunk();
    if (!chunk.ok()) {
      Check(chunk.status().code() == StatusCode::kInputError, "read errors are input errors");
      return 0;
    }
    if (*chunk == nullptr) return 0;
    auto batch = (*chunk)->Decode();
    if (!batch.ok()) {
      Check(batch.status().code() == StatusCode::kInputError, "decode errors are input errors");
      return 0;
    }
    ReadEverything(**batch);
  }
  return 0;
}
