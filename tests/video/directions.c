/* cudatranspose's video-direction, on any machine (kernel=cpu): the eight
 * orientations on every format against a reference written in the test
 * and against videoflip itself, the caps each one makes, identity as a
 * passthrough, changes from a GstController, auto following
 * image-orientation tags, videoflip's method alias, custom refused,
 * navigation events mapped back. */
#include "transpose-check.h"

#include <gst/video/navigation.h>
#include <string.h>

#define CPU_ELEMENT "cudatranspose kernel=cpu"

GST_START_TEST (test_cpu_all_directions)
{
  GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);

  ct_check_all_directions (h, "cpu");
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_same_as_videoflip)
{
  ct_check_against_videoflip (CPU_ELEMENT);
}

GST_END_TEST;

/* Each direction's output caps: width and height swapped and the pixel
 * aspect ratio inverted where the axes swap, kept otherwise. */
GST_START_TEST (test_direction_caps)
{
  guint d;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    gboolean swap = ct_check_direction_swaps (method);
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstCaps *caps;
    GstStructure *s;
    gint w, hh, n, dd;

    g_object_set (h->element, "video-direction", method, NULL);
    gst_harness_set_src_caps_str (h, "video/x-raw,format=NV12,width=64,"
        "height=48,pixel-aspect-ratio=4/3,framerate=25/1");
    fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64,
            48));
    in = ct_check_make_frame (&info, 0);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    ct_check_assert_oriented (&info, in, out, method, "caps");

    caps = gst_pad_get_current_caps (h->sinkpad);
    s = gst_caps_get_structure (caps, 0);
    fail_unless (gst_structure_get_int (s, "width", &w));
    fail_unless (gst_structure_get_int (s, "height", &hh));
    fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n,
            &dd));
    fail_unless_equals_int (w, swap ? 48 : 64);
    fail_unless_equals_int (hh, swap ? 64 : 48);
    fail_unless_equals_int (n, swap ? 3 : 4);
    fail_unless_equals_int (dd, swap ? 4 : 3);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* identity hands the input buffer on: no copy. */
GST_START_TEST (test_identity_passes_through)
{
  GstHarness *h = ct_check_harness_new (CPU_ELEMENT
      " video-direction=identity", NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_I420, 33,
          65));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 33,
          65));
  in = ct_check_make_frame (&info, 0);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out == in, "identity copied the buffer");
  gst_buffer_unref (out);

  /* and a turn away from identity while playing transforms again */
  g_object_set (h->element, "video-direction", GST_VIDEO_ORIENTATION_90L,
      NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != in);
  ct_check_assert_oriented (&info, in, out, GST_VIDEO_ORIENTATION_90L,
      "identity to 90l");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* video-direction is controllable, as videoflip's is: a control source
 * turns it mid-stream, and each frame comes out in the direction its
 * timestamp was given, from that frame on (a swap renegotiates before
 * it), in each plane layout. */
GST_START_TEST (test_controlled_direction)
{
  guint f;

  for (f = 0; f < ct_check_n_layout_formats; f++) {
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);

    ct_check_controlled_directions (h, ct_check_layout_formats[f], 33, 18,
        gst_video_format_to_string (ct_check_layout_formats[f]));
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* videoflip's deprecated method property and its nicks reach the same
 * setting; custom is refused with a warning and changes nothing. */
GST_START_TEST (test_method_alias_and_custom)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new (CPU_ELEMENT, &bus);
  GstVideoOrientationMethod method;
  gchar *text;

  g_object_get (h->element, "video-direction", &method, NULL);
  fail_unless_equals_int (method, GST_VIDEO_ORIENTATION_UL_LR);

  gst_util_set_object_arg (G_OBJECT (h->element), "method", "clockwise");
  g_object_get (h->element, "video-direction", &method, NULL);
  fail_unless_equals_int (method, GST_VIDEO_ORIENTATION_90R);
  gst_util_set_object_arg (G_OBJECT (h->element), "video-direction", "vert");
  g_object_get (h->element, "method", &method, NULL);
  fail_unless_equals_int (method, GST_VIDEO_ORIENTATION_VERT);

  /* said on the terminal (g_warning) and on the bus */
  ASSERT_WARNING (g_object_set (h->element, "video-direction",
          GST_VIDEO_ORIENTATION_CUSTOM, NULL));
  g_object_get (h->element, "video-direction", &method, NULL);
  fail_unless_equals_int (method, GST_VIDEO_ORIENTATION_VERT);
  text = ct_check_pop_message_text (bus, GST_MESSAGE_WARNING);
  fail_unless (strstr (text, "custom") != NULL, "%s", text);
  g_free (text);

  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* The image-orientation of the last tag event that reached the harness's
 * sink, or NULL (g_free it). */
static gchar *
last_orientation_downstream (GstHarness * h)
{
  gchar *orientation = NULL;
  GstEvent *e;

  while ((e = gst_harness_try_pull_event (h))) {
    if (GST_EVENT_TYPE (e) == GST_EVENT_TAG) {
      GstTagList *tags;

      gst_event_parse_tag (e, &tags);
      g_free (orientation);
      orientation = NULL;
      gst_tag_list_get_string (tags, GST_TAG_IMAGE_ORIENTATION, &orientation);
    }
    gst_event_unref (e);
  }
  return orientation;
}

/* video-direction=auto turns each tagged stream upright, tells downstream
 * it is (rotate-0), and follows a tag that changes mid-stream, with a
 * renegotiation where width and height swap. */
GST_START_TEST (test_auto_follows_tags)
{
  GstHarness *h = ct_check_harness_new (CPU_ELEMENT " video-direction=auto",
      NULL);
  GstVideoInfo info;
  guint i;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_I420, 64,
          48));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64,
          48));
  for (i = 0; i < ct_check_n_orientation_tags; i++) {
    GstTagList *tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION,
        ct_check_orientation_tags[i].tag, NULL);
    GstBuffer *in = ct_check_make_frame (&info, 0), *out;
    gchar *said;

    fail_unless (gst_harness_push_event (h, gst_event_new_tag (tags)));
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    ct_check_assert_oriented (&info, in, out, ct_check_orientation_tags[i].method,
        ct_check_orientation_tags[i].tag);
    said = last_orientation_downstream (h);
    fail_unless_equals_string (said, "rotate-0");
    g_free (said);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A stream tag wins over a global one; a stream tag without an
 * orientation goes back to the global one. Without auto, tags change
 * nothing and pass on as they are. */
