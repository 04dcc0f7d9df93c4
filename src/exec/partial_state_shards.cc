#include "exec/partial_state_shards.h"

#include <algorithm>
#include <numeric>

#include "util/byte_codec.h"

namespace griffin {
namespace {

constexpr std::string_view kKeysMagic = "griffin-keys-1";
constexpr std::string_view kDuplicatesMagic = "griffin-dups-1";

void WriteHeader(ByteWriter* out, std::string_view magic, const Plan& plan, int shard, int shards) {
  out->Bytes(magic);
  out->Bytes(GRIFFIN_VERSION);
  out->Bytes(plan.rules().sha256);
  out->I64(shard);
  out->I64(shards);
}

}  // namespace

std::vector<size_t> PartialState::KeyedChecks(const Merger& m) {
  std::vector<size_t> checks;
  for (size_t c = 0; c < m.unique_sets_.size(); ++c)
    if (m.unique_sets_[c] || m.int_sets_[c]) checks.push_back(c);
  return checks;
}

int PartialState::ShardOfKey(uint64_t hash, int shards) {
  // A numeric key is its own "hash": mix it (splitmix64's finalizer), then
  // map to [0, shards) by multiplication.
  uint64_t x = hash + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<int>((static_cast<unsigned __int128>(x) * static_cast<uint64_t>(shards)) >> 64);
}

std::vector<std::string> PartialState::WriteKeyShards(const Merger& m, int shards) {
  std::vector<int64_t> good = m.good_firsts_;
  std::sort(good.begin(), good.end());
  auto is_good = [&](int64_t row) { return static_cast<uint8_t>(std::binary_search(good.begin(), good.end(), row)); };
  std::vector<ByteWriter> outs(shards);
  for (int s = 0; s < shards; ++s) {
    WriteHeader(&outs[s], kKeysMagic, *m.plan_, s, shards);
    outs[s].I64(m.row_offset_);
    outs[s].I64(m.end_row_ >= 0 ? m.end_row_ : m.row_offset_ + m.rows_);
  }
  for (size_t c : KeyedChecks(m)) {
    std::vector<uint64_t> counts(shards, 0);
    std::vector<ByteWriter> entries(shards);
    if (m.int_sets_[c]) {
      m.int_sets_[c]->ForEach([&](uint64_t key, int64_t row) {
        const int s = ShardOfKey(key, shards);
        ++counts[s];
        entries[s].U64(key);
        entries[s].I64(row);
        entries[s].U8(is_good(row));
      });
    } else {
      m.unique_sets_[c]->ForEach([&](uint64_t hash, std::string_view key, int64_t row) {
        const int s = ShardOfKey(hash, shards);
        ++counts[s];
        entries[s].U64(hash);
        entries[s].Bytes(key);
        entries[s].I64(row);
        entries[s].U8(is_good(row));
      });
    }
    for (int s = 0; s < shards; ++s) {
      outs[s].U64(counts[s]);
      std::string bytes = entries[s].Take();
      outs[s].Raw(bytes);
    }
  }
  std::vector<std::string> blobs;
  blobs.reserve(shards);
  for (ByteWriter& out : outs) blobs.push_back(out.Take());
  return blobs;
}

Result<std::string> PartialState::MergeKeyShard(std::shared_ptr<const Plan> plan,
                                                const std::vector<std::string_view>& blobs,
                                                const std::vector<std::string>& names) {
  struct Part {
    ByteReader in;
    int64_t offset, end;
    size_t index;
  };
  std::vector<Part> parts;
  int64_t shard = -1, shards = -1;
  for (size_t i = 0; i < blobs.size(); ++i) {
    ByteReader in(blobs[i]);
    RETURN_IF_ERROR(ReadHeader(&in, kKeysMagic, "unique key shard", names[i], *plan));
    const int64_t this_shard = in.I64(), this_shards = in.I64();
    const int64_t offset = in.I64(), end = in.I64();
    if (!in.ok() || this_shards <= 0 || this_shards > kMaxKeyShards || this_shard < 0 || this_shard >= this_shards ||
        offset < 0 || end < offset)
      return Status::InputError(names[i] + ": corrupt unique key shard");
    if (shard >= 0 && (this_shard != shard || this_shards != shards))
      return Status::InputError(names[i] + ": shard " + std::to_string(this_shard) + " of " +
                                std::to_string(this_shards) + ", merged with shard " + std::to_string(shard) + " of " +
                                std::to_string(shards) + " of " + names[parts.front().index] +
                                "; merge each shard's blobs apart");
    shard = this_shard;
    shards = this_shards;
    parts.push_back({in, offset, end, i});
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.offset < y.offset; });
  for (size_t i = 1; i < parts.size(); ++i)
    if (parts[i].offset < parts[i - 1].end && parts[i].end > parts[i].offset)
      return Status::InputError(names[parts[i].index] + ": its rows (ids from " + std::to_string(parts[i].offset) +
                                ") overlap those of " + names[parts[i - 1].index]);
  Merger keys(plan, MergerOptions{0, {}, nullptr, 0, true});
  std::vector<std::vector<KeyDuplicate>> found(keys.unique_sets_.size());
  for (Part& part : parts) {
    ByteReader& in = part.in;
    auto corrupt = [&]() { return Status::InputError(names[part.index] + ": corrupt unique key shard"); };
    bool bad_row = false;
    for (size_t c : KeyedChecks(keys)) {
      const uint64_t count = in.Count(17);
      for (uint64_t k = 0; k < count && in.ok(); ++k) {
        const uint64_t hash = in.U64();
        const std::string_view key = keys.int_sets_[c] ? std::string_view() : in.Bytes();
        const int64_t row = in.I64();
        const bool good = in.U8() != 0;
        if (!in.ok()) break;
        if (row < part.offset || row >= part.end) bad_row = true;
        const int64_t first = keys.int_sets_[c] ? keys.int_sets_[c]->InsertOrFind(hash, row)
                                                : keys.unique_sets_[c]->InsertOrFind(hash, key, row);
        if (first >= 0) found[c].push_back({row, first, PartialKey(hash, key), good});
      }
    }
    if (!in.ok() || !in.at_end() || bad_row) return corrupt();
  }
  ByteWriter out;
  WriteHeader(&out, kDuplicatesMagic, *plan, static_cast<int>(std::max<int64_t>(shard, 0)),
              static_cast<int>(std::max<int64_t>(shards, 1)));
  out.U64(parts.size());
  for (const Part& part : parts) out.I64(part.offset);
  for (size_t c : KeyedChecks(keys)) {
    out.U64(found[c].size());
    for (const KeyDuplicate& d : found[c]) {
      out.I64(d.row);
      out.I64(d.first);
      out.Bytes(d.key);
      out.U8(d.good);
    }
  }
  return out.Take();
}

