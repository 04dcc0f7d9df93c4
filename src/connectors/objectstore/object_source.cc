#include "connectors/objectstore/object_source.h"

#include <algorithm>
#include <optional>

#include "connectors/objectstore/listing_cache.h"
#include "connectors/objectstore/object_store.h"
#include "connectors/objectstore/object_uri.h"
#include "connectors/objectstore/read_ahead_stream.h"
#include "io/arrow_source.h"
#include "io/input_format.h"

namespace griffin {
namespace {

// Hidden entries of a listing: ".x", "_SUCCESS", "_delta_log/...", at any level.
bool IsHidden(const std::string& key, size_t prefix_length) {
  size_t start = prefix_length;
  while (start < key.size()) {
    if (key[start] == '.' || key[start] == '_') return true;
    const size_t slash = key.find('/', start);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return false;
}

// A missing object, told apart from a missing bucket.
Status NotFound(arrow::fs::FileSystem& fs, const ObjectUri& uri) {
  auto bucket = fs.GetFileInfo(uri.bucket);
  if (bucket.ok() && bucket->type() == arrow::fs::FileType::NotFound)
    return Status::InputError(uri.Display() + ": no such bucket '" + uri.bucket + "'");
  return Status::InputError(uri.Display() + ": no such object");
}

}  // namespace

Result<std::unique_ptr<InputSource>> OpenObjectSource(const std::string& text, const ReadOptions& options,
                                                      int input_index) {
  ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(text));
  const std::string name = uri.Display();
  if (uri.IsPrefix())
    return Status::InputError(name + ": is a prefix, not an object (list it as an input to read what it holds)");
  ASSIGN_OR_RETURN(DetectedFormat format, ResolveInputFormat(name, options));
  ASSIGN_OR_RETURN(auto fs, ObjectStoreFor(uri));
  // Just listed: its size is known, so no HEAD request before the first read.
  const std::optional<arrow::fs::FileInfo> listed = RecentListing(uri);
  auto file = listed ? fs->OpenInputFile(*listed) : fs->OpenInputFile(uri.FsPath());
  if (!file.ok()) return ObjectStoreError(uri, file.status());
  if (format.format == InputFormat::kParquet) return OpenParquetFile(*file, name, options, input_index);
  if (format.format == InputFormat::kArrow) return OpenArrowIpcFile(*file, name, options, input_index);
  auto size = (*file)->GetSize();
  if (!size.ok()) return ObjectStoreError(uri, size.status());
  std::unique_ptr<ByteStream> stream =
      MakeReadAheadStream(*file, name, *size, kObjectReadBlockBytes, kObjectReadAheadBlocks);
  if (format.compression == Compression::kGzip) stream = MakeGzipStream(std::move(stream), name);
  if (format.compression == Compression::kZstd) stream = MakeZstdStream(std::move(stream), name);
  return OpenTextStream(std::move(stream), name, format.format, options, input_index, *size);
}

Result<std::vector<std::string>> ExpandObjectUri(const std::string& text) {
  ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(text));
  ASSIGN_OR_RETURN(auto fs, ObjectStoreFor(uri));
  if (!uri.IsPrefix()) {
    auto info = fs->GetFileInfo(uri.FsPath());
    if (!info.ok()) return ObjectStoreError(uri, info.status());
    if (info->type() == arrow::fs::FileType::File) {
      RememberListing(uri, *info);
      return std::vector<std::string>{text};
    }
    if (info->type() == arrow::fs::FileType::NotFound) return NotFound(*fs, uri);
    uri.key += "/";  // "s3://b/dir" names a folder of objects
  }
  arrow::fs::FileSelector selector;
  selector.base_dir = uri.FsPath();
  while (selector.base_dir.size() > uri.bucket.size() && selector.base_dir.back() == '/') selector.base_dir.pop_back();
  selector.recursive = true;
  selector.allow_not_found = true;  // nothing under the prefix: the error below
  auto listed = fs->GetFileInfo(selector);
  if (!listed.ok()) return ObjectStoreError(uri, listed.status());
  std::vector<std::string> keys;
  const size_t bucket_length = uri.bucket.size() + 1;  // "bucket/"
  for (const arrow::fs::FileInfo& info : *listed) {
    if (info.type() != arrow::fs::FileType::File) continue;
    if (info.path().size() <= bucket_length) continue;
    std::string key = info.path().substr(bucket_length);
    if (IsHidden(key, uri.key.size()) || !DetectInputFormat(key)) continue;
    ObjectUri object = uri;
    object.key = key;
    RememberListing(object, info);
    keys.push_back(std::move(key));
  }
  if (keys.empty())  // named as given, without its query
    return Status::InputError(text.substr(0, text.find('?')) + ": prefix holds no supported input files");
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> uris;
  for (const std::string& key : keys) uris.push_back(uri.Sibling(key));
  return uris;
}

}  // namespace griffin
