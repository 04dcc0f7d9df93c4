// The adapters griffin is built with, registered with the adapter registry
// (io/source_registry.h) on its first use. A new adapter adds one line here;
// no front end changes.
#include "connectors/objectstore/object_adapter.h"
#include "io/source_registry.h"

namespace griffin {

void RegisterBuiltinSources() {
  RegisterObjectStoreSources();  // s3://, gs://
}

}  // namespace griffin
