#include "exec/partial_state.h"

#include "exec/partial_state_shards.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "exec/violation_messages.h"
#include "util/byte_codec.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// The first bytes of a serialized partial state, with its format version.
constexpr std::string_view kMagic = "griffin-partial-1";

uint64_t KeyHash(const std::string& key) {
  uint64_t hash = 0;
  if (key.size() >= 8) std::memcpy(&hash, key.data(), 8);
  return hash;
}

// A unique key shown as the report shows the value it came from (Arrow
// data: numbers bare, dates and timestamps as ISO strings). Row tuples have no value.
ValueView KeyValue(const Plan& plan, int slot, const std::string& key) {
  if (slot < 0 || key.size() < 8) return ValueView::Null();
  const uint64_t numeric = KeyHash(key);
  switch (plan.columns()[slot].type) {
    case ValueType::kString: return ValueView::Of(JsonScalar::Kind::kString, std::string_view(key).substr(8));
    case ValueType::kInt64:
      return ValueView::Formatted(JsonScalar::Kind::kRaw, std::to_string(static_cast<int64_t>(numeric)));
    case ValueType::kBool: return ValueView::Formatted(JsonScalar::Kind::kRaw, numeric ? "true" : "false");
    case ValueType::kDate:
      return ValueView::Formatted(JsonScalar::Kind::kString, FormatDate(static_cast<int64_t>(numeric)));
    case ValueType::kTimestamp:
      return ValueView::Formatted(JsonScalar::Kind::kString, FormatTimestamp(static_cast<int64_t>(numeric)));
    case ValueType::kFloat64: {
      double value;
      std::memcpy(&value, &numeric, 8);
      return ValueView::Number(value);
    }
  }
  return ValueView::Null();
}

void PutScalar(const JsonScalar& scalar, ByteWriter* out) {
  out->U8(static_cast<uint8_t>(scalar.kind));
  out->Bytes(scalar.text);
  out->U8(scalar.number.has_value());
  out->F64(scalar.number.value_or(0));
}

JsonScalar GetScalar(ByteReader* in) {
  JsonScalar scalar;
  const uint8_t kind = in->U8();
  if (kind > static_cast<uint8_t>(JsonScalar::Kind::kRaw)) in->Fail();
  scalar.kind = static_cast<JsonScalar::Kind>(kind);
  scalar.text = std::string(in->Bytes());
  const bool has_number = in->U8();
  const double number = in->F64();
  if (has_number) scalar.number = number;
  return scalar;
}

int64_t EndRowOf(int64_t offset, int64_t rows, int64_t end_row) { return end_row >= 0 ? end_row : offset + rows; }

}  // namespace

