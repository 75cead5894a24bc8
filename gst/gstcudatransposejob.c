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

#include "gstcudatransposejob.h"

#include <string.h>

/* Staged rows and pieces start on this boundary: the wide kernels' 16-byte
 * accesses need 16, and a whole 256-byte line keeps every row's
 * transactions aligned. */
#define DEVICE_ROW_ALIGN 256

G_STATIC_ASSERT (CT_JOB_MAX_PIECES >= GST_VIDEO_MAX_PLANES);

static const gchar *const mode_what[] = {
  "Transforming a buffer", "Transposing a frame", "Transposing tensors",
  "Permuting tensors", "Converting a frame to a tensor",
};

static const gchar *const step_names[] = {
  "making the CUDA context current", "allocating GPU memory",
  "copying the input to the GPU", "running the kernel",
  "copying the output from the GPU", "waiting for the GPU",
  "allocating memory to pack the frame's rows",
};

const gchar *
ct_job_what (const CtJob * job)
{
  if (job->mode == CT_JOB_VIDEO && job->mapping != CT_MAPPING_TRANSPOSE)
    return "Rotating or flipping a frame";
  return mode_what[job->mode];
}

const gchar *
ct_job_step_name (CtStep step)
{
  return step_names[step];
}

gboolean
ct_job_takes_tensors (const CtJob * job)
{
  return job->mode == CT_JOB_TENSORS || job->mode == CT_JOB_PERMUTE;
}

static gsize
device_pitch (gsize row_bytes)
{
  return (row_bytes + DEVICE_ROW_ALIGN - 1) / DEVICE_ROW_ALIGN *
      DEVICE_ROW_ALIGN;
}

/* A piece of @rows rows of @row bytes, staged on the device with rows
 * aligned (planes, which the kernels read with a pitch) or dense (tensors,
 * which they read whole). */
static void
piece_set (CtPiece * p, gsize row, gsize rows, gboolean aligned_rows)
{
  p->row = row;
  p->rows = rows;
  p->pitch = aligned_rows ? device_pitch (row) : row;
}

/* Lays the pieces out in the staging buffer, the inputs then the outputs,
 * each from an aligned offset (the kernels' fast paths, and ct_permute for
 * elements of 2 bytes and more, need aligned starts: back to back, an int64
 * tensor after a 1-byte one started off its words). dev_needed is
 * G_MAXSIZE where the total passes a gsize: no device has that memory, and
 * the allocation fails with the size. */
static void
lay_out (CtJob * job)
{
  gsize offset = 0, bytes;
  gboolean ok = TRUE;
  guint side, i;

  for (side = 0; side < 2; side++) {
    CtPiece *pieces = side ? job->out : job->in;

    for (i = 0; ok && i < job->n_pieces; i++) {
      pieces[i].offset = offset;
      ok = g_size_checked_mul (&bytes, pieces[i].pitch, pieces[i].rows) &&
          bytes <= G_MAXSIZE - DEVICE_ROW_ALIGN &&
          g_size_checked_add (&offset, offset, device_pitch (bytes));
    }
  }
  job->dev_needed = ok ? offset : G_MAXSIZE;
}

/* 4:2:2 that videoflip resamples: packed (YUY2, UYVY, YVYU) in every
 * mapping but vert and identity, which move whole macropixels (a plane of
 * 4-byte elements), and planar 16-bit chroma (I422_10LE, ..., I422_12BE)
 * where the axes swap; its luma, and its chroma where they stay, are
 * ordinary planes. Sets @g for plane @p of @info. */
static void
set_422 (CtPlaneGeometry * g, const GstVideoInfo * info, guint p,
    CtMapping mapping)
{
  const GstVideoFormatInfo *f = info->finfo;
  gboolean keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;

  g->is_422 = FALSE;
  if (GST_VIDEO_FORMAT_INFO_N_PLANES (f) == 1 &&
      GST_VIDEO_FORMAT_INFO_W_SUB (f, 1) == 1 &&
      GST_VIDEO_FORMAT_INFO_H_SUB (f, 1) == 0 &&
      GST_VIDEO_FORMAT_INFO_IS_YUV (f)) {
    /* packed: a macropixel is the element of a plane half as wide */
    if (mapping == CT_MAPPING_FLIP_VERTICAL ||
        mapping == CT_MAPPING_IDENTITY) {
      g->width = GST_VIDEO_INFO_WIDTH (info) / 2 +
          (GST_VIDEO_INFO_WIDTH (info) & 1);
      g->elem_size = 4;
      return;
    }
    g->is_422 = TRUE;
    g->layout = CT_422_PACKED;
    g->width = GST_VIDEO_INFO_WIDTH (info);
    g->y_offset = GST_VIDEO_FORMAT_INFO_POFFSET (f, 0);
    g->u_offset = GST_VIDEO_FORMAT_INFO_POFFSET (f, 1);
    g->v_offset = GST_VIDEO_FORMAT_INFO_POFFSET (f, 2);
  } else if (GST_VIDEO_FORMAT_INFO_N_PLANES (f) == 3 && p > 0 && !keep &&
      GST_VIDEO_FORMAT_INFO_W_SUB (f, 1) == 1 &&
      GST_VIDEO_FORMAT_INFO_H_SUB (f, 1) == 0 &&
      GST_VIDEO_FORMAT_INFO_PSTRIDE (f, 1) == 2) {
    g->is_422 = TRUE;
    g->layout = GST_VIDEO_FORMAT_INFO_IS_LE (f) ? CT_422_CHROMA_16LE :
        CT_422_CHROMA_16BE;
    g->width = GST_VIDEO_INFO_WIDTH (info);
  }
}

