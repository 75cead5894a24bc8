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
#include "gstcudatransposeorder.h"

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

/* The streams and events (in a pushed context); on failure, what was made
 * is left for destroy_streams. */
static CtResult
create_streams (CtGpu * gpu)
{
  CtResult res;
  guint i;

  res = ct_stream_create (&gpu->stream);
  if (res == CT_OK)
    res = ct_stream_create (&gpu->up);
  if (res == CT_OK)
    res = ct_stream_create (&gpu->down);
  for (i = 0; res == CT_OK && i < CT_JOB_MAX_BANDS; i++) {
    res = ct_event_create (&gpu->uploaded[i], 0);
    if (res == CT_OK)
      res = ct_event_create (&gpu->transposed[i], 0);
  }
  for (i = 0; res == CT_OK && i < G_N_ELEMENTS (gpu->finished); i++)
    res = ct_event_create (&gpu->finished[i], 0);
  if (res == CT_OK)
    res = ct_event_create (&gpu->produced, 0);
  if (res == CT_OK)
    res = ct_event_create (&gpu->consumed, 0);
  return res;
}

static void
warn_on_failure (CtGpu * gpu, CtResult res, const gchar * what)
{
  if (res != CT_OK)
    GST_WARNING_OBJECT (gpu->element, "destroying %s failed: %s", what,
        ct_result_string (res));
}

/* (in a pushed context) */
static void
destroy_streams (CtGpu * gpu)
{
  guint i;

  for (i = 0; i < CT_JOB_MAX_BANDS; i++) {
    if (gpu->uploaded[i])
      warn_on_failure (gpu, ct_event_destroy (gpu->uploaded[i]), "an event");
    if (gpu->transposed[i])
      warn_on_failure (gpu, ct_event_destroy (gpu->transposed[i]),
          "an event");
    gpu->uploaded[i] = gpu->transposed[i] = NULL;
  }
  for (i = 0; i < G_N_ELEMENTS (gpu->finished); i++) {
    if (gpu->finished[i])
      warn_on_failure (gpu, ct_event_destroy (gpu->finished[i]), "an event");
    gpu->finished[i] = NULL;
  }
  if (gpu->produced)
    warn_on_failure (gpu, ct_event_destroy (gpu->produced), "an event");
  if (gpu->consumed)
    warn_on_failure (gpu, ct_event_destroy (gpu->consumed), "an event");
  gpu->produced = gpu->consumed = NULL;
  ct_order_stream_free (gpu->pool_stream);
  gpu->pool_stream = NULL;
  if (gpu->up)
    warn_on_failure (gpu, ct_stream_destroy (gpu->up), "a CUDA stream");
  if (gpu->down)
    warn_on_failure (gpu, ct_stream_destroy (gpu->down), "a CUDA stream");
  if (gpu->stream)
    warn_on_failure (gpu, ct_stream_destroy (gpu->stream), "a CUDA stream");
  gpu->stream = gpu->up = gpu->down = NULL;
}

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
      gpu->no_such_device = TRUE;
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
  res = create_streams (gpu);
  if (res != CT_OK)
    destroy_streams (gpu);
  else
    gpu->pool_stream = ct_order_stream_new (gpu->context);
  gst_cuda_context_pop (NULL);
  if (res != CT_OK) {
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
 * only grows, so a stream of one size allocates once. (Nothing is in
 * flight when it grows: a frame in flight keeps its slot, a frame that
 * may not be held runs once the held one is done, and a new job comes
 * after a drain: the flight module.) */
static CtResult
ensure_staging (CtGpu * gpu, gsize needed)
{
  CtResult res;

  gpu->wanted = needed;
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
    destroy_streams (gpu);
    gst_cuda_context_pop (NULL);
  }
  gpu->mem = NULL;
  gpu->size = 0;
  ct_order_stream_free (gpu->pool_stream);
  gpu->pool_stream = NULL;
  gpu->produced = gpu->consumed = NULL;
  gpu->stream = gpu->up = gpu->down = NULL;
  memset (gpu->uploaded, 0, sizeof (gpu->uploaded));
  memset (gpu->transposed, 0, sizeof (gpu->transposed));
  memset (gpu->finished, 0, sizeof (gpu->finished));
  GST_OBJECT_LOCK (gpu->element);
  gst_clear_object (&gpu->context);
  GST_OBJECT_UNLOCK (gpu->element);
  g_clear_pointer (&gpu->failure, g_free);
  gpu->failed = gpu->no_such_device = FALSE;
  gpu->warned_cpu = FALSE;
  gpu->warned_kernel = CT_KERNEL_AUTO;
  gpu->warned_cuda_cpu = FALSE;
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

/* Waits for all three streams, whatever happened: nothing may touch a
 * buffer once it is unmapped. Returns the first failure. */
static CtResult
sync_all (CtGpu * gpu, CtResult res)
{
  CtStream streams[] = { gpu->up, gpu->stream, gpu->down };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (streams); i++) {
    CtResult r = ct_stream_synchronize (streams[i]);

    if (res == CT_OK)
      res = r;
  }
  return res;
}

