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
#include <gst/cuda/gstcudamemory.h>

#include "cudatranspose-kernels.h"
#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* The element's caps algebra: the formats and caps it takes, what each
 * side takes given the other, and what a pair of caps means for the job
 * (pure functions of caps and the settings passed in). */

/* Every format videoflip takes, and the high-bit-depth and planar RGB ones
 * NVIDIA's decoders and nvcodec use. Each plane is rotated or flipped as
 * a plane of its own; 4:2:2 where the axes swap keeps its chroma
 * subsampled across the rows, resampled as videoflip does (ct_job_set_video
 * and ct_transpose_422). IYUV is I420 under another name: GstVideoInfo
 * does not know it (videoflip lists it and fails to negotiate it), so the
 * element reads it as I420 (ct_caps_video_info). Last, the formats taken
 * only on their way into a tensor (CT_CAPS_TENSOR_ONLY_FORMATS). */
#define CT_CAPS_FORMATS "{ GRAY8, GRAY16_LE, GRAY16_BE, I420, YV12, " \
    "IYUV, NV12, NV21, Y444, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, " \
    "xBGR, RGB, BGR, AYUV, YUY2, UYVY, YVYU, I420_10LE, I420_10BE, " \
    "I420_12LE, I420_12BE, I422_10LE, I422_10BE, I422_12LE, I422_12BE, " \
    "Y444_10LE, Y444_10BE, Y444_12LE, Y444_12BE, P010_10LE, P012_LE, " \
    "P016_LE, Y444_16LE, GBR, GBRA, GBR_10LE, GBR_12LE, VUYA, RGBA64_LE, " \
    "BGR10A2_LE, RGB10A2_LE, RGBP, BGRP, " CT_CAPS_TENSOR_ONLY_FORMATS " }"

/* 8-bit 4:2:2 and 4:4:4 formats taken only to go out as RGB tensors:
 * videoflip takes none of them, so no video goes out in them
 * (ct_caps_transform puts their video among what set_caps only refuses,
 * saying why). */
#define CT_CAPS_TENSOR_ONLY_FORMATS "Y42B, NV16, NV24"

/* Of those, the ones GStreamer 1.22's CUDA allocator can lay out (found by
 * allocating each on a GPU: docs/memory.md): it aborts on any other format
 * (GRAY8 among them), so CUDA memory is not offered for them. */
#define CT_CAPS_CUDA_FORMATS "{ I420, YV12, NV12, NV21, Y444, RGBA, " \
    "BGRA, ARGB, ABGR, RGBx, BGRx, RGB, BGR, YUY2, UYVY, I420_10LE, " \
    "I422_10LE, I422_12LE, P010_10LE, P016_LE, Y444_16LE, GBR, GBRA, " \
    "BGR10A2_LE, RGB10A2_LE }"

/* The YUV formats that go out as RGB tensors (ct_job_is_yuv), as the
 * element's messages list them. */
#define CT_CAPS_YUV_TENSOR_FORMATS "I420, YV12, NV12, NV21, P010_10LE, " \
    "P016_LE, Y444, I422_10LE, Y444_10LE, " CT_CAPS_TENSOR_ONLY_FORMATS

/* Interlaced frames (fields interleaved, in every frame or some) are in the
 * caps; ct_caps_job takes them only in the directions that keep each
 * row in its field, and refuses the others with a message to deinterlace
 * first. */
#define CT_CAPS_INTERLACE \
    ", interlace-mode = (string) { progressive, interleaved, mixed }; "

/* NNStreamer's tensors, in system memory: each tensor's two innermost
 * dimensions are transposed, for every index of the outer ones. Flexible
 * tensors (sizes in a header in each memory) go out flexible. More than
 * CT_TENSOR_COUNT_LIMIT tensors are in the caps only to be refused with a
 * reason (set_caps): without them upstream would fail to link, saying
 * nothing of why. Sparse tensors, always refused, are left out: a peer
 * that forces them is told why (ct_caps_refuse_unoffered). */
#define CT_CAPS_TENSORS \
    "other/tensors, format = (string) static, " \
    "num_tensors = (int) [ 1, MAX ], " \
    "framerate = " GST_VIDEO_FPS_RANGE "; " \
    "other/tensors, format = (string) flexible, framerate = " \
    GST_VIDEO_FPS_RANGE "; " \
    "other/tensor, framerate = " GST_VIDEO_FPS_RANGE

