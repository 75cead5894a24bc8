/* The caps modules alone (gst/gstcudatransposecaps.c and
 * gstcudatransposecapsjob.c), and the orientation state
 * (gst/gstcudatransposedirection.c), without a pipeline:
 * what one side takes given the other, for every direction, tensors,
 * RGB (packed and planar) to tensors, and the CUDA memory a frame does
 * not fit. Each expectation is worked out here from the input caps, not
 * read from the module. */
#include <gst/check/gstcheck.h>

#include "gstcudatransposecaps.h"
#include "gstcudatransposedirection.h"

static const GstVideoOrientationMethod all_directions[] = {
  GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_90R,
  GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_90L,
  GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_VERT,
  GST_VIDEO_ORIENTATION_UL_LR, GST_VIDEO_ORIENTATION_UR_LL,
};

static GstCaps *
template_caps (void)
{
  return gst_caps_from_string (CT_CAPS_TEMPLATE);
}

static GstCaps *
transform_arith (const gchar * caps_str, GstPadDirection direction,
    const gchar * option)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstCaps *other = template_caps ();
  CtArithSpec spec;
  gchar *why = NULL;
  GstCaps *ret;

  fail_unless (ct_arith_parse (option, &spec, &why), "%s", why);
  ret = ct_caps_transform (caps, direction, NULL, &spec,
      GST_VIDEO_ORIENTATION_UL_LR, GST_VIDEO_ORIENTATION_IDENTITY, other,
      NULL);
  gst_caps_unref (caps);
  gst_caps_unref (other);
  return ret;
}

/* (@turn: the direction that turns a tensor made of video) */
static GstCaps *
transform_turned (const gchar * caps_str, GstPadDirection direction,
    const guint * perm, GstVideoOrientationMethod method,
    GstVideoOrientationMethod turn, const gchar * filter)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstCaps *other = template_caps ();
  GstCaps *f = filter ? gst_caps_from_string (filter) : NULL;
  GstCaps *ret;

  fail_unless (caps != NULL, "%s", caps_str);
  ret = ct_caps_transform (caps, direction, perm, NULL, method, turn, other,
      f);
  gst_caps_unref (caps);
  gst_caps_unref (other);
  if (f)
    gst_caps_unref (f);
  return ret;
}

static GstCaps *
transform (const gchar * caps_str, GstPadDirection direction,
    const guint * perm, GstVideoOrientationMethod method, const gchar * filter)
{
  return transform_turned (caps_str, direction, perm, method,
      GST_VIDEO_ORIENTATION_IDENTITY, filter);
}

/* Video in every direction: width and height (fixed, range) swap where
 * the direction swaps the axes, with the pixel-aspect-ratio inverted;
 * every direction but identity also offers the other memory. I420 cannot
 * become a tensor: tensors come last, only so that a link to them works
 * and set_caps says why it refuses them. */
GST_START_TEST (test_video_directions)
{
  guint d, i;

  for (d = 0; d < G_N_ELEMENTS (all_directions); d++) {
    GstVideoOrientationMethod m = all_directions[d];
    gboolean swap = m == GST_VIDEO_ORIENTATION_90R ||
        m == GST_VIDEO_ORIENTATION_90L || m == GST_VIDEO_ORIENTATION_UL_LR ||
        m == GST_VIDEO_ORIENTATION_UR_LL;
    GstCaps *out = transform ("video/x-raw,format=I420,width=64,height=[ 2, "
        "48 ],pixel-aspect-ratio=4/3", GST_PAD_SINK, NULL, m, NULL);
    gboolean saw_cuda = FALSE, saw_tensors = FALSE;

    fail_if (gst_caps_is_empty (out), "%s: nothing", ct_direction_nick (m));
    for (i = 0; i < gst_caps_get_size (out); i++) {
      GstStructure *s = gst_caps_get_structure (out, i);
      const GValue *par = gst_structure_get_value (s, "pixel-aspect-ratio");
      gint w = 0;

      if (gst_structure_has_name (s, "other/tensors") ||
          gst_structure_has_name (s, "other/tensor")) {
        fail_if (gst_structure_has_field (s, "dimensions") ||
            gst_structure_has_field (s, "dimension"), "%s",
            gst_structure_to_string (s));
        saw_tensors = TRUE;
        continue;
      }
      fail_if (saw_tensors, "%s: video after the tensors",
          ct_direction_nick (m));

      saw_cuda |= ct_caps_is_cuda_memory (gst_caps_get_features (out, i));
      if (swap) {
        fail_unless (gst_structure_get_int (s, "height", &w) && w == 64,
            "%s: %s", ct_direction_nick (m), gst_structure_to_string (s));
        fail_unless (GST_VALUE_HOLDS_INT_RANGE (gst_structure_get_value (s,
                    "width")));
        fail_unless_equals_int (gst_value_get_fraction_numerator (par), 3);
        fail_unless_equals_int (gst_value_get_fraction_denominator (par), 4);
      } else {
        fail_unless (gst_structure_get_int (s, "width", &w) && w == 64,
            "%s: %s", ct_direction_nick (m), gst_structure_to_string (s));
        fail_unless_equals_int (gst_value_get_fraction_numerator (par), 4);
      }
    }
    fail_unless_equals_int (saw_cuda, m != GST_VIDEO_ORIENTATION_IDENTITY);
    fail_unless (saw_tensors, "%s: no tensors to refuse",
        ct_direction_nick (m));
    gst_caps_unref (out);
  }
}

