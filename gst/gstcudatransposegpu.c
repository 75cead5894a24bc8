/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposegpu.h"

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

gboolean
ct_gpu_open (CtGpu * gpu, gint device_id)
{
  gint count = 0;
  CUresult cres;
  const gchar *cuda_msg = NULL;
  CtResult res;

  if (gpu->stream)
    return TRUE;
  if (gpu->failed)
    return FALSE;

  /* the CUDA pool finds the CUDA allocator by name */
  gst_cuda_memory_init_once ();
  if (!gpu->context) {
    if (!gst_cuda_load_library ()) {
      gpu->failure = g_strdup ("the CUDA driver library (libcuda.so.1) "
          "could not be loaded: no NVIDIA driver is installed");
      goto failed;
    }
    cres = CuInit (0);
    if (cres != CUDA_SUCCESS) {
      CuGetErrorString (cres, &cuda_msg);
      gpu->failure = g_strdup_printf ("the CUDA driver could not be "
          "initialised (%s)", cuda_msg ? cuda_msg : "unknown error");
      goto failed;
    }
    cres = CuDeviceGetCount (&count);
    if (cres != CUDA_SUCCESS || count == 0) {
      gpu->failure = g_strdup ("no CUDA device was found");
      goto failed;
    }
    if (device_id >= count) {
      gpu->failure = g_strdup_printf ("cuda-device-id=%d does not "
          "exist: this machine has %d CUDA device%s (0 to %d); use -1 for the "
          "default", device_id, count, count == 1 ? "" : "s", count - 1);
      goto failed;
    }
    if (!gst_cuda_ensure_element_context (gpu->element, device_id,
            &gpu->context)) {
      gpu->failure = g_strdup_printf ("a CUDA context could not be "
          "created on device %d", device_id < 0 ? 0 : device_id);
      goto failed;
    }
  }

  if (!gst_cuda_context_push (gpu->context)) {
    gpu->failure = g_strdup ("the CUDA context could not be made current");
    goto failed;
  }
  res = ct_stream_create (&gpu->stream);
  gst_cuda_context_pop (NULL);
  if (res != CT_OK) {
    gpu->stream = NULL;
    gpu->failure = g_strdup_printf ("a CUDA stream could not be created "
        "(%s)", ct_result_string (res));
    goto failed;
  }

  GST_INFO_OBJECT (gpu->element, "using CUDA context %" GST_PTR_FORMAT,
      gpu->context);
  return TRUE;

failed:
  GST_INFO_OBJECT (gpu->element, "GPU unavailable: %s", gpu->failure);
  gpu->failed = TRUE;
  return FALSE;
}

/* (in a pushed context) */
static void
free_staging (CtGpu * gpu)
{
  CtResult res;

  if (gpu->mem) {
    res = ct_device_free (gpu->mem);
    if (res != CT_OK)
      GST_WARNING_OBJECT (gpu->element, "freeing device memory failed: %s",
          ct_result_string (res));
  }
  gpu->mem = NULL;
  gpu->size = 0;
}

/* The staging buffer at @needed bytes at least (in a pushed context); it
 * only grows, so a stream of one size allocates once. */
static CtResult
ensure_staging (CtGpu * gpu, gsize needed)
{
  CtResult res;

  if (needed <= gpu->size)
    return CT_OK;
  free_staging (gpu);
  res = ct_device_alloc ((void **) &gpu->mem, needed);
  if (res == CT_OK)
    gpu->size = needed;
  return res;
}

void
ct_gpu_close (CtGpu * gpu)
{
  if (gpu->context && gst_cuda_context_push (gpu->context)) {
    free_staging (gpu);
    if (gpu->stream) {
      CtResult res = ct_stream_destroy (gpu->stream);
      if (res != CT_OK)
        GST_WARNING_OBJECT (gpu->element, "destroying the CUDA stream "
            "failed: %s", ct_result_string (res));
    }
    gst_cuda_context_pop (NULL);
  }
  gpu->mem = NULL;
  gpu->size = 0;
  gpu->stream = NULL;
  gst_clear_object (&gpu->context);
  g_clear_pointer (&gpu->failure, g_free);
  gpu->failed = FALSE;
}

gboolean
ct_gpu_holds (const CtGpu * gpu, GstBuffer * buf)
{
  GstMemory *mem;

  if (!gpu->context || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_cuda_memory (mem) &&
      GST_CUDA_MEMORY_CAST (mem)->context == gpu->context;
}

/* The copies are 2-D, on the element's stream (truly asynchronous from
 * pinned memory); the wait at the end is there because GStreamer 1.22's
 * CUDA memory has no stream to order on: what goes downstream must be
 * finished. */
CtResult
ct_gpu_run (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, gboolean in_dev, const CtSpan * out, gboolean out_dev,
    CtStep * step, CtPath * ran)
{
  CtSpan din[CT_JOB_MAX_PIECES] = { {0} }, dout[CT_JOB_MAX_PIECES] = { {0} };
  CtResult res;
  guint i;

  if (!in_dev || !out_dev) {
    *step = CT_STEP_ALLOCATE;
    res = ensure_staging (gpu, job->dev_needed);
    if (res != CT_OK)
      return res;
  }

  *step = CT_STEP_UPLOAD;
  for (i = 0; i < job->n_pieces; i++) {
    const CtPiece *p = &job->in[i];

    if (in_dev) {
      din[i] = in[i];
      continue;
    }
    din[i].data = gpu->mem + p->offset;
    din[i].stride = p->pitch;
    res = ct_copy_2d_async (din[i].data, din[i].stride, in[i].data,
        in[i].stride, p->row, p->rows, gpu->stream);
    if (res != CT_OK)
      return res;
  }
  for (i = 0; i < job->n_pieces; i++) {
    if (out_dev) {
      dout[i] = out[i];
    } else {
      dout[i].data = gpu->mem + job->out[i].offset;
      dout[i].stride = job->out[i].pitch;
    }
  }

  *step = CT_STEP_KERNEL;
  res = ct_job_launch (job, kernel, TRUE, gpu->stream, din, dout, ran);
  if (res != CT_OK)
    return res;

  *step = CT_STEP_DOWNLOAD;
  for (i = 0; !out_dev && i < job->n_pieces; i++) {
    const CtPiece *p = &job->out[i];

    res = ct_copy_2d_async (out[i].data, out[i].stride, dout[i].data,
        dout[i].stride, p->row, p->rows, gpu->stream);
    if (res != CT_OK)
      return res;
  }

  *step = CT_STEP_SYNC;
  return ct_stream_synchronize (gpu->stream);
}
