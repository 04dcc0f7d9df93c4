#include "io/input_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <future>
#include <mutex>

#include "io/arrow_source.h"
#include "io/byte_stream.h"
#include "io/csv_chunker.h"
#include "io/input_format.h"
#include "io/json_array_stream.h"
#include "io/jsonl_parser.h"
#include "io/source_registry.h"

namespace griffin {
namespace {

namespace fs = std::filesystem;

Status NotReadable(const std::string& path, int error_number) {
  if (error_number == ENOENT) return Status::InputError(path + ": no such file or directory");
  return Status::InputError(path + ": " + std::strerror(error_number));
}

// An input opened ahead whose first chunk was read ahead too: NextChunk gives
// that chunk (or its error) first, then reads on.
class ReadAheadSource : public InputSource {
 public:
  ReadAheadSource(std::unique_ptr<InputSource> source, Result<std::unique_ptr<Chunk>> first)
      : source_(std::move(source)), first_(std::move(first)) {}
  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (!first_) return source_->NextChunk();
    Result<std::unique_ptr<Chunk>> first = std::move(*first_);
    first_.reset();
    return first;
  }
  int64_t bytes_read() const override { return source_->bytes_read(); }
  int64_t total_bytes() const override { return source_->total_bytes(); }
  bool is_text() const override { return source_->is_text(); }

 private:
  std::unique_ptr<InputSource> source_;
  std::optional<Result<std::unique_ptr<Chunk>>> first_;
};

// Reads its inputs one after another. A file is opened when the previous input
// ends; URIs (objects in a store) are opened ahead, each with its first chunk
// read, on helper threads (the first URI too, alongside the ones after it),
// so their metadata requests and first transfers overlap the decoding and
// each other instead of adding round trips per input. At most kInputsAhead
// inputs (one chunk each) are ahead of the one being read; an error there is
// reported when that input is reached.
class ChainedSource : public InputSource {
 public:
  static constexpr size_t kInputsAhead = 4;

  ChainedSource(std::vector<std::string> paths, ReadOptions options, int64_t total_bytes)
      : paths_(std::move(paths)), options_(std::move(options)), total_bytes_(total_bytes) {}

  Result<std::unique_ptr<Chunk>> NextChunk() override {
    for (;;) {
      if (current_ == nullptr) {
        if (next_input_ >= paths_.size()) return std::unique_ptr<Chunk>();
        // The next URIs start opening now, this one among them, so that the
        // first object's requests overlap those of the ones after it.
        for (size_t index = next_input_ + ahead_.size();
             ahead_.size() <= kInputsAhead && index < paths_.size() && !IsFileInput(paths_[index]); ++index)
          ahead_.push_back(std::async(std::launch::async, [this, index] { return OpenAhead(index); }));
        Result<std::unique_ptr<InputSource>> next = ahead_.empty() ? Open(next_input_) : ahead_.front().get();
        if (!ahead_.empty()) ahead_.pop_front();
        ASSIGN_OR_RETURN(auto opened, std::move(next));
        {
          std::lock_guard<std::mutex> lock(mutex_);
          any_text_ = any_text_ || opened->is_text();
          current_ = std::move(opened);
        }
        ++next_input_;
      }
      ASSIGN_OR_RETURN(auto chunk, current_->NextChunk());
      if (chunk != nullptr) return chunk;
      std::lock_guard<std::mutex> lock(mutex_);
      finished_bytes_ += current_->bytes_read();
      current_.reset();
    }
  }

  // May be called from another thread (progress).
  int64_t bytes_read() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_bytes_ + (current_ ? current_->bytes_read() : 0);
  }
  int64_t total_bytes() const override { return total_bytes_; }
  bool is_text() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return any_text_;
  }

 private:
  Result<std::unique_ptr<InputSource>> Open(size_t index) const {
    return OpenInput(paths_[index], options_, static_cast<int>(index));
  }
  Result<std::unique_ptr<InputSource>> OpenAhead(size_t index) const {
    ASSIGN_OR_RETURN(std::unique_ptr<InputSource> source, Open(index));
    Result<std::unique_ptr<Chunk>> first = source->NextChunk();
    return std::unique_ptr<InputSource>(std::make_unique<ReadAheadSource>(std::move(source), std::move(first)));
  }

  std::vector<std::string> paths_;
  ReadOptions options_;
  int64_t total_bytes_;
  size_t next_input_ = 0;
  mutable std::mutex mutex_;  // guards current_ (replaced) and finished_bytes_
  std::unique_ptr<InputSource> current_;
  int64_t finished_bytes_ = 0;
  bool any_text_ = false;
  // The next inputs, being opened ahead, in order (declared last: destroyed
  // first, each waits for its helper thread, which reads paths_ and options_).
  std::deque<std::future<Result<std::unique_ptr<InputSource>>>> ahead_;
};

}  // namespace

const char* InputFormatName(InputFormat f) {
  switch (f) {
    case InputFormat::kCsv: return "csv";
    case InputFormat::kTsv: return "tsv";
    case InputFormat::kJsonl: return "jsonl";
    case InputFormat::kJson: return "json";
    case InputFormat::kParquet: return "parquet";
    case InputFormat::kArrow: return "arrow";
  }
  return "unknown";
}

