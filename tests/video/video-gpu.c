/* cudatranspose on video on a CUDA GPU: every GPU kernel on every format
 * and size and in every direction, kernel changes while PLAYING, round
 * trips, frames in flight (QoS among them), video-direction from a
 * controller, a device that does not exist. Without a CUDA device the
 * program exits 77 (skipped). */
#include "transpose-check.h"
#include "gpu-check.h"

#include "cudatranspose-kernels.h"

GST_START_TEST (test_gpu_all_formats)
{
  gchar *desc = g_strdup_printf ("cudatranspose kernel=%s",
      gpu_kernels[__i__]);
  GstHarness *h = ct_check_harness_new (desc, NULL);
  gchar *active;

  /* every format under auto; one of each plane layout under the others,
   * which see nothing but the layouts */
  if (g_str_equal (gpu_kernels[__i__], "auto"))
    ct_check_all_formats (h, desc);
  else
    ct_check_formats_of (h, ct_check_layout_formats,
        ct_check_n_layout_formats, desc);
  active = ct_check_active_kernel (h->element);
  /* auto takes a GPU path here; a named variant its own, unless the last
   * frame's largest plane is one its tile cannot take */
  if (g_str_equal (gpu_kernels[__i__], "auto")) {
    fail_if (g_str_equal (active, "cpu") || g_str_equal (active, "none"),
        "auto ran %s on a GPU host", active);
  } else if (!g_str_equal (active, "thin") && !g_str_equal (active, "exact")
      && !g_str_equal (active, "rgb-tile")
      && !g_str_equal (active, "yuv422")) {
    fail_unless_equals_string (active, gpu_kernels[__i__]);
  }
  g_free (active);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_gpu_kernel_change_while_playing)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose", NULL);
  guint i;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_NV12, 1917,
          1083));
  for (i = 0; i < 2 * n_gpu_kernels () + 1; i++) {
    /* every GPU kernel, then the CPU, back and forth, one buffer each */
    guint k = i % (n_gpu_kernels () + 1);
    const gchar *want = k < n_gpu_kernels () ? gpu_kernels[k] : "cpu";
    gchar *active;

    gst_util_set_object_arg (G_OBJECT (h->element), "kernel", want);
    ct_check_push_and_verify (h, GST_VIDEO_FORMAT_NV12, 1917, 1083,
        i % 2 ? 5 : 0, "switch");
    active = ct_check_active_kernel (h->element);
    /* (the luma plane takes the variant's own path; auto picks) */
    if (!g_str_equal (want, "auto")) {
      fail_unless_equals_string (active, want);
    } else {
      fail_if (g_str_equal (active, "none") || g_str_equal (active, "cpu"),
          "auto ran %s", active);
    }
    g_free (active);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_gpu_twice_is_identity)
{
  ct_check_round_trip ("cudatranspose kernel=tiled-64 ! cudatranspose "
      "kernel=naive", GST_VIDEO_FORMAT_RGB, 641, 479);
}

GST_END_TEST;

/* Every direction on every format, each GPU kernel, all on the GPU (the
 * last one, ur-ll, says so through active-kernel). */
GST_START_TEST (test_gpu_all_directions)
{
  gchar *desc = g_strdup_printf ("cudatranspose kernel=%s",
      gpu_kernels[__i__]);
  GstHarness *h = ct_check_harness_new (desc, NULL);
  gchar *active;

  ct_check_all_directions (h, desc);
  active = ct_check_active_kernel (h->element);
  fail_if (g_str_equal (active, "cpu") || g_str_equal (active, "none"),
      "%s ran ur-ll on %s", desc, active);
  g_free (active);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_gpu_same_as_videoflip)
{
  ct_check_against_videoflip ("cudatranspose");
}

GST_END_TEST;

/* 180, horiz and vert on the GPU with every GPU kernel: the flip path
 * (the staging rows are 256-byte aligned), exact, and no warning. */
