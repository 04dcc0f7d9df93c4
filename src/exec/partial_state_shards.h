// Sharded `unique` keys of partial states (PartialState::Serialize's
// key_shards): what the driver's merge takes instead of every part's key set.
//
// A part's shard blob ("griffin-keys-1"): the version, the rules' sha256, the
// shard and shard count, the part's row range, then per `unique` check with a
// key set its keys of that shard: the key, its first row in the part and
// whether that row was good there. MergeKeyShard merges every part's blob of
// one shard in row-id order into the shard's duplicates ("griffin-dups-1"):
// the parts' row offsets, then per check the rows whose key an earlier part
// holds (row, the key's first row, the key, good). A key lives in one shard,
// so the shards' duplicates together are exactly the cross-part duplicates
// that merging the key sets on one machine finds.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/partial_state.h"

namespace griffin {

struct KeyDuplicates {
  // Per check index: the duplicates, by row.
  std::vector<std::vector<KeyDuplicate>> by_check;
  // Per check index: a duplicated key's first row over all parts.
  std::vector<std::unordered_map<std::string, int64_t>> first_of_key;
};

}  // namespace griffin
