/* The live test's threads around the stream (settings, running
 * settings, queries and navigation, flush-seeks, a busy CPU) and one run
 * of a pipeline under them. */
#include "live.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  GstElement *pipeline, *element;
  const gchar *factory;         /* cudatranspose or videoflip */
  LiveKind kind;
  Log *log;
  gint stop;
  guint64 rng;
  const gchar *const *kernels;  /* to switch between; NULL: none */
  guint n_kernels;
  /* every disturbance; else (videoflip) none of those videoflip 1.22
   * fails under: identity among the directions (it sets passthrough from
   * the thread that sets the property, and pushes output buffers it never
   * wrote), caps queries from other threads (their transform_caps sets
   * the direction the next frame takes, whatever its caps) */
  gboolean all;
  guint changes, queries, seeks;
} Live;

static guint
rand_below (guint64 * rng, guint n)
{
  return ct_check_next (rng) % n;
}

/* The job settings, at random, each logged before it is set: a frame may
 * come out in it from then on. */
static gpointer
change_settings (gpointer data)
{
  Live *l = data;
  guint64 rng = l->rng ^ 0x51ed;
  Setting s = { GST_VIDEO_ORIENTATION_UL_LR, 0, 0, FALSE };

  /* (a tensor made of video is turned only once video-direction is set) */
  if (!g_str_equal (l->factory, "cudatranspose") ||
      l->kind == LIVE_YUV_TENSOR)
    s.direction = GST_VIDEO_ORIENTATION_IDENTITY;
  live_log_add (l->log, &s);
  while (!g_atomic_int_get (&l->stop)) {
    if (g_getenv ("CT_LIVE_STILL")) {
      g_usleep (1000);
      continue;
    }
    if (l->kind == LIVE_VIDEO || (l->kind == LIVE_YUV_TENSOR &&
            rand_below (&rng, 3) == 0)) {
      s.direction = rand_below (&rng, 8);
      if (!l->all && s.direction == GST_VIDEO_ORIENTATION_IDENTITY)
        s.direction = GST_VIDEO_ORIENTATION_90R;
      live_log_add (l->log, &s);
      /* (method is video-direction by videoflip's old name) */
      g_object_set (l->element, rand_below (&rng, 4) ? "video-direction" :
          "method", s.direction, NULL);
    } else if (l->kind == LIVE_YUV_TENSOR && rand_below (&rng, 2)) {
      s.bgr = !s.bgr;
      live_log_add (l->log, &s);
      g_object_set (l->element, "channel-order", s.bgr, NULL);
    } else if (rand_below (&rng, 2)) {
      s.perm = rand_below (&rng, G_N_ELEMENTS (live_permutations));
      live_log_add (l->log, &s);
      g_object_set (l->element, "permutation", live_permutations[s.perm], NULL);
    } else {
      s.arith = rand_below (&rng, G_N_ELEMENTS (live_arith_options));
      live_log_add (l->log, &s);
      g_object_set (l->element, "arithmetic", live_arith_options[s.arith].option,
          NULL);
    }
    g_atomic_int_inc (&l->changes);
    g_usleep (50 + rand_below (&rng, 450));
  }
  return NULL;
}

/* The settings that need no new job: the kernel and frames-in-flight. */
static gpointer
change_running (gpointer data)
{
  Live *l = data;
  guint64 rng = l->rng ^ 0x7a11;

  /* (videoflip has neither) */
  while (!g_atomic_int_get (&l->stop) && l->n_kernels) {
    gst_util_set_object_arg (G_OBJECT (l->element), "kernel",
        l->kernels[rand_below (&rng, l->n_kernels)]);
    g_object_set (l->element, "frames-in-flight", 1 + rand_below (&rng, 2),
        NULL);
    g_usleep (200 + rand_below (&rng, 2000));
  }
  return NULL;
}

/* Queries and navigation from another thread, as an application or a
 * sink asks them: LATENCY of the pipeline, ACCEPT_CAPS and CAPS of the
 * element's pads, pointer events up through it. */
static gpointer
ask (gpointer data)
{
  Live *l = data;
  GstPad *sink = gst_element_get_static_pad (l->element, "sink");
  GstPad *src = gst_element_get_static_pad (l->element, "src");
  guint64 rng = l->rng ^ 0x9e37;

  while (!g_atomic_int_get (&l->stop)) {
    GstQuery *q = gst_query_new_latency ();
    GstCaps *caps;
    GstStructure *nav;

    gst_element_query (l->pipeline, q);
    gst_query_unref (q);
    caps = l->all ? gst_pad_get_current_caps (sink) : NULL;
    if (caps) {
      (void) gst_pad_query_accept_caps (sink, caps);
      gst_caps_unref (caps);
      caps = gst_pad_query_caps (rand_below (&rng, 2) ? sink : src, NULL);
      gst_caps_unref (caps);
    }
    nav = gst_structure_new ("application/x-gst-navigation", "event",
        G_TYPE_STRING, "mouse-move", "pointer_x", G_TYPE_DOUBLE, 3.0,
        "pointer_y", G_TYPE_DOUBLE, 5.0, NULL);
    gst_pad_send_event (src, gst_event_new_navigation (nav));
    g_atomic_int_inc (&l->queries);
    g_usleep (100 + rand_below (&rng, 300));
  }
  gst_object_unref (sink);
  gst_object_unref (src);
  return NULL;
}

/* Flushing seeks back to the start, now and then. */
static gpointer
seek (gpointer data)
{
  Live *l = data;
  guint64 rng = l->rng ^ 0x5eec;

  while (!g_atomic_int_get (&l->stop) && !g_getenv ("CT_LIVE_NO_SEEK")) {
    g_usleep (100000 + rand_below (&rng, 300000));
    if (g_atomic_int_get (&l->stop))
      break;
    if (gst_element_seek_simple (l->pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH, 0))
      g_atomic_int_inc (&l->seeks);
  }
  return NULL;
}

