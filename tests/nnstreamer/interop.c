/* cudatranspose against NNStreamer's own elements: the same random tensors
 * through `cudatranspose` and through `tensor_transform mode=transpose`
 * must give the same caps and the same bytes, over types, ranks, odd
 * sizes, several tensors, static and flexible tensors, and on the way
 * through tensor_converter, tensor_decoder, tensor_sink and
 * tensor_mux/tensor_demux. Sparse tensors are refused with a reason. The
 * arithmetic property against tensor_transform mode=arithmetic, on random
 * video and tensors of every type pair: byte for byte with NNStreamer's C
 * path (acceleration=false), and with its default ORC path where that
 * path computes the same (float outputs that never meet a denormal or a
 * value out of range).
 *
 * NNStreamer is found as registered plugins (an installed NNStreamer, or
 * GST_PLUGIN_PATH), else in NNSTREAMER_PREFIX, else in the prefix
 * pkg-config named at build time; without it the test is skipped (77). On
 * a machine without a GPU the element runs on the CPU. */
#include "transpose-check.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CT_NNSTREAMER_PKG_PREFIX
#define CT_NNSTREAMER_PKG_PREFIX ""
#endif

/* ---------------------------------------------------------------------- */
/* Finding NNStreamer                                                       */

/* The library folder of an NNStreamer installed in @prefix, or NULL. */
static gchar *
nnstreamer_libdir (const gchar * prefix)
{
  const gchar *subdirs[] = { "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu",
    "lib64", "lib"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (subdirs); i++) {
    gchar *dir = g_build_filename (prefix, subdirs[i], NULL);
    gchar *plugin = g_build_filename (dir, "gstreamer-1.0",
        "libnnstreamer.so", NULL);
    gboolean found = g_file_test (plugin, G_FILE_TEST_EXISTS);

    g_free (plugin);
    if (found)
      return dir;
    g_free (dir);
  }
  return NULL;
}

/* Prepends @dir to the path list in the environment variable @var. */
static void
prepend_env (const gchar * var, const gchar * dir)
{
  const gchar *old = g_getenv (var);
  gchar *v = old && *old ? g_strconcat (dir, ":", old, NULL) : g_strdup (dir);

  g_setenv (var, v, TRUE);
  g_free (v);
}

/* Where NNStreamer is not registered but a prefix names it, runs this
 * program again with that prefix's plugins and libraries in the
 * environment (the loader reads LD_LIBRARY_PATH only at the start).
 * Returns a reason to skip where there is none to find. */
static gchar *
find_nnstreamer (gchar ** argv)
{
  const gchar *prefix = g_getenv ("NNSTREAMER_PREFIX");
  gchar *libdir, *dir, *conf;
  GstElementFactory *f;

  f = gst_element_factory_find ("tensor_transform");
  if (f) {
    gst_object_unref (f);
    return NULL;
  }
  if (g_getenv ("CT_NNSTREAMER_TRIED"))
    return g_strdup_printf ("NNStreamer's plugins at %s did not register "
        "(GST_PLUGIN_PATH_1_0=%s)", g_getenv ("CT_NNSTREAMER_TRIED"),
        g_getenv ("GST_PLUGIN_PATH_1_0"));
  if (!prefix || !*prefix)
    prefix = CT_NNSTREAMER_PKG_PREFIX;
  if (!*prefix)
    return g_strdup ("NNStreamer not found: no tensor_transform element, "
        "NNSTREAMER_PREFIX unset, and pkg-config found no nnstreamer when "
        "the build was set up (install NNStreamer, or build it from "
        "https://github.com/nnstreamer/nnstreamer and set NNSTREAMER_PREFIX "
        "to where it is installed)");
  libdir = nnstreamer_libdir (prefix);
  if (!libdir)
    return g_strdup_printf ("NNStreamer not found in %s (no "
        "lib*/gstreamer-1.0/libnnstreamer.so there)", prefix);
  dir = g_build_filename (libdir, "gstreamer-1.0", NULL);
  prepend_env ("GST_PLUGIN_PATH_1_0", dir);
  prepend_env ("LD_LIBRARY_PATH", libdir);
  conf = g_build_filename (prefix, "etc", "nnstreamer.ini", NULL);
  if (g_file_test (conf, G_FILE_TEST_EXISTS))
    g_setenv ("NNSTREAMER_CONF", conf, TRUE);
  g_setenv ("CT_NNSTREAMER_TRIED", dir, TRUE);
  execv ("/proc/self/exe", argv);
  return g_strdup_printf ("could not run again with NNStreamer's libraries "
      "from %s: %s", libdir, g_strerror (errno));
}

/* ---------------------------------------------------------------------- */
/* Running a pipeline                                                       */

/* What came out of a pipeline's sinks sink0 and sink1. */
typedef struct
{
  GMutex lock;
  GPtrArray *out[2];            /* of GstBuffer */
  GstCaps *caps[2];
  gchar *error;                 /* the first error message, or NULL */
} Run;

