/* NNStreamer's buffer layouts the element reads and writes, without
 * NNStreamer: flexible tensors (a header in each memory) and more than 16
 * tensors (the rest in the 16th memory, after a header). The headers and
 * the permutation reference are written here, from NNStreamer's
 * definitions (GstTensorMetaInfo, GstTensorExtraInfo), on random data into
 * poisoned output; bad headers must be errors, never crashes. The same
 * runs with a GPU or without one (kernel=auto). */
#include "transpose-check.h"

#include <string.h>

/* Element (j0, j1, j2, j3) of @out, @dims permuted by @perm, is element
 * (i0, i1, i2, i3) of @in with i[perm[k]] = j[k]; NULL @perm swaps the two
 * innermost. Fails naming @what otherwise. */
static void
assert_permuted (const guint8 * in, const guint8 * out, const guint * dims,
    guint elem, const guint * perm, const gchar * what)
{
  static const guint swap[4] = { 1, 0, 2, 3 };
  guint o[4], j[4], i[4], k;
  const guint *p = perm ? perm : swap;

  for (k = 0; k < 4; k++)
    o[k] = dims[p[k]];
  for (j[3] = 0; j[3] < o[3]; j[3]++)
    for (j[2] = 0; j[2] < o[2]; j[2]++)
      for (j[1] = 0; j[1] < o[1]; j[1]++)
        for (j[0] = 0; j[0] < o[0]; j[0]++) {
          gsize oi, ii;

          for (k = 0; k < 4; k++)
            i[p[k]] = j[k];
          oi = ((gsize) (j[3] * o[2] + j[2]) * o[1] + j[1]) * o[0] + j[0];
          ii = ((gsize) (i[3] * dims[2] + i[2]) * dims[1] + i[1]) * dims[0]
              + i[0];
          fail_unless (memcmp (in + ii * elem, out + oi * elem, elem) == 0,
              "%s: output element (%u,%u,%u,%u) is not input (%u,%u,%u,%u)",
              what, j[0], j[1], j[2], j[3], i[0], i[1], i[2], i[3]);
        }
}

/* A harness around cudatranspose (@perm as its property, or none) with
 * input caps @caps. */
static GstHarness *
harness (const gchar * perm, const gchar * caps, GstBus ** bus)
{
  gchar *desc = perm ? g_strdup_printf ("cudatranspose permutation=%s", perm)
      : g_strdup ("cudatranspose");
  GstHarness *h = ct_check_harness_new (desc, bus);

  gst_harness_set_src_caps_str (h, caps);
  g_free (desc);
  return h;
}

/* The first error on @bus, which there must be, holds @says. */
static void
assert_error (GstBus * bus, const gchar * says, const gchar * what)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL, *all;

  fail_unless (msg != NULL, "%s: no error posted", what);
  gst_message_parse_error (msg, &err, &debug);
  all = g_strdup_printf ("%s %s", err->message, debug ? debug : "");
  fail_unless (strstr (all, says) != NULL, "%s: the error \"%s\" does not "
      "say \"%s\"", what, all, says);
  g_free (all);
  g_free (debug);
  g_error_free (err);
  gst_message_unref (msg);
}

static const guint perms[][4] = {
  {1, 2, 0, 3}, {2, 0, 1, 3}, {0, 2, 1, 3}, {3, 1, 0, 2}, {1, 0, 2, 3},
};

/* Flexible tensors, two a buffer, sizes changing with every buffer, over
 * several permutations and the default: each output memory is the header
 * of the rearranged tensor (rank kept) and the tensor rearranged. */
