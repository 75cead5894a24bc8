/* bench-kernels' L2 flush: reading a buffer larger than the L2 leaves it full
 * of clean lines, so no write-back of the flush lands inside the next timed
 * run (a memset would leave dirty lines behind). */
#include "flush-l2.h"

#include <cuda_runtime.h>
#include <stdint.h>

__global__ void
k_read_all (const uint4 * p, size_t n, unsigned int *sink)
{
  uint32_t acc = 0;

  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
      i += (size_t) gridDim.x * blockDim.x) {
    uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  /* a store the compiler cannot drop keeps the loads */
  if (acc == 0x9e3779b9u)
    *sink = acc;
}

cudaError_t
bench_flush_l2 (const void *buf, size_t bytes, unsigned int *sink,
    cudaStream_t s)
{
  k_read_all<<<1024, 256, 0, s>>> (static_cast<const uint4 *>(buf),
      bytes / sizeof (uint4), sink);
  return cudaGetLastError ();
}