static void
run_clear (Run * r)
{
  guint i;

  for (i = 0; i < 2; i++) {
    g_ptr_array_unref (r->out[i]);
    gst_clear_caps (&r->caps[i]);
  }
  g_free (r->error);
  g_mutex_clear (&r->lock);
}

static void
keep (Run * r, guint sink, GstBuffer * buf)
{
  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->out[sink], gst_buffer_ref (buf));
  g_mutex_unlock (&r->lock);
}

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (sink), "index"));

  if (sample) {
    keep (user_data, i, gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  return GST_FLOW_OK;
}

/* tensor_sink's "new-data" */
static void
on_new_data (GstElement * sink, GstBuffer * buf, gpointer user_data)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (sink), "index"));

  keep (user_data, i, buf);
}

/* The element named @prefix@i in @p, or NULL. */
static GstElement *
nth (GstElement * p, const gchar * prefix, guint i)
{
  gchar *name = g_strdup_printf ("%s%u", prefix, i);
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), name);

  g_free (name);
  return e;
}

/* Runs the launch line @desc: its appsrcs src0 (and src1) push @n buffers
 * each of @in0 (@in1) and EOS; what its sinks sink0 (sink1), appsinks or
 * tensor_sinks, take is kept in @r with their caps, or the first error. */
static void
run (const gchar * desc, GstBuffer ** in0, GstBuffer ** in1, guint n, Run * r)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstBuffer **ins[2] = { in0, in1 };
  GstMessage *msg;
  GstBus *bus;
  guint i, k;

  memset (r, 0, sizeof (*r));
  g_mutex_init (&r->lock);
  r->out[0] = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  r->out[1] = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  for (i = 0; i < 2; i++) {
    GstElement *sink = nth (p, "sink", i);

    if (!sink)
      continue;
    g_object_set_data (G_OBJECT (sink), "index", GUINT_TO_POINTER (i));
    if (GST_IS_APP_SINK (sink)) {
      g_object_set (sink, "emit-signals", TRUE, "sync", FALSE, NULL);
      g_signal_connect (sink, "new-sample", G_CALLBACK (on_sample), r);
    } else {
      g_signal_connect (sink, "new-data", G_CALLBACK (on_new_data), r);
    }
    gst_object_unref (sink);
  }
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s did not start", desc);
  for (i = 0; i < 2; i++) {
    GstElement *src = nth (p, "src", i);

    if (!src)
      continue;
    for (k = 0; k < n; k++)
      gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_ref (ins[i][k]));
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    gst_object_unref (src);
  }
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither EOS nor an error in 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    r->error = g_strdup_printf ("%s (%s)", err->message, debug ? debug : "");
    g_clear_error (&err);
    g_free (debug);
  }
  gst_message_unref (msg);
  for (i = 0; i < 2; i++) {
    GstElement *sink = nth (p, "sink", i);

    if (!sink)
      continue;
    r->caps[i] = gst_pad_get_current_caps (gst_element_get_static_pad (sink,
            "sink"));
    /* (the pad: the element keeps it) */
    gst_object_unref (gst_element_get_static_pad (sink, "sink"));
    gst_object_unref (sink);
  }
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

/* ---------------------------------------------------------------------- */
/* Tensors and comparisons                                                  */


/* A buffer of @n memories of @sizes random bytes (@header: each after
 * @header[i]'s CT_CHECK_NNS_HEADER bytes), timestamped frame @index at 30/1. */
