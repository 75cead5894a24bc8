/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The element's caps algebra: what each side takes given the other, with
 * the settings (permutation, direction) passed in. Pure functions of caps
 * and settings, unit-tested without a pipeline (tests/video/caps.c). */
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

  for (i = 0; upstream && !gst_caps_is_any (upstream) &&
      i < gst_caps_get_size (upstream); i++)
    offered |= ct_caps_is_cuda_memory (gst_caps_get_features (upstream, i));
  if (!offered)
    return NULL;
  cuda_only = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (ct_caps_is_cuda_memory (f))
      gst_caps_append_structure_full (cuda_only,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (f));
  }
  if (gst_caps_is_empty (cuda_only))
    gst_clear_caps (&cuda_only);
  return cuda_only;
}

/* Packed 4:2:2 of odd width has no whole frame in GStreamer 1.22's CUDA
 * memory: its rows are width x 2 bytes there (the copies in and out,
 * gst_cuda_buffer_copy, cudaupload and cudadownload, move that much), so
 * the last pixel's second chroma byte is not part of it. Read, it would
 * spread a byte nobody wrote into visible pixels. */
gboolean
ct_caps_is_packed_422 (const gchar * format)
{
  return format && (g_str_equal (format, "YUY2") ||
      g_str_equal (format, "UYVY") || g_str_equal (format, "YVYU"));
}

/* Whether structure @i of @caps is CUDA memory that would lose bytes: a
 * fixed odd width of packed 4:2:2 (of a format list, such formats are
 * taken out; FALSE then if others remain). */
