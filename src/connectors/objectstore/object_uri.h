// Object store URIs: what `s3://bucket/key` and `gs://bucket/key` name.
//
//   s3://bucket/data/day1.csv.gz          one object
//   s3://bucket/data/  or  s3://bucket    every supported object under the prefix
//   s3://bucket/x.parquet?endpoint=http://127.0.0.1:9000&region=eu-west-1
//
// The key is taken literally (no percent-decoding): it is the object's name as
// the store lists it. Query parameters configure the client, never the key:
//   endpoint  an S3-compatible store or an emulator ("http://host:port";
//             without a scheme, https); else AWS_ENDPOINT_URL_S3 /
//             AWS_ENDPOINT_URL (S3) or STORAGE_EMULATOR_HOST (GCS) from the
//             environment, else the provider's own endpoint.
//   region    the bucket's region (S3); else AWS_REGION / AWS_DEFAULT_REGION,
//             else the SDK's chain.
// Any other parameter is a UsageError, so a typo is not silently ignored.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace griffin {

struct ObjectUri {
  std::string scheme;    // "s3" | "gs"
  std::string bucket;
  std::string key;       // "" (the whole bucket), "a/b.csv", or a prefix "a/"
  std::string endpoint;  // from ?endpoint=, as given ("" when absent)
  std::string region;    // from ?region= ("" when absent)

  // "s3://bucket/key", without the query: how messages and reports name it.
  std::string Display() const { return scheme + "://" + bucket + (key.empty() ? "" : "/" + key); }
  // The path Arrow's filesystems take: "bucket/key" ("bucket" for the whole bucket).
  std::string FsPath() const { return key.empty() ? bucket : bucket + "/" + key; }
  // A prefix (ends with '/', or the whole bucket) rather than one object.
  bool IsPrefix() const { return key.empty() || key.back() == '/'; }
  // The URI of another object of the same store, with this one's query.
  std::string Sibling(const std::string& other_key) const;
};

// True for "s3://..." and "gs://..." (case-insensitive scheme).
bool IsObjectStoreUri(std::string_view text);

// Parses an object store URI. UsageError naming the URI for a missing bucket,
// an unknown scheme, or an unknown query parameter.
Result<ObjectUri> ParseObjectUri(std::string_view text);

// An endpoint as Arrow's clients take it: "http://127.0.0.1:9000" ->
// {"http", "127.0.0.1:9000"}; "minio:9000" -> {"https", "minio:9000"}.
struct Endpoint {
  std::string scheme;
  std::string host_port;
};
Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view uri_for_errors);

}  // namespace griffin