GST_START_TEST (test_flexible)
{
  guint p, b, t;

  for (p = 0; p <= G_N_ELEMENTS (perms); p++) {
    const guint *perm = p < G_N_ELEMENTS (perms) ? perms[p] : NULL;
    gchar *pstr = perm ? g_strdup_printf ("%u:%u:%u:%u", perm[0], perm[1],
        perm[2], perm[3]) : NULL;
    GstHarness *h = harness (pstr, "other/tensors,format=flexible,"
        "framerate=30/1", NULL);

    for (b = 0; b < 3; b++) {
      GstBuffer *in = gst_buffer_new (), *out;
      guint dims[2][4], type[2], rank[2];

      for (t = 0; t < 2; t++) {
        GstMemory *mem;
        GstMapInfo map;
        gsize bytes;
        guint k;

        type[t] = ct_check_random () % ct_check_n_nns_types;
        rank[t] = 3 + t;        /* rank 3 and 4 */
        for (k = 0; k < 4; k++)
          dims[t][k] = k < rank[t] ? 1 + ct_check_random () % 9 : 1;
        bytes = (gsize) ct_check_nns_types[type[t]].size * dims[t][0] * dims[t][1] *
            dims[t][2] * dims[t][3];
        mem = gst_allocator_alloc (NULL, CT_CHECK_NNS_HEADER + bytes, NULL);
        fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
        ct_check_nns_write_meta (map.data, 0xfeedcced, type[t], dims[t], rank[t], 1);
        ct_check_fill_random (map.data + CT_CHECK_NNS_HEADER, bytes);
        gst_memory_unmap (mem, &map);
        gst_buffer_append_memory (in, mem);
      }
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL);
      fail_unless_equals_int (gst_buffer_n_memory (out), 2);
      for (t = 0; t < 2; t++) {
        GstMapInfo im, om;
        guint32 w[21], want[4], want_rank = rank[t], k;
        gchar *what = g_strdup_printf ("flexible %s, buffer %u, tensor %u",
            pstr ? pstr : "default", b, t);

        for (k = 0; k < 4; k++)
          want[k] = dims[t][perm ? perm[k] : k < 2 ? 1 - k : k];
        for (k = 0; k < 4; k++)
          if (want[k] != 1 && k + 1 > want_rank)
            want_rank = k + 1;
        fail_unless (gst_memory_map (gst_buffer_peek_memory (in, t), &im,
                GST_MAP_READ));
        fail_unless (gst_memory_map (gst_buffer_peek_memory (out, t), &om,
                GST_MAP_READ));
        fail_unless_equals_int (om.size, im.size);
        memcpy (w, om.data, sizeof (w));
        fail_unless (w[0] == 0xfeedcced && w[2] == type[t], "%s: header "
            "magic 0x%x type %u", what, w[0], w[2]);
        for (k = 0; k < 16; k++)
          fail_unless_equals_int (w[3 + k], k < want_rank ? want[k] : 0);
        assert_permuted (im.data + CT_CHECK_NNS_HEADER, om.data + CT_CHECK_NNS_HEADER, dims[t],
            ct_check_nns_types[type[t]].size, perm, what);
        gst_memory_unmap (gst_buffer_peek_memory (in, t), &im);
        gst_memory_unmap (gst_buffer_peek_memory (out, t), &om);
        g_free (what);
      }
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    gst_harness_teardown (h);
    g_free (pstr);
  }
}

GST_END_TEST;