void
ct_job_set_video (CtJob * job, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, CtMapping mapping)
{
  gboolean keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
  guint p;

  memset (job, 0, sizeof (*job));
  job->mode = CT_JOB_VIDEO;
  job->mapping = mapping;
  job->in_info = *in_info;
  job->out_info = *out_info;
  job->n_planes = job->n_pieces = GST_VIDEO_INFO_N_PLANES (in_info);
  for (p = 0; p < job->n_planes; p++) {
    CtPlaneGeometry *g = &job->planes[p];
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (in_info->finfo, p, comp);
    g->width = GST_VIDEO_INFO_COMP_WIDTH (in_info, comp[0]);
    g->height = GST_VIDEO_INFO_COMP_HEIGHT (in_info, comp[0]);
    g->elem_size = GST_VIDEO_INFO_COMP_PSTRIDE (in_info, comp[0]);
    set_422 (g, in_info, p, mapping);
    if (g->is_422) {
      /* units (macropixels or 16-bit samples) of two pixels a row */
      gsize unit = g->layout == CT_422_PACKED ? 4 : 2;
      guint out_w = keep ? g->width : g->height;

      piece_set (&job->in[p], (gsize) (g->width / 2 + (g->width & 1)) * unit,
          g->height, TRUE);
      piece_set (&job->out[p], (gsize) (out_w / 2 + (out_w & 1)) * unit,
          keep ? g->height : g->width, TRUE);
      continue;
    }
    piece_set (&job->in[p], (gsize) g->width * g->elem_size, g->height, TRUE);
    piece_set (&job->out[p], (gsize) (keep ? g->width : g->height) *
        g->elem_size, keep ? g->height : g->width, TRUE);
  }
  lay_out (job);
  for (p = CT_JOB_PLAIN; p <= CT_JOB_HELD; p++)
    job->n_bands[p] = ct_job_bands (job, ct_job_band_bytes (p),
        job->bands[p], CT_JOB_MAX_BANDS);
}

/* Tensors transposed (@perm NULL) or permuted by @perm: one piece per
 * tensor, dense (the caller lays them out); the job's arithmetic kept. */
static void
set_tensors (CtJob * job, CtJobMode mode, const CtTensorInfo * in, guint n,
    const guint * perm)
{
  gboolean has_arith = job->has_arith;
  CtArithSpec *arith = has_arith ? g_memdup2 (&job->arith,
      sizeof (job->arith)) : NULL;
  guint i;

  memset (job, 0, sizeof (*job));
  if (arith) {
    job->has_arith = TRUE;
    job->arith = *arith;
    g_free (arith);
  }
  job->mode = mode;
  memcpy (job->tensors, in, n * sizeof (in[0]));
  job->n_tensors = job->n_pieces = n;
  if (perm) {
    memcpy (job->perm, perm, sizeof (job->perm));
    memcpy (job->run_perm, perm, sizeof (job->run_perm));
  }
  for (i = 0; i < 4; i++)
    job->staged_axis[i] = i;
  for (i = 0; i < n; i++) {
    guint64 d[4];
    guint k;

    if (perm) {
      ct_tensor_dims4 (&in[i], d);
      for (k = 0; k < 4; k++)
        job->dims4[i][k] = d[k];
    }
    job->tensor_bytes += ct_tensor_bytes (&in[i]);
    /* (at most CT_TENSOR_BYTES_LIMIT: a gsize) */
    piece_set (&job->in[i], ct_tensor_bytes (&in[i]), 1, FALSE);
    job->out[i] = job->in[i];
    if (job->has_arith) {
      CtTensorInfo out;

      /* (of another size: elements of the output type) */
      ct_job_out_tensor (job, i, &out);
      piece_set (&job->out[i], ct_tensor_bytes (&out), 1, FALSE);
    }
  }
}