/* One static tensor a buffer may be CUDA memory too, kept on the GPU for
 * a consumer there (an application's appsink, another cudatranspose):
 * GStreamer's CUDA memory is laid out as video, so the element allocates
 * it as one row of RGBA pixels, and refuses to put a tensor there whose
 * bytes are not whole 4-byte words (ct_caps_job). */
#define CT_CAPS_TENSORS_CUDA \
    "other/tensors(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "), " \
    "format = (string) static, num_tensors = (int) 1, " \
    "framerate = " GST_VIDEO_FPS_RANGE "; " \
    "other/tensor(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "), " \
    "framerate = " GST_VIDEO_FPS_RANGE

/* CUDA memory first: a neighbour that can keep frames on the GPU should.
 * Tensors in system memory first, NNStreamer's home for them. */
#define CT_CAPS_TEMPLATE \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, \
        CT_CAPS_CUDA_FORMATS) CT_CAPS_INTERLACE \
    GST_VIDEO_CAPS_MAKE (CT_CAPS_FORMATS) CT_CAPS_INTERLACE \
    CT_CAPS_TENSORS "; " CT_CAPS_TENSORS_CUDA

/* Packed RGB video goes out as a tensor by default in CHW order: the
 * frame, seen as the HWC tensor "C:W:H:1", permuted by 1:2:0:3. */
extern const guint ct_caps_chw_permutation[4];

/* Whether @features (may be NULL) are CUDA memory's. */
gboolean ct_caps_is_cuda_memory (GstCapsFeatures * features);

/* An element upstream that can make CUDA memory (cudaupload, a decoder)
 * would otherwise pass system memory through, because we take it too:
 * where @upstream (its caps) offers frames in CUDA memory, the CUDA video
 * structures of the sink pad's @caps, to ask for only those; else NULL
 * (tensors in CUDA memory are asked for by name, never preferred). */
GstCaps *ct_caps_cuda_only (GstCaps * caps, GstCaps * upstream);

/* Whether @format (may be NULL) is taken only on its way into a tensor
 * (CT_CAPS_TENSOR_ONLY_FORMATS). */
gboolean ct_caps_is_tensor_only (const gchar * format);

/* Whether @format (may be NULL) is packed 4:2:2 (YUY2, UYVY, YVYU). */
gboolean ct_caps_is_packed_422 (const gchar * format);

/* Why GStreamer's CUDA memory cannot hold a whole @format frame of @width
 * x @height (0: not known, not judged), to follow the format's name in a
 * message; NULL if it can. The one place that knows these layouts
 * (gstcudatransposecaps.c says which). */
const gchar *ct_caps_cuda_shortfall (const gchar * format, gint width,
    gint height);

/* gst_video_info_from_caps, with IYUV (I420's other name, which
 * GstVideoInfo does not know) read as I420. */
gboolean ct_caps_video_info (GstVideoInfo * info, const GstCaps * caps);

/* What the other side takes for @caps on the @direction side: width and
 * height swapped (whatever their form) and the pixel-aspect-ratio
 * inverted where @proposed swaps the axes; tensors rearranged (@perm, or
 * NULL: the two innermost dimensions swapped; tensors it cannot read go
 * on as they are, for set_caps to refuse saying why) and retyped as the
 * arithmetic @arith (NULL: none) casts them; RGB, GRAY8 and YUV video
 * to tensors (of that type; of the frame turned by @turn, whose width and
 * height swap where it swaps the axes) and back; the same memory first,
 * then the
 * other (but for identity); within @other_template; tensors first on the
 * sink side (first on the source side too with a permutation or
 * arithmetic, which only tensors take); then @filter; CUDA memory that
 * cannot hold the frame left out where something else remains; video of
 * the formats that go out only as tensors, and the rest set_caps only
 * refuses, last, and only where nothing else fits @filter. */
GstCaps *ct_caps_transform (GstCaps * caps, GstPadDirection direction,
    const guint * perm, const CtArithSpec * arith,
    GstVideoOrientationMethod proposed, GstVideoOrientationMethod turn,
    GstCaps * other_template, GstCaps * filter);

/* @othercaps (taken) with what set_caps would only refuse for @caps (the
 * fixed side) last: a peer may list those first, and the fixation takes
 * the first. */
