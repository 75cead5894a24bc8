/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The job a pair of caps makes, and the refusals of caps the element
 * cannot take, with the reason a user reads: the other half of the caps
 * algebra (gstcudatransposecaps.c transforms caps), pure functions of caps
 * and settings, unit-tested without a pipeline (tests/unit/caps.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposecaps.h"

#include <string.h>

#include "gstcudatransposedirection.h"
#include "gstcudatransposetensor.h"

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

/* RGB video in, seen as the HWC tensor "C:W:H:1" (YUV converted to RGB,
 * or BGR with @bgr, and turned by @turn first, which under auto the
 * stream's tag asked for where @from_tag); out as that tensor permuted by
 * @perm (CHW, "W:H:C:1", for ct_caps_chw_permutation). */
static gboolean
chw_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint perm[4], gboolean bgr, GstVideoOrientationMethod turn,
    gboolean from_tag, CtRefusal * r)
{
  const gchar *type = job->has_arith ? ct_type_name (ct_arith_out_type
      (&job->arith, CT_TYPE_UINT8)) : "uint8";
  GstStructure *want = NULL;
  GstVideoInfo info;
  gboolean ok;

  /* (the one pass turns YUV; RGB and GRAY8 go through the permutation) */
  if (turn != GST_VIDEO_ORIENTATION_IDENTITY &&
      gst_video_info_from_caps (&info, incaps) && !ct_job_is_yuv (&info)) {
    /* (under auto, the direction is the tag's: the property says auto) */
    const gchar *nick = ct_direction_nick (turn);
    gchar *asked = from_tag ? g_strdup_printf ("video-direction=auto "
        "follows the stream's image-orientation tag, which asks for %s; "
        "that", nick) : g_strdup_printf ("video-direction=%s", nick);

    CT_REFUSE (r, CORE, NEGOTIATION, ("%s turns YUV video ("
            CT_CAPS_YUV_TENSOR_FORMATS ") on its way into a tensor, but "
            "this is %s. Turn the frames first with another cudatranspose "
            "video-direction=%s before this one and set this one's "
            "video-direction=identity, or give it YUV video.", asked,
            GST_VIDEO_INFO_NAME (&info), from_tag ? "auto" : nick),
        ("%" GST_PTR_FORMAT, incaps));
    g_free (asked);
    return FALSE;
  }
  ok = gst_video_info_from_caps (&info, incaps) &&
      !GST_VIDEO_INFO_IS_INTERLACED (&info) &&
      (want = ct_caps_chw_tensor_of_video (gst_caps_get_structure (incaps, 0),
          gst_caps_get_features (incaps, 0), perm, turn,
          gst_structure_has_name (gst_caps_get_structure (outcaps, 0),
              "other/tensor"), type)) != NULL;
  /* (the tensor, in either memory) */
  if (ok) {
    gst_structure_remove_field (want, "framerate");
    ok = gst_structure_can_intersect (want, gst_caps_get_structure (outcaps,
            0));
  }
  if (want)
    gst_structure_free (want);
  if (!ok) {
    const gchar *format = gst_structure_get_string (gst_caps_get_structure
        (incaps, 0), "format");

    CT_REFUSE (r, CORE, NEGOTIATION, ("Video goes out as a tensor only "
            "from progressive RGB (packed, or planar RGBP, BGRP, GBR), GRAY8 "
            "or YUV (" CT_CAPS_YUV_TENSOR_FORMATS "), as one %s "
            "tensor (the frame as channels:width:height:1 permuted by "
            "%u:%u:%u:%u); this is %s%s. "
            "Convert it first, e.g. videoconvert ! video/x-raw,format=RGB "
            "before cudatranspose, or let the output be video.", type,
            perm[0], perm[1], perm[2], perm[3], format ? format : "other",
            ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0)) ?
            " in CUDA memory" : ""), ("Got %" GST_PTR_FORMAT " for %"
            GST_PTR_FORMAT, outcaps, incaps));
    return FALSE;
  }

  if (ct_job_is_yuv (&info)) {
    CtYuvFrame f;
    gchar *why = NULL;

    if (!ct_job_yuv_frame (&info, &f, &why)) {
      CT_REFUSE (r, CORE, NEGOTIATION, ("This %s video cannot be converted "
              "to RGB: %s. Convert it first with videoconvert ! "
              "video/x-raw,format=RGB before cudatranspose; or, where the "
              "frames are in fact BT.709 (or BT.601, BT.2020), say so in "
              "their caps, e.g. with capssetter "
              "caps=\"video/x-raw,colorimetry=bt709\".",
              GST_VIDEO_INFO_NAME (&info), why),
          ("%" GST_PTR_FORMAT, incaps));
      g_free (why);
      return FALSE;
    }
  }
  ct_job_set_video_to_tensor (job, &info, perm, bgr,
      ct_direction_mapping (turn));
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

  {
    const gchar *in_short = NULL, *out_short = NULL;

    if (ct_caps_is_cuda_memory (gst_caps_get_features (incaps, 0)))
      in_short = ct_caps_cuda_shortfall (GST_VIDEO_INFO_NAME (&in_info),
          GST_VIDEO_INFO_WIDTH (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info));
    if (ct_caps_is_cuda_memory (gst_caps_get_features (outcaps, 0)))
      out_short = ct_caps_cuda_shortfall (GST_VIDEO_INFO_NAME (&out_info),
          GST_VIDEO_INFO_WIDTH (&out_info),
          GST_VIDEO_INFO_HEIGHT (&out_info));
    if (in_short || out_short) {
      CT_REFUSE (r, CORE, NEGOTIATION, ("%s %s. Let them be system memory "
              "(video/x-raw) on the %s side, or use another size.",
              GST_VIDEO_INFO_NAME (&in_info), in_short ? in_short : out_short,
              in_short && out_short ? "input and output" : in_short ?
              "input" : "output"), ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
              incaps, outcaps));
      return FALSE;
    }
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

