#include "cli/out_of_memory.h"

#include <unistd.h>

#include <atomic>
#include <new>

#include "cli/exit_codes.h"

namespace griffin {
namespace {

void OutOfMemory() {
  // Threads that run out together: the first writes the line and exits; the
  // others wait for that exit (exiting first could cut the line; writing too
  // would print it twice, as a test under RLIMIT_AS saw).
  static std::atomic_flag reported = ATOMIC_FLAG_INIT;
  if (reported.test_and_set()) {
    for (;;) pause();
  }
  // Async-signal-safe calls only: the heap is what failed.
  static const char kLine[] = "griffin: out of memory\n";
  ssize_t ignored = write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
  (void)ignored;
  _exit(kExitInput);
}

}  // namespace

void ExitOnOutOfMemory() { std::set_new_handler(OutOfMemory); }

}  // namespace griffin