GstCaps *ct_caps_refused_last (GstCaps * caps, GstCaps * othercaps);

/* @othercaps (taken) with the structures of @caps' memory first. */
GstCaps *ct_caps_same_memory_first (GstCaps * caps, GstCaps * othercaps);

/* @result (taken; the other side, fixated) with @caps' colorimetry, said
 * or guessed, where it says none: the guess depends on the frame size,
 * which a transpose changes. */
GstCaps *ct_caps_keep_colorimetry (GstCaps * caps, GstCaps * result);

/* For a fixed RGB (packed or planar), GRAY8 or YUV (ct_job_is_yuv) video
 * structure in system memory (YUV in CUDA memory too), the tensor of @type
 * it converts to (in system memory): the HWC tensor "C:W:H:1" of the
 * frame turned by @turn (W and H swapped where it swaps the axes; only
 * YUV is turned, RGB and GRAY8 give NULL but for identity) permuted by
 * @perm, as other/tensor with @single, else other/tensors; NULL
 * otherwise. */
GstStructure *ct_caps_chw_tensor_of_video (const GstStructure * v,
    GstCapsFeatures * f, const guint perm[4], GstVideoOrientationMethod turn,
    gboolean single, const gchar * type);

/* Whether @out is what @mapping makes of @in. */
gboolean ct_caps_fit_mapping (const GstVideoInfo * in,
    const GstVideoInfo * out, CtMapping mapping);

/* How long a buffer may be held back with @incaps and @outcaps: one
 * frame's duration by the input's framerate; 0 where that is unknown or
 * 0/1, or where either side is CUDA memory. */
GstClockTime ct_caps_hold_duration (GstCaps * incaps, GstCaps * outcaps);

/* What a pair of caps makes besides the job. */
typedef struct
{
  gboolean flexible;            /* flexible tensors: the job follows each
                                 * buffer's headers */
  gboolean passthrough;         /* buffers pass through untouched */
} CtCapsOutcome;

/* The job for @incaps -> @outcaps, into @job: tensors transposed or
 * permuted by @perm, RGB, GRAY8 or YUV video to a tensor (HWC permuted
 * by @perm, CHW without; YUV converted to RGB, or BGR with @bgr, and
 * turned by @turn, which RGB and GRAY8 video refuse but for identity,
 * saying that the stream's tag asked for it where @turn_from_tag),
 * each with the arithmetic @arith (NULL: none);
 * or video in the orientation @proposed, which refuses arithmetic. FALSE,
 * with why in @r, for caps it cannot take with these settings (the
 * element tries the settings the caps may have been made for in turn). */
gboolean ct_caps_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const guint * perm, const CtArithSpec * arith, gboolean bgr,
    GstVideoOrientationMethod proposed, GstVideoOrientationMethod turn,
    gboolean turn_from_tag, CtCapsOutcome * outcome, CtRefusal * r);

/* Whether @mapping keeps interlaced video's fields apart (interlaced video
 * is only mirrored horizontally or passed through); FALSE, with why in
 * @r, if not. */
gboolean ct_caps_fields_kept (const GstVideoInfo * info, CtMapping mapping,
    CtRefusal * r);

/* Downstream takes none of @made, what the element makes of @incaps with
 * @perm, @arith and @proposed (downstream takes @peer): why, in @r, naming
 * the settings; @while_playing: they changed while playing. */
void ct_caps_refuse_output (GstCaps * incaps, const guint * perm,
    const CtArithSpec * arith, GstVideoOrientationMethod proposed,
    gboolean while_playing, GstCaps * made, GstCaps * peer, CtRefusal * r);

/* Caps the pad templates leave out though a peer may force them, which
 * the pad refuses before set_caps sees them: for sparse tensors and video
 * of interlace-mode=alternate TRUE, with why in @r (to make them dense, or
 * to deinterlace, first); FALSE for any other caps. */
gboolean ct_caps_refuse_unoffered (GstCaps * caps, CtRefusal * r);

/* transform_size: the size of a buffer of fixed @caps (FALSE for
 * flexible tensors, whose sizes are in each buffer, and for caps it cannot
 * read). */
gboolean ct_caps_buffer_size (GstCaps * caps, gsize * size);

G_END_DECLS
