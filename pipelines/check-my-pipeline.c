/* How to test a pipeline of your own that contains cudatranspose, with
 * gst-check's GstHarness: copy this file and put your chain in PIPELINE.
 *
 *   build/pipelines/check-my-pipeline
 *   (with GST_PLUGIN_PATH=$PWD/build/gst, or the plugin installed)
 *
 * The chain here turns RGB frames a quarter turn clockwise for a portrait
 * screen. The tests:
 * - push random frames into the chain and check every pixel against a
 *   rotation written here (never against the element's own output), with
 *   the output caps' width and height swapped;
 * - check that a mistake in the element's settings stops a pipeline with
 *   an error that says what is wrong.
 * Without a GPU, cudatranspose runs on the CPU (and warns): the same tests
 * pass there, so they can run in any CI.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <string.h>

#define PIPELINE "videoconvert ! video/x-raw,format=RGBA " \
    "! cudatranspose video-direction=90r ! videoconvert"

/* Odd sizes, and rows (3 x 37 bytes) that GStreamer pads to 4 bytes. */
#define W 37
#define H 21

GST_START_TEST (test_rotates_for_portrait)
{
  GstHarness *h = gst_harness_new_parse (PIPELINE);
  GstVideoInfo in_info, out_info;
  GstCaps *caps;
  guint frame;

  /* RGB in, landscape; what comes out must be RGB again, portrait */
  gst_harness_set_caps_str (h, "video/x-raw,format=RGB,width=37,height=21,"
      "framerate=30/1", "video/x-raw,format=RGB,width=21,height=37,"
      "framerate=30/1");
  gst_video_info_set_format (&in_info, GST_VIDEO_FORMAT_RGB, W, H);

  for (frame = 0; frame < 3; frame++) {
    GstBuffer *in = gst_harness_create_buffer (h, in_info.size), *out;
    GstVideoFrame a, b;
    GstMapInfo map;
    guint x, y, c;

    /* random pixels, row padding too */
    fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
    for (x = 0; x < map.size; x++)
      map.data[x] = g_random_int_range (0, 256);
    gst_buffer_unmap (in, &map);

    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "frame %u did not come out", frame);
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_video_info_from_caps (&out_info, caps));
    gst_caps_unref (caps);
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), H);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), W);

    /* clockwise: output pixel (x, y) is input pixel (y, H - 1 - x) */
    fail_unless (gst_video_frame_map (&a, &in_info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&b, &out_info, out, GST_MAP_READ));
    for (y = 0; y < W; y++) {
      for (x = 0; x < H; x++) {
        const guint8 *o = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, 0) + x * 3;
        const guint8 *i = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, 0) +
            (H - 1 - x) * GST_VIDEO_FRAME_PLANE_STRIDE (&a, 0) + y * 3;

        for (c = 0; c < 3; c++)
          fail_unless_equals_int (o[c], i[c]);
      }
    }
    gst_video_frame_unmap (&a);
    gst_video_frame_unmap (&b);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A permutation names each of the four dimensions once: a pipeline with
 * a bad one must not start, and its error must say why. */
GST_START_TEST (test_bad_setting_is_an_error)
{
  GstElement *p = NULL;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  /* (the element warns as soon as the property is set) */
  ASSERT_WARNING (p = gst_parse_launch ("videotestsrc num-buffers=1 ! "
          "video/x-raw,format=RGB ! cudatranspose permutation=1:1:0:3 ! "
          "fakesink", NULL));
  bus = gst_element_get_bus (p);

  fail_unless (p != NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "the pipeline ran with a bad permutation");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (strstr (err->message, "1:1:0:3") != NULL ||
      (debug && strstr (debug, "1:1:0:3") != NULL),
      "the error does not quote the setting: %s", err->message);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

GST_END_TEST;

static Suite *
my_pipeline_suite (void)
{
  Suite *s = suite_create ("my-pipeline");
  TCase *tc = tcase_create ("portrait");

  suite_add_tcase (s, tc);
  /* check stops a test after 4 seconds unless told otherwise; the first
   * test also sets up the GPU (a CUDA context), which on a busy machine can
   * take longer than that */
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_rotates_for_portrait);
  tcase_add_test (tc, test_bad_setting_is_an_error);
  return s;
}

GST_CHECK_MAIN (my_pipeline);