GST_END_TEST;

/* GStreamer 1.24 and later allocate NV21 of odd height in CUDA memory one
 * chroma row short (NV12 is rounded up, NV21 is not) */
#define NV21_ODD_HEIGHT_IN_CUDA (!GST_CHECK_VERSION (1, 24, 0))

/* Packed 4:2:2 of odd width, and NV21 of odd height where GStreamer's CUDA
 * memory lacks its last chroma row, are left out of CUDA memory where
 * system memory remains, and kept where nothing else would (set_caps then
 * says why); even sizes keep it. */
GST_START_TEST (test_odd_packed_422_not_in_cuda)
{
  static const struct
  {
    const gchar *format;
    gint width;
    gboolean cuda_kept;
  } cases[] = {
    {"YUY2", 33, FALSE}, {"UYVY", 33, FALSE}, {"YUY2", 34, TRUE},
    {"I420", 33, TRUE}, {"NV12", 33, TRUE}, {"NV21", 34, TRUE},
    {"NV21", 33, NV21_ODD_HEIGHT_IN_CUDA},
  };
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *in = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=%s,"
        "width=%d,height=%d; video/x-raw,format=%s,width=%d,height=%d",
        cases[c].format, cases[c].width, cases[c].width, cases[c].format,
        cases[c].width, cases[c].width);
    GstCaps *out = transform (in, GST_PAD_SINK, NULL,
        GST_VIDEO_ORIENTATION_UL_LR, NULL);
    gboolean cuda = FALSE, system = FALSE;

    /* (of the video: the tensors there, in either memory, are only to be
     * refused with a reason) */
    for (i = 0; i < gst_caps_get_size (out); i++) {
      if (!gst_structure_has_name (gst_caps_get_structure (out, i),
              "video/x-raw"))
        continue;
      if (ct_caps_is_cuda_memory (gst_caps_get_features (out, i)))
        cuda = TRUE;
      else
        system = TRUE;
    }
    fail_unless_equals_int (cuda, cases[c].cuda_kept);
    fail_unless (system, "%s: no system memory", in);
    gst_caps_unref (out);
    g_free (in);
  }
  {
    /* CUDA memory alone is kept, for set_caps to refuse */
    GstCaps *out = transform ("video/x-raw(memory:CUDAMemory),format=YUY2,"
        "width=33,height=33", GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR,
        "video/x-raw(memory:CUDAMemory)");

    fail_if (gst_caps_is_empty (out));
    fail_unless (ct_caps_is_cuda_memory (gst_caps_get_features (out, 0)));
    gst_caps_unref (out);
  }
}

GST_END_TEST;

/* Tensors: the two innermost sizes swapped, or permuted; sizes that do
 * not parse go on as they are; packed RGB video to CHW tensors and back. */
