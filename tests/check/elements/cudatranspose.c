/* cudatranspose element tests that run on any machine: the CPU kernel on
 * every format and size, caps, round trips, property changes, bad input. */
#include "transpose-check.h"

#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
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
    g_object_set (e, "permutation", bad[i], NULL);
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
      "video/x-raw,format=GRAY8,width=4,height=2,framerate=0/1",
    };
    const gchar *reason[] = { "rank 5", "applies to tensors" };

    for (i = 0; i < G_N_ELEMENTS (caps); i++)
      expect_refused ("cudatranspose kernel=cpu permutation=1:2:0:3", caps[i],
          720, reason[i]);
  }
}

GST_END_TEST;

/* Packed RGB video going out as a tensor takes the permutation: the frame
 * is the HWC tensor C:W:H:1, permuted. */
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

/* Pushes a buffer of @n_mems memories of @mem_size bytes (the data behind
 * each is a few bytes: the element must refuse or fail before reading it)
 * through a harness around "@desc" with @caps; it must fail with an error
 * saying @reason. @poison: downstream proposes the test's (fallible)
 * allocator; else the element's own memory is used. */
static void
expect_flow_error (const gchar * desc, const gchar * caps, guint n_mems,
    gsize mem_size, gboolean poison, const gchar * reason)
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
        (GST_MEMORY_FLAG_READONLY, backing, mem_size, 0, mem_size, NULL,
            NULL));
  gst_harness_set_src_caps_str (h, caps);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
  fail_unless (strstr (text, reason) != NULL, "%s: \"%s\" does not say "
      "\"%s\"", caps, text, reason);
  g_free (text);
  ct_check_harness_free (h, bus);
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

  expect_flow_error ("cudatranspose", big, 1, 20, TRUE, "Invalid input");
  expect_flow_error ("cudatranspose", big, 1, 20, FALSE, "Invalid input");
  expect_flow_error ("cudatranspose", huge, 1, g62, TRUE, "allocate");
  expect_flow_error ("cudatranspose", huge, 1, g62, FALSE, "allocate");
  expect_flow_error ("cudatranspose kernel=cpu", huge, 1, g62, FALSE,
      "allocate");
  expect_flow_error ("cudatranspose permutation=1:0:2:3", huge, 1, g62,
      FALSE, "allocate");
  /* one memory per tensor, and one short memory */
  expect_flow_error ("cudatranspose", huge2, 2, g62, FALSE, "allocate");
  expect_flow_error ("cudatranspose", huge2, 2, 30, FALSE, "Invalid input");
}

GST_END_TEST;

/* Packed RGB video out as CHW tensors, on the CPU. */
GST_START_TEST (test_cpu_video_to_chw)
{
  ct_check_video_to_chw ("cudatranspose kernel=cpu");
}

GST_END_TEST;

/* 4:2:2 and other formats whose transpose is another format are refused. */
GST_START_TEST (test_refuses_untransposable_caps)
{
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  const gchar *refused[] = {
    "video/x-raw,format=YUY2,width=64,height=32",
    "video/x-raw,format=Y42B,width=64,height=32",
    "video/x-raw,format=NV16,width=64,height=32",
    "video/x-raw,format=I420,width=64,height=32,interlace-mode=interleaved",
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
  ct_check_round_trip ("cudatranspose kernel=cpu ! cudatranspose",
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

static Suite *
cudatranspose_suite (void)
{
  Suite *s = suite_create ("cudatranspose");
  TCase *tc = tcase_create ("general");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cpu_all_formats);
  tcase_add_test (tc, test_kernel_property_values);
  tcase_add_test (tc, test_caps_swap_and_par);
  tcase_add_test (tc, test_caps_ranges);
  tcase_add_test (tc, test_refuses_untransposable_caps);
  tcase_add_test (tc, test_cuda_memory_caps);
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
  tcase_add_test (tc, test_twice_is_identity);
  tcase_add_test (tc, test_kernel_change_while_playing);
  tcase_add_test (tc, test_short_buffer_is_an_error);
  tcase_add_test (tc, test_bad_video_meta_is_an_error);
  return s;
}

GST_CHECK_MAIN (cudatranspose);
