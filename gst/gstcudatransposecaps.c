/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The element's caps algebra: what each side takes given the other, with
 * the settings (permutation, direction) passed in; the job a pair of caps
 * makes is gstcudatransposecapsjob.c's. Pure functions of caps and
 * settings, unit-tested without a pipeline (tests/unit/caps.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposecaps.h"

#include <string.h>

#include "gstcudatransposedirection.h"
#include "gstcudatransposetensor.h"

static void
invert_fraction (gint n, gint d, gint * in, gint * id)
{
  /* 0/1 stands for "any" at the bottom of a range; its inverse is the top */
  if (n == 0) {
    *in = G_MAXINT;
    *id = 1;
  } else {
    *in = d;
    *id = n;
  }
}

static void
invert_par (const GValue * src, GValue * dst)
{
  gint n, d;

  if (GST_VALUE_HOLDS_FRACTION (src)) {
    invert_fraction (gst_value_get_fraction_numerator (src),
        gst_value_get_fraction_denominator (src), &n, &d);
    g_value_init (dst, GST_TYPE_FRACTION);
    gst_value_set_fraction (dst, n, d);
  } else if (GST_VALUE_HOLDS_FRACTION_RANGE (src)) {
    const GValue *lo = gst_value_get_fraction_range_min (src);
    const GValue *hi = gst_value_get_fraction_range_max (src);
    gint ln, ld;

    invert_fraction (gst_value_get_fraction_numerator (hi),
        gst_value_get_fraction_denominator (hi), &ln, &ld);
    invert_fraction (gst_value_get_fraction_numerator (lo),
        gst_value_get_fraction_denominator (lo), &n, &d);
    g_value_init (dst, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (dst, ln, ld, n, d);
  } else if (GST_VALUE_HOLDS_LIST (src)) {
    guint i;

    g_value_init (dst, GST_TYPE_LIST);
    for (i = 0; i < gst_value_list_get_size (src); i++) {
      GValue item = G_VALUE_INIT;

      invert_par (gst_value_list_get_value (src, i), &item);
      gst_value_list_append_and_take_value (dst, &item);
    }
  } else {
    g_value_init (dst, G_VALUE_TYPE (src));
    g_value_copy (src, dst);
  }
}

gboolean
ct_caps_is_cuda_memory (GstCapsFeatures * features)
{
  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

GstCaps *
ct_caps_cuda_only (GstCaps * caps, GstCaps * upstream)
{
  GstCaps *cuda_only;
  gboolean offered = FALSE;
  guint i;

  /* (frames only: tensors are asked for in CUDA memory by name, by a
   * capsfilter, and go on as negotiated) */
  for (i = 0; upstream && !gst_caps_is_any (upstream) &&
      i < gst_caps_get_size (upstream); i++)
    offered |= ct_caps_is_cuda_memory (gst_caps_get_features (upstream, i))
        && !ct_tensor_caps_is_tensor (gst_caps_get_structure (upstream, i));
  if (!offered)
    return NULL;
  cuda_only = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (ct_caps_is_cuda_memory (f) &&
        !ct_tensor_caps_is_tensor (gst_caps_get_structure (caps, i)))
      gst_caps_append_structure_full (cuda_only,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (f));
  }
  if (gst_caps_is_empty (cuda_only))
    gst_clear_caps (&cuda_only);
  return cuda_only;
}

gboolean
ct_caps_is_tensor_only (const gchar * format)
{
  const gchar *list = CT_CAPS_TENSOR_ONLY_FORMATS, *at = list;
  gsize n = format ? strlen (format) : 0;

  /* (a whole name of the list: after its start or a space, before its end
   * or a comma) */
  while (n > 0 && (at = strstr (at, format)) != NULL) {
    if ((at == list || at[-1] == ' ') && (at[n] == '\0' || at[n] == ','))
      return TRUE;
    at += n;
  }
  return FALSE;
}

/* Whether @format (may be NULL) is packed 4:2:2 (YUY2, UYVY, YVYU). */
gboolean
ct_caps_is_packed_422 (const gchar * format)
{
  return format && (g_str_equal (format, "YUY2") ||
      g_str_equal (format, "UYVY") || g_str_equal (format, "YVYU"));
}

/* (gstcudatransposecaps.h) Two layouts of GStreamer's CUDA memory hold
 * less than a whole frame:
 * - packed 4:2:2 of odd width: its rows are width x 2 bytes there (the
 *   copies in and out, gst_cuda_buffer_copy, cudaupload and cudadownload,
 *   move that much), so the last pixel's second chroma byte is not part of
 *   it. Read, it would spread a byte nobody wrote into visible pixels.
 * - NV21 of odd height from GStreamer 1.24 on: its CUDA allocator gives
 *   NV21 height + height / 2 rows, rounding the height up to even for
 *   NV12 but not for NV21, so the last chroma row lies past the memory
 *   (for a height of 1 the whole chroma plane does). */
const gchar *
ct_caps_cuda_shortfall (const gchar * format, gint width, gint height)
{
  if (ct_caps_is_packed_422 (format) && width > 0 && (width & 1))
    return "frames of odd width cannot be carried in CUDA memory: "
        "GStreamer's CUDA frames hold width x 2 bytes a row, without the "
        "last pixel's second chroma byte";
#if GST_CHECK_VERSION (1, 24, 0)
  if (format && g_str_equal (format, "NV21") && height > 0 && (height & 1))
    return "frames of odd height cannot be carried in CUDA memory from "
        "GStreamer 1.24 on: its CUDA allocator leaves out their last "
        "chroma row";
#endif
  return NULL;
}

/* Whether structure @i of @caps is CUDA memory that would lose bytes: a
 * fixed size that ct_caps_cuda_shortfall refuses (of a format list, such
 * formats are taken out; FALSE then if others remain). */
static gboolean
loses_bytes_in_cuda (GstCaps * caps, guint i)
{
  GstStructure *s = gst_caps_get_structure (caps, i);
  const GValue *formats = gst_structure_get_value (s, "format");
  GValue kept = G_VALUE_INIT;
  gint width = 0, height = 0;
  guint k;

  if (!ct_caps_is_cuda_memory (gst_caps_get_features (caps, i)) || !formats)
    return FALSE;
  /* (a range or a list is no fixed size: 0, judged by neither rule) */
  gst_structure_get_int (s, "width", &width);
  gst_structure_get_int (s, "height", &height);
  if (G_VALUE_HOLDS_STRING (formats))
    return ct_caps_cuda_shortfall (g_value_get_string (formats), width,
        height) != NULL;
  if (!GST_VALUE_HOLDS_LIST (formats))
    return FALSE;
  g_value_init (&kept, GST_TYPE_LIST);
  for (k = 0; k < gst_value_list_get_size (formats); k++) {
    const GValue *f = gst_value_list_get_value (formats, k);

    if (!G_VALUE_HOLDS_STRING (f) ||
        !ct_caps_cuda_shortfall (g_value_get_string (f), width, height))
      gst_value_list_append_value (&kept, f);
  }
  if (gst_value_list_get_size (&kept) == 0) {
    g_value_unset (&kept);
    return TRUE;
  }
  gst_structure_take_value (s, "format", &kept);
  return FALSE;
}

/* @caps (taken) without the CUDA memory that would lose bytes, unless
 * nothing else is left: then set_caps refuses it, saying why. */
static GstCaps *
without_lossy_cuda (GstCaps * caps)
{
  GstCaps *ret = gst_caps_copy (caps);
  guint i = gst_caps_get_size (ret);

  while (i-- > 0) {
    if (loses_bytes_in_cuda (ret, i))
      gst_caps_remove_structure (ret, i);
  }
  if (gst_caps_is_empty (ret)) {
    gst_caps_unref (ret);
    return caps;
  }
  gst_caps_unref (caps);
  return ret;
}

/* gst_video_info_from_caps, with IYUV (I420's other name, which
 * GstVideoInfo does not know) read as I420. */
gboolean
ct_caps_video_info (GstVideoInfo * info, const GstCaps * caps)
{
  const gchar *format;
  GstCaps *i420;
  gboolean ok;

  if (gst_caps_get_size (caps) < 1)
    return FALSE;
  format = gst_structure_get_string (gst_caps_get_structure (caps, 0),
      "format");
  if (!format || !g_str_equal (format, "IYUV"))
    return gst_video_info_from_caps (info, caps);
  i420 = gst_caps_copy (caps);
  gst_caps_set_simple (i420, "format", G_TYPE_STRING, "I420", NULL);
  ok = gst_video_info_from_caps (info, i420);
  gst_caps_unref (i420);
  return ok;
}

/* @caps (a copy) with each structure moved to the other memory: CUDA to
 * system, anything else to CUDA; with @tensors_only, only its tensor
 * structures (a tensor may go out in either memory, whichever it came in;
 * the pad templates keep CUDA memory to one static tensor). */
static GstCaps *
with_other_memory (GstCaps * caps, gboolean tensors_only)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);

    if (tensors_only && !ct_tensor_caps_is_tensor (s))
      continue;
    gst_caps_append_structure_full (ret, gst_structure_copy (s),
        ct_caps_is_cuda_memory (gst_caps_get_features (caps, i)) ?
        gst_caps_features_new_empty () :
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  }
  return ret;
}