GST_START_TEST (test_gpu_flips_on_gpu)
{
  static const GstVideoOrientationMethod flips[] = {
    GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_HORIZ,
    GST_VIDEO_ORIENTATION_VERT,
  };
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_GRAY16_LE,
  };
  gchar *desc = g_strdup_printf ("cudatranspose kernel=%s",
      gpu_kernels[__i__]);
  GstBus *bus;
  GstHarness *h = ct_check_harness_new (desc, &bus);
  guint d, f;

  for (d = 0; d < G_N_ELEMENTS (flips); d++) {
    g_object_set (h->element, "video-direction", flips[d], NULL);
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      gchar *active;

      gst_harness_set_src_caps (h, ct_check_caps (formats[f], 641, 479));
      ct_check_push_and_verify_direction (h, formats[f], 641, 479, 0,
          flips[d], desc);
      ct_check_push_and_verify_direction (h, formats[f], 641, 479, 7,
          flips[d], desc);
      active = ct_check_active_kernel (h->element);
      fail_unless_equals_string (active, "flip");
      g_free (active);
    }
  }
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_WARNING),
      0);
  ct_check_harness_free (h, bus);
  g_free (desc);
}

GST_END_TEST;

/* Frames in bands (system memory into pinned memory): bands of 16 rows
 * (CUDATRANSPOSE_BAND_BYTES=1), every direction on one format of each
 * plane layout, at sizes of several bands and a ragged last one. The
 * harness offers no allocator, so the output comes from the element's own
 * pinned pool, which is what takes bands; each output is poisoned before
 * it goes back to the pool, so that the frame that reuses it shows any
 * element the bands left unwritten. */
GST_START_TEST (test_gpu_bands)
{
  static const gint sizes[][2] = {
    {130, 71}, {67, 261}, {1, 100}, {100, 1}, {641, 480}, {48, 32},
  };
  GstHarness *h;
  guint d, f, s, n_pinned = 0;

  g_setenv ("CUDATRANSPOSE_BAND_BYTES", "1", TRUE);
  h = gst_harness_new ("cudatranspose");
  /* each frame out before the next goes in (test_gpu_in_flight has two) */
  g_object_set (h->element, "frames-in-flight", 1, NULL);
  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];

    g_object_set (h->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_layout_formats; f++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GstVideoFormat fmt = ct_check_layout_formats[f];
        gint w = sizes[s][0], hh = sizes[s][1], pass;

        gst_harness_set_src_caps (h, ct_check_caps (fmt, w, hh));
        for (pass = 0; pass < 4; pass++) {
          GstVideoInfo info;
          GstBuffer *in, *out;
          GstMapInfo map;
          int pinned = 0;
          gchar *what = g_strdup_printf ("bands of 16 rows, %s %dx%d, "
              "direction %d, pass %d", gst_video_format_to_string (fmt), w,
              hh, method, pass);

          fail_unless (gst_video_info_set_format (&info, fmt, w, hh));
          in = ct_check_make_frame (&info, pass % 2 ? 3 + s : 0);
          fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
              GST_FLOW_OK);
          out = gst_harness_pull (h);
          fail_unless (out != NULL, "%s: no output", what);
          ct_check_assert_oriented (&info, in, out, method, what);
          /* (identity is a passthrough: its output is the input) */
          if (method != GST_VIDEO_ORIENTATION_IDENTITY) {
            /* poisoned for the next frame that takes this buffer (its
             * memory is the pool's, whoever else holds the buffer) */
            GstMemory *mem;

            fail_unless_equals_int (gst_buffer_n_memory (out), 1);
            mem = gst_buffer_peek_memory (out, 0);
            fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE),
                "%s: the output's memory cannot be written", what);
            memset (map.data, 0xa5 ^ pass, map.size);
            fail_unless_equals_int (ct_host_is_pinned (map.data, &pinned),
                CT_OK);
            fail_unless (pinned, "%s: the output is not pinned, so no "
                "bands ran", what);
            n_pinned++;
            gst_memory_unmap (mem, &map);
          }
          gst_buffer_unref (out);
          gst_buffer_unref (in);
          g_free (what);
        }
      }
    }
  }
  fail_unless (n_pinned > 0, "no output was pinned: the bands never ran");
  gst_harness_teardown (h);
  g_unsetenv ("CUDATRANSPOSE_BAND_BYTES");
}

