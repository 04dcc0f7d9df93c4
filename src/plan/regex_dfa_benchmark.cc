// The benchmark suite's e-mail regex per 30-byte value: RE2 (the path before
// RegexDfa) against the DFA, as the column kernel calls each.
//   ./build/griffin_benchmarks --benchmark_filter=EmailRegex
// ns_per_value is the figure issue 16 targets (< 15 ns).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "plan/regex_dfa.h"

namespace griffin {
namespace {

const char* kEmail = "^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$";

// 30-byte e-mail addresses like the benchmark data's (about 1 in 50 malformed).
std::vector<std::string> Emails() {
  std::mt19937_64 random(42);
  std::vector<std::string> out;
  const char* names[] = {"sam.brown", "mary.ivanova", "li.wei", "jose.garcia"};
  const char* domains[] = {"example.com", "corp.example.net", "mail.example.org"};
  for (int i = 0; i < 65536; ++i) {
    std::string email = std::string(names[random() % 4]) + std::to_string(random() % 1000) + "@" + domains[random() % 3];
    if (random() % 50 == 0) email.replace(email.find('@'), 1, " ");
    email.resize(30, 'x');
    out.push_back(email);
  }
  return out;
}

void BM_EmailRegexRe2(benchmark::State& state) {
  const std::vector<std::string> emails = Emails();
  RE2 re(kEmail);
  int64_t matched = 0;
  for (auto _ : state) {
    for (const std::string& e : emails)
      matched += re.Match(re2::StringPiece(e.data(), e.size()), 0, e.size(), RE2::ANCHOR_BOTH, nullptr, 0);
  }
  benchmark::DoNotOptimize(matched);
  state.counters["ns_per_value"] = benchmark::Counter(static_cast<double>(emails.size()) * state.iterations(),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EmailRegexRe2)->Unit(benchmark::kMillisecond);

void BM_EmailRegexDfa(benchmark::State& state) {
  const std::vector<std::string> emails = Emails();
  std::string why;
  auto dfa = RegexDfa::Compile(kEmail, &why);
  std::vector<std::string_view> views(emails.begin(), emails.end());
  std::vector<RegexDfa::Verdict> verdicts(views.size());
  int64_t matched = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < views.size(); i += 64)  // the kernel's chunks
      dfa->MatchMany(views.data() + i, std::min<size_t>(64, views.size() - i), verdicts.data() + i);
    matched += verdicts[0];
  }
  benchmark::DoNotOptimize(matched);
  state.counters["ns_per_value"] = benchmark::Counter(static_cast<double>(emails.size()) * state.iterations(),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EmailRegexDfa)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace griffin