Result<std::unique_ptr<KeyDuplicates>> PartialState::ReadKeyDuplicates(const Merger& like,
                                                                       const std::vector<std::string_view>& blobs,
                                                                       int shards, std::vector<int64_t> part_offsets) {
  const Plan& plan = *like.plan_;
  auto duplicates = std::make_unique<KeyDuplicates>();
  const size_t checks = plan.checks().size();
  duplicates->by_check.resize(checks);
  duplicates->first_of_key.resize(checks);
  std::sort(part_offsets.begin(), part_offsets.end());
  std::vector<uint8_t> seen(shards, 0);
  const std::vector<size_t> keyed = KeyedChecks(like);
  for (size_t i = 0; i < blobs.size(); ++i) {
    const std::string name = "unique key duplicates " + std::to_string(i + 1);
    ByteReader in(blobs[i]);
    RETURN_IF_ERROR(ReadHeader(&in, kDuplicatesMagic, "unique key duplicates", name, plan));
    const int64_t shard = in.I64(), count = in.I64();
    if (!in.ok() || count != shards || shard < 0 || shard >= shards)
      return Status::InputError(name + ": duplicates of shard " + std::to_string(shard) + " of " +
                                std::to_string(count) + ", for states whose keys were split into " +
                                std::to_string(shards) + " shards");
    if (seen[shard]++)
      return Status::InputError(name + ": shard " + std::to_string(shard) + "'s duplicates were given twice");
    std::vector<int64_t> offsets(in.Count(8));
    for (int64_t& offset : offsets) offset = in.I64();
    if (in.ok() && offsets != part_offsets)
      return Status::InputError(name + ": shard " + std::to_string(shard) + " merged the keys of " +
                                std::to_string(offsets.size()) + " parts, not of the " +
                                std::to_string(part_offsets.size()) + " parts given (a shard task lost a part?)");
    bool ok = in.ok();
    for (size_t c : keyed) {
      const uint64_t n = in.Count(33);
      for (uint64_t k = 0; k < n && in.ok(); ++k) {
        KeyDuplicate d;
        d.row = in.I64();
        d.first = in.I64();
        d.key = std::string(in.Bytes());
        d.good = in.U8() != 0;
        if (d.key.size() < 8 || d.first >= d.row) ok = false;
        duplicates->first_of_key[c].emplace(d.key, d.first);
        duplicates->by_check[c].push_back(std::move(d));
      }
    }
    if (!ok || !in.ok() || !in.at_end()) return Status::InputError(name + ": corrupt unique key duplicates");
  }
  for (int s = 0; s < shards; ++s)
    if (!seen[s])
      return Status::InputError("the duplicates of unique key shard " + std::to_string(s) + " of " +
                                std::to_string(shards) + " are missing: every shard's must be merged");
  for (auto& list : duplicates->by_check)
    std::sort(list.begin(), list.end(), [](const KeyDuplicate& x, const KeyDuplicate& y) { return x.row < y.row; });
  return duplicates;
}

}  // namespace griffin
