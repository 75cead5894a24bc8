/* The fuzz test's buffers of 17 to 256 flexible tensors (see fuzz.c):
 * in NNStreamer's layout past 16, appended memory by memory, or cut into
 * up to 16 memories, now and then with more than 256 tensors, bytes that
 * are no whole header and tensor, or a 16th memory's header that
 * miscounts; every tensor out checked, header and bytes. */
#include "fuzz.h"

/* ---- flexible tensors past 16 ---- */

#define NNS_TENSOR_MAGIC 0xfeedcced
#define FLEX_MAX 300

typedef enum
{
  FLEX_WHOLE,                   /* well formed: every tensor must come out */
  FLEX_TOO_MANY,                /* more than NNStreamer's 256 */
  FLEX_TRAILING,                /* bytes after a memory's last tensor */
  FLEX_SHORT,                   /* the last tensor cut short */
  FLEX_COUNT,                   /* the 16th memory's header miscounts */
} FlexFault;

static const gchar *const flex_faults[] = { "", ", more than 256",
  ", trailing bytes in a memory", ", the last tensor cut short",
  ", the 16th memory's header miscounting"
};

typedef enum
{
  LAYOUT_NNSTREAMER,            /* 15 memories, then the 16th with the rest */
  LAYOUT_APPENDED,              /* gst_buffer_append_memory, one a tensor */
  LAYOUT_GROUPED,               /* up to 16 memories, cut between tensors */
} FlexLayout;

static const gchar *const flex_layouts[] = { "NNStreamer's layout",
  "appended", "grouped"
};

/* Fails unless @header (NNStreamer's tensor header) describes @t of
 * NNStreamer type @type rearranged: the sizes, 0 past the rank. */
static void
check_flex_header (const guint8 * header, const FuzzTensor * t, guint type,
    const guint * perm, const gchar * what, guint index)
{
  guint64 od[MAX_RANK];
  guint rank = rearranged (t, perm, od), k;
  guint32 w[19];

  memcpy (w, header, sizeof (w));
  if (w[0] != NNS_TENSOR_MAGIC || w[2] != type)
    fail ("%s: tensor %u's header has magic 0x%x and type %u, not 0x%x and "
        "%u", what, index, w[0], w[2], NNS_TENSOR_MAGIC, type);
  for (k = 0; k < 16; k++)
    if (w[3 + k] != (k < rank ? od[k] : 0))
      fail ("%s: tensor %u's header gives size %u as %u, not %"
          G_GUINT64_FORMAT, what, index, k, w[3 + k], k < rank ? od[k] : 0);
}

/* Buffers of 17 to 256 flexible tensors (a header before each), in
 * NNStreamer's layout past 16, appended memory by memory (GStreamer merges
 * them past 16, so a memory holds several), or cut into up to 16 memories
 * between tensors: every tensor must come out, rearranged, in NNStreamer's
 * layout. More than 256, bytes that are no whole header and tensor, or a
 * 16th memory's header that miscounts, must be an error, never a loss. */
