/* cudatranspose on video, on any machine: the CPU kernel on every format
 * and size, the kernel property, caps (swapped sizes, pixel aspect ratio,
 * ranges, CUDA memory, formats refused), round trips, property changes
 * while PLAYING, QoS, bad buffers. The same on a GPU: video-gpu.c. */
#include "transpose-check.h"

#include <string.h>

GST_START_TEST (test_cpu_all_formats)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);

  ct_check_all_formats (h, "cpu");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The kernel property's values as users write them, in value order, each
 * with a description (what gst-inspect shows); the default is auto. */
GST_START_TEST (test_kernel_property_values)
{
  static const gchar *want[] = { "auto", "naive", "naive-column", "tiled",
    "tiled-padded", "rect", "rect-padded", "tiled-64", "wide", "wide-padded",
    "wide-swizzle", "cpu"
  };
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "kernel");
  GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  const gchar *const *nicks;
  guint i, n;

  nicks = ct_check_kernel_nicks (FALSE, &n);
  fail_unless_equals_int (n, G_N_ELEMENTS (want));
  fail_unless_equals_int (klass->n_values, G_N_ELEMENTS (want));
  for (i = 0; i < G_N_ELEMENTS (want); i++) {
    fail_unless_equals_string (nicks[i], want[i]);
    fail_unless_equals_int (klass->values[i].value, i);
    fail_unless (strlen (klass->values[i].value_name) > 10, "%s: \"%s\"",
        want[i], klass->values[i].value_name);
  }
  fail_unless_equals_string (g_enum_get_value (klass,
          G_PARAM_SPEC_ENUM (pspec)->default_value)->value_nick, "auto");
  /* the GPU kernels: all but cpu */
  nicks = ct_check_kernel_nicks (TRUE, &n);
  fail_unless_equals_int (n, G_N_ELEMENTS (want) - 1);
  for (i = 0; i < n; i++)
    fail_unless_equals_string (nicks[i], want[i]);

  /* active-kernel names paths: none before the first buffer, and every
   * variant but auto is a path of the same name */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "active-kernel");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec));
  klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  fail_unless_equals_string (g_enum_get_value (klass,
          G_PARAM_SPEC_ENUM (pspec)->default_value)->value_nick, "none");
  for (i = 1; i < G_N_ELEMENTS (want); i++)
    fail_unless (g_enum_get_value_by_nick (klass, want[i]) != NULL,
        "no path %s", want[i]);
  fail_unless (g_enum_get_value_by_nick (klass, "auto") == NULL);
  for (i = 0; i < klass->n_values; i++)
    fail_unless (strlen (klass->values[i].value_name) > 10, "%s: \"%s\"",
        klass->values[i].value_nick, klass->values[i].value_name);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_caps_swap_and_par)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  GstCaps *caps;
  GstStructure *s;
  gint w, hh, n, d;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=I420,width=640,"
      "height=360,pixel-aspect-ratio=4/3,framerate=25/1");
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_I420, 640, 360, 0, "caps");

  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &hh));
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless_equals_int (w, 360);
  fail_unless_equals_int (hh, 640);
  fail_unless_equals_int (n, 3);
  fail_unless_equals_int (d, 4);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (n, 25);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The output colorimetry of @in_caps' frames through cudatranspose
 * (g_free it). */
static gchar *
output_colorimetry (const gchar * in_caps, gint width, gint height)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  GstCaps *caps;
  gchar *c;

  gst_harness_set_src_caps_str (h, in_caps);
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_I420, width, height, 0,
      in_caps);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  c = g_strdup (gst_structure_get_string (gst_caps_get_structure (caps, 0),
          "colorimetry"));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  return c;
}

/* A frame's colours stay: caps without a colorimetry leave GStreamer to
 * guess it from the size (640x360: BT.601; 360x640: BT.709), so the
 * output says the input's; one the input says is kept. */
GST_START_TEST (test_colorimetry_kept)
{
  gchar *c = output_colorimetry ("video/x-raw,format=I420,width=640,"
      "height=360,framerate=30/1", 640, 360);

  fail_unless_equals_string (c, "bt601");
  g_free (c);
  c = output_colorimetry ("video/x-raw,format=I420,width=360,height=640,"
      "framerate=30/1", 360, 640);
  fail_unless_equals_string (c, "bt709");
  g_free (c);
  c = output_colorimetry ("video/x-raw,format=I420,width=640,height=360,"
      "colorimetry=bt709,framerate=30/1", 640, 360);
  fail_unless_equals_string (c, "bt709");
  g_free (c);
}

