/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* What the element holds of the GPU from start () to stop (): a CUDA
 * context (its own, or a neighbour's that came by GstContext), a stream,
 * and the staging buffer host memory goes through. */
typedef struct
{
  GstElement *element;          /* the owner, for contexts and the log */
  GstCudaContext *context;
  CtStream stream;              /* the kernels */
  CtStream up, down;            /* the bands' copies (ct_gpu_run) */
  CtEvent uploaded[CT_JOB_MAX_BANDS];
  CtEvent transposed[CT_JOB_MAX_BANDS];
  gsize band_bytes;             /* 0: no bands */
  gboolean failed;
  gchar *failure;               /* why there is no GPU, for the user */
  guint8 *mem;                  /* staging */
  gsize size;
} CtGpu;

/* Makes sure a context and a stream are held, on @device_id (-1: the
 * default), unless a neighbour's context is held already. On failure
 * (remembered until ct_gpu_close) @gpu->failure says why. */
gboolean ct_gpu_open (CtGpu * gpu, gint device_id);

/* Frees the staging buffer and the stream, drops the context. */
void ct_gpu_close (CtGpu * gpu);

/* Whether @buf is CUDA memory our kernels can read or write in place: one
 * memory, of our context. Anything else goes through the host. */
gboolean ct_gpu_holds (const CtGpu * gpu, GstBuffer * buf);

/* The one way through the GPU, in a pushed context: @job's pieces of @in
 * and @out in host memory staged through the device (@in_dev, @out_dev:
 * they are in our CUDA memory, used in place), the kernel (@kernel as
 * asked), the copies back, and a wait. From host memory to pinned host
 * memory a frame goes in bands, so that both directions of the link and
 * the kernels work at once: the upload of one band beside the kernel of
 * the one before and the download of the one before that. @step tells
 * where a failure happened; *@ran gets the path the largest plane, band or
 * tensor took. */
CtResult ct_gpu_run (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, gboolean in_dev, const CtSpan * out, gboolean out_dev,
    CtStep * step, CtPath * ran);

G_END_DECLS
