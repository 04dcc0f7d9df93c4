#include "profile/value_counts.h"

#include <algorithm>

namespace griffin {

void ValueCounts::Reserve(size_t n) {
  size_t slots = 64;
  while (n * 4 > slots * 3) slots *= 2;
  if (slots > slots_.size()) Grow(slots);
  entries_.reserve(n);
}

void ValueCounts::Grow(size_t slots) {
  slots_.assign(std::max<size_t>(64, slots), Slot{});
  const uint64_t mask = slots_.size() - 1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    uint64_t pos = entries_[i].hash & mask;
    while (slots_[pos].index != 0) pos = (pos + 1) & mask;
    slots_[pos] = {entries_[i].hash, static_cast<uint32_t>(i + 1)};
  }
}

}  // namespace griffin
