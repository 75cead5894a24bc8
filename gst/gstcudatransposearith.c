/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The arithmetic option: parsed once where it is set, checked against
 * each tensor when the caps are known. Unit-tested without a pipeline
 * (tests/tensors/arith.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposearith.h"

#include <errno.h>
#include <string.h>

#define ARITH_FORM "[typecast:TYPE,][per-channel:true@DIM,]" \
    "add|mul|div:NUMBER[@CHANNEL],..."

/* One operation, as NNStreamer's pattern reads it: the operation, the
 * number, and the channel. */
#define OP_PATTERN "^(add|mul|div):([-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?)" \
    "(@([0-9]+))?$"

gboolean
ct_arith_type_of (const gchar * name, CtType * type)
{
  gint t = ct_type_from_name (name);

  if (t < 0 || t >= CT_TYPE_COUNT)
    return FALSE;
  *type = (CtType) t;
  return TRUE;
}

CtType
ct_arith_out_type (const CtArithSpec * spec, CtType in_type)
{
  return spec->typecast ? spec->out_type : in_type;
}

/* "typecast:TYPE" (@entry) into @spec; FALSE with why. @text: the
 * option as messages quote it. */
static gboolean
parse_typecast (const gchar * text, const gchar * entry, CtArithSpec * spec,
    gchar ** why)
{
  const gchar *name = entry + strlen ("typecast:");

  if (g_ascii_strcasecmp (name, "float16") == 0) {
    *why = g_strdup_printf ("arithmetic \"%s\": typecast:float16 is not "
        "supported: NNStreamer builds without float16 support have no "
        "float16 arithmetic either. Cast to float32 instead", text);
    return FALSE;
  }
  if (!ct_arith_type_of (name, &spec->out_type)) {
    gchar *quoted = ct_quote (name);

    *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" is not a type: "
        "write typecast: with one of int8, uint8, int16, uint16, int32, "
        "uint32, int64, uint64, float32, float64", text, quoted);
    g_free (quoted);
    return FALSE;
  }
  spec->typecast = TRUE;
  return TRUE;
}

/* "per-channel:false" or "per-channel:true@DIM" (@entry) into @spec. */
static gboolean
parse_per_channel (const gchar * text, const gchar * entry,
    const gchar * shown, CtArithSpec * spec, gchar ** why)
{
  const gchar *value = entry + strlen ("per-channel:");
  gchar *end = NULL;
  guint64 dim;

  if (g_ascii_strcasecmp (value, "false") == 0)
    return TRUE;
  if (g_ascii_strncasecmp (value, "true@", 5) == 0 && g_ascii_isdigit
      (value[5])) {
    dim = g_ascii_strtoull (value + 5, &end, 10);
    if (!*end && dim < CT_TENSOR_RANK_LIMIT) {
      spec->per_channel = TRUE;
      spec->arith.channel_dim = (guint) dim;
      return TRUE;
    }
  }
  *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" is not a per-channel "
      "setting: write per-channel:true@DIM, DIM the channel dimension "
      "(0 to %d, innermost first), or per-channel:false", text, shown,
      CT_TENSOR_RANK_LIMIT - 1);
  return FALSE;
}

