#include "connectors/objectstore/object_writer.h"

#include <arrow/io/interfaces.h>
#include <unistd.h>


#include "connectors/objectstore/object_store.h"
#include "util/random_hex.h"

namespace griffin {
namespace {

// `temp_path`: where the stream writes when that is not the final object
// (GCS); empty when the stream itself is atomic (S3).
class ArrowObjectWriter : public OutputObject {
 public:
  ArrowObjectWriter(ObjectUri uri, std::shared_ptr<arrow::fs::FileSystem> fs,
                    std::shared_ptr<arrow::io::OutputStream> stream, std::string temp_path)
      : uri_(std::move(uri)), fs_(std::move(fs)), stream_(std::move(stream)), temp_path_(std::move(temp_path)) {}

  // Arrow's stream would complete the upload when destroyed: abort first.
  ~ArrowObjectWriter() override { Abort(); }

  Status Write(std::string_view bytes) override {
    if (stream_ == nullptr) return Status::Internal(uri_.Display() + ": write after commit or abort");
    arrow::Status status = stream_->Write(bytes.data(), static_cast<int64_t>(bytes.size()));
    if (!status.ok()) return ObjectStoreError(uri_, status);
    return Status::OK();
  }

  Result<CommittedObject> Commit() override {
    if (stream_ == nullptr) return Status::Internal(uri_.Display() + ": commit after commit or abort");
    arrow::Status closed = stream_->Close();
    if (!closed.ok()) {
      Abort();
      return ObjectStoreError(uri_, closed);
    }
    stream_.reset();
    if (!temp_path_.empty()) {
      arrow::Status moved = fs_->Move(temp_path_, uri_.FsPath());
      if (!moved.ok()) {
        (void)fs_->DeleteFile(temp_path_);
        return ObjectStoreError(uri_, moved);
      }
    }
    ASSIGN_OR_RETURN(ObjectIdentity identity, DescribeObject(uri_));
    return CommittedObject{identity.size, identity.etag};
  }

  void Abort() override {
    if (stream_ == nullptr) return;
    (void)stream_->Abort();
    stream_.reset();
    if (!temp_path_.empty()) (void)fs_->DeleteFile(temp_path_);
  }

 private:
  ObjectUri uri_;
  std::shared_ptr<arrow::fs::FileSystem> fs_;
  std::shared_ptr<arrow::io::OutputStream> stream_;
  std::string temp_path_;
};

// "bucket/dir/.name.griffin-tmp-PID-RANDOM" beside "bucket/dir/name".
std::string TempPathBeside(const ObjectUri& uri) {
  const std::string path = uri.FsPath();
  const size_t slash = path.rfind('/');
  return path.substr(0, slash + 1) + "." + path.substr(slash + 1) + ".griffin-tmp-" +
         std::to_string(::getpid()) + "-" + RandomHex();
}

}  // namespace

Result<std::unique_ptr<OutputObject>> OpenObjectWriter(const std::string& text) {
  ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(text));
  if (uri.IsPrefix())
    return Status::UsageError(uri.Display() + ": an output names an object, not a prefix (end it with a file name)");
  ASSIGN_OR_RETURN(auto fs, ObjectStoreFor(uri));
  // S3's multipart upload is atomic by itself; GCS's stream is not (see the header).
  const std::string temp_path = uri.scheme == "gs" ? TempPathBeside(uri) : "";
  auto stream = fs->OpenOutputStream(temp_path.empty() ? uri.FsPath() : temp_path);
  if (!stream.ok()) return ObjectStoreError(uri, stream.status());
  return std::unique_ptr<OutputObject>(
      std::make_unique<ArrowObjectWriter>(std::move(uri), std::move(fs), *stream, temp_path));
}

}  // namespace griffin
