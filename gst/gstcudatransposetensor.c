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

#include "gstcudatransposetensor.h"

#include <string.h>

static const struct
{
  const gchar *name;
  guint size;
} tensor_types[] = {
  {"int8", 1}, {"uint8", 1}, {"int16", 2}, {"uint16", 2}, {"float16", 2},
  {"int32", 4}, {"uint32", 4}, {"float32", 4}, {"int64", 8}, {"uint64", 8},
  {"float64", 8},
};

gboolean
ct_tensor_caps_is_tensor (const GstStructure * s)
{
  return gst_structure_has_name (s, "other/tensors") ||
      gst_structure_has_name (s, "other/tensor");
}

gboolean
ct_tensor_caps_is_flexible (const GstStructure * s)
{
  return gst_structure_has_name (s, "other/tensors") &&
      g_strcmp0 (gst_structure_get_string (s, "format"), "flexible") == 0;
}

gboolean
ct_tensor_caps_is_sparse (const GstStructure * s)
{
  return gst_structure_has_name (s, "other/tensors") &&
      g_strcmp0 (gst_structure_get_string (s, "format"), "sparse") == 0;
}

/* "d0:d1:..." into @t; FALSE with a reason if it is not that. */
static gboolean
parse_dims (const gchar * text, CtTensorInfo * t, gchar ** why)
{
  gchar **parts = g_strsplit (text, ":", -1);
  guint n = g_strv_length (parts), i;
  gboolean ok = TRUE;

  if (n == 0 || n > CT_TENSOR_RANK_LIMIT) {
    *why = g_strdup_printf ("tensor dimension \"%s\" has %u sizes; 1 to %d "
        "are supported", text, n, CT_TENSOR_RANK_LIMIT);
    ok = FALSE;
  }
  for (i = 0; ok && i < n; i++) {
    gchar *end = NULL;
    guint64 v = g_ascii_strtoull (g_strstrip (parts[i]), &end, 10);

    if (!parts[i][0] || *end || v == 0 || v > G_MAXUINT32) {
      *why = g_strdup_printf ("tensor dimension \"%s\": size %u (\"%s\") must "
          "be a whole number from 1 to %u", text, i, parts[i], G_MAXUINT32);
      ok = FALSE;
    }
    t->dims[i] = v;
  }
  t->rank = n;
  g_strfreev (parts);
  return ok;
}

static gboolean
parse_type (const gchar * text, CtTensorInfo * t, gchar ** why)
{
  gchar *name = g_strstrip (g_strdup (text));
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tensor_types); i++) {
    if (g_ascii_strcasecmp (name, tensor_types[i].name) == 0) {
      t->type = tensor_types[i].name;
      t->elem_size = tensor_types[i].size;
      g_free (name);
      return TRUE;
    }
  }
  *why = g_strdup_printf ("tensor type \"%s\" is not one of " CT_TENSOR_TYPES,
      name);
  g_free (name);
  return FALSE;
}

/* Multiplies out @t's planes and bytes; FALSE with a reason if they pass
 * CT_TENSOR_BYTES_LIMIT (or 64 bits) on the way. */
static gboolean
size_tensor (CtTensorInfo * t, guint index, const gchar * dims, gchar ** why)
{
  guint64 planes = 1, bytes = t->elem_size;
  gboolean ok = TRUE;
  guint i;

  for (i = 2; ok && i < t->rank; i++)
    ok = g_uint64_checked_mul (&planes, planes, t->dims[i]);
  for (i = 0; ok && i < MIN (t->rank, 2); i++)
    ok = g_uint64_checked_mul (&bytes, bytes, t->dims[i]);
  ok = ok && g_uint64_checked_mul (&bytes, bytes, planes) &&
      bytes <= CT_TENSOR_BYTES_LIMIT;
  if (!ok) {
    *why = g_strdup_printf ("tensor %u (dimensions \"%s\", %s) is too large: "
        "its sizes multiply to more than %" G_GUINT64_FORMAT " bytes, the "
        "most a buffer can hold", index, dims, t->type, CT_TENSOR_BYTES_LIMIT);
    return FALSE;
  }
  t->planes = planes;
  t->bytes = bytes;
  return TRUE;
}