/* @job's @n bands from host @in to pinned host @out through the staging
 * buffer: every band's upload on the up stream first (they are queued in
 * no time, and the link starts at once), then each band's kernel on the
 * kernel stream once its upload is done, and its download on the down
 * stream once its kernel is; the streams run side by side. With @slot
 * (not -1) the frame is left in flight: its end is recorded in that slot's
 * event, which follows all three streams' work (the last download waits
 * for the last kernel, which waits for the last upload). */
static CtResult
run_bands (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtBand * bands, guint n, const CtSpan * in, const CtSpan * din,
    const CtSpan * out, const CtSpan * dout, gint slot, CtStep * step,
    CtPath * ran)
{
  CtResult res = CT_OK;
  gsize most = 0;
  guint i;

  *ran = CT_PATH_NONE;
  *step = CT_STEP_UPLOAD;
  for (i = 0; res == CT_OK && i < n; i++) {
    const CtBand *b = &bands[i];
    const CtSpan *hi = &in[b->piece], *di = &din[b->piece];

    res = ct_copy_2d_async (di->data + b->first * di->stride, di->stride,
        hi->data + b->first * hi->stride, hi->stride, job->in[b->piece].row,
        b->rows, gpu->up);
    if (res == CT_OK)
      res = ct_event_record (gpu->uploaded[i], gpu->up);
  }
  for (i = 0; res == CT_OK && i < n; i++) {
    const CtBand *b = &bands[i];
    const CtSpan *ho = &out[b->piece], *dd = &dout[b->piece];
    CtPath path = CT_PATH_NONE;

    *step = CT_STEP_KERNEL;
    res = ct_stream_wait_event (gpu->stream, gpu->uploaded[i]);
    if (res == CT_OK)
      res = ct_job_launch_band (job, b, kernel, gpu->stream, &din[b->piece],
          dd, &path);
    /* the path of the largest band */
    if (res == CT_OK && b->rows * job->in[b->piece].row > most) {
      most = b->rows * job->in[b->piece].row;
      *ran = path;
    }
    if (res == CT_OK)
      res = ct_event_record (gpu->transposed[i], gpu->stream);
    if (res == CT_OK)
      res = ct_stream_wait_event (gpu->down, gpu->transposed[i]);
    if (res != CT_OK)
      break;

    *step = CT_STEP_DOWNLOAD;
    res = ct_copy_2d_async (ho->data + b->out_y * ho->stride + b->out_x,
        ho->stride, dd->data + b->out_y * dd->stride + b->out_x, dd->stride,
        b->out_row, b->out_rows, gpu->down);
  }
  if (res == CT_OK && slot >= 0) {
    res = ct_event_record (gpu->finished[slot], gpu->down);
    if (res == CT_OK)
      return CT_OK;
  }
  if (res == CT_OK)
    *step = CT_STEP_SYNC;
  return sync_all (gpu, res);
}

CtResult
ct_gpu_wait_slot (gpointer data, gint slot, CtStep * step)
{
  CtGpu *gpu = data;
  CtResult res;

  g_return_val_if_fail (slot >= 0 && slot < CT_FLIGHT_SLOTS,
      CT_ERROR_INVALID_ARGUMENT);
  *step = CT_STEP_CONTEXT;
  if (!gpu->context || !gst_cuda_context_push (gpu->context))
    return CT_ERROR_INVALID_ARGUMENT;   /* the step says what failed */
  *step = CT_STEP_SYNC;
  res = ct_event_synchronize (gpu->finished[slot]);
  if (res != CT_OK)
    res = sync_all (gpu, res);
  gst_cuda_context_pop (NULL);
  return res;
}