static GstBuffer *
random_buffer (const gsize * sizes, guint n, guint8 (*header)[CT_CHECK_NNS_HEADER],
    guint index)
{
  GstBuffer *buf = gst_buffer_new ();
  guint i;
  gsize k;

  for (i = 0; i < n; i++) {
    gsize skip = header ? CT_CHECK_NNS_HEADER : 0;
    GstMemory *mem = gst_allocator_alloc (NULL, skip + sizes[i], NULL);
    GstMapInfo map;

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    if (header)
      memcpy (map.data, header[i], CT_CHECK_NNS_HEADER);
    for (k = 0; k < sizes[i]; k++)
      map.data[skip + k] = (guint8) (ct_check_random () >> 7);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (buf, mem);
  }
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (index, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* Fails unless @a and @b hold the same bytes, memory by memory. */
static void
assert_same_buffer (GstBuffer * a, GstBuffer * b, const gchar * what,
    guint index)
{
  guint i, n = gst_buffer_n_memory (a);

  fail_unless_equals_int_hex (gst_buffer_n_memory (b), n);
  for (i = 0; i < n; i++) {
    GstMapInfo ma, mb;
    gsize k;

    fail_unless (gst_memory_map (gst_buffer_peek_memory (a, i), &ma,
            GST_MAP_READ));
    fail_unless (gst_memory_map (gst_buffer_peek_memory (b, i), &mb,
            GST_MAP_READ));
    fail_unless (ma.size == mb.size, "%s, buffer %u, memory %u: %"
        G_GSIZE_FORMAT " bytes from cudatranspose, %" G_GSIZE_FORMAT
        " from NNStreamer", what, index, i, ma.size, mb.size);
    for (k = 0; k < ma.size && ma.data[k] == mb.data[k]; k++);
    fail_unless (k == ma.size, "%s, buffer %u, memory %u: byte %"
        G_GSIZE_FORMAT " is 0x%02x from cudatranspose, 0x%02x from "
        "NNStreamer", what, index, i, k, ma.data[k], mb.data[k]);
    gst_memory_unmap (gst_buffer_peek_memory (a, i), &ma);
    gst_memory_unmap (gst_buffer_peek_memory (b, i), &mb);
  }
}

/* @caps as other/tensors: tensor_transform gives a single tensor as
 * other/tensor where downstream takes it, cudatranspose keeps the name it
 * was given; the two say the same. */
static GstCaps *
as_tensors (GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  GstStructure *t;

  if (!gst_structure_has_name (s, "other/tensor"))
    return gst_caps_ref (caps);
  t = gst_structure_new ("other/tensors", "format", G_TYPE_STRING, "static",
      "num_tensors", G_TYPE_INT, 1, "dimensions", G_TYPE_STRING,
      gst_structure_get_string (s, "dimension"), "types", G_TYPE_STRING,
      gst_structure_get_string (s, "type"), NULL);
  if (gst_structure_has_field (s, "framerate"))
    gst_structure_set_value (t, "framerate", gst_structure_get_value (s,
            "framerate"));
  return gst_caps_new_full (t, NULL);
}

/* Fails unless the two runs gave the same caps and bytes at every sink,
 * and something came out. */
static void
assert_same_runs (Run * ours, Run * theirs, const gchar * what, guint n)
{
  guint s, i;

  fail_unless (ours->error == NULL, "%s: cudatranspose's pipeline failed: "
      "%s", what, ours->error);
  fail_unless (theirs->error == NULL, "%s: NNStreamer's pipeline failed: "
      "%s", what, theirs->error);
  for (s = 0; s < 2; s++) {
    if (s > 0 && !theirs->caps[s] && theirs->out[s]->len == 0)
      continue;
    fail_unless (ours->caps[s] && theirs->caps[s], "%s: no caps", what);
    {
      GstCaps *a = as_tensors (ours->caps[s]);
      GstCaps *b = as_tensors (theirs->caps[s]);

      if (!gst_caps_is_equal (a, b)) {
        gchar *sa = gst_caps_to_string (ours->caps[s]);
        gchar *sb = gst_caps_to_string (theirs->caps[s]);

        fail ("%s: cudatranspose gave %s, NNStreamer %s", what, sa, sb);
        g_free (sa);
        g_free (sb);
      }
      gst_caps_unref (a);
      gst_caps_unref (b);
    }
    fail_unless_equals_int (theirs->out[s]->len, n);
    fail_unless_equals_int (ours->out[s]->len, n);
    for (i = 0; i < n; i++)
      assert_same_buffer (g_ptr_array_index (ours->out[s], i),
          g_ptr_array_index (theirs->out[s], i), what, i);
  }
}

/* Runs the launch lines @ours and @theirs on the same buffers, and
 * compares. */
static void
compare_lines (const gchar * ours, const gchar * theirs, GstBuffer ** in0,
    GstBuffer ** in1, guint n, const gchar * what)
{
  Run ra, rb;

  GST_INFO ("%s\n  %s\n  %s", what, ours, theirs);
  run (ours, in0, in1, n, &ra);
  run (theirs, in0, in1, n, &rb);
  assert_same_runs (&ra, &rb, what, n);
  run_clear (&ra);
  run_clear (&rb);
}

/* Runs "@head ! X ! @tail" with X cudatranspose @ours, then
 * tensor_transform mode=transpose option=@option, on the same buffers,
 * and compares. */
static void
compare (const gchar * head, const gchar * ours, const gchar * option,
    const gchar * tail, GstBuffer ** in0, GstBuffer ** in1, guint n,
    const gchar * what)
{
  gchar *a = g_strdup_printf ("%s ! cudatranspose %s ! %s", head, ours, tail);
  gchar *b = g_strdup_printf ("%s ! tensor_transform mode=transpose "
      "option=%s ! %s", head, option, tail);

  compare_lines (a, b, in0, in1, n, what);
  g_free (a);
  g_free (b);
}

static void
free_buffers (GstBuffer ** bufs, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    gst_buffer_unref (bufs[i]);
}

/* tensor_transform's transpose takes orders that keep dimension 3 last;
 * 1:0:2:3 is cudatranspose's default (no permutation). */
static const gchar *const orders[] = {
  "1:0:2:3", "1:2:0:3", "2:0:1:3", "0:2:1:3", "2:1:0:3",
};

#define FRAMES 3

/* ---------------------------------------------------------------------- */
/* Tests                                                                    */

/* One tensor of every type, of rank 2, 3 and 4 with odd sizes, in every
 * order tensor_transform takes; the default mode too. */
GST_START_TEST (test_types_ranks_orders)
{
  guint t, rank, o;

  for (t = 0; t < ct_check_n_nns_types; t++) {
    for (rank = 2; rank <= 4; rank++) {
      guint dims[4] = { 1, 1, 1, 1 }, i;
      GString *d = g_string_new (NULL);
      GstBuffer *in[FRAMES];
      gchar *head;
      gsize size = ct_check_nns_types[t].size;

      for (i = 0; i < rank; i++) {
        dims[i] = 1 + 2 * (ct_check_random () % 9);     /* odd, 1 to 17 */
        if (i < 2 && dims[i] == 1)
          dims[i] = 3;
        size *= dims[i];
        g_string_append_printf (d, "%s%u", i ? ":" : "", dims[i]);
      }
      for (i = 0; i < FRAMES; i++)
        in[i] = random_buffer (&size, 1, NULL, i);
      head = g_strdup_printf ("appsrc name=src0 format=time caps=\""
          "other/tensors,format=static,num_tensors=1,framerate=30/1,"
          "dimensions=(string)%s,types=(string)%s\"", d->str, ct_check_nns_types[t].name);
      for (o = 0; o < G_N_ELEMENTS (orders); o++) {
        gchar *what = g_strdup_printf ("%s %s by %s", ct_check_nns_types[t].name, d->str,
            orders[o]);
        gchar *prop = g_strdup_printf ("permutation=%s", orders[o]);

        /* a rank-2 tensor cannot take the third size in: NNStreamer
         * refuses a size of 0, so only the orders within its rank */
        if (rank > 2 || (orders[o][0] < '2' && orders[o][2] < '2'))
          compare (head, prop, orders[o], "appsink name=sink0", in, NULL,
              FRAMES, what);
        g_free (prop);
        g_free (what);
      }
      compare (head, "", "1:0:2:3", "appsink name=sink0", in, NULL, FRAMES,
          "default mode");
      free_buffers (in, FRAMES);
      g_free (head);
      g_string_free (d, TRUE);
    }
  }
}

GST_END_TEST;

/* A model's input declared with its own rank: a capsfilter of rank-3
 * dimensions after the element negotiates, as after tensor_transform. */
GST_START_TEST (test_rank_kept)
{
  gsize size = 3 * 5 * 7;
  GstBuffer *in[FRAMES];
  guint i;

  for (i = 0; i < FRAMES; i++)
    in[i] = random_buffer (&size, 1, NULL, i);
  compare ("appsrc name=src0 format=time caps=\"other/tensor,framerate=30/1,"
      "dimension=(string)3:5:7,type=(string)uint8\"", "permutation=1:2:0:3",
      "1:2:0:3", "other/tensor,dimension=(string)5:7:3 ! appsink name=sink0",
      in, NULL, FRAMES, "other/tensor 3:5:7 into a rank-3 capsfilter");
  free_buffers (in, FRAMES);
}

GST_END_TEST;

/* Several tensors of different types and sizes in one buffer, and apart
 * again through tensor_demux; then two streams through tensor_mux. */
GST_START_TEST (test_several_tensors)
{
  const gsize sizes[3] = { 3 * 5 * 7 * 2, 9 * 4 * 2 * 4, 11 * 13 * 8 };
  const gchar *caps = "other/tensors,format=static,num_tensors=3,"
      "framerate=30/1,dimensions=(string)\\\"3:5:7:2,9:4:2,11:13\\\","
      "types=(string)\\\"uint8,float32,float64\\\"";
  GstBuffer *in[FRAMES], *a[FRAMES], *b[FRAMES];
  gchar *head;
  guint i, o;

  for (i = 0; i < FRAMES; i++)
    in[i] = random_buffer (sizes, 3, NULL, i);
  head = g_strdup_printf ("appsrc name=src0 format=time caps=\"%s\"", caps);
  for (o = 0; o < G_N_ELEMENTS (orders); o++) {
    gchar *prop = g_strdup_printf ("permutation=%s", orders[o]);
    gchar *what = g_strdup_printf ("three tensors by %s", orders[o]);

    /* (11:13 is rank 2: only orders within it) */
    if (orders[o][0] < '2' && orders[o][2] < '2')
      compare (head, prop, orders[o], "appsink name=sink0", in, NULL, FRAMES,
          what);
    g_free (prop);
    g_free (what);
  }
  compare (head, "", "1:0:2:3", "tensor_demux name=d "
      "d.src_0 ! queue ! appsink name=sink0 d.src_1 ! queue ! fakesink "
      "d.src_2 ! queue ! appsink name=sink1", in, NULL, FRAMES,
      "three tensors, demuxed");
  g_free (head);

  /* two streams muxed: uint16 3:5:7 and int8 4:6:2:3 */
  {
    const gsize sa = 3 * 5 * 7 * 2, sb = 4 * 6 * 2 * 3;

    for (i = 0; i < FRAMES; i++) {
      a[i] = random_buffer (&sa, 1, NULL, i);
      b[i] = random_buffer (&sb, 1, NULL, i);
    }
  }
  compare ("appsrc name=src0 format=time caps=\"other/tensor,framerate=30/1,"
      "dimension=(string)3:5:7,type=(string)uint16\" ! m.sink_0 "
      "appsrc name=src1 format=time caps=\"other/tensor,framerate=30/1,"
      "dimension=(string)4:6:2:3,type=(string)int8\" ! m.sink_1 "
      "tensor_mux name=m sync-mode=nosync", "permutation=1:2:0:3", "1:2:0:3",
      "appsink name=sink0", a, b, FRAMES, "two streams muxed");
  free_buffers (in, FRAMES);
  free_buffers (a, FRAMES);
  free_buffers (b, FRAMES);
}

GST_END_TEST;

/* More tensors than a buffer has memories (20), as NNStreamer lays them
 * out: one each to the 15th, then the header and the rest in the 16th;
 * read back by tensor_demux. */
GST_START_TEST (test_more_than_16)
{
  enum { N = 20 };
  GString *dims = g_string_new (NULL), *tys = g_string_new (NULL);
  gsize sizes[N], mem_sizes[16];
  GstBuffer *in[FRAMES];
  guint i, k, o;
  gchar *head;
  CtCheckNnsExtra *x = g_new0 (CtCheckNnsExtra, 1);
  guint32 d[N][4];
  guint ty[N];

  x->magic = CT_CHECK_NNS_EXTRA_MAGIC;
  x->num_extra_tensors = N - 16;
  for (i = 0; i < G_N_ELEMENTS (x->infos); i++)
    x->infos[i].type = 11;      /* _NNS_END: none */
  for (i = 0; i < N; i++) {
    ty[i] = ct_check_random () % ct_check_n_nns_types;
    sizes[i] = ct_check_nns_types[ty[i]].size;
    for (k = 0; k < 4; k++) {
      d[i][k] = 1 + ct_check_random () % 6;
      sizes[i] *= d[i][k];
    }
    g_string_append_printf (dims, "%s%u:%u:%u:%u", i ? "," : "", d[i][0],
        d[i][1], d[i][2], d[i][3]);
    g_string_append_printf (tys, "%s%s", i ? "," : "", ct_check_nns_types[ty[i]].name);
    if (i > 15) {
      x->infos[i - 16].type = ty[i];
      memcpy (x->infos[i - 16].dimension, d[i], sizeof (d[i]));
    }
  }
  x->reserved = sizes[15];
  for (i = 0; i < 16; i++)
    mem_sizes[i] = sizes[i];
  for (i = 16; i < N; i++)
    mem_sizes[15] += sizes[i];
  for (i = 0; i < FRAMES; i++) {
    GstMapInfo map;
    GstMemory *last;

    /* random tensors, then the 16th memory again with the header first */
    in[i] = random_buffer (mem_sizes, 16, NULL, i);
    last = gst_allocator_alloc (NULL, sizeof (*x) + mem_sizes[15], NULL);
    fail_unless (gst_memory_map (last, &map, GST_MAP_WRITE));
    memcpy (map.data, x, sizeof (*x));
    fail_unless (gst_buffer_extract (in[i], gst_buffer_get_size (in[i]) -
            mem_sizes[15], map.data + sizeof (*x), mem_sizes[15]) ==
        mem_sizes[15]);
    gst_memory_unmap (last, &map);
    gst_buffer_replace_memory (in[i], 15, last);
  }
  head = g_strdup_printf ("appsrc name=src0 format=time caps=\"other/tensors,"
      "format=static,num_tensors=%u,framerate=30/1,dimensions=(string)"
      "\\\"%s\\\",types=(string)\\\"%s\\\"\"", N, dims->str,
      tys->str);
  /* tensor_transform cannot give more than 16 tensors (it maps the 16th
   * memory for reading while it writes it), but tensor_demux reads them:
   * tensors 15 and 19 through cudatranspose then tensor_demux, against
   * tensor_demux then tensor_transform */
  for (o = 0; o < G_N_ELEMENTS (orders); o++) {
    GString *ours = g_string_new (NULL), *theirs = g_string_new (NULL);
    gchar *what = g_strdup_printf ("%u tensors by %s, demuxed", N, orders[o]);
    Run ra, rb;

    g_string_printf (ours, "%s ! cudatranspose permutation=%s ! "
        "tensor_demux name=d", head, orders[o]);
    g_string_printf (theirs, "%s ! tensor_demux name=d", head);
    for (i = 0; i < N; i++) {
      gint sink = i == 15 ? 0 : i == 19 ? 1 : -1;
      gchar *to = sink < 0 ? g_strdup ("fakesink") :
          g_strdup_printf ("appsink name=sink%d", sink);

      g_string_append_printf (ours, " d.src_%u ! queue ! %s", i, to);
      if (sink < 0)
        g_string_append_printf (theirs, " d.src_%u ! queue ! fakesink", i);
      else
        g_string_append_printf (theirs, " d.src_%u ! queue ! "
            "tensor_transform mode=transpose option=%s ! %s", i, orders[o],
            to);
      g_free (to);
    }
    run (ours->str, in, NULL, FRAMES, &ra);
    run (theirs->str, in, NULL, FRAMES, &rb);
    assert_same_runs (&ra, &rb, what, FRAMES);
    run_clear (&ra);
    run_clear (&rb);
    g_string_free (ours, TRUE);
    g_string_free (theirs, TRUE);
    g_free (what);
  }
  free_buffers (in, FRAMES);
  g_free (head);
  g_free (x);
  g_string_free (dims, TRUE);
  g_string_free (tys, TRUE);
}

GST_END_TEST;

/* Video through tensor_converter, into tensor_decoder (direct_video: the
 * image transposed, 0:2:1:3) and into tensor_sink. */
GST_START_TEST (test_converter_decoder_sink)
{
  GstVideoInfo info;
  GstBuffer *in[FRAMES];
  guint i;
  const gchar *head = "appsrc name=src0 format=time caps=\"video/x-raw,"
      "format=RGB,width=12,height=7,framerate=30/1\" ! tensor_converter";
  const gchar *head_video_nns = "appsrc name=src0 format=time caps=\""
      "video/x-raw,format=RGB,width=12,height=7,framerate=30/1\" ! "
      "tensor_converter ! tensor_transform mode=transpose option=1:2:0:3 ! "
      "other/tensor ! appsink name=sink0";

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 12, 7);
  for (i = 0; i < FRAMES; i++) {
    in[i] = ct_check_make_frame (&info, 0);
    GST_BUFFER_PTS (in[i]) = gst_util_uint64_scale (i, GST_SECOND, 30);
  }
  compare (head, "permutation=1:2:0:3", "1:2:0:3", "appsink name=sink0", in,
      NULL, FRAMES, "video through tensor_converter to CHW");
  compare (head, "permutation=0:2:1:3", "0:2:1:3",
      "tensor_decoder mode=direct_video ! appsink name=sink0", in, NULL,
      FRAMES, "the image transposed, into tensor_decoder");
  compare (head, "", "1:0:2:3", "tensor_sink name=sink0", in, NULL, FRAMES,
      "into tensor_sink");

  /* video straight to a CHW other/tensor: the element alone against
   * tensor_converter and tensor_transform */
  {
    Run ra, rb;

    run ("appsrc name=src0 format=time caps=\"video/x-raw,format=RGB,"
        "width=12,height=7,framerate=30/1\" ! cudatranspose ! other/tensor ! "
        "appsink name=sink0", in, NULL, FRAMES, &ra);
    run (head_video_nns, in, NULL, FRAMES, &rb);
    assert_same_runs (&ra, &rb, "video to a CHW other/tensor", FRAMES);
    fail_unless (gst_structure_has_name (gst_caps_get_structure (ra.caps[0],
                0), "other/tensor"));
    run_clear (&ra);
    run_clear (&rb);
  }
  free_buffers (in, FRAMES);
}

GST_END_TEST;

/* Flexible tensors: from tensor_converter, and from a stream whose sizes
 * change with every buffer (two tensors each); our output read back by
 * tensor_converter into static tensors. */
GST_START_TEST (test_flexible)
{
  GstVideoInfo info;
  GstBuffer *in[FRAMES];
  guint i, o;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 10, 5);
  for (i = 0; i < FRAMES; i++) {
    in[i] = ct_check_make_frame (&info, 0);
    GST_BUFFER_PTS (in[i]) = gst_util_uint64_scale (i, GST_SECOND, 30);
  }
  compare ("appsrc name=src0 format=time caps=\"video/x-raw,format=RGB,"
      "width=10,height=5,framerate=30/1\" ! tensor_converter ! "
      "other/tensors,format=flexible", "permutation=1:2:0:3", "1:2:0:3",
      "appsink name=sink0", in, NULL, FRAMES, "flexible from video");
  compare ("appsrc name=src0 format=time caps=\"video/x-raw,format=RGB,"
      "width=10,height=5,framerate=30/1\" ! tensor_converter ! "
      "other/tensors,format=flexible", "", "1:0:2:3",
      "tensor_converter ! appsink name=sink0", in, NULL, FRAMES,
      "flexible back to static through tensor_converter");
  free_buffers (in, FRAMES);

  for (o = 0; o < G_N_ELEMENTS (orders); o++) {
    gchar *prop = g_strdup_printf ("permutation=%s", orders[o]);
    gchar *what = g_strdup_printf ("flexible sizes changing, by %s",
        orders[o]);

    for (i = 0; i < FRAMES; i++) {
      /* uint8 (5) and float32 (7) tensors of rank 3 and 4 */
      guint d0[4] = { 3 + 2 * i, 5, 7 + i, 1 }, d1[4] = { 2, 9 - 2 * i, 3, 2 };
      guint8 h[2][CT_CHECK_NNS_HEADER];
      gsize sizes[2] = { d0[0] * d0[1] * d0[2],
        4 * d1[0] * d1[1] * d1[2] * d1[3]
      };

      ct_check_nns_write_meta (h[0], 0xfeedcced, 5, d0, 3, 1);
      ct_check_nns_write_meta (h[1], 0xfeedcced, 7, d1, 4, 1);
      in[i] = random_buffer (sizes, 2, h, i);
    }
    compare ("appsrc name=src0 format=time caps=\"other/tensors,"
        "format=flexible,framerate=30/1\"", prop, orders[o],
        "appsink name=sink0", in, NULL, FRAMES, what);
    free_buffers (in, FRAMES);
    g_free (prop);
    g_free (what);
  }
}