GST_END_TEST;

/* Pulls the next output and checks that it is @in's frame, whole, with
 * its timestamps; poisons it before it goes back to the pool. */
static void
pull_and_check (GstHarness * h, const GstVideoInfo * info, GstBuffer * in,
    GstVideoOrientationMethod method, const gchar * what)
{
  GstBuffer *out = gst_harness_pull (h);
  GstMapInfo map;

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out),
      GST_BUFFER_DURATION (in));
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), GST_BUFFER_OFFSET (in));
  ct_check_assert_oriented (info, in, out, method, what);
  /* (identity passes the input through: nothing to poison) */
  if (out != in) {
    fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
    memset (map.data, 0x3c, map.size);
    gst_buffer_unmap (out, &map);
  }
  gst_buffer_unref (out);
}

/* Caps of one frame a second: the element holds a frame back for up to
 * that long (then pushes it out by itself), long enough for a test to see
 * it held, even under a sanitizer. */
static GstCaps *
slow_caps (GstVideoFormat format, gint width, gint height)
{
  GstCaps *caps = ct_check_caps (format, width, height);

  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1, 1, NULL);
  return caps;
}

/* Pushes a reference to @buf, which must be taken. */
static void
push_ok (GstHarness * h, GstBuffer * buf)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buf)),
      GST_FLOW_OK);
}

/* A frame of @info with timestamps of frame @n at 1 frame/s. */
static GstBuffer *
numbered_frame (const GstVideoInfo * info, guint n, guint stride_pad)
{
  GstBuffer *in = ct_check_make_frame (info, stride_pad);

  GST_BUFFER_PTS (in) = n * GST_SECOND;
  GST_BUFFER_DURATION (in) = GST_SECOND;
  GST_BUFFER_OFFSET (in) = n;
  return in;
}

/* Two frames in flight (the default) from host memory into the element's
 * pinned pool, in bands of 16 rows: a frame may come out only when the
 * next one is in (never more than one held back), whole, in order, with
 * its own timestamps, while the next one's copies run in the other
 * staging slot; a serialized event pushes out the last. Every direction
 * but identity (a passthrough) holds every frame back; every plane layout
 * (4:2:2 resampled where the axes swap goes whole, not in bands), sizes of
 * one band and of several with a ragged last one. */
GST_START_TEST (test_gpu_in_flight)
{
  static const gint sizes[][2] = { {130, 71}, {1, 100}, {641, 480} };
  GstHarness *h;
  guint d, f, s, k, held = 0;

  g_setenv ("CUDATRANSPOSE_BAND_BYTES", "1", TRUE);
  h = gst_harness_new ("cudatranspose");
  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];

    g_object_set (h->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_layout_formats; f++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GstVideoFormat fmt = ct_check_layout_formats[f];
        gint w = sizes[s][0], hh = sizes[s][1];
        GstBuffer *ins[5];
        GstVideoInfo info;
        guint out = 0;
        gboolean was_held = FALSE;
        gchar *what = g_strdup_printf ("%s %dx%d, direction %d",
            gst_video_format_to_string (fmt), w, hh, method);

        fail_unless (gst_video_info_set_format (&info, fmt, w, hh));
        gst_harness_set_src_caps (h, slow_caps (fmt, w, hh));
        for (k = 0; k < G_N_ELEMENTS (ins); k++) {
          ins[k] = numbered_frame (&info, k, k % 2 ? 5 : 0);
          fail_unless_equals_int (gst_harness_push (h,
                  gst_buffer_ref (ins[k])), GST_FLOW_OK);
          while (gst_harness_buffers_in_queue (h) > 0) {
            fail_unless (out <= k, "%s: more out than in", what);
            pull_and_check (h, &info, ins[out], method, what);
            out++;
          }
          fail_unless (out == k || out == k + 1, "%s: %u frames held back",
              what, k + 1 - out);
          was_held = was_held || out == k;
        }
        ct_check_push_drain (h);
        while (out < G_N_ELEMENTS (ins)) {
          fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
          pull_and_check (h, &info, ins[out], method, what);
          out++;
        }
        fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
        /* identity passes buffers through */
        fail_unless (was_held == (method != GST_VIDEO_ORIENTATION_IDENTITY),
            "%s: %s", what, was_held ? "held" : "nothing held back");
        held += was_held;
        for (k = 0; k < G_N_ELEMENTS (ins); k++)
          gst_buffer_unref (ins[k]);
        g_free (what);
      }
    }
  }
  fail_unless (held > 0);
  gst_harness_teardown (h);
  g_unsetenv ("CUDATRANSPOSE_BAND_BYTES");
}

