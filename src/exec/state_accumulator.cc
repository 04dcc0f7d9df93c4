#include "exec/state_accumulator.h"

namespace griffin {

StateAccumulator::StateAccumulator(std::shared_ptr<const Plan> plan, PartialState::UniqueScope unique,
                                   int64_t max_violations)
    : plan_(std::move(plan)), unique_(unique), max_violations_(max_violations) {}

int64_t StateAccumulator::rows() const { return whole_ ? whole_->rows() : 0; }

Status StateAccumulator::Add(std::string_view state, const std::string& name) {
  if (finished_) return Status::Internal("StateAccumulator::Add after Finish");
  Merger part(plan_, MergerOptions{max_violations_, {}, nullptr, 0, true});
  int64_t part_end = 0;
  RETURN_IF_ERROR(PartialState::Read(state, name, &part, &part_end));
  if (part.rows() > 0 && part.row_offset() < end_row_) {
    return Status::InputError(name + ": its rows (ids from " + std::to_string(part.row_offset()) +
                              ") come before the end of the parts merged so far (" + std::to_string(end_row_) + ")");
  }
  if (!whole_) {
    whole_ = std::make_unique<Merger>(plan_, MergerOptions{max_violations_, {}, nullptr, part.row_offset(), true});
  }
  PartialState::Absorb(whole_.get(), part, nullptr, unique_);
  if (part.rows() > 0) end_row_ = part_end;
  ++parts_;
  return Status::OK();
}

Report StateAccumulator::Finish() {
  finished_ = true;
  if (!whole_) whole_ = std::make_unique<Merger>(plan_, MergerOptions{max_violations_, {}, nullptr, 0, true});
  return PartialState::FinishMerged(*whole_);
}

}  // namespace griffin
