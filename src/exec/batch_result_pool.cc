#include "exec/batch_result_pool.h"

namespace griffin {

std::unique_ptr<BatchResult> BatchResultPool::Take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!kept_.empty()) {
      std::unique_ptr<BatchResult> result = std::move(kept_.back());
      kept_.pop_back();
      return result;
    }
  }
  return std::make_unique<BatchResult>();
}

void BatchResultPool::Give(std::unique_ptr<BatchResult> result) {
  if (result == nullptr) return;
  result->batch.reset();  // the input's buffers are not ours to keep
  result->table_profile.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  if (kept_.size() < kMaxKept) kept_.push_back(std::move(result));
}

size_t BatchResultPool::kept() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_.size();
}

}  // namespace griffin
