/* cudatranspose on tensors, on any machine: NNStreamer tensor caps, every
 * type and shape with the CPU kernel, the permutation property, packed RGB
 * video out as tensors, and tensor sizes that must be refused or fail
 * cleanly. The same on a GPU: tensors-gpu.c; the caps module alone:
 * tensor-caps.c. */
#include "transpose-check.h"

#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <string.h>

/* Tensors: every type and shape, one memory per tensor or one for all. */
GST_START_TEST (test_cpu_tensors)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);

  ct_check_all_tensors (h, "cpu tensors");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The output caps swap each tensor's two innermost sizes; the single-tensor
 * other/tensor form too. */
GST_START_TEST (test_tensor_caps)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  GstCaps *caps, *want;
  gchar *got;

  gst_harness_set_sink_caps_str (h, "other/tensors,format=static,"
      "num_tensors=2,dimensions=(string)\"480:3:640:1,7:1\","
      "types=(string)\"uint8,float64\",framerate=30/1");
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  got = gst_caps_to_string (caps);
  want = gst_caps_from_string ("other/tensors,format=static,num_tensors=2,"
      "dimensions=(string)\"3:480:640:1,1:7\",types=(string)\"uint8,float64\","
      "framerate=30/1");
  fail_unless (gst_caps_can_intersect (caps, want), "got %s", got);
  g_free (got);
  gst_caps_unref (want);
  gst_caps_unref (caps);
  gst_harness_teardown (h);

  h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  gst_harness_set_src_caps_str (h, "other/tensor,dimension=(string)3:5:2:1,"
      "type=int32,framerate=0/1");
  {
    CtCheckTensor t = { "3:5:2:1", "int32" };
    ct_check_push_tensors_and_verify (h, &t, 1, FALSE, "other/tensor");
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_structure_get_string (gst_caps_get_structure
          (caps, 0), "dimension"), "5:3:2:1");
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pushes a @size-byte buffer with @caps through "@desc", which must refuse
 * the caps, posting an error whose message says @reason. */
static void
expect_refused (const gchar * desc, const gchar * caps, gsize size,
    const gchar * reason)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new (desc, &bus);
  GstMessage *msg;
  GError *err = NULL;

  gst_harness_set_src_caps_str (h, caps);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              size, NULL)), GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for %s", caps);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, reason) != NULL,
      "%s: message \"%s\" does not say \"%s\"", caps, err->message, reason);
  g_error_free (err);
  gst_message_unref (msg);
  ct_check_harness_free (h, bus);
}

/* Bad tensor caps are refused at negotiation with a reason; a buffer too
 * small for its caps is an error, never a crash. */
GST_START_TEST (test_tensor_bad_input)
{
  const struct
  {
    const gchar *caps;
    const gchar *reason;
  } refused[] = {
    {"other/tensors,format=static,num_tensors=1,dimensions=(string)3:0:2,"
          "types=uint8,framerate=0/1", "size 1"},
    {"other/tensors,format=static,num_tensors=1,dimensions=(string)3:4,"
          "types=complex64,framerate=0/1", "complex64"},
    {"other/tensors,format=static,num_tensors=2,dimensions=(string)3:4,"
          "types=uint8,framerate=0/1", "num_tensors=2"},
    {"other/tensors,format=static,num_tensors=1,dimensions=(string)"
          "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:2,types=uint8,framerate=0/1",
        "17 sizes"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++)
    expect_refused ("cudatranspose kernel=cpu", refused[i].caps, 64,
        refused[i].reason);

  {
    GstBus *bus;
    GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);

    gst_harness_set_src_caps_str (h, "other/tensors,format=static,"
        "num_tensors=1,dimensions=(string)3:640:480:1,types=float32,"
        "framerate=0/1");
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate
            (NULL, 3 * 640 * 480 * 4 - 1, NULL)), GST_FLOW_ERROR);
    fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR),
        1);
    ct_check_harness_free (h, bus);
  }
}

GST_END_TEST;

