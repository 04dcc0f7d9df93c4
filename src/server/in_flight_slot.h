// Counts a request while it is handled, for limits.max_concurrent: the
// counter goes up on construction and down on destruction, and count() is
// how many were in flight with this one (1 when alone).
//
//   InFlightSlot slot(in_flight_);
//   if (slot.count() > max_concurrent) -> refuse with 503 (the slot still frees itself)
#pragma once

#include <atomic>
#include <cstdint>

namespace griffin::server {

class InFlightSlot {
 public:
  explicit InFlightSlot(std::atomic<int64_t>& counter) : counter_(counter), count_(++counter) {}
  ~InFlightSlot() { --counter_; }
  InFlightSlot(const InFlightSlot&) = delete;
  InFlightSlot& operator=(const InFlightSlot&) = delete;
  int64_t count() const { return count_; }

 private:
  std::atomic<int64_t>& counter_;
  int64_t count_;
};

}  // namespace griffin::server