/* FALSE with a reason if @s has @field but not as a string: unquoted in a
 * caps string, two sizes "640:480" are read as a GstFlagSet. */
static gboolean
string_field (const GstStructure * s, const gchar * field, gchar ** why)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (!v || G_VALUE_HOLDS_STRING (v))
    return TRUE;
  /* (not its value: a flag set has already lost what was written) */
  *why = g_strdup_printf ("tensor caps field %s was read as a %s, not a "
      "string: give its type, as in %s=(string)640:480", field,
      g_type_name (G_VALUE_TYPE (v)), field);
  return FALSE;
}

gboolean
ct_tensor_caps_parse (const GstStructure * s, CtTensorInfo * tensors,
    guint * n_tensors, gchar ** why)
{
  gboolean single = gst_structure_has_name (s, "other/tensor");
  const gchar *dims = gst_structure_get_string (s, single ? "dimension" :
      "dimensions");
  const gchar *types = gst_structure_get_string (s, single ? "type" :
      "types");
  const gchar *format = gst_structure_get_string (s, "format");
  gchar **d = NULL, **ty = NULL;
  guint64 total = 0;
  gint num = 1;
  guint n, i;
  gboolean ok = FALSE;

  *why = NULL;
  if (ct_tensor_caps_is_sparse (s)) {
    *why = g_strdup ("sparse tensors (format=sparse) hold only their "
        "non-zero elements, so they have no layout to transpose: make them "
        "dense first, with tensor_sparse_dec before cudatranspose");
    return FALSE;
  }
  if (!string_field (s, single ? "dimension" : "dimensions", why) ||
      !string_field (s, single ? "type" : "types", why))
    return FALSE;
  if (!single && format && !g_str_equal (format, "static")) {
    *why = g_strdup_printf ("tensor format \"%s\" is not supported; only "
        "format=static and format=flexible", format);
    return FALSE;
  }
  if (!dims || !types) {
    *why = g_strdup_printf ("tensor caps need the %s and %s fields",
        single ? "dimension" : "dimensions", single ? "type" : "types");
    return FALSE;
  }
  /* NNStreamer separates tensors with ',' (and reads '.' too) */
  d = g_strsplit_set (dims, ",.", -1);
  ty = g_strsplit_set (types, ",.", -1);
  n = g_strv_length (d);
  if (!single && !gst_structure_get_int (s, "num_tensors", &num))
    num = n;
  if (n > CT_TENSOR_COUNT_LIMIT || num > CT_TENSOR_COUNT_LIMIT) {
    *why = g_strdup_printf ("%u tensors in a buffer (num_tensors=%d) are "
        "more than the %d NNStreamer allows: split them, e.g. with "
        "tensor_demux", MAX (n, (guint) MAX (num, 0)), num,
        CT_TENSOR_COUNT_LIMIT);
    goto done;
  }
  if (n == 0 || g_strv_length (ty) != n ||
      (guint) num != n || (single && n != 1)) {
    *why = g_strdup_printf ("tensor caps disagree: num_tensors=%d, %u "
        "dimensions (\"%s\"), %u types (\"%s\"); they must be the same count, "
        "1 to %d", num, n, dims, g_strv_length (ty), types,
        CT_TENSOR_COUNT_LIMIT);
    goto done;
  }
  for (i = 0; i < n; i++) {
    if (!parse_dims (d[i], &tensors[i], why) ||
        !parse_type (ty[i], &tensors[i], why) ||
        !size_tensor (&tensors[i], i, d[i], why))
      goto done;
    total += tensors[i].bytes;
    if (total > CT_TENSOR_BYTES_LIMIT) {
      *why = g_strdup_printf ("the %u tensors (dimensions \"%s\") hold more "
          "than %" G_GUINT64_FORMAT " bytes together, the most a buffer can "
          "hold", n, dims, CT_TENSOR_BYTES_LIMIT);
      goto done;
    }
  }
  *n_tensors = n;
  ok = TRUE;

done:
  g_strfreev (d);
  g_strfreev (ty);
  return ok;
}