/* Tensors from appsrc to appsink, as an application feeds them. */
GST_START_TEST (test_tensors_appsrc_appsink)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=\"other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)3:17:4:1,types=uint16,framerate=30/1\" ! "
      "cudatranspose kernel=cpu ! appsink name=sink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstSample *sample;
  GstBuffer *in = gst_buffer_new_allocate (NULL, 3 * 17 * 4 * 2, NULL);
  GstMapInfo im, om;
  guint p, x, y;

  gst_buffer_map (in, &im, GST_MAP_WRITE);
  for (x = 0; x < im.size; x++)
    im.data[x] = g_random_int () & 0xff;
  gst_buffer_unmap (in, &im);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
          gst_buffer_ref (in)), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  fail_unless (sample != NULL);
  fail_unless_equals_string (gst_structure_get_string (gst_caps_get_structure
          (gst_sample_get_caps (sample), 0), "dimensions"), "17:3:4:1");
  fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
  fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &om,
          GST_MAP_READ));
  for (p = 0; p < 4; p++)
    for (y = 0; y < 17; y++)
      for (x = 0; x < 3; x++)
        fail_unless (memcmp (im.data + ((p * 17 + y) * 3 + x) * 2,
                om.data + ((p * 3 + x) * 17 + y) * 2, 2) == 0);
  gst_buffer_unmap (gst_sample_get_buffer (sample), &om);
  gst_buffer_unmap (in, &im);
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_buffer_unref (in);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The permutation property: every order of 4 dimensions, on the CPU. */
GST_START_TEST (test_cpu_permutations)
{
  ct_check_all_permutations ("cudatranspose kernel=cpu");
}

GST_END_TEST;

/* An invalid permutation is kept as set (never silently replaced by
 * another layout) and stops the element from starting, with an error that
 * quotes it; a tensor of rank 5, or video going out as video, refuse a
 * valid one at negotiation. */
GST_START_TEST (test_bad_permutation)
{
  const gchar *bad[] = { "0:0:1:2", "abc", "5:1:2:3", "1:0", "0:1:2:3:4",
    "1:2:0:3:"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
    gchar *got = NULL, *text, *quoted;

    gst_util_set_object_arg (G_OBJECT (e), "kernel", "cpu");
    g_object_set (e, "permutation", "1:2:0:3", NULL);
    /* said when set, kept until the start refuses it */
    ASSERT_WARNING (g_object_set (e, "permutation", bad[i], NULL));
    g_object_get (e, "permutation", &got, NULL);
    fail_unless_equals_string (got, bad[i]);
    g_free (got);

    text = ct_check_start_failure (e);
    quoted = g_strdup_printf ("\"%s\"", bad[i]);
    fail_unless (strstr (text, quoted) != NULL, "%s: %s", bad[i], text);
    fail_unless (strstr (text, "0, 1, 2 and 3") != NULL, "%s: %s", bad[i],
        text);
    g_free (quoted);
    g_free (text);

    /* a valid value (or none) lets it start again */
    g_object_set (e, "permutation", i % 2 ? "" : "2:0:1:3", NULL);
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_object_unref (e);
  }

  {
    const gchar *caps[] = {
      "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)2:3:4:5:6,types=uint8,framerate=0/1",
      "video/x-raw,format=AYUV,width=4,height=2,framerate=0/1",
    };
    const gchar *reason[] = { "rank 5", "applies to tensors" };

    for (i = 0; i < G_N_ELEMENTS (caps); i++)
      expect_refused ("cudatranspose kernel=cpu permutation=1:2:0:3", caps[i],
          720, reason[i]);
  }
}

GST_END_TEST;

/* RGB video going out as a tensor takes the permutation: the frame is the
 * HWC tensor C:W:H:1 (planar: of its plane order), permuted. */
GST_START_TEST (test_cpu_video_to_permuted_tensor)
{
  const guint perms[][4] = {
    {0, 1, 2, 3}, {2, 0, 1, 3}, {1, 0, 2, 3}, {0, 2, 1, 3}, {3, 1, 2, 0},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (perms); i++) {
    gchar *desc = g_strdup_printf ("cudatranspose kernel=cpu "
        "permutation=%u:%u:%u:%u", perms[i][0], perms[i][1], perms[i][2],
        perms[i][3]);

    ct_check_video_to_tensor (desc, perms[i]);
    g_free (desc);
  }
}

GST_END_TEST;

/* Tensor sizes that multiply past 64 bits, or past what a buffer can hold,
 * are refused at negotiation with a message that names the tensor; before,
 * they wrapped to a few bytes and the CPU loop read past the buffer. */
