// Profiles an input source on all cores: the calling thread reads chunks in
// order; workers decode each chunk and profile its batch (a TableProfile per
// batch); the calling thread merges the parts in input order. The result
// depends only on the input and its batch boundaries (ReadOptions), never on
// the thread count. Memory: at most 2 * threads + 1 chunks and batch
// profiles in flight, plus the merged profile (bounded per column, see
// column_state.h).
#pragma once

#include <string>
#include <vector>

#include "io/input_source.h"
#include "profile/table_profile.h"
#include "util/status.h"

namespace griffin {

struct ProfileOptions {
  int threads = 0;  // 0: all cores (at most kMaxThreads)
};

// Errors: the input's (exit 3), or an internal error when no worker starts.
Result<TableProfile> ProfileSource(InputSource& source, const ProfileOptions& options);

// Profiles files (directories expanded as `griffin validate` does; "-" is
// standard input). JSON inputs give every top-level key as a column.
Result<TableProfile> ProfilePaths(const std::vector<std::string>& paths, ReadOptions read_options,
                                  const ProfileOptions& options);

// `path` as a profile: the saved state when the file is one (`griffin profile
// --state`; a state that is cut or altered is an InputError naming the file),
// else the data's profile.
Result<TableProfile> ProfileOrState(const std::string& path, const ReadOptions& read_options,
                                    const ProfileOptions& options);

}  // namespace griffin