static gboolean
loses_bytes_in_cuda (GstCaps * caps, guint i)
{
  GstStructure *s = gst_caps_get_structure (caps, i);
  const GValue *formats = gst_structure_get_value (s, "format");
  GValue kept = G_VALUE_INIT;
  gint width;
  guint k;

  if (!ct_caps_is_cuda_memory (gst_caps_get_features (caps, i)) || !formats ||
      !gst_structure_get_int (s, "width", &width) || !(width & 1))
    return FALSE;
  if (G_VALUE_HOLDS_STRING (formats))
    return ct_caps_is_packed_422 (g_value_get_string (formats));
  if (!GST_VALUE_HOLDS_LIST (formats))
    return FALSE;
  g_value_init (&kept, GST_TYPE_LIST);
  for (k = 0; k < gst_value_list_get_size (formats); k++) {
    const GValue *f = gst_value_list_get_value (formats, k);

    if (!G_VALUE_HOLDS_STRING (f) ||
        !ct_caps_is_packed_422 (g_value_get_string (f)))
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

/* @caps with each structure moved to the other memory: CUDA to system,
 * anything else to CUDA. */
static GstCaps *
with_other_memory (GstCaps * caps)
{
  GstCaps *ret = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (ret); i++) {
    GstCapsFeatures *f = gst_caps_get_features (ret, i);

    gst_caps_set_features (ret, i, ct_caps_is_cuda_memory (f) ?
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
 * channel order; and GRAY8, one channel (tensor_converter's 1:W:H:1). */
static const struct
{
  const gchar *format;
  guint channels;
} chw_formats[] = {
  {"RGB", 3}, {"BGR", 3}, {"RGBA", 4}, {"BGRA", 4}, {"RGBx", 4},
  {"BGRx", 4}, {"RGBP", 3}, {"BGRP", 3}, {"GBR", 3}, {"GRAY8", 1},
};

static guint
chw_channels (const gchar * format)
{
  guint i;

  for (i = 0; format && i < G_N_ELEMENTS (chw_formats); i++)
    if (g_str_equal (format, chw_formats[i].format))
      return chw_formats[i].channels;
  return 0;
}

/* For a fixed RGB (packed or planar) or GRAY8 video structure in system
 * memory, the uint8 tensor it converts to: the HWC tensor "C:W:H:1"
 * permuted by @perm ("W:H:C:1", CHW, for ct_caps_chw_permutation), as
 * other/tensor with @single, else other/tensors; NULL otherwise. */
GstStructure *
ct_caps_chw_tensor_of_video (const GstStructure * v, GstCapsFeatures * f,
    const guint perm[4], gboolean single, const gchar * type)
{
  const gchar *format = gst_structure_get_string (v, "format");
  guint c = chw_channels (format);
  const GValue *fps = gst_structure_get_value (v, "framerate");
  GstStructure *t;
  gchar *dims;
  gint w, h;

  if (!c || (f && !gst_caps_features_is_equal (f,
              GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)))
    return NULL;
  /* before the size is fixed (a link checked at parse time, a caps
   * query), tensors of any dimensions */
  if (gst_structure_get_int (v, "width", &w) &&
      gst_structure_get_int (v, "height", &h)) {
    const guint64 hwc[4] = { c, (guint64) w, (guint64) h, 1 };

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
any_chw_video (const GstStructure * t, const gchar * type)
{
  const gchar *types = gst_structure_get_string (t,
      gst_structure_has_name (t, "other/tensor") ? "type" : "types");
  const GValue *fps = gst_structure_get_value (t, "framerate");
  gint count = 1;
  GValue list = G_VALUE_INIT;
  GstStructure *v;
  guint i;

  if ((gst_structure_has_field (t, "num_tensors") &&
          !gst_structure_get_int (t, "num_tensors", &count)) || count != 1 ||
      (gst_structure_has_field (t, "types") && !types) ||
      (types && g_ascii_strcasecmp (types, type) != 0) ||
      (gst_structure_has_field (t, "format") &&
          g_strcmp0 (gst_structure_get_string (t, "format"), "static") != 0))
    return NULL;
  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (chw_formats); i++) {
    GValue item = G_VALUE_INIT;

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
 * tensor being "C:W:H:1" (C 1, 3 or 4) permuted by @perm; NULL
 * otherwise. */
static GstStructure *
chw_video_of_tensor (const GstStructure * t, const guint perm[4],
    const gchar * type)
{
  CtTensorInfo info[CT_TENSOR_COUNT_LIMIT];
  guint n = 0, i;
  guint64 o[4], d[4];
  gchar *why = NULL;
  const GValue *fps = gst_structure_get_value (t, "framerate");
  GValue list = G_VALUE_INIT;
  GstStructure *v;

  if (!gst_structure_has_field (t, "dimensions") &&
      !gst_structure_has_field (t, "dimension"))
    return any_chw_video (t, type);
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
    if (chw_formats[i].channels == d[0]) {
      GValue item = G_VALUE_INIT;

      g_value_init (&item, G_TYPE_STRING);
      g_value_set_static_string (&item, chw_formats[i].format);
      gst_value_list_append_and_take_value (&list, &item);
    }
  }
  v = gst_structure_new ("video/x-raw", "width", G_TYPE_INT, (gint) d[1],
      "height", G_TYPE_INT, (gint) d[2], "interlace-mode", G_TYPE_STRING,
      "progressive", NULL);
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
    return FALSE;
  if (!ct_tensor_caps_is_tensor (s)) {
    /* video that cannot become a tensor */
    t = ct_caps_chw_tensor_of_video (s, f, ct_caps_chw_permutation, FALSE,
        "uint8");
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
  GstCaps *same = gst_caps_new_empty (), *rest = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (othercaps, i);

    gst_caps_append_structure_full (ct_caps_is_cuda_memory (f) == cuda ?
        same : rest, gst_structure_copy (gst_caps_get_structure (othercaps,
                i)), f ? gst_caps_features_copy (f) : NULL);
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
    GstVideoOrientationMethod proposed, GstCaps * other_template,
    GstCaps * filter)
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
      GstStructure *t = ct_caps_chw_tensor_of_video (s, f, video_perm, FALSE,
          video_type);

      if (t) {
        converted = gst_caps_merge_structure (converted, t);
        converted = gst_caps_merge_structure (converted,
            ct_caps_chw_tensor_of_video (s, f, video_perm, TRUE, video_type));
      }
      add_refused (s, direction, t != NULL, &refused);
    } else if (direction == GST_PAD_SRC && ct_tensor_caps_is_tensor (s)) {
      GstStructure *v = chw_video_of_tensor (s, video_perm, video_type);

      if (v)
        converted = gst_caps_merge_structure (converted, v);
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
   * arithmetic, which only tensors take. identity passes buffers through,
   * so it keeps the memory. */
  if (proposed != GST_VIDEO_ORIENTATION_IDENTITY)
    ret = gst_caps_merge (ret, with_other_memory (ret));
  if ((perm || arith) && direction == GST_PAD_SINK)
    ret = gst_caps_merge (converted, ret);
  else
    ret = gst_caps_merge (ret, converted);
  /* what set_caps only refuses comes last: never taken over the rest */
  ret = gst_caps_merge (ret, refused);
  tmp = gst_caps_intersect_full (ret, other_template,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (ret);
  ret = tmp;

  /* What the sink pad takes, tensors first: NNStreamer's tensor_converter
   * reads the first structure of what downstream takes, and warns when it
   * is video. */
  if (direction == GST_PAD_SRC)
    ret = tensors_first (ret);

  if (filter) {
    tmp = gst_caps_intersect_full (filter, ret, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (ret);
    ret = tmp;
  }
  return without_lossy_cuda (ret);
}

/* ---------------------------------------------------------------------- */
/* The job a pair of caps makes                                             */

/* Whether the job's arithmetic runs on its tensors; FALSE, with why in
 * @r, if not. */
static gboolean
arith_checked (CtJob * job, GstCaps * incaps, CtRefusal * r)
{
  gchar *why = NULL;

  if (ct_job_prepare_arith (job, &why))
    return TRUE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Invalid arithmetic property for %s: "
          "%s.", job->mode == CT_JOB_VIDEO_TO_TENSOR ? "the frame seen as "
          "the tensor channels:width:height:1" : "the input", why),
      ("%" GST_PTR_FORMAT, incaps));
  g_free (why);
  return FALSE;
}

/* Whether the arithmetic can run on each input tensor at all (its type,
 * its channels): said before the output's types are compared, which
 * would otherwise only say they differ. FALSE, with why in @r, if not. */
static gboolean
arith_applies (const CtJob * job, GstCaps * incaps, const CtTensorInfo * in,
    guint n, CtRefusal * r)
{
  CtArith *a;
  gchar *why = NULL;
  guint i;

  if (!job->has_arith)
    return TRUE;
  a = g_new (CtArith, 1);
  for (i = 0; i < n; i++) {
    if (!ct_job_tensor_arith (job, i, &in[i], a, &why))
      break;
  }
  g_free (a);
  if (!why)
    return TRUE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Invalid arithmetic property for the "
          "input: %s.", why), ("%" GST_PTR_FORMAT, incaps));
  g_free (why);
  return FALSE;
}

/* With the permutation property: tensors of rank 4 or less, the output's
 * sizes the input's permuted. */
static gboolean
permuted_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const CtTensorInfo * in, guint n_in, const CtTensorInfo * out,
    guint n_out, const guint perm[4], CtRefusal * r)
{
  guint i, k;

  for (i = 0; i < n_in; i++) {
    guint64 d[4], o[4];

    if (!ct_tensor_dims4 (&in[i], d)) {
      CT_REFUSE (r, CORE, NEGOTIATION, ("Tensor %u has rank %u, "
              "but a permutation needs tensors of rank 4 or less (sizes "
              "beyond the fourth must be 1).", i, in[i].rank),
          ("%" GST_PTR_FORMAT, incaps));
      return FALSE;
    }
    if (n_in != n_out || !ct_tensor_dims4 (&out[i], o) ||
        !g_str_equal (ct_job_out_type (job, &in[i]), out[i].type))
      break;
    for (k = 0; k < 4 && o[k] == d[perm[k]]; k++);
    if (k < 4)
      break;
  }
  if (n_in != n_out || i < n_in) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("Downstream asks for tensors that "
            "are not the input's permuted by %u:%u:%u:%u%s. Let the caps "
            "after cudatranspose follow the input, or change the "
            "permutation.", perm[0], perm[1], perm[2], perm[3],
            job->has_arith ? " and of the arithmetic's output type" : ""),
        ("Got %" GST_PTR_FORMAT " for %" GST_PTR_FORMAT, outcaps, incaps));
    return FALSE;
  }
  ct_job_set_tensors (job, in, n_in, perm);
  return arith_checked (job, incaps, r);
}

/* interlace-mode=alternate (a field per buffer) is left out of the pad
 * templates (a source that offers it besides whole frames picks those),
 * and refused by name where a peer forces it. */
static gboolean
refuse_alternate (GstCaps * caps, CtRefusal * r)
{
  if (g_strcmp0 (gst_structure_get_string (gst_caps_get_structure (caps, 0),
              "interlace-mode"), "alternate") != 0)
    return FALSE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Video of interlace-mode=alternate "
          "(one field in each buffer) cannot be transposed, rotated or "
          "flipped: deinterlace it first, e.g. with deinterlace before "
          "cudatranspose, or have the source give whole frames "
          "(interleaved or progressive)."), ("%" GST_PTR_FORMAT, caps));
  return TRUE;
}

