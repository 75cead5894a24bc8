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

#include "cudatranspose-kernels.h"
#include "gstcudatransposearith.h"
#include "gstcudatransposetensor.h"

G_BEGIN_DECLS

/* The job a negotiation sets up: what every buffer goes through until the
 * next one, with the work that depends only on it (bands, arithmetic
 * programs) done once. The element builds it in set_caps, or where a
 * setting changed while streaming keeps the caps; the buffers only run
 * it. */
typedef enum
{
  CT_JOB_NONE,                  /* not negotiated */
  CT_JOB_VIDEO,                 /* a frame: each plane transposed, rotated
                                 * or flipped */
  CT_JOB_TENSORS,               /* each tensor's two innermost sizes swapped */
  CT_JOB_PERMUTE,               /* each tensor's sizes permuted */
  CT_JOB_VIDEO_TO_TENSOR,       /* RGB as the HWC tensor, permuted (YUV
                                 * converted to RGB first) */
} CtJobMode;

/* The step of a buffer's transform under way, for the message if it
 * fails. */
typedef enum
{
  CT_STEP_CONTEXT,
  CT_STEP_ALLOCATE,
  CT_STEP_UPLOAD,
  CT_STEP_KERNEL,
  CT_STEP_DOWNLOAD,
  CT_STEP_SYNC,
  CT_STEP_PACK,
} CtStep;

/* One plane of the negotiated input: its size in elements, or (4:2:2
 * where videoflip resamples its chroma: @is_422) the picture's size in
 * pixels and the layout ct_transpose_422 takes. */
typedef struct
{
  guint width;
  guint height;
  guint elem_size;
  gboolean is_422;
  CtLayout422 layout;
  guint y_offset, u_offset, v_offset;
} CtPlaneGeometry;

/* A job's input and output are cut in pieces (planes, or tensors). Piece
 * i has @rows rows of @row bytes; on the device it is staged at @offset,
 * rows @pitch apart. */
typedef struct
{
  gsize row;
  gsize rows;
  gsize pitch;
  gsize offset;
} CtPiece;

/* Where a piece lies during one transform: host or device memory. */
typedef struct
{
  guint8 *data;
  gsize stride;
} CtSpan;

#define CT_JOB_MAX_PIECES CT_TENSOR_COUNT_LIMIT

/* A band: rows [@first, @first + @rows) of the input of piece @piece,
 * which the kernels can run alone once those rows are on the device. Its
 * output is @out_rows rows of @out_row bytes, from row @out_y and byte
 * @out_x of the piece's output: a band of columns where the axes swap, of
 * rows where they stay. */
typedef struct
{
  guint piece;
  gsize first;
  gsize rows;
  gsize out_x;
  gsize out_y;
  gsize out_row;
  gsize out_rows;
} CtBand;

#define CT_JOB_MAX_BANDS 64

/* The bands of a frame that goes alone (CT_JOB_PLAIN), and of one that
 * may be left in flight (CT_JOB_HELD): the next frame's copies then fill
 * the gaps bands would, and fewer, larger ones do better. */
typedef enum
{
  CT_JOB_PLAIN,
  CT_JOB_HELD,
} CtJobBands;

