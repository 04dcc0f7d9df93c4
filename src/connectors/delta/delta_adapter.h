// Delta tables' entry in the adapter registry (io/source_registry.h): "delta:PATH",
// or a folder holding _delta_log, read through delta-kernel-rs (delta_snapshot.h),
// with time travel (delta_table_ref.h). Lineage: the table version read, as the
// input's etag "v=N" (the same version the report shows). RegisterBuiltinSources
// calls this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace griffin::delta {

void RegisterDeltaSources();

// The version this process last read of the Delta input `input` (as given), if any.
std::optional<int64_t> VersionRead(const std::string& input);

}  // namespace griffin::delta