GST_START_TEST (test_tensor_size_overflow)
{
  const gchar *dims[] = {
    "769546:494770:48448661:1", "4:3:65536:65536:65536:65536",
    "4294967295:4294967295:1:1", "65536:65536:65536:65536",
  };
  const gchar *descs[] = { "cudatranspose", "cudatranspose "
        "permutation=1:0:2:3"
  };
  guint i, d;

  for (i = 0; i < G_N_ELEMENTS (dims); i++) {
    for (d = 0; d < G_N_ELEMENTS (descs); d++) {
      gchar *caps = g_strdup_printf ("other/tensors,format=static,"
          "num_tensors=1,dimensions=(string)%s,types=uint8,framerate=0/1",
          dims[i]);

      expect_refused (descs[d], caps, 20, "tensor 0");
      expect_refused (descs[d], caps, 20, "too large");
      g_free (caps);
    }
  }
  /* two tensors that fit alone but not together */
  expect_refused ("cudatranspose", "other/tensors,format=static,"
      "num_tensors=2,dimensions=(string)\"1073741824:1073741824:4:1,"
      "1073741824:1073741824:4:1\",types=\"uint8,uint8\",framerate=0/1",
      20, "together");
}

GST_END_TEST;

/* Pushes a buffer of @n_mems memories of @sizes bytes (the data behind
 * each is a few bytes: the element must refuse or fail before reading it)
 * through a harness around "@desc" with @caps; it must fail with an error
 * saying @reason. @poison: downstream proposes the test's (fallible)
 * allocator; else the element's own memory is used. */
static void
expect_flow_error_sizes (const gchar * desc, const gchar * caps,
    guint n_mems, const gsize * sizes, gboolean poison, const gchar * reason)
{
  static guint8 backing[64];
  GstHarness *h;
  GstBuffer *buf = gst_buffer_new ();
  GstBus *bus;
  gchar *text;
  guint i;

  if (poison) {
    h = ct_check_harness_new (desc, &bus);
  } else {
    h = gst_harness_new_parse (desc);
    bus = gst_bus_new ();
    gst_element_set_bus (h->element, bus);
  }
  for (i = 0; i < n_mems; i++)
    gst_buffer_append_memory (buf, gst_memory_new_wrapped
        (GST_MEMORY_FLAG_READONLY, backing, sizes[i], 0, sizes[i], NULL,
            NULL));
  gst_harness_set_src_caps_str (h, caps);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
  fail_unless (strstr (text, reason) != NULL, "%s: \"%s\" does not say "
      "\"%s\"", caps, text, reason);
  g_free (text);
  ct_check_harness_free (h, bus);
}

/* The same with @n_mems memories of @mem_size bytes each. */
static void
expect_flow_error (const gchar * desc, const gchar * caps, guint n_mems,
    gsize mem_size, gboolean poison, const gchar * reason)
{
  gsize sizes[4];
  guint i;

  for (i = 0; i < n_mems; i++)
    sizes[i] = mem_size;
  expect_flow_error_sizes (desc, caps, n_mems, sizes, poison, reason);
}

/* Sizes no machine can allocate are an element error, never an abort:
 * the input is checked against the caps before any output is allocated
 * (a 20-byte buffer for a 32 GB tensor), and an allocation that fails,
 * from the element's own memory or downstream's, is reported. */
GST_START_TEST (test_huge_tensors_fail_cleanly)
{
  const gchar *big = "other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)65536:65536:1:1,types=float64,framerate=0/1";
  /* 2^62 bytes: more than any address space holds */
  const gchar *huge = "other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)2147483648:2147483648:1:1,types=uint8,"
      "framerate=0/1";
  const gchar *huge2 = "other/tensors,format=static,num_tensors=2,"
      "dimensions=(string)\"2147483648:1073741824:1:1,3:5\",types=\"uint8,"
      "int16\",framerate=0/1";
  const gsize g62 = G_GUINT64_CONSTANT (1) << 62;
  const gsize each[2] = { g62 / 2, 30 }, longer[2] = { g62 / 2, 31 };

  expect_flow_error ("cudatranspose", big, 1, 20, TRUE, "Invalid input");
  expect_flow_error ("cudatranspose", big, 1, 20, FALSE, "Invalid input");
  expect_flow_error ("cudatranspose", huge, 1, g62, TRUE, "allocate");
  expect_flow_error ("cudatranspose", huge, 1, g62, FALSE, "allocate");
  expect_flow_error ("cudatranspose kernel=cpu", huge, 1, g62, FALSE,
      "allocate");
  expect_flow_error ("cudatranspose permutation=1:0:2:3", huge, 1, g62,
      FALSE, "allocate");
  /* one memory per tensor; a short one; one longer than its tensor (a
   * byte no tensor holds: refused, never dropped) */
  expect_flow_error_sizes ("cudatranspose", huge2, 2, each, FALSE,
      "allocate");
  expect_flow_error ("cudatranspose", huge2, 2, 30, FALSE, "Invalid input");
  expect_flow_error_sizes ("cudatranspose", huge2, 2, longer, FALSE,
      "tensor 1 is 31 bytes, but the caps say 30");
}

GST_END_TEST;

