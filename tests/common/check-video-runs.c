/* Frames pushed through a harness and checked against the reference in
 * check-video.c: every format and size, every direction, against videoflip,
 * video-direction under a controller, and round trips. */
#include "transpose-check.h"

#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <string.h>

/* Whether videoflip 1.22 averages planar 4:2:2 chroma over the source rows
 * it should for a w x h frame under @method: under 90l, ul-lr and ur-ll it
 * tests the second row against the chroma plane's width, not the height,
 * so on other shapes it skips means it should take, or reads past the
 * plane (its own output differs from run to run there). */
static gboolean
videoflip_422_agrees (GstVideoOrientationMethod method, guint w, guint h)
{
  guint cw = (w + 1) / 2, x;

  if (method != GST_VIDEO_ORIENTATION_90L &&
      method != GST_VIDEO_ORIENTATION_UL_LR &&
      method != GST_VIDEO_ORIENTATION_UR_LL)
    return TRUE;
  for (x = 0; x < (h + 1) / 2; x++)
    if ((2 * x + 1 < cw) != (2 * x + 1 < h))
      return FALSE;
  return TRUE;
}

/* Whether videoflip takes @format. */
static gboolean
videoflip_takes (GstVideoFormat format)
{
  GstElementFactory *f = gst_element_factory_find ("videoflip");
  GstCaps *caps = ct_check_caps (format, 16, 16);
  gboolean takes;

  fail_unless (f != NULL, "no videoflip (gst-plugins-good)");
  takes = gst_element_factory_can_sink_any_caps (f, caps);
  gst_caps_unref (caps);
  gst_object_unref (f);
  return takes;
}

void
ct_check_push_and_verify (GstHarness * h, GstVideoFormat format, gint width,
    gint height, guint stride_pad, const gchar * what)
{
  ct_check_push_and_verify_direction (h, format, width, height, stride_pad,
      GST_VIDEO_ORIENTATION_UL_LR, what);
}

void
ct_check_all_formats (GstHarness * h, const gchar * what)
{
  ct_check_formats_of (h, ct_check_formats, ct_check_n_formats, what);
}

void
ct_check_formats_of (GstHarness * h, const GstVideoFormat * formats,
    guint n_formats, const gchar * what)
{
  guint f, s;

  for (f = 0; f < n_formats; f++) {
    for (s = 0; s < ct_check_n_sizes; s++) {
      GstVideoFormat fmt = formats[f];
      gint w = ct_check_sizes[s][0], hh = ct_check_sizes[s][1];

      gst_harness_set_src_caps (h, ct_check_caps (fmt, w, hh));
      ct_check_push_and_verify (h, fmt, w, hh, 0, what);
      /* odd padding: strides that are no multiple of the element size */
      ct_check_push_and_verify (h, fmt, w, hh, 3 + s, what);
    }
  }
}

void
ct_check_push_and_verify_direction (GstHarness * h, GstVideoFormat format,
    gint width, gint height, guint stride_pad,
    GstVideoOrientationMethod method, const gchar * what)
{
  GstVideoInfo info;
  GstBuffer *in, *out;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  in = ct_check_make_frame (&info, stride_pad);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);
  ct_check_assert_oriented (&info, in, out, method, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Sizes for the eight directions: odd, 1xN, Nx1, several tiles, not
 * square. */
static const gint direction_sizes[][2] = {
  {1, 1}, {1, 37}, {37, 1}, {33, 65}, {64, 64}, {130, 71},
};

void
ct_check_all_directions (GstHarness * h, const gchar * what)
{
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];

    g_object_set (h->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_formats; f++) {
      for (s = 0; s < G_N_ELEMENTS (direction_sizes); s++) {
        GstVideoFormat fmt = ct_check_formats[f];
        gint w = direction_sizes[s][0], hh = direction_sizes[s][1];

        gst_harness_set_src_caps (h, ct_check_caps (fmt, w, hh));
        /* default strides, then odd ones in a GstVideoMeta */
        ct_check_push_and_verify_direction (h, fmt, w, hh, 0, method, what);
        ct_check_push_and_verify_direction (h, fmt, w, hh, 3 + s, method,
            what);
      }
    }
  }
}

