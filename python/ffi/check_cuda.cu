// The CUDA handler of griffin.jax.check (XLA FFI), built only where nvcc
// exists (CMake's check_language(CUDA), or python/ffi/build_cuda.sh on a GPU
// machine). One grid-stride pass with per-block reduction in shared memory,
// one atomic add per block into the device-side counts; raise mode copies the
// three counts back on XLA's stream to decide. Exported as GriffinCheckCuda.
#include <cuda_runtime.h>

#include "check_ffi.h"

namespace griffin::jax_ffi {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

template <typename Out>
__global__ void CountKernel(const void* data, int64_t n, ElementKind kind, double lo, double hi, Out* counts) {
  CheckCounts local;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    CountValue(LoadElement(data, i, kind), lo, hi, &local);
  __shared__ unsigned long long block[3];
  if (threadIdx.x == 0) block[0] = block[1] = block[2] = 0;
  __syncthreads();
  atomicAdd(&block[0], static_cast<unsigned long long>(local.nan));
  atomicAdd(&block[1], static_cast<unsigned long long>(local.inf));
  atomicAdd(&block[2], static_cast<unsigned long long>(local.out_of_range));
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (sizeof(Out) == 8) {
      for (int k = 0; k < 3; ++k) atomicAdd(reinterpret_cast<unsigned long long*>(counts) + k, block[k]);
    } else {
      for (int k = 0; k < 3; ++k) atomicAdd(reinterpret_cast<int*>(counts) + k, static_cast<int>(block[k]));
    }
  }
}

ffi::Error CheckCuda(cudaStream_t stream, ffi::AnyBuffer x, double lo, double hi, bool finite, bool raise,
                     ffi::Result<ffi::AnyBuffer> counts) {
  ElementKind kind;
  if (ffi::Error error = CheckOperands(x, *counts, &kind); error.failure()) return error;
  const int64_t n = static_cast<int64_t>(x.element_count());
  const bool wide = counts->element_type() == ffi::DataType::S64;
  cudaMemsetAsync(counts->untyped_data(), 0, counts->size_bytes(), stream);
  const int64_t wanted = (n + kThreads - 1) / kThreads;
  const int blocks = static_cast<int>(wanted < 1 ? 1 : wanted > kMaxBlocks ? kMaxBlocks : wanted);
  if (wide) CountKernel<int64_t><<<blocks, kThreads, 0, stream>>>(x.untyped_data(), n, kind, lo, hi,
                                                                   static_cast<int64_t*>(counts->untyped_data()));
  else CountKernel<int32_t><<<blocks, kThreads, 0, stream>>>(x.untyped_data(), n, kind, lo, hi,
                                                              static_cast<int32_t*>(counts->untyped_data()));
  if (cudaError_t launch = cudaGetLastError(); launch != cudaSuccess)
    return ffi::Error::Internal(std::string("griffin.jax.check: kernel launch failed: ") + cudaGetErrorString(launch));
  if (!raise) return ffi::Error::Success();
  int64_t host[3] = {0, 0, 0};
  if (wide) {
    cudaMemcpyAsync(host, counts->untyped_data(), sizeof(host), cudaMemcpyDeviceToHost, stream);
  } else {
    int32_t narrow[3];
    cudaMemcpyAsync(narrow, counts->untyped_data(), sizeof(narrow), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    for (int k = 0; k < 3; ++k) host[k] = narrow[k];
  }
  if (cudaError_t sync = cudaStreamSynchronize(stream); sync != cudaSuccess)
    return ffi::Error::Internal(std::string("griffin.jax.check: ") + cudaGetErrorString(sync));
  const CheckCounts found{host[0], host[1], host[2]};
  if (Violated(found, finite))
    return ffi::Error(ffi::ErrorCode::kFailedPrecondition, FailureMessage(found, lo, hi, finite, x.dimensions(), n));
  return ffi::Error::Success();
}

}  // namespace
}  // namespace griffin::jax_ffi

XLA_FFI_DEFINE_HANDLER_SYMBOL(GriffinCheckCuda, griffin::jax_ffi::CheckCuda,
                              ::xla::ffi::Ffi::Bind().Ctx<::xla::ffi::PlatformStream<cudaStream_t>>()
                                  GRIFFIN_CHECK_ATTRS);