/* Bad flexible memories: each an error that says why, no output. */
GST_START_TEST (test_flexible_refused)
{
  static const struct
  {
    guint32 magic;
    guint type, format, rank, zero_at;
    gsize size;                 /* 0: the tensor's; else this */
    const gchar *says;
  } bad[] = {
    {0xfeedcced, 5, 1, 3, 99, 40, "cannot hold"},
    {0x12345678, 5, 1, 3, 99, 0, "NNStreamer's tensor header"},
    {0xfeedcced, 5, 2, 3, 99, 0, "tensor_sparse_dec"},
    {0xfeedcced, 99, 1, 3, 99, 0, "type 99"},
    {0xfeedcced, 5, 1, 3, 1, 0, "size of 0"},
    {0xfeedcced, 7, 1, 3, 99, CT_CHECK_NNS_HEADER + 10, "needs"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstBus *bus;
    GstHarness *h = harness (NULL, "other/tensors,format=flexible,"
        "framerate=30/1", &bus);
    guint dims[3] = { 3, 5, 7 };
    gsize size = bad[i].size ? bad[i].size : CT_CHECK_NNS_HEADER + 3 * 5 * 7 * 4;
    GstBuffer *in = gst_buffer_new_allocate (NULL, size, NULL);
    GstMapInfo map;
    gchar *what = g_strdup_printf ("bad flexible memory %u", i);

    if (bad[i].zero_at < 3)
      dims[bad[i].zero_at] = 0;
    fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
    ct_check_fill_random (map.data, map.size);
    if (map.size >= CT_CHECK_NNS_HEADER)
      ct_check_nns_write_meta (map.data, bad[i].magic, bad[i].type, dims, bad[i].rank,
          bad[i].format);
    gst_buffer_unmap (in, &map);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    assert_error (bus, bad[i].says, what);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
    g_free (what);
  }
}

GST_END_TEST;

/* 18 tensors, as NNStreamer lays them out: 15 memories of one each, then
 * the header and tensors 15 to 17 in the 16th. The output the same way,
 * its header describing the output tensors; each tensor permuted. */
GST_START_TEST (test_more_than_16)
{
  enum { N = 18 };
  guint dims[N][4], type[N], i, k, p;
  gsize bytes[N], rest = 0;
  GString *d = g_string_new (NULL), *ty = g_string_new (NULL);
  CtCheckNnsExtra *x = g_new0 (CtCheckNnsExtra, 1);
  GstBuffer *in = gst_buffer_new ();
  GstMapInfo map;
  gchar *caps;

  for (i = 0; i < N; i++) {
    type[i] = ct_check_random () % ct_check_n_nns_types;
    bytes[i] = ct_check_nns_types[type[i]].size;
    for (k = 0; k < 4; k++) {
      dims[i][k] = 1 + ct_check_random () % 7;
      bytes[i] *= dims[i][k];
    }
    g_string_append_printf (d, "%s%u:%u:%u:%u", i ? "," : "", dims[i][0],
        dims[i][1], dims[i][2], dims[i][3]);
    g_string_append_printf (ty, "%s%s", i ? "," : "", ct_check_nns_types[type[i]].name);
    if (i >= 15)
      rest += bytes[i];
  }
  x->magic = CT_CHECK_NNS_EXTRA_MAGIC;
  x->num_extra_tensors = N - 16;
  x->reserved = bytes[15];
  for (i = 16; i < N; i++) {
    x->infos[i - 16].type = type[i];
    memcpy (x->infos[i - 16].dimension, dims[i], sizeof (dims[i]));
  }
  for (i = 0; i < 16; i++) {
    gsize head = i == 15 ? sizeof (*x) : 0;
    GstMemory *mem = gst_allocator_alloc (NULL, head + (i == 15 ? rest :
            bytes[i]), NULL);

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    if (head)
      memcpy (map.data, x, head);
    ct_check_fill_random (map.data + head, map.size - head);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (in, mem);
  }
  caps = g_strdup_printf ("other/tensors,format=static,num_tensors=%u,"
      "framerate=30/1,dimensions=(string)\"%s\",types=(string)\"%s\"", N,
      d->str, ty->str);

  for (p = 0; p < G_N_ELEMENTS (perms); p++) {
    gchar *pstr = g_strdup_printf ("%u:%u:%u:%u", perms[p][0], perms[p][1],
        perms[p][2], perms[p][3]);
    GstHarness *h = harness (pstr, caps, NULL);
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    GstMapInfo im[16], om[16];
    CtCheckNnsExtra *y = g_new (CtCheckNnsExtra, 1);
    gsize ioff = sizeof (*x), ooff = sizeof (*x);

    fail_unless (out != NULL);
    fail_unless_equals_int (gst_buffer_n_memory (out), 16);
    for (i = 0; i < 16; i++) {
      fail_unless (gst_memory_map (gst_buffer_peek_memory (in, i), &im[i],
              GST_MAP_READ));
      fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om[i],
              GST_MAP_READ));
    }
    fail_unless (om[15].size == sizeof (*y) + rest);
    memcpy (y, om[15].data, sizeof (*y));
    fail_unless (y->magic == CT_CHECK_NNS_EXTRA_MAGIC && y->num_extra_tensors == N - 16 &&
        y->reserved == bytes[15], "%s: the 16th memory's header", pstr);
    for (i = 16; i < N; i++) {
      fail_unless_equals_int (y->infos[i - 16].type, type[i]);
      for (k = 0; k < 4; k++)
        fail_unless_equals_int (y->infos[i - 16].dimension[k],
            dims[i][perms[p][k]]);
    }
    for (i = 0; i < N; i++) {
      gchar *what = g_strdup_printf ("%u tensors by %s, tensor %u", N, pstr,
          i);
      const guint8 *a = i < 15 ? im[i].data : im[15].data + ioff;
      const guint8 *b = i < 15 ? om[i].data : om[15].data + ooff;

      if (i < 15)
        fail_unless_equals_int (om[i].size, bytes[i]);
      assert_permuted (a, b, dims[i], ct_check_nns_types[type[i]].size, perms[p],
          what);
      if (i >= 15) {
        ioff += bytes[i];
        ooff += bytes[i];
      }
      g_free (what);
    }
    for (i = 0; i < 16; i++) {
      gst_memory_unmap (gst_buffer_peek_memory (in, i), &im[i]);
      gst_memory_unmap (gst_buffer_peek_memory (out, i), &om[i]);
    }
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (y);
    g_free (pstr);
  }

  /* a 16th memory without the header: an error, no output */
  {
    GstBus *bus;
    GstHarness *h = harness ("1:2:0:3", caps, &bus);
    GstBuffer *bad = gst_buffer_copy_deep (in);

    fail_unless (gst_buffer_map_range (bad, 15, 1, &map, GST_MAP_WRITE));
    memset (map.data, 0x5a, 4);
    gst_buffer_unmap (bad, &map);
    fail_unless_equals_int (gst_harness_push (h, bad), GST_FLOW_ERROR);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    assert_error (bus, "NNStreamer", "16th memory without its header");
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
  gst_buffer_unref (in);
  g_free (caps);
  g_free (x);
  g_string_free (d, TRUE);
  g_string_free (ty, TRUE);
}