GST_START_TEST (test_tag_scopes)
{
  GstHarness *h = ct_check_harness_new (CPU_ELEMENT " video-direction=auto",
      NULL);
  GstTagList *tags;
  gchar *said;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_RGBA, 20,
          10));
  tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-180", NULL);
  gst_tag_list_set_scope (tags, GST_TAG_SCOPE_GLOBAL);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag (tags)));
  tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-90", NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag (tags)));
  ct_check_push_and_verify_direction (h, GST_VIDEO_FORMAT_RGBA, 20, 10, 0,
      GST_VIDEO_ORIENTATION_90R, "stream tag over global");

  tags = gst_tag_list_new (GST_TAG_TITLE, "no orientation", NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag (tags)));
  ct_check_push_and_verify_direction (h, GST_VIDEO_FORMAT_RGBA, 20, 10, 0,
      GST_VIDEO_ORIENTATION_180, "back to the global tag");

  /* a fixed direction: the tag is someone else's business */
  g_object_set (h->element, "video-direction", GST_VIDEO_ORIENTATION_90L,
      NULL);
  g_free (last_orientation_downstream (h));
  tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-270", NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag (tags)));
  ct_check_push_and_verify_direction (h, GST_VIDEO_FORMAT_RGBA, 20, 10, 0,
      GST_VIDEO_ORIENTATION_90L, "fixed direction");
  said = last_orientation_downstream (h);
  fail_unless_equals_string (said, "rotate-270");
  g_free (said);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A pointer on the output goes upstream at its place on the input, as
 * videoflip maps it: 64x48 in, the output 48x64 or 64x48. */
GST_START_TEST (test_navigation_mapped_back)
{
  static const struct
  {
    GstVideoOrientationMethod method;
    gdouble x, y;               /* on the input, for (10, 20) on the output */
  } cases[] = {
    {GST_VIDEO_ORIENTATION_IDENTITY, 10, 20},
    {GST_VIDEO_ORIENTATION_90R, 20, 48 - 10},
    {GST_VIDEO_ORIENTATION_180, 64 - 10, 48 - 20},
    {GST_VIDEO_ORIENTATION_90L, 64 - 20, 10},
    {GST_VIDEO_ORIENTATION_HORIZ, 64 - 10, 20},
    {GST_VIDEO_ORIENTATION_VERT, 10, 48 - 20},
    {GST_VIDEO_ORIENTATION_UL_LR, 20, 10},
    {GST_VIDEO_ORIENTATION_UR_LL, 64 - 20, 48 - 10},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstEvent *e;
    gdouble x = -1, y = -1;

    g_object_set (h->element, "video-direction", cases[i].method, NULL);
    gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 64,
            48));
    fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8,
            64, 48));
    in = ct_check_make_frame (&info, 0);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    gst_buffer_unref (out);
    while ((e = gst_harness_try_pull_upstream_event (h)))
      gst_event_unref (e);

    fail_unless (gst_harness_push_upstream_event (h,
            gst_navigation_event_new_mouse_move (10, 20,
                GST_NAVIGATION_MODIFIER_NONE)));
    do {
      e = gst_harness_pull_upstream_event (h);
      fail_unless (e != NULL);
      if (GST_EVENT_TYPE (e) == GST_EVENT_NAVIGATION)
        break;
      gst_event_unref (e);
    } while (TRUE);
    fail_unless (gst_navigation_event_get_coordinates (e, &x, &y));
    fail_unless (x == cases[i].x && y == cases[i].y,
        "direction %d: (10, 20) went up as (%g, %g), expected (%g, %g)",
        cases[i].method, x, y, cases[i].x, cases[i].y);
    gst_event_unref (e);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* 4K in every direction, one format of each plane layout (element sizes 1
 * to 8, chroma planar and interleaved, planar RGB, both 4:2:2 layouts);
 * padded strides every other frame. (Every format runs in every direction
 * on the smaller sizes above.) */