GST_START_TEST (test_tensors)
{
  static const guint hwc_to_chw[4] = { 1, 2, 0, 3 };
  GstCaps *out;
  const gchar *dims;

  out = transform ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)3:5:7,types=uint8,framerate=0/1", GST_PAD_SINK,
      NULL, GST_VIDEO_ORIENTATION_UL_LR, NULL);
  dims = gst_structure_get_string (gst_caps_get_structure (out, 0),
      "dimensions");
  fail_unless_equals_string (dims, "5:3:7");
  gst_caps_unref (out);

  out = transform ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)3:5:7,types=uint8,framerate=0/1", GST_PAD_SINK,
      hwc_to_chw, GST_VIDEO_ORIENTATION_UL_LR, NULL);
  dims = gst_structure_get_string (gst_caps_get_structure (out, 0),
      "dimensions");
  fail_unless_equals_string (dims, "5:7:3");
  gst_caps_unref (out);

  out = transform ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)\"3:4,\",types=uint8,framerate=0/1", GST_PAD_SINK,
      NULL, GST_VIDEO_ORIENTATION_UL_LR, NULL);
  dims = gst_structure_get_string (gst_caps_get_structure (out, 0),
      "dimensions");
  fail_unless_equals_string (dims, "3:4,");
  gst_caps_unref (out);

  /* RGB 8x4: the tensor 3:8:4:1 (HWC) permuted to CHW, 8:4:3:1 */
  out = transform ("video/x-raw,format=RGB,width=8,height=4,framerate=0/1",
      GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR, "other/tensors");
  fail_if (gst_caps_is_empty (out));
  dims = gst_structure_get_string (gst_caps_get_structure (out, 0),
      "dimensions");
  fail_unless_equals_string (dims, "8:4:3:1");
  gst_caps_unref (out);
}

GST_END_TEST;

/* Planar RGB (RGBP, BGRP, GBR) goes out as the CHW tensor W:H:3:1, or
 * permuted as packed RGB's HWC; a tensor of 3 channels comes back from
 * them too, one of 4 channels from none. */
GST_START_TEST (test_planar_tensors)
{
  static const guint hwc[4] = { 0, 1, 2, 3 };
  const gchar *planar[] = { "RGBP", "BGRP", "GBR" };
  GstCaps *out, *want;
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (planar); i++) {
    gchar *in = g_strdup_printf ("video/x-raw,format=%s,width=9,height=1,"
        "framerate=0/1", planar[i]);

    out = transform (in, GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR,
        "other/tensors");
    fail_if (gst_caps_is_empty (out), "%s", in);
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (out, 0), "dimensions"), "9:1:3:1");
    gst_caps_unref (out);
    out = transform (in, GST_PAD_SINK, hwc, GST_VIDEO_ORIENTATION_UL_LR,
        "other/tensors");
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (out, 0), "dimensions"), "3:9:1:1");
    gst_caps_unref (out);

    want = gst_caps_from_string (in);
    out = transform ("other/tensors,format=static,num_tensors=1,"
        "dimensions=(string)9:1:3:1,types=uint8,framerate=0/1", GST_PAD_SRC,
        NULL, GST_VIDEO_ORIENTATION_UL_LR, "video/x-raw");
    fail_unless (gst_caps_can_intersect (out, want), "%s from %s",
        in, gst_caps_to_string (out));
    gst_caps_unref (out);
    out = transform ("other/tensors,format=static,num_tensors=1,"
        "dimensions=(string)9:1:4:1,types=uint8,framerate=0/1", GST_PAD_SRC,
        NULL, GST_VIDEO_ORIENTATION_UL_LR, "video/x-raw");
    /* (but the video of any size, there only to be refused, with a reason,
     * at set_caps) */
    for (k = 0; k < gst_caps_get_size (out); k++) {
      GstCaps *one = gst_caps_copy_nth (out, k);

      gint w;

      if (gst_structure_get_int (gst_caps_get_structure (one, 0), "width",
              &w))
        fail_if (gst_caps_can_intersect (one, want), "%s from %s",
            in, gst_caps_to_string (out));
      gst_caps_unref (one);
    }
    gst_caps_unref (out);
    gst_caps_unref (want);
    g_free (in);
  }
}

GST_END_TEST;

/* A tensor made of a turned frame: the turned frame's size, both ways
 * (the width and height of the video swapped back from the tensor's),
 * whatever direction video going out as video would take. */
