/* cudatranspose: the few CUDA runtime calls the element needs, and the
 * result strings. */
#include "cudatranspose-kernels-tests.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

const char *
ct_result_string (CtResult result)
{
  switch (result) {
    case CT_OK:
      return "success";
    case CT_ERROR_INVALID_ARGUMENT:
      return "invalid plane description (null pointer, stride smaller than "
          "a row, or size out of range)";
    case CT_ERROR_UNSUPPORTED_ELEMENT_SIZE:
      return "element size must be 1, 2, 3, 4 or 8 bytes";
    case CT_ERROR_UNSUPPORTED_KERNEL:
      return "no such GPU kernel variant";
    case CT_ERROR_NO_DRIVER:
      return "no NVIDIA driver is installed (libcuda.so.1 could not be "
          "loaded)";
    default:
      if (result > 0)
        return cudaGetErrorString ((cudaError_t) result);
      return "unknown error";
  }
}

CtResult
ct_device_count (int *count)
{
  cudaError_t err = cudaGetDeviceCount (count);
  void *driver;

  if (err == cudaSuccess)
    return CT_OK;
  *count = 0;
  /* the runtime says "driver version is insufficient" when there is no
   * driver at all */
  if (err == cudaErrorInsufficientDriver) {
    driver = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver)
      return CT_ERROR_NO_DRIVER;
    dlclose (driver);
  }
  return (CtResult) err;
}

CtResult
ct_stream_create (CtStream * stream)
{
  cudaStream_t s = NULL;
  cudaError_t err = cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking);

  *stream = (CtStream) s;
  return (CtResult) err;
}

CtResult
ct_stream_destroy (CtStream stream)
{
  return (CtResult) cudaStreamDestroy ((cudaStream_t) stream);
}

CtResult
ct_stream_synchronize (CtStream stream)
{
  return (CtResult) cudaStreamSynchronize ((cudaStream_t) stream);
}

CtResult
ct_device_alloc (void **ptr, size_t bytes)
{
  *ptr = NULL;
  return (CtResult) cudaMalloc (ptr, bytes);
}

CtResult
ct_device_free (void *ptr)
{
  return (CtResult) cudaFree (ptr);
}

CtResult
ct_host_alloc (void **ptr, size_t bytes)
{
  *ptr = NULL;
  return (CtResult) cudaHostAlloc (ptr, bytes, cudaHostAllocPortable);
}

CtResult
ct_host_free (void *ptr)
{
  return (CtResult) cudaFreeHost (ptr);
}

CtResult
ct_host_is_pinned (const void *ptr, int *pinned)
{
  struct cudaPointerAttributes attr;
  cudaError_t err = cudaPointerGetAttributes (&attr, ptr);

  *pinned = err == cudaSuccess && attr.type == cudaMemoryTypeHost;
  if (err == cudaErrorInvalidValue) {
    /* memory CUDA has never heard of: plain pageable memory */
    cudaGetLastError ();
    return CT_OK;
  }
  return (CtResult) err;
}

CtResult
ct_copy_2d_async (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, size_t rows, CtStream stream)
{
  if (rows == 0 || row_bytes == 0)
    return CT_OK;
  return (CtResult) cudaMemcpy2DAsync (dst, dst_stride, src, src_stride,
      row_bytes, rows, cudaMemcpyDefault, (cudaStream_t) stream);
}

CtResult
ct_event_create (CtEvent * event, int timed)
{
  cudaEvent_t e = NULL;
  cudaError_t err = cudaEventCreateWithFlags (&e,
      timed ? cudaEventDefault : cudaEventDisableTiming);

  *event = (CtEvent) e;
  return (CtResult) err;
}

CtResult
ct_event_destroy (CtEvent event)
{
  return (CtResult) cudaEventDestroy ((cudaEvent_t) event);
}

CtResult
ct_event_record (CtEvent event, CtStream stream)
{
  return (CtResult) cudaEventRecord ((cudaEvent_t) event,
      (cudaStream_t) stream);
}

CtResult
ct_stream_wait_event (CtStream stream, CtEvent event)
{
  return (CtResult) cudaStreamWaitEvent ((cudaStream_t) stream,
      (cudaEvent_t) event, 0);
}

CtResult
ct_event_synchronize (CtEvent event)
{
  return (CtResult) cudaEventSynchronize ((cudaEvent_t) event);
}

CtResult
ct_event_query (CtEvent event, int *done)
{
  cudaError_t err = cudaEventQuery ((cudaEvent_t) event);

  *done = err != cudaErrorNotReady;
  if (err == cudaErrorNotReady)
    return CT_OK;
  return (CtResult) err;
}

CtResult
ct_event_elapsed_ms (float *ms, CtEvent start, CtEvent end)
{
  *ms = 0;
  return (CtResult) cudaEventElapsedTime (ms, (cudaEvent_t) start,
      (cudaEvent_t) end);
}
