// BatchResults kept from run to run, so that a Validator called again and
// again on small batches (griffin.Validator.validate on 10,000 rows) reuses
// the buffers of its earlier calls instead of allocating them again: each
// call's columns, verdicts and keys take about 1 MB, which glibc hands back to
// the kernel when freed, so a fresh allocation faults its pages in again.
// Thread-safe; keeps at most kMaxKept results.
//
//   std::unique_ptr<BatchResult> result = pool.Take();  // cleared, capacity kept
//   ...
//   pool.Give(std::move(result));                        // drops its batch
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "exec/batch_result.h"

namespace griffin {

class BatchResultPool {
 public:
  static constexpr size_t kMaxKept = 4;

  // A kept result (its batch dropped; its vectors empty or stale, with their
  // capacity: BatchEvaluator::Evaluate sets every field), or a new one.
  std::unique_ptr<BatchResult> Take();
  // Keeps `result` for a later Take (when fewer than kMaxKept are kept).
  void Give(std::unique_ptr<BatchResult> result);
  size_t kept() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<BatchResult>> kept_;
};

}  // namespace griffin
