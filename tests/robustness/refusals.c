/* How the element refuses what it cannot do: once, with its own message,
 * nothing pushed after it, and never by changing the output silently.
 * Caps it refuses (set_caps), values refused at link time that must reach
 * the user as the element's own message, a permutation or a direction
 * changed while playing. Runs
 * on the CPU (kernel=auto falls back without a GPU) and on a GPU host. */
#include "transpose-check.h"

#include <gst/app/gstappsrc.h>
#include <string.h>

/* What went out of the element's source pad: buffers and the serialized
 * events that follow caps (a sink prerolls on them). */
typedef struct
{
  guint buffers, after_caps;
} Pushed;

static GstPadProbeReturn
count_pushed (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Pushed *p = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    g_atomic_int_inc (&p->buffers);
  } else {
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (e) == GST_EVENT_SEGMENT ||
        GST_EVENT_TYPE (e) == GST_EVENT_GAP ||
        GST_EVENT_TYPE (e) == GST_EVENT_EOS)
      g_atomic_int_inc (&p->after_caps);
  }
  return GST_PAD_PROBE_OK;
}

/* An error message's text and debug text, in one string. */
static gchar *
error_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL, *text;

  gst_message_parse_error (msg, &err, &debug);
  text = g_strdup_printf ("%s %s", err->message, debug ? debug : "");
  g_error_free (err);
  g_free (debug);
  return text;
}

/* Runs @desc (an element named "t") to its first error; returns the
 * count of error messages from "t" once the pipeline has stopped (@settle
 * after the first error: whatever else would go wrong, has), and the
 * first one's text in @text, NULL if the first error was not from "t". */
static guint
run_to_error_settled (const gchar * desc, Pushed * pushed, gchar ** text,
    gulong settle)
{
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (p), "t");
  GstPad *src = gst_element_get_static_pad (t, "src");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  guint errors = 0;

  *text = NULL;
  memset (pushed, 0, sizeof (*pushed));
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, count_pushed, pushed, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL, "%s: neither an error nor EOS in 10 s", desc);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s ran", desc);
  if (GST_MESSAGE_SRC (msg) == GST_OBJECT (t))
    *text = error_text (msg);
  /* after the first error, let whatever else would go wrong go wrong,
   * then count the element's */
  g_usleep (settle);
  do {
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (t))
      errors++;
    gst_message_unref (msg);
  } while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (t);
  gst_object_unref (p);
  return errors;
}

static guint
run_to_error (const gchar * desc, Pushed * pushed, gchar ** text)
{
  return run_to_error_settled (desc, pushed, text, 100 * 1000);
}

/* Caps refused in set_caps: one error, however often the base class tries
 * them again, and nothing after it downstream, 100 times over. */
GST_START_TEST (test_refused_caps_once)
{
  guint i;

  for (i = 0; i < 100; i++) {
    Pushed pushed;
    gchar *text;
    guint errors = run_to_error ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=I420,width=64,height=48 ! cudatranspose name=t "
        "permutation=1:2:0:3 ! video/x-raw ! fakesink", &pushed, &text);

    fail_unless_equals_int (errors, 1);
    fail_unless (strstr (text, "permutation") != NULL, "%s", text);
    fail_unless_equals_int (pushed.buffers, 0);
    fail_unless_equals_int (pushed.after_caps, 0);
    g_free (text);
  }
}

GST_END_TEST;

/* The first error (or EOS) on @bus within 10 s: it must be an error from
 * @t saying @says. Its text (g_free it). */
static gchar *
pop_element_error (GstBus * bus, GstElement * t, const gchar * says,
    const gchar * what)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gchar *text;

  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "%s: no error", what);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (t), "%s: the first error "
      "came from %s, not the element", what, GST_MESSAGE_SRC_NAME (msg));
  text = error_text (msg);
  fail_unless (strstr (text, says) != NULL, "%s: \"%s\" does not say "
      "\"%s\"", what, text, says);
  gst_message_unref (msg);
  return text;
}

/* appsrc (@caps) ! cudatranspose @props [! @downstream] ! fakesink, one
 * buffer of @size bytes then EOS (nothing waits): the first error is the
 * element's, saying @says. Its text (g_free it). */
static gchar *
appsrc_to_error (const gchar * caps, const gchar * props,
    const gchar * downstream, gsize size, const gchar * says)
{
  gchar *desc = g_strdup_printf ("appsrc name=src caps=\"%s\" format=time "
      "! cudatranspose name=t %s %s%s ! fakesink", caps, props,
      downstream ? "! " : "", downstream ? downstream : "");
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstElement *src, *t;
  GstBus *bus;
  gchar *text;

  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "?");
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  t = gst_bin_get_by_name (GST_BIN (p), "t");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_new_allocate (NULL,
          size, NULL));
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  text = pop_element_error (bus, t, says, desc);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (desc);
  return text;
}