/* Packed RGB video goes out as a tensor by default in CHW order: the
 * frame, seen as the HWC tensor "C:W:H:1", permuted by 1:2:0:3. */
const guint ct_caps_chw_permutation[4] = { 1, 2, 0, 3 };

/* RGB formats and their channels, for video in and CHW tensors out: packed;
 * planar, channel k being plane k as GStreamer orders them (RGBP: R, G, B;
 * BGRP: B, G, R; GBR: G, B, R), the same tensor as packed RGB of that
 * channel order; GRAY8, one channel (tensor_converter's 1:W:H:1); and
 * the YUV formats the job converts to RGB (ct_job_is_yuv), after them so
 * that a source that can give RGB does. */
static const struct
{
  const gchar *format;
  guint channels;
} chw_formats[] = {
  {"RGB", 3}, {"BGR", 3}, {"RGBA", 4}, {"BGRA", 4}, {"RGBx", 4},
  {"BGRx", 4}, {"RGBP", 3}, {"BGRP", 3}, {"GBR", 3}, {"GRAY8", 1},
  {"I420", 3}, {"YV12", 3}, {"NV12", 3}, {"NV21", 3}, {"P010_10LE", 3},
  {"P016_LE", 3}, {"Y444", 3}, {"I422_10LE", 3}, {"Y444_10LE", 3},
  {"Y42B", 3}, {"NV16", 3}, {"NV24", 3},
};

