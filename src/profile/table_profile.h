// TableProfile: the profile of a table being read, one ColumnState per column
// by name, as one mergeable state (design.md "One mergeable state"). A worker
// profiles one batch (AddBatch); parts merge in input order (Merge); a part's
// bytes (Serialize) merge the same way after Deserialize.
//
// Columns are matched by name. A column that one part lacks counts that
// part's rows as nulls (a later file with an extra column, a JSON key that
// appears late), so rows() is the same for every column. Columns keep the
// order in which they first appeared.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/batch.h"
#include "profile/column_state.h"
#include "util/status.h"

namespace griffin {

// True when `head` (a file's first bytes, 25 or more) starts a serialized
// TableProfile of this format version.
bool IsProfileState(std::string_view head);

class TableProfile {
 public:
  // `only`: profile just these columns of the batch (null: every column).
  void AddBatch(const Batch& batch, const std::vector<std::string>* only = nullptr);
  void Merge(const TableProfile& other);

  std::string Serialize() const;
  // `name` names the bytes' source in the error (an InputError) when they
  // are not a profile state.
  static Result<TableProfile> Deserialize(std::string_view bytes, const std::string& name);

  int64_t rows() const { return rows_; }                  // every row, malformed ones included
  int64_t malformed_rows() const { return malformed_rows_; }
  const std::vector<std::pair<std::string, ColumnState>>& columns() const { return columns_; }

 private:
  ColumnState& Column(const std::string& name);

  int64_t rows_ = 0, malformed_rows_ = 0;
  std::vector<std::pair<std::string, ColumnState>> columns_;
  std::unordered_map<std::string, size_t> index_;  // name -> position in columns_
};

}  // namespace griffin
