// Temporary files named after the process that writes them, so that the next
// run can tell a dead process's leftovers (kill -9, power loss) from a live
// writer's file: "<prefix><pid>-<anything>".
#pragma once

#include <string>

namespace griffin {

// "<prefix><this process's pid>-": the start of a temporary file's name that
// RemoveDeadProcessFiles(dir, prefix) recognises.
std::string PidTaggedPrefix(const std::string& prefix);

// Unlinks each file in `dir` named "<prefix><pid>-<anything>" whose pid is
// not a live process (kill(pid, 0) says ESRCH). This process's files, files of
// live processes or of processes it may not signal, and names that do not
// follow the pattern are kept. Returns how many files were removed.
int RemoveDeadProcessFiles(const std::string& dir, const std::string& prefix);

}  // namespace griffin