gboolean
ct_gpu_slot_done (gpointer data, gint slot)
{
  CtGpu *gpu = data;
  int done = 1;

  g_return_val_if_fail (slot >= 0 && slot < CT_FLIGHT_SLOTS, TRUE);
  if (!gpu->context || !gst_cuda_context_push (gpu->context))
    return TRUE;                /* (the wait says what failed) */
  /* (a failure counts as done: the wait reports it) */
  (void) ct_event_query (gpu->finished[slot], &done);
  gst_cuda_context_pop (NULL);
  return done != 0;
}

/* Whether @data is pinned host memory (not knowing counts as not). */
static gboolean
is_pinned (const guint8 * data)
{
  int pinned = 0;

  return ct_host_is_pinned (data, &pinned) == CT_OK && pinned;
}

/* A frame going out as a tensor, as the kernels read it (@din): staged
 * as the input piece at @mem, its rows packed and its planes back to back
 * (ct_job_staged_offset), from host or CUDA memory; the planes of YUV in
 * CUDA memory (@in_dev) are read where they are. */
static CtResult
stage_frame (const CtJob * job, const CtSpan * in, gboolean in_dev,
    guint8 * mem, CtStream stream, CtSpan * din)
{
  guint8 *dst = mem + job->in[0].offset;
  CtResult res = CT_OK;
  guint p;

  din[0].data = dst;
  din[0].stride = job->in[0].pitch;
  for (p = 0; res == CT_OK && p < job->n_planes; p++) {
    gsize row = ct_job_frame_row (job, p);

    if (job->from_yuv && in_dev) {
      din[p] = in[p];
      continue;
    }
    if (job->from_yuv) {
      din[p].data = dst + ct_job_staged_offset (job, p);
      din[p].stride = row;
    }
    res = ct_copy_2d_async (dst + ct_job_staged_offset (job, p), row,
        in[p].data, in[p].stride, row, job->planes[p].height, stream);
  }
  return res;
}

/* The copies are 2-D (truly asynchronous from and to pinned memory); the
 * wait at the end is there because GStreamer 1.22's CUDA memory has no
 * stream to order on: what goes downstream must be finished. */
