/* The live test's settings log and its check of every frame out against
 * the test's own reference for a setting the changing thread made. */
#include "live.h"

#include <string.h>

/* The arithmetic options used, with the operations they mean, written
 * here from NNStreamer's grammar (not read by the element's parser). */
const LiveArith live_arith_options[] = {
  {NULL, -1, CT_ARITH_ADD, FALSE, 0},
  {"typecast:float32,div:255.0", CT_TYPE_FLOAT32, CT_ARITH_DIV, TRUE, 255},
  {"typecast:float32,mul:2.0", CT_TYPE_FLOAT32, CT_ARITH_MUL, TRUE, 2},
  {"typecast:int16,add:-128", CT_TYPE_INT16, CT_ARITH_ADD, FALSE, -128},
  {"add:3", -1, CT_ARITH_ADD, FALSE, 3},
};

const gchar *const live_permutations[] = {
  NULL, "1:2:0:3", "2:0:1:3", "0:2:1:3", "3:2:1:0", "0:1:2:3",
};

void
live_log_add (Log * log, const Setting * s)
{
  g_mutex_lock (&log->lock);
  if (log->n < MAX_SETTINGS)
    log->at[log->n++] = *s;
  g_mutex_unlock (&log->lock);
}

/* ---------------------------------------------------------------------- */
/* Every frame out checked                                                  */

typedef struct
{
  GstBuffer *buf;
  GstCaps *caps;
  guint8 *rgb;                  /* YUV: videoconvert's RGB, once asked */
} Input;

void
live_input_free (gpointer data)
{
  Input *in = data;

  gst_buffer_unref (in->buf);
  gst_caps_unref (in->caps);
  g_free (in->rgb);
  g_free (in);
}

static void
checker_fail (Checker * c, gchar * why)
{
  if (!c->failure)
    c->failure = why;
  else
    g_free (why);
}

/* Tensor dimensions "a:b:c,d:e" (at most 3 tensors) into 4 sizes each. */
static guint
parse_dims (const gchar * text, guint64 dims[3][4])
{
  gchar **tensors = g_strsplit (text ? text : "", ",", -1);
  guint n = g_strv_length (tensors), i, k;

  for (i = 0; i < n && i < 3; i++) {
    gchar **d = g_strsplit (tensors[i], ":", -1);

    for (k = 0; k < 4; k++)
      dims[i][k] = d[k] && k < g_strv_length (d) ?
          g_ascii_strtoull (d[k], NULL, 10) : 1;
    g_strfreev (d);
  }
  g_strfreev (tensors);
  return n;
}

static guint
type_index (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (live_tensor_types); i++)
    if (g_strcmp0 (live_tensor_types[i].name, name) == 0)
      return i;
  return G_MAXUINT;
}

/* The order of a setting: its permutation, or the transpose. */
static void
order_of (const Setting * s, guint perm[4])
{
  guint k;

  if (!live_permutations[s->perm]) {
    perm[0] = 1;
    perm[1] = 0;
    perm[2] = 2;
    perm[3] = 3;
    return;
  }
  for (k = 0; k < 4; k++)
    perm[k] = live_permutations[s->perm][2 * k] - '0';
}

/* Where one tensor of @type and @dims must come out under @s: its sizes
 * and type into @odims and @otype, its bytes into @want (g_free). */