std::string PartialState::Serialize(const Merger& m, bool text_input, int key_shards,
                                    std::vector<std::string>* shards) {
  ByteWriter out;
  out.Bytes(kMagic);
  out.Bytes(GRIFFIN_VERSION);
  out.Bytes(m.plan_->rules().sha256);
  out.I64(m.row_offset_);
  out.I64(m.rows_);
  out.I64(EndRowOf(m.row_offset_, m.rows_, m.end_row_));
  out.I64(m.bad_rows_);
  out.I64(m.malformed_rows_);
  out.I64(m.rows_before_schema_error_);
  out.U8(static_cast<uint8_t>(m.saw_text_batch_ | ((text_input || m.text_input_) << 1)));
  out.I64(m.max_violations_);
  out.U64(m.evaluated_.size());
  for (size_t c = 0; c < m.evaluated_.size(); ++c) {
    out.I64(m.evaluated_[c]);
    out.I64(m.violations_[c]);
  }
  out.U64(m.schema_errors_.size());
  for (const SchemaError& error : m.schema_errors_) {
    out.Bytes(error.column);
    out.Bytes(error.message);
  }
  out.U64(m.violations_list_.size());
  for (size_t i = 0; i < m.violations_list_.size(); ++i) {
    const ViolationReport& v = m.violations_list_[i];
    out.I64(v.row);
    out.I64(m.violation_positions_[i]);
    out.Bytes(v.check);
    PutScalar(v.value, &out);
    out.Bytes(v.message);
    out.Bytes(m.violation_keys_[i]);
  }
  for (const auto& metrics : m.metrics_)
    if (metrics) metrics->Serialize(&out);
  const int sharded = shards ? std::clamp(key_shards, 0, kMaxKeyShards) : 0;
  out.U64(static_cast<uint64_t>(sharded));
  if (sharded > 0) {
    *shards = WriteKeyShards(m, sharded);
  } else {
    for (size_t c = 0; c < m.unique_sets_.size(); ++c) {
      if (m.int_sets_[c]) {
        out.U64(static_cast<uint64_t>(m.int_sets_[c]->size()));
        m.int_sets_[c]->ForEach([&](uint64_t key, int64_t row) { out.U64(key); out.I64(row); });
      } else if (m.unique_sets_[c]) {
        out.U64(static_cast<uint64_t>(m.unique_sets_[c]->size()));
        m.unique_sets_[c]->ForEach([&](uint64_t hash, std::string_view key, int64_t row) {
          out.U64(hash);
          out.Bytes(key);
          out.I64(row);
        });
      }
    }
    std::vector<int64_t> good = m.good_firsts_;
    std::sort(good.begin(), good.end());
    good.erase(std::unique(good.begin(), good.end()), good.end());
    out.U64(good.size());
    for (int64_t row : good) out.I64(row);
  }
  out.U64(m.input_rows_.size());
  for (size_t i = 0; i < m.input_rows_.size(); ++i) {
    out.I64(m.input_rows_[i]);
    out.Bytes(i < m.input_schemas_.size() ? m.input_schemas_[i] : std::string());
  }
  return out.Take();
}

Status PartialState::ReadHeader(ByteReader* in, std::string_view magic, std::string_view what,
                                const std::string& name, const Plan& plan) {
  if (in->Bytes() != magic || !in->ok())
    return Status::InputError(name + ": not a Griffin " + std::string(what) + " (or one of another format version)");
  const std::string version(in->Bytes());
  if (version != GRIFFIN_VERSION)
    return Status::InputError(name + ": a partial state of Griffin " + version + ", this is Griffin " +
                              GRIFFIN_VERSION + "; validate every part with the same version");
  const std::string sha(in->Bytes());
  if (sha != plan.rules().sha256)
    return Status::InputError(name + ": a partial state of another rule file (sha256 " + sha.substr(0, 12) +
                              ", these rules are " + plan.rules().sha256.substr(0, 12) +
                              "); validate every part with the same rules");
  return Status::OK();
}