/* Whether @format is one of the YUV formats in chw_formats, the only ones
 * taken in CUDA memory on the way to a tensor. */
static gboolean
chw_is_yuv (const gchar * format)
{
  GstVideoFormat f = gst_video_format_from_string (format);

  return f != GST_VIDEO_FORMAT_UNKNOWN && GST_VIDEO_FORMAT_INFO_IS_YUV
      (gst_video_format_get_info (f));
}

/* @formats (a format or a list of them) split into two lists, @yes
 * (those @pred holds for) and @no (initialised here, as lists). */
static void
split_formats (const GValue * formats, gboolean (*pred) (const gchar *),
    GValue * yes, GValue * no)
{
  guint n = GST_VALUE_HOLDS_LIST (formats) ?
      gst_value_list_get_size (formats) : 1, i;

  g_value_init (yes, GST_TYPE_LIST);
  g_value_init (no, GST_TYPE_LIST);
  for (i = 0; i < n; i++) {
    const GValue *one = GST_VALUE_HOLDS_LIST (formats) ?
        gst_value_list_get_value (formats, i) : formats;

    gst_value_list_append_value (G_VALUE_HOLDS_STRING (one) &&
        pred (g_value_get_string (one)) ? yes : no, one);
  }
}

/* @v (taken) in CUDA memory, its formats cut to the YUV ones; NULL if
 * none is left. */
static GstCaps *
chw_yuv_in_cuda (GstStructure * v)
{
  const GValue *formats = gst_structure_get_value (v, "format");
  GValue kept = G_VALUE_INIT, other = G_VALUE_INIT;

  /* (chw_video_of_tensor's formats are a list) */
  if (!formats || !GST_VALUE_HOLDS_LIST (formats)) {
    gst_structure_free (v);
    return NULL;
  }
  split_formats (formats, chw_is_yuv, &kept, &other);
  g_value_unset (&other);
  if (gst_value_list_get_size (&kept) == 0) {
    g_value_unset (&kept);
    gst_structure_free (v);
    return NULL;
  }
  gst_structure_take_value (v, "format", &kept);
  return gst_caps_new_full (v, NULL);
}

static guint
chw_channels (const gchar * format)
{
  guint i;

  for (i = 0; format && i < G_N_ELEMENTS (chw_formats); i++)
    if (g_str_equal (format, chw_formats[i].format))
      return chw_formats[i].channels;
  return 0;
}

/* For a fixed RGB (packed or planar), GRAY8 or YUV (ct_job_is_yuv) video
 * structure in system memory (YUV in CUDA memory too), the uint8 tensor it
 * converts to (in system memory): the HWC tensor "C:W:H:1" (W and H
 * swapped with @swap) permuted by @perm ("W:H:C:1", CHW, for
 * ct_caps_chw_permutation), as other/tensor with @single, else
 * other/tensors; NULL otherwise. */