GST_START_TEST (test_turned_tensors)
{
  static const struct
  {
    GstVideoOrientationMethod turn;
    const gchar *chw;
  } cases[] = {
    {GST_VIDEO_ORIENTATION_IDENTITY, "9:5:3:1"},
    {GST_VIDEO_ORIENTATION_90R, "5:9:3:1"},
    {GST_VIDEO_ORIENTATION_180, "9:5:3:1"},
    {GST_VIDEO_ORIENTATION_90L, "5:9:3:1"},
    {GST_VIDEO_ORIENTATION_HORIZ, "9:5:3:1"},
    {GST_VIDEO_ORIENTATION_VERT, "9:5:3:1"},
    {GST_VIDEO_ORIENTATION_UL_LR, "5:9:3:1"},
    {GST_VIDEO_ORIENTATION_UR_LL, "5:9:3:1"},
  };
  const gchar *in = "video/x-raw,format=NV12,width=9,height=5,"
      "framerate=0/1";
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *tensor = g_strdup_printf ("other/tensors,format=static,"
        "num_tensors=1,dimensions=(string)%s,types=uint8,framerate=0/1",
        cases[i].chw);
    GstCaps *want = gst_caps_from_string (in);
    GstCaps *out = transform_turned (in, GST_PAD_SINK, NULL,
        GST_VIDEO_ORIENTATION_IDENTITY, cases[i].turn, "other/tensors");

    fail_if (gst_caps_is_empty (out));
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (out, 0), "dimensions"), cases[i].chw);
    gst_caps_unref (out);
    out = transform_turned (tensor, GST_PAD_SRC, NULL,
        GST_VIDEO_ORIENTATION_UL_LR, cases[i].turn, "video/x-raw");
    fail_unless (gst_caps_can_intersect (out, want), "%s from %s",
        in, gst_caps_to_string (out));
    /* turned, only YUV comes before the tensor (RGB is refused): a source
     * that can give both fixates YUV */
    if (cases[i].turn != GST_VIDEO_ORIENTATION_IDENTITY) {
      GstCaps *rgb = gst_caps_from_string ("video/x-raw,format=RGB");
      GstCaps *t, *any;

      any = transform_turned ("other/tensors,format=static", GST_PAD_SRC,
          NULL, GST_VIDEO_ORIENTATION_UL_LR, cases[i].turn, "video/x-raw");
      /* (what comes first is what a source fixates; the video of any
       * format after it is there only to be refused at set_caps) */
      for (k = 0; k < 2; k++) {
        GstCaps *first = gst_caps_copy_nth (k ? any : out, 0);

        fail_if (gst_caps_can_intersect (first, rgb), "RGB offered first for "
            "%s", k ? "unsized tensors" : cases[i].chw);
        gst_caps_unref (first);
      }
      gst_caps_unref (any);
      t = transform_turned ("video/x-raw,format=RGB,width=9,height=5,"
          "framerate=0/1", GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR,
          cases[i].turn, "other/tensors");
      /* (RGB: tensors of no size, there only to be refused at set_caps) */
      for (k = 0; k < gst_caps_get_size (t); k++)
        fail_if (gst_structure_has_field (gst_caps_get_structure (t, k),
                "dimensions"), "RGB turned into a tensor of a size");
      gst_caps_unref (t);
      gst_caps_unref (rgb);
    }
    gst_caps_unref (out);
    gst_caps_unref (want);
    g_free (tensor);
  }
}

GST_END_TEST;

/* What a pair of caps means: which mapping they fit, how long a buffer
 * may be held, the colorimetry kept across a transpose, the same memory
 * first. */
GST_START_TEST (test_pairs)
{
  GstCaps *in = gst_caps_from_string ("video/x-raw,format=I420,width=640,"
      "height=360,framerate=25/1");
  GstCaps *out = gst_caps_from_string ("video/x-raw,format=I420,width=360,"
      "height=640,framerate=25/1");
  GstCaps *cuda = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=I420,width=360,height=640,framerate=25/1");
  GstCaps *kept, *both;
  GstVideoInfo a, b;
  const gchar *colorimetry;

  fail_unless (ct_caps_video_info (&a, in) && ct_caps_video_info (&b, out));
  fail_unless (ct_caps_fit_mapping (&a, &b, CT_MAPPING_TRANSPOSE));
  fail_if (ct_caps_fit_mapping (&a, &b, CT_MAPPING_FLIP_HORIZONTAL));
  fail_unless_equals_uint64 (ct_caps_hold_duration (in, out), GST_SECOND /
      25);
  fail_unless_equals_uint64 (ct_caps_hold_duration (in, cuda), 0);

  /* 640x360 is guessed BT.601; its 360x640 transpose must say so */
  kept = ct_caps_keep_colorimetry (in, gst_caps_ref (out));
  colorimetry = gst_structure_get_string (gst_caps_get_structure (kept, 0),
      "colorimetry");
  fail_unless_equals_string (colorimetry, "bt601");
  gst_caps_unref (kept);

  both = ct_caps_same_memory_first (in, gst_caps_merge (gst_caps_ref (cuda),
          gst_caps_ref (out)));
  fail_if (ct_caps_is_cuda_memory (gst_caps_get_features (both, 0)));
  gst_caps_unref (both);
  gst_caps_unref (cuda);
  gst_caps_unref (out);
  gst_caps_unref (in);
}

GST_END_TEST;

/* The orientation state alone: the property over the tags unless it is
 * auto; under auto a stream tag over a global one, a stream tag without
 * an orientation back to the global one, and the tag rewritten to
 * rotate-0. */