Status PartialState::Read(std::string_view bytes, const std::string& name, Merger* m, int64_t* end_row) {
  ByteReader in(bytes);
  RETURN_IF_ERROR(ReadHeader(&in, kMagic, "partial validation state", name, *m->plan_));
  auto corrupt = [&]() { return Status::InputError(name + ": corrupt partial validation state"); };
  m->row_offset_ = in.I64();
  m->rows_ = in.I64();
  m->end_row_ = in.I64();
  m->bad_rows_ = in.I64();
  m->malformed_rows_ = in.I64();
  m->rows_before_schema_error_ = in.I64();
  const uint8_t flags = in.U8();
  m->saw_text_batch_ = flags & 1;
  m->text_input_ = (flags >> 1) & 1;
  if (in.I64() != m->max_violations_)
    return Status::InputError(name + ": a partial state listing another number of violations per check "
                              "(max_violations); validate every part with the same one");
  if (in.U64() != m->evaluated_.size()) return corrupt();
  for (size_t c = 0; c < m->evaluated_.size(); ++c) {
    m->evaluated_[c] = in.I64();
    m->violations_[c] = in.I64();
  }
  const uint64_t schema_errors = in.Count(16);
  for (uint64_t i = 0; i < schema_errors && in.ok(); ++i) {
    std::string column(in.Bytes());
    m->schema_errors_.push_back({std::move(column), std::string(in.Bytes())});
  }
  const uint64_t violations = in.Count(64);
  for (uint64_t i = 0; i < violations && in.ok(); ++i) {
    ViolationReport v;
    v.row = in.I64();
    const int64_t position = in.I64();
    if (position < -1 || position >= static_cast<int64_t>(m->evaluated_.size())) return corrupt();
    if (position >= 0) {
      v.check = m->plan_->checks()[position].name;
      v.column = m->plan_->checks()[position].column;
      in.Bytes();
    } else {
      v.check = std::string(in.Bytes());
    }
    v.value = GetScalar(&in);
    v.message = std::string(in.Bytes());
    m->violations_list_.push_back(std::move(v));
    m->violation_positions_.push_back(static_cast<int>(position));
    m->violation_keys_.emplace_back(in.Bytes());
    if (position >= 0) ++m->listed_[position];
    else ++m->listed_malformed_;
  }
  for (auto& metrics : m->metrics_)
    if (metrics && !metrics->Deserialize(&in)) return corrupt();
  const uint64_t key_shards = in.U64();
  if (key_shards > static_cast<uint64_t>(kMaxKeyShards)) return corrupt();
  m->key_shards_ = static_cast<int>(key_shards);
  for (size_t c = 0; key_shards == 0 && c < m->unique_sets_.size() && in.ok(); ++c) {
    if (m->int_sets_[c]) {
      const uint64_t count = in.Count(16);
      m->int_sets_[c]->Reserve(static_cast<int64_t>(count));
      for (uint64_t i = 0; i < count && in.ok(); ++i) {
        const uint64_t key = in.U64();
        m->int_sets_[c]->InsertOrFind(key, in.I64());
      }
    } else if (m->unique_sets_[c]) {
      const uint64_t count = in.Count(24);
      m->unique_sets_[c]->Reserve(static_cast<int64_t>(count));
      for (uint64_t i = 0; i < count && in.ok(); ++i) {
        const uint64_t hash = in.U64();
        const std::string_view key = in.Bytes();
        const int64_t row = in.I64();
        if (in.ok()) m->unique_sets_[c]->InsertOrFind(hash, key, row);
      }
    }
  }
  const uint64_t good = key_shards == 0 ? in.Count(8) : 0;
  for (uint64_t i = 0; i < good && in.ok(); ++i) m->good_firsts_.push_back(in.I64());
  const uint64_t inputs = in.Count(16);
  for (uint64_t i = 0; i < inputs && in.ok(); ++i) {
    m->input_rows_.push_back(in.I64());
    m->input_schemas_.emplace_back(in.Bytes());
  }
  // Row ids below 2^62, so that no sum of the (disjoint) parts' counts overflows.
  constexpr int64_t kMaxRowId = int64_t{1} << 62;
  if (!in.ok() || !in.at_end() || m->row_offset_ < 0 || m->row_offset_ > kMaxRowId || m->rows_ < 0 ||
      m->rows_ > kMaxRowId - m->row_offset_ || m->end_row_ < m->row_offset_ + m->rows_ || m->end_row_ > kMaxRowId ||
      m->bad_rows_ < 0 || m->bad_rows_ > m->rows_ || m->malformed_rows_ < 0 || m->malformed_rows_ > m->rows_ ||
      m->rows_before_schema_error_ < 0 || m->rows_before_schema_error_ > m->rows_)
    return corrupt();
  for (size_t c = 0; c < m->evaluated_.size(); ++c)
    if (m->evaluated_[c] < 0 || m->evaluated_[c] > m->rows_ || m->violations_[c] < 0 ||
        m->violations_[c] > m->evaluated_[c])
      return corrupt();
  *end_row = m->end_row_;
  return Status::OK();
}