/* RGB video in, seen as the HWC tensor "C:W:H:1"; out as that
 * tensor permuted by @perm (CHW, "W:H:C:1", for ct_caps_chw_permutation). */
static gboolean
chw_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint perm[4], CtRefusal * r)
{
  const gchar *type = job->has_arith ? ct_type_name (ct_arith_out_type
      (&job->arith, CT_TYPE_UINT8)) : "uint8";
  GstStructure *want = NULL;
  GstVideoInfo info;
  gboolean ok;

  ok = gst_video_info_from_caps (&info, incaps) &&
      !GST_VIDEO_INFO_IS_INTERLACED (&info) &&
      (want = ct_caps_chw_tensor_of_video (gst_caps_get_structure (incaps, 0),
          gst_caps_get_features (incaps, 0), perm,
          gst_structure_has_name (gst_caps_get_structure (outcaps, 0),
              "other/tensor"), type)) != NULL;
  if (ok) {
    GstCaps *w = gst_caps_new_full (gst_structure_copy (want), NULL);

    gst_structure_remove_field (gst_caps_get_structure (w, 0), "framerate");
    ok = gst_caps_can_intersect (w, outcaps);
    gst_caps_unref (w);
  }
  if (want)
    gst_structure_free (want);
  if (!ok) {
    const gchar *format = gst_structure_get_string (gst_caps_get_structure
        (incaps, 0), "format");

    CT_REFUSE (r, CORE, NEGOTIATION, ("Video goes out as a tensor only "
            "from progressive RGB (packed, or planar RGBP, BGRP, GBR) or "
            "GRAY8 in system memory, as one %s tensor (the frame as "
            "channels:width:height:1 permuted by %u:%u:%u:%u); this is %s%s. "
            "Convert it first, e.g. videoconvert ! video/x-raw,format=RGB "
            "before cudatranspose, or let the output be video.", type,
            perm[0], perm[1], perm[2], perm[3], format ? format : "other",
            ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0)) ?
            " in CUDA memory" : ""), ("Got %" GST_PTR_FORMAT " for %"
            GST_PTR_FORMAT, outcaps, incaps));
    return FALSE;
  }

  ct_job_set_video_to_tensor (job, &info, perm);
  return arith_checked (job, incaps, r);
}