static guint8 *
expected_tensor (const Setting * s, guint type, const guint64 dims[4],
    const guint8 * in, guint64 odims[4], CtType * otype, gsize * bytes)
{
  CtArith *a = g_new0 (CtArith, 1);
  unsigned long long d[4];
  uint64_t step[4], od[4];
  guint perm[4], k;
  guint8 *want;
  gsize n = 1;

  order_of (s, perm);
  for (k = 0; k < 4; k++) {
    d[k] = dims[k];
    n *= dims[k];
  }
  ct_ref_permuted_layout (dims, perm, od, step);
  memcpy (odims, od, sizeof (od));
  a->in_type = live_tensor_types[type].type;
  a->out_type = live_arith_options[s->arith].out >= 0 ?
      (CtType) live_arith_options[s->arith].out : a->in_type;
  if (live_arith_options[s->arith].option) {
    CtArithOp *op = &a->ops[a->n_ops++];

    op->kind = live_arith_options[s->arith].kind;
    op->channel = -1;
    op->is_float = live_arith_options[s->arith].is_float;
    op->float_value = live_arith_options[s->arith].value;
    op->int_value = (long long) live_arith_options[s->arith].value;
  }
  *otype = a->out_type;
  *bytes = n * (ref_bits_of (a->out_type) / 8);
  want = g_malloc (*bytes);
  if (live_arith_options[s->arith].option) {
    ref_permute_arith (in, want, d, perm, a);
  } else {
    /* the bytes moved as they are */
    gsize es = live_tensor_types[type].size, i;
    uint64_t x[4] = { 0, 0, 0, 0 };

    for (i = 0; i < n; i++) {
      memcpy (want + (x[0] * step[0] + x[1] * step[1] + x[2] * step[2] +
              x[3] * step[3]) * es, in + i * es, es);
      for (k = 0; k < 4 && ++x[k] == dims[k]; k++)
        x[k] = 0;
    }
  }
  g_free (a);
  return want;
}

/* Whether tensor @i of @out (sizes @odims, type @otype, @data) is what
 * @s makes of input tensor @dims of @type at @in. */
static gboolean
tensor_fits (const Setting * s, guint type, const guint64 dims[4],
    const guint8 * in, const guint64 odims[4], guint otype,
    const guint8 * data, gsize size)
{
  guint64 want_dims[4];
  CtType want_type;
  gsize bytes;
  guint8 *want = expected_tensor (s, type, dims, in, want_dims, &want_type,
      &bytes);
  gboolean fits = otype < G_N_ELEMENTS (live_tensor_types) &&
      live_tensor_types[otype].type == want_type &&
      memcmp (want_dims, odims, sizeof (want_dims)) == 0 && size == bytes &&
      ref_compare (want, data, want_type, bytes / (ref_bits_of (want_type) /
          8), have_gpu) == bytes / (ref_bits_of (want_type) / 8);

  g_free (want);
  return fits;
}

/* The tensors of one buffer, as this test reads them: their types, sizes
 * and data, from the caps (static) or each memory's header (flexible). */
typedef struct
{
  guint n;
  guint type[3];
  guint64 dims[3][4];
  GstMapInfo map[3];
  GstMemory *mem[3];
  const guint8 *data[3];
  gsize size[3];
} Tensors;

static gboolean
tensors_read (Tensors * t, GstBuffer * buf, GstCaps * caps, LiveKind kind)
{
  const GstStructure *st = gst_caps_get_structure (caps, 0);
  guint n_mem = gst_buffer_n_memory (buf), i, k;
  gchar **types;
  gsize offset = 0;

  memset (t, 0, sizeof (*t));
  if (kind == LIVE_FLEXIBLE) {
    t->n = MIN (n_mem, 3);
    for (i = 0; i < t->n; i++) {
      guint32 w[21];

      t->mem[i] = gst_buffer_peek_memory (buf, i);
      fail_unless (gst_memory_map (t->mem[i], &t->map[i], GST_MAP_READ));
      if (t->map[i].size < CT_CHECK_NNS_HEADER)
        return FALSE;
      memcpy (w, t->map[i].data, sizeof (w));
      t->type[i] = G_N_ELEMENTS (live_tensor_types);
      for (k = 0; k < G_N_ELEMENTS (live_tensor_types); k++)
        if (live_tensor_types[k].nns == w[2])
          t->type[i] = k;
      for (k = 0; k < 4; k++)
        t->dims[i][k] = w[3 + k] ? w[3 + k] : 1;
      t->data[i] = t->map[i].data + CT_CHECK_NNS_HEADER;
      t->size[i] = t->map[i].size - CT_CHECK_NNS_HEADER;
    }
    return TRUE;
  }
  t->n = parse_dims (gst_structure_get_string (st, "dimensions"), t->dims);
  types = g_strsplit (gst_structure_get_string (st, "types"), ",", -1);
  for (i = 0; i < t->n && i < 3; i++)
    t->type[i] = types[i] ? type_index (types[i]) : G_MAXUINT;
  g_strfreev (types);
  for (i = 0; i < t->n && i < 3; i++) {
    gsize es = t->type[i] < G_N_ELEMENTS (live_tensor_types) ?
        live_tensor_types[t->type[i]].size : 0;

    t->size[i] = es * t->dims[i][0] * t->dims[i][1] * t->dims[i][2] *
        t->dims[i][3];
    if (n_mem == t->n) {
      t->mem[i] = gst_buffer_peek_memory (buf, i);
      fail_unless (gst_memory_map (t->mem[i], &t->map[i], GST_MAP_READ));
      t->data[i] = t->map[i].data;
    } else {
      if (i == 0) {
        t->mem[0] = gst_buffer_peek_memory (buf, 0);
        fail_unless (gst_memory_map (t->mem[0], &t->map[0], GST_MAP_READ));
      }
      t->data[i] = t->map[0].data + offset;
      offset += t->size[i];
    }
  }
  return n_mem == t->n || n_mem == 1;
}