void
ct_job_set_tensors (CtJob * job, const CtTensorInfo * in, guint n,
    const guint * perm)
{
  set_tensors (job, perm ? CT_JOB_PERMUTE : CT_JOB_TENSORS, in, n, perm);
  lay_out (job);
}

/* The YUV formats the conversion takes, as GStreamer names them. */
static const struct
{
  GstVideoFormat gst;
  CtYuvFormat ct;
} yuv_formats[] = {
  {GST_VIDEO_FORMAT_I420, CT_YUV_I420},
  {GST_VIDEO_FORMAT_YV12, CT_YUV_YV12},
  {GST_VIDEO_FORMAT_NV12, CT_YUV_NV12},
  {GST_VIDEO_FORMAT_NV21, CT_YUV_NV21},
  {GST_VIDEO_FORMAT_P010_10LE, CT_YUV_P010},
  {GST_VIDEO_FORMAT_P016_LE, CT_YUV_P016},
  {GST_VIDEO_FORMAT_Y444, CT_YUV_Y444},
  {GST_VIDEO_FORMAT_I422_10LE, CT_YUV_I422_10},
  {GST_VIDEO_FORMAT_Y444_10LE, CT_YUV_Y444_10},
  {GST_VIDEO_FORMAT_Y42B, CT_YUV_Y42B},
  {GST_VIDEO_FORMAT_NV16, CT_YUV_NV16},
  {GST_VIDEO_FORMAT_NV24, CT_YUV_NV24},
};

static gboolean
yuv_format (const GstVideoInfo * info, CtYuvFormat * format)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (yuv_formats); i++) {
    if (yuv_formats[i].gst == GST_VIDEO_INFO_FORMAT (info)) {
      *format = yuv_formats[i].ct;
      return TRUE;
    }
  }
  return FALSE;
}

gboolean
ct_job_is_yuv (const GstVideoInfo * info)
{
  CtYuvFormat format;

  return yuv_format (info, &format);
}

