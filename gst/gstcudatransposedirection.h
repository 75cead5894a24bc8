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

G_BEGIN_DECLS

/* The video-direction property's values (GstVideoOrientationMethod, as
 * videoflip takes them) as the kernels' CtMapping. */

/**
 * GstCudaTransposeMethod:
 *
 * The values of the deprecated #GstCudaTranspose:method property:
 * GstVideoOrientationMethod's, under videoflip's `method` nicks.
 */
#define GST_TYPE_CUDA_TRANSPOSE_METHOD (gst_cuda_transpose_method_get_type ())
GType gst_cuda_transpose_method_get_type (void);

/* Whether @method is one of the eight orientations (not auto or
 * custom). */
gboolean ct_direction_is_orientation (GstVideoOrientationMethod method);

/* The orientation whose mapping is @mapping. */
GstVideoOrientationMethod ct_direction_of_mapping (CtMapping mapping);

/* Whether @method gives a height x width output. */
gboolean ct_direction_swaps (GstVideoOrientationMethod method);

/* The kernels' mapping for one of the eight. */
CtMapping ct_direction_mapping (GstVideoOrientationMethod method);

/* The property's nick of @method ("90r"), for messages. */
const gchar *ct_direction_nick (GstVideoOrientationMethod method);

/* A point on the @out_width x @out_height output of @mapping, back on the
 * input: for navigation events going upstream. */
void ct_direction_unmap_point (CtMapping mapping, gint out_width,
    gint out_height, gdouble x, gdouble y, gdouble * in_x, gdouble * in_y);

/* The orientation the element is in: what the property and the stream's
 * tags ask for, and what the next negotiation and buffer take. Plain
 * state: the settings module holds it under the element's object lock. */
typedef struct
{
  GstVideoOrientationMethod direction;  /* the property: auto or one of 8 */
  GstVideoOrientationMethod tag_direction;      /* what the tags ask for */
  GstVideoOrientationMethod global_tag; /* a global tag's, for a stream tag
                                         * without one */
  gboolean have_stream_tag;
  GstVideoOrientationMethod proposed;   /* the property's, or under auto
                                         * the tags' */
} CtOrientation;

void ct_orientation_init (CtOrientation * o,
    GstVideoOrientationMethod direction);

/* Sets the property's direction (auto or one of the 8), or with @from_tag
 * the tags'; TRUE when what is proposed changed. */
gboolean ct_orientation_set (CtOrientation * o,
    GstVideoOrientationMethod method, gboolean from_tag);

/* Takes the orientation a tag list asks for, as videoflip follows tags;
 * TRUE when what is proposed changed. */
gboolean ct_orientation_take_tags (CtOrientation * o,
    const GstTagList * tags);

/* A new stream starts with no orientation from tags; TRUE when what is
 * proposed changed. */
gboolean ct_orientation_reset_tags (CtOrientation * o);

/* Under video-direction=auto, a copy of @tags that says rotate-0 (the
 * frames are upright now) where they carry an orientation; else NULL. */
GstTagList *ct_orientation_rewrite_tags (const CtOrientation * o,
    const GstTagList * tags);

G_END_DECLS
