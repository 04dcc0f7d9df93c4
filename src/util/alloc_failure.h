// Memory that Griffin allocates itself (malloc, calloc, mmap) failing, reported
// as operator new reports it: the installed new-handler runs first (the CLI's,
// cli/out_of_memory.h, prints "griffin: out of memory" and exits 3), and
// std::bad_alloc is thrown only when there is none (libraries, tests). A bare
// `throw std::bad_alloc()` on a worker thread bypassed the CLI's handler and
// aborted the process.
#pragma once

namespace griffin {

[[noreturn]] void FailAllocation();

}  // namespace griffin
