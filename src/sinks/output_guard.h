// Refuses an output file that is one of the run's own files: `--clean` or
// `--quarantine` naming an input (or the rule file) would replace it with a
// part of its rows, and the rows it held would be gone.
//
//   RETURN_IF_ERROR(RefuseOutputOverFiles("--clean", args.clean_path,
//                                         {{"input", "data.csv"}, {"rule file", "rules.yaml"}}));
//
// "The same file" is the same device and inode, so a symbolic link, a hard
// link or another spelling of the path (./data.csv, dir/../data.csv) is
// caught; an output that does not exist yet is never an input.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"

namespace griffin {

struct GuardedFile {
  std::string role;  // "input", "rule file", "--quarantine" (for the message)
  std::string path;  // "-" (standard input) is skipped
};

// A UsageError (exit 2) when `output_path` is the same file as one of
// `files`: "--clean data.csv: is the input data.csv (the same file); writing
// it would replace the input; choose another path". OK when the output does
// not exist, or names none of them. Nothing is written or created.
Status RefuseOutputOverFiles(const std::string& option, const std::string& output_path,
                             const std::vector<GuardedFile>& files);

}  // namespace griffin