GST_END_TEST;

/* Sparse tensors are refused, and the error says to densify them. */
GST_START_TEST (test_sparse_refused)
{
  gsize size = 64;
  GstBuffer *in = random_buffer (&size, 1, NULL, 0);
  Run r;

  run ("appsrc name=src0 format=time caps=\"other/tensors,format=sparse,"
      "framerate=30/1\" ! cudatranspose ! appsink name=sink0", &in, NULL, 1,
      &r);
  fail_unless (r.error != NULL, "sparse tensors were not refused");
  fail_unless (strstr (r.error, "tensor_sparse_dec") != NULL, "the error "
      "does not say how to densify: %s", r.error);
  fail_unless_equals_int (r.out[0]->len, 0);
  run_clear (&r);
  gst_buffer_unref (in);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Arithmetic                                                               */

/* Options of NNStreamer's users on uint8 video, to float32 or float64:
 * neither a denormal nor a value out of range can arise, so NNStreamer's
 * ORC path (its default) must give the bytes its C path gives. */
static const gchar *const float_options[] = {
  "typecast:float32,add:-127.5,div:127.5",
  "typecast:float32,per-channel:true@0,add:-123.68@0,add:-116.78@1,"
      "add:-103.94@2,div:58.4",
  "typecast:float32,mul:0.00392156862745098",
  "typecast:float64,add:-127.5,div:127.5",
  "typecast:float64,per-channel:true@0,add:-123.68@0,add:-116.78@1,"
      "add:-103.94@2,div:58.4",
};

/* And ones that wrap, which only the C path runs as written. */
static const gchar *const wrapping_options[] = {
  "typecast:int16,mul:3,add:-300",
  "add:100",
  "typecast:int8,per-channel:true@0,mul:-3@1,add:7",
};

/* "cudatranspose arithmetic=@option" on random RGB frames (67 wide: rows
 * padded), on the GPU where there is one, against tensor_converter, tensor_transform
 * mode=arithmetic (with @accel) and the transpose to CHW. */
static void
compare_video_arith (GstBuffer ** in, const gchar * option, gboolean accel)
{
  const gchar *head = "appsrc name=src0 format=time caps=\"video/x-raw,"
      "format=RGB,width=67,height=35,framerate=30/1\"";
  gchar *ours = g_strdup_printf ("%s ! cudatranspose "
      "arithmetic=%s ! other/tensors,format=static ! appsink name=sink0",
      head, option);
  gchar *theirs = g_strdup_printf ("%s ! tensor_converter ! tensor_transform "
      "mode=arithmetic option=%s acceleration=%s ! tensor_transform "
      "mode=transpose option=1:2:0:3 ! appsink name=sink0", head, option,
      accel ? "true" : "false");
  gchar *what = g_strdup_printf ("RGB 67x35 to CHW, %s, acceleration=%s",
      option, accel ? "true" : "false");

  compare_lines (ours, theirs, in, NULL, FRAMES, what);
  g_free (what);
  g_free (theirs);
  g_free (ours);
}

/* Video to CHW tensors with arithmetic: every option against NNStreamer's
 * C path, the float ones against its ORC path too. */
GST_START_TEST (test_arith_video)
{
  GstVideoInfo info;
  GstBuffer *in[FRAMES];
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 67, 35);
  for (i = 0; i < FRAMES; i++)
    in[i] = random_buffer (&info.size, 1, NULL, i);
  for (i = 0; i < G_N_ELEMENTS (float_options); i++) {
    compare_video_arith (in, float_options[i], FALSE);
    compare_video_arith (in, float_options[i], TRUE);
  }
  for (i = 0; i < G_N_ELEMENTS (wrapping_options); i++)
    compare_video_arith (in, wrapping_options[i], FALSE);
  free_buffers (in, FRAMES);
}