GstStructure *
ct_caps_chw_tensor_of_video (const GstStructure * v, GstCapsFeatures * f,
    const guint perm[4], GstVideoOrientationMethod turn, gboolean single,
    const gchar * type)
{
  const gchar *format = gst_structure_get_string (v, "format");
  guint c = chw_channels (format);
  const GValue *fps = gst_structure_get_value (v, "framerate");
  const gboolean swap = ct_direction_swaps (turn);
  GstStructure *t;
  gchar *dims;
  gint w, h;

  if (!c || (f && !gst_caps_features_is_equal (f,
              GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY) &&
          !(ct_caps_is_cuda_memory (f) && chw_is_yuv (format))))
    return NULL;
  /* (only YUV is turned on the way: RGB then is refused, saying why) */
  if (turn != GST_VIDEO_ORIENTATION_IDENTITY && !chw_is_yuv (format))
    return NULL;
  /* before the size is fixed (a link checked at parse time, a caps
   * query), tensors of any dimensions */
  if (gst_structure_get_int (v, "width", &w) &&
      gst_structure_get_int (v, "height", &h)) {
    const guint64 hwc[4] = { c, (guint64) (swap ? h : w),
      (guint64) (swap ? w : h), 1
    };

    dims = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
        G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, hwc[perm[0]], hwc[perm[1]],
        hwc[perm[2]], hwc[perm[3]]);
  } else {
    dims = NULL;
  }
  if (single)
    t = gst_structure_new ("other/tensor", "type", G_TYPE_STRING, type,
        NULL);
  else
    t = gst_structure_new ("other/tensors", "format", G_TYPE_STRING,
        "static", "num_tensors", G_TYPE_INT, 1, "types", G_TYPE_STRING, type,
        NULL);
  if (dims)
    gst_structure_set (t, single ? "dimension" : "dimensions", G_TYPE_STRING,
        dims, NULL);
  if (fps)
    gst_structure_set_value (t, "framerate", fps);
  g_free (dims);
  return t;
}

/* For tensor caps without sizes (a template, a filter such as
 * "other/tensors,format=static"): every RGB video a single tensor of
 * @type can come from, of any size; NULL where @t's count or type rule
 * that out. */
static GstStructure *
any_chw_video (const GstStructure * t, gboolean yuv_only, const gchar * type)
{
  const gchar *types = gst_structure_get_string (t,
      gst_structure_has_name (t, "other/tensor") ? "type" : "types");
  const GValue *fps = gst_structure_get_value (t, "framerate");
  const GValue *count = gst_structure_get_value (t, "num_tensors");
  GValue one = G_VALUE_INIT, list = G_VALUE_INIT;
  GstStructure *v;
  gboolean single;
  guint i;

  /* one tensor among what the count allows (a range where downstream
   * asked for static tensors of any count) */
  g_value_init (&one, G_TYPE_INT);
  g_value_set_int (&one, 1);
  single = !count || gst_value_can_intersect (count, &one);
  g_value_unset (&one);
  if (!single || (gst_structure_has_field (t, "types") && !types) ||
      (types && g_ascii_strcasecmp (types, type) != 0) ||
      (gst_structure_has_field (t, "format") &&
          g_strcmp0 (gst_structure_get_string (t, "format"), "static") != 0))
    return NULL;
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (chw_formats); i++) {
    GValue item = G_VALUE_INIT;

    if (yuv_only && !chw_is_yuv (chw_formats[i].format))
      continue;
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_static_string (&item, chw_formats[i].format);
    gst_value_list_append_and_take_value (&list, &item);
  }
  v = gst_structure_new ("video/x-raw", "width", GST_TYPE_INT_RANGE, 1,
      G_MAXINT, "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, "interlace-mode",
      G_TYPE_STRING, "progressive", NULL);
  gst_structure_take_value (v, "format", &list);
  if (fps)
    gst_structure_set_value (v, "framerate", fps);
  return v;
}

/* The reverse: the RGB video a single tensor of @type comes from, the
 * tensor being "C:W:H:1" (C 1, 3 or 4) of the frame turned by @turn (W
 * and H swapped where it swaps the axes; YUV only but for identity)
 * permuted by @perm; NULL otherwise. */
