// griffin._griffin._FeatureStream: the engine side of griffin.jax.batches().
// Wraps griffin::FeatureStream (reading, validation and batching on a C++
// thread); next() waits without the GIL and hands each batch's columns to
// numpy without a copy (the arrays own the 64-byte aligned Arrow buffers).
#pragma once

#include <memory>
#include <string>

#include <nanobind/nanobind.h>

#include "api/feature_stream.h"

namespace griffin::python {

class PyFeatureStream {
 public:
  // `source`: a list of paths, or an arrow_array_stream capsule (then `name`
  // names it in messages). `options` (all optional): columns: [str],
  // dtypes: {str: str}, narrow: bool, batch_size, shuffle_buffer, seed,
  // drop_remainder, prefetch, threads, read_batch_rows, max_violations,
  // quarantine: str | None. Raises RuleError for unusable columns or options.
  PyFeatureStream(PyFeatureStream&&) = default;
  // Cancels and joins the producer with the GIL released (its reader may be
  // a Python-backed Arrow stream that needs the GIL to finish).
  ~PyFeatureStream();

  static PyFeatureStream Open(std::shared_ptr<const Validator> validator, nanobind::handle source,
                              const std::string& name, const nanobind::dict& options);

  // A tuple of 1-D numpy arrays (one per column, in columns() order), or None
  // at the end. Raises the run's error (InputError, ...) in order.
  nanobind::object Next();
  void Cancel() { stream_->Cancel(); }
  // [(name, dtype, vocabulary)] of the yielded columns.
  nanobind::list Columns() const;
  int64_t clean_rows() const { return stream_->clean_rows(); }
  int64_t quarantined_rows() const { return stream_->quarantined_rows(); }
  int64_t dropped_rows() const { return stream_->dropped_rows(); }
  // The run's JSON report after the end, else None.
  nanobind::object ReportJson() const;
  // {"path", "rows", "bytes", "sha256"} of the written quarantine, else None.
  nanobind::object Quarantine() const;

 private:
  explicit PyFeatureStream(std::unique_ptr<FeatureStream> stream) : stream_(std::move(stream)) {}
  std::shared_ptr<FeatureStream> stream_;
};

void BindFeatureStream(nanobind::module_& m);

}  // namespace griffin::python
