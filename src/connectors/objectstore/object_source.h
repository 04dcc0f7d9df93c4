// Inputs in object stores (s3://, gs://): the adapter behind those schemes.
//
// An object is read in the format its key's extension names (or
// ReadOptions::format), compressed text included, with the same parsers as
// local files, so its verdicts are those of `griffin validate` on the same
// file. Text streams through a read-ahead of ranged reads (memory bounded);
// Parquet reads coalesced ranges with several requests in flight; Arrow IPC
// reads record batches by range.
//
// Errors are InputErrors (exit 3) on one line naming the URI: a missing
// bucket or object, refused credentials, an unreachable endpoint (after the
// client's timeouts), a corrupt or truncated object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/input_source.h"
#include "util/status.h"

namespace griffin {

// Read-ahead of text objects: block size and the most blocks in flight.
inline constexpr int64_t kObjectReadBlockBytes = 8 << 20;
inline constexpr int kObjectReadAheadBlocks = 4;

// Opens one object as an input.
Result<std::unique_ptr<InputSource>> OpenObjectSource(const std::string& uri, const ReadOptions& options,
                                                      int input_index);

// The objects a URI names, as URIs: a prefix ("s3://b/dir/", "s3://b") becomes
// every object under it whose key has a supported extension (recursively,
// sorted by key, skipping names that start with '.' or '_' such as
// _SUCCESS markers and _delta_log); an object URI stays as it is. A prefix
// with no supported object is an InputError naming it.
Result<std::vector<std::string>> ExpandObjectUri(const std::string& uri);

}  // namespace griffin
