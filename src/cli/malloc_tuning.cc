#include "cli/malloc_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace griffin {
namespace {

constexpr int kMmapThresholdBytes = 32 << 20;
constexpr int kTrimThresholdBytes = 128 << 20;

}  // namespace

bool MallocThresholdsAreOurs(const char* glibc_tunables, const char* mmap_threshold_env,
                             const char* trim_threshold_env) {
  if (glibc_tunables != nullptr && std::strstr(glibc_tunables, "malloc") != nullptr) return false;
  return mmap_threshold_env == nullptr && trim_threshold_env == nullptr;
}

bool TuneMallocForBatches() {
  if (!MallocThresholdsAreOurs(std::getenv("GLIBC_TUNABLES"), std::getenv("MALLOC_MMAP_THRESHOLD_"),
                               std::getenv("MALLOC_TRIM_THRESHOLD_")))
    return false;
  // mallopt returns 1 on success; a failure leaves glibc's defaults, which work.
  const bool mmap_set = mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes) == 1;
  return mmap_set && trim_set;
}

}  // namespace griffin
