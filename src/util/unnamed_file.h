// Temporary files with no name on disk: nothing is left behind however the
// process ends (exit, error, kill -9), which a named temporary file cannot
// promise. The spill files (exec/key_spill.h, exec/repeat_log.h) and the table
// outputs' spools (io/spooled_output.h) use them.
#pragma once

#include <string>

namespace griffin {

// An unnamed read-write file under `dir` (O_TMPFILE, else a mkstemp file
// unlinked at once), close-on-exec. -1 with errno set on failure.
int OpenUnnamedFile(const std::string& dir);

// A path that opens the file behind the open descriptor `fd` afresh, from its
// first byte ("/proc/self/fd/N"), for a reader that takes a path: valid in
// this process while `fd` stays open.
std::string OpenFilePath(int fd);

}  // namespace griffin