static GstTagList *
orientation_tags (const gchar * value, GstTagScope scope)
{
  GstTagList *t = value ? gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, value,
      NULL) : gst_tag_list_new_empty ();

  gst_tag_list_set_scope (t, scope);
  return t;
}

GST_START_TEST (test_orientation)
{
  CtOrientation o;
  GstTagList *t, *rewritten;
  gchar *value = NULL;

  ct_orientation_init (&o, GST_VIDEO_ORIENTATION_UL_LR);
  t = orientation_tags ("rotate-90", GST_TAG_SCOPE_STREAM);
  fail_if (ct_orientation_take_tags (&o, t));
  fail_unless_equals_int (o.proposed, GST_VIDEO_ORIENTATION_UL_LR);
  fail_unless (ct_orientation_rewrite_tags (&o, t) == NULL);
  fail_unless (ct_orientation_set (&o, GST_VIDEO_ORIENTATION_AUTO, FALSE));
  fail_unless_equals_int (o.proposed, GST_VIDEO_ORIENTATION_90R);
  rewritten = ct_orientation_rewrite_tags (&o, t);
  fail_unless (rewritten != NULL);
  fail_unless (gst_tag_list_get_string (rewritten, GST_TAG_IMAGE_ORIENTATION,
          &value));
  fail_unless_equals_string (value, "rotate-0");
  g_free (value);
  gst_tag_list_unref (rewritten);
  gst_tag_list_unref (t);

  /* a global tag waits behind the stream tag, and comes back when the
   * stream tag goes */
  t = orientation_tags ("rotate-180", GST_TAG_SCOPE_GLOBAL);
  fail_if (ct_orientation_take_tags (&o, t));
  gst_tag_list_unref (t);
  t = orientation_tags (NULL, GST_TAG_SCOPE_STREAM);
  fail_unless (ct_orientation_take_tags (&o, t));
  fail_unless_equals_int (o.proposed, GST_VIDEO_ORIENTATION_180);
  gst_tag_list_unref (t);
  fail_unless (ct_orientation_reset_tags (&o));
  fail_unless_equals_int (o.proposed, GST_VIDEO_ORIENTATION_IDENTITY);
}

GST_END_TEST;

/* The arithmetic's typecast retypes every tensor toward the source, and
 * takes any type toward the sink; without one the types stay. Video goes
 * out as tensors first, of the typecast's type, GRAY8 too. */
GST_START_TEST (test_arith_types)
{
  const gchar *two = "other/tensors,format=static,num_tensors=2,"
      "dimensions=(string)\"3:4,5:6\",types=(string)\"uint8,int16\","
      "framerate=0/1";
  GstCaps *out;
  GstStructure *s;

  out = transform_arith (two, GST_PAD_SINK, "typecast:float32,add:1");
  s = gst_caps_get_structure (out, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "types"),
      "float32,float32");
  fail_unless_equals_string (gst_structure_get_string (s, "dimensions"),
      "4:3,6:5");
  gst_caps_unref (out);

  out = transform_arith (two, GST_PAD_SINK, "add:1");
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (out, 0), "types"), "uint8,int16");
  gst_caps_unref (out);

  out = transform_arith ("other/tensors,format=static,num_tensors=2,"
      "dimensions=(string)\"4:3,6:5\",types=(string)\"float32,float32\","
      "framerate=0/1", GST_PAD_SRC, "typecast:float32,add:1");
  s = gst_caps_get_structure (out, 0);
  fail_unless (gst_structure_has_name (s, "other/tensors"));
  fail_if (gst_structure_has_field (s, "types"));
  fail_unless_equals_string (gst_structure_get_string (s, "dimensions"),
      "3:4,5:6");
  gst_caps_unref (out);

  out = transform_arith ("video/x-raw,format=GRAY8,width=4,height=2,"
      "framerate=0/1", GST_PAD_SINK, "typecast:int16,mul:2");
  s = gst_caps_get_structure (out, 0);
  fail_unless (gst_structure_has_name (s, "other/tensors"));
  fail_unless_equals_string (gst_structure_get_string (s, "types"), "int16");
  fail_unless_equals_string (gst_structure_get_string (s, "dimensions"),
      "4:2:1:1");
  gst_caps_unref (out);
}

GST_END_TEST;

/* What set_caps only refuses (video of a format no tensor comes from,
 * tensors for video that does not become one) is offered only where
 * nothing else fits the filter: a converter that fixates the format
 * nearest its input must not pick it over one that works. Without a
 * filter (a link's check) it comes last. Static tensors of any count
 * come from one frame. */