void
fuzz_flexible (Setup * s, guint index, const gchar * churn)
{
  guint r = fuzz_range (0, 99), n, i, k, n_pieces = 0;
  FlexFault fault = FLEX_WHOLE;
  FlexLayout layout;
  FuzzTensor *t;
  guint *type;
  gsize *at, total = 0, extra = sizeof (CtCheckNnsExtra);
  guint8 *blob;
  struct
  {
    guint8 *data;
    gsize size;
  } *pieces;
  GstCaps *caps = NULL;
  GstBuffer *in, *out;
  const guint *perm = s->permute ? s->perm : NULL;
  gchar *text, *what;

  if (!s->caps) {
    caps = gst_caps_from_string (fuzz_chance (50) ?
        "other/tensors,format=flexible,framerate=0/1" :
        "other/tensors,format=flexible,framerate=30/1");
    gst_caps_replace (&s->caps, caps);
  }
  n = r < 55 ? fuzz_range (17, 40) : r < 80 ? fuzz_range (41, 120) : r < 92 ?
      fuzz_range (121, 255) : r < 96 ? 256 : 17;
  if (fuzz_chance (20))
    fault = (FlexFault) fuzz_range (FLEX_TOO_MANY, FLEX_COUNT);
  if (fault == FLEX_TOO_MANY)
    n = fuzz_range (257, FLEX_MAX);
  layout = fault == FLEX_COUNT ? LAYOUT_NNSTREAMER :
      (FlexLayout) fuzz_range (0, 2);

  /* every header and tensor back to back, then cut into memories */
  t = g_new0 (FuzzTensor, n);
  type = g_new (guint, n);
  at = g_new (gsize, n + 1);
  for (i = 0; i < n; i++) {
    type[i] = fuzz_range (0, ct_check_n_nns_types - 1);
    t[i].elem_size = ct_check_nns_types[type[i]].size;
    t[i].rank = fuzz_range (1, 4);
    for (k = 0; k < t[i].rank; k++)
      t[i].dims[k] = fuzz_chance (92) ? fuzz_range (1, 3) : fuzz_range (4, 9);
    t[i].bytes = fuzz_tensor_bytes (&t[i]);
    at[i] = total;
    total += CT_CHECK_NNS_HEADER + t[i].bytes;
  }
  at[n] = total;
  blob = g_malloc (total);
  for (i = 0; i < n; i++) {
    guint dims[4];

    for (k = 0; k < t[i].rank; k++)
      dims[k] = t[i].dims[k];
    ct_check_nns_write_meta (blob + at[i], NNS_TENSOR_MAGIC, type[i], dims,
        t[i].rank, 1);
    fuzz_fill (blob + at[i] + CT_CHECK_NNS_HEADER, t[i].bytes);
  }

  pieces = g_malloc0_n (n + 1, sizeof (*pieces));
  if (layout == LAYOUT_NNSTREAMER) {
    CtCheckNnsExtra *x = g_new0 (CtCheckNnsExtra, 1);

    for (i = 0; i < 15; i++) {
      pieces[i].size = at[i + 1] - at[i];
      pieces[i].data = g_memdup2 (blob + at[i], pieces[i].size);
    }
    x->magic = CT_CHECK_NNS_EXTRA_MAGIC;
    x->num_extra_tensors = n - 16;
    x->reserved = CT_CHECK_NNS_HEADER + t[15].bytes;
    for (i = 16; i < n && i - 16 < G_N_ELEMENTS (x->infos); i++) {
      x->infos[i - 16].type = type[i];
      for (k = 0; k < t[i].rank; k++)
        x->infos[i - 16].dimension[k] = t[i].dims[k];
    }
    if (fault == FLEX_COUNT) {
      /* too few, too many, or a count that wraps around */
      k = fuzz_range (0, 9);
      x->num_extra_tensors = k == 0 ? G_MAXUINT32 - fuzz_range (0, 1) :
          k < 5 || n == 17 ? n - 16 + fuzz_range (1, 3) :
          n - 16 - fuzz_range (1, MIN (3, n - 16));
    }
    pieces[15].size = extra + total - at[15];
    pieces[15].data = g_malloc (pieces[15].size);
    memcpy (pieces[15].data, x, extra);
    memcpy (pieces[15].data + extra, blob + at[15], total - at[15]);
    n_pieces = 16;
    g_free (x);
  } else {
    gboolean *cut = g_new0 (gboolean, n + 1);
    guint from = 0;

    if (layout == LAYOUT_APPENDED) {
      for (i = 1; i < n; i++)
        cut[i] = TRUE;
    } else {
      for (k = fuzz_range (1, 16); k > 1; k--)
        cut[fuzz_range (1, n - 1)] = TRUE;
    }
    for (i = 1; i <= n; i++) {
      if (i < n && !cut[i])
        continue;
      pieces[n_pieces].size = at[i] - at[from];
      pieces[n_pieces].data = g_memdup2 (blob + at[from],
          pieces[n_pieces].size);
      n_pieces++;
      from = i;
    }
    g_free (cut);
  }
  if (fault == FLEX_TRAILING) {
    /* (its first byte 0: no header's magic) */
    gsize more = fuzz_range (1, 200);

    k = fuzz_range (0, n_pieces - 1);
    pieces[k].data = g_realloc (pieces[k].data, pieces[k].size + more);
    fuzz_fill (pieces[k].data + pieces[k].size, more);
    pieces[k].data[pieces[k].size] = 0;
    pieces[k].size += more;
  } else if (fault == FLEX_SHORT) {
    pieces[n_pieces - 1].size -= fuzz_range (1, CT_CHECK_NNS_HEADER +
        t[n - 1].bytes - 1);
  }
  in = gst_buffer_new ();
  for (i = 0; i < n_pieces; i++)
    gst_buffer_append_memory (in, gst_memory_new_wrapped (0, pieces[i].data,
            pieces[i].size, 0, pieces[i].size, pieces[i].data, g_free));
  g_free (pieces);

  text = permutation_text (s->permute, s->perm);
  what = g_strdup_printf ("seed %u, case %u: %u flexible tensors, %s, %u "
      "memories, %" G_GSIZE_FORMAT " bytes, permutation %s%s%s", fuzz_seed,
      index, n, flex_layouts[layout], gst_buffer_n_memory (in),
      gst_buffer_get_size (in), text ? text : "unset", flex_faults[fault],
      churn ? churn : "");
  g_free (text);

  out = push_case (s, caps, gst_buffer_ref (in), fault == FLEX_WHOLE, what);
  if (out) {
    GstMapInfo om;

    fail_unless (fault == FLEX_WHOLE, "%s: transformed, not refused", what);
    fail_unless (gst_buffer_n_memory (out) == 16, "%s: %u output memories, "
        "not 16", what, gst_buffer_n_memory (out));
    for (i = 0; i < 15; i++) {
      fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om,
              GST_MAP_READ));
      fail_unless (om.size == at[i + 1] - at[i], "%s: output memory %u has %"
          G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, what, i, om.size,
          at[i + 1] - at[i]);
      check_flex_header (om.data, &t[i], type[i], perm, what, i);
      check_tensor (&t[i], perm, blob + at[i] + CT_CHECK_NNS_HEADER,
          om.data + CT_CHECK_NNS_HEADER, what, i);
      gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
    }
    /* the 16th: NNStreamer's header of the rest, then each with its own */
    fail_unless (gst_memory_map (gst_buffer_peek_memory (out, 15), &om,
            GST_MAP_READ));
    fail_unless (om.size == extra + total - at[15], "%s: the 16th output "
        "memory has %" G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, what,
        om.size, extra + total - at[15]);
    {
      CtCheckNnsExtra *y = g_new (CtCheckNnsExtra, 1);

      memcpy (y, om.data, extra);
      fail_unless (y->magic == CT_CHECK_NNS_EXTRA_MAGIC &&
          y->num_extra_tensors == n - 16 &&
          y->reserved == CT_CHECK_NNS_HEADER + t[15].bytes, "%s: the 16th "
          "memory's header has magic 0x%x, %u more, %" G_GUINT64_FORMAT
          " reserved", what, y->magic, y->num_extra_tensors, y->reserved);
      for (i = 16; i < n; i++) {
        guint64 od[MAX_RANK];
        guint rank = rearranged (&t[i], perm, od);

        if (y->infos[i - 16].type != type[i])
          fail ("%s: the 16th memory's header gives tensor %u type %u, not "
              "%u", what, i, y->infos[i - 16].type, type[i]);
        for (k = 0; k < 16; k++)
          if (y->infos[i - 16].dimension[k] != (k < rank ? od[k] : 0))
            fail ("%s: the 16th memory's header gives tensor %u size %u as "
                "%u, not %" G_GUINT64_FORMAT, what, i, k,
                y->infos[i - 16].dimension[k], k < rank ? od[k] : 0);
      }
      g_free (y);
    }
    for (i = 15; i < n; i++) {
      const guint8 *o = om.data + extra + (at[i] - at[15]);

      check_flex_header (o, &t[i], type[i], perm, what, i);
      check_tensor (&t[i], perm, blob + at[i] + CT_CHECK_NNS_HEADER,
          o + CT_CHECK_NNS_HEADER, what, i);
    }
    gst_memory_unmap (gst_buffer_peek_memory (out, 15), &om);
    tally.flexible_tensors += n;
    poison_and_release (out);
  }
  gst_buffer_unref (in);
  g_free (blob);
  g_free (at);
  g_free (type);
  g_free (t);
  g_free (what);
}