GST_END_TEST;

/* @option on random 3:5:4:2 tensors of type @in: tensor_transform
 * mode=arithmetic (with @accel) against cudatranspose kernel=cpu with the
 * permutation that moves nothing (the CPU: floats of any bits, NaN
 * included, whose payload the GPU makes its own; test-kernels holds the
 * GPU to the same model). */
static void
compare_tensor_arith (const CtCheckNnsType * in, const gchar * option,
    gboolean accel)
{
  gsize size = in->size * 3 * 5 * 4 * 2;
  GstBuffer *bufs[FRAMES];
  gchar *head, *ours, *theirs, *what;
  guint i;

  for (i = 0; i < FRAMES; i++)
    bufs[i] = random_buffer (&size, 1, NULL, i);
  head = g_strdup_printf ("appsrc name=src0 format=time caps=\""
      "other/tensors,format=static,num_tensors=1,framerate=30/1,"
      "dimensions=(string)3:5:4:2,types=(string)%s\"", in->name);
  ours = g_strdup_printf ("%s ! cudatranspose kernel=cpu "
      "permutation=0:1:2:3 arithmetic=%s ! appsink name=sink0", head, option);
  theirs = g_strdup_printf ("%s ! tensor_transform mode=arithmetic "
      "option=%s acceleration=%s ! appsink name=sink0", head, option,
      accel ? "true" : "false");
  what = g_strdup_printf ("%s 3:5:4:2, %s, acceleration=%s", in->name,
      option, accel ? "true" : "false");
  compare_lines (ours, theirs, bufs, NULL, FRAMES, what);
  g_free (what);
  g_free (theirs);
  g_free (ours);
  g_free (head);
  free_buffers (bufs, FRAMES);
}