GST_START_TEST (test_4k_every_direction)
{
  guint d, f;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);

    g_object_set (h->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_layout_formats; f++) {
      GstVideoFormat fmt = ct_check_layout_formats[f];

      gst_harness_set_src_caps (h, ct_check_caps (fmt, 3840, 2160));
      ct_check_push_and_verify_direction (h, fmt, 3840, 2160,
          (d + f) % 2 ? 0 : 5, method, "4K");
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The property's nick of @method ("90r"). */
static const gchar *
direction_nick (GstVideoOrientationMethod method)
{
  GEnumClass *c = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  const gchar *nick = g_enum_get_value (c, method)->value_nick;

  g_type_class_unref (c);
  return nick;
}

/* Interlaced frames: horiz and identity keep every row in its field, so
 * they are taken (the caps keep interlace-mode); every other direction
 * moves rows between fields or turns them into columns, and is refused
 * with a message to deinterlace first. */
GST_START_TEST (test_interlaced)
{
  guint d;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    gboolean taken = method == GST_VIDEO_ORIENTATION_HORIZ ||
        method == GST_VIDEO_ORIENTATION_IDENTITY;
    GstBus *bus;
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, &bus);
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstFlowReturn ret;

    g_object_set (h->element, "video-direction", method, NULL);
    gst_harness_set_src_caps_str (h, "video/x-raw,format=YUY2,width=65,"
        "height=48,interlace-mode=interleaved,field-order=top-field-first,"
        "framerate=25/1");
    fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_YUY2, 65,
            48));
    in = ct_check_make_frame (&info, 0);
    ret = gst_harness_push (h, gst_buffer_ref (in));
    if (taken) {
      GstCaps *caps;

      fail_unless_equals_int (ret, GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      ct_check_assert_oriented (&info, in, out, method, "interlaced");
      caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (caps, 0), "interlace-mode"),
          "interleaved");
      gst_caps_unref (caps);
      gst_buffer_unref (out);
    } else {
      gchar *text;

      fail_unless_equals_int (ret, GST_FLOW_NOT_NEGOTIATED);
      text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
      fail_unless (strstr (text, "Deinterlace it first") != NULL &&
          strstr (text, direction_nick (method)) != NULL,
          "direction %d: unhelpful message: %s", method, text);
      g_free (text);
    }
    gst_buffer_unref (in);
    ct_check_harness_free (h, bus);
  }
}

GST_END_TEST;

/* IYUV is I420 under another name (GstVideoInfo knows only the latter):
 * taken, and transformed as I420, in every direction. */
GST_START_TEST (test_iyuv_is_i420)
{
  guint d;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    GstHarness *h = ct_check_harness_new (CPU_ELEMENT, NULL);
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstCaps *caps;

    g_object_set (h->element, "video-direction", method, NULL);
    gst_harness_set_src_caps_str (h, "video/x-raw,format=IYUV,width=33,"
        "height=18,framerate=25/1");
    fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 33,
            18));
    in = ct_check_make_frame (&info, 0);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    ct_check_assert_oriented (&info, in, out, method, "IYUV");
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (caps, 0), "format"), "IYUV");
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
directions_suite (void)
{
  Suite *s = suite_create ("directions");
  TCase *tc = tcase_create ("directions");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cpu_all_directions);
  tcase_add_test (tc, test_same_as_videoflip);
  tcase_add_test (tc, test_direction_caps);
  tcase_add_test (tc, test_identity_passes_through);
  tcase_add_test (tc, test_controlled_direction);
  tcase_add_test (tc, test_method_alias_and_custom);
  tcase_add_test (tc, test_auto_follows_tags);
  tcase_add_test (tc, test_tag_scopes);
  tcase_add_test (tc, test_navigation_mapped_back);
  tcase_add_test (tc, test_interlaced);
  tcase_add_test (tc, test_iyuv_is_i420);
  tcase_add_test (tc, test_4k_every_direction);
  return s;
}

GST_CHECK_MAIN (directions);