/* The index of the first structure of @caps named @name in CUDA memory
 * (@cuda) or not; -1 if none. */
static gint
first_of (GstCaps * caps, const gchar * name, gboolean cuda)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    if (gst_structure_has_name (gst_caps_get_structure (caps, i), name) &&
        ct_caps_is_cuda_memory (gst_caps_get_features (caps, i)) == cuda)
      return (gint) i;
  }
  return -1;
}

/* One static tensor a buffer may be CUDA memory: video becomes tensors in
 * system memory first, then in CUDA memory; tensors keep their memory
 * first, then the other; several tensors and flexible ones stay in system
 * memory. */
GST_START_TEST (test_tensors_in_cuda_memory)
{
  GstCaps *out;
  guint i;

  out = transform_arith ("video/x-raw,format=RGB,width=64,height=36,"
      "framerate=30/1", GST_PAD_SINK, "typecast:float32,add:1");
  fail_unless (first_of (out, "other/tensors", FALSE) >= 0);
  fail_unless (first_of (out, "other/tensors", TRUE) >
      first_of (out, "other/tensors", FALSE), "%" GST_PTR_FORMAT, out);
  fail_unless (first_of (out, "other/tensor", TRUE) >
      first_of (out, "other/tensor", FALSE), "%" GST_PTR_FORMAT, out);
  gst_caps_unref (out);

  out = transform ("other/tensors(memory:CUDAMemory),format=static,"
      "num_tensors=1,dimensions=3:4:5:1,types=uint8,framerate=0/1",
      GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_IDENTITY, NULL);
  fail_unless_equals_int (first_of (out, "other/tensors", TRUE), 0);
  fail_unless (first_of (out, "other/tensors", FALSE) > 0, "%"
      GST_PTR_FORMAT, out);
  gst_caps_unref (out);

  out = transform ("other/tensors,format=static,num_tensors=2,"
      "dimensions=3:4:5:1.2:2,types=uint8.float32,framerate=0/1",
      GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_IDENTITY, NULL);
  out = gst_caps_merge (out, transform ("other/tensors,format=flexible,"
          "framerate=0/1", GST_PAD_SINK, NULL,
          GST_VIDEO_ORIENTATION_IDENTITY, NULL));
  for (i = 0; i < gst_caps_get_size (out); i++) {
    const GstStructure *t = gst_caps_get_structure (out, i);
    gint n = 1;

    if (!ct_caps_is_cuda_memory (gst_caps_get_features (out, i)))
      continue;
    gst_structure_get_int (t, "num_tensors", &n);
    fail_unless (n == 1 && g_strcmp0 (gst_structure_get_string (t,
                "format"), "flexible") != 0, "%" GST_PTR_FORMAT, out);
  }
  gst_caps_unref (out);

  /* an upstream of frames in CUDA memory is asked for frames in CUDA
   * memory only, never for tensors there; one of tensors only is asked
   * for everything */
  {
    GstCaps *sink = template_caps ();
    GstCaps *frames = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
        "format=NV12; other/tensors(memory:CUDAMemory),format=static");
    GstCaps *tensors = gst_caps_from_string ("other/tensors(memory:"
        "CUDAMemory),format=static,num_tensors=1");

    out = ct_caps_cuda_only (sink, frames);
    fail_unless (out != NULL);
    fail_unless (first_of (out, "video/x-raw", TRUE) == 0);
    fail_unless (first_of (out, "other/tensors", TRUE) < 0 &&
        first_of (out, "other/tensor", TRUE) < 0, "%" GST_PTR_FORMAT, out);
    gst_caps_unref (out);
    fail_unless (ct_caps_cuda_only (sink, tensors) == NULL);
    gst_caps_unref (tensors);
    gst_caps_unref (frames);
    gst_caps_unref (sink);
  }
}

GST_END_TEST;

