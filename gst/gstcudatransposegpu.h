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

#include "gstcudatransposeflight.h"
#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* What the element holds of the GPU from start () to stop (): a CUDA
 * context (its own, or a neighbour's that came by GstContext), a stream,
 * and the staging buffer host memory goes through: a slot of it for each
 * frame in flight (ct_gpu_run; the flight module says which). The
 * streaming thread uses it (start and stop while nothing streams); the
 * context pointer is also read by the context query and set by
 * set_context, from any thread, under the element's object lock. */
typedef struct
{
  GstElement *element;          /* the owner, for contexts and the log */
  GstCudaContext *context;
  CtStream stream;              /* the kernels */
  CtStream up, down;            /* the bands' copies (ct_gpu_run) */
  CtEvent uploaded[CT_JOB_MAX_BANDS];
  CtEvent transposed[CT_JOB_MAX_BANDS];
  CtEvent finished[CT_FLIGHT_SLOTS];    /* a frame left in flight, by
                                         * slot */
  CtEvent produced, consumed;   /* ct_gpu_run_ordered's */
  gpointer pool_stream;         /* the stream our CUDA pools carry
                                 * (ct_order_stream_new; GStreamer 1.24+),
                                 * or NULL */
  gboolean failed;
  gchar *failure;               /* why there is no GPU, for the user */
  gboolean no_such_device;      /* GPUs there, but not the one asked for */
  guint8 *mem;                  /* staging */
  gsize size;
  gsize wanted;                 /* the staging a failed allocation asked */
  /* said once: auto running on the CPU, a kernel asked for that did,
   * kernel=cpu running on the GPU for frames in CUDA memory */
  gboolean warned_cpu;
  CtKernel warned_kernel;
  gboolean warned_cuda_cpu;
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
 * the one before and the download of the one before that.
 *
 * With @slot (not -1; the flight module's, ct_flight_make_room) a frame
 * from host memory into pinned memory (in bands, or whole where the bands
 * do not cut it) is only queued, in that slot of the staging, and not
 * waited for: *@left is then TRUE, ct_gpu_wait_slot () waits for it, and
 * until then its buffers must stay mapped. So the next frame's copies
 * queue behind it and the link never idles between frames.
 *
 * @step tells where a failure happened (every stream is waited for
 * then); *@ran gets the path the largest plane, band or tensor took. */
CtResult ct_gpu_run (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, gboolean in_dev, const CtSpan * out, gboolean out_dev,
    gint slot, gboolean * left, CtStep * step, CtPath * ran);

/* A frame in CUDA memory on both sides whose output memory carries a
 * stream, @consumer (stream-ordered CUDA memory, GStreamer 1.24+;
 * gstcudatransposeorder.h), in a pushed context: the kernel runs on
 * @consumer, behind the work left there and, by an event, behind the work
 * queued on @producer, the input memory's stream; @producer's later work
 * (the input memory's reuse) waits for the kernel by another. Nothing is
 * waited for on the host, unless @producer is NULL (an input without a
 * stream is its producer's to reuse once the element lets go of it): then
 * @consumer is. On failure both streams are waited for. */
CtResult ct_gpu_run_ordered (CtGpu * gpu, const CtJob * job, CtKernel kernel,
    const CtSpan * in, const CtSpan * out, CtStream producer,
    CtStream consumer, CtStep * step, CtPath * ran);

/* The flight module's two calls (CtFlightGpu; @gpu is a CtGpu): wait for
 * the frame ct_gpu_run () left in flight in @slot (on failure, for every
 * stream), and whether it is done, each in its own pushed context. */
CtResult ct_gpu_wait_slot (gpointer gpu, gint slot, CtStep * step);
gboolean ct_gpu_slot_done (gpointer gpu, gint slot);

/* The one error of a transform of @job that failed at @step with @res,
 * @kernel asked for: what failed, in words a user can act on. */
void ct_gpu_refusal (const CtGpu * gpu, const CtJob * job,
    const gchar * kernel, CtStep step, CtResult res, CtRefusal * r);

/* start (): whether the GPU (or for kernel=auto without a usable one,
 * the CPU) can take the stream; FALSE with @r set. */
gboolean ct_gpu_start (CtGpu * gpu, gint device_id, CtKernel kernel,
    CtRefusal * r);

/* The variant a buffer runs: @kernel as asked (auto stays auto: the
 * kernels' planner picks per plane), or the CPU. Without a GPU, auto and
 * (asked for while streaming: start refuses them) the GPU kernels run on
 * the CPU, with @warning set once (per value asked for): a property
 * change must not end a stream. */
CtKernel ct_gpu_resolve (CtGpu * gpu, gint device_id, CtKernel kernel,
    CtRefusal * warning);

/* The variant for a frame of which a side is in our CUDA memory
 * (@cuda_memory): @kernel, but the CPU's runs on the GPU (auto), with
 * @warning set once. GStreamer 1.22 maps CUDA memory for the CPU by whole
 * rows from their start, and an I420 or YV12 frame of odd height has its
 * V plane half a row in: the CPU would read and write it wrong. */
CtKernel ct_gpu_place (CtGpu * gpu, CtKernel kernel, gboolean cuda_memory,
    CtRefusal * warning);

G_END_DECLS