GST_END_TEST;

/* One flexible tensor of random type and rank-4 sizes (at most 5 each) in
 * a memory of its own, header first. */
typedef struct
{
  guint type, dims[4];
  gsize bytes;
  GstMemory *mem;
} FlexTensor;

static void
flex_tensor_make (FlexTensor * t)
{
  GstMapInfo map;
  guint k;

  t->type = ct_check_random () % ct_check_n_nns_types;
  t->bytes = ct_check_nns_types[t->type].size;
  for (k = 0; k < 4; k++) {
    t->dims[k] = 1 + ct_check_random () % 5;
    t->bytes *= t->dims[k];
  }
  t->mem = gst_allocator_alloc (NULL, CT_CHECK_NNS_HEADER + t->bytes, NULL);
  fail_unless (gst_memory_map (t->mem, &map, GST_MAP_WRITE));
  ct_check_nns_write_meta (map.data, 0xfeedcced, t->type, t->dims, 4, 1);
  ct_check_fill_random (map.data + CT_CHECK_NNS_HEADER, t->bytes);
  gst_memory_unmap (t->mem, &map);
}

/* @in laid out as NNStreamer's gst_tensor_buffer_append_memory lays out
 * more than 16 flexible tensors: one each to the 15th memory, then the
 * 16th holds NNStreamer's header of the rest, tensor 15's memory (header
 * and data, its size the header's "reserved") and each later one's. */
static GstBuffer *
flex_nnstreamer_buffer (FlexTensor * t, guint n)
{
  GstBuffer *buf = gst_buffer_new ();
  CtCheckNnsExtra *x = g_new0 (CtCheckNnsExtra, 1);
  gsize size = sizeof (*x), off;
  GstMemory *last;
  GstMapInfo map, tm;
  guint i;

  for (i = 0; i < MIN (n, 15); i++)
    gst_buffer_append_memory (buf, gst_memory_ref (t[i].mem));
  if (n <= 15)
    return buf;
  x->magic = CT_CHECK_NNS_EXTRA_MAGIC;
  x->num_extra_tensors = n - 16;
  x->reserved = CT_CHECK_NNS_HEADER + t[15].bytes;
  for (i = 16; i < n; i++) {
    x->infos[i - 16].type = t[i].type;
    memcpy (x->infos[i - 16].dimension, t[i].dims, sizeof (t[i].dims));
  }
  for (i = 15; i < n; i++)
    size += CT_CHECK_NNS_HEADER + t[i].bytes;
  last = gst_allocator_alloc (NULL, size, NULL);
  fail_unless (gst_memory_map (last, &map, GST_MAP_WRITE));
  memcpy (map.data, x, sizeof (*x));
  for (off = sizeof (*x), i = 15; i < n; i++) {
    fail_unless (gst_memory_map (t[i].mem, &tm, GST_MAP_READ));
    memcpy (map.data + off, tm.data, tm.size);
    off += tm.size;
    gst_memory_unmap (t[i].mem, &tm);
  }
  gst_memory_unmap (last, &map);
  gst_buffer_append_memory (buf, last);
  g_free (x);
  return buf;
}