static void
tensors_done (Tensors * t)
{
  guint i;

  for (i = 0; i < 3; i++)
    if (t->mem[i])
      gst_memory_unmap (t->mem[i], &t->map[i]);
}

/* YUV video @in (of @info) to a tensor under @s: videoconvert's RGB of
 * it (made once for the input), in the order @s says, turned by its
 * direction as videoflip turns frames, is the HWC tensor 3:W':H':1 of
 * the turned frame; then laid out (CHW where no permutation is set) and
 * computed as for tensors. */
static gboolean
yuv_fits (const Setting * s, Input * in, const GstVideoInfo * info,
    GstBuffer * out, GstCaps * out_caps)
{
  const guint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  const gboolean swap = ct_check_direction_swaps (s->direction);
  const guint64 hwc[4] = { 3, swap ? h : w, swap ? w : h, 1 };
  Setting chw = *s;
  Tensors to;
  guint8 *turned;
  guint x, y, c, ox, oy;
  gboolean ok;

  if (!in->rgb) {
    GstVideoFrame ref;

    ct_check_videoconvert (in->caps, in->buf, GST_VIDEO_FORMAT_RGB, w, h,
        &ref, "live");
    in->rgb = g_malloc ((gsize) w * h * 3);
    for (y = 0; y < h; y++)
      memcpy (in->rgb + (gsize) y * w * 3, (const guint8 *)
          GST_VIDEO_FRAME_PLANE_DATA (&ref, 0) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&ref, 0), (gsize) w * 3);
    gst_video_frame_unmap (&ref);
  }
  turned = g_malloc ((gsize) w * h * 3);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      ct_check_oriented_point (s->direction, w, h, x, y, &ox, &oy);
      for (c = 0; c < 3; c++)
        turned[((gsize) oy * hwc[1] + ox) * 3 + c] =
            in->rgb[((gsize) y * w + x) * 3 + (s->bgr ? 2 - c : c)];
    }
  /* (no permutation set: CHW, the element's default for video) */
  if (!live_permutations[chw.perm])
    chw.perm = 1;
  ok = tensors_read (&to, out, out_caps, LIVE_STATIC) && to.n == 1 &&
      tensor_fits (&chw, 0, hwc, turned, to.dims[0], to.type[0], to.data[0],
      to.size[0]);
  tensors_done (&to);
  g_free (turned);
  return ok;
}

/* Whether @out (of @out_caps) is what @s makes of @in (of @in_caps). */
static gboolean
fits (Checker * c, const Setting * s, Input * in, GstBuffer * out,
    GstCaps * out_caps)
{
  if (c->kind == LIVE_YUV_TENSOR) {
    GstVideoInfo ii;

    fail_unless (gst_video_info_from_caps (&ii, in->caps));
    return yuv_fits (s, in, &ii, out, out_caps);
  }
  if (c->kind == LIVE_VIDEO) {
    GstVideoInfo ii, oi, want;
    gchar *why;

    fail_unless (gst_video_info_from_caps (&ii, in->caps));
    if (!gst_video_info_from_caps (&oi, out_caps))
      return FALSE;
    ct_check_out_info (&ii, s->direction, &want);
    if (GST_VIDEO_INFO_FORMAT (&oi) != GST_VIDEO_INFO_FORMAT (&want) ||
        GST_VIDEO_INFO_WIDTH (&oi) != GST_VIDEO_INFO_WIDTH (&want) ||
        GST_VIDEO_INFO_HEIGHT (&oi) != GST_VIDEO_INFO_HEIGHT (&want))
      return FALSE;
    why = ct_check_oriented_mismatch (&ii, in->buf, out, s->direction);
    g_free (why);
    return why == NULL;
  } else {
    Tensors ti, to;
    gboolean ok;
    guint i;

    ok = tensors_read (&ti, in->buf, in->caps, c->kind) &&
        tensors_read (&to, out, out_caps, c->kind) && ti.n == to.n;
    for (i = 0; ok && i < ti.n; i++)
      ok = ti.type[i] < G_N_ELEMENTS (live_tensor_types) && tensor_fits (s,
          ti.type[i], ti.dims[i], ti.data[i], to.dims[i], to.type[i],
          to.data[i], to.size[i]);
    tensors_done (&ti);
    tensors_done (&to);
    return ok;
  }
}

