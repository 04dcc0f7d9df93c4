#include "connectors/objectstore/object_writer.h"

#include <arrow/io/interfaces.h>

#include "connectors/objectstore/object_store.h"

namespace griffin {
namespace {

class ArrowObjectWriter : public OutputObject {
 public:
  ArrowObjectWriter(ObjectUri uri, std::shared_ptr<arrow::io::OutputStream> stream)
      : uri_(std::move(uri)), stream_(std::move(stream)) {}

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
    ASSIGN_OR_RETURN(ObjectIdentity identity, DescribeObject(uri_));
    return CommittedObject{identity.size, identity.etag};
  }

  void Abort() override {
    if (stream_ == nullptr) return;
    (void)stream_->Abort();
    stream_.reset();
  }

 private:
  ObjectUri uri_;
  std::shared_ptr<arrow::io::OutputStream> stream_;
};

}  // namespace

Result<std::unique_ptr<OutputObject>> OpenObjectWriter(const std::string& text) {
  ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(text));
  if (uri.IsPrefix())
    return Status::UsageError(uri.Display() + ": an output names an object, not a prefix (end it with a file name)");
  ASSIGN_OR_RETURN(auto fs, ObjectStoreFor(uri));
  auto stream = fs->OpenOutputStream(uri.FsPath());
  if (!stream.ok()) return ObjectStoreError(uri, stream.status());
  return std::unique_ptr<OutputObject>(std::make_unique<ArrowObjectWriter>(std::move(uri), *stream));
}

}  // namespace griffin