static GstStructure *
chw_video_of_tensor (const GstStructure * t, const guint perm[4],
    GstVideoOrientationMethod turn, const gchar * type)
{
  CtTensorInfo info[CT_TENSOR_COUNT_LIMIT];
  const gboolean swap = ct_direction_swaps (turn);
  guint n = 0, i;
  guint64 o[4], d[4];
  gchar *why = NULL;
  const GValue *fps = gst_structure_get_value (t, "framerate");
  GValue list = G_VALUE_INIT;
  GstStructure *v;

  if (!gst_structure_has_field (t, "dimensions") &&
      !gst_structure_has_field (t, "dimension"))
    return any_chw_video (t, turn != GST_VIDEO_ORIENTATION_IDENTITY, type);
  if (!ct_tensor_caps_parse (t, info, &n, &why)) {
    g_free (why);
    return NULL;
  }
  if (n != 1 || !g_str_equal (info[0].type, type) ||
      !ct_tensor_dims4 (&info[0], o))
    return NULL;
  /* d: the HWC sizes, C first */
  for (i = 0; i < 4; i++)
    d[perm[i]] = o[i];
  if ((d[0] != 1 && d[0] != 3 && d[0] != 4) || d[3] != 1 || d[1] > G_MAXINT ||
      d[2] > G_MAXINT)
    return NULL;
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (chw_formats); i++) {
    /* (a turn: YUV only, the formats it is taken from) */
    if (turn != GST_VIDEO_ORIENTATION_IDENTITY &&
        !chw_is_yuv (chw_formats[i].format))
      continue;
    if (chw_formats[i].channels == d[0]) {
      GValue item = G_VALUE_INIT;

      g_value_init (&item, G_TYPE_STRING);
      g_value_set_static_string (&item, chw_formats[i].format);
      gst_value_list_append_and_take_value (&list, &item);
    }
  }
  v = gst_structure_new ("video/x-raw", "width", G_TYPE_INT,
      (gint) d[swap ? 2 : 1], "height", G_TYPE_INT, (gint) d[swap ? 1 : 2],
      "interlace-mode", G_TYPE_STRING, "progressive", NULL);
  gst_structure_take_value (v, "format", &list);
  if (fps)
    gst_structure_set_value (v, "framerate", fps);
  return v;
}

/* @caps (taken) with its tensor structures first, in their order. */
static GstCaps *
tensors_first (GstCaps * caps)
{
  GstCaps *ret = gst_caps_new_empty (), *rest = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GstStructure *s = gst_caps_get_structure (caps, i);

    if (ct_tensor_caps_is_tensor (s))
      ret = gst_caps_merge_structure_full (ret, gst_structure_copy (s),
          f ? gst_caps_features_copy (f) : NULL);
    else
      rest = gst_caps_merge_structure_full (rest, gst_structure_copy (s),
          f ? gst_caps_features_copy (f) : NULL);
  }
  gst_caps_unref (caps);
  return gst_caps_merge (ret, rest);
}

/* Of what the other side takes, prefers the memory this side has: a CUDA
 * frame stays on the GPU when downstream takes CUDA memory too, a system
 * frame is not uploaded for nothing. */
/* Video caps without a colorimetry get the one GStreamer guesses from the
 * frame size (BT.601 up to 576 rows, BT.709 above), and a transpose
 * changes the size: a 640x360 frame (BT.601) would come out as 360x640
 * (BT.709), and its colours would shift at the next conversion. So the
 * fixed side's colorimetry, said or guessed, goes into @result (the other
 * side, fixated) where that does not say one. */
GstCaps *
ct_caps_keep_colorimetry (GstCaps * caps, GstCaps * result)
{
  const GstStructure *in = gst_caps_get_structure (caps, 0);
  GstStructure *out;
  GstVideoInfo info, out_info;
  gchar *colorimetry;

  /* (the result as it is where it says a colorimetry, or where its own
   * guess is the input's: a passthrough keeps equal caps) */
  if (gst_caps_is_empty (result) ||
      !gst_structure_has_name (in, "video/x-raw") ||
      !gst_structure_has_name (gst_caps_get_structure (result, 0),
          "video/x-raw") ||
      gst_structure_has_field (gst_caps_get_structure (result, 0),
          "colorimetry") || !gst_video_info_from_caps (&info, caps) ||
      !gst_video_info_from_caps (&out_info, result) ||
      gst_video_colorimetry_is_equal (&info.colorimetry,
          &out_info.colorimetry))
    return result;
  colorimetry = gst_video_colorimetry_to_string (&info.colorimetry);
  if (colorimetry) {
    result = gst_caps_make_writable (result);
    out = gst_caps_get_structure (result, 0);
    gst_structure_set (out, "colorimetry", G_TYPE_STRING, colorimetry, NULL);
  }
  g_free (colorimetry);
  return result;
}

/* Whether @out is what @mapping makes of @in. */
gboolean
ct_caps_fit_mapping (const GstVideoInfo * in, const GstVideoInfo * out,
    CtMapping mapping)
{
  gboolean keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;

  return GST_VIDEO_INFO_FORMAT (in) == GST_VIDEO_INFO_FORMAT (out) &&
      GST_VIDEO_INFO_WIDTH (out) == (keep ? GST_VIDEO_INFO_WIDTH (in) :
      GST_VIDEO_INFO_HEIGHT (in)) &&
      GST_VIDEO_INFO_HEIGHT (out) == (keep ? GST_VIDEO_INFO_HEIGHT (in) :
      GST_VIDEO_INFO_WIDTH (in));
}

/* How long a buffer may be held back with @incaps and @outcaps: one
 * frame's duration by the input's framerate (video and tensors carry
 * one); 0 where that is unknown or 0/1, or where either side is CUDA
 * memory (only buffers from host memory into host memory are held:
 * ct_gpu_run). */