GST_END_TEST;

/* Ranges and lists go through transform_caps swapped, PAR ranges inverted. */
GST_START_TEST (test_caps_ranges)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  GstCaps *caps, *expected;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8,"
      "width=(int)[10,20],height=(int){300,400},"
      "pixel-aspect-ratio=(fraction)[1/3,2/1]");
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  expected = gst_caps_from_string ("video/x-raw,format=GRAY8,"
      "width=(int){300,400},height=(int)[10,20],"
      "pixel-aspect-ratio=(fraction)[1/2,3/1]");
  {
    const gchar *fields[] = { "width", "height", "pixel-aspect-ratio" };
    GstStructure *gs = gst_caps_get_structure (caps, 0);
    GstStructure *es = gst_caps_get_structure (expected, 0);
    gchar *got = gst_caps_to_string (caps);
    guint i;

    fail_unless_equals_int (gst_caps_get_size (caps), 1);
    for (i = 0; i < G_N_ELEMENTS (fields); i++) {
      const GValue *g = gst_structure_get_value (gs, fields[i]);
      fail_unless (g && gst_value_compare (g, gst_structure_get_value (es,
                  fields[i])) == GST_VALUE_EQUAL, "%s in %s", fields[i], got);
    }
    g_free (got);
  }
  gst_caps_unref (expected);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* CUDA memory on either pad, either way round, but only for formats
 * GStreamer 1.22's CUDA allocator knows: it aborts on the others. */
GST_START_TEST (test_cuda_memory_caps)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  GstPad *sink = gst_element_get_static_pad (h->element, "sink");
  GstCaps *caps, *gray_cuda, *gray_sys;
  GstCapsFeatures *f;
  gchar *got;
  guint i;

  gray_cuda = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=GRAY8,width=64,height=32");
  gray_sys = gst_caps_from_string ("video/x-raw,format=GRAY8,width=64,"
      "height=32");
  fail_if (gst_pad_query_accept_caps (sink, gray_cuda));
  fail_unless (gst_pad_query_accept_caps (sink, gray_sys));
  gst_caps_unref (gray_sys);
  gst_caps_unref (gray_cuda);

  /* downstream takes CUDA NV12 or GRAY8; we can only make CUDA NV12, from
   * CUDA (first) or system memory */
  gst_harness_set_sink_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format={GRAY8,NV12},width=32,height=64");
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  got = gst_caps_to_string (caps);
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  f = gst_caps_get_features (caps, 0);
  fail_unless (gst_caps_features_contains (f, "memory:CUDAMemory"), "%s", got);
  f = gst_caps_get_features (caps, 1);
  fail_unless (gst_caps_features_is_equal (f,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY), "%s", got);
  for (i = 0; i < 2; i++) {
    GstStructure *st = gst_caps_get_structure (caps, i);
    gint w = 0, hh = 0;

    fail_unless_equals_string (gst_structure_get_string (st, "format"),
        "NV12");
    fail_unless (gst_structure_get_int (st, "width", &w) &&
        gst_structure_get_int (st, "height", &hh), "%s", got);
    fail_unless (w == 64 && hh == 32, "%s", got);
  }
  g_free (got);
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Formats neither videoflip nor the element takes (NV61, v210; Y42B, NV16
 * and NV24 go only into tensors: test-yuv-tensors), fields as buffers of
 * their own, and audio are refused. */
GST_START_TEST (test_refuses_untransposable_caps)
{
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  const gchar *refused[] = {
    "video/x-raw,format=NV61,width=64,height=32",
    "video/x-raw,format=v210,width=64,height=32",
    "video/x-raw(format:Interlaced),format=I420,width=64,height=32,"
        "interlace-mode=alternate",
    "audio/x-raw,format=S16LE,rate=48000,channels=2",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstCaps *caps = gst_caps_from_string (refused[i]);
    fail_if (gst_pad_query_accept_caps (sink, caps), "accepted %s",
        refused[i]);
    gst_caps_unref (caps);
  }
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_twice_is_identity)
{
  /* (video between them: each would also take the other's tensors) */
  ct_check_round_trip ("cudatranspose kernel=cpu ! video/x-raw ! "
      "cudatranspose",
      GST_VIDEO_FORMAT_NV12, 333, 187);
}

GST_END_TEST;