/* One operation (@entry) into @op; FALSE with why. */
static gboolean
parse_op (const gchar * text, const gchar * entry, const gchar * shown,
    GRegex * re, gboolean per_channel, CtArithOp * op, gchar ** why)
{
  GMatchInfo *m = NULL;
  gchar *name = NULL, *num = NULL, *ch = NULL;
  gboolean ok = FALSE;

  if (!g_regex_match (re, entry, 0, &m)) {
    *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" is not an "
        "operation: write add:NUMBER, mul:NUMBER or div:NUMBER (a number "
        "such as 2, -127.5 or 1e-3), each in its own comma-separated "
        "entry, in the form %s", text, shown, ARITH_FORM);
    goto done;
  }
  name = g_match_info_fetch (m, 1);
  num = g_match_info_fetch (m, 2);
  ch = g_match_info_fetch (m, 5);
  op->kind = g_ascii_strcasecmp (name, "add") == 0 ? CT_ARITH_ADD :
      g_ascii_strcasecmp (name, "mul") == 0 ? CT_ARITH_MUL : CT_ARITH_DIV;
  op->channel = -1;
  /* NNStreamer reads a number with '.', 'e' or 'E' as a double, any other
   * as an int64, and casts it to the output type as it is */
  op->is_float = strpbrk (num, ".eE") != NULL;
  errno = 0;
  if (op->is_float) {
    op->float_value = g_ascii_strtod (num, NULL);
    op->int_value = 0;
  } else {
    op->int_value = g_ascii_strtoll (num, NULL, 10);
    op->float_value = 0;
  }
  if (errno == ERANGE && (!op->is_float || op->float_value != 0)) {
    *why = g_strdup_printf ("arithmetic \"%s\": the number in \"%s\" is "
        "out of range (NNStreamer would use %s instead): write a %s", text,
        shown, op->is_float ? "infinity" : "the nearest 64-bit integer",
        op->is_float ? "float64 number" : "64-bit integer, or a float "
        "such as 1e20");
    goto done;
  }
  if (ch && ch[0]) {
    guint64 c = g_ascii_strtoull (ch, NULL, 10);

    if (!per_channel) {
      *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" names channel %s, "
          "but without per-channel:true@DIM NNStreamer applies it to every "
          "channel: put per-channel:true@DIM (DIM the channel dimension) "
          "after the typecast, or drop @%s", text, shown, ch, ch);
      goto done;
    }
    if (c > G_MAXINT) {
      *why = g_strdup_printf ("arithmetic \"%s\": channel %s in \"%s\" is "
          "larger than any dimension", text, ch, shown);
      goto done;
    }
    op->channel = (gint) c;
  }
  ok = TRUE;

done:
  g_free (name);
  g_free (num);
  g_free (ch);
  g_match_info_free (m);
  return ok;
}

static gboolean
has_prefix (const gchar * entry, const gchar * prefix)
{
  return g_ascii_strncasecmp (entry, prefix, strlen (prefix)) == 0;
}

gboolean
ct_arith_parse (const gchar * text, CtArithSpec * spec, gchar ** why)
{
  /* (messages quote the option's start: ct_quote) */
  gchar *shown = ct_quote (text), *entry = NULL;
  gchar **entries;
  GRegex *re;
  guint n, i;
  gboolean ok = TRUE;

  memset (spec, 0, sizeof (*spec));
  *why = NULL;
  entries = g_strsplit (text ? text : "", ",", -1);
  n = g_strv_length (entries);
  re = g_regex_new (OP_PATTERN, G_REGEX_CASELESS, 0, NULL);

  for (i = 0; ok && i < n; i++) {
    const gchar *e = entries[i];

    g_free (entry);
    entry = ct_quote (e);
    if (!e[0]) {
      *why = g_strdup_printf ("arithmetic \"%s\" has an empty entry (a "
          "comma %s): write %s", shown, i == 0 ? "first" : i == n - 1 ?
          "last" : "doubled", ARITH_FORM);
      ok = FALSE;
    } else if (has_prefix (e, "typecast:")) {
      if (i != 0) {
        *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" must come first "
            "(NNStreamer ignores a typecast anywhere else): write %s,...",
            shown, entry, entry);
        ok = FALSE;
      } else {
        ok = parse_typecast (shown, e, spec, why);
      }
    } else if (has_prefix (e, "per-channel:")) {
      if (i != (spec->typecast ? 1u : 0u)) {
        *why = g_strdup_printf ("arithmetic \"%s\": \"%s\" must come "
            "right after the typecast, or first without one (NNStreamer "
            "reads it nowhere else)", shown, entry);
        ok = FALSE;
      } else {
        ok = parse_per_channel (shown, e, entry, spec, why);
      }
    } else if (spec->arith.n_ops >= CT_ARITH_MAX_OPS) {
      *why = g_strdup_printf ("arithmetic \"%s\" has more than %d "
          "operations, the most this element runs: merge some (two adds "
          "are one)", shown, CT_ARITH_MAX_OPS);
      ok = FALSE;
    } else {
      ok = parse_op (shown, e, entry, re, spec->per_channel,
          &spec->arith.ops[spec->arith.n_ops++], why);
    }
  }
  if (ok && spec->arith.n_ops == 0) {
    *why = g_strdup_printf ("arithmetic \"%s\" has no operation: give at "
        "least one of add:NUMBER, mul:NUMBER or div:NUMBER, in the form %s "
        "(or leave it empty for no arithmetic)", shown, ARITH_FORM);
    ok = FALSE;
  }
  g_regex_unref (re);
  g_strfreev (entries);
  if (ok)
    g_strlcpy (spec->text, shown, sizeof (spec->text));
  g_free (entry);
  g_free (shown);
  return ok;
}