/* RGB video (packed and planar) out as CHW tensors, on the CPU. */
GST_START_TEST (test_cpu_video_to_chw)
{
  ct_check_video_to_chw ("cudatranspose kernel=cpu");
}

GST_END_TEST;

/* Video whose size is not fixed when the pipeline is parsed (a capsfilter
 * with the format alone) still links to tensor caps: the link is checked
 * against tensors of any dimensions, and the negotiated caps carry the
 * frame's (videotestsrc's default 320x240). Video that cannot become a
 * tensor (AYUV) links too, and the element's own error says why. */
GST_START_TEST (test_video_size_unfixed_at_link)
{
  static const struct
  {
    const gchar *props, *downstream, *field, *dims, *type;
    gsize bytes;
  } cases[] = {
    {"", "other/tensors,format=static", "dimensions", "320:240:3:1", "uint8",
        320 * 240 * 3},
    {"", "other/tensor", "dimension", "320:240:3:1", "uint8", 320 * 240 * 3},
    {"arithmetic=typecast:float32,add:-127.5,div:127.5",
        "other/tensors,format=static", "dimensions", "320:240:3:1", "float32",
        320 * 240 * 3 * 4},
    {"permutation=0:1:2:3", "other/tensors", "dimensions", "3:320:240:1",
        "uint8", 320 * 240 * 3},
  };
  GError *err = NULL;
  GstElement *p;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 pattern=snow "
        "! video/x-raw,format=RGB ! cudatranspose kernel=cpu %s ! %s ! "
        "appsink name=sink", cases[i].props, cases[i].downstream);
    GstElement *sink;
    GstSample *sample;
    GstStructure *st;
    guint n = 0;

    p = gst_parse_launch (desc, &err);
    fail_unless (p != NULL && err == NULL, "%s: %s", desc,
        err ? err->message : "no pipeline");
    sink = gst_bin_get_by_name (GST_BIN (p), "sink");
    fail_unless_equals_int (gst_element_set_state (p, GST_STATE_PLAYING),
        GST_STATE_CHANGE_ASYNC);
    while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
      st = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
      fail_unless_equals_string (gst_structure_get_string (st,
              cases[i].field), cases[i].dims);
      fail_unless_equals_string (gst_structure_get_string (st,
              g_str_equal (cases[i].field, "dimension") ? "type" : "types"),
          cases[i].type);
      fail_unless_equals_int (gst_buffer_get_size (gst_sample_get_buffer
              (sample)), cases[i].bytes);
      gst_sample_unref (sample);
      n++;
    }
    fail_unless_equals_int (n, 2);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (p);
    g_free (desc);
  }
  {
    gchar *text = ct_check_pipeline_error ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=AYUV ! cudatranspose name=t kernel=cpu ! "
        "other/tensors,format=static ! fakesink");

    fail_unless (strstr (text, "this is AYUV") != NULL &&
        strstr (text, "videoconvert") != NULL, "%s", text);
    g_free (text);
  }
}

GST_END_TEST;

/* The frames cudatranspose takes, in order, queued by a probe on its sink
 * pad. */
static GstPadProbeReturn
keep_input (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_async_queue_push (user_data,
      gst_buffer_ref (GST_PAD_PROBE_INFO_BUFFER (info)));
  return GST_PAD_PROBE_OK;
}

/* A converter before the element, no format fixed: videoconvert picks the
 * format nearest its input among those that become a tensor (never one
 * the element would only refuse, which used to end the stream), a YUV
 * one where the frame is turned; the tensor holds the frame's bytes. */
