#include "connectors/delta/delta_object_probe.h"

#include <map>
#include <mutex>
#include <string>

#include "connectors/objectstore/object_store.h"
#include "connectors/objectstore/object_uri.h"
#include "io/input_format.h"

namespace griffin::delta {
namespace {

using Clock = std::chrono::steady_clock;

struct Answers {
  std::mutex mutex;
  std::map<std::string, std::pair<bool, Clock::time_point>, std::less<>> by_location;
};

Answers& TheAnswers() {
  static Answers& answers = *new Answers();
  return answers;
}

bool Ask(std::string_view location) {
  Result<ObjectUri> uri = ParseObjectUri(location);
  if (!uri.ok()) return false;
  std::string key = uri->key;
  while (!key.empty() && key.back() == '/') key.pop_back();
  if (!key.empty() && DetectInputFormat(key)) return false;  // an object named as a file
  Result<std::shared_ptr<arrow::fs::FileSystem>> fs = ObjectStoreFor(*uri);
  if (!fs.ok()) return false;
  const std::string log = uri->bucket + "/" + (key.empty() ? "" : key + "/") + "_delta_log";
  auto info = (*fs)->GetFileInfo(log);
  return info.ok() && info->type() == arrow::fs::FileType::Directory;
}

}  // namespace

bool ObjectPrefixHoldsDeltaLog(std::string_view location) {
  Answers& answers = TheAnswers();
  {
    std::lock_guard<std::mutex> lock(answers.mutex);
    auto found = answers.by_location.find(location);
    if (found != answers.by_location.end() && Clock::now() - found->second.second < kProbeTtl)
      return found->second.first;
  }
  const bool holds = Ask(location);  // without the lock: a request
  std::lock_guard<std::mutex> lock(answers.mutex);
  answers.by_location[std::string(location)] = {holds, Clock::now()};
  return holds;
}

}  // namespace griffin::delta