/* kernel changes while PLAYING take effect from the next buffer. */
GST_START_TEST (test_kernel_change_while_playing)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  gint i;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_RGBA, 97, 45));
  for (i = 0; i < 4; i++) {
    const gchar *want = i % 2 ? "auto" : "cpu";
    gchar *active;

    gst_util_set_object_arg (G_OBJECT (h->element), "kernel", want);
    ct_check_push_and_verify (h, GST_VIDEO_FORMAT_RGBA, 97, 45, 0, "switch");
    active = ct_check_active_kernel (h->element);
    if (i % 2 == 0) {
      fail_unless_equals_string (active, "cpu");
    } else {
      fail_if (g_str_equal (active, "none"),
          "active-kernel must name the path auto took");
    }
    g_free (active);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_short_buffer_is_an_error)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);
  GstBuffer *buf;
  GstMessage *msg;
  GError *err = NULL;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_I420, 64, 48));
  buf = gst_buffer_new_allocate (NULL, 64 * 48, NULL);
  gst_buffer_memset (buf, 0, 0x33, 64 * 48);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (err->domain == GST_STREAM_ERROR);
  gst_message_unref (msg);
  g_error_free (err);

  ct_check_harness_free (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_bad_video_meta_is_an_error)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);
  GstBuffer *buf;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 10 };   /* a row is 64 bytes */

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 64, 48));
  buf = gst_buffer_new_allocate (NULL, 64 * 48, NULL);
  gst_buffer_memset (buf, 0, 0x33, 64 * 48);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 64, 48, 1, offset, stride);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR), 1);

  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* A frame of @info at @pts (40 ms long). */
static GstBuffer *
frame_at (const GstVideoInfo * info, GstClockTime pts)
{
  GstBuffer *in = ct_check_make_frame (info, 0);

  GST_BUFFER_PTS (in) = pts;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  return in;
}

/* QoS is on, as GstVideoFilter has it: after a QOS event saying frames up
 * to a running time would come too late, such frames are dropped (a QOS
 * message says so), and the next frame goes out whole, marked DISCONT. */
GST_START_TEST (test_qos_drops_late_frames)
{
  static const GstClockTime pts[] = {
    0, 200 * GST_MSECOND, 300 * GST_MSECOND, 400 * GST_MSECOND,
    440 * GST_MSECOND,
  };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);
  GstVideoInfo info;
  gboolean qos = FALSE;
  guint i;

  g_object_get (h->element, "qos", &qos, NULL);
  fail_unless (qos, "QoS is off");
  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_I420, 33,
          18));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 33,
          18));
  for (i = 0; i < G_N_ELEMENTS (pts); i++) {
    GstBuffer *in = frame_at (&info, pts[i]), *out;
    gboolean late = pts[i] > 0 && pts[i] <= 300 * GST_MSECOND;

    if (i == 1) {
      /* the frame of 100 ms was 200 ms late downstream */
      fail_unless (gst_harness_push_upstream_event (h,
              gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0,
                  200 * GST_MSECOND, 100 * GST_MSECOND)));
    }
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    if (late) {
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    } else {
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts[i]);
      ct_check_assert_transposed (&info, in, out, "after QoS");
      /* only the first frame after the gap is marked */
      fail_unless (GST_BUFFER_IS_DISCONT (out) == (i == 3),
          "frame at %" GST_TIME_FORMAT ": DISCONT %s", GST_TIME_ARGS (pts[i]),
          GST_BUFFER_IS_DISCONT (out) ? "set" : "not set");
      gst_buffer_unref (out);
    }
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_QOS), 2);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

static Suite *
video_suite (void)
{
  Suite *s = suite_create ("video");
  TCase *tc = tcase_create ("video");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cpu_all_formats);
  tcase_add_test (tc, test_kernel_property_values);
  tcase_add_test (tc, test_caps_swap_and_par);
  tcase_add_test (tc, test_colorimetry_kept);
  tcase_add_test (tc, test_caps_ranges);
  tcase_add_test (tc, test_refuses_untransposable_caps);
  tcase_add_test (tc, test_cuda_memory_caps);
  tcase_add_test (tc, test_twice_is_identity);
  tcase_add_test (tc, test_kernel_change_while_playing);
  tcase_add_test (tc, test_qos_drops_late_frames);
  tcase_add_test (tc, test_short_buffer_is_an_error);
  tcase_add_test (tc, test_bad_video_meta_is_an_error);
  return s;
}

GST_CHECK_MAIN (video);