typedef struct
{
  CtJobMode mode;
  /* video in (VIDEO, VIDEO_TO_TENSOR) and out (VIDEO) */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  guint n_planes;
  CtPlaneGeometry planes[GST_VIDEO_MAX_PLANES];
  CtMapping mapping;            /* the orientation (VIDEO) */
  /* tensors in, as the input caps describe them (for VIDEO_TO_TENSOR, the
   * frame as the HWC tensor "C:W:H:1") */
  guint n_tensors;
  CtTensorInfo tensors[CT_TENSOR_COUNT_LIMIT];
  guint64 tensor_bytes;         /* of all tensors */
  /* the order, and each tensor's four sizes (PERMUTE, VIDEO_TO_TENSOR) */
  guint perm[4];
  /* what the kernels run: dims4 are the sizes as staged, run_perm the
   * order from there; staged_axis[k] is where dimension k of the tensor
   * lies as staged (the identity, but for planar RGB: staged CHW) */
  unsigned long long dims4[CT_TENSOR_COUNT_LIMIT][4];
  guint run_perm[4];
  guint staged_axis[4];
  /* YUV video in (VIDEO_TO_TENSOR, @from_yuv): each frame converted to
   * RGB, or BGR with @bgr, as videoconvert would (@yuv is the conversion's
   * frame but for the planes) and turned by @turn, which is then the HWC
   * tensor (of the turned frame's size): in one pass, ct_yuv_to_tensor on
   * the GPU, ct_yuv_to_tensor_cpu on the CPU. planes[] are the YUV planes;
   * staged on the device dense, back to back (ct_job_staged_offset), as
   * the input piece. */
  gboolean from_yuv;
  gboolean bgr;
  CtMapping turn;
  CtYuvFrame yuv;
  /* the arithmetic option (@has_arith), applied on the way to every
   * output tensor, which then holds its output type; setting the tensors
   * anew keeps it. What the kernels run for tensors of each input type
   * (ct_job_prepare_arith) */
  gboolean has_arith;
  CtArithSpec arith;
  CtArith programs[CT_TYPE_COUNT];
  /* the pieces, and the staging buffer they take on the device */
  guint n_pieces;
  CtPiece in[CT_JOB_MAX_PIECES];
  CtPiece out[CT_JOB_MAX_PIECES];
  gsize dev_needed;
  /* a frame's bands (ct_job_bands; none for 4:2:2 that videoflip
   * resamples, and for tensors), cut once, by CtJobBands */
  guint n_bands[2];
  CtBand bands[2][CT_JOB_MAX_BANDS];
} CtJob;

/* What a job's errors call the transform of a buffer ("Transposing a
 * frame"), and a step ("running the kernel"). */
const gchar *ct_job_what (const CtJob * job);
const gchar *ct_job_step_name (CtStep step);

/* Whether the job takes tensors in (and gives tensors out). */
gboolean ct_job_takes_tensors (const CtJob * job);

/* The jobs, from negotiated caps (checked by the caller). */
void ct_job_set_video (CtJob * job, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, CtMapping mapping);
void ct_job_set_tensors (CtJob * job, const CtTensorInfo * in, guint n,
    const guint * perm);
/* Video @info in as the HWC tensor "C:W:H:1" permuted by @perm; YUV
 * converted to RGB (BGR with @bgr) and turned by @turn first (RGB video:
 * CT_MAPPING_IDENTITY only). */
void ct_job_set_video_to_tensor (CtJob * job, const GstVideoInfo * info,
    const guint perm[4], gboolean bgr, CtMapping turn);

/* Whether @info is YUV video of a format the job converts to RGB
 * (CT_CAPS_YUV_TENSOR_FORMATS). */
gboolean ct_job_is_yuv (const GstVideoInfo * info);

/* For such video, its conversion (@f, but for the planes) from the
 * colorimetry and chroma siting @info holds; FALSE, with why for the user
 * in @why (g_free it), for a colour matrix it has no conversion of. */
gboolean ct_job_yuv_frame (const GstVideoInfo * info, CtYuvFrame * f,
    gchar ** why);

/* YUV video in: the frame the conversion reads, its planes at @in (host
 * or device spans of the job's planes). */
void ct_job_yuv_planes (const CtJob * job, const CtSpan * in, CtYuvFrame * f);

/* The bytes of a row of the input frame's plane @p (VIDEO,
 * VIDEO_TO_TENSOR). */
gsize ct_job_frame_row (const CtJob * job, guint p);

/* A frame going out as a tensor is staged dense, its planes back to back:
 * where plane @p's rows (ct_job_frame_row bytes each) start. */
gsize ct_job_staged_offset (const CtJob * job, guint p);

/* The type tensor @t comes out as: the arithmetic's, or its own. */
const gchar *ct_job_out_type (const CtJob * job, const CtTensorInfo * t);

/* Output tensor @i as the job makes it: the input's rearranged, of the
 * arithmetic's output type. */
void ct_job_out_tensor (const CtJob * job, guint i, CtTensorInfo * out);

