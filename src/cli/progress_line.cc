#include "cli/progress_line.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace griffin {

// Short runs draw nothing; GRIFFIN_PROGRESS_DELAY (seconds) overrides, for tests.
double QuietSeconds() {
  const char* text = std::getenv("GRIFFIN_PROGRESS_DELAY");
  return text ? std::atof(text) : 1.5;
}

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled && isatty(STDERR_FILENO)), quiet_seconds_(QuietSeconds()) {}

void ProgressLine::Update(const Progress& progress) {
  if (!enabled_ || progress.elapsed_s < quiet_seconds_) return;
  const double mb = progress.bytes_read / 1e6;
  const double rate = progress.elapsed_s > 0 ? mb / progress.elapsed_s : 0;
  if (progress.total_bytes > 0) {
    std::fprintf(stderr, "\r\033[K  %lld rows  %.0f / %.0f MB (%.0f%%)  %.0f MB/s",
                 static_cast<long long>(progress.rows), mb, progress.total_bytes / 1e6,
                 100.0 * progress.bytes_read / progress.total_bytes, rate);
  } else {
    std::fprintf(stderr, "\r\033[K  %lld rows  %.0f MB  %.0f MB/s", static_cast<long long>(progress.rows), mb, rate);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::Clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace griffin
