// libFuzzer target: a profile state is a file a user hands Griffin (`griffin
// drift A B`, a `profile:FILE` drift baseline) and bytes the run store keeps,
// so TableProfile::Deserialize must refuse damaged bytes with an error, and
// what it accepts must be safe to use: merged, written as JSON and compared
// for drift. The input edits a valid state made once from a small table of
// strings, integers, floats (NaN, infinities) and nulls, so that mutations
// reach deep into it:
//
//   bytes 0-1: how many bytes to cut off its end
//   then 3-byte edits: a 16-bit offset (modulo the state's size) and a byte.
//
//   cmake -DGRIFFIN_FUZZ=ON (clang); ./profile_state_fuzz -max_total_time=30
#include <cstddef>
#include <cstdint>
#include <string>

#include "exec/test_batches.h"
#include "profile/drift.h"
#include "profile/profile_json.h"
#include "profile/table_profile.h"

namespace {

const std::string& ValidState() {
  static const std::string state = [] {
    griffin::Batch batch;
    griffin::testing::AddTextColumn(&batch, "name", {"ann", "bob", std::nullopt, "ann", "x@y.z", "", "zed"});
    griffin::testing::AddTextColumn(&batch, "n", {"1", "-7", "12", std::nullopt, "1", "3", "900000000000"});
    griffin::testing::AddTextColumn(&batch, "x", {"0.5", "nan", "inf", "-inf", "1e300", std::nullopt, "2"});
    griffin::testing::AddTextColumn(&batch, "day", {"2024-01-01", "2024-02-30", "2023-12-31", "", "2024-01-02",
                                                    "2024-01-01", std::nullopt});
    griffin::TableProfile profile;
    profile.AddBatch(batch);
    return profile.Serialize();
  }();
  return state;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& valid = ValidState();
  std::string bytes = valid;
  if (size >= 2) bytes.resize(bytes.size() - std::min<size_t>(bytes.size(), (data[0] | (data[1] << 8)) % 64));
  for (size_t at = 2; at + 3 <= size && !bytes.empty(); at += 3)
    bytes[(data[at] | (data[at + 1] << 8)) % bytes.size()] = static_cast<char>(data[at + 2]);
  auto damaged = griffin::TableProfile::Deserialize(bytes, "fuzz.profile");
  if (!damaged.ok()) return 0;
  auto baseline = griffin::TableProfile::Deserialize(valid, "valid.profile");
  (void)griffin::ProfileToJson(*damaged, {"fuzz.profile"});
  (void)griffin::CompareProfiles(*baseline, *damaged);
  (void)griffin::CompareProfiles(*damaged, *baseline);
  griffin::TableProfile merged = *baseline;
  merged.Merge(*damaged);
  (void)griffin::ProfileToJson(merged, {"valid.profile", "fuzz.profile"});
  (void)merged.Serialize();
  return 0;
}