/* @out holds the @n tensors of @t permuted by @perm, laid out as
 * NNStreamer lays them out (flex_nnstreamer_buffer's layout past 16),
 * each with its header of the permuted sizes. */
static void
assert_flex_output (GstBuffer * out, FlexTensor * t, guint n,
    const guint * perm, const gchar * what)
{
  guint n_mem = gst_buffer_n_memory (out), i, k;
  GstMapInfo om[16];
  gsize off = 0;

  fail_unless_equals_int (n_mem, MIN (n, 16));
  for (i = 0; i < n_mem; i++)
    fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om[i],
            GST_MAP_READ));
  if (n > 16) {
    CtCheckNnsExtra *y = g_new (CtCheckNnsExtra, 1);

    memcpy (y, om[15].data, sizeof (*y));
    fail_unless (y->magic == CT_CHECK_NNS_EXTRA_MAGIC &&
        y->num_extra_tensors == n - 16 &&
        y->reserved == CT_CHECK_NNS_HEADER + t[15].bytes,
        "%s: the 16th memory's header (magic 0x%x, %u more, %" G_GUINT64_FORMAT
        " reserved)", what, y->magic, y->num_extra_tensors, y->reserved);
    for (i = 16; i < n; i++) {
      fail_unless_equals_int (y->infos[i - 16].type, t[i].type);
      for (k = 0; k < 4; k++)
        fail_unless_equals_int (y->infos[i - 16].dimension[k],
            t[i].dims[perm[k]]);
    }
    g_free (y);
  }
  for (i = 0; i < n; i++) {
    guint m = MIN (i, 15);
    const guint8 *o;
    guint32 w[7];
    GstMapInfo im;
    gchar *tw = g_strdup_printf ("%s, tensor %u of %u", what, i, n);

    if (i <= 15)
      off = i == 15 && n > 16 ? sizeof (CtCheckNnsExtra) : 0;
    fail_unless (om[m].size >= off + CT_CHECK_NNS_HEADER + t[i].bytes,
        "%s: memory %u too short", tw, m);
    o = om[m].data + off;
    memcpy (w, o, sizeof (w));
    fail_unless (w[0] == 0xfeedcced && w[2] == t[i].type, "%s: header", tw);
    for (k = 0; k < 4; k++)
      fail_unless_equals_int (w[3 + k], t[i].dims[perm[k]]);
    fail_unless (gst_memory_map (t[i].mem, &im, GST_MAP_READ));
    assert_permuted (im.data + CT_CHECK_NNS_HEADER, o + CT_CHECK_NNS_HEADER,
        t[i].dims, ct_check_nns_types[t[i].type].size, perm, tw);
    gst_memory_unmap (t[i].mem, &im);
    off += CT_CHECK_NNS_HEADER + t[i].bytes;
    g_free (tw);
  }
  if (n_mem == 16 && n > 16)
    fail_unless_equals_int (om[15].size, off);
  for (i = 0; i < n_mem; i++)
    gst_memory_unmap (gst_buffer_peek_memory (out, i), &om[i]);
}

/* Flexible tensors past 16: in NNStreamer's layout, and as GStreamer
 * leaves them when memories are simply appended (past 16 it merges them:
 * 17 tensors come as 2 memories, 256 as 16, each holding several header
 * and tensor pairs). Every tensor comes out, permuted, in NNStreamer's
 * layout. */
