// Clients for object stores: Arrow's S3 and GCS filesystems (in the pyarrow
// wheel's libarrow), one per (scheme, endpoint, region), made on first use and
// kept for the life of the process.
//
// Credentials come from the providers' usual chains, never from the URI:
//   S3   environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN),
//        AWS_PROFILE with ~/.aws/credentials and ~/.aws/config, web identity,
//        then instance metadata;
//   GCS  Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
//        gcloud's file, the metadata server); anonymous against an emulator.
// Timeouts bound every call: a store that is down or unreachable gives an
// error within seconds (connect timeout and a few retries), never a hang.
//
// The S3 SDK is initialized on first use and finalized at process exit
// (std::atexit), as Arrow requires.
#pragma once

#include <memory>
#include <string>

#include <arrow/filesystem/filesystem.h>
#include <arrow/status.h>

#include "connectors/objectstore/object_uri.h"
#include "util/status.h"

namespace griffin {

// How the client of `uri`'s store is configured (the endpoint and region as
// above), for ObjectStoreFor and for front ends that make their own client
// with the same settings (Python's pyarrow filesystems in griffin.iter_batches).
struct ClientSettings {
  std::string endpoint_scheme;     // "http" | "https"; "" with no override
  std::string endpoint_host_port;  // "127.0.0.1:9000"; "" for the provider's own
  std::string region;              // S3; "" leaves it to the SDK's chain
  bool anonymous = false;          // GCS: an emulator, reached without credentials
};
// UsageError for a bad endpoint.
Result<ClientSettings> ClientSettingsFor(const ObjectUri& uri);

// The filesystem serving `uri`'s store. UsageError for a bad endpoint,
// InputError naming the URI when the client cannot be made.
Result<std::shared_ptr<arrow::fs::FileSystem>> ObjectStoreFor(const ObjectUri& uri);

// Tests: URIs of `scheme` are served by `fs` (such as Arrow's MockFileSystem)
// whatever their endpoint; nullptr restores the real clients.
void SetObjectStoreForTesting(const std::string& scheme, std::shared_ptr<arrow::fs::FileSystem> fs);

// An Arrow error about `uri` as an InputError on one line: "s3://b/k: message".
Status ObjectStoreError(const ObjectUri& uri, const arrow::Status& status);

// What the store says about one object, for lineage.
struct ObjectIdentity {
  int64_t size = -1;
  int64_t mtime_ns = -1;  // the store's last-modified time (-1 unknown)
  std::string etag;  // S3: the ETag (quotes removed); GCS: the generation
};
// Reads the object's size and ETag (or generation): one HEAD request; the
// modification time comes from the object's recent listing (listing_cache.h)
// when its size still matches, else from one more request.
Result<ObjectIdentity> DescribeObject(const ObjectUri& uri);

}  // namespace griffin