Result<std::unique_ptr<InputSource>> OpenInput(const std::string& input, const ReadOptions& options,
                                               int input_index) {
  if (!IsFileInput(input)) return OpenSource(input, options, input_index);
  if (!options.where.empty() || !options.query.empty() || !options.incremental_column.empty())
    return Status::UsageError(input + ": a file cannot filter rows (where), run a query or be read incrementally "
                              "(source.incremental); those need a "
                              "database source such as sqlite:///path.db?table=name");
  ASSIGN_OR_RETURN(const std::string path, FilePathOf(input));
  const bool is_stdin = path == "-";
  DetectedFormat detected{InputFormat::kCsv, Compression::kNone};  // stdin: CSV unless told
  if (!is_stdin || options.format) {
    ASSIGN_OR_RETURN(detected, ResolveInputFormat(path, options));
  }
  const InputFormat format = detected.format;
  const Compression compression = detected.compression;
  const std::string name = is_stdin ? "<stdin>" : path;
  if (format == InputFormat::kParquet || format == InputFormat::kArrow) {
    return format == InputFormat::kParquet ? OpenParquetSource(path, options, input_index)
                                           : OpenArrowIpcSource(path, options, input_index);
  }
  int64_t total_bytes = -1;
  if (!is_stdin) {
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) return NotReadable(path, errno);
    if (S_ISDIR(info.st_mode)) return Status::InputError(path + ": is a directory");
    total_bytes = info.st_size;
  }
  ASSIGN_OR_RETURN(auto stream, OpenByteStream(path, compression));
  return OpenTextStream(std::move(stream), name, format, options, input_index, total_bytes);
}

Result<std::unique_ptr<InputSource>> OpenTextStream(std::unique_ptr<ByteStream> stream, const std::string& name,
                                                    InputFormat format, const ReadOptions& options,
                                                    int input_index, int64_t total_bytes) {
  if (format == InputFormat::kJsonl)
    return MakeJsonlSource(std::move(stream), name, options, input_index, total_bytes);
  if (format == InputFormat::kJson)  // the array's elements, one per line: row i is element i
    return MakeJsonlSource(MakeJsonArrayStream(std::move(stream), name), name, options, input_index,
                           total_bytes);
  if (format != InputFormat::kCsv && format != InputFormat::kTsv)
    return Status::UsageError(name + ": " + InputFormatName(format) + " is not a text format");
  char delimiter = options.delimiter ? *options.delimiter : format == InputFormat::kTsv ? '\t' : ',';
  if (delimiter == options.quote || delimiter == '\n' || delimiter == '\r' ||
      options.quote == '\n' || options.quote == '\r')
    return Status::InputError(name + ": the delimiter and the quote must differ and not be a line end");
  return MakeCsvSource(std::move(stream), name, options, delimiter, input_index, total_bytes);
}

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& input : paths) {
    if (input == "-") {
      out.push_back(input);
      continue;
    }
    if (!IsFileInput(input)) {  // a URI is its adapter's to check and expand (a prefix: its objects)
      ASSIGN_OR_RETURN(std::vector<std::string> expanded, ExpandSource(input));
      out.insert(out.end(), expanded.begin(), expanded.end());
      continue;
    }
    ASSIGN_OR_RETURN(const std::string path, FilePathOf(input));
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) return NotReadable(path, errno);
    if (!S_ISDIR(info.st_mode)) {
      if (::access(path.c_str(), R_OK) != 0) return NotReadable(path, errno);
      out.push_back(path);
      continue;
    }
    // A directory: its supported files, recursively, skipping hidden entries.
    std::vector<std::string> found;
    std::error_code error;
    fs::recursive_directory_iterator it(path, fs::directory_options::none, error), end;
    if (error) return Status::InputError(path + ": " + error.message());
    for (; it != end; it.increment(error)) {
      if (error) return Status::InputError(path + ": " + error.message());
      const std::string file_name = it->path().filename().string();
      if (!file_name.empty() && file_name[0] == '.') {
        if (it->is_directory(error)) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(error) || !DetectInputFormat(file_name)) continue;
      std::string file = it->path().string();
      if (::access(file.c_str(), R_OK) != 0) return NotReadable(file, errno);
      found.push_back(std::move(file));
    }
    if (found.empty()) return Status::InputError(path + ": directory holds no supported input files");
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

Result<std::unique_ptr<InputSource>> OpenInputs(const std::vector<std::string>& paths,
                                                const ReadOptions& options) {
  if (paths.size() == 1) return OpenInput(paths[0], options, 0);
  int64_t total_bytes = 0;
  for (const std::string& path : paths) {
    struct stat info;
    if (path == "-" || ::stat(path.c_str(), &info) != 0) {
      total_bytes = -1;
      break;
    }
    total_bytes += info.st_size;
  }
  return std::unique_ptr<InputSource>(
      std::make_unique<ChainedSource>(paths, options, total_bytes));
}

}  // namespace griffin