/* Flexible tensors in and out: the job is set from each buffer's headers
 * (prepare_output_buffer); until the first, it has no tensors. */
static gboolean
flexible_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint * perm, CtCapsOutcome * outcome, CtRefusal * r)
{
  CtTensorInfo none;

  if (!ct_tensor_caps_is_flexible (gst_caps_get_structure (incaps, 0)) ||
      !ct_tensor_caps_is_flexible (gst_caps_get_structure (outcaps, 0))) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("Flexible tensors go out "
            "flexible: both sides must be other/tensors,format=flexible "
            "(tensor_converter turns flexible tensors into static ones)."),
        ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  outcome->flexible = TRUE;
  memset (&none, 0, sizeof (none));
  ct_job_set_tensors (job, &none, 0, perm);
  return TRUE;
}

/* Tensor caps: the output must be the input with each tensor's two
 * innermost sizes swapped (missing sizes count as 1), or with @perm (not
 * NULL) its sizes permuted. */
static gboolean
tensor_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint * perm, CtCapsOutcome * outcome, CtRefusal * r)
{
  CtTensorInfo in[CT_TENSOR_COUNT_LIMIT], out[CT_TENSOR_COUNT_LIMIT];
  guint n_in = 0, n_out = 0, i, k;
  gchar *why = NULL;

  if (ct_tensor_caps_is_flexible (gst_caps_get_structure (incaps, 0)) ||
      ct_tensor_caps_is_flexible (gst_caps_get_structure (outcaps, 0)))
    return flexible_job (job, incaps, outcaps, perm, outcome, r);
  if (!ct_tensor_caps_parse (gst_caps_get_structure (incaps, 0), in, &n_in,
          &why) || !ct_tensor_caps_parse (gst_caps_get_structure (outcaps, 0),
          out, &n_out, &why)) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("Invalid tensor caps: %s.",
            why), ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps,
            outcaps));
    g_free (why);
    return FALSE;
  }
  if (!arith_applies (job, incaps, in, n_in, r))
    return FALSE;
  if (perm) {
    return permuted_job (job, incaps, outcaps, in, n_in, out, n_out, perm,
        r);
  }

  for (i = 0; n_in == n_out && i < n_in; i++) {
    guint rank = MAX (MAX (in[i].rank, out[i].rank), 2);

    if (!g_str_equal (ct_job_out_type (job, &in[i]), out[i].type))
      break;
    for (k = 0; k < rank; k++) {
      guint from = k < 2 ? 1 - k : k;
      guint64 a = from < in[i].rank ? in[i].dims[from] : 1;
      guint64 b = k < out[i].rank ? out[i].dims[k] : 1;

      if (a != b)
        break;
    }
    if (k < rank)
      break;
  }
  if (n_in != n_out || i < n_in) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("Downstream asks for tensors that "
            "are not the input's with the two innermost sizes swapped%s. "
            "Let the caps after cudatranspose follow the input, or set a "
            "permutation that makes the tensors asked for.",
            job->has_arith ? " and of the arithmetic's output type" : ""),
        ("Got %" GST_PTR_FORMAT " for %" GST_PTR_FORMAT, outcaps, incaps));
    return FALSE;
  }
  for (i = 0; i < n_in; i++) {
    if (ct_tensor_planes (&in[i]) > G_MAXUINT) {
      CT_REFUSE (r, CORE, NEGOTIATION, ("Tensor %u has more than "
              "%u planes (the product of its sizes past the second): send "
              "it in smaller tensors.", i, G_MAXUINT),
          ("%" GST_PTR_FORMAT, incaps));
      return FALSE;
    }
  }

  ct_job_set_tensors (job, in, n_in, NULL);
  return arith_checked (job, incaps, r);
}