guint64
ct_tensor_bytes (const CtTensorInfo * t)
{
  return t->bytes;
}

guint64
ct_tensor_planes (const CtTensorInfo * t)
{
  return t->planes;
}

gboolean
ct_tensor_parse_permutation (const gchar * text, guint perm[4], gchar ** why)
{
  gchar **parts = g_strsplit (text ? text : "", ":", -1);
  guint seen = 0, i, n = g_strv_length (parts);
  gboolean ok = n == 4;

  for (i = 0; ok && i < 4; i++) {
    gchar *p = g_strstrip (parts[i]);

    ok = strlen (p) == 1 && p[0] >= '0' && p[0] <= '3' &&
        !(seen & (1u << (p[0] - '0')));
    if (ok) {
      perm[i] = p[0] - '0';
      seen |= 1u << perm[i];
    }
  }
  g_strfreev (parts);
  if (!ok) {
    gchar *quoted = ct_quote (text);

    *why = g_strdup_printf ("permutation \"%s\" must name each of the "
        "dimensions 0, 1, 2 and 3 once, separated by ':', e.g. \"1:2:0:3\" "
        "for HWC to CHW (output dimension i takes input dimension i's "
        "entry, innermost first, as tensor_transform's transpose option)",
        quoted);
    g_free (quoted);
  }
  return ok;
}

gchar *
ct_quote (const gchar * text)
{
  const gchar *end;

  if (!text)
    return g_strdup ("");
  if (g_utf8_strlen (text, CT_QUOTE_MAX + 1) <= CT_QUOTE_MAX)
    return g_strdup (text);
  /* (whole characters: a value need not be ASCII) */
  end = g_utf8_offset_to_pointer (text, CT_QUOTE_MAX);
  return g_strdup_printf ("%.*s...", (int) (end - text), text);
}

gboolean
ct_tensor_dims4 (const CtTensorInfo * t, guint64 dims[4])
{
  guint i;

  for (i = 0; i < 4; i++)
    dims[i] = i < t->rank ? t->dims[i] : 1;
  for (; i < t->rank; i++)
    if (t->dims[i] != 1)
      return FALSE;
  return TRUE;
}

/* The last of @n sizes that is not 1, plus one (0 if all are 1). */
static guint
rank_needed (const guint64 * dims, guint n)
{
  while (n > 0 && dims[n - 1] == 1)
    n--;
  return n;
}

/* "d0:d1:..." of @rank sizes: @dims' first @n, then 1s. */
static gchar *
dims_string (const guint64 * dims, guint n, guint rank)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < rank; i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? ":" : "",
        i < n ? dims[i] : (guint64) 1);
  return g_string_free (s, FALSE);
}

guint
ct_tensor_permuted_rank (guint in_rank, const guint64 out4[4])
{
  return MAX (in_rank, rank_needed (out4, 4));
}

/* One tensor's "d0:d1:..." rearranged: the strings it may become (more
 * than one only undoing a permutation, where input ranks differing in
 * trailing 1s give the same output), or FALSE. */