GST_END_TEST;

/* What holds a frame back and what lets it go: EOS pushes it out, a flush
 * drops it, a discontinuity pushes it out before the frame after the gap
 * (which alone is marked), frames-in-flight=1 pushes it before the next
 * frame, a caps change before the frames of the new caps, a direction
 * that renegotiates before the frames in the new direction, and when no
 * next frame comes, it goes out by itself after one frame's duration; the
 * LATENCY query adds one frame, and nothing at frames-in-flight=1 or at
 * an unknown frame rate. */
GST_START_TEST (test_gpu_in_flight_events)
{
  GstHarness *h;
  GstVideoInfo info, other;
  GstBuffer *a, *b, *c;
  GstCaps *caps;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 640,
          480));
  g_setenv ("CUDATRANSPOSE_BAND_BYTES", "65536", TRUE);
  h = gst_harness_new ("cudatranspose");
  gst_harness_set_src_caps (h, slow_caps (GST_VIDEO_FORMAT_I420, 640,
          480));

  /* latency: one frame (at 1/1) */
  fail_unless_equals_uint64 (gst_harness_query_latency (h), GST_SECOND);

  /* EOS pushes the held frame out, before the EOS */
  a = numbered_frame (&info, 0, 0);
  b = numbered_frame (&info, 1, 0);
  push_ok (h, a);
  push_ok (h, b);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  pull_and_check (h, &info, a, GST_VIDEO_ORIENTATION_UL_LR, "before EOS");
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  pull_and_check (h, &info, b, GST_VIDEO_ORIENTATION_UL_LR, "at EOS");
  gst_buffer_unref (a);
  gst_buffer_unref (b);

  /* a flush drops it */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_set_src_caps (h, slow_caps (GST_VIDEO_FORMAT_I420, 640,
          480));
  a = numbered_frame (&info, 2, 0);
  b = numbered_frame (&info, 3, 0);
  push_ok (h, a);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_set_src_caps (h, slow_caps (GST_VIDEO_FORMAT_I420, 640,
          480));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  push_ok (h, b);
  ct_check_push_drain (h);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  pull_and_check (h, &info, b, GST_VIDEO_ORIENTATION_UL_LR, "after a flush");
  gst_buffer_unref (a);
  gst_buffer_unref (b);

  /* a discontinuity: the held frame out first, unmarked */
  a = numbered_frame (&info, 4, 0);
  b = numbered_frame (&info, 5, 0);
  c = numbered_frame (&info, 9, 0);
  GST_BUFFER_FLAG_SET (c, GST_BUFFER_FLAG_DISCONT);
  push_ok (h, a);
  push_ok (h, b);
  push_ok (h, c);
  ct_check_push_drain (h);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  {
    GstBuffer *outs[3];
    guint i;

    for (i = 0; i < 3; i++)
      outs[i] = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (outs[1]), GST_BUFFER_PTS (b));
    fail_if (GST_BUFFER_IS_DISCONT (outs[1]), "the frame before the gap is "
        "marked DISCONT");
    fail_unless_equals_uint64 (GST_BUFFER_PTS (outs[2]), GST_BUFFER_PTS (c));
    fail_unless (GST_BUFFER_IS_DISCONT (outs[2]));
    ct_check_assert_transposed (&info, a, outs[0], "before the gap");
    ct_check_assert_transposed (&info, b, outs[1], "before the gap");
    ct_check_assert_transposed (&info, c, outs[2], "after the gap");
    for (i = 0; i < 3; i++)
      gst_buffer_unref (outs[i]);
  }
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_buffer_unref (c);

  /* frames-in-flight=1 while one is held: it goes first */
  a = numbered_frame (&info, 10, 0);
  b = numbered_frame (&info, 11, 0);
  push_ok (h, a);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  g_object_set (h->element, "frames-in-flight", 1, NULL);
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  push_ok (h, b);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  pull_and_check (h, &info, a, GST_VIDEO_ORIENTATION_UL_LR, "held, then 1");
  pull_and_check (h, &info, b, GST_VIDEO_ORIENTATION_UL_LR, "at 1");
  g_object_set (h->element, "frames-in-flight", 2, NULL);
  gst_buffer_unref (a);
  gst_buffer_unref (b);

  /* a caps change: the held frame out before the new caps' frames */
  fail_unless (gst_video_info_set_format (&other, GST_VIDEO_FORMAT_RGBA, 320,
          200));
  a = numbered_frame (&info, 12, 0);
  b = numbered_frame (&other, 13, 0);
  push_ok (h, a);
  gst_harness_set_src_caps (h, slow_caps (GST_VIDEO_FORMAT_RGBA, 320,
          200));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  pull_and_check (h, &info, a, GST_VIDEO_ORIENTATION_UL_LR, "caps change");
  push_ok (h, b);
  ct_check_push_drain (h);
  pull_and_check (h, &other, b, GST_VIDEO_ORIENTATION_UL_LR, "new caps");
  gst_buffer_unref (a);
  gst_buffer_unref (b);

  /* a direction that renegotiates (the transpose to 180): the held frame
   * goes out, transposed, before the first frame of the new direction
   * (the caps are still RGBA 320x200) */
  a = numbered_frame (&other, 15, 0);
  b = numbered_frame (&other, 16, 0);
  push_ok (h, a);
  g_object_set (h->element, "video-direction", GST_VIDEO_ORIENTATION_180,
      NULL);
  push_ok (h, b);
  ct_check_push_drain (h);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  pull_and_check (h, &other, a, GST_VIDEO_ORIENTATION_UL_LR, "before 180");
  pull_and_check (h, &other, b, GST_VIDEO_ORIENTATION_180, "at 180");
  g_object_set (h->element, "video-direction", GST_VIDEO_ORIENTATION_UL_LR,
      NULL);
  gst_buffer_unref (a);
  gst_buffer_unref (b);

  /* no next frame: it goes out by itself (one frame's duration later) */
  a = numbered_frame (&other, 17, 0);
  push_ok (h, a);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  pull_and_check (h, &other, a, GST_VIDEO_ORIENTATION_UL_LR, "left alone");
  gst_buffer_unref (a);

  /* an unknown frame rate holds nothing back, and adds no latency */
  caps = slow_caps (GST_VIDEO_FORMAT_I420, 640, 480);
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  gst_harness_set_src_caps (h, caps);
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  a = numbered_frame (&info, 14, 0);
  push_ok (h, a);
  pull_and_check (h, &info, a, GST_VIDEO_ORIENTATION_UL_LR, "framerate 0/1");
  gst_buffer_unref (a);

  gst_harness_teardown (h);
  g_unsetenv ("CUDATRANSPOSE_BAND_BYTES");
}

