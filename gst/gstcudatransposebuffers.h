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
#include <gst/video/video.h>

#include "gstcudatransposejob.h"
#include "gstcudatransposetensor.h"

G_BEGIN_DECLS

/* Where each flexible tensor of a buffer lies: its memory, and the offset
 * of its data (after its header) in that memory. */
typedef struct
{
  guint8 mem[CT_TENSOR_COUNT_LIMIT];
  gsize offset[CT_TENSOR_COUNT_LIMIT];
} CtTensorPlaces;

/* A buffer mapped for one transform, as the job's pieces: a video frame
 * (planes), or tensors (one memory each, NNStreamer's 16 memories for
 * more than 16, or one holding them all, or flexible ones where their
 * places say). */
typedef struct
{
  GstBuffer *buf;
  gboolean frame_mapped;
  GstVideoFrame frame;
  gboolean whole_mapped;        /* one map of the whole buffer */
  guint n_maps;                 /* or one map per memory */
  gboolean holds_ref;           /* on buf, once mapped */
  GstMapInfo maps[CT_TENSOR_MEMORY_LIMIT];
  CtSpan spans[CT_JOB_MAX_PIECES];
} CtMapped;

/* Whether @buf holds the job's input frame: its GstVideoMeta (if any)
 * agrees with the caps and every plane lies inside the buffer. */
gboolean ct_buffers_check_frame (const CtJob * job, GstBuffer * buf,
    CtRefusal * r);

/* Whether @buf holds the job's static tensors: one memory each (past 16,
 * the rest in the 16th after NNStreamer's header), or one memory holding
 * them all, each as large as the caps say and nothing besides (as
 * flexible tensors are read: a byte that is no tensor is refused, never
 * dropped). */
gboolean ct_buffers_check_tensors (const CtJob * job, GstBuffer * buf,
    CtRefusal * r);

/* Reads every flexible tensor of @buf (every memory to its end, after
 * NNStreamer's header of the tensors past the 16th where the 16th has
 * one) into @in (CT_TENSOR_COUNT_LIMIT of them) and @places; *@n gets the
 * count. With @perm each must be of rank 4 or less; without, of at most
 * G_MAXUINT planes. */
gboolean ct_buffers_read_flexible (GstBuffer * buf, const guint * perm,
    CtTensorInfo * in, guint * n, CtTensorPlaces * places, CtRefusal * r);

/* Flexible tensors: @job follows @buf's headers (set anew where they
 * change; its mode and permutation stay as negotiated), and @places gets
 * where its tensors lie. Every memory is read to its end, as NNStreamer
 * lays out more than 16 and as GStreamer merges memories past 16: a
 * tensor is transformed or the buffer refused, never dropped. */
gboolean ct_buffers_follow_flexible (CtJob * job, GstBuffer * buf,
    CtTensorPlaces * places, CtRefusal * r);

/* A new output buffer for the job's tensors, one memory each (past 16, the
 * rest in the 16th after NNStreamer's header), from @allocator; @flexible
 * ones start with their header, and @places gets where their data lies.
 * NULL if a memory cannot be had. */
GstBuffer *ct_buffers_new_tensors (const CtJob * job, GstAllocator *
    allocator, const GstAllocationParams * params, gboolean flexible,
    CtTensorPlaces * places, CtRefusal * r);

/* Maps @inbuf and @outbuf as the job's pieces: frames where it takes or
 * gives video (their CUDA memory with @in_dev, @out_dev), flexible tensors
 * where @places_in, @places_out say, other tensors as they lie. The maps
 * hold a reference on each buffer until ct_buffers_unmap (a frame left in
 * flight outlives the base class's hold on its input). */
gboolean ct_buffers_map (const CtJob * job, const CtTensorPlaces * places_in,
    const CtTensorPlaces * places_out, GstBuffer * inbuf, gboolean in_dev,
    CtMapped * in, GstBuffer * outbuf, gboolean out_dev, CtMapped * out,
    CtRefusal * r);

void ct_buffers_unmap (CtMapped * m);

G_END_DECLS