GST_START_TEST (test_flexible_past_16)
{
  static const guint counts[] = { 16, 17, 20, 40, 256 };
  static const guint perm[4] = { 1, 2, 0, 3 };
  guint c, i, how;

  for (c = 0; c < G_N_ELEMENTS (counts); c++) {
    guint n = counts[c];
    FlexTensor *t = g_new0 (FlexTensor, n);

    for (i = 0; i < n; i++)
      flex_tensor_make (&t[i]);
    for (how = 0; how < 2; how++) {
      GstHarness *h = harness ("1:2:0:3", "other/tensors,format=flexible,"
          "framerate=0/1", NULL);
      GstBuffer *in, *out;
      gchar *what = g_strdup_printf ("%u flexible tensors, %s", n,
          how ? "appended" : "NNStreamer's layout");

      if (how == 0) {
        in = flex_nnstreamer_buffer (t, n);
      } else {
        in = gst_buffer_new ();
        for (i = 0; i < n; i++)
          gst_buffer_append_memory (in, gst_memory_ref (t[i].mem));
        fail_unless (gst_buffer_n_memory (in) <= 16);
      }
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s: no output", what);
      assert_flex_output (out, t, n, perm, what);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
      g_free (what);
    }
    for (i = 0; i < n; i++)
      gst_memory_unref (t[i].mem);
    g_free (t);
  }
}

GST_END_TEST;

/* What cannot be read is refused with an error, never dropped: 300
 * flexible tensors (past NNStreamer's 256), a memory longer than its
 * header says, a 16th memory whose header counts other tensors than it
 * holds. */
GST_START_TEST (test_flexible_past_16_refused)
{
  guint c;

  for (c = 0; c < 3; c++) {
    guint n = c == 0 ? 300 : 20, i;
    FlexTensor *t = g_new0 (FlexTensor, n);
    GstBus *bus;
    GstHarness *h = harness (NULL, "other/tensors,format=flexible,"
        "framerate=0/1", &bus);
    GstBuffer *in;
    GstMapInfo map;
    const gchar *says[] = { "256", "after the", "header says" };

    for (i = 0; i < n; i++)
      flex_tensor_make (&t[i]);
    if (c == 0) {
      in = gst_buffer_new ();
      for (i = 0; i < n; i++)
        gst_buffer_append_memory (in, gst_memory_ref (t[i].mem));
    } else if (c == 1) {
      /* 12 bytes more than the second tensor's header says */
      GstMemory *longer = gst_allocator_alloc (NULL, t[1].mem->size + 12,
          NULL);
      GstMapInfo tm;

      fail_unless (gst_memory_map (longer, &map, GST_MAP_WRITE));
      fail_unless (gst_memory_map (t[1].mem, &tm, GST_MAP_READ));
      ct_check_fill_random (map.data, map.size);
      memcpy (map.data, tm.data, tm.size);
      gst_memory_unmap (t[1].mem, &tm);
      gst_memory_unmap (longer, &map);
      in = gst_buffer_new ();
      gst_buffer_append_memory (in, gst_memory_ref (t[0].mem));
      gst_buffer_append_memory (in, longer);
    } else {
      in = flex_nnstreamer_buffer (t, n);
      fail_unless (gst_buffer_map_range (in, 15, 1, &map, GST_MAP_WRITE));
      ((CtCheckNnsExtra *) map.data)->num_extra_tensors = 2;
      gst_buffer_unmap (in, &map);
    }
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    assert_error (bus, says[c], says[c]);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
    for (i = 0; i < n; i++)
      gst_memory_unref (t[i].mem);
    g_free (t);
  }
}

GST_END_TEST;

/* An element that makes its output buffers as NNStreamer's do
 * (tensor_transform, tensor_converter, tensor_filter): its output size is
 * 0 (transform_size), and it appends a memory of its own making to the
 * buffer the base class hands it, here a copy of the input. With a pool
 * from downstream that buffer already holds a memory, and the data lands
 * in the second. */
typedef GstBaseTransform CtNnsMaker;
typedef GstBaseTransformClass CtNnsMakerClass;
static GType ct_nns_maker_get_type (void);
G_DEFINE_TYPE (CtNnsMaker, ct_nns_maker, GST_TYPE_BASE_TRANSFORM);

static gboolean
ct_nns_maker_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  *othersize = 0;
  return TRUE;
}