GST_END_TEST;

/* A device that does not exist: refused at READY -> PAUSED, with CUDA's
 * reason, whichever GPU kernel was asked for. */
GST_START_TEST (test_gpu_bad_device_id)
{
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  gchar *text;

  g_object_set (e, "cuda-device-id", 999, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "tiled-padded");
  text = ct_check_start_failure (e);
  fail_unless (strstr (text, "cuda-device-id=999") != NULL,
      "message does not name the device: %s", text);
  g_free (text);
  gst_object_unref (e);
}

GST_END_TEST;

/* A device that does not exist is an error with kernel=auto too, as in
 * nvcodec: the CPU stands in only where there is no usable GPU at all. */
GST_START_TEST (test_gpu_missing_device_auto)
{
  gint count = ct_check_cuda_device_count ();
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  gchar *text, *name = g_strdup_printf ("cuda-device-id=%d", count);

  g_object_set (e, "cuda-device-id", count, NULL);
  text = ct_check_start_failure (e);
  fail_unless (strstr (text, name) != NULL && strstr (text, "does not "
          "exist") != NULL, "message does not name the device: %s", text);
  g_free (text);
  g_free (name);
  gst_object_unref (e);
}

GST_END_TEST;

/* QoS with a frame in flight: a frame dropped for coming too late leaves
 * a gap the base class knows of and no buffer says; the frame held from
 * before the gap goes out unmarked, and the first one after it marked
 * DISCONT, though it leaves by a drain, not by the base class. */