static gboolean
rearrange_one (const gchar * text, const guint * perm, gboolean inverse,
    GPtrArray * out_strings)
{
  CtTensorInfo t;
  guint64 in[4], out[4];
  gchar *why = NULL;
  guint i, r, lo;

  if (!perm) {
    gchar **sizes = g_strsplit (text, ":", -1);

    if (!sizes[0]) {
      g_strfreev (sizes);
      return FALSE;
    }
    if (!sizes[1]) {
      /* a rank-1 tensor of n is 1 x n once transposed */
      g_ptr_array_add (out_strings, g_strdup_printf ("1:%s",
              g_strstrip (sizes[0])));
    } else {
      gchar *tmp = sizes[0];

      sizes[0] = sizes[1];
      sizes[1] = tmp;
      g_ptr_array_add (out_strings, g_strjoinv (":", sizes));
    }
    g_strfreev (sizes);
    return TRUE;
  }

  if (!parse_dims (text, &t, &why)) {
    g_free (why);
    return FALSE;
  }
  /* beyond rank 4: left as it is, for set_caps to refuse with the reason */
  if (!ct_tensor_dims4 (&t, in)) {
    g_ptr_array_add (out_strings, g_strdup (text));
    return TRUE;
  }
  if (!inverse) {
    CtTensorInfo o;

    ct_tensor_rearranged (&t, perm, &o);
    g_ptr_array_add (out_strings, dims_string (o.dims, o.rank, o.rank));
    return TRUE;
  }
  /* @in is the output here: every input rank that gives its rank back */
  for (i = 0; i < 4; i++)
    out[perm[i]] = in[i];
  lo = MAX (rank_needed (out, 4), 1);
  for (r = lo; r <= t.rank; r++)
    if (ct_tensor_permuted_rank (r, in) == t.rank)
      g_ptr_array_add (out_strings, dims_string (out, 4, r));
  if (out_strings->len == 0)
    g_ptr_array_add (out_strings, dims_string (out, 4, MAX (t.rank, lo)));
  return TRUE;
}

/* The most combinations of candidate ranks offered as a list. */
#define MAX_DIMS_CHOICES 64

gboolean
ct_tensor_caps_rearrange (GstStructure * s, const guint * perm,
    gboolean inverse)
{
  const gchar *field = gst_structure_has_name (s, "other/tensor") ?
      "dimension" : "dimensions";
  const gchar *dims = gst_structure_get_string (s, field);
  GPtrArray *choices, *joined;
  gchar **d;
  guint i, n, combos = 1;
  gboolean ok = TRUE;

  if (!dims)
    return TRUE;
  d = g_strsplit_set (dims, ",.", -1);
  n = g_strv_length (d);
  choices = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (i = 0; ok && i < n; i++) {
    GPtrArray *c = g_ptr_array_new_with_free_func (g_free);

    ok = rearrange_one (d[i], perm, inverse, c);
    g_ptr_array_add (choices, c);
    combos = c->len && combos <= MAX_DIMS_CHOICES ? combos * c->len : combos;
  }
  if (!ok) {
    g_ptr_array_unref (choices);
    g_strfreev (d);
    return FALSE;
  }
  /* each combination of the tensors' strings, or (too many) the last
   * string of each: the input's own rank */
  joined = g_ptr_array_new_with_free_func (g_free);
  if (combos > MAX_DIMS_CHOICES)
    combos = 1;
  for (i = 0; i < combos; i++) {
    GString *str = g_string_new (NULL);
    guint k, rest = i;

    for (k = 0; k < n; k++) {
      GPtrArray *c = g_ptr_array_index (choices, k);
      guint pick = combos == 1 ? c->len - 1 : rest % c->len;

      rest /= c->len;
      g_string_append_printf (str, "%s%s", k ? "," : "",
          (const gchar *) g_ptr_array_index (c, pick));
    }
    g_ptr_array_add (joined, g_string_free (str, FALSE));
  }
  if (joined->len == 1) {
    gst_structure_set (s, field, G_TYPE_STRING, g_ptr_array_index (joined, 0),
        NULL);
  } else {
    GValue list = G_VALUE_INIT;

    g_value_init (&list, GST_TYPE_LIST);
    for (i = 0; i < joined->len; i++) {
      GValue item = G_VALUE_INIT;

      g_value_init (&item, G_TYPE_STRING);
      g_value_set_string (&item, g_ptr_array_index (joined, i));
      gst_value_list_append_and_take_value (&list, &item);
    }
    gst_structure_take_value (s, field, &list);
  }
  g_ptr_array_unref (joined);
  g_ptr_array_unref (choices);
  g_strfreev (d);
  return TRUE;
}

