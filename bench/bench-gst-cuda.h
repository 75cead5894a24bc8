/* What the benches of GStreamer's CUDA memory share. */
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

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

/* @path opened for writing a --json file, and device 0's name in @name
 * (empty where CUDA cannot tell); NULL, said on stderr, if it cannot be
 * written. */
static inline FILE *
bench_json_open (const char *path, char name[256])
{
  struct cudaDeviceProp prop;
  FILE *f = fopen (path, "w");

  name[0] = '\0';
  if (!f) {
    fprintf (stderr, "cannot write %s\n", path);
    return NULL;
  }
  if (cudaGetDeviceProperties (&prop, 0) == cudaSuccess)
    g_strlcpy (name, prop.name, 256);
  return f;
}