GST_START_TEST (test_gpu_in_flight_qos)
{
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *a, *b, *c, *out;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 640,
          480));
  h = gst_harness_new ("cudatranspose");
  gst_harness_set_src_caps (h, slow_caps (GST_VIDEO_FORMAT_I420, 640,
          480));
  a = numbered_frame (&info, 0, 0);
  b = numbered_frame (&info, 1, 0);
  c = numbered_frame (&info, 2, 0);
  push_ok (h, a);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  /* downstream: the frame of 1 s was half a second late, so b (1 s) is
   * dropped, and c (2 s) is not */
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.5, GST_SECOND / 2,
              GST_SECOND)));
  push_ok (h, b);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  push_ok (h, c);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (a));
  fail_if (GST_BUFFER_IS_DISCONT (out), "the frame before the gap is marked "
      "DISCONT");
  ct_check_assert_transposed (&info, a, out, "before the gap");
  gst_buffer_unref (out);
  ct_check_push_drain (h);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (c));
  fail_unless (GST_BUFFER_IS_DISCONT (out), "the frame after the gap is not "
      "marked DISCONT");
  ct_check_assert_transposed (&info, c, out, "after the gap");
  gst_buffer_unref (out);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_buffer_unref (c);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* video-direction from a GstController with frames in flight (the
 * default two): a change the controller makes goes the way a property set
 * does, the frame held under the old caps going out first, and each frame
 * comes out in the direction its timestamp was given. */
GST_START_TEST (test_gpu_controlled_direction)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_YUY2,
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = ct_check_harness_new ("cudatranspose", NULL);
    gchar *active;

    ct_check_controlled_directions (h, formats[f], 641, 480,
        gst_video_format_to_string (formats[f]));
    active = ct_check_active_kernel (h->element);
    fail_if (g_str_equal (active, "cpu"), "the CPU ran it on a GPU host");
    g_free (active);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
video_gpu_suite (void)
{
  Suite *s = suite_create ("video-gpu");
  TCase *tc = tcase_create ("video-gpu");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_gpu_all_formats, 0, n_gpu_kernels ());
  tcase_add_test (tc, test_gpu_kernel_change_while_playing);
  tcase_add_test (tc, test_gpu_twice_is_identity);
  tcase_add_test (tc, test_gpu_bad_device_id);
  tcase_add_test (tc, test_gpu_missing_device_auto);
  tcase_add_loop_test (tc, test_gpu_all_directions, 0, n_gpu_kernels ());
  tcase_add_test (tc, test_gpu_same_as_videoflip);
  tcase_add_loop_test (tc, test_gpu_flips_on_gpu, 0, n_gpu_kernels ());
  tcase_add_test (tc, test_gpu_bands);
  tcase_add_test (tc, test_gpu_in_flight);
  tcase_add_test (tc, test_gpu_in_flight_events);
  tcase_add_test (tc, test_gpu_in_flight_qos);
  tcase_add_test (tc, test_gpu_controlled_direction);
  return s;
}

CT_CHECK_GPU_MAIN (video_gpu, "video-gpu");
