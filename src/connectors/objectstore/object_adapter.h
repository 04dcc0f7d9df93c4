// The object stores' entry in the adapter registry (io/source_registry.h):
// s3:// and gs:// inputs (objects and prefixes), their lineage (size,
// last-modified time, ETag or generation), and --clean / --quarantine outputs
// written whole or not at all. RegisterBuiltinSources calls this.
#pragma once

namespace griffin {

void RegisterObjectStoreSources();

}  // namespace griffin
