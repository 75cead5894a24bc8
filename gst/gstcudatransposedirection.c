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

#include "gstcudatransposedirection.h"

GType
gst_cuda_transpose_method_get_type (void)
{
  static gsize type = 0;
  /* videoflip's nicks for its method property, so that a pipeline written
   * for it reads the same here */
  static const GEnumValue values[] = {
    {GST_VIDEO_ORIENTATION_IDENTITY, "Identity (no rotation)", "none"},
    {GST_VIDEO_ORIENTATION_90R, "Rotate clockwise 90 degrees", "clockwise"},
    {GST_VIDEO_ORIENTATION_180, "Rotate 180 degrees", "rotate-180"},
    {GST_VIDEO_ORIENTATION_90L, "Rotate counter-clockwise 90 degrees",
        "counterclockwise"},
    {GST_VIDEO_ORIENTATION_HORIZ, "Flip horizontally", "horizontal-flip"},
    {GST_VIDEO_ORIENTATION_VERT, "Flip vertically", "vertical-flip"},
    {GST_VIDEO_ORIENTATION_UL_LR, "Flip across the upper left/lower right "
          "diagonal (transpose)", "upper-left-diagonal"},
    {GST_VIDEO_ORIENTATION_UR_LL, "Flip across the upper right/lower left "
          "diagonal", "upper-right-diagonal"},
    {GST_VIDEO_ORIENTATION_AUTO, "Follow the stream's image-orientation tag",
        "automatic"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaTransposeMethod", values);
    g_once_init_leave (&type, t);
  }
  return (GType) type;
}

gboolean
ct_direction_is_orientation (GstVideoOrientationMethod method)
{
  return method >= GST_VIDEO_ORIENTATION_IDENTITY &&
      method <= GST_VIDEO_ORIENTATION_UR_LL;
}

CtMapping
ct_direction_mapping (GstVideoOrientationMethod method)
{
  switch (method) {
    case GST_VIDEO_ORIENTATION_IDENTITY:
      return CT_MAPPING_IDENTITY;
    case GST_VIDEO_ORIENTATION_90R:
      return CT_MAPPING_ROTATE_90R;
    case GST_VIDEO_ORIENTATION_180:
      return CT_MAPPING_ROTATE_180;
    case GST_VIDEO_ORIENTATION_90L:
      return CT_MAPPING_ROTATE_90L;
    case GST_VIDEO_ORIENTATION_HORIZ:
      return CT_MAPPING_FLIP_HORIZONTAL;
    case GST_VIDEO_ORIENTATION_VERT:
      return CT_MAPPING_FLIP_VERTICAL;
    case GST_VIDEO_ORIENTATION_UR_LL:
      return CT_MAPPING_ANTI_TRANSPOSE;
    default:
      return CT_MAPPING_TRANSPOSE;
  }
}

GstVideoOrientationMethod
ct_direction_of_mapping (CtMapping mapping)
{
  GstVideoOrientationMethod m;

  for (m = GST_VIDEO_ORIENTATION_IDENTITY; m <= GST_VIDEO_ORIENTATION_UR_LL;
      m++) {
    if (ct_direction_mapping (m) == mapping)
      return m;
  }
  return GST_VIDEO_ORIENTATION_UL_LR;
}

gboolean
ct_direction_swaps (GstVideoOrientationMethod method)
{
  return ct_direction_is_orientation (method) &&
      !(ct_direction_mapping (method) & CT_MAPPING_KEEP_AXES);
}

const gchar *
ct_direction_nick (GstVideoOrientationMethod method)
{
  /* (a static type's class, once made, lives as long as the process:
   * its nicks outlive the reference) */
  GEnumClass *klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  GEnumValue *value = g_enum_get_value (klass, method);

  g_type_class_unref (klass);
  return value ? value->value_nick : "unknown";
}

/* Pointer coordinates are continuous, as videoflip treats them: a mirror
 * takes x to width - x. */
void
ct_direction_unmap_point (CtMapping mapping, gint out_width,
    gint out_height, gdouble x, gdouble y, gdouble * in_x, gdouble * in_y)
{
  gdouble ox = (mapping & CT_MAPPING_MIRROR_COLUMNS) ? out_width - x : x;
  gdouble oy = (mapping & CT_MAPPING_MIRROR_ROWS) ? out_height - y : y;

  if (mapping & CT_MAPPING_KEEP_AXES) {
    *in_x = ox;
    *in_y = oy;
  } else {
    *in_x = oy;
    *in_y = ox;
  }
}

/* ---------------------------------------------------------------------- */
/* The orientation the element is in                                       */

static gboolean
orientation_propose (CtOrientation * o)
{
  GstVideoOrientationMethod was = o->proposed;

  o->proposed = o->direction == GST_VIDEO_ORIENTATION_AUTO ?
      o->tag_direction : o->direction;
  return o->proposed != was;
}

void
ct_orientation_init (CtOrientation * o, GstVideoOrientationMethod direction)
{
  o->direction = o->proposed = direction;
  o->tag_direction = o->global_tag = GST_VIDEO_ORIENTATION_IDENTITY;
  o->have_stream_tag = FALSE;
}

gboolean
ct_orientation_set (CtOrientation * o, GstVideoOrientationMethod method,
    gboolean from_tag)
{
  if (from_tag)
    o->tag_direction = method;
  else
    o->direction = method;
  return orientation_propose (o);
}

/* As videoflip follows them: a stream tag over a global one; a stream tag
 * without an orientation goes back to the global one, a global tag
 * without one to identity. */
gboolean
ct_orientation_take_tags (CtOrientation * o, const GstTagList * tags)
{
  GstVideoOrientationMethod method;
  gboolean stream = gst_tag_list_get_scope (tags) == GST_TAG_SCOPE_STREAM;

  if (gst_video_orientation_from_tag ((GstTagList *) tags, &method)) {
    if (stream) {
      o->have_stream_tag = TRUE;
      return ct_orientation_set (o, method, TRUE);
    }
    o->global_tag = method;
  } else if (stream) {
    o->have_stream_tag = FALSE;
    return ct_orientation_set (o, o->global_tag, TRUE);
  } else {
    o->global_tag = GST_VIDEO_ORIENTATION_IDENTITY;
  }
  return !o->have_stream_tag ? ct_orientation_set (o, o->global_tag, TRUE) :
      FALSE;
}

gboolean
ct_orientation_reset_tags (CtOrientation * o)
{
  o->have_stream_tag = FALSE;
  o->global_tag = GST_VIDEO_ORIENTATION_IDENTITY;
  return ct_orientation_set (o, GST_VIDEO_ORIENTATION_IDENTITY, TRUE);
}

GstTagList *
ct_orientation_rewrite_tags (const CtOrientation * o, const GstTagList * tags)
{
  GstTagList *copy;

  if (o->direction != GST_VIDEO_ORIENTATION_AUTO ||
      gst_tag_list_get_tag_size (tags, GST_TAG_IMAGE_ORIENTATION) == 0)
    return NULL;
  copy = gst_tag_list_copy (tags);
  gst_tag_list_add (copy, GST_TAG_MERGE_REPLACE, GST_TAG_IMAGE_ORIENTATION,
      "rotate-0", NULL);
  return copy;
}
