// The CPU handler of griffin.jax.check (XLA FFI): counts on the host in one
// pass, writes them to the s32/s64[3] result, and in raise mode fails the
// computation with the counts in the message. Exported as the C symbol
// GriffinCheckCpu, which griffin.jax registers with jax.ffi.
#include <limits>

#include "check_ffi.h"

namespace griffin::jax_ffi {
namespace {

template <typename T>
void Store(const CheckCounts& counts, void* out) {
  T* values = static_cast<T*>(out);
  auto clamp = [](int64_t v) {
    return static_cast<T>(v > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : v);
  };
  values[0] = clamp(counts.nan);
  values[1] = clamp(counts.inf);
  values[2] = clamp(counts.out_of_range);
}

ffi::Error CheckCpu(ffi::AnyBuffer x, double lo, double hi, bool finite, bool raise,
                    ffi::Result<ffi::AnyBuffer> counts) {
  ElementKind kind;
  if (ffi::Error error = CheckOperands(x, *counts, &kind); error.failure()) return error;
  const int64_t n = static_cast<int64_t>(x.element_count());
  const CheckCounts found = CountHost(x.untyped_data(), n, kind, lo, hi);
  if (counts->element_type() == ffi::DataType::S32) Store<int32_t>(found, counts->untyped_data());
  else Store<int64_t>(found, counts->untyped_data());
  if (raise && Violated(found, finite))
    return ffi::Error(ffi::ErrorCode::kFailedPrecondition, FailureMessage(found, lo, hi, finite, x.dimensions(), n));
  return ffi::Error::Success();
}

}  // namespace
}  // namespace griffin::jax_ffi

XLA_FFI_DEFINE_HANDLER_SYMBOL(GriffinCheckCpu, griffin::jax_ffi::CheckCpu,
                              ::xla::ffi::Ffi::Bind() GRIFFIN_CHECK_ATTRS);
