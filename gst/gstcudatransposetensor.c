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
  if (!string_field (s, single ? "dimension" : "dimensions", why) ||
      !string_field (s, single ? "type" : "types", why))
    return FALSE;
  if (!single && format && !g_str_equal (format, "static")) {
    *why = g_strdup_printf ("tensor format \"%s\" is not supported; only "
        "format=static", format);
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
  if (n == 0 || n > CT_TENSOR_COUNT_LIMIT || g_strv_length (ty) != n ||
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
  if (!ok)
    *why = g_strdup_printf ("permutation \"%s\" must name each of the "
        "dimensions 0, 1, 2 and 3 once, separated by ':', e.g. \"1:2:0:3\" "
        "for HWC to CHW (output dimension i takes input dimension i's "
        "entry, innermost first, as tensor_transform's transpose option)",
        text ? text : "");
  return ok;
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

/* One tensor's "d0:d1:..." rearranged, or NULL. */
static gchar *
rearrange_one (const gchar * text, const guint * perm, gboolean inverse)
{
  CtTensorInfo t;
  guint64 in[4], out[4];
  gchar *why = NULL;
  guint i;

  if (!perm) {
    gchar **sizes = g_strsplit (text, ":", -1);
    gchar *ret;

    if (!sizes[0]) {
      g_strfreev (sizes);
      return NULL;
    }
    if (!sizes[1]) {
      /* a rank-1 tensor of n is 1 x n once transposed */
      ret = g_strdup_printf ("1:%s", g_strstrip (sizes[0]));
    } else {
      gchar *tmp = sizes[0];

      sizes[0] = sizes[1];
      sizes[1] = tmp;
      ret = g_strjoinv (":", sizes);
    }
    g_strfreev (sizes);
    return ret;
  }

  if (!parse_dims (text, &t, &why)) {
    g_free (why);
    return NULL;
  }
  /* beyond rank 4: left as it is, for set_caps to refuse with the reason */
  if (!ct_tensor_dims4 (&t, in))
    return g_strdup (text);
  for (i = 0; i < 4; i++) {
    if (inverse)
      out[perm[i]] = in[i];
    else
      out[i] = in[perm[i]];
  }
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
      G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, out[0], out[1], out[2], out[3]);
}

gboolean
ct_tensor_caps_rearrange (GstStructure * s, const guint * perm,
    gboolean inverse)
{
  const gchar *field = gst_structure_has_name (s, "other/tensor") ?
      "dimension" : "dimensions";
  const gchar *dims = gst_structure_get_string (s, field);
  gchar **d, *joined;
  guint i;

  if (!dims)
    return TRUE;
  d = g_strsplit_set (dims, ",.", -1);
  for (i = 0; d[i]; i++) {
    gchar *r = rearrange_one (d[i], perm, inverse);

    if (!r) {
      g_strfreev (d);
      return FALSE;
    }
    g_free (d[i]);
    d[i] = r;
  }
  joined = g_strjoinv (",", d);
  gst_structure_set (s, field, G_TYPE_STRING, joined, NULL);
  g_free (joined);
  g_strfreev (d);
  return TRUE;
}