/* A frame out: the setting it came out in is the first, from the one the
 * frame before came out in, that makes it. */
static void
check_output (Checker * c, GstBuffer * out, GstCaps * out_caps)
{
  Input *in = g_hash_table_lookup (c->inputs,
      GUINT_TO_POINTER (GST_BUFFER_PTS (out) / GST_MSECOND + 1));
  Setting *at;
  guint n, p;

  if (!in) {
    checker_fail (c, g_strdup_printf ("a frame of PTS %" GST_TIME_FORMAT
            " came out that never went in (or twice)",
            GST_TIME_ARGS (GST_BUFFER_PTS (out))));
    return;
  }
  g_mutex_lock (&c->log->lock);
  at = c->log->at;
  n = c->log->n;
  g_mutex_unlock (&c->log->lock);
  for (p = c->from; p < n && !fits (c, &at[p], in, out, out_caps); p++);
  if (p == n) {
    gchar *ic = gst_caps_to_string (in->caps), *oc =
        gst_caps_to_string (out_caps);
    GString *is = g_string_new (NULL);
    guint q;

    /* what it is instead: an older setting's, or none's */
    for (q = c->from; q-- > 0;) {
      if (fits (c, &at[q], in, out, out_caps)) {
        g_string_append_printf (is, "; it is setting %u's (direction %d)",
            q, at[q].direction);
        break;
      }
    }
    if (!is->len)
      g_string_append (is, "; it is no setting's");
    checker_fail (c, g_strdup_printf ("frame %u (PTS %" GST_TIME_FORMAT
            ", %s -> %s) is no setting made at or after setting %u of %u "
            "(direction %d, permutation %s, arithmetic %s)%s", c->checked,
            GST_TIME_ARGS (GST_BUFFER_PTS (out)), ic, oc, c->from, n,
            at[c->from].direction, live_permutations[at[c->from].perm] ?
            live_permutations[at[c->from].perm] : "none",
            live_arith_options[at[c->from].arith].option ?
            live_arith_options[at[c->from].arith].option : "none", is->str));
    g_string_free (is, TRUE);
    g_free (ic);
    g_free (oc);
  } else {
    c->from = p;
    c->directions_seen |= 1u << at[p].direction;
  }
  c->checked++;
  g_hash_table_remove (c->inputs, GUINT_TO_POINTER (GST_BUFFER_PTS (out) /
          GST_MSECOND + 1));
}

GstPadProbeReturn
live_input_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Checker *c = data;

  g_mutex_lock (&c->lock);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    Input *in = g_new0 (Input, 1);

    in->buf = gst_buffer_ref (buf);
    in->caps = gst_pad_get_current_caps (pad);
    fail_unless (in->caps != NULL);
    g_hash_table_replace (c->inputs, GUINT_TO_POINTER (GST_BUFFER_PTS (buf)
            / GST_MSECOND + 1), in);
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) ==
      GST_EVENT_FLUSH_STOP) {
    /* what was in flight is gone with the flush */
    c->flushed += g_hash_table_size (c->inputs);
    g_hash_table_remove_all (c->inputs);
  }
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
live_output_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Checker *c = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);

  g_mutex_lock (&c->lock);
  check_output (c, GST_PAD_PROBE_INFO_BUFFER (info), caps);
  g_mutex_unlock (&c->lock);
  gst_caps_unref (caps);
  return GST_PAD_PROBE_OK;
}

