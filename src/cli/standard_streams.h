// The CLI's standard streams: a report that could not be written in full
// (a full disk, a closed standard output, a reader that went away) is an
// error, exit 3 with one line on standard error, never a silent exit 0/1.
//
//   int main(...) { GuardStandardStreams(); ... }
//   Status written = WriteWhole(stdout, report_text, "standard output");
#pragma once

#include <cstdio>
#include <string_view>

#include "util/status.h"

namespace griffin {

// Call once, first thing in main. Ignores SIGPIPE, so that writing to a pipe
// whose reader has gone fails with EPIPE instead of killing the process
// silently. Reopens a closed descriptor 0, 1 or 2 on /dev/null, so that no file
// the run opens later (an output, the store) takes its number and receives
// the report; a closed standard output is remembered (StdoutWasClosed).
void GuardStandardStreams();

// True when GuardStandardStreams found descriptor 1 closed.
bool StdoutWasClosed();

// Writes all of `text` to `out` and flushes it. An InputError (exit 3) naming
// `name` when any byte could not be written: "standard output: cannot write
// the report: No space left on device". `out` == stdout also fails when
// standard output was closed at start.
Status WriteWhole(std::FILE* out, std::string_view text, const char* name);

}  // namespace griffin