/* Sizes against videoflip: the directions' and a few more odd ones, where
 * its 4:2:2 paths pair rows and columns. */
static const gint videoflip_sizes[][2] = {
  {1, 1}, {1, 37}, {37, 1}, {2, 3}, {3, 2}, {33, 65}, {64, 64}, {130, 71},
  {17, 9}, {9, 17}, {64, 31},
};

void
ct_check_against_videoflip (const gchar * desc)
{
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    GstHarness *ours = ct_check_harness_new (desc, NULL);
    GstHarness *flip = gst_harness_new ("videoflip");

    g_object_set (ours->element, "video-direction", method, NULL);
    g_object_set (flip->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_formats; f++) {
      if (!videoflip_takes (ct_check_formats[f]))
        continue;
      for (s = 0; s < G_N_ELEMENTS (videoflip_sizes); s++) {
        GstVideoFormat fmt = ct_check_formats[f];
        gint w = videoflip_sizes[s][0], hh = videoflip_sizes[s][1];
        GstVideoInfo info, out_info;
        GstBuffer *in, *a, *b;

        fail_unless (gst_video_info_set_format (&info, fmt, w, hh));
        ct_check_out_info (&info, method, &out_info);
        in = ct_check_make_frame (&info, 0);
        gst_harness_set_src_caps (ours, ct_check_caps (fmt, w, hh));
        gst_harness_set_src_caps (flip, ct_check_caps (fmt, w, hh));
        ct_check_push_one (ours, in);
        fail_unless_equals_int (gst_harness_push (flip, gst_buffer_ref (in)),
            GST_FLOW_OK);
        a = gst_harness_pull (ours);
        b = gst_harness_pull (flip);
        fail_unless (a != NULL && b != NULL, "no output");
        /* our own reference checks the output (ct_check_assert_oriented);
         * videoflip must agree with it wherever its output is sound */
        ct_check_assert_oriented (&info, in, a, method, desc);
        /* videoflip leaves row padding unwritten: visible pixels only; on
         * the shapes where it gets planar 4:2:2's chroma wrong, the luma */
        if (method == GST_VIDEO_ORIENTATION_IDENTITY &&
            ct_check_is_packed_422 (fmt) && (w & 1)) {
          /* (videoflip's identity, gst_video_frame_copy, copies width * 2
           * bytes a row: the chroma of an odd width's last pair stays
           * unwritten) */
        } else {
          ct_check_assert_same_planes (&out_info, a, b,
              ct_check_is_planar_422 (fmt) &&
              !videoflip_422_agrees (method, w, hh) ? 1 :
              GST_VIDEO_INFO_N_PLANES (&out_info));
        }
        gst_buffer_unref (a);
        gst_buffer_unref (b);
        gst_buffer_unref (in);
      }
    }
    gst_harness_teardown (flip);
    gst_harness_teardown (ours);
  }
}

/* The controller's schedule: each direction from its frame on, the eight
 * in turn, a swap of width and height at every other step, identity (a
 * passthrough) among them. */
static const struct
{
  guint frame;
  GstVideoOrientationMethod method;
} controlled_steps[] = {
  {0, GST_VIDEO_ORIENTATION_90R}, {2, GST_VIDEO_ORIENTATION_180},
  {3, GST_VIDEO_ORIENTATION_UL_LR}, {5, GST_VIDEO_ORIENTATION_IDENTITY},
  {6, GST_VIDEO_ORIENTATION_90L}, {7, GST_VIDEO_ORIENTATION_HORIZ},
  {8, GST_VIDEO_ORIENTATION_UR_LL}, {10, GST_VIDEO_ORIENTATION_VERT},
};

#define CONTROLLED_FRAMES 12
#define CONTROLLED_FRAME_DURATION (GST_SECOND / 25)

static GstVideoOrientationMethod
controlled_direction_at (guint frame)
{
  GstVideoOrientationMethod method = controlled_steps[0].method;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (controlled_steps); i++)
    if (controlled_steps[i].frame <= frame)
      method = controlled_steps[i].method;
  return method;
}

/* The control value a direct binding turns into enum value @value of
 * @pspec: it takes entry value * (n_values - 1) of the enum's table,
 * rounded down, so the middle of the entry's interval. */