/* Whether the operand @op is 0 once cast to @type as NNStreamer casts it
 * (a number written as an integer is an int64, one with a point or an
 * exponent a double): a division by it would be skipped, or trap. */
static gboolean
operand_is_zero (const CtArithOp * op, CtType type)
{
  guint size = ct_type_size (type);
  gint64 wide;

  if (type == CT_TYPE_FLOAT32)
    return op->is_float ? (gfloat) op->float_value == 0.0f :
        (gfloat) op->int_value == 0.0f;
  if (type == CT_TYPE_FLOAT64)
    return op->is_float ? op->float_value == 0.0 : op->int_value == 0;
  if (!op->is_float) {
    wide = op->int_value;
  } else if (size <= 4) {
    /* x86-64 converts through 32 bits: out of range is INT32_MIN */
    wide = op->float_value > -2147483649.0 && op->float_value < 2147483648.0 ?
        (gint64) (gint32) op->float_value : G_MININT32;
  } else {
    wide = op->float_value >= -9223372036854775808.0 &&
        op->float_value < 9223372036854775808.0 ?
        (gint64) op->float_value : G_MININT64;
  }
  /* the bits that fit */
  return size >= 8 ? wide == 0 : (wide & ((G_GINT64_CONSTANT (1) <<
              (size * 8)) - 1)) == 0;
}

gboolean
ct_arith_check (const CtArithSpec * spec, const CtTensorInfo * in,
    CtArith * arith, gchar ** why)
{
  const gchar *text = spec->text;
  CtType in_type;
  guint k;
  CtResult res;

  *why = NULL;
  if (!ct_arith_type_of (in->type, &in_type)) {
    *why = g_strdup_printf ("arithmetic \"%s\" cannot apply to %s tensors: "
        "NNStreamer builds without float16 support have no float16 "
        "arithmetic either", text, in->type);
    return FALSE;
  }
  *arith = spec->arith;
  arith->in_type = in_type;
  arith->out_type = ct_arith_out_type (spec, in_type);
  if (!spec->per_channel)
    arith->channel_dim = 0;
  if (spec->per_channel && spec->arith.channel_dim >= in->rank) {
    *why = g_strdup_printf ("arithmetic \"%s\": per-channel dimension %u is "
        "not one of the tensor's %u dimensions (0 to %u, innermost first)",
        text, spec->arith.channel_dim, in->rank, in->rank - 1);
    return FALSE;
  }
  for (k = 0; k < arith->n_ops; k++) {
    const CtArithOp *op = &arith->ops[k];

    if (op->channel >= 0 && (guint64) op->channel >=
        in->dims[spec->arith.channel_dim]) {
      *why = g_strdup_printf ("arithmetic \"%s\": operation %u names "
          "channel %d, but dimension %u has %" G_GUINT64_FORMAT " channels "
          "(0 to %" G_GUINT64_FORMAT "): NNStreamer would apply it to none",
          text, k + 1, op->channel, spec->arith.channel_dim,
          in->dims[spec->arith.channel_dim],
          in->dims[spec->arith.channel_dim] - 1);
      return FALSE;
    }
    if (op->kind == CT_ARITH_DIV && operand_is_zero (op, arith->out_type)) {
      *why = g_strdup_printf ("arithmetic \"%s\": operation %u divides by "
          "a number that is 0 once cast to %s, the output type (NNStreamer "
          "casts the operand first, then fails): divide by another number, "
          "or cast to a float type first (typecast:float32)", text, k + 1,
          ct_type_name (arith->out_type));
      return FALSE;
    }
  }
  res = ct_arith_validate (arith);
  if (res != CT_OK) {
    *why = g_strdup_printf ("arithmetic \"%s\" cannot run on %s tensors: "
        "%s", text, in->type, ct_result_string (res));
    return FALSE;
  }
  return TRUE;
}