/* (gstcudatransposecaps.h) A mirror across the rows, or a swap of the
 * axes, puts a field's rows where the other field's go, or makes them
 * columns: refused at negotiation and when the direction changes while
 * streaming alike. */
gboolean
ct_caps_fields_kept (const GstVideoInfo * info, CtMapping mapping,
    CtRefusal * r)
{
  if (!GST_VIDEO_INFO_IS_INTERLACED (info) ||
      mapping == CT_MAPPING_IDENTITY || mapping == CT_MAPPING_FLIP_HORIZONTAL)
    return TRUE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Interlaced video can only "
          "be mirrored horizontally (video-direction=horiz) or passed "
          "through (identity): video-direction=%s would break its fields "
          "apart. Deinterlace it first, e.g. with deinterlace before "
          "cudatranspose.", ct_direction_nick (ct_direction_of_mapping
              (mapping))), ("interlace-mode %s, %dx%d %s",
          gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE
              (info)), GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info)));
  return FALSE;
}

/* Video in and out: each plane transposed, rotated or flipped as
 * video-direction (@proposed) says, staged with aligned rows. */
static gboolean
video_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    GstVideoOrientationMethod proposed, CtCapsOutcome * outcome,
    CtRefusal * r)
{
  GstVideoInfo in_info, out_info;
  CtMapping mapping;

  /* (GstVideoInfo refuses frames of 4 GB and more, or rows that would
   * overflow: a frame may pass and its transpose, with other rows, not) */
  if (!ct_caps_video_info (&in_info, incaps) ||
      !ct_caps_video_info (&out_info, outcaps)) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("The frame or its "
            "transpose is too large for GStreamer's video layout (a frame "
            "must stay under 4 GB, its rows rounded up). Use a smaller "
            "frame."), ("Could not parse caps %" GST_PTR_FORMAT " or %"
            GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }

  if (ct_caps_is_packed_422 (GST_VIDEO_INFO_NAME (&in_info)) &&
      (((GST_VIDEO_INFO_WIDTH (&in_info) & 1) &&
              ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0))) ||
          ((GST_VIDEO_INFO_WIDTH (&out_info) & 1) &&
              ct_caps_is_cuda_memory (gst_caps_get_features (outcaps, 0))))) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("%s frames of odd width "
            "cannot be carried in CUDA memory in GStreamer 1.22: its CUDA "
            "frames hold width x 2 bytes a row, without the last pixel's "
            "second chroma byte. Let them be system memory (video/x-raw) "
            "on that side, or use an even width.",
            GST_VIDEO_INFO_NAME (&in_info)), ("%" GST_PTR_FORMAT " -> %"
            GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }

  mapping = ct_direction_mapping (proposed);
  if (!ct_caps_fit_mapping (&in_info, &out_info, mapping)) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("Downstream asks for video that is "
            "not the input with width and height %s (video-direction=%s), "
            "of the same format. Let the caps after cudatranspose follow "
            "the input, or change the direction.",
            ct_direction_swaps (proposed) ? "swapped" : "kept",
            ct_direction_nick (proposed)), ("Got %" GST_PTR_FORMAT " for %"
            GST_PTR_FORMAT, outcaps, incaps));
    return FALSE;
  }

  if (!ct_caps_fields_kept (&in_info, mapping, r))
    return FALSE;
  ct_job_set_video (job, &in_info, &out_info, mapping);
  /* (the caps may differ in fields no frame shows, e.g. interlace-mode
   * given on one side only) */
  outcome->passthrough = mapping == CT_MAPPING_IDENTITY &&
      gst_video_info_is_equal (&in_info, &out_info) &&
      ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0)) ==
      ct_caps_is_cuda_memory (gst_caps_get_features (outcaps, 0));
  return TRUE;
}

