#include "cli/profile_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/read_args.h"
#include "profile/profile_json.h"
#include "profile/profile_text.h"
#include "profile/profiler.h"
#include "io/source_registry.h"
#include "report/html/html_page.h"
#include "sinks/atomic_file.h"
#include "sinks/output_guard.h"

namespace griffin {
namespace {

Result<TableProfile> Profile(const ProfileArgs& args) {
  if (args.format != "text" && args.format != "json")
    return Status::UsageError("--format: must be text or json, got '" + args.format + "'");
  std::vector<GuardedFile> guarded;
  for (const std::string& input : args.inputs) guarded.push_back({"input", input});
  RETURN_IF_ERROR(RefuseOutputOverFiles("-o", args.output_path, guarded));
  RETURN_IF_ERROR(RefuseOutputOverFiles("--state", args.state_path, guarded));
  RETURN_IF_ERROR(RefuseOutputOverFiles("--html", args.html_path, guarded));
  if (!args.html_path.empty() && (args.html_path == args.output_path || args.html_path == args.state_path))
    return Status::UsageError("--html must be another file than -o and --state");
  ASSIGN_OR_RETURN(ReadOptions read_options, MakeReadOptions(args.read));
  return ProfilePaths(args.inputs, read_options, ProfileOptions{args.read.threads});
}

std::string JoinInputs(const std::vector<std::string>& inputs) {
  std::string joined;
  for (const std::string& input : inputs) joined += (joined.empty() ? "" : ", ") + RedactUri(input);
  return joined;
}

}  // namespace

int RunProfileCommand(const ProfileArgs& args) {
  Result<TableProfile> profile = Profile(args);
  if (!profile.ok()) {
    std::fprintf(stderr, "griffin: %s\n", profile.status().message().c_str());
    return ExitCodeFor(profile.status());
  }
  const std::string json = ProfileToJson(*profile, args.inputs);
  Status written;
  if (!args.output_path.empty()) written = WriteFileAtomically(args.output_path, json);
  if (written.ok() && !args.state_path.empty()) written = WriteFileAtomically(args.state_path, profile->Serialize());
  if (written.ok() && !args.html_path.empty()) {
    HtmlPageInput page;
    page.title = "profile of " + JoinInputs(args.inputs);
    page.profile = &*profile;
    written = WriteFileAtomically(args.html_path, RenderHtmlPage(page));
  }
  if (!written.ok()) {
    std::fprintf(stderr, "griffin: %s\n", written.message().c_str());
    return kExitInput;
  }
  const std::string out = args.format == "json" ? json : ProfileToText(*profile);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitPassed : kExitInput;
}

CLI::App* AddProfileCommand(CLI::App& app, ProfileArgs* args) {
  CLI::App* cmd = app.add_subcommand("profile", "Describe each column of the data: type, nulls, distinct, ranges, "
                                                "quantiles, histograms, top values, patterns");
  cmd->add_option("inputs", args->inputs,
                  kInputsHelp)->required();
  cmd->add_option("-o,--output", args->output_path, "Write the profile as JSON there (docs/profile.md)");
  cmd->add_option("--html", args->html_path,
                  "Write the profile as one self-contained HTML page there (histograms, top values, patterns)");
  cmd->add_option("--format", args->format, "Profile format on stdout: text (for people) or json")->capture_default_str();
  cmd->add_option("--state", args->state_path,
                  "Also write the mergeable profile state (bytes) there, for merging or as a baseline");
  AddReadOptions(cmd, &args->read);
  cmd->footer(
      "\nExit status: 0 profiled, 2 command line wrong, 3 input unreadable or output not writable.\n"
      "\nExamples:\n"
      "  griffin profile examples/transactions.csv\n"
      "  griffin profile data/ -o profile.json --html profile.html\n"
      "  griffin profile day1.parquet --format json | jq '.columns[0]'\n"
      "\nThe JSON profile is described in docs/profile.md.");
  return cmd;
}

}  // namespace griffin
