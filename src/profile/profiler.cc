#include "profile/profiler.h"

#include <cstdio>
#include <memory>

#include "exec/engine.h"
#include "exec/ordered_pipeline.h"

namespace griffin {
namespace {

Result<std::unique_ptr<TableProfile>> DecodeAndProfile(Chunk& chunk) {
  auto batch = chunk.Decode();
  if (!batch.ok()) return batch.status();
  auto part = std::make_unique<TableProfile>();
  part->AddBatch(**batch);
  return part;
}

}  // namespace

Result<TableProfile> ProfileSource(InputSource& source, const ProfileOptions& options) {
  const int threads = ResolveThreads(options.threads);
  TableProfile total;
  ASSIGN_OR_RETURN(std::unique_ptr<Chunk> first, source.NextChunk());
  if (first == nullptr) return total;
  ASSIGN_OR_RETURN(std::unique_ptr<Chunk> second, source.NextChunk());
  if (second == nullptr || threads == 1) {  // one chunk, or one thread: no worker to start
    for (std::unique_ptr<Chunk> chunk = std::move(first); chunk != nullptr;) {
      ASSIGN_OR_RETURN(std::unique_ptr<TableProfile> part, DecodeAndProfile(*chunk));
      total.Merge(*part);
      if (second != nullptr) {
        chunk = std::move(second);
        continue;
      }
      ASSIGN_OR_RETURN(chunk, source.NextChunk());
    }
    return total;
  }
  OrderedPipeline<Result<std::unique_ptr<TableProfile>>> pipeline(DecodeAndProfile, threads);
  if (pipeline.started() == 0) return Status::Internal("cannot start a worker thread: " + pipeline.start_error());
  const int64_t max_in_flight = 2 * threads + 1;
  int64_t submitted = 0, merged = 0;
  pipeline.Submit(submitted++, std::move(first));
  pipeline.Submit(submitted++, std::move(second));
  Status failure;
  bool end_of_input = false;
  while (true) {
    while (failure.ok() && !end_of_input && submitted - merged < max_in_flight) {
      Result<std::unique_ptr<Chunk>> chunk = source.NextChunk();
      if (!chunk.ok()) failure = chunk.status();
      else if (*chunk == nullptr) end_of_input = true;
      else pipeline.Submit(submitted++, std::move(chunk).value());
    }
    if (merged == submitted) break;
    Result<std::unique_ptr<TableProfile>> part = pipeline.Take(merged++);
    if (!part.ok()) {
      if (failure.ok()) failure = part.status();
    } else if (failure.ok()) {
      total.Merge(**part);
    }
  }
  if (!failure.ok()) return failure;
  return total;
}

Result<TableProfile> ProfilePaths(const std::vector<std::string>& paths, ReadOptions read_options,
                                  const ProfileOptions& options) {
  read_options.json_all_keys = true;
  ASSIGN_OR_RETURN(std::vector<std::string> inputs, ExpandInputs(paths));
  ASSIGN_OR_RETURN(std::unique_ptr<InputSource> source, OpenInputs(inputs, read_options));
  return ProfileSource(*source, options);
}

Result<TableProfile> ProfileOrState(const std::string& path, const ReadOptions& read_options,
                                    const ProfileOptions& options) {
  if (path != "-") {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file != nullptr) {
      char head[64];
      const size_t got = std::fread(head, 1, sizeof head, file);
      bool is_state = IsProfileState(std::string_view(head, got));
      std::string bytes;
      if (is_state) {
        bytes.assign(head, got);
        std::vector<char> buffer(1 << 16);
        size_t n;
        while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) bytes.append(buffer.data(), n);
      }
      std::fclose(file);
      if (is_state) return TableProfile::Deserialize(bytes, path);
    }
  }
  return ProfilePaths({path}, read_options, options);
}

}  // namespace griffin