/* Values a capsfilter before the element would once have refused at link
 * time ("could not link"): the pipeline links, and the element's own
 * message quoting the value reaches the user. */
static void
assert_reason_reaches_user (const gchar * caps, const gchar * property,
    const gchar * says)
{
  g_free (appsrc_to_error (caps, property, NULL, 4096, says));
}

GST_START_TEST (test_link_time_reasons)
{
  GString *dims = g_string_new (NULL), *types = g_string_new (NULL);
  gchar *many;
  guint i;

  /* an invalid permutation: said when set, refused when starting */
  ASSERT_WARNING (assert_reason_reaches_user ("other/tensors,"
          "format=static,num_tensors=1,dimensions=3:4:1:1,types=uint8,"
          "framerate=0/1", "permutation=1:1:0:3", "\"1:1:0:3\""));
  /* a trailing comma in the dimensions */
  assert_reason_reaches_user ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)\\\"3:4,\\\",types=uint8,framerate=0/1", "",
      "3:4,");
  /* more than 256 tensors */
  for (i = 0; i < 300; i++) {
    g_string_append_printf (dims, "%s2:2", i ? "," : "");
    g_string_append_printf (types, "%suint8", i ? "," : "");
  }
  many = g_strdup_printf ("other/tensors,format=static,num_tensors=300,"
      "dimensions=(string)\\\"%s\\\",types=(string)\\\"%s\\\","
      "framerate=0/1", dims->str, types->str);
  assert_reason_reaches_user (many, "", "more than the 256");
  g_free (many);
  g_string_free (dims, TRUE);
  g_string_free (types, TRUE);
}

GST_END_TEST;

/* Pushes one 3:5:7:1 uint8 tensor of random bytes through @h and returns
 * the output, checked to be the input permuted by @perm. */
static void
push_permuted (GstHarness * h, const guint perm[4], const gchar * what)
{
  const guint dims[4] = { 3, 5, 7, 1 };
  guint o[4], j[4], i[4], k;
  GstBuffer *in = gst_buffer_new_allocate (NULL, 3 * 5 * 7, NULL), *out;
  GstMapInfo im, om;
  GstCaps *caps;
  gchar *want;

  fail_unless (gst_buffer_map (in, &im, GST_MAP_WRITE));
  for (k = 0; k < im.size; k++)
    im.data[k] = (guint8) (ct_check_random () >> 7) | 1;
  gst_buffer_unmap (in, &im);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);
  for (k = 0; k < 4; k++)
    o[k] = dims[perm[k]];
  want = g_strdup_printf ("%u:%u:%u", o[0], o[1], o[2]);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (strstr (gst_structure_get_string (gst_caps_get_structure
              (caps, 0), "dimensions"), want) != NULL, "%s: caps %s are not %s",
      what, gst_caps_to_string (caps), want);
  fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  fail_unless_equals_int (om.size, im.size);
  for (j[2] = 0; j[2] < o[2]; j[2]++)
    for (j[1] = 0; j[1] < o[1]; j[1]++)
      for (j[0] = 0; j[0] < o[0]; j[0]++) {
        for (k = 0; k < 3; k++)
          i[perm[k]] = j[k];
        fail_unless_equals_int (om.data[(j[2] * o[1] + j[1]) * o[0] + j[0]],
            im.data[(i[2] * dims[1] + i[1]) * dims[0] + i[0]]);
      }
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (want);
}

/* permutation while playing: a valid one applies from the next buffer,
 * renegotiating; an invalid one is refused with a warning and the stream
 * goes on as it was; the property says it may change while playing. */
GST_START_TEST (test_permutation_while_playing)
{
  static const guint a[4] = { 1, 2, 0, 3 }, b[4] = { 2, 0, 1, 3 };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose permutation=1:2:0:3",
      &bus);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (h->element), "permutation");
  gchar *text, *now = NULL;
  gboolean said;

  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  gst_harness_set_src_caps_str (h, "other/tensors,format=static,"
      "num_tensors=1,dimensions=3:5:7:1,types=uint8,framerate=0/1");
  push_permuted (h, a, "1:2:0:3");
  g_object_set (h->element, "permutation", "2:0:1:3", NULL);
  push_permuted (h, b, "2:0:1:3, set while playing");
  ASSERT_WARNING (g_object_set (h->element, "permutation", "0:0:1:3",
          NULL));
  /* (without a GPU, the CPU fallback's warning comes first) */
  do {
    text = ct_check_pop_message_text (bus, GST_MESSAGE_WARNING);
    fail_unless (text != NULL, "no warning about the permutation");
    said = strstr (text, "0:0:1:3") != NULL;
    if (said)
      fail_unless (strstr (text, "goes on with permutation=\"2:0:1:3\"") !=
          NULL, "%s", text);
    g_free (text);
  } while (!said);
  g_object_get (h->element, "permutation", &now, NULL);
  fail_unless_equals_string (now, "2:0:1:3");
  g_free (now);
  push_permuted (h, b, "2:0:1:3 after an invalid one");
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR),
      0);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* Interlaced video whose direction changes while playing to one that
 * would break its fields (vert, 180, where no renegotiation happens): an
 * error saying so, the same as at negotiation, and no flipped frame. */
