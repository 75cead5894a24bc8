/* Tensors for the element tests (check-tensors.c): NNStreamer's
 * other/tensors as the tests see them, and transpose and permutation
 * references written here. */
#pragma once

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Tensors (NNStreamer's other/tensors): a tensor as the test sees it. */
typedef struct
{
  const gchar *dims;            /* "d0:d1:...", innermost first */
  const gchar *type;            /* "uint8", "float32", ... */
} CtCheckTensor;

/* The eleven types, and shapes that catch ragged tiles, 1-sized and
 * non-power-of-2 dimensions and ranks 1 to 4. */
extern const gchar *ct_check_tensor_types[];
extern const guint ct_check_n_tensor_types;

/* Element size of a type name, as NNStreamer defines them. */
guint ct_check_tensor_type_size (const gchar * type);
extern const gchar *ct_check_tensor_shapes[];
extern const guint ct_check_n_tensor_shapes;

/* other/tensors caps for @n tensors. */
GstCaps *ct_check_tensor_caps (const CtCheckTensor * t, guint n);

/* Pushes random tensors (one memory each, or all in one memory) through
 * @h, whose caps must be set to match, and checks that each comes out with
 * its two innermost dimensions transposed, one memory per tensor. */
void ct_check_push_tensors_and_verify (GstHarness * h,
    const CtCheckTensor * t, guint n, gboolean one_memory, const gchar * what);

/* A buffer of system memory for @n tensors @t: one memory per tensor, or
 * one for all (@one_memory), unfilled. */
GstBuffer *ct_check_new_tensor_buffer (const CtCheckTensor * t, guint n,
    gboolean one_memory);

/* Fills every memory of @in with random bytes. */
void ct_check_fill_tensors (GstBuffer * in);

/* Checks that @out holds @in's @n tensors @t (one memory per tensor in
 * @in, or one for all) with their two innermost dimensions transposed,
 * one memory per tensor. */
void ct_check_assert_tensors_transposed (GstBuffer * in, GstBuffer * out,
    const CtCheckTensor * t, guint n, const gchar * what);

/* Fills @in (one memory per tensor, or one for all) with random bytes,
 * pushes it through @h and checks the output as above; returns the output
 * (unref it). */
GstBuffer *ct_check_push_tensor_buffer (GstHarness * h, GstBuffer * in,
    const CtCheckTensor * t, guint n, const gchar * what);

/* Every type at every shape through @h, then two tensors of different types
 * in one buffer, both memory layouts. */
void ct_check_all_tensors (GstHarness * h, const gchar * what);

/* Pushes a random tensor of sizes @dims (4 of them, innermost first) and
 * @type through @h, whose caps must be set to match and whose element has
 * permutation @perm, and checks output dimension i is input dimension
 * @perm[i]. */
void ct_check_push_permuted_and_verify (GstHarness * h,
    const guint64 dims[4], const gchar * type, const guint perm[4],
    const gchar * what);

/* The @q-th (0 to 23) order of 4 dimensions, into @perm. */
void ct_check_nth_permutation (guint q, guint perm[4]);

/* Every order of 4 dimensions over a few shapes and every type size, each
 * through a new harness around "@desc permutation=...". */
void ct_check_all_permutations (const gchar * desc);

/* RGB video, packed (RGB, BGR, RGBA, BGRA, RGBx, BGRx) and planar (RGBP,
 * BGRP, GBR: channel k is plane k), of several sizes, odd ones and padded
 * rows too, through a harness around @desc whose output is other/tensors:
 * each frame must come out as its CHW uint8 tensor. */
void ct_check_video_to_chw (const gchar * desc);

/* The channels of RGB video seen as an HWC tensor: the planes of a planar
 * format, the bytes of a pixel of a packed one. */
guint ct_check_rgb_channels (const GstVideoInfo * info);

/* Byte @ch of pixel (@x, @y) of mapped RGB frame @f: of plane @ch where
 * planar, of the pixel's bytes where packed. */
guint8 ct_check_rgb_byte (const GstVideoFrame * f, guint ch, guint x,
    guint y);

/* The same, @desc having the permutation @perm: each frame must come out
 * as its HWC tensor (C:W:H:1, planar frames seen as the packed frame of
 * their plane order) permuted by @perm. */
void ct_check_video_to_tensor (const gchar * desc, const guint perm[4]);

G_END_DECLS