void PartialState::Absorb(Merger* a, Merger& b, std::vector<MergedRowError>* row_errors, UniqueScope unique,
                          const KeyDuplicates* sharded) {
  const Plan& plan = *a->plan_;
  const bool a_had_schema_errors = !a->schema_errors_.empty();
  for (const SchemaError& error : b.schema_errors_) {
    bool seen = false;
    for (const SchemaError& e : a->schema_errors_) seen = seen || (e.column == error.column && e.message == error.message);
    if (!seen) a->schema_errors_.push_back(error);
  }
  a->rows_before_schema_error_ += a_had_schema_errors ? 0 : b.rows_before_schema_error_;
  a->saw_text_batch_ = a->saw_text_batch_ || b.saw_text_batch_;
  a->text_input_ = a->text_input_ || b.text_input_;

  // `unique`: b's first occurrences of keys that a holds repeat a's rows.
  std::vector<int64_t> newly_bad;
  std::vector<ViolationReport> new_list;
  std::vector<int> new_positions;
  std::vector<std::string> new_keys;
  const int64_t b_end = EndRowOf(b.row_offset_, b.rows_, b.end_row_);
  for (size_t c = 0; unique == UniqueScope::kAcrossParts && c < a->unique_sets_.size(); ++c) {
    if (!a->unique_sets_[c] && !a->int_sets_[c]) continue;
    std::vector<KeyDuplicate> duplicates;
    // The global first row of b's listed duplicates' keys (-1: unchanged).
    std::function<int64_t(const std::string&)> first_of;
    if (sharded) {  // b's rows among the shards' duplicates
      const std::vector<KeyDuplicate>& all = sharded->by_check[c];
      auto at = std::lower_bound(all.begin(), all.end(), b.row_offset_,
                                 [](const KeyDuplicate& d, int64_t row) { return d.row < row; });
      for (; at != all.end() && at->row < b_end; ++at) duplicates.push_back(*at);
      first_of = [&, c](const std::string& key) {
        auto found = sharded->first_of_key[c].find(key);
        return found == sharded->first_of_key[c].end() ? int64_t{-1} : found->second;
      };
    } else {
      auto good = [&](int64_t row) { return std::binary_search(b.good_firsts_.begin(), b.good_firsts_.end(), row); };
      if (a->int_sets_[c]) {
        b.int_sets_[c]->ForEach([&](uint64_t key, int64_t row) {
          const int64_t first = a->int_sets_[c]->InsertOrFind(key, row);
          if (first >= 0) duplicates.push_back({row, first, PartialKey(key, {}), good(row)});
        });
      } else {
        b.unique_sets_[c]->ForEach([&](uint64_t hash, std::string_view key, int64_t row) {
          const int64_t first = a->unique_sets_[c]->InsertOrFind(hash, key, row);
          if (first >= 0) duplicates.push_back({row, first, PartialKey(hash, key), good(row)});
        });
      }
      first_of = [&, c](const std::string& key) {
        return a->int_sets_[c] ? a->int_sets_[c]->InsertOrFind(KeyHash(key), 0)
                               : a->unique_sets_[c]->InsertOrFind(KeyHash(key), std::string_view(key).substr(8), 0);
      };
    }
    a->violations_[c] += static_cast<int64_t>(duplicates.size());
    const CheckInfo& info = plan.checks()[c];
    if (info.options.severity == Severity::kError) {
      for (const KeyDuplicate& d : duplicates) {
        if (d.good) newly_bad.push_back(d.row);
        if (row_errors)
          row_errors->push_back({d.row, {info.name, ViolationMessage(plan, static_cast<int>(c), a->column_checks_[c],
                                                                     KeyValue(plan, a->check_slot_[c], d.key),
                                                                     d.row, d.first)}});
      }
    }
    // b's listed duplicates of such keys repeat a's row now, not b's.
    for (size_t i = 0; i < b.violations_list_.size(); ++i) {
      if (b.violation_positions_[i] != static_cast<int>(c) || b.violation_keys_[i].empty()) continue;
      const std::string& key = b.violation_keys_[i];
      const int64_t first = first_of(key);
      if (first < 0) continue;
      const int slot = a->check_slot_[c];
      b.violations_list_[i].message = ViolationMessage(plan, static_cast<int>(c), a->column_checks_[c],
                                                       KeyValue(plan, slot, key), b.violations_list_[i].row, first);
    }
    // Only the first max_violations can be listed.
    const size_t keep = static_cast<size_t>(std::max<int64_t>(0, a->max_violations_));
    if (duplicates.size() > keep) {
      std::nth_element(duplicates.begin(), duplicates.begin() + keep, duplicates.end(),
                       [](const KeyDuplicate& x, const KeyDuplicate& y) { return x.row < y.row; });
      duplicates.resize(keep);
    }
    for (KeyDuplicate& d : duplicates) {
      const ValueView value = KeyValue(plan, a->check_slot_[c], d.key);
      ViolationReport v;
      v.row = d.row;
      v.column = info.column;
      v.check = info.name;
      v.value = ReportValue(value);
      v.message = ViolationMessage(plan, static_cast<int>(c), a->column_checks_[c], value, d.row, d.first);
      new_list.push_back(std::move(v));
      new_positions.push_back(static_cast<int>(c));
      new_keys.push_back(std::move(d.key));
    }
  }
  std::sort(newly_bad.begin(), newly_bad.end());
  newly_bad.erase(std::unique(newly_bad.begin(), newly_bad.end()), newly_bad.end());
  if (b.rows_ > 0) a->end_row_ = b_end;
  else if (a->rows_ == 0) a->end_row_ = -1;
  a->rows_ += b.rows_;
  a->bad_rows_ += b.bad_rows_ + static_cast<int64_t>(newly_bad.size());
  a->malformed_rows_ += b.malformed_rows_;
  for (size_t c = 0; c < a->evaluated_.size(); ++c) {
    a->evaluated_[c] += b.evaluated_[c];
    a->violations_[c] += b.violations_[c];
  }
  if (unique == UniqueScope::kAcrossParts) {
    for (int64_t row : b.good_firsts_)
      if (!std::binary_search(newly_bad.begin(), newly_bad.end(), row)) a->good_firsts_.push_back(row);
  }

  // The listed violations: a's, b's and the new duplicates, by (row, check),
  // the first max_violations of each check.
  std::vector<ViolationReport> all = std::move(a->violations_list_);
  std::vector<int> positions = std::move(a->violation_positions_);
  std::vector<std::string> keys = std::move(a->violation_keys_);
  for (size_t i = 0; i < b.violations_list_.size(); ++i) {
    all.push_back(std::move(b.violations_list_[i]));
    positions.push_back(b.violation_positions_[i]);
    keys.push_back(std::move(b.violation_keys_[i]));
  }
  for (size_t i = 0; i < new_list.size(); ++i) {
    all.push_back(std::move(new_list[i]));
    positions.push_back(new_positions[i]);
    keys.push_back(std::move(new_keys[i]));
  }
  std::vector<size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return all[x].row != all[y].row ? all[x].row < all[y].row : positions[x] < positions[y];
  });
  a->violations_list_.clear();
  a->violation_positions_.clear();
  a->violation_keys_.clear();
  std::fill(a->listed_.begin(), a->listed_.end(), 0);
  a->listed_malformed_ = 0;
  for (size_t i : order) {
    int64_t& listed = positions[i] < 0 ? a->listed_malformed_ : a->listed_[positions[i]];
    if (listed >= a->max_violations_) continue;
    ++listed;
    a->violations_list_.push_back(std::move(all[i]));
    a->violation_positions_.push_back(positions[i]);
    a->violation_keys_.push_back(std::move(keys[i]));
  }

  for (size_t slot = 0; slot < a->metrics_.size(); ++slot)
    if (a->metrics_[slot]) a->metrics_[slot]->Merge(*b.metrics_[slot]);
  if (a->input_rows_.size() < b.input_rows_.size()) a->input_rows_.resize(b.input_rows_.size(), 0);
  if (a->input_schemas_.size() < b.input_schemas_.size()) a->input_schemas_.resize(b.input_schemas_.size());
  for (size_t i = 0; i < b.input_rows_.size(); ++i) {
    a->input_rows_[i] += b.input_rows_[i];
    if (a->input_schemas_[i].empty()) a->input_schemas_[i] = b.input_schemas_[i];
  }
}