GST_START_TEST (test_video_format_chosen_upstream)
{
  const struct
  {
    const gchar *props;
    gboolean turned, swapped;
  } cases[] = {
    {"", FALSE, FALSE},
    {"arithmetic=typecast:float32,add:0", FALSE, FALSE},
    {"video-direction=90r", TRUE, TRUE},
    {"video-direction=vert arithmetic=typecast:float32,add:0", TRUE, FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gint w = 31 + ct_check_random () % 8, h = 17 +
        ct_check_random () % 8;
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 pattern=snow "
        "! video/x-raw,width=%d,height=%d ! videoconvert ! cudatranspose "
        "name=t kernel=cpu %s ! other/tensors,format=static ! appsink "
        "name=sink", w, h, cases[i].props);
    GError *err = NULL;
    GstElement *p = gst_parse_launch (desc, &err), *t, *sink;
    GAsyncQueue *inputs = g_async_queue_new_full ((GDestroyNotify)
        gst_buffer_unref);
    GstSample *sample;
    GstPad *pad;
    guint n = 0;

    fail_unless (p != NULL && err == NULL, "%s: %s", desc,
        err ? err->message : "no pipeline");
    t = gst_bin_get_by_name (GST_BIN (p), "t");
    sink = gst_bin_get_by_name (GST_BIN (p), "sink");
    pad = gst_element_get_static_pad (t, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_input, inputs,
        NULL);
    fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    /* (a stream that failed to negotiate never ends: read the bus) */
    while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
                10 * GST_SECOND))) {
      GstCaps *caps = gst_pad_get_current_caps (pad);
      GstBuffer *in = g_async_queue_try_pop (inputs);
      GstVideoInfo info;
      const GstStructure *st =
          gst_caps_get_structure (gst_sample_get_caps (sample), 0);
      const gboolean is_float = strstr (cases[i].props, "float32") != NULL;
      guint c;
      gchar *dims;

      fail_unless (in != NULL && caps != NULL &&
          gst_video_info_from_caps (&info, caps));
      c = GST_VIDEO_INFO_IS_YUV (&info) ? 3 : GST_VIDEO_INFO_N_COMPONENTS
          (&info);
      fail_unless (!cases[i].turned || GST_VIDEO_INFO_IS_YUV (&info),
          "%s: turned, but videoconvert gave %s", desc,
          GST_VIDEO_INFO_NAME (&info));
      dims = g_strdup_printf ("%d:%d:%u:1", cases[i].swapped ? h : w,
          cases[i].swapped ? w : h, c);
      fail_unless_equals_string (gst_structure_get_string (st, "dimensions"),
          dims);
      fail_unless_equals_string (gst_structure_get_string (st, "types"),
          is_float ? "float32" : "uint8");
      /* packed 8-bit RGB or GRAY8: the frame's bytes, channel-major */
      if (!GST_VIDEO_INFO_IS_YUV (&info) && GST_VIDEO_INFO_N_PLANES (&info)
          == 1 && GST_VIDEO_INFO_COMP_DEPTH (&info, 0) == 8) {
        GstVideoFrame frame;
        GstMapInfo map;
        const guint ps = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
        guint x, y, k;

        fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_READ));
        fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
                GST_MAP_READ));
        fail_unless_equals_int (map.size, (gsize) w * h * c * (is_float ?
                4 : 1));
        for (k = 0; k < c; k++)
          for (y = 0; y < (guint) h; y++)
            for (x = 0; x < (guint) w; x++) {
              const guint8 want = ((const guint8 *)
                  GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[y *
                  GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x * ps + k];
              const gsize at = ((gsize) k * h + y) * w + x;
              const gdouble got = is_float ? ((const gfloat *) map.data)[at] :
                  map.data[at];

              fail_unless (got == want, "%s (%s): channel %u of (%u, %u): "
                  "%g, frame %u", desc, GST_VIDEO_INFO_NAME (&info), k, x, y,
                  got, want);
            }
        gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
        gst_video_frame_unmap (&frame);
      }
      g_free (dims);
      gst_caps_unref (caps);
      gst_buffer_unref (in);
      gst_sample_unref (sample);
      n++;
    }
    if (n < 2) {
      GstBus *bus = gst_element_get_bus (p);

      fail ("%s: %u of 2 tensors; %s", desc, n,
          ct_check_pop_message_text (bus, GST_MESSAGE_ERROR));
    }
    fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
    gst_element_set_state (p, GST_STATE_NULL);
    g_async_queue_unref (inputs);
    gst_object_unref (pad);
    gst_object_unref (sink);
    gst_object_unref (t);
    gst_object_unref (p);
    g_free (desc);
  }
}

GST_END_TEST;

static Suite *
tensors_suite (void)
{
  Suite *s = suite_create ("tensors");
  TCase *tc = tcase_create ("tensors");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cpu_tensors);
  tcase_add_test (tc, test_tensor_caps);
  tcase_add_test (tc, test_tensor_bad_input);
  tcase_add_test (tc, test_tensors_appsrc_appsink);
  tcase_add_test (tc, test_cpu_permutations);
  tcase_add_test (tc, test_bad_permutation);
  tcase_add_test (tc, test_cpu_video_to_chw);
  tcase_add_test (tc, test_cpu_video_to_permuted_tensor);
  tcase_add_test (tc, test_tensor_size_overflow);
  tcase_add_test (tc, test_huge_tensors_fail_cleanly);
  tcase_add_test (tc, test_video_size_unfixed_at_link);
  tcase_add_test (tc, test_video_format_chosen_upstream);
  return s;
}

GST_CHECK_MAIN (tensors);
