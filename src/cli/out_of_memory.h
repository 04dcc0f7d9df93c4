// The CLI's answer to memory running out: one line and exit 3, never an abort.
#pragma once

namespace griffin {

// Installs a process-wide new-handler: when operator new cannot allocate (on any
// thread, e.g. under RLIMIT_AS or a cgroup limit), it writes
// "griffin: out of memory\n" to stderr and exits with kExitInput (3) at once,
// where an uncaught std::bad_alloc would abort with "terminate called...".
// Outputs already committed stay; an output being written is left incomplete and
// never renamed into place (outputs are atomic). Threads that run out at once
// print the line once: the first exits, the others wait for it.
void ExitOnOutOfMemory();

}  // namespace griffin