GstClockTime
ct_caps_hold_duration (GstCaps * incaps, GstCaps * outcaps)
{
  gint n = 0, d = 0;

  if (ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0)) ||
      ct_caps_is_cuda_memory (gst_caps_get_features (outcaps, 0)))
    return 0;
  if (!gst_structure_get_fraction (gst_caps_get_structure (incaps, 0),
          "framerate", &n, &d) || n <= 0 || d <= 0)
    return 0;
  return gst_util_uint64_scale_int (GST_SECOND, d, n);
}

/* Whether @o is only there to be refused with a reason for the fixed
 * structure @s on the other side (add_refused). */
static gboolean
only_refused (const GstStructure * s, GstCapsFeatures * f,
    const GstStructure * o)
{
  GstStructure *t;
  const gchar *in_format, *out_format;

  if (!ct_tensor_caps_is_tensor (o))
    /* video in a format that goes out only as a tensor */
    return !ct_tensor_caps_is_tensor (s) &&
        ct_caps_is_tensor_only (gst_structure_get_string (s, "format"));
  if (!ct_tensor_caps_is_tensor (s)) {
    /* video that cannot become a tensor */
    t = ct_caps_chw_tensor_of_video (s, f, ct_caps_chw_permutation,
        GST_VIDEO_ORIENTATION_IDENTITY, FALSE, "uint8");
    if (t)
      gst_structure_free (t);
    return t == NULL;
  }
  /* tensors go out flexible or static as they came */
  in_format = gst_structure_get_string (s, "format");
  out_format = gst_structure_get_string (o, "format");
  return in_format && out_format && !g_str_equal (in_format, out_format);
}

GstCaps *
ct_caps_refused_last (GstCaps * caps, GstCaps * othercaps)
{
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);
  GstCaps *taken = gst_caps_new_empty (), *refused = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *of = gst_caps_get_features (othercaps, i);
    const GstStructure *o = gst_caps_get_structure (othercaps, i);

    gst_caps_append_structure_full (only_refused (s, f, o) ? refused : taken,
        gst_structure_copy (o), of ? gst_caps_features_copy (of) : NULL);
  }
  gst_caps_unref (othercaps);
  return gst_caps_merge (taken, refused);
}

GstCaps *
ct_caps_same_memory_first (GstCaps * caps, GstCaps * othercaps)
{
  gboolean cuda = ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0));
  gboolean video = !ct_tensor_caps_is_tensor (gst_caps_get_structure (caps,
          0));
  GstCaps *same = gst_caps_new_empty (), *rest = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (othercaps, i);
    const GstStructure *o = gst_caps_get_structure (othercaps, i);
    /* (video becomes tensors in system memory first, NNStreamer's home
     * for them, wherever the frame is: CUDA memory only where asked for) */
    gboolean want_cuda = video && ct_tensor_caps_is_tensor (o) ? FALSE : cuda;

    gst_caps_append_structure_full (ct_caps_is_cuda_memory (f) == want_cuda ?
        same : rest, gst_structure_copy (o), f ? gst_caps_features_copy (f) :
        NULL);
  }
  gst_caps_unref (othercaps);
  return gst_caps_merge (same, rest);
}

/* Tensor structure @s's types as @arith makes them: toward the source
 * (@direction the sink) each the typecast's; toward the sink any, where
 * each is the typecast's. Without a typecast they stay. Types that are
 * not one string (flexible tensors have none) stay too. */
static void
arith_types (GstStructure * s, const CtArithSpec * arith,
    GstPadDirection direction)
{
  const gchar *field = gst_structure_has_name (s, "other/tensor") ? "type" :
      "types";
  const gchar *types = gst_structure_get_string (s, field), *name;
  gchar **parts;
  guint i, n;

  if (!arith || !arith->typecast || !types)
    return;
  name = ct_type_name (arith->out_type);
  parts = g_strsplit_set (types, ",.", -1);
  n = g_strv_length (parts);
  if (direction == GST_PAD_SINK) {
    GString *out = g_string_new (NULL);

    for (i = 0; i < n; i++)
      g_string_append_printf (out, "%s%s", i ? "," : "", name);
    gst_structure_set (s, field, G_TYPE_STRING, out->str, NULL);
    g_string_free (out, TRUE);
  } else {
    for (i = 0; i < n && g_ascii_strcasecmp (g_strstrip (parts[i]),
            name) == 0; i++);
    if (i == n)
      gst_structure_remove_field (s, field);
  }
  g_strfreev (parts);
}

/* A copy of @s with @formats (taken) as its format: one value, or the
 * list. */