CtResult
ct_gpu_run (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, gboolean in_dev, const CtSpan * out, gboolean out_dev,
    gint slot, gboolean * left, CtStep * step, CtPath * ran)
{
  CtSpan din[CT_JOB_MAX_PIECES] = { {0} }, dout[CT_JOB_MAX_PIECES] = { {0} };
  CtResult res;
  guint8 *mem = NULL;
  gint hold;
  CtStream up = gpu->up, down = gpu->down;
  gboolean banded;
  guint i, n_bands = 0;

  *left = FALSE;
  /* (a frame in CUDA memory on both sides has nothing to stage, and is
   * never left in flight: GStreamer 1.22's CUDA memory has no stream) */
  hold = in_dev && out_dev ? -1 : slot;
  if (!in_dev || !out_dev) {
    gsize needed = job->dev_needed;

    *step = CT_STEP_ALLOCATE;
    if (hold >= 0 && needed > G_MAXSIZE / CT_FLIGHT_SLOTS)
      hold = -1;
    if (hold >= 0)
      needed *= CT_FLIGHT_SLOTS;
    res = ensure_staging (gpu, needed);
    if (res != CT_OK)
      return res;
    /* a frame in flight keeps its own slot of the staging */
    mem = gpu->mem + (hold >= 0 ? hold * job->dev_needed : 0);
  }
  /* bands where both ends are in host memory and the download can run
   * asynchronously (into pinned memory: into pageable memory it waits); a
   * frame of one band a plane goes the plain way, unless it may be left in
   * flight */
  banded = !in_dev && !out_dev && is_pinned (out[0].data);
  if (banded)
    n_bands = job->n_bands[hold >= 0 ? CT_JOB_HELD : CT_JOB_PLAIN];
  if (n_bands > job->n_pieces || (hold >= 0 && n_bands > 0 &&
          n_bands == job->n_pieces)) {
    const CtBand *bands = job->bands[hold >= 0 ? CT_JOB_HELD : CT_JOB_PLAIN];

    for (i = 0; i < job->n_pieces; i++) {
      din[i].data = mem + job->in[i].offset;
      din[i].stride = job->in[i].pitch;
      dout[i].data = mem + job->out[i].offset;
      dout[i].stride = job->out[i].pitch;
    }
    res = run_bands (gpu, job, kernel, bands, n_bands, in, din, out, dout,
        hold, step, ran);
    if (res == CT_OK)
      *left = hold >= 0;
    return res;
  }
  /* a frame the bands do not cut (4:2:2 that videoflip resamples) may
   * still be left in flight whole: its copies on the bands' streams, so
   * that the next frame's upload runs beside its download */
  if (!banded || hold < 0) {
    hold = -1;
    up = down = gpu->stream;
  }

  *step = CT_STEP_UPLOAD;
  for (i = 0; i < job->n_pieces; i++) {
    const CtPiece *p = &job->in[i];

    /* (a frame going out as a tensor is staged from CUDA memory too: its
     * rows may be padded) */
    if (job->mode == CT_JOB_VIDEO_TO_TENSOR) {
      res = stage_frame (job, in, in_dev, mem, up, din);
      if (res != CT_OK)
        return sync_all (gpu, res);
      break;
    }
    if (in_dev) {
      din[i] = in[i];
      continue;
    }
    din[i].data = mem + p->offset;
    din[i].stride = p->pitch;
    res = ct_copy_2d_async (din[i].data, din[i].stride, in[i].data,
        in[i].stride, p->row, p->rows, up);
    if (res != CT_OK)
      return sync_all (gpu, res);
  }
  if (hold >= 0) {
    res = ct_event_record (gpu->uploaded[0], up);
    if (res == CT_OK)
      res = ct_stream_wait_event (gpu->stream, gpu->uploaded[0]);
    if (res != CT_OK)
      return sync_all (gpu, res);
  }
  for (i = 0; i < job->n_pieces; i++) {
    if (out_dev) {
      dout[i] = out[i];
    } else {
      dout[i].data = mem + job->out[i].offset;
      dout[i].stride = job->out[i].pitch;
    }
  }

  *step = CT_STEP_KERNEL;
  res = ct_job_launch (job, kernel, TRUE, gpu->stream, din, dout, ran);
  if (res == CT_OK && hold >= 0) {
    res = ct_event_record (gpu->transposed[0], gpu->stream);
    if (res == CT_OK)
      res = ct_stream_wait_event (down, gpu->transposed[0]);
  }
  if (res != CT_OK)
    return sync_all (gpu, res);

  *step = CT_STEP_DOWNLOAD;
  for (i = 0; !out_dev && i < job->n_pieces; i++) {
    const CtPiece *p = &job->out[i];

    res = ct_copy_2d_async (out[i].data, out[i].stride, dout[i].data,
        dout[i].stride, p->row, p->rows, down);
    if (res != CT_OK)
      return sync_all (gpu, res);
  }
  if (hold >= 0) {
    res = ct_event_record (gpu->finished[hold], down);
    if (res != CT_OK)
      return sync_all (gpu, res);
    *left = TRUE;
    return CT_OK;
  }

  *step = CT_STEP_SYNC;
  return ct_stream_synchronize (gpu->stream);
}

CtResult
ct_gpu_run_ordered (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, const CtSpan * out, CtStream producer,
    CtStream consumer, CtStep * step, CtPath * ran)
{
  gboolean apart = producer && producer != consumer;
  CtResult res = CT_OK, r;

  *step = CT_STEP_KERNEL;
  if (apart) {
    res = ct_event_record (gpu->produced, producer);
    if (res == CT_OK)
      res = ct_stream_wait_event (consumer, gpu->produced);
  }
  if (res == CT_OK)
    res = ct_job_launch (job, kernel, TRUE, consumer, in, out, ran);
  if (res == CT_OK && apart) {
    res = ct_event_record (gpu->consumed, consumer);
    if (res == CT_OK)
      res = ct_stream_wait_event (producer, gpu->consumed);
  }
  /* an input without a stream is its producer's again once we return */
  if (res == CT_OK && !producer) {
    *step = CT_STEP_SYNC;
    res = ct_stream_synchronize (consumer);
  }
  if (res == CT_OK)
    return CT_OK;
  /* nothing may touch either memory once it is unmapped (the first
   * failure is the one reported) */
  r = ct_stream_synchronize (consumer);
  if (r == CT_OK && apart)
    r = ct_stream_synchronize (producer);
  if (r != CT_OK)
    GST_WARNING_OBJECT (gpu->element, "waiting after a failed frame: %s",
        ct_result_string (r));
  return res;
}