gboolean
ct_caps_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint * perm, const CtArithSpec * arith,
    GstVideoOrientationMethod proposed, CtCapsOutcome * outcome,
    CtRefusal * r)
{
  memset (job, 0, sizeof (*job));
  memset (outcome, 0, sizeof (*outcome));
  /* (the tensor jobs keep it) */
  if (arith) {
    job->has_arith = TRUE;
    job->arith = *arith;
  }
  if (ct_tensor_caps_is_tensor (gst_caps_get_structure (incaps, 0)))
    return tensor_job (job, incaps, outcaps, perm, outcome, r);
  if (ct_tensor_caps_is_tensor (gst_caps_get_structure (outcaps, 0)))
    return chw_job (job, incaps, outcaps, perm ? perm :
        ct_caps_chw_permutation, r);
  if (perm) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("The permutation property applies to "
            "tensors (other/tensors), but the input is video going out as "
            "video. Unset permutation to transpose video frames; RGB "
            "video takes it when it goes out as a tensor."),
        ("%" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  if (arith) {
    CT_REFUSE (r, CORE, NEGOTIATION, ("arithmetic=\"%s\" makes "
            "tensors, but the output is video: put other/tensors after "
            "cudatranspose, or clear arithmetic.", arith->text),
        ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  return video_job (job, incaps, outcaps, proposed, outcome, r);
}

void
ct_caps_refuse_output (GstCaps * incaps, const guint * perm,
    const CtArithSpec * arith, GstVideoOrientationMethod proposed,
    gboolean while_playing, GstCaps * made, GstCaps * peer, CtRefusal * r)
{
  GString *settings = g_string_new (NULL);
  gchar *text;

  if (!ct_tensor_caps_is_tensor (gst_caps_get_structure (incaps, 0)))
    g_string_append_printf (settings, "video-direction=%s, ",
        ct_direction_nick (proposed));
  if (perm)
    g_string_append_printf (settings, "permutation=%u:%u:%u:%u, ", perm[0],
        perm[1], perm[2], perm[3]);
  else
    g_string_append (settings, "no permutation, ");
  if (arith)
    g_string_append_printf (settings, "arithmetic=\"%s\"", arith->text);
  else
    g_string_append (settings, "no arithmetic");
  if (while_playing)
    text = g_strdup_printf ("A setting changed while playing (now %s) needs "
        "output caps that downstream does not take. Set it back, or let the "
        "caps after cudatranspose change with it (no fixed width, height, "
        "format, tensor sizes or types there).", settings->str);
  else
    text = g_strdup_printf ("Downstream takes none of the output "
        "cudatranspose makes of its input with %s. Let the caps after "
        "cudatranspose follow the input (no fixed width, height, format, "
        "tensor sizes or types there), or change the settings.",
        settings->str);
  CT_REFUSE (r, CORE, NEGOTIATION, ("%s", text), ("cudatranspose makes %"
          GST_PTR_FORMAT " of %" GST_PTR_FORMAT "; downstream takes %"
          GST_PTR_FORMAT, made, incaps, peer));
  g_free (text);
  g_string_free (settings, TRUE);
}

gboolean
ct_caps_refuse_unoffered (GstCaps * caps, CtRefusal * r)
{
  CtTensorInfo info[CT_TENSOR_COUNT_LIMIT];
  const GstStructure *s;
  gchar *why = NULL;
  guint n = 0;

  if (!caps || gst_caps_get_size (caps) != 1)
    return FALSE;
  if (refuse_alternate (caps, r))
    return TRUE;
  s = gst_caps_get_structure (caps, 0);
  if (!ct_tensor_caps_is_sparse (s))
    return FALSE;
  /* (ct_tensor_caps_parse says why, as it does at set_caps) */
  if (ct_tensor_caps_parse (s, info, &n, &why))
    return FALSE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Invalid tensor caps: %s.", why),
      ("%" GST_PTR_FORMAT " (not in the pad templates)", caps));
  g_free (why);
  return TRUE;
}

gboolean
ct_caps_buffer_size (GstCaps * caps, gsize * size)
{
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  GstVideoInfo info;

  if (ct_tensor_caps_is_flexible (s))
    return FALSE;               /* sizes in each buffer: no fixed size */
  if (ct_tensor_caps_is_tensor (s)) {
    CtTensorInfo t[CT_TENSOR_COUNT_LIMIT];
    gchar *why = NULL;
    guint n = 0, i;

    if (!ct_tensor_caps_parse (s, t, &n, &why)) {
      GST_WARNING ("%s", why);
      g_free (why);
      return FALSE;
    }
    for (*size = 0, i = 0; i < n; i++)
      *size += ct_tensor_bytes (&t[i]);
    return TRUE;
  }
  if (!ct_caps_video_info (&info, caps))
    return FALSE;
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}
