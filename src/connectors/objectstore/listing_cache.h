// What the latest listing said about each object (its size and modification
// time), so that opening an object just listed needs no HEAD request, and the
// run store's lineage takes the size and time of the version that was listed
// and then read. ExpandObjectUri remembers; OpenObjectSource and
// DescribeObject recall.
//
// An entry is used only while it is recent (kListingFreshness): every front
// end expands its inputs right before it opens them, so a later run lists
// again; an entry that aged out costs one HEAD, never a stale size.
// Thread safety: every function may be called from any thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include <arrow/filesystem/filesystem.h>

#include "connectors/objectstore/object_uri.h"

namespace griffin {

inline constexpr std::chrono::minutes kListingFreshness{15};

// Remembers `info` (a file) for the object `uri` names (its store's endpoint
// and region told apart).
void RememberListing(const ObjectUri& uri, const arrow::fs::FileInfo& info);

// The recent listing entry of `uri`'s object, or nullopt.
std::optional<arrow::fs::FileInfo> RecentListing(const ObjectUri& uri);

// Tests: forgets every entry.
void ForgetListingsForTesting();

}  // namespace griffin