static guint
live_seconds (void)
{
  const gchar *env = g_getenv ("CT_LIVE_SECONDS");

  return env ? MAX (1, atoi (env)) : 3;
}

/* Runs @desc (a source named "src" of @kind, the element "t", and probe
 * points "in" and "out": the pads frames are read from before and after
 * it) with every thread above for a few seconds, then EOS; checks every
 * frame out. */
void
run_live (const gchar * desc, const gchar * factory, LiveKind kind,
    const GstVideoFormat * formats, guint n_formats,
    const gchar * const *kernels, guint n_kernels, const gchar * what)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err), *src;
  GstElement *in_el, *out_el;
  GstPad *in_pad, *out_pad;
  GThread *threads[5];
  GstBus *bus;
  GstMessage *msg;
  Checker c;
  Live l;
  Log log;
  guint i;

  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "?");
  memset (&l, 0, sizeof (l));
  memset (&c, 0, sizeof (c));
  g_mutex_init (&log.lock);
  log.at = g_new (Setting, MAX_SETTINGS);
  log.n = 0;
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  live_src_configure (src, kind, formats, n_formats);
  l.pipeline = p;
  l.element = gst_bin_get_by_name (GST_BIN (p), "t");
  l.factory = factory;
  l.kind = kind;
  l.log = &log;
  l.rng = ct_check_random ();
  l.kernels = kernels;
  l.n_kernels = n_kernels;
  if (n_kernels && g_getenv ("CT_LIVE_KERNEL")) {
    static const gchar *one[1];

    one[0] = g_getenv ("CT_LIVE_KERNEL");
    l.kernels = one;
    l.n_kernels = 1;
  }
  l.all = !g_str_equal (factory, "videoflip");
  c.kind = kind;
  c.log = &log;
  g_mutex_init (&c.lock);
  c.inputs = g_hash_table_new_full (NULL, NULL, NULL, live_input_free);
  in_el = gst_bin_get_by_name (GST_BIN (p), "in");
  out_el = gst_bin_get_by_name (GST_BIN (p), "out");
  in_pad = gst_element_get_static_pad (in_el, "sink");
  out_pad = gst_element_get_static_pad (out_el, "src");
  gst_pad_add_probe (in_pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_FLUSH, live_input_probe, &c, NULL);
  gst_pad_add_probe (out_pad, GST_PAD_PROBE_TYPE_BUFFER, live_output_probe, &c,
      NULL);

  /* the first setting is logged before anything streams */
  threads[0] = g_thread_new ("change-settings", change_settings, &l);
  while (g_atomic_int_get (&log.n) == 0)
    g_usleep (100);
  bus = gst_element_get_bus (p);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: could not start", what);
  threads[1] = g_thread_new ("change-running", change_running, &l);

  threads[2] = g_thread_new ("ask", ask, &l);
  threads[3] = g_thread_new ("seek", seek, &l);
  /* a busy CPU: the streaming thread and the changes compete with it */
  threads[4] = g_thread_new ("spin", ct_check_spin, &l.stop);

  msg = gst_bus_timed_pop_filtered (bus, live_seconds () * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  g_atomic_int_set (&l.stop, 1);
  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  if (!msg) {
    gst_element_send_event (src, gst_event_new_eos ());
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  }
  fail_unless (msg != NULL, "%s: no EOS in 60 s", what);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GString *warnings = g_string_new (NULL);
    GstMessage *w;
    GError *e = NULL;
    gchar *dbg = NULL;

    /* (which element gave up first: a base transform that failed to
     * renegotiate says so in a warning) */
    while ((w = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
      GError *we = NULL;

      gst_message_parse_warning (w, &we, NULL);
      g_string_append_printf (warnings, "; warning from %s: %s",
          GST_MESSAGE_SRC_NAME (w), we->message);
      g_error_free (we);
      gst_message_unref (w);
    }
    gst_message_parse_error (msg, &e, &dbg);
    fail ("%s: error from %s: %s (%s)%s", what, GST_MESSAGE_SRC_NAME (msg),
        e->message, dbg, warnings->str);
  }
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);

  g_print ("%s: %u frames checked, %u flushed, %u setting changes, %u "
      "queries, %u flush-seeks, %u settings logged\n", what, c.checked,
      c.flushed, l.changes, l.queries, l.seeks, log.n);
  fail_unless (c.failure == NULL, "%s: %s", what, c.failure);
  /* nothing lost: every input since the last flush came out */
  fail_unless_equals_int (g_hash_table_size (c.inputs), 0);
  fail_unless (c.checked >= 20, "%s: only %u frames out", what, c.checked);
  fail_unless (l.changes >= 20 || g_getenv ("CT_LIVE_STILL"), "%s: only %u "
      "changes", what, l.changes);
  if ((kind == LIVE_VIDEO || kind == LIVE_YUV_TENSOR) &&
      !g_getenv ("CT_LIVE_STILL"))
    fail_unless (__builtin_popcount (c.directions_seen) >= 3, "%s: only "
        "directions 0x%x came out", what, c.directions_seen);

  g_hash_table_unref (c.inputs);
  g_mutex_clear (&c.lock);
  g_free (c.failure);
  g_mutex_clear (&log.lock);
  g_free (log.at);
  gst_object_unref (in_pad);
  gst_object_unref (out_pad);
  gst_object_unref (in_el);
  gst_object_unref (out_el);
  gst_object_unref (l.element);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (p);
}

