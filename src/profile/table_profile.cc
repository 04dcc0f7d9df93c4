#include "profile/table_profile.h"

#include <algorithm>

#include "exec/column_converter.h"
#include "util/byte_codec.h"

namespace griffin {
namespace {

// The first bytes of a serialized TableProfile, with its format version.
constexpr std::string_view kMagic = "griffin-profile-1";

}  // namespace

bool IsProfileState(std::string_view head) {
  ByteReader in(head);
  return in.Bytes() == kMagic;
}

ColumnState& TableProfile::Column(const std::string& name) {
  auto [it, inserted] = index_.try_emplace(name, columns_.size());
  if (inserted) {
    columns_.emplace_back(name, ColumnState());
    columns_.back().second.AddRows(rows_ - malformed_rows_, rows_ - malformed_rows_);
  }
  return columns_[it->second].second;
}

void TableProfile::AddBatch(const Batch& batch, const std::vector<std::string>* only) {
  int64_t malformed = 0;
  for (uint8_t m : batch.malformed) malformed += m != 0;
  const int64_t well_formed = batch.num_rows - malformed;
  const uint8_t* malformed_rows = batch.malformed.empty() ? nullptr : batch.malformed.data();
  std::vector<uint8_t> seen(columns_.size(), 0);
  for (const BatchColumn& column : batch.columns) {
    if (only != nullptr && std::find(only->begin(), only->end(), column.name) == only->end()) continue;
    ColumnState& state = Column(column.name);
    seen.resize(columns_.size(), 0);
    seen[index_.at(column.name)] = 1;
    if (column.array == nullptr) {
      state.AddText(column.text.values.data(), column.text.is_null.data(), malformed_rows, batch.num_rows);
      continue;
    }
    const std::optional<ValueType> type = NaturalValueType(*column.array->type());
    if (!type) {  // lists, structs...: counted, not read
      state.MarkUnsupported();
      state.AddRows(well_formed, column.array->null_count());
      continue;
    }
    TypedColumn typed;
    bool lossy = false;
    std::string lossy_message;
    ConvertColumn(batch, &column, ConvertOptions{*type, std::nullopt}, &typed, &lossy, &lossy_message);
    state.AddTyped(typed);
  }
  rows_ += batch.num_rows;
  malformed_rows_ += malformed;
  // Columns this batch lacks: its well-formed rows are nulls there.
  for (size_t i = 0; i < columns_.size(); ++i)
    if (!seen[i]) columns_[i].second.AddRows(well_formed, well_formed);
}

void TableProfile::Merge(const TableProfile& other) {
  const int64_t other_rows = other.rows_ - other.malformed_rows_;
  for (auto& [name, state] : columns_)
    if (!other.index_.contains(name)) state.AddRows(other_rows, other_rows);
  for (const auto& [name, state] : other.columns_) {
    Column(name).Merge(state);  // a new column starts with this part's rows as nulls
  }
  rows_ += other.rows_;
  malformed_rows_ += other.malformed_rows_;
}

std::string TableProfile::Serialize() const {
  ByteWriter out;
  out.Bytes(kMagic);
  out.I64(rows_);
  out.I64(malformed_rows_);
  out.U64(columns_.size());
  for (const auto& [name, state] : columns_) {
    out.Bytes(name);
    state.Serialize(&out);
  }
  return out.Take();
}

Result<TableProfile> TableProfile::Deserialize(std::string_view bytes, const std::string& name) {
  ByteReader in(bytes);
  TableProfile profile;
  if (in.Bytes() != kMagic) return Status::InputError(name + ": not a Griffin profile state (or another version)");
  profile.rows_ = in.I64();
  profile.malformed_rows_ = in.I64();
  const uint64_t columns = in.Count(16);
  for (uint64_t i = 0; i < columns && in.ok(); ++i) {
    std::string column_name(in.Bytes());
    ColumnState state;
    if (!state.Deserialize(&in)) break;
    if (profile.rows_ < 0 || profile.malformed_rows_ < 0 || profile.malformed_rows_ > profile.rows_ ||
        state.rows() != profile.rows_ - profile.malformed_rows_)
      in.Fail();
    if (!profile.index_.try_emplace(column_name, profile.columns_.size()).second) in.Fail();
    profile.columns_.emplace_back(std::move(column_name), std::move(state));
  }
  if (!in.ok() || !in.at_end() || profile.rows_ < 0 || profile.malformed_rows_ < 0 ||
      profile.malformed_rows_ > profile.rows_)
    return Status::InputError(name + ": corrupt Griffin profile state");
  return profile;
}

}  // namespace griffin