Result<std::unique_ptr<Merger>> PartialState::MergeParts(std::shared_ptr<const Plan> plan,
                                                         const std::vector<std::string_view>& states,
                                                         const std::vector<std::string>& names,
                                                         std::vector<MergedRowError>* row_errors,
                                                         const std::vector<std::string_view>& key_duplicates) {
  struct Part {
    std::unique_ptr<Merger> merger;
    int64_t end_row;
    size_t index;
  };
  std::vector<Part> parts;
  int64_t max_violations = -1;
  for (size_t i = 0; i < states.size(); ++i) {
    // The state's max_violations sits after its header; read it first so the
    // merger is built with it.
    if (max_violations < 0) {
      ByteReader probe(states[i]);
      for (int field = 0; field < 3; ++field) probe.Bytes();
      for (int field = 0; field < 6; ++field) probe.I64();
      probe.U8();
      max_violations = probe.I64();
      if (!probe.ok() || max_violations < 0) max_violations = kDefaultMaxViolations;
    }
    auto merger = std::make_unique<Merger>(plan, MergerOptions{max_violations, {}, nullptr, 0, true});
    int64_t end_row = 0;
    RETURN_IF_ERROR(Read(states[i], names[i], merger.get(), &end_row));
    parts.push_back({std::move(merger), end_row, i});
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const Part& x, const Part& y) { return x.merger->row_offset() < y.merger->row_offset(); });
  // Sharded keys: every part's, and the duplicates of every shard.
  const int key_shards = parts.empty() ? 0 : parts.front().merger->key_shards_;
  std::vector<int64_t> offsets;
  for (const Part& part : parts) {
    if (part.merger->key_shards_ != key_shards)
      return Status::InputError(names[part.index] + ": its unique keys were " +
                                (key_shards ? "not sharded" : "sharded") + " and " + names[parts.front().index] +
                                "'s were " + (key_shards ? "sharded" : "not") + "; split every part's keys alike");
    offsets.push_back(part.merger->row_offset());
  }
  std::unique_ptr<KeyDuplicates> sharded;
  if (key_shards > 0 && key_duplicates.empty()) {
    return Status::InputError(names[parts.front().index] + ": its unique keys were sharded: it merges only into a "
                              "report, given every shard's duplicates (MergeKeyShard's), not alone or into a state");
  } else if (key_shards > 0) {
    ASSIGN_OR_RETURN(sharded, ReadKeyDuplicates(*parts.front().merger, key_duplicates, key_shards, offsets));
  } else if (!key_duplicates.empty() && !parts.empty()) {
    return Status::InputError("key duplicates were given for states whose unique keys were not sharded");
  }
  auto whole = std::make_unique<Merger>(
      plan, MergerOptions{max_violations < 0 ? kDefaultMaxViolations : max_violations, {}, nullptr,
                          parts.empty() ? 0 : parts.front().merger->row_offset(), true});
  int64_t end_row = INT64_MIN;
  std::string last_name;
  for (Part& part : parts) {
    if (part.merger->rows() > 0) {
      if (part.merger->row_offset() < end_row)
        return Status::InputError(names[part.index] + ": its rows (ids from " +
                                  std::to_string(part.merger->row_offset()) + ") overlap those of " + last_name +
                                  "; give each part its own row_offset");
      end_row = part.end_row;
      last_name = names[part.index];
    }
    Absorb(whole.get(), *part.merger, row_errors, UniqueScope::kAcrossParts, sharded.get());
  }
  if (row_errors)
    std::stable_sort(row_errors->begin(), row_errors->end(),
                     [](const MergedRowError& x, const MergedRowError& y) { return x.row < y.row; });
  return whole;
}

Result<Report> PartialState::MergeAll(std::shared_ptr<const Plan> plan, const std::vector<std::string_view>& states,
                                      const std::vector<std::string>& names,
                                      std::vector<MergedRowError>* row_errors,
                                      const std::vector<std::string_view>& key_duplicates) {
  ASSIGN_OR_RETURN(std::unique_ptr<Merger> whole,
                   MergeParts(std::move(plan), states, names, row_errors, key_duplicates));
  return FinishMerged(*whole);
}

Report PartialState::FinishMerged(Merger& whole) { return whole.Finish(whole.text_input_); }

Result<std::string> PartialState::MergeStates(std::shared_ptr<const Plan> plan,
                                              const std::vector<std::string_view>& states,
                                              const std::vector<std::string>& names) {
  ASSIGN_OR_RETURN(std::unique_ptr<Merger> whole, MergeParts(std::move(plan), states, names, nullptr, {}));
  return Serialize(*whole, whole->text_input_);
}

}  // namespace griffin