static GstStructure *
with_formats (const GstStructure * s, GValue * formats)
{
  GstStructure *c = gst_structure_copy (s);

  if (gst_value_list_get_size (formats) == 1) {
    gst_structure_set_value (c, "format", gst_value_list_get_value (formats,
            0));
    g_value_unset (formats);
  } else {
    gst_structure_take_value (c, "format", formats);
  }
  return c;
}

/* @caps (taken, within a pad template) without video in the formats that
 * go out only as tensors (CT_CAPS_TENSOR_ONLY_FORMATS), which go to
 * @refused instead: set_caps refuses them as video, saying why, and a
 * peer fixed to one of them (a source, a capsfilter) must get that far. */
static GstCaps *
without_tensor_only (GstCaps * caps, GstCaps ** refused)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    const GValue *formats = gst_structure_get_value (s, "format");
    GValue kept = G_VALUE_INIT, cut = G_VALUE_INIT;

    /* (tensors; video of no format, which the templates never give) */
    if (ct_tensor_caps_is_tensor (s) || !formats) {
      ret = gst_caps_merge_structure_full (ret, gst_structure_copy (s),
          f ? gst_caps_features_copy (f) : NULL);
      continue;
    }
    split_formats (formats, ct_caps_is_tensor_only, &cut, &kept);
    if (gst_value_list_get_size (&kept) > 0)
      ret = gst_caps_merge_structure_full (ret, with_formats (s, &kept),
          f ? gst_caps_features_copy (f) : NULL);
    else
      g_value_unset (&kept);
    if (gst_value_list_get_size (&cut) > 0)
      *refused = gst_caps_merge_structure_full (*refused, with_formats (s,
              &cut), f ? gst_caps_features_copy (f) : NULL);
    else
      g_value_unset (&cut);
  }
  gst_caps_unref (caps);
  return ret;
}

/* What @s (one structure of the caps being transformed) could be asked
 * for that set_caps only refuses, saying why, into @refused: static
 * tensors for flexible ones and flexible for static ones (they go out as
 * they came), tensors for video that does not go out as a tensor, and
 * any video for tensors wanted downstream. Without them a link to such
 * caps fails with "could not link", or the source refuses to negotiate,
 * and the reason is never said. They come after everything else, and
 * the element's fixation takes them last (ct_caps_refused_last). */
static void
add_refused (const GstStructure * s, GstPadDirection direction,
    gboolean became_tensor, GstCaps ** refused)
{
  const gchar *format;

  if (ct_tensor_caps_is_tensor (s)) {
    format = gst_structure_has_name (s, "other/tensor") ? "static" :
        gst_structure_get_string (s, "format");
    if (g_strcmp0 (format, "flexible") == 0) {
      *refused = gst_caps_merge_structure (*refused, gst_structure_new
          ("other/tensors", "format", G_TYPE_STRING, "static", NULL));
      *refused = gst_caps_merge_structure (*refused,
          gst_structure_new_empty ("other/tensor"));
    } else if (g_strcmp0 (format, "static") == 0 ||
        (!format && direction == GST_PAD_SRC)) {
      *refused = gst_caps_merge_structure (*refused, gst_structure_new
          ("other/tensors", "format", G_TYPE_STRING, "flexible", NULL));
    }
    if (direction == GST_PAD_SRC)
      *refused = gst_caps_merge_structure (*refused,
          gst_structure_new_empty ("video/x-raw"));
  } else if (direction == GST_PAD_SINK && !became_tensor) {
    *refused = gst_caps_merge_structure (*refused,
        gst_structure_new_empty ("other/tensors"));
    *refused = gst_caps_merge_structure (*refused,
        gst_structure_new_empty ("other/tensor"));
  }
}

