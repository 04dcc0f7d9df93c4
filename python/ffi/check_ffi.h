// What the CPU and CUDA handlers of griffin.jax.check share: the XLA FFI
// binding (attributes), the element-type mapping and the raise-mode message.
//
// The call: one operand x (any float or integer type, any shape), attributes
//   lo, hi: f64 (+-inf: no bound), finite: bool, raise: bool;
// one result: counts, s32[3] or s64[3] = (NaN, inf, out of range).
// In raise mode the handler fails the computation with a message when
// (finite and NaN + inf > 0) or out of range > 0.
#pragma once

#include <cstdio>
#include <string>

#include "check_kernel.h"
#include "xla/ffi/api/ffi.h"

namespace griffin::jax_ffi {

namespace ffi = xla::ffi;

inline ElementKind KindOf(ffi::DataType type) {
  switch (type) {
    case ffi::DataType::F16: return ElementKind::kF16;
    case ffi::DataType::BF16: return ElementKind::kBF16;
    case ffi::DataType::F32: return ElementKind::kF32;
    case ffi::DataType::F64: return ElementKind::kF64;
    case ffi::DataType::S8: return ElementKind::kS8;
    case ffi::DataType::S16: return ElementKind::kS16;
    case ffi::DataType::S32: return ElementKind::kS32;
    case ffi::DataType::S64: return ElementKind::kS64;
    case ffi::DataType::U8: return ElementKind::kU8;
    case ffi::DataType::U16: return ElementKind::kU16;
    case ffi::DataType::U32: return ElementKind::kU32;
    case ffi::DataType::U64: return ElementKind::kU64;
    default: return ElementKind::kUnsupported;
  }
}

inline bool Violated(const CheckCounts& counts, bool finite) {
  return (finite && counts.nan + counts.inf > 0) || counts.out_of_range > 0;
}

inline std::string ShapeText(ffi::AnyBuffer::Dimensions dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
  return out + "]";
}

inline std::string BoundText(double value) {
  char text[32];
  snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

// "griffin.jax.check failed: 3 NaN, 0 inf, 2 out of range [0, 1] in a tensor of shape [128,4] (512 elements)".
inline std::string FailureMessage(const CheckCounts& counts, double lo, double hi, bool finite,
                                  ffi::AnyBuffer::Dimensions dims, int64_t elements) {
  std::string message = "griffin.jax.check failed: ";
  if (finite) message += std::to_string(counts.nan) + " NaN, " + std::to_string(counts.inf) + " inf, ";
  message += std::to_string(counts.out_of_range) + " out of range [" + BoundText(lo) + ", " + BoundText(hi) +
             "] in a tensor of shape " + ShapeText(dims) + " (" + std::to_string(elements) +
             " elements)";
  return message;
}

// Checks the operand and result types; sets *kind for the operand.
inline ffi::Error CheckOperands(const ffi::AnyBuffer& x, const ffi::AnyBuffer& counts, ElementKind* kind) {
  *kind = KindOf(x.element_type());
  if (*kind == ElementKind::kUnsupported)
    return ffi::Error::InvalidArgument("griffin.jax.check: unsupported element type (floats and integers only)");
  if (counts.element_count() != 3 ||
      (counts.element_type() != ffi::DataType::S32 && counts.element_type() != ffi::DataType::S64))
    return ffi::Error::InvalidArgument("griffin.jax.check: the counts result must be s32[3] or s64[3]");
  return ffi::Error::Success();
}

}  // namespace griffin::jax_ffi

// The binding both handlers use (the CUDA one adds the stream context first).
#define GRIFFIN_CHECK_ATTRS                                                                          \
  .Arg<::xla::ffi::AnyBuffer>().Attr<double>("lo").Attr<double>("hi").Attr<bool>("finite").Attr<bool>( \
      "raise").Ret<::xla::ffi::AnyBuffer>()