/* NNStreamer's tensor_type, in its order: a header's type is an index. */
static const gchar *const header_types[] = {
  "int32", "uint32", "int16", "uint16", "int8", "uint8", "float64",
  "float32", "int64", "uint64", "float16",
};

#define HEADER_MAGIC 0xfeedccedu
#define EXTRA_MAGIC 0xf00dc0deu
#define HEADER_VERSION_MARK 0xde000000u
#define HEADER_VERSION_1 (HEADER_VERSION_MARK | 1u << 12)
/* the words of a header: magic, version, type, 16 sizes, format, media */
#define HEADER_TYPE 2
#define HEADER_DIMS 3
#define HEADER_FORMAT (HEADER_DIMS + CT_TENSOR_RANK_LIMIT)
#define HEADER_MEDIA (HEADER_FORMAT + 1)
#define FORMAT_STATIC 0
#define FORMAT_SPARSE 2
#define MEDIA_TENSOR 4

gboolean
ct_tensor_header_parse (const guint8 * data, gsize size, CtTensorInfo * t,
    gchar ** why)
{
  guint32 w[HEADER_FORMAT + 1], media;
  gchar *dims;
  guint i;

  *why = NULL;
  if (size < CT_TENSOR_HEADER_SIZE) {
    *why = g_strdup_printf ("a flexible tensor's memory of %" G_GSIZE_FORMAT
        " bytes cannot hold its %d-byte header", size, CT_TENSOR_HEADER_SIZE);
    return FALSE;
  }
  memcpy (w, data, sizeof (w));
  if (w[0] == EXTRA_MAGIC) {
    *why = g_strdup ("NNStreamer's header of the tensors past the 16th "
        "stands where only a tensor's header may be (it starts a buffer's "
        "16th memory, and only there)");
    return FALSE;
  }
  if (w[0] != HEADER_MAGIC ||
      (w[1] & HEADER_VERSION_MARK) != HEADER_VERSION_MARK) {
    *why = g_strdup_printf ("a flexible tensor's memory does not start with "
        "NNStreamer's tensor header (magic 0x%08x, version 0x%08x)", w[0],
        w[1]);
    return FALSE;
  }
  if (w[HEADER_FORMAT] == FORMAT_SPARSE) {
    *why = g_strdup ("a flexible tensor is sparse: make it dense first, "
        "with tensor_sparse_dec before cudatranspose");
    return FALSE;
  }
  /* (as NNStreamer's gst_tensor_meta_info_validate takes them) */
  if (w[HEADER_FORMAT] > FORMAT_SPARSE) {
    *why = g_strdup_printf ("a flexible tensor's header has format %u, "
        "which is not one of NNStreamer's", w[HEADER_FORMAT]);
    return FALSE;
  }
  memcpy (&media, data + HEADER_MEDIA * sizeof (guint32), sizeof (media));
  if (media > MEDIA_TENSOR) {
    *why = g_strdup_printf ("a flexible tensor's header has media type %u, "
        "which is not one of NNStreamer's", media);
    return FALSE;
  }
  if (w[HEADER_TYPE] >= G_N_ELEMENTS (header_types)) {
    *why = g_strdup_printf ("a flexible tensor's header has type %u, which "
        "is not one of NNStreamer's", w[HEADER_TYPE]);
    return FALSE;
  }
  memset (t, 0, sizeof (*t));
  for (i = 0; i < CT_TENSOR_RANK_LIMIT && w[HEADER_DIMS + i]; i++)
    t->dims[i] = w[HEADER_DIMS + i];
  t->rank = i;
  for (; i < CT_TENSOR_RANK_LIMIT && !w[HEADER_DIMS + i]; i++);
  if (t->rank == 0 || i < CT_TENSOR_RANK_LIMIT) {
    *why = g_strdup ("a flexible tensor's header has no sizes, or a size "
        "of 0 before the last");
    return FALSE;
  }
  if (!parse_type (header_types[w[HEADER_TYPE]], t, why))
    return FALSE;
  dims = dims_string (t->dims, t->rank, t->rank);
  if (!size_tensor (t, 0, dims, why)) {
    g_free (dims);
    return FALSE;
  }
  if (size - CT_TENSOR_HEADER_SIZE < t->bytes) {
    *why = g_strdup_printf ("a flexible tensor (dimensions \"%s\", %s) "
        "needs %" G_GUINT64_FORMAT " bytes after its header, but its memory "
        "holds %" G_GSIZE_FORMAT, dims, t->type, t->bytes,
        size - CT_TENSOR_HEADER_SIZE);
    g_free (dims);
    return FALSE;
  }
  g_free (dims);
  return TRUE;
}

