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

G_BEGIN_DECLS

/* NNStreamer's tensor caps, read and written without NNStreamer:
 *
 *   other/tensors, format=static, num_tensors=N, framerate=F,
 *     dimensions="d0:d1:d2:d3,d0:d1:...", types="uint8,float32,..."
 *   other/tensor, framerate=F, dimension="d0:d1:...", type="uint8"
 *
 * Dimensions are innermost first (video RGB 640x480 is "3:640:480:1"). */

#define CT_TENSOR_RANK_LIMIT 16
#define CT_TENSOR_COUNT_LIMIT 256
#define CT_TENSOR_COUNT_LIMIT_STR "256"
/* A buffer holds at most 16 memories: NNStreamer puts tensors 16 and on
 * in the 16th, after a header (ct_tensor_extra_*) and tensor 15. */
#define CT_TENSOR_MEMORY_LIMIT 16

#define CT_TENSOR_TYPES "int8, uint8, int16, uint16, float16, int32, " \
    "uint32, float32, int64, uint64, float64"

typedef struct
{
  guint rank;                   /* entries given, trailing 1s included */
  guint64 dims[CT_TENSOR_RANK_LIMIT];   /* innermost first */
  guint elem_size;              /* bytes of the type */
  const gchar *type;            /* static string */
  guint64 planes;               /* d0 x d1 planes: sizes past the second */
  guint64 bytes;                /* of the whole tensor */
} CtTensorInfo;

/* The most bytes a tensor, or all tensors of a buffer together, may hold:
 * twice that still fits a gsize (the device holds input and output). */
#define CT_TENSOR_BYTES_LIMIT ((guint64) G_MAXSSIZE)

/* Whether @s is other/tensors or other/tensor. */
gboolean ct_tensor_caps_is_tensor (const GstStructure * s);

/* Whether @s is other/tensors, format=flexible: sizes in each memory. */
gboolean ct_tensor_caps_is_flexible (const GstStructure * s);

/* Whether @s is other/tensors, format=sparse: only the non-zero elements,
 * which ct_tensor_caps_parse refuses. */
gboolean ct_tensor_caps_is_sparse (const GstStructure * s);

/* Reads the tensors of fixed caps, with their sizes multiplied out. On
 * failure (malformed fields, or a tensor or all of them together larger
 * than CT_TENSOR_BYTES_LIMIT) returns FALSE and sets @why to a sentence
 * for the user (g_free it). */
gboolean ct_tensor_caps_parse (const GstStructure * s, CtTensorInfo * tensors,
    guint * n_tensors, gchar ** why);

/* Bytes of one tensor, and the count of d0 x d1 planes in it, as
 * ct_tensor_caps_parse () worked them out. */
guint64 ct_tensor_bytes (const CtTensorInfo * t);
guint64 ct_tensor_planes (const CtTensorInfo * t);

/* A permutation in tensor_transform's notation, "a:b:c:d": output
 * dimension i is input dimension perm[i]. Returns FALSE with a reason in
 * @why (g_free it) if @text is not an order of 0, 1, 2 and 3. */
gboolean ct_tensor_parse_permutation (const gchar * text, guint perm[4],
    gchar ** why);

/* @s with every tensor's dimensions rearranged, where they are a fixed
 * string (unchanged where they are absent): with @perm NULL the two
 * innermost sizes swapped, else permuted by @perm (@inverse: undone) as
 * four sizes, the rank kept (ct_tensor_permuted_rank). A tensor of higher
 * rank is left as it is, for negotiation to refuse. Undoing a permutation
 * may give a list of strings: input ranks that differ only in trailing 1s
 * can give the same output. Returns FALSE when they do not parse. */
gboolean ct_tensor_caps_rearrange (GstStructure * s, const guint * perm,
    gboolean inverse);

/* The rank of a tensor of @in_rank sizes once permuted into @out4: its
 * own, or more where a size other than 1 moved past it (as
 * tensor_transform keeps "3:5:7" a rank-3 "5:7:3"). */
guint ct_tensor_permuted_rank (guint in_rank, const guint64 out4[4]);

/* The four sizes of a tensor of rank 4 or less (missing ones are 1);
 * FALSE if a size beyond the fourth is not 1. */
gboolean ct_tensor_dims4 (const CtTensorInfo * t, guint64 dims[4]);

/* The header of the 16th memory of a buffer of more than 16 tensors:
 * NNStreamer's GstTensorExtraInfo (magic, version, the count of tensors
 * past the 16th, the bytes of tensor 15 after it, then each of those
 * tensors' type and sizes), laid out as this machine lays out C structs,
 * as NNStreamer is built. */
gsize ct_tensor_extra_header_size (void);

/* Whether @data (@size bytes) starts with that header, for @n_extra
 * tensors; FALSE with a reason in @why (g_free it) if not. */
gboolean ct_tensor_extra_header_check (const guint8 * data, gsize size,
    guint n_extra, gchar ** why);

/* Writes that header at @header (ct_tensor_extra_header_size () bytes)
 * for tensors @t[0] (tensor 15) to @t[@n - 1]; for @flexible tensors,
 * each of which comes with its own header, tensor 15's bytes count its
 * header too, as NNStreamer counts them. */
void ct_tensor_extra_header_write (const CtTensorInfo * t, guint n,
    gboolean flexible, guint8 * header);

/* Flexible tensors (other/tensors, format=flexible) carry their sizes in
 * each memory: a header of CT_TENSOR_HEADER_SIZE bytes, then the tensor.
 * The header is NNStreamer's GstTensorMetaInfo (version 1), in host byte
 * order: magic, version, type, 16 sizes (0 past the rank), format,
 * media type, then zeros. */
#define CT_TENSOR_HEADER_SIZE 128

/* Reads the header at the start of a memory of @size bytes into @t, the
 * tensor's sizes multiplied out and checked against @size. FALSE with a
 * reason in @why (g_free it) if it is not one or the memory is short. */
gboolean ct_tensor_header_parse (const guint8 * data, gsize size,
    CtTensorInfo * t, gchar ** why);

/* Reads every flexible tensor in a memory of @size bytes: one header and
 * tensor after another to its end (GStreamer merges memories past 16 of a
 * buffer into one), after NNStreamer's header of the tensors past the
 * 16th where @sixteenth (the memory is a buffer's 16th) and it has one.
 * Appends each to @t[*@n] and the offset of its data in the memory to
 * @offsets[*@n], at most @max in all. FALSE with a reason in @why (g_free
 * it) if a byte of the memory is not in a tensor or a header. */
gboolean ct_tensor_flexible_parse (const guint8 * data, gsize size,
    gboolean sixteenth, CtTensorInfo * t, gsize * offsets, guint max,
    guint * n, gchar ** why);

/* Writes the header of @t at @header, as NNStreamer's elements write
 * theirs: a dense tensor (format static) of media type tensor. */
void ct_tensor_header_write (const CtTensorInfo * t, guint8 * header);

/* The tensor @in becomes: its two innermost sizes swapped (@perm NULL; a
 * rank-1 tensor of n becomes 1:n), or its four permuted by @perm, the
 * rank kept (ct_tensor_permuted_rank). FALSE if @perm is given and @in has
 * a size other than 1 past the fourth. */
gboolean ct_tensor_rearranged (const CtTensorInfo * in, const guint * perm,
    CtTensorInfo * out);

/* A property value as messages quote it: its first CT_QUOTE_MAX
 * characters, then "..." where it is longer (g_free it). A value of
 * thousands of characters would otherwise fill every message twice. */
#define CT_QUOTE_MAX 64
gchar *ct_quote (const gchar * text);

G_END_DECLS
