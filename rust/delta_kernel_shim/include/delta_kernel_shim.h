// The C ABI of rust/delta_kernel_shim (a static library over delta-kernel-rs).
// Errors: a function that fails sets *error to a one-line message (free it with
// griffin_delta_free_string) and returns NULL or -1.
#ifndef GRIFFIN_DELTA_KERNEL_SHIM_H_
#define GRIFFIN_DELTA_KERNEL_SHIM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema;
struct ArrowArrayStream;
typedef struct GriffinDeltaSnapshot GriffinDeltaSnapshot;

// Which snapshot griffin_delta_open opens.
#define GRIFFIN_DELTA_LATEST 0
#define GRIFFIN_DELTA_AT_VERSION 1        // value: the table version
#define GRIFFIN_DELTA_AT_TIMESTAMP_MS 2   // value: ms since the epoch; latest commit at or before it

// Opens a snapshot of the table at location (a local folder, or s3:// / gs:// URI).
// Options are object store settings (aws_endpoint, aws_region, ...); AWS_* and
// GOOGLE_* environment variables are read too, the options win.
GriffinDeltaSnapshot* griffin_delta_open(const char* location, int mode, int64_t value,
                                         const char* const* option_keys,
                                         const char* const* option_values, size_t option_count,
                                         char** error);
int64_t griffin_delta_snapshot_version(const GriffinDeltaSnapshot* snapshot);
// The logical schema (partition columns included, logical names under column mapping).
int griffin_delta_snapshot_schema(const GriffinDeltaSnapshot* snapshot, struct ArrowSchema* out,
                                  char** error);
// The table's rows (deletion vectors applied) as an Arrow C stream; columns (count may be 0
// for all) limits the scan to those top-level columns.
int griffin_delta_scan(const GriffinDeltaSnapshot* snapshot, const char* const* columns,
                       size_t column_count, struct ArrowArrayStream* out, char** error);
// Appends the rows of stream (consumed and released) to the table at location as ONE
// commit (Parquet files first, then _delta_log/<version>.json put-if-absent), creating
// the table, unpartitioned, when its log is empty. compression: the data files' page
// codec, "snappy" (null or "" too), "zstd", "lz4" (LZ4_RAW) or "none"; plain_columns:
// the (physical) columns written without a dictionary. The stream's batches are encoded
// on up to one thread per core, one data file each. *version: the committed version.
int griffin_delta_append(const char* location, const char* const* option_keys,
                         const char* const* option_values, size_t option_count, const char* compression,
                         const char* const* plain_columns, size_t plain_column_count,
                         struct ArrowArrayStream* stream, int64_t* version, char** error);
void griffin_delta_snapshot_free(GriffinDeltaSnapshot* snapshot);
void griffin_delta_free_string(char* text);

#ifdef __cplusplus
}
#endif
#endif  // GRIFFIN_DELTA_KERNEL_SHIM_H_