GST_START_TEST (test_refused_only_where_nothing_fits)
{
  const gchar *tensors = "other/tensors,format=static,"
      "num_tensors=(int)[1,2147483647],framerate=30/1";
  GstCaps *deep = gst_caps_from_string ("video/x-raw,format=RGBA64_LE");
  GstCaps *bgra = gst_caps_from_string ("video/x-raw,format=BGRA");
  GstCaps *t = gst_caps_from_string ("other/tensors");
  GstCaps *out, *last;
  gchar *text;

  out = transform (tensors, GST_PAD_SRC, NULL, GST_VIDEO_ORIENTATION_UL_LR,
      "video/x-raw,format={RGBA64_LE,BGRA},width=8,height=4");
  text = gst_caps_to_string (out);
  fail_if (gst_caps_can_intersect (out, deep), "refused-only video offered "
      "beside one that works: %s", text);
  fail_unless (gst_caps_can_intersect (out, bgra), "%s", text);
  gst_caps_unref (out);
  g_free (text);

  out = transform (tensors, GST_PAD_SRC, NULL, GST_VIDEO_ORIENTATION_UL_LR,
      "video/x-raw,format=RGBA64_LE,width=8,height=4");
  text = gst_caps_to_string (out);
  fail_unless (gst_caps_can_intersect (out, deep), "a source of one format "
      "no tensor comes from is refused at set_caps, saying why, not at the "
      "link: %s", text);
  gst_caps_unref (out);
  g_free (text);

  out = transform (tensors, GST_PAD_SRC, NULL, GST_VIDEO_ORIENTATION_UL_LR,
      NULL);
  text = gst_caps_to_string (out);
  last = gst_caps_copy_nth (out, gst_caps_get_size (out) - 1);
  fail_unless (gst_caps_can_intersect (last, deep), "%s", text);
  fail_unless (gst_caps_can_intersect (out, bgra));
  gst_caps_unref (last);
  last = gst_caps_copy_nth (out, 0);
  fail_if (gst_caps_can_intersect (last, deep), "%s", text);
  gst_caps_unref (last);
  gst_caps_unref (out);
  g_free (text);

  /* AYUV becomes no tensor: tensors only where nothing else fits */
  out = transform ("video/x-raw,format=AYUV,width=8,height=4,framerate=0/1",
      GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR,
      "video/x-raw;other/tensors");
  text = gst_caps_to_string (out);
  fail_if (gst_caps_can_intersect (out, t), "%s", text);
  gst_caps_unref (out);
  g_free (text);
  out = transform ("video/x-raw,format=AYUV,width=8,height=4,framerate=0/1",
      GST_PAD_SINK, NULL, GST_VIDEO_ORIENTATION_UL_LR, "other/tensors");
  text = gst_caps_to_string (out);
  fail_unless (gst_caps_can_intersect (out, t), "%s", text);
  gst_caps_unref (out);
  g_free (text);

  gst_caps_unref (t);
  gst_caps_unref (bgra);
  gst_caps_unref (deep);
}

GST_END_TEST;

/* Y42B, NV16 and NV24 go out only as RGB tensors: video of them in is
 * offered tensors first and video of its format last (to be refused at
 * set_caps, saying why), only video where the peer takes nothing else;
 * upstream of video they are asked for last, and only where nothing else
 * fits the filter (a source fixed to one, then refused saying why); never
 * in CUDA memory (GStreamer's allocator lays none of them out); upstream
 * of tensors they are taken in system memory. */
