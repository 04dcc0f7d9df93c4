#include "cli/out_of_memory.h"

#include <unistd.h>

#include <new>

#include "cli/exit_codes.h"

namespace griffin {
namespace {

void OutOfMemory() {
  // Async-signal-safe calls only: the heap is what failed.
  static const char kLine[] = "griffin: out of memory\n";
  ssize_t ignored = write(STDERR_FILENO, kLine, sizeof(kLine) - 1);
  (void)ignored;
  _exit(kExitInput);
}

}  // namespace

void ExitOnOutOfMemory() { std::set_new_handler(OutOfMemory); }

}  // namespace griffin