/* Whether the job's arithmetic can run on tensor @i, @t (ct_arith_check):
 * its program in @a if so, else FALSE with why, naming the tensor, in @why
 * (g_free it). */
gboolean ct_job_tensor_arith (const CtJob * job, guint i,
    const CtTensorInfo * t, CtArith * a, gchar ** why);

/* Whether the job's arithmetic (if any) can run on each of its tensors
 * (ct_arith_check, and a per-channel dimension the job's layout keeps),
 * and what the kernels run for each (CtJob.programs), once per job; FALSE
 * with why (g_free it) if not. */
gboolean ct_job_prepare_arith (CtJob * job, gchar ** why);

/* Whether the job already holds the @n tensors @t. */
gboolean ct_job_has_tensors (const CtJob * job, const CtTensorInfo * t,
    guint n);

/* The job's kernels from @in to @out: on the GPU (@gpu: device pointers,
 * in a pushed context, on @stream; @kernel as asked, auto included) or on
 * the CPU (host pointers; @kernel is ignored). Permutations read dense
 * tensors; YUV frames on the GPU are read as @in's planes (on the CPU as
 * the packed RGB ct_job_run_cpu makes). *@ran gets the path the largest
 * plane or tensor took. */
CtResult ct_job_launch (const CtJob * job, CtKernel kernel, gboolean gpu,
    CtStream stream, const CtSpan * in, const CtSpan * out, CtPath * ran);


/* The size of a band of CtJobBands @which: chosen by measurement
 * (docs/memory.md), or CUDATRANSPOSE_BAND_BYTES for both (0: whole
 * frames, one copy each way, and no frame in flight), read once. */
gsize ct_job_band_bytes (CtJobBands which);

/* Cuts the job's input in bands of about @band_bytes (at most @max_bands
 * of them, rows in multiples of 16 so that every band's output starts on a
 * 16-byte boundary), in order of the input's rows; returns how many, or 0
 * when the job is not one the kernels can run in bands (tensors, and
 * 4:2:2 that videoflip resamples) or @band_bytes is 0. */
guint ct_job_bands (const CtJob * job, gsize band_bytes, CtBand * bands,
    guint max_bands);

/* One band as a plane of the kernels, from the piece's @in to its @out
 * (spans of the whole piece). */
void ct_job_band_plane (const CtJob * job, const CtBand * band,
    const CtSpan * in, const CtSpan * out, CtPlaneBatch * b);

/* The kernel of one band, from the piece's @in to its @out (device spans
 * of the whole piece). */
CtResult ct_job_launch_band (const CtJob * job, const CtBand * band,
    CtKernel kernel, CtStream stream, const CtSpan * in, const CtSpan * out,
    CtPath * ran);

/* The job on the CPU, the rows of a frame going out as a tensor packed
 * first where they are padded (YUV converted to RGB); @step says where a
 * failure happened. */
CtResult ct_job_run_cpu (const CtJob * job, const CtSpan * in,
    const CtSpan * out, CtStep * step);

/* Why something was refused, as GST_ELEMENT_ERROR would say it: the
 * element that owns the stream posts it, once (gst_element_message_full
 * takes the texts). */
typedef struct
{
  GQuark domain;                /* 0: nothing refused */
  gint code;
  gchar *text;                  /* for the user, or NULL */
  gchar *debug;                 /* for the developer, or NULL */
  const gchar *file, *function;
  gint line;
} CtRefusal;

void ct_refusal_set (CtRefusal * r, GQuark domain, gint code, gchar * text,
    gchar * debug, const gchar * file, const gchar * function, gint line);
void ct_refusal_clear (CtRefusal * r);

/* CT_REFUSE (r, STREAM, FORMAT, ("text %d", n), ("debug")): as
 * GST_ELEMENT_ERROR, into @r. */
#define CT_REFUSE(r, domain, code, text, debug)                           \
  ct_refusal_set ((r), GST_##domain##_ERROR, GST_##domain##_ERROR_##code, \
      _gst_element_error_printf text, _gst_element_error_printf debug,    \
      __FILE__, GST_FUNCTION, __LINE__)

G_END_DECLS
