/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#pragma once

#include "gstcudatranspose.h"

#include "gstcudatransposebuffers.h"
#include "gstcudatransposeflight.h"
#include "gstcudatransposegpu.h"
#include "gstcudatransposejob.h"
#include "gstcudatransposesettings.h"

G_BEGIN_DECLS

/* The element's instance, shared by its two files: gstcudatranspose.c
 * (the GObject, the buffers, events and queries) and
 * gstcudatransposenegotiation.c (caps, jobs, a change while streaming). */

/* What threads other than the streaming thread need, under the object
 * lock: written by the streaming thread (a job made, a setting applied)
 * and by start and stop. */
typedef struct
{
  gboolean have_gpu;            /* a GPU is held: ask a CUDA-capable
                                 * upstream for CUDA memory */
  /* navigation: the frame job's mapping and output size (video_out
   * FALSE: not a frame job) */
  gboolean video_out;
  CtMapping mapping;
  gint out_width, out_height;
  /* one frame's duration where the caps let frames be held, else 0: the
   * latency is that at frames-in-flight=2 with a GPU kernel (read from
   * the settings when asked: a change of them is seen at once) */
  GstClockTime period;
} CtPublished;

/* Which thread owns what: docs/design.md, "Threads and locks". */
struct _GstCudaTranspose
{
  GstBaseTransform parent;

  /* the properties and the stream's tags: any thread, under the object
   * lock (CtSettings) */
  CtSettings settings;
  /* under the object lock: for navigation, queries, latency */
  CtPublished published;
  /* caps a peer forced that the templates leave out (sparse tensors),
   * refused at the pad with one error (the accept-caps query, any
   * thread; under the object lock) */
  GstCaps *unoffered;

  /* The streaming thread's (start and stop too: nothing streams then). */
  /* this buffer's settings, read once */
  CtSnapshot snap;
  /* the job (on the heap: a job of 256 tensors is larger than GObject
   * lets an instance be) and the settings it was made for */
  CtJob *job;
  CtJobSettings made_for;
  /* the settings' version when the stream started: caps are made for it
   * or a later one */
  guint start_version;
  /* counts the jobs set_caps made: a renegotiation that made none kept
   * the caps; and the settings the streaming thread's last transform_caps
   * made output caps for (version 0: none since it was cleared) */
  guint64 negotiated;
  CtJobSettings renegotiated_for;
  GThread *streaming_thread;    /* (atomic: transform_caps compares) */
  /* the input caps refused last (with the output caps set_caps got, if
   * it did), under the settings of refused_version: their error is
   * posted once; and whether the stream stands refused (until a buffer is
   * transformed): nothing that would let a sink preroll goes downstream
   * then */
  GstCaps *refused_in, *refused_out;
  guint refused_version;
  gboolean refused;
  /* flexible tensors: the job follows each buffer's headers (its mode and
   * permutation stay as negotiated); where the tensors of the buffer
   * being transformed lie, in it and in its output (never held in
   * flight) */
  gboolean flexible;
  CtTensorPlaces flex_in, flex_out;
  /* output tensors where downstream gives no allocator: a fallible one */
  GstAllocator *tensor_allocator;
  /* the stream whose tags the direction follows */
  gchar *stream_id;
  /* what was last published (no lock needed to compare) */
  CtPublished shown;

  /* the GPU, from start () to stop () */
  CtGpu gpu;

  /* frames in flight and the releaser (under the stream lock) */
  CtFlight flight;
};

/* Messages: @r (taken) as a message of @type, or as the one error of a
 * refusal. */
void gst_cuda_transpose_post_as (GstCudaTranspose * self,
    GstMessageType type, CtRefusal * r);
void gst_cuda_transpose_post (GstCudaTranspose * self, CtRefusal * r);

/* What other threads read, published where it changed. */
void gst_cuda_transpose_publish (GstCudaTranspose * self);

/* What a frame held back adds to the latency now (any thread). */
GstClockTime gst_cuda_transpose_latency (GstCudaTranspose * self);

/* GstBaseTransform's class, which the element's vfuncs chain up to. */
GstBaseTransformClass *gst_cuda_transpose_base_class (void);

/* gstcudatransposeevents.c: the element's event, context and query
 * vfuncs. */
gboolean gst_cuda_transpose_sink_event (GstBaseTransform * trans,
    GstEvent * event);
gboolean gst_cuda_transpose_src_event (GstBaseTransform * trans,
    GstEvent * event);
void gst_cuda_transpose_set_context (GstElement * element,
    GstContext * context);
gboolean gst_cuda_transpose_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);

/* gstcudatransposenegotiation.c */

/* What the other side takes for @caps on the @direction side under the
 * settings @js. */
GstCaps *gst_cuda_transpose_transform_for (GstCudaTranspose * self,
    GstCaps * caps, GstPadDirection direction, const CtJobSettings * js,
    GstCaps * filter);

/* A caps query takes one reading of the settings from begin to end (the
 * base class transforms twice in it); the reading under way, or NULL. */
void gst_cuda_transpose_caps_query_begin (GstCudaTranspose * self);
void gst_cuda_transpose_caps_query_end (GstCudaTranspose * self);
const CtJobSettings *gst_cuda_transpose_query_settings (GstCudaTranspose *
    self);

/* set_caps. */
gboolean gst_cuda_transpose_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);

/* Caps refused: remembered under the settings of @version (their error
 * posted from @r, or once before). */
void gst_cuda_transpose_refuse_caps (GstCudaTranspose * self,
    GstCaps * incaps, GstCaps * outcaps, guint version, CtRefusal * r);

/* Downstream took none of what the element makes of @incaps: why, once
 * (@while_playing: after a change while playing). */
void gst_cuda_transpose_explain_output (GstCudaTranspose * self,
    GstCaps * incaps, gboolean while_playing);

/* A buffer's snapshot newer than the job: followed where it fits the
 * caps, else a renegotiation asked for. */
void gst_cuda_transpose_follow (GstCudaTranspose * self);

/* A renegotiation that kept the caps for newer settings: the job takes
 * them, or they are refused (FALSE). */
gboolean gst_cuda_transpose_kept_caps (GstCudaTranspose * self);

G_END_DECLS