static gdouble
control_value_of (GParamSpec * pspec, gint value)
{
  GEnumClass *e = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  guint i;

  for (i = 0; i < e->n_values; i++)
    if (e->values[i].value == value)
      return (i + 0.5) / (e->n_values - 1);
  fail ("%s has no value %d", pspec->name, value);
  return 0;
}

/* Pulls the next output, @ins[*@next]'s (by its timestamp), and checks it
 * in the direction the schedule gave its frame; poisons it after, for the
 * frame that takes its memory next. */
static void
pull_controlled (GstHarness * h, const GstVideoInfo * info, GstBuffer ** ins,
    guint * next, const gchar * what)
{
  GstBuffer *out = gst_harness_pull (h);
  GstVideoOrientationMethod method = controlled_direction_at (*next);
  gchar *where = g_strdup_printf ("%s, frame %u, video-direction %d", what,
      *next, method);
  GstMapInfo map;

  fail_unless (out != NULL, "%s: no output", where);
  fail_unless (*next < CONTROLLED_FRAMES, "%s: more out than in", where);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
      *next * CONTROLLED_FRAME_DURATION);
  ct_check_assert_oriented (info, ins[*next], out, method, where);
  if (method == GST_VIDEO_ORIENTATION_IDENTITY) {
    fail_unless (out == ins[*next], "%s: identity copied the frame", where);
  } else {
    fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE), "%s: the output "
        "cannot be written", where);
    memset (map.data, 0xa5 ^ *next, map.size);
    gst_buffer_unmap (out, &map);
  }
  gst_buffer_unref (out);
  g_free (where);
  (*next)++;
}

void
ct_check_controlled_directions (GstHarness * h, GstVideoFormat format,
    gint width, gint height, const gchar * what)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (h->element), "video-direction");
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstBuffer *ins[CONTROLLED_FRAMES];
  GstVideoOrientationMethod now;
  GstVideoInfo info;
  GstCaps *caps;
  guint i, next = 0;

  fail_unless (pspec != NULL && (pspec->flags & GST_PARAM_CONTROLLABLE),
      "%s: video-direction is not controllable", what);
  /* a step function: each value holds until the next point */
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  for (i = 0; i < G_N_ELEMENTS (controlled_steps); i++) {
    fail_unless (gst_timed_value_control_source_set
        (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
            controlled_steps[i].frame * CONTROLLED_FRAME_DURATION,
            control_value_of (pspec, controlled_steps[i].method)));
  }
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          gst_direct_control_binding_new (GST_OBJECT (h->element),
              "video-direction", cs)));
  gst_object_unref (cs);

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  caps = ct_check_caps (format, width, height);
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 25, 1, NULL);
  gst_harness_set_src_caps (h, caps);
  for (i = 0; i < CONTROLLED_FRAMES; i++) {
    ins[i] = ct_check_make_frame (&info, i % 2 ? 3 : 0);
    GST_BUFFER_PTS (ins[i]) = i * CONTROLLED_FRAME_DURATION;
    GST_BUFFER_DURATION (ins[i]) = CONTROLLED_FRAME_DURATION;
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (ins[i])),
        GST_FLOW_OK);
    /* the controller set the property for this frame */
    g_object_get (h->element, "video-direction", &now, NULL);
    fail_unless_equals_int (now, controlled_direction_at (i));
    /* (a frame may stay held back, frames-in-flight) */
    while (gst_harness_buffers_in_queue (h) > 0)
      pull_controlled (h, &info, ins, &next, what);
    fail_unless (next == i || next == i + 1, "%s: %u frames held back",
        what, i + 1 - next);
  }
  ct_check_push_drain (h);
  while (next < CONTROLLED_FRAMES)
    pull_controlled (h, &info, ins, &next, what);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  for (i = 0; i < CONTROLLED_FRAMES; i++)
    gst_buffer_unref (ins[i]);
}

void
ct_check_round_trip (const gchar * desc, GstVideoFormat format, gint width,
    gint height)
{
  GstHarness *h = ct_check_harness_new (desc, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, ct_check_caps (format, width, height));
  fail_unless (gst_video_info_set_format (&info, format, width, height));
  in = ct_check_make_frame (&info, 0);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", desc);
  ct_check_assert_same_frame (&info, in, out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}