gboolean
ct_job_yuv_frame (const GstVideoInfo * info, CtYuvFrame * f, gchar ** why)
{
  GstVideoColorMatrix matrix = info->colorimetry.matrix;

  memset (f, 0, sizeof (*f));
  if (!yuv_format (info, &f->format)) {
    *why = g_strdup_printf ("%s is not a YUV format converted here",
        GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  switch (matrix) {
    case GST_VIDEO_COLOR_MATRIX_BT601:
      f->matrix = CT_YUV_BT601;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT709:
      f->matrix = CT_YUV_BT709;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT2020:
      f->matrix = CT_YUV_BT2020;
      break;
    default:{
      gchar *c = gst_video_colorimetry_to_string (&info->colorimetry);

      *why = g_strdup_printf ("its colorimetry (%s) has a colour matrix "
          "other than BT.601, BT.709 or BT.2020", c ? c : "unknown");
      g_free (c);
      return FALSE;
    }
  }
  /* as videoconvert: a range it does not know is full */
  if (info->colorimetry.range != GST_VIDEO_COLOR_RANGE_16_235)
    f->flags |= CT_YUV_FULL_RANGE;
  if (info->chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED)
    f->flags |= CT_YUV_CHROMA_H_COSITED;
  if (info->chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED)
    f->flags |= CT_YUV_CHROMA_V_COSITED;
  f->width = GST_VIDEO_INFO_WIDTH (info);
  f->height = GST_VIDEO_INFO_HEIGHT (info);
  return TRUE;
}

void
ct_job_yuv_planes (const CtJob * job, const CtSpan * in, CtYuvFrame * f)
{
  guint p;

  *f = job->yuv;
  for (p = 0; p < job->n_planes; p++) {
    f->planes[p] = in[p].data;
    f->strides[p] = in[p].stride;
  }
}

/* YUV video in (the caller set the HWC tensor "3:W:H:1"): its planes,
 * staged dense and back to back as the input piece. */
static void
set_yuv (CtJob * job, const GstVideoInfo * info, gboolean bgr,
    CtMapping turn)
{
  gchar *why = NULL;
  guint p;

  job->from_yuv = TRUE;
  job->bgr = bgr;
  job->turn = turn;
  /* (the caller checked the colorimetry) */
  if (!ct_job_yuv_frame (info, &job->yuv, &why))
    g_free (why);
  job->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < job->n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    job->planes[p].width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    job->planes[p].height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    job->planes[p].elem_size = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
  }
  /* (GstVideoInfo bounds the frame below 4 GB) */
  piece_set (&job->in[0], ct_job_staged_offset (job, job->n_planes), 1,
      FALSE);
  lay_out (job);
}

void
ct_job_set_video_to_tensor (CtJob * job, const GstVideoInfo * info,
    const guint perm[4], gboolean bgr, CtMapping turn)
{
  gboolean yuv = ct_job_is_yuv (info);
  /* planar RGB (RGBP, BGRP, GBR): channel k is plane k */
  gboolean planar = !yuv && GST_VIDEO_INFO_N_PLANES (info) > 1;
  guint c = yuv ? 3 : planar ? GST_VIDEO_INFO_N_PLANES (info) :
      (guint) GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  CtTensorInfo hwc;
  guint p, k;

  g_return_if_fail (yuv || turn == CT_MAPPING_IDENTITY);
  /* the frame (turned) as a tensor (GstVideoInfo bounds it below 4 GB) */
  memset (&hwc, 0, sizeof (hwc));
  hwc.rank = 4;
  hwc.dims[0] = c;
  hwc.dims[1] = turn & CT_MAPPING_KEEP_AXES ? GST_VIDEO_INFO_WIDTH (info) :
      GST_VIDEO_INFO_HEIGHT (info);
  hwc.dims[2] = turn & CT_MAPPING_KEEP_AXES ? GST_VIDEO_INFO_HEIGHT (info) :
      GST_VIDEO_INFO_WIDTH (info);
  hwc.dims[3] = 1;
  hwc.elem_size = 1;
  hwc.type = "uint8";
  hwc.planes = hwc.dims[2];
  hwc.bytes = hwc.dims[0] * hwc.dims[1] * hwc.dims[2];
  set_tensors (job, CT_JOB_VIDEO_TO_TENSOR, &hwc, 1, perm);
  job->in_info = *info;
  if (yuv) {
    set_yuv (job, info, bgr, turn);
    return;
  }
  job->turn = CT_MAPPING_IDENTITY;
  /* its input is a frame, whose rows may be padded: packed on the way in
   * (on the device by the upload's 2-D copies, on the CPU by run_cpu),
   * the planes of planar RGB back to back: staged as the CHW tensor
   * W:H:C:1, which the kernels permute by @perm composed with that order
   * (the default CHW becomes the identity) */
  job->n_planes = planar ? c : 1;
  for (p = 0; p < job->n_planes; p++) {
    job->planes[p].width = hwc.dims[1];
    job->planes[p].height = hwc.dims[2];
    job->planes[p].elem_size = planar ? 1 : c;
  }
  if (planar) {
    static const guint chw_axis[4] = { 2, 0, 1, 3 };

    memcpy (job->staged_axis, chw_axis, sizeof (chw_axis));
    for (k = 0; k < 4; k++) {
      job->dims4[0][chw_axis[k]] = hwc.dims[k];
      job->run_perm[k] = chw_axis[job->perm[k]];
    }
  }
  piece_set (&job->in[0], (gsize) (planar ? 1 : c) * hwc.dims[1],
      hwc.dims[2] * job->n_planes, FALSE);
  lay_out (job);
}

gsize
ct_job_frame_row (const CtJob * job, guint p)
{
  if (job->mode == CT_JOB_VIDEO_TO_TENSOR)
    return (gsize) job->planes[p].width * job->planes[p].elem_size;
  return job->in[p].row;
}

gsize
ct_job_staged_offset (const CtJob * job, guint p)
{
  gsize offset = 0;
  guint k;

  for (k = 0; k < p; k++)
    offset += ct_job_frame_row (job, k) * job->planes[k].height;
  return offset;
}

gboolean
ct_job_has_tensors (const CtJob * job, const CtTensorInfo * t, guint n)
{
  guint i, k;

  if (job->n_tensors != n)
    return FALSE;
  for (i = 0; i < n; i++) {
    if (job->tensors[i].rank != t[i].rank ||
        !g_str_equal (job->tensors[i].type, t[i].type))
      return FALSE;
    for (k = 0; k < t[i].rank; k++)
      if (job->tensors[i].dims[k] != t[i].dims[k])
        return FALSE;
  }
  return TRUE;
}

/* (a type the arithmetic cannot take is left for ct_job_check_arith to
 * refuse) */
const gchar *
ct_job_out_type (const CtJob * job, const CtTensorInfo * t)
{
  CtType type;

  if (!job->has_arith || !ct_arith_type_of (t->type, &type))
    return t->type;
  return ct_type_name (ct_arith_out_type (&job->arith, type));
}

void
ct_job_out_tensor (const CtJob * job, guint i, CtTensorInfo * out)
{
  const CtTensorInfo *in = &job->tensors[i];
  CtType type;
  guint64 elems;

  /* (the job took only tensors that rearrange) */
  ct_tensor_rearranged (in, job->mode == CT_JOB_TENSORS ? NULL : job->perm,
      out);
  if (!job->has_arith || !ct_arith_type_of (in->type, &type))
    return;
  elems = in->bytes / in->elem_size;
  out->type = ct_job_out_type (job, in);
  out->elem_size = ct_type_size (ct_arith_out_type (&job->arith, type));
  out->bytes = elems * out->elem_size;
}

gboolean
ct_job_tensor_arith (const CtJob * job, guint i, const CtTensorInfo * t,
    CtArith * a, gchar ** why)
{
  gchar *reason = NULL;

  if (ct_arith_check (&job->arith, t, a, &reason))
    return TRUE;
  *why = g_strdup_printf ("tensor %u (%s): %s", i, t->type, reason);
  g_free (reason);
  return FALSE;
}

gboolean
ct_job_prepare_arith (CtJob * job, gchar ** why)
{
  CtArith *a;
  guint32 prepared = 0;
  guint i;

  *why = NULL;
  if (!job->has_arith)
    return TRUE;
  a = g_new (CtArith, 1);
  for (i = 0; i < job->n_tensors; i++) {
    const CtTensorInfo *t = &job->tensors[i];

    if (!ct_job_tensor_arith (job, i, t, a, why))
      break;
    /* a transpose runs tensors past rank 4 as d0:d1:planes, where the
     * sizes past the second are one */
    if (job->mode == CT_JOB_TENSORS && t->rank > 4 &&
        job->arith.per_channel && job->arith.arith.channel_dim >= 2) {
      *why = g_strdup_printf ("tensor %u has rank %u: per-channel "
          "arithmetic along dimension %u runs on tensors of rank 4 or less "
          "(or along dimension 0 or 1)", i, t->rank,
          job->arith.arith.channel_dim);
      break;
    }
    /* (one program per input type: the rest of it is the option's) */
    if (prepared & (1u << a->in_type))
      continue;
    prepared |= 1u << a->in_type;
    /* a permutation runs the tensor as staged: the channel dimension
     * where the staging put it */
    if (job->mode != CT_JOB_TENSORS && a->channel_dim < 4)
      a->channel_dim = job->staged_axis[a->channel_dim];
    job->programs[a->in_type] = *a;
  }
  g_free (a);
  return *why == NULL;
}

/* Each tensor's planes, from @in to @out (dense), as one batch per tensor
 * (the planes of a tensor lie back to back). */
static void
tensor_batches (const CtJob * job, const CtSpan * in, const CtSpan * out,
    CtPlaneBatch * batches)
{
  guint i;

  for (i = 0; i < job->n_tensors; i++) {
    const CtTensorInfo *t = &job->tensors[i];
    CtPlaneBatch *b = &batches[i];
    guint width = t->dims[0], height = t->rank > 1 ? t->dims[1] : 1;

    b->plane.src = in[i].data;
    b->plane.dst = out[i].data;
    b->plane.src_stride = (gsize) width * t->elem_size;
    b->plane.dst_stride = (gsize) height * t->elem_size;
    b->plane.width = width;
    b->plane.height = height;
    b->plane.elem_size = t->elem_size;
    /* at most G_MAXUINT: the element refuses more at negotiation */
    b->count = (guint) ct_tensor_planes (t);
    b->src_step = b->dst_step = (gsize) width * height * t->elem_size;
  }
}

/* A frame: its ordinary planes in one launch (one batch of one each), its
 * 4:2:2 ones that videoflip resamples in another. @ran gets the path of
 * the frame's first plane (its luma, or all of packed 4:2:2). */
static CtResult
launch_video (const CtJob * job, CtKernel kernel, gboolean gpu,
    CtStream stream, const CtSpan * in, const CtSpan * out, CtPath * ran)
{
  CtPlaneBatch batches[GST_VIDEO_MAX_PLANES];
  CtPlane422 resampled[GST_VIDEO_MAX_PLANES];
  guint i, n = 0, n_422 = 0;
  CtResult res = CT_OK;

  for (i = 0; i < job->n_planes; i++) {
    const CtPlaneGeometry *g = &job->planes[i];

    if (g->is_422) {
      CtPlane422 *q = &resampled[n_422++];

      q->src = in[i].data;
      q->src_stride = in[i].stride;
      q->dst = out[i].data;
      q->dst_stride = out[i].stride;
      q->width = g->width;
      q->height = g->height;
      q->layout = g->layout;
      q->y_offset = g->y_offset;
      q->u_offset = g->u_offset;
      q->v_offset = g->v_offset;
    } else {
      CtPlane *pl = &batches[n].plane;

      pl->src = in[i].data;
      pl->src_stride = in[i].stride;
      pl->dst = out[i].data;
      pl->dst_stride = out[i].stride;
      pl->width = g->width;
      pl->height = g->height;
      pl->elem_size = g->elem_size;
      batches[n].count = 1;
      batches[n].src_step = batches[n].dst_step = 0;
      n++;
    }
  }
  if (n > 0)
    res = gpu ? ct_transpose_batches_ex (batches, n, kernel, CT_PATH_NONE,
        job->mapping, stream, ran) :
        ct_transpose_batches_cpu (batches, n, job->mapping);
  if (res == CT_OK && n_422 > 0) {
    res = gpu ? ct_transpose_422 (resampled, n_422, job->mapping, stream) :
        ct_transpose_422_cpu (resampled, n_422, job->mapping);
    if (job->planes[0].is_422)
      *ran = gpu ? CT_PATH_YUV422 : CT_PATH_CPU;
  }
  return res;
}

/* Every tensor with the arithmetic on the way, its layout changed as the
 * mode says: a transpose as the permutation {1, 0, 2, 3} of d0:d1:planes
 * (of its own four sizes where it has no more, so that a per-channel
 * dimension is its own), a permutation (video: the frame as C:W:H:1, its
 * rows packed) as it is. The largest tensor's path is reported. */
static CtResult
launch_arith (const CtJob * job, gboolean gpu, CtStream stream,
    const CtSpan * in, const CtSpan * out, CtPath * ran)
{
  static const guint swap[4] = { 1, 0, 2, 3 };
  CtResult res = CT_OK;
  guint64 most = 0;
  guint i;

  for (i = 0; res == CT_OK && i < job->n_tensors; i++) {
    const CtTensorInfo *t = &job->tensors[i];
    const CtArith *a;
    unsigned long long dims[4];
    const guint *perm = job->run_perm;
    CtPath path = CT_PATH_CPU;
    CtType type;
    guint64 d[4];
    guint k;

    /* (prepared at negotiation, or for flexible tensors at their
     * buffer) */
    if (!ct_arith_type_of (t->type, &type))
      return CT_ERROR_INVALID_ARGUMENT;
    a = &job->programs[type];
    if (job->mode == CT_JOB_TENSORS) {
      perm = swap;
      if (!ct_tensor_dims4 (t, d)) {
        d[0] = t->dims[0];
        d[1] = t->dims[1];
        d[2] = ct_tensor_planes (t);
        d[3] = 1;
      }
    } else {
      memcpy (d, job->dims4[i], sizeof (d));
    }
    for (k = 0; k < 4; k++)
      dims[k] = d[k];
    res = gpu ? ct_permute_arith (in[i].data, out[i].data, dims, perm, a,
        stream, &path) : ct_permute_arith_cpu (in[i].data, out[i].data, dims,
        perm, a);
    if (res == CT_OK && ct_tensor_bytes (t) > most) {
      most = ct_tensor_bytes (t);
      *ran = path;
    }
  }
  return res;
}

CtResult
ct_job_launch (const CtJob * job, CtKernel kernel, gboolean gpu,
    CtStream stream, const CtSpan * in, const CtSpan * out, CtPath * ran)
{
  CtPlaneBatch batches[MAX (GST_VIDEO_MAX_PLANES, CT_TENSOR_COUNT_LIMIT)];
  CtResult res = CT_OK;
  guint64 most = 0;
  guint i;

  *ran = gpu ? CT_PATH_NONE : CT_PATH_CPU;
  if (job->from_yuv) {
    const CtArith *arith = job->has_arith ? &job->programs[CT_TYPE_UINT8] :
        NULL;
    CtYuvFrame f;

    ct_job_yuv_planes (job, in, &f);
    return gpu ? ct_yuv_to_tensor (&f, job->bgr, job->turn, job->run_perm,
        arith, out[0].data, stream, ran) : ct_yuv_to_tensor_cpu (&f,
        job->bgr, job->turn, job->run_perm, arith, out[0].data);
  }
  if (job->has_arith && job->mode != CT_JOB_VIDEO)
    return launch_arith (job, gpu, stream, in, out, ran);
  switch (job->mode) {
    case CT_JOB_VIDEO:
      return launch_video (job, kernel, gpu, stream, in, out, ran);
    case CT_JOB_TENSORS:
      /* every plane of up to CT_PLANES_PER_LAUNCH tensors in one launch */
      tensor_batches (job, in, out, batches);
      return gpu ? ct_transpose_batches_ex (batches, job->n_tensors, kernel,
          CT_PATH_NONE, CT_MAPPING_TRANSPOSE, stream, ran) :
          ct_transpose_batches_cpu (batches, job->n_tensors,
          CT_MAPPING_TRANSPOSE);
    case CT_JOB_PERMUTE:
    case CT_JOB_VIDEO_TO_TENSOR:
      /* the kernels pick their own path per shape: the kernel property
       * only applies to transposed planes; the largest tensor's is
       * reported */
      for (i = 0; res == CT_OK && i < job->n_tensors; i++) {
        CtPath path = CT_PATH_CPU;

        res = gpu ? ct_permute_ex (in[i].data, out[i].data, job->dims4[i],
            job->tensors[i].elem_size, job->run_perm, stream, &path) :
            ct_permute_cpu (in[i].data, out[i].data, job->dims4[i],
            job->tensors[i].elem_size, job->run_perm);
        if (res == CT_OK && ct_tensor_bytes (&job->tensors[i]) > most) {
          most = ct_tensor_bytes (&job->tensors[i]);
          *ran = path;
        }
      }
      return res;
    case CT_JOB_NONE:
      break;
  }
  return CT_ERROR_INVALID_ARGUMENT;
}

/* Band rows come in multiples of this: 16 elements of any size are a
 * multiple of 16 bytes, the alignment the wide kernels read and write. */
#define BAND_ROW_STEP 16

/* The band of piece @p from row @first, @rows rows; where the output's
 * columns (axes swapped) or rows (kept) are counted from the other end,
 * the band's output is counted from there too. */
static void
band_set (const CtJob * job, guint p, gsize first, gsize rows, CtBand * b)
{
  const CtPlaneGeometry *g = &job->planes[p];
  gboolean keep = (job->mapping & CT_MAPPING_KEEP_AXES) != 0;
  gsize start;

  b->piece = p;
  b->first = first;
  b->rows = rows;
  if (keep) {
    start = (job->mapping & CT_MAPPING_MIRROR_ROWS) ?
        g->height - first - rows : first;
    b->out_x = 0;
    b->out_y = start;
    b->out_row = (gsize) g->width * g->elem_size;
    b->out_rows = rows;
  } else {
    start = (job->mapping & CT_MAPPING_MIRROR_COLUMNS) ?
        g->height - first - rows : first;
    b->out_x = start * g->elem_size;
    b->out_y = 0;
    b->out_row = rows * g->elem_size;
    b->out_rows = g->width;
  }
}

/* Where a band that reaches at least row @r of a plane of @height rows
 * ends: on a step, counted from the top, or from the bottom where the
 * output is mirrored along the band's axis (so that every band's output
 * starts on a step), or at the last row. */
static gsize
band_end (gsize r, gsize height, gboolean mirrored)
{
  if (r >= height)
    return height;
  if (mirrored)
    return height - (height - r) / BAND_ROW_STEP * BAND_ROW_STEP;
  return MIN ((r + BAND_ROW_STEP - 1) / BAND_ROW_STEP * BAND_ROW_STEP,
      height);
}

/* The bands of about @size bytes, ramped: the first two a quarter and a
 * half of it, so that the kernels and the download start early, and the
 * last ones halving, so that little is left to download after the last
 * upload. Returns how many, or more than @max_bands when they do not
 * fit (then only the first @max_bands are written). */
static guint
cut_bands (const CtJob * job, gsize size, CtBand * bands, guint max_bands)
{
  gsize left = 0;
  guint p, n = 0;

  for (p = 0; p < job->n_planes; p++)
    left += job->in[p].row * job->planes[p].height;
  for (p = 0; p < job->n_planes; p++) {
    gsize height = job->planes[p].height, row = MAX (job->in[p].row, 1);
    gboolean mirrored = (job->mapping & CT_MAPPING_KEEP_AXES) ?
        (job->mapping & CT_MAPPING_MIRROR_ROWS) != 0 :
        (job->mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
    gsize first = 0;

    while (first < height) {
      gsize want = MIN (size, MAX (left / 2, size / 4)), end;

      if (n < 2)
        want = MIN (want, size / (n == 0 ? 4 : 2));
      end = band_end (first + MAX (want / row, 1), height, mirrored);
      if (n < max_bands)
        band_set (job, p, first, end - first, &bands[n]);
      if (++n > max_bands)
        return n;               /* too many: no need to count them all */
      left -= MIN (left, (end - first) * row);
      first = end;
    }
  }
  return n;
}

/* The sizes of a band: measured, docs/memory.md. */
#define DEFAULT_BAND_BYTES (2 * 1024 * 1024)
#define DEFAULT_HELD_BAND_BYTES (32 * 1024 * 1024)

gsize
ct_job_band_bytes (CtJobBands which)
{
  static gsize sizes[2];
  static gsize read_once = 0;

  if (g_once_init_enter (&read_once)) {
    const gchar *env = g_getenv ("CUDATRANSPOSE_BAND_BYTES");
    guint64 v;

    sizes[CT_JOB_PLAIN] = DEFAULT_BAND_BYTES;
    sizes[CT_JOB_HELD] = DEFAULT_HELD_BAND_BYTES;
    if (env && g_ascii_string_to_unsigned (env, 10, 0, G_MAXSIZE, &v, NULL))
      sizes[CT_JOB_PLAIN] = sizes[CT_JOB_HELD] = (gsize) v;
    else if (env)
      GST_WARNING ("CUDATRANSPOSE_BAND_BYTES=%s is not a number of bytes; "
          "using the defaults", env);
    g_once_init_leave (&read_once, 1);
  }
  return sizes[which];
}

guint
ct_job_bands (const CtJob * job, gsize band_bytes, CtBand * bands,
    guint max_bands)
{
  gsize size = band_bytes;
  guint p, n;

  if (job->mode != CT_JOB_VIDEO || band_bytes == 0 ||
      max_bands < job->n_planes)
    return 0;
  for (p = 0; p < job->n_planes; p++)
    if (job->planes[p].is_422)
      return 0;
  /* larger bands until they fit */
  while ((n = cut_bands (job, size, bands, max_bands)) > max_bands)
    size = size > G_MAXSIZE / 2 ? G_MAXSIZE : size * 2;
  return n;
}

void
ct_job_band_plane (const CtJob * job, const CtBand * band, const CtSpan * in,
    const CtSpan * out, CtPlaneBatch * b)
{
  const CtPlaneGeometry *g = &job->planes[band->piece];

  memset (b, 0, sizeof (*b));
  b->plane.src = in->data + band->first * in->stride;
  b->plane.src_stride = in->stride;
  b->plane.dst = out->data + band->out_y * out->stride + band->out_x;
  b->plane.dst_stride = out->stride;
  b->plane.width = g->width;
  b->plane.height = (unsigned int) band->rows;
  b->plane.elem_size = g->elem_size;
  b->count = 1;
}

CtResult
ct_job_launch_band (const CtJob * job, const CtBand * band, CtKernel kernel,
    CtStream stream, const CtSpan * in, const CtSpan * out, CtPath * ran)
{
  CtPlaneBatch b;

  ct_job_band_plane (job, band, in, out, &b);
  return ct_transpose_batches_ex (&b, 1, kernel, CT_PATH_NONE, job->mapping,
      stream, ran);
}

CtResult
ct_job_run_cpu (const CtJob * job, const CtSpan * in, const CtSpan * out,
    CtStep * step)
{
  const CtPiece *p = &job->in[0];
  CtSpan src[CT_JOB_MAX_PIECES];
  CtPath ran;
  guint8 *packed = NULL;
  CtResult res;
  gsize y;
  guint k;

  *step = CT_STEP_KERNEL;
  /* (YUV is converted where its planes lie, in the one pass) */
  if (job->from_yuv)
    return ct_job_launch (job, CT_KERNEL_CPU, FALSE, NULL, in, out, &ran);
  memcpy (src, in, job->n_pieces * sizeof (in[0]));
  if (job->mode == CT_JOB_VIDEO_TO_TENSOR &&
      (job->n_planes > 1 || in[0].stride != p->row)) {
    *step = CT_STEP_PACK;
    packed = g_try_malloc (p->row * p->rows);
    if (!packed)
      return CT_ERROR_INVALID_ARGUMENT;     /* the step says what failed */
    for (k = 0; k < job->n_planes; k++) {
      gsize row = ct_job_frame_row (job, k);
      guint8 *dst = packed + ct_job_staged_offset (job, k);

      for (y = 0; y < job->planes[k].height; y++)
        memcpy (dst + y * row, in[k].data + y * in[k].stride, row);
    }
    src[0].data = packed;
    src[0].stride = p->row;
  }
  *step = CT_STEP_KERNEL;
  res = ct_job_launch (job, CT_KERNEL_CPU, FALSE, NULL, src, out, &ran);
  g_free (packed);
  return res;
}

void
ct_refusal_set (CtRefusal * r, GQuark domain, gint code, gchar * text,
    gchar * debug, const gchar * file, const gchar * function, gint line)
{
  ct_refusal_clear (r);
  r->domain = domain;
  r->code = code;
  r->text = text;
  r->debug = debug;
  r->file = file;
  r->function = function;
  r->line = line;
}

void
ct_refusal_clear (CtRefusal * r)
{
  g_clear_pointer (&r->text, g_free);
  g_clear_pointer (&r->debug, g_free);
  r->domain = 0;
}
