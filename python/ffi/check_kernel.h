// The counting kernel behind griffin.jax.check: one pass over a tensor,
// counting NaN, infinite and out-of-range elements. Header-only and free of
// XLA so that the CPU handler, the CUDA handler (same element decoding) and
// the unit test share it.
//
// Contract: `nan` counts NaN; `inf` counts +-inf; `out_of_range` counts the
// non-NaN elements below `lo` or above `hi` (so an inf beyond a finite bound
// is counted both as inf and out of range). lo = -inf and hi = +inf mean no
// bound. Integer tensors have no NaN or inf.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GRIFFIN_HD __host__ __device__
#else
#define GRIFFIN_HD
#endif

namespace griffin::jax_ffi {

struct CheckCounts {
  int64_t nan = 0;
  int64_t inf = 0;
  int64_t out_of_range = 0;
};

// bfloat16: the high half of a float32.
GRIFFIN_HD inline float Bf16ToFloat(uint16_t raw) {
  uint32_t bits = static_cast<uint32_t>(raw) << 16;
  float out;
  memcpy(&out, &bits, sizeof(out));
  return out;
}

// IEEE binary16.
GRIFFIN_HD inline float F16ToFloat(uint16_t raw) {
  const uint32_t sign = static_cast<uint32_t>(raw & 0x8000u) << 16;
  const uint32_t exponent = (raw >> 10) & 0x1fu;
  uint32_t mantissa = raw & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);            // inf / NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;                                              // +-0
  } else {                                                    // subnormal: normalize
    uint32_t shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float out;
  memcpy(&out, &bits, sizeof(out));
  return out;
}

// Adds one element's verdict to `counts`.
GRIFFIN_HD inline void CountValue(double value, double lo, double hi, CheckCounts* counts) {
  if (value != value) {
    ++counts->nan;
    return;
  }
  if (value == INFINITY || value == -INFINITY) ++counts->inf;
  if (value < lo || value > hi) ++counts->out_of_range;
}

enum class ElementKind { kF16, kBF16, kF32, kF64, kS8, kS16, kS32, kS64, kU8, kU16, kU32, kU64, kUnsupported };

GRIFFIN_HD inline double LoadElement(const void* data, int64_t index, ElementKind kind) {
  switch (kind) {
    case ElementKind::kF16: return F16ToFloat(static_cast<const uint16_t*>(data)[index]);
    case ElementKind::kBF16: return Bf16ToFloat(static_cast<const uint16_t*>(data)[index]);
    case ElementKind::kF32: return static_cast<const float*>(data)[index];
    case ElementKind::kF64: return static_cast<const double*>(data)[index];
    case ElementKind::kS8: return static_cast<const int8_t*>(data)[index];
    case ElementKind::kS16: return static_cast<const int16_t*>(data)[index];
    case ElementKind::kS32: return static_cast<const int32_t*>(data)[index];
    case ElementKind::kS64: return static_cast<double>(static_cast<const int64_t*>(data)[index]);
    case ElementKind::kU8: return static_cast<const uint8_t*>(data)[index];
    case ElementKind::kU16: return static_cast<const uint16_t*>(data)[index];
    case ElementKind::kU32: return static_cast<const uint32_t*>(data)[index];
    case ElementKind::kU64: return static_cast<double>(static_cast<const uint64_t*>(data)[index]);
    default: return 0;
  }
}

// The host loop for float types: branch-free, so the compiler vectorizes it.
// Comparisons are in double (exact for every float value and bound).
template <typename T>
inline CheckCounts CountTyped(const T* data, int64_t n, double lo, double hi) {
  int64_t nan = 0, inf = 0, out_of_range = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double value = static_cast<double>(data[i]);
    nan += value != value;
    inf += (value == INFINITY) | (value == -INFINITY);
    out_of_range += (value < lo) | (value > hi);
  }
  return {nan, inf, out_of_range};
}

inline CheckCounts CountHost(const void* data, int64_t n, ElementKind kind, double lo, double hi) {
  switch (kind) {
    case ElementKind::kF32: return CountTyped(static_cast<const float*>(data), n, lo, hi);
    case ElementKind::kF64: return CountTyped(static_cast<const double*>(data), n, lo, hi);
    default: {
      CheckCounts counts;
      for (int64_t i = 0; i < n; ++i) CountValue(LoadElement(data, i, kind), lo, hi, &counts);
      return counts;
    }
  }
}

}  // namespace griffin::jax_ffi