void
ct_tensor_header_write (const CtTensorInfo * t, guint8 * header)
{
  guint32 w[HEADER_MEDIA + 1] = { HEADER_MAGIC, HEADER_VERSION_1 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (header_types); i++)
    if (g_str_equal (header_types[i], t->type))
      w[HEADER_TYPE] = i;
  /* (sizes of at most G_MAXUINT32: rearranged from parsed ones) */
  for (i = 0; i < t->rank; i++)
    w[HEADER_DIMS + i] = (guint32) t->dims[i];
  w[HEADER_FORMAT] = FORMAT_STATIC;
  w[HEADER_MEDIA] = MEDIA_TENSOR;
  memset (header, 0, CT_TENSOR_HEADER_SIZE);
  memcpy (header, w, sizeof (w));
}

gboolean
ct_tensor_rearranged (const CtTensorInfo * in, const guint * perm,
    CtTensorInfo * out)
{
  guint64 d[4], o[4];
  guint i;

  *out = *in;
  if (!perm) {
    out->rank = MAX (in->rank, 2);
    out->dims[0] = in->rank > 1 ? in->dims[1] : 1;
    out->dims[1] = in->dims[0];
  } else {
    if (!ct_tensor_dims4 (in, d))
      return FALSE;
    for (i = 0; i < 4; i++)
      o[i] = d[perm[i]];
    out->rank = ct_tensor_permuted_rank (in->rank, o);
    for (i = 0; i < out->rank; i++)
      out->dims[i] = i < 4 ? o[i] : 1;
  }
  out->planes = 1;
  for (i = 2; i < out->rank; i++)
    out->planes *= out->dims[i];
  return TRUE;
}

/* NNStreamer's GstTensorInfo and GstTensorExtraInfo, field for field, so
 * that this compiler lays them out as NNStreamer's does. */
typedef struct
{
  gchar *name;
  guint32 type;                 /* (a C enum) */
  guint32 dims[CT_TENSOR_RANK_LIMIT];
} NnsTensorInfo;

typedef struct
{
  guint32 magic;
  guint32 version;
  guint32 num_extra_tensors;
  guint64 reserved;             /* bytes of tensor 15, after the header */
  NnsTensorInfo infos[CT_TENSOR_COUNT_LIMIT - CT_TENSOR_MEMORY_LIMIT];
} NnsExtraInfo;

gsize
ct_tensor_extra_header_size (void)
{
  return sizeof (NnsExtraInfo);
}

gboolean
ct_tensor_extra_header_check (const guint8 * data, gsize size,
    guint n_extra, gchar ** why)
{
  NnsExtraInfo head;

  *why = NULL;
  if (size < sizeof (head)) {
    *why = g_strdup_printf ("its 16th memory (%" G_GSIZE_FORMAT " bytes) is "
        "too small for NNStreamer's header of the tensors past the 16th",
        size);
    return FALSE;
  }
  /* (the fields only: the rest may be unaligned) */
  memcpy (&head, data, G_STRUCT_OFFSET (NnsExtraInfo, infos));
  if (head.magic != EXTRA_MAGIC || head.num_extra_tensors != n_extra) {
    *why = g_strdup_printf ("its 16th memory does not start with "
        "NNStreamer's header of %u more tensors (magic 0x%08x, %u tensors)",
        n_extra, head.magic, head.num_extra_tensors);
    return FALSE;
  }
  return TRUE;
}

