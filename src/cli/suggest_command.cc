#include "cli/suggest_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "profile/profiler.h"
#include "profile/rule_suggester.h"
#include "sinks/atomic_file.h"
#include "sinks/output_guard.h"

namespace griffin {
namespace {

Result<std::string> Suggest(const SuggestArgs& args) {
  std::vector<GuardedFile> guarded;
  for (const std::string& input : args.inputs) guarded.push_back({"input", input});
  RETURN_IF_ERROR(RefuseOutputOverFiles("-o", args.output_path, guarded));
  ASSIGN_OR_RETURN(ReadOptions read_options, MakeReadOptions(args.read));
  ASSIGN_OR_RETURN(TableProfile profile, ProfilePaths(args.inputs, read_options, ProfileOptions{args.read.threads}));
  SuggestOptions options;
  options.dataset = args.dataset.empty() ? DatasetNameFor(args.inputs.front()) : args.dataset;
  options.inputs = args.inputs;
  if (!args.read.input_format.empty()) options.format = args.read.input_format;
  options.delimiter = read_options.delimiter;
  options.header = read_options.header;
  options.null_values = read_options.null_values;
  return SuggestRules(profile, options);
}

}  // namespace

int RunSuggestCommand(const SuggestArgs& args) {
  Result<std::string> rules = Suggest(args);
  Status written = rules.ok() ? Status::OK() : rules.status();
  if (written.ok() && !args.output_path.empty()) written = WriteFileAtomically(args.output_path, *rules);
  if (!written.ok()) {
    std::fprintf(stderr, "griffin: %s\n", written.message().c_str());
    return ExitCodeFor(written);
  }
  if (args.output_path.empty()) {
    std::fwrite(rules->data(), 1, rules->size(), stdout);
    if (std::fflush(stdout) != 0) return kExitInput;
  } else {
    std::fprintf(stderr, "griffin: wrote %s\n", args.output_path.c_str());
  }
  return kExitPassed;
}

CLI::App* AddSuggestCommand(CLI::App& app, SuggestArgs* args) {
  CLI::App* cmd = app.add_subcommand("suggest", "Write a rule file from the data's profile, each rule with its evidence");
  cmd->add_option("inputs", args->inputs,
                  kInputsHelp)->required();
  cmd->add_option("-o,--output", args->output_path, "Write the rule file there (default: standard output)");
  cmd->add_option("--dataset", args->dataset, "The rule file's dataset name (default: the first input's file name)");
  AddReadOptions(cmd, &args->read);
  cmd->footer(
      "\nExit status: 0 written, 2 command line wrong, 3 input unreadable or output not writable.\n"
      "\nThe data the file was made from passes it: every bound is the observed one.\n"
      "\nExamples:\n"
      "  griffin suggest examples/transactions.csv -o transactions.rules.yaml\n"
      "  griffin validate -r transactions.rules.yaml examples/transactions.csv\n"
      "\nWhich rules are suggested, and why: docs/profile.md.");
  return cmd;
}

}  // namespace griffin