GST_START_TEST (test_tensor_only_formats)
{
  static const gchar *const only[] = { "Y42B", "NV16", "NV24" };
  static const gchar *const not_only[] = { "NV12", "Y444", "Y42", "V16",
    "B", "NV1", "Y42BB", "", "I422_10LE", "NV24 "
  };
  const GstVideoOrientationMethod turns[] = { GST_VIDEO_ORIENTATION_IDENTITY,
    GST_VIDEO_ORIENTATION_90R
  };
  GstCaps *t = gst_caps_from_string ("other/tensors; other/tensor");
  GstCaps *i420 = gst_caps_from_string ("video/x-raw,format=I420");
  gchar *filter;
  guint i, k, j;

  fail_if (ct_caps_is_tensor_only (NULL));
  for (i = 0; i < G_N_ELEMENTS (not_only); i++)
    fail_if (ct_caps_is_tensor_only (not_only[i]), "%s", not_only[i]);
  for (i = 0; i < G_N_ELEMENTS (only); i++) {
    gchar *in = g_strdup_printf ("video/x-raw,format=%s,width=8,height=4,"
        "framerate=30/1", only[i]);
    gchar *sys = g_strdup_printf ("video/x-raw,format=%s", only[i]);
    gchar *cuda = g_strdup_printf ("video/x-raw(memory:CUDAMemory),"
        "format=%s", only[i]);
    GstCaps *v = gst_caps_from_string (sys), *vc = gst_caps_from_string (cuda);

    fail_unless (ct_caps_is_tensor_only (only[i]), "%s", only[i]);
    for (k = 0; k < G_N_ELEMENTS (turns); k++) {
      const gchar *nick = ct_direction_nick (turns[k]);
      GstCaps *out = transform_turned (in, GST_PAD_SINK, NULL, turns[k],
          turns[k], NULL);
      gchar *text = gst_caps_to_string (out);
      gboolean video_seen = FALSE;

      fail_if (gst_caps_is_empty (out), "%s %s: nothing", only[i], nick);
      fail_unless (gst_caps_can_intersect (out, t), "%s %s: %s", only[i],
          nick, text);
      /* its video last, after every tensor */
      for (j = 0; j < gst_caps_get_size (out); j++) {
        GstCaps *one = gst_caps_copy_nth (out, j);

        if (gst_caps_can_intersect (one, v))
          video_seen = TRUE;
        else
          fail_if (video_seen, "%s %s: something after its video: %s",
              only[i], nick, text);
        fail_if (gst_caps_can_intersect (one, vc), "%s %s: CUDA memory: %s",
            only[i], nick, text);
        gst_caps_unref (one);
      }
      fail_unless (video_seen, "%s %s: no video to refuse: %s", only[i],
          nick, text);
      g_free (text);
      gst_caps_unref (out);

      /* a peer of video alone: that video, refused at set_caps */
      out = transform_turned (in, GST_PAD_SINK, NULL, turns[k], turns[k],
          "video/x-raw");
      text = gst_caps_to_string (out);
      fail_unless (gst_caps_can_intersect (out, v), "%s %s: %s", only[i],
          nick, text);
      g_free (text);
      gst_caps_unref (out);

      /* upstream of video: last, or where the filter takes nothing else */
      out = transform_turned ("video/x-raw,width=8,height=4",
          GST_PAD_SRC, NULL, turns[k], turns[k], NULL);
      text = gst_caps_to_string (out);
      video_seen = FALSE;
      for (j = 0; j < gst_caps_get_size (out); j++) {
        GstCaps *one = gst_caps_copy_nth (out, j);

        if (gst_caps_can_intersect (one, v))
          video_seen = TRUE;
        else
          fail_if (video_seen, "%s %s: something after it: %s", only[i],
              nick, text);
        gst_caps_unref (one);
      }
      fail_unless (video_seen && gst_caps_can_intersect (out, i420),
          "%s %s: %s", only[i], nick, text);
      g_free (text);
      gst_caps_unref (out);
      filter = g_strdup_printf ("video/x-raw,format={ I420, %s }", only[i]);
      out = transform_turned ("video/x-raw,width=8,height=4",
          GST_PAD_SRC, NULL, turns[k], turns[k], filter);
      text = gst_caps_to_string (out);
      fail_if (gst_caps_can_intersect (out, v), "%s %s: %s", only[i], nick,
          text);
      g_free (text);
      gst_caps_unref (out);
      out = transform_turned ("video/x-raw,width=8,height=4",
          GST_PAD_SRC, NULL, turns[k], turns[k], sys);
      text = gst_caps_to_string (out);
      fail_unless (gst_caps_can_intersect (out, v), "%s %s: %s", only[i],
          nick, text);
      g_free (text);
      g_free (filter);
      gst_caps_unref (out);

      /* upstream of tensors: in system memory */
      out = transform_turned ("other/tensors,format=static", GST_PAD_SRC,
          NULL, turns[k], turns[k], NULL);
      text = gst_caps_to_string (out);
      fail_unless (gst_caps_can_intersect (out, v), "%s %s: %s", only[i],
          nick, text);
      fail_if (gst_caps_can_intersect (out, vc), "%s %s: %s", only[i], nick,
          text);
      g_free (text);
      gst_caps_unref (out);
    }
    gst_caps_unref (v);
    gst_caps_unref (vc);
    g_free (in);
    g_free (sys);
    g_free (cuda);
  }
  gst_caps_unref (i420);
  gst_caps_unref (t);
}

GST_END_TEST;

static Suite *
caps_suite (void)
{
  Suite *s = suite_create ("caps");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_video_directions);
  tcase_add_test (tc, test_odd_packed_422_not_in_cuda);
  tcase_add_test (tc, test_tensors);
  tcase_add_test (tc, test_planar_tensors);
  tcase_add_test (tc, test_turned_tensors);
  tcase_add_test (tc, test_refused_only_where_nothing_fits);
  tcase_add_test (tc, test_pairs);
  tcase_add_test (tc, test_orientation);
  tcase_add_test (tc, test_arith_types);
  tcase_add_test (tc, test_tensors_in_cuda_memory);
  tcase_add_test (tc, test_tensor_only_formats);
  return s;
}

GST_CHECK_MAIN (caps);