void
ct_gpu_refusal (const CtGpu * gpu, const CtJob * job, const gchar * kernel,
    CtStep step, CtResult res, CtRefusal * r)
{
  const gchar *what = ct_job_what (job);

  switch (step) {
    case CT_STEP_CONTEXT:
      CT_REFUSE (r, RESOURCE, FAILED, ("%s (kernel %s) failed: the CUDA "
              "context could not be made current.", what, kernel), (NULL));
      break;
    case CT_STEP_ALLOCATE:
      CT_REFUSE (r, RESOURCE, NO_SPACE_LEFT, ("%s (kernel %s) failed: %"
              G_GSIZE_FORMAT " bytes of GPU memory could not be allocated "
              "(%s).", what, kernel, gpu->wanted, ct_result_string (res)),
          ("CtResult %d", res));
      break;
    case CT_STEP_PACK:
      CT_REFUSE (r, RESOURCE, NO_SPACE_LEFT, ("%s (kernel %s) failed: %"
              G_GSIZE_FORMAT " bytes of memory to pack the frame's rows "
              "could not be allocated.", what, kernel,
              job->in[0].row * job->in[0].rows), (NULL));
      break;
    default:
      CT_REFUSE (r, RESOURCE, FAILED, ("%s (kernel %s) failed while %s: %s.",
              what, kernel, ct_job_step_name (step), ct_result_string (res)),
          ("CtResult %d", res));
      break;
  }
}

gboolean
ct_gpu_start (CtGpu * gpu, gint device_id, CtKernel kernel, CtRefusal * r)
{
  if (kernel == CT_KERNEL_CPU || ct_gpu_open (gpu, device_id))
    return TRUE;
  /* the CPU stands in where there is no usable GPU at all, not for a
   * device asked for by mistake (as nvcodec's elements refuse it) */
  if (gpu->no_such_device) {
    CT_REFUSE (r, RESOURCE, NOT_FOUND, ("%s.", gpu->failure), (NULL));
    return FALSE;
  }
  if (kernel != CT_KERNEL_AUTO) {
    CT_REFUSE (r, RESOURCE, OPEN_READ_WRITE, ("kernel=%s needs a CUDA GPU, "
            "but %s. Use kernel=auto or kernel=cpu to transpose on the CPU.",
            ct_kernel_name (kernel), gpu->failure), (NULL));
    return FALSE;
  }
  return TRUE;
}

CtKernel
ct_gpu_resolve (CtGpu * gpu, gint device_id, CtKernel kernel,
    CtRefusal * warning)
{
  if (kernel == CT_KERNEL_CPU) {
    gpu->warned_kernel = CT_KERNEL_AUTO;
    return kernel;
  }
  if (ct_gpu_open (gpu, device_id))
    return kernel;

  if (kernel != CT_KERNEL_AUTO) {
    /* once per value asked for */
    if (gpu->warned_kernel != kernel) {
      gpu->warned_kernel = kernel;
      CT_REFUSE (warning, RESOURCE, OPEN_READ_WRITE, ("kernel=%s needs a "
              "CUDA GPU, but %s: still transposing on the CPU. Set "
              "kernel=auto or kernel=cpu.", ct_kernel_name (kernel),
              gpu->failure), (NULL));
    }
  } else if (!gpu->warned_cpu) {
    gpu->warned_cpu = TRUE;
    CT_REFUSE (warning, RESOURCE, OPEN_READ_WRITE, ("Transposing on the CPU "
            "because %s.", gpu->failure), (NULL));
  }
  return CT_KERNEL_CPU;
}

CtKernel
ct_gpu_place (CtGpu * gpu, CtKernel kernel, gboolean cuda_memory,
    CtRefusal * warning)
{
  if (kernel != CT_KERNEL_CPU || !cuda_memory)
    return kernel;
  if (!gpu->warned_cuda_cpu) {
    gpu->warned_cuda_cpu = TRUE;
    CT_REFUSE (warning, RESOURCE, SETTINGS, ("kernel=cpu: frames and "
            "tensors in CUDA memory are transposed on the GPU (as "
            "kernel=auto), where they are: GStreamer 1.22 cannot map every "
            "CUDA frame for the CPU. Let them be system memory (video/x-raw, "
            "other/tensors) around cudatranspose to transpose them on the "
            "CPU."), (NULL));
  }
  return CT_KERNEL_AUTO;
}