/* Whether @outcaps are tensors in CUDA memory that the element cannot
 * allocate: bytes that are not whole 4-byte words or pass 2 GB (the pad
 * templates, CT_CAPS_TENSORS_CUDA, keep them to one tensor); then @r says
 * why. */
static gboolean
cuda_tensor_refused (GstCaps * outcaps, CtRefusal * r)
{
  gsize bytes;

  /* (caps it cannot read: the job says why) */
  if (!ct_caps_is_cuda_memory (gst_caps_get_features (outcaps, 0)) ||
      !ct_tensor_caps_is_tensor (gst_caps_get_structure (outcaps, 0)) ||
      !ct_caps_buffer_size (outcaps, &bytes) ||
      (bytes % 4 == 0 && bytes <= G_MAXINT))
    return FALSE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("Tensors go out in CUDA memory "
          "(memory:CUDAMemory) one to a buffer, of a whole number of "
          "4-byte words under 2 GB (GStreamer lays its CUDA memory out as "
          "video); this is 1 tensor of %" G_GSIZE_FORMAT " bytes. Let the "
          "tensors be system memory (other/tensors) after cudatranspose, or "
          "cast them to float32 (e.g. arithmetic=typecast:float32,div:255).",
          bytes), ("%" GST_PTR_FORMAT, outcaps));
  return TRUE;
}

/* Whether @incaps are video of a format that goes out only as a tensor
 * (CT_CAPS_TENSOR_ONLY_FORMATS), going out as video (@outcaps); then @r
 * says why. */
static gboolean
tensor_only_refused (GstCaps * incaps, GstCaps * outcaps, CtRefusal * r)
{
  const gchar *format = gst_structure_get_string (gst_caps_get_structure
      (incaps, 0), "format");

  if (!ct_caps_is_tensor_only (format))
    return FALSE;
  CT_REFUSE (r, CORE, NEGOTIATION, ("%s video goes out only as a tensor "
          "(" CT_CAPS_TENSOR_ONLY_FORMATS " are converted to RGB tensors, "
          "not turned as video). Put other/tensors after cudatranspose, or "
          "convert the video first, e.g. videoconvert ! "
          "video/x-raw,format=I420 before cudatranspose.", format),
      ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
  return TRUE;
}

gboolean
ct_caps_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint * perm, const CtArithSpec * arith, gboolean bgr,
    GstVideoOrientationMethod proposed, GstVideoOrientationMethod turn,
    gboolean turn_from_tag, CtCapsOutcome * outcome, CtRefusal * r)
{
  memset (job, 0, sizeof (*job));
  memset (outcome, 0, sizeof (*outcome));
  /* (the tensor jobs keep it) */
  if (arith) {
    job->has_arith = TRUE;
    job->arith = *arith;
  }
  if (cuda_tensor_refused (outcaps, r))
    return FALSE;
  if (ct_tensor_caps_is_tensor (gst_caps_get_structure (incaps, 0)))
    return tensor_job (job, incaps, outcaps, perm, outcome, r);
  if (ct_tensor_caps_is_tensor (gst_caps_get_structure (outcaps, 0)))
    return chw_job (job, incaps, outcaps, perm ? perm :
        ct_caps_chw_permutation, bgr, turn, turn_from_tag, r);
  if (tensor_only_refused (incaps, outcaps, r))
    return FALSE;
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

/* Why downstream, which takes CUDA memory in @peer, gets none of @made: a
 * frame ct_caps_cuda_shortfall keeps out of CUDA memory (transform_caps
 * took that memory out, system memory being left); NULL if not that. */
static gchar *
cuda_shortfall_reason (GstCaps * made, GstCaps * peer)
{
  gboolean peer_cuda = FALSE;
  guint i;

  for (i = 0; peer && i < gst_caps_get_size (peer); i++)
    peer_cuda |= ct_caps_is_cuda_memory (gst_caps_get_features (peer, i));
  for (i = 0; peer_cuda && made && i < gst_caps_get_size (made); i++) {
    const GstStructure *s = gst_caps_get_structure (made, i);
    const gchar *format = gst_structure_get_string (s, "format");
    const gchar *why;
    gint width = 0, height = 0;

    if (!gst_structure_has_name (s, "video/x-raw") || !format)
      continue;
    gst_structure_get_int (s, "width", &width);
    gst_structure_get_int (s, "height", &height);
    why = ct_caps_cuda_shortfall (format, width, height);
    if (why)
      return g_strdup_printf ("%s %s. Let them be system memory "
          "(video/x-raw) after cudatranspose, or use another size.", format,
          why);
  }
  return NULL;
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
  /* a frame CUDA memory cannot hold: that reason, whatever the settings */
  text = cuda_shortfall_reason (made, peer);
  if (!text && while_playing)
    text = g_strdup_printf ("A setting changed while playing (now %s) needs "
        "output caps that downstream does not take. Set it back, or let the "
        "caps after cudatranspose change with it (no fixed width, height, "
        "format, tensor sizes or types there).", settings->str);
  else if (!text)
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