/* Every pair of types (float16 aside: the element refuses it), without a
 * typecast too, scalar and per channel, on random bytes (floats of any
 * bits: NaN, infinities, out of every integer's range), against
 * NNStreamer's C path; integers to float32 and float64, normalized,
 * against its ORC path too. */
GST_START_TEST (test_arith_type_pairs)
{
  static const gchar *const ints[] = { "uint8", "int8", "uint16", "int16" };
  guint in, out, k;

  for (in = 0; in < ct_check_n_nns_types; in++) {
    if (g_str_equal (ct_check_nns_types[in].name, "float16"))
      continue;
    for (out = 0; out <= ct_check_n_nns_types; out++) {
      const gchar *to = out < ct_check_n_nns_types ?
          ct_check_nns_types[out].name : NULL;
      gchar *cast = to ? g_strdup_printf ("typecast:%s,", to) : g_strdup ("");
      gchar *options[2];

      if (to && g_str_equal (to, "float16")) {
        g_free (cast);
        continue;
      }
      options[0] = g_strdup_printf ("%sadd:3,mul:2.5,div:-3,add:-1.5e1",
          cast);
      options[1] = g_strdup_printf ("%sper-channel:true@0,add:5@0,mul:3@1,"
          "div:2.0@2,add:-7", cast);
      for (k = 0; k < 2; k++) {
        compare_tensor_arith (&ct_check_nns_types[in], options[k], FALSE);
        g_free (options[k]);
      }
      g_free (cast);
    }
  }
  for (in = 0; in < ct_check_n_nns_types; in++)
    for (k = 0; k < G_N_ELEMENTS (ints); k++)
      if (g_str_equal (ct_check_nns_types[in].name, ints[k]))
        for (out = 0; out < G_N_ELEMENTS (float_options); out++)
          compare_tensor_arith (&ct_check_nns_types[in], float_options[out],
              TRUE);
}