GST_START_TEST (test_interlaced_direction_change)
{
  static const struct
  {
    GstVideoOrientationMethod from, to;
  } changes[] = {
    {GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_VERT},
    {GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_180},
    {GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_180},
    {GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_VERT},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (changes); c++) {
    GstBus *bus;
    GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);
    GstCaps *caps = ct_check_caps (GST_VIDEO_FORMAT_I420, 16, 12);
    GstVideoInfo info;
    GstBuffer *in, *out;
    gchar *text;

    gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING,
        "interleaved", NULL);
    fail_unless (gst_video_info_from_caps (&info, caps));
    g_object_set (h->element, "video-direction", changes[c].from, NULL);
    gst_harness_set_src_caps (h, caps);
    in = ct_check_make_frame (&info, 0);
    ct_check_push_one (h, in);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    ct_check_assert_oriented (&info, in, out, changes[c].from, "before");
    gst_buffer_unref (out);

    g_object_set (h->element, "video-direction", changes[c].to, NULL);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_ERROR);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
    fail_unless (strstr (text, "Interlaced") != NULL && strstr (text,
            "Deinterlace") != NULL, "%s", text);
    g_free (text);
    gst_buffer_unref (in);
    ct_check_harness_free (h, bus);
  }
}

GST_END_TEST;

/* An error's @text (freed here) must be short enough to read. */
static void
assert_short (gchar * text, const gchar * what)
{
  fail_unless (strlen (text) < 2000, "%s: %u characters", what,
      (guint) strlen (text));
  g_free (text);
}

/* What once ended with the generic "negotiation problem" or the source's
 * not-negotiated, each the element's own error now: flexible tensors
 * where downstream wants static ones, a field in each buffer
 * (interlace-mode=alternate), CUDA memory for frames it cannot hold whole,
 * a setting changed while playing that
 * downstream cannot take; and a 10,000-character value is quoted by its
 * start, not twice in full. */
GST_START_TEST (test_reasons_reach_the_user)
{
  static const struct
  {
    const gchar *caps, *props, *downstream, *says;
  } cases[] = {
    {"other/tensors,format=flexible,framerate=0/1", "",
        "other/tensors,format=static", "Flexible tensors go out flexible"},
    {"video/x-raw(format:Interlaced),format=I420,width=64,height=48,"
          "interlace-mode=alternate,framerate=0/1", "", "video/x-raw",
        "interlace-mode=alternate"},
    /* CUDA memory asked for what it cannot hold whole: transposed, the
     * output is 33 wide (packed 4:2:2) or 33 high (NV21, from 1.24 on) */
    {"video/x-raw,format=YUY2,width=32,height=33,framerate=0/1", "",
        "video/x-raw(memory:CUDAMemory)", "YUY2 frames of odd width"},
#if GST_CHECK_VERSION (1, 24, 0)
    {"video/x-raw,format=NV21,width=33,height=32,framerate=0/1", "",
        "video/x-raw(memory:CUDAMemory)", "NV21 frames of odd height"},
#endif
    /* tensors in CUDA memory: whole 4-byte words only (33 x 17 x 3
     * bytes are not) */
    {"video/x-raw,format=RGB,width=33,height=17,framerate=0/1", "",
          "other/tensors(memory:CUDAMemory)",
        "this is 1 tensor of 1683 bytes"},
  };
  GString *long_arith = g_string_new ("typecast:float32");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    assert_short (appsrc_to_error (cases[i].caps, cases[i].props,
            cases[i].downstream, 4608, cases[i].says), cases[i].caps);
  }

  /* 2,000 operations (more than run): refused when starting, quoted by
   * the start */
  for (i = 0; i < 2000; i++)
    g_string_append (long_arith, ",add:1");
  {
    GstElement *p = gst_parse_launch ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=RGB,width=8,height=6 ! cudatranspose name=t ! "
        "other/tensors ! fakesink", NULL);
    GstElement *t = gst_bin_get_by_name (GST_BIN (p), "t");
    GstBus *bus = gst_element_get_bus (p);

    ASSERT_WARNING (g_object_set (t, "arithmetic", long_arith->str, NULL));
    gst_element_set_state (p, GST_STATE_PLAYING);
    assert_short (pop_element_error (bus, t, "typecast:float32,add:1,add:1",
            "a long arithmetic"), "a long arithmetic");
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (t);
    gst_object_unref (p);
  }
  g_string_free (long_arith, TRUE);
}