GstCaps *
ct_caps_transform (GstCaps * caps, GstPadDirection direction,
    const guint * perm, const CtArithSpec * arith,
    GstVideoOrientationMethod proposed, GstVideoOrientationMethod turn,
    GstCaps * other_template, GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty (), *tmp;
  GstCaps *converted = gst_caps_new_empty (), *refused = gst_caps_new_empty ();
  const guint *video_perm = perm ? perm : ct_caps_chw_permutation;
  /* video's tensor: uint8, or as the arithmetic casts it */
  const gchar *video_type = arith ? ct_type_name (ct_arith_out_type (arith,
          CT_TYPE_UINT8)) : "uint8";
  gboolean swap = ct_direction_swaps (proposed);
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GValue w = G_VALUE_INIT, h = G_VALUE_INIT;
    const GValue *par;
    gboolean has_w = gst_structure_has_field (s, "width");
    gboolean has_h = gst_structure_has_field (s, "height");

    /* RGB video to tensors (CHW, or as permuted), and back for
     * queries from downstream */
    if (direction == GST_PAD_SINK && !ct_tensor_caps_is_tensor (s)) {
      GstStructure *t = ct_caps_chw_tensor_of_video (s, f, video_perm, turn,
          FALSE, video_type);

      if (t) {
        converted = gst_caps_merge_structure (converted, t);
        converted = gst_caps_merge_structure (converted,
            ct_caps_chw_tensor_of_video (s, f, video_perm, turn, TRUE,
                video_type));
      }
      add_refused (s, direction, t != NULL, &refused);
    } else if (direction == GST_PAD_SRC && ct_tensor_caps_is_tensor (s)) {
      GstStructure *v = chw_video_of_tensor (s, video_perm, turn,
          video_type);

      /* in system memory, then YUV in CUDA memory (a decoder's) */
      if (v) {
        GstCaps *cuda = chw_yuv_in_cuda (gst_structure_copy (v));

        converted = gst_caps_merge_structure (converted, v);
        if (cuda)
          converted = gst_caps_merge (converted, with_other_memory (cuda,
                  FALSE));
        gst_clear_caps (&cuda);
      }
    }

    if (ct_tensor_caps_is_tensor (s)) {
      add_refused (s, direction, FALSE, &refused);
      /* tensors it cannot read (more than 256, sizes it cannot parse) go
       * on as they are: set_caps refuses them saying why, where a link
       * refused would say only that the caps do not fit */
      if (!ct_tensor_caps_rearrange (s, perm, direction == GST_PAD_SRC)) {
        gst_structure_free (s);
        s = gst_structure_copy (gst_caps_get_structure (caps, i));
      }
      arith_types (s, arith, direction);
      ret = gst_caps_merge_structure_full (ret, s,
          f ? gst_caps_features_copy (f) : NULL);
      continue;
    }
    /* the directions that keep the axes keep the caps */
    if (swap) {
      if (has_w)
        gst_value_init_and_copy (&w, gst_structure_get_value (s, "width"));
      if (has_h)
        gst_value_init_and_copy (&h, gst_structure_get_value (s, "height"));
      gst_structure_remove_fields (s, "width", "height", NULL);
      if (has_h)
        gst_structure_take_value (s, "width", &h);
      if (has_w)
        gst_structure_take_value (s, "height", &w);

      par = gst_structure_get_value (s, "pixel-aspect-ratio");
      if (par) {
        GValue inv = G_VALUE_INIT;

        invert_par (par, &inv);
        gst_structure_take_value (s, "pixel-aspect-ratio", &inv);
      }
    }

    ret = gst_caps_merge_structure_full (ret, s,
        f ? gst_caps_features_copy (f) : NULL);
  }

  /* The same memory first, then the other: either side may keep frames on
   * the GPU while the other has them in system memory. The other pad's
   * template takes out what CUDA memory cannot hold. Packed video goes
   * out as tensors after all that, or first with a permutation or
   * arithmetic, which only tensors take. identity passes video through,
   * so it keeps the frames' memory; tensors (never passed through) go out
   * in either. */
  ret = gst_caps_merge (ret, with_other_memory (ret,
          proposed == GST_VIDEO_ORIENTATION_IDENTITY));
  /* (video out of video, the formats that go out only as tensors left
   * to the refused) */
  tmp = gst_caps_intersect_full (ret, other_template,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (ret);
  ret = without_tensor_only (tmp, &refused);
  converted = gst_caps_merge (converted, with_other_memory (converted, TRUE));
  refused = gst_caps_merge (refused, with_other_memory (refused, TRUE));
  if ((perm || arith) && direction == GST_PAD_SINK)
    ret = gst_caps_merge (converted, ret);
  else
    ret = gst_caps_merge (ret, converted);
  tmp = gst_caps_intersect_full (ret, other_template,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (ret);
  ret = tmp;
  tmp = gst_caps_intersect_full (refused, other_template,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (refused);
  refused = tmp;

  /* What the sink pad takes, tensors first: NNStreamer's tensor_converter
   * reads the first structure of what downstream takes, and warns when it
   * is video. */
  if (direction == GST_PAD_SRC)
    ret = tensors_first (ret);

  /* What set_caps only refuses comes last, and only where nothing else
   * fits the filter: a peer that fixates by its own preference (a
   * videoconvert picking the format nearest its input) would take it over
   * the rest. A fixed peer that fits nothing else still gets it, and the
   * reason from set_caps. */
  if (filter) {
    tmp = gst_caps_intersect_full (filter, ret, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (ret);
    ret = tmp;
    if (gst_caps_is_empty (ret)) {
      gst_caps_unref (ret);
      ret = gst_caps_intersect_full (filter, refused,
          GST_CAPS_INTERSECT_FIRST);
    }
    gst_caps_unref (refused);
  } else {
    ret = gst_caps_merge (ret, refused);
  }
  return without_lossy_cuda (ret);
}