static GstFlowReturn
ct_nns_maker_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstMemory *mem = gst_allocator_alloc (NULL, gst_buffer_get_size (inbuf),
      NULL);
  GstMapInfo map;

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  gst_buffer_extract (inbuf, 0, map.data, map.size);
  gst_memory_unmap (mem, &map);
  gst_buffer_append_memory (outbuf, mem);
  return GST_FLOW_OK;
}

static void
ct_nns_maker_class_init (CtNnsMakerClass * klass)
{
  static GstStaticPadTemplate any_sink = GST_STATIC_PAD_TEMPLATE ("sink",
      GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
  static GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE ("src",
      GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_add_static_pad_template (element_class, &any_sink);
  gst_element_class_add_static_pad_template (element_class, &any_src);
  gst_element_class_set_static_metadata (element_class, "NNStreamer-like "
      "maker", "Filter", "Appends its own memory to its output", "test");
  klass->transform_size = ct_nns_maker_transform_size;
  klass->transform = ct_nns_maker_transform;
}

static void
ct_nns_maker_init (CtNnsMaker * self)
{
}

/* Buffers made as NNStreamer's elements make them, through the whole
 * allocation negotiation (on a GPU host the element proposes its pinned
 * allocator): each is one memory of the tensor, transformed. */
GST_START_TEST (test_nnstreamer_made_buffers)
{
  static const guint dims[4] = { 4, 64, 48, 1 };
  static const guint perm[4] = { 1, 2, 0, 3 };
  GstElement *p, *src, *sink;
  GstBus *bus;
  guint b;

  fail_unless (gst_element_register (NULL, "ctnnsmaker", GST_RANK_NONE,
          ct_nns_maker_get_type ()));
  p = gst_parse_launch ("appsrc name=src format=time caps=other/tensors,"
      "format=static,num_tensors=1,dimensions=4:64:48:1,types=uint8,"
      "framerate=30/1 ! ctnnsmaker ! cudatranspose permutation=1:2:0:3 ! "
      "appsink name=sink sync=false", NULL);
  fail_unless (p != NULL);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (b = 0; b < 3; b++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, 4 * 64 * 48, NULL);
    GstSample *sample;
    GstBuffer *out;
    GstMapInfo im, om;
    GstFlowReturn ret = GST_FLOW_ERROR;
    gchar *what = g_strdup_printf ("NNStreamer-made buffer %u", b);

    fail_unless (gst_buffer_map (in, &im, GST_MAP_WRITE));
    ct_check_fill_random (im.data, im.size);
    gst_buffer_unmap (in, &im);
    GST_BUFFER_PTS (in) = b * GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", in, &ret);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    g_signal_emit_by_name (sink, "try-pull-sample", 10 * GST_SECOND,
        &sample);
    if (!sample) {
      GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      GError *err = NULL;

      if (msg)
        gst_message_parse_error (msg, &err, NULL);
      fail ("%s: no output (%s)", what, err ? err->message : "no error");
    }
    out = gst_sample_get_buffer (sample);
    fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
    fail_unless_equals_int (om.size, im.size);
    assert_permuted (im.data, om.data, dims, 1, perm, what);
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_sample_unref (sample);
    gst_buffer_unref (in);
    g_free (what);
  }
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (p);
}

GST_END_TEST;

/* Sparse tensors: refused at negotiation, the error saying how to
 * densify them. */
GST_START_TEST (test_sparse_refused)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);

  gst_harness_set_src_caps_str (h, "other/tensors,format=sparse,"
      "framerate=30/1");
  fail_unless (gst_harness_push (h, gst_buffer_new_allocate (NULL, 64,
              NULL)) != GST_FLOW_OK);
  assert_error (bus, "tensor_sparse_dec", "sparse");
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
tensor_layouts_suite (void)
{
  Suite *s = suite_create ("tensor-layouts");
  TCase *tc = tcase_create ("layouts");

  ct_check_seed ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_flexible);
  tcase_add_test (tc, test_flexible_refused);
  tcase_add_test (tc, test_more_than_16);
  tcase_add_test (tc, test_sparse_refused);
  tcase_add_test (tc, test_flexible_past_16);
  tcase_add_test (tc, test_flexible_past_16_refused);
  tcase_add_test (tc, test_nnstreamer_made_buffers);
  return s;
}

GST_CHECK_MAIN (tensor_layouts);