GST_END_TEST;

/* A direction set while playing that downstream cannot take (the caps
 * after the element are fixed to the frame's size): the element's error,
 * naming the setting, not the source's not-negotiated. */
GST_START_TEST (test_change_downstream_refuses)
{
  GstElement *p = gst_parse_launch ("videotestsrc is-live=true "
      "pattern=snow ! video/x-raw,format=GRAY8,width=16,height=8,"
      "framerate=100/1 ! cudatranspose name=t video-direction=180 ! "
      "video/x-raw,width=16,height=8 ! fakesink", NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (p), "t");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;

  gst_element_set_state (p, GST_STATE_PLAYING);
  /* playing, frames out */
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ASYNC_DONE);
  gst_message_unref (msg);
  g_object_set (t, "video-direction", GST_VIDEO_ORIENTATION_90R, NULL);
  assert_short (pop_element_error (bus, t, "changed while playing",
          "90r on 16x8 fixed downstream"), "90r on 16x8 fixed downstream");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (p);
}

GST_END_TEST;

/* Each refusal 200 times on a watched bus (as an application watches it:
 * gst-launch-1.0 can lose its own quit on an early error, with stock
 * elements too, so its exit proves nothing), the CPU kept busy: every run
 * gets the element's one error first, saying why, and nothing goes
 * downstream. */
GST_START_TEST (test_refusals_under_load)
{
  const struct
  {
    const gchar *desc, *says;
  } refusals[] = {
    /* a permutation on video that goes out as video */
    {"videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,"
          "height=48 ! cudatranspose name=t permutation=1:2:0:3 ! "
          "video/x-raw ! fakesink", "permutation"},
    /* hostile tensor caps: a trailing comma in the dimensions */
    {"filesrc location=/dev/zero num-buffers=1 blocksize=12 ! "
          "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)\"3:4,\",types=uint8,framerate=0/1 ! "
          "cudatranspose name=t ! fakesink", "3:4,"},
    /* interlaced video with a direction that swaps the axes */
    {"videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,"
          "height=48,interlace-mode=interleaved ! cudatranspose name=t "
          "video-direction=90r ! fakesink", "Deinterlace"},
    /* arithmetic that cannot apply: float16 has none */
    {"filesrc location=/dev/zero num-buffers=1 blocksize=48 ! "
          "other/tensors,format=static,num_tensors=1,dimensions=2:3:4:1,"
          "types=float16,framerate=0/1 ! cudatranspose name=t "
          "arithmetic=typecast:float32,div:2.0 ! fakesink", "float16"},
    /* a format taken only into tensors, with video downstream: the source
     * (fixed to it) gets it in the caps query, last, to hear why */
    {"videotestsrc num-buffers=2 ! video/x-raw,format=Y42B,width=64,"
          "height=48 ! cudatranspose name=t video-direction=90r ! "
          "video/x-raw ! fakesink", "goes out only as a tensor"},
  };
  GThread *spinners[2];
  gint stop = 0;
  guint i, k;

  for (k = 0; k < G_N_ELEMENTS (spinners); k++)
    spinners[k] = g_thread_new ("spin", ct_check_spin, &stop);
  for (k = 0; k < G_N_ELEMENTS (refusals); k++) {
    for (i = 0; i < 200; i++) {
      Pushed pushed;
      gchar *text;
      guint errors = run_to_error_settled (refusals[k].desc, &pushed,
          &text, 5 * 1000);

      fail_unless (text != NULL, "%s, run %u: the first error was not the "
          "element's", refusals[k].desc, i);
      fail_unless_equals_int (errors, 1);
      fail_unless (strstr (text, refusals[k].says) != NULL, "%s: %s",
          refusals[k].desc, text);
      fail_unless_equals_int (pushed.buffers, 0);
      g_free (text);
    }
  }
  g_atomic_int_set (&stop, 1);
  for (k = 0; k < G_N_ELEMENTS (spinners); k++)
    g_thread_join (spinners[k]);
}

GST_END_TEST;

static Suite *
refusals_suite (void)
{
  Suite *s = suite_create ("refusals");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_refused_caps_once);
  tcase_add_test (tc, test_link_time_reasons);
  tcase_add_test (tc, test_permutation_while_playing);
  tcase_add_test (tc, test_interlaced_direction_change);
  tcase_add_test (tc, test_reasons_reach_the_user);
  tcase_add_test (tc, test_change_downstream_refuses);
  tcase_add_test (tc, test_refusals_under_load);
  tcase_set_timeout (tc, 600);
  return s;
}

GST_CHECK_MAIN (refusals);
