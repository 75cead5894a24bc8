/* What the benches of GStreamer's CUDA memory share. */
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>

/* Waits until the GPU has done everything queued in @ctx; FALSE if the
 * context cannot be made current or the GPU reports an error. */
static inline gboolean
bench_wait_gpu (GstCudaContext * ctx)
{
  gboolean ok;

  if (!gst_cuda_context_push (ctx))
    return FALSE;
  ok = cudaDeviceSynchronize () == cudaSuccess;
  gst_cuda_context_pop (NULL);
  return ok;
}
