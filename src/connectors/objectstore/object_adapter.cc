#include "connectors/objectstore/object_adapter.h"

#include "connectors/objectstore/object_source.h"
#include "connectors/objectstore/object_store.h"
#include "connectors/objectstore/object_writer.h"
#include "io/source_registry.h"

namespace griffin {
namespace {

Result<SourceIdentity> Describe(const std::string& text) {
  ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(text));
  ASSIGN_OR_RETURN(ObjectIdentity object, DescribeObject(uri));
  return SourceIdentity{object.size, object.mtime_ns, object.etag};
}

SourceAdapter Adapter(const std::string& example) {
  SourceAdapter adapter;
  adapter.open = OpenObjectSource;
  adapter.example = example;
  adapter.expand = ExpandObjectUri;
  adapter.describe = Describe;
  adapter.open_output = [](const std::string& uri, const OutputObjectOptions&) { return OpenObjectWriter(uri); };
  return adapter;
}

}  // namespace

void RegisterObjectStoreSources() {
  RegisterSource("s3", Adapter("s3://bucket/prefix/day.csv.gz"));
  RegisterSource("gs", Adapter("gs://bucket/prefix/day.parquet"));
}

}  // namespace griffin