void
ct_tensor_extra_header_write (const CtTensorInfo * t, guint n,
    gboolean flexible, guint8 * header)
{
  NnsExtraInfo *head = g_new0 (NnsExtraInfo, 1);
  guint i, k, j;

  head->magic = EXTRA_MAGIC;
  head->num_extra_tensors = n - 1;
  head->reserved = t[0].bytes + (flexible ? CT_TENSOR_HEADER_SIZE : 0);
  for (i = 0; i < G_N_ELEMENTS (head->infos); i++)
    head->infos[i].type = G_N_ELEMENTS (header_types);  /* none */
  for (i = 1; i < n; i++) {
    NnsTensorInfo *info = &head->infos[i - 1];

    for (k = 0; k < G_N_ELEMENTS (header_types); k++)
      if (g_str_equal (header_types[k], t[i].type))
        info->type = k;
    for (j = 0; j < t[i].rank; j++)
      info->dims[j] = (guint32) t[i].dims[j];
  }
  memcpy (header, head, sizeof (*head));
  g_free (head);
}

gboolean
ct_tensor_flexible_parse (const guint8 * data, gsize size,
    gboolean sixteenth, CtTensorInfo * t, gsize * offsets, guint max,
    guint * n, gchar ** why)
{
  guint32 magic = 0;
  gsize pos = 0;
  guint first = *n;
  NnsExtraInfo head;

  *why = NULL;
  if (size >= sizeof (magic))
    memcpy (&magic, data, sizeof (magic));
  if (sixteenth && magic == EXTRA_MAGIC) {
    if (size < sizeof (NnsExtraInfo)) {
      *why = g_strdup_printf ("its 16th memory (%" G_GSIZE_FORMAT " bytes) "
          "is too small for NNStreamer's header of the tensors past the "
          "16th", size);
      return FALSE;
    }
    memcpy (&head, data, G_STRUCT_OFFSET (NnsExtraInfo, infos));
    pos = sizeof (NnsExtraInfo);
  }
  if (size == 0) {
    *why = g_strdup ("a memory is empty: flexible tensors come with a "
        "header each");
    return FALSE;
  }
  while (pos < size) {
    if (*n >= max) {
      *why = g_strdup_printf ("the buffer holds more than %u tensors, the "
          "most NNStreamer allows: split them, e.g. with tensor_demux", max);
      return FALSE;
    }
    if (!ct_tensor_header_parse (data + pos, size - pos, &t[*n], why)) {
      if (*n > first) {
        gchar *more = g_strdup_printf ("%s (%" G_GSIZE_FORMAT " bytes after "
            "the %u tensor%s before it in the same memory)", *why, size -
            pos, *n - first, *n - first == 1 ? "" : "s");

        g_free (*why);
        *why = more;
      }
      return FALSE;
    }
    offsets[*n] = pos + CT_TENSOR_HEADER_SIZE;
    pos += CT_TENSOR_HEADER_SIZE + t[*n].bytes;
    (*n)++;
  }
  if (pos == sizeof (NnsExtraInfo) && magic == EXTRA_MAGIC && sixteenth) {
    *why = g_strdup ("its 16th memory holds NNStreamer's header of the "
        "tensors past the 16th, but no tensor");
    return FALSE;
  }
  if (sixteenth && magic == EXTRA_MAGIC &&
      *n - first != head.num_extra_tensors + 1) {
    *why = g_strdup_printf ("its 16th memory holds %u tensors, but its "
        "header says %u", *n - first, head.num_extra_tensors + 1);
    return FALSE;
  }
  return TRUE;
}
