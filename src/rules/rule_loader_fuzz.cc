// libFuzzer target: LoadRuleText must turn any bytes into a RuleSet or a
// RuleError, never crash, hang or throw. A RuleError must name the file.
//
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc ... \
//     -lyaml-cpp -lre2 -o rule_loader_fuzz && ./rule_loader_fuzz -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rules/rule_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  griffin::Result<griffin::RuleSet> rules = griffin::LoadRuleText(text, "fuzz.yaml");
  if (rules.ok()) {
    if (rules->text != text || rules->sha256.size() != 64 || rules->dataset.empty()) std::abort();
  } else {
    if (rules.status().code() != griffin::StatusCode::kRuleError) std::abort();
    if (rules.status().message().rfind("fuzz.yaml", 0) != 0) std::abort();
  }
  return 0;
}