GST_END_TEST;

static Suite *
interop_suite (void)
{
  Suite *s = suite_create ("nnstreamer");
  TCase *tc = tcase_create ("interop");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_types_ranks_orders);
  tcase_add_test (tc, test_rank_kept);
  tcase_add_test (tc, test_several_tensors);
  tcase_add_test (tc, test_more_than_16);
  tcase_add_test (tc, test_converter_decoder_sink);
  tcase_add_test (tc, test_flexible);
  tcase_add_test (tc, test_sparse_refused);
  tcase_add_test (tc, test_arith_video);
  tcase_add_test (tc, test_arith_type_pairs);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *why;
  int failed;

  gst_check_init (&argc, &argv);
  why = find_nnstreamer (argv);
  if (why) {
    printf ("SKIP: %s\n", why);
    g_free (why);
    return 77;
  }
  /* NNStreamer's tensor_decoder warns of its own caps query, whoever is
   * upstream (a warning fails a gst-check test) */
  gst_check_add_log_filter (NULL, G_LOG_LEVEL_WARNING,
      g_regex_new ("^GstCaps is not fixed\\.$", 0, 0, NULL), NULL, NULL,
      NULL);
  ct_check_seed ();
  failed = gst_check_run_suite (interop_suite (), "nnstreamer",
      __FILE__);
  return failed ? 1 : 0;
}
