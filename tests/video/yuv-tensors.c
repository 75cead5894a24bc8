/* YUV video into the element, out as RGB (or BGR) tensors: each frame must
 * be what GStreamer's videoconvert (dither=none) makes of it in RGB, seen
 * as the HWC tensor and laid out by the permutation (CHW by default), with
 * the arithmetic computed here as NNStreamer defines it (each step in
 * float32); 10- and 16-bit input into float32 from videoconvert's 16-bit
 * RGB (ARGB64_LE) divided by 257, keeping its precision; turned by
 * video-direction where it is set (each of the eight, the frame's pixels
 * placed as check-video.c's reference says). Random frames (padding too, and
 * padded strides), every format, matrix, range and chroma siting, odd and
 * one-pixel sizes; the output poisoned first. Then the channel order and
 * the direction changed while playing, RGB video that would be turned
 * refused, a colorimetry the conversion has no matrix for refused
 * with a message, and the formats taken only into tensors refused as
 * video.
 *
 * Built twice: test-yuv-tensors on the CPU (kernel=cpu); test-yuv-tensors-gpu
 * (YUV_ON_GPU) with the element's own choice on a CUDA device, exiting 77
 * without one. */
#include "transpose-check.h"
#include "permute-reference.h"
#ifdef YUV_ON_GPU
#include "gpu-check.h"
#include "cuda-formats.h"
#define KERNEL "auto"
#else
#define KERNEL "cpu"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV24,
};

static const guint sizes[][2] = {
  {1, 1}, {2, 2}, {3, 3}, {1, 9}, {9, 1}, {7, 5}, {33, 17}, {121, 67},
  {640, 360},
};

/* What the element is asked for: the channel order, the permutation (NULL:
 * CHW), the arithmetic (NULL: none; else one of the two computed in
 * arith_ref) and video-direction (NULL: unset). */
typedef struct
{
  gboolean bgr;
  const gchar *perm;
  const gchar *arith;
  const gchar *direction;
} Setup;

static const Setup setups[] = {
  {FALSE, NULL, NULL, NULL},
  {TRUE, NULL, NULL, NULL},
  {FALSE, NULL, "typecast:float32,add:-127.5,div:127.5", NULL},
  {TRUE, "0:1:2:3", NULL, NULL},
  {FALSE, "0:2:1:3", "typecast:float32,div:255", NULL},
  {TRUE, "2:0:1:3", "typecast:float32,add:-127.5,div:127.5", NULL},
  {FALSE, NULL, NULL, "90r"},
  {TRUE, NULL, "typecast:float32,add:-127.5,div:127.5", "90l"},
  {FALSE, "0:1:2:3", NULL, "180"},
  {FALSE, NULL, "typecast:float32,div:255", "horiz"},
  {TRUE, "0:2:1:3", NULL, "vert"},
  {FALSE, NULL, NULL, "ul-lr"},
  {FALSE, "2:0:1:3", "typecast:float32,add:-127.5,div:127.5", "ur-ll"},
  {TRUE, NULL, NULL, "identity"},
};

/* The orientation video-direction=@nick names (NULL: unset, the frame as
 * it comes). */
static GstVideoOrientationMethod
direction_of (const gchar * nick)
{
  GEnumClass *klass;
  GEnumValue *v;
  GstVideoOrientationMethod method;

  if (!nick)
    return GST_VIDEO_ORIENTATION_IDENTITY;
  klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  v = g_enum_get_value_by_nick (klass, nick);
  fail_unless (v != NULL, "no direction %s", nick);
  method = (GstVideoOrientationMethod) v->value;
  g_type_class_unref (klass);
  return method;
}

static guint n_frames;
static guint64 n_values;

/* The arithmetic of @arith on the value @v, as NNStreamer computes it:
 * the typecast, then each operation in float32 with its operand cast to
 * float32. */
static gfloat
arith_ref (const gchar * arith, gfloat v)
{
  if (g_str_has_prefix (arith, "typecast:float32,add:")) {
    v = v + (gfloat) - 127.5;
    return v / (gfloat) 127.5;
  }
  return v / (gfloat) 255;
}

static void
parse_perm (const gchar * text, guint perm[4])
{
  static const guint chw[4] = { 1, 2, 0, 3 };
  guint k;

  if (!text) {
    memcpy (perm, chw, sizeof (chw));
    return;
  }
  for (k = 0; k < 4; k++)
    perm[k] = text[2 * k] - '0';
}

/* The tensor @out must be @ref (RGB) as set up by @s: pixel (x, y) of the
 * frame turned to (ox, oy) (as check-video.c's reference says), value
 * (c, ox, oy) of the turned frame's HWC
 * tensor at c * step[0] + ox * step[1] + oy * step[2]. With @ref16
 * (ARGB64_LE, 10- and 16-bit input), a float output holds its 16-bit
 * values instead, each divided by 257 in float32 before the arithmetic. */
static void
compare (const GstVideoFrame * ref, const GstVideoFrame * ref16,
    GstBuffer * out, const Setup * s, guint w, guint h, const gchar * what)
{
  const GstVideoOrientationMethod turn = direction_of (s->direction);
  const gboolean keep = !ct_check_direction_swaps (turn);
  const guint64 hwc[4] = { 3, keep ? w : h, keep ? h : w, 1 };
  guint64 odims[4], step[4];
  guint perm[4], c, x, y, ox, oy;
  gsize elem = s->arith ? 4 : 1;
  GstMapInfo m;

  parse_perm (s->perm, perm);
  ct_ref_permuted_layout (hwc, perm, odims, step);
  fail_unless (gst_buffer_map (out, &m, GST_MAP_READ));
  fail_unless_equals_uint64 (m.size, (guint64) w * h * 3 * elem);
  for (y = 0; y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (ref, 0)
        + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (ref, 0);
    const guint8 *row16 = ref16 ? (const guint8 *)
        GST_VIDEO_FRAME_PLANE_DATA (ref16, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (ref16, 0) : NULL;

    for (x = 0; x < w; x++) {
      ct_check_oriented_point (turn, w, h, x, y, &ox, &oy);
      for (c = 0; c < 3; c++) {
        guint rc = s->bgr ? 2 - c : c;
        guint8 v = row[3 * x + rc];
        gsize at = c * step[0] + ox * step[1] + oy * step[2];

        if (s->arith) {
          /* (ARGB64_LE: A, R, G, B, 16-bit little-endian each) */
          guint v16 = row16 ? GST_READ_UINT16_LE (row16 + 8 * x + 2 +
              2 * rc) : 0;
          volatile gfloat from = row16 ? (gfloat) v16 / (gfloat) 257 :
              (gfloat) v;
          gfloat want = arith_ref (s->arith, from), got;

          memcpy (&got, m.data + at * 4, 4);
          if (memcmp (&want, &got, 4) != 0) {
            gst_buffer_unmap (out, &m);
            fail ("%s: channel %u of (%u, %u): %.9g, want %.9g (from %u%s)",
                what, c, x, y, got, want, row16 ? v16 : v,
                row16 ? " of 65535" : "");
          }
        } else if (m.data[at] != v) {
          guint8 got = m.data[at];

          gst_buffer_unmap (out, &m);
          fail ("%s: channel %u of (%u, %u): %u, videoconvert %u", what, c,
              x, y, got, v);
        }
      }
    }
  }
  gst_buffer_unmap (out, &m);
  n_values += (guint64) w * h * 3;
}

/* The element as @s sets it up, named t; with @cuda after cudaupload, so
 * that it reads CUDA memory. */
static GstHarness *
element_for (const Setup * s, gboolean cuda)
{
  gchar *desc = g_strdup_printf ("%scudatranspose name=t kernel=" KERNEL
      " channel-order=%s%s%s%s%s%s%s%s", cuda ? "cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! " : "", s->bgr ? "bgr" : "rgb",
      s->perm ? " permutation=" : "", s->perm ? s->perm : "",
      s->arith ? " arithmetic=\"" : "", s->arith ? s->arith : "",
      s->arith ? "\"" : "", s->direction ? " video-direction=" : "",
      s->direction ? s->direction : "");
  GstHarness *h = ct_check_harness_new (desc, NULL);

  g_free (desc);
  gst_harness_set_sink_caps_str (h, "other/tensors,format=static");
  return h;
}

/* One element for each setup and memory, kept across frames (the caps
 * change from one to the next, as a stream's may): a new element on the
 * GPU would make a CUDA context for every frame. */
static GstHarness *harnesses[G_N_ELEMENTS (setups)][2];

static GstHarness *
harness_for (const Setup * s, gboolean cuda)
{
  GstHarness **h = &harnesses[s - setups][cuda ? 1 : 0];

  if (!*h)
    *h = element_for (s, cuda);
  return *h;
}

static void
harnesses_free (void)
{
  guint i, m;

  for (i = 0; i < G_N_ELEMENTS (setups); i++)
    for (m = 0; m < 2; m++)
      if (harnesses[i][m]) {
        ct_check_harness_free (harnesses[i][m], NULL);
        harnesses[i][m] = NULL;
      }
}

static void
check_one (GstVideoFormat format, guint mi, gboolean full,
    GstVideoChromaSite site, guint w, guint h, const Setup * s, guint pad,
    gboolean cuda)
{
  GstHarness *e = harness_for (s, cuda);
  GstVideoInfo info;
  GstVideoFrame ref, ref16;
  GstBuffer *in, *out;
  GstCaps *caps = ct_check_yuv_caps (format, w, h,
      ct_check_yuv_matrices[mi], full, site, &info);
  /* (10- and 16-bit input into float32 keeps its 16-bit values) */
  gboolean deep = s->arith && GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8;
  gchar *cs = gst_caps_to_string (caps);
  gchar *what = g_strdup_printf ("%s%s pad %u, %s, permutation %s, "
      "arithmetic %s, video-direction %s", cs, cuda ? " in CUDA memory" :
      "", pad, s->bgr ? "bgr" : "rgb", s->perm ? s->perm : "(CHW)",
      s->arith ? s->arith : "none", s->direction ? s->direction : "unset");

  in = ct_check_make_frame (&info, pad);
  ct_check_videoconvert (caps, in, GST_VIDEO_FORMAT_RGB, w, h, &ref, what);
  if (deep)
    ct_check_videoconvert (caps, in, GST_VIDEO_FORMAT_ARGB64_LE, w, h,
        &ref16, what);
  gst_harness_set_src_caps (e, gst_caps_ref (caps));
  ct_check_push_one (e, in);
  out = gst_harness_pull (e);
  fail_unless (out != NULL, "%s: no tensor", what);
  compare (&ref, deep ? &ref16 : NULL, out, s, w, h, what);
#ifdef YUV_ON_GPU
  {
    /* (the harness's element is the element, or a bin holding it) */
    GstElement *t = GST_IS_BIN (e->element) ?
        gst_bin_get_by_name (GST_BIN (e->element), "t") :
        gst_object_ref (e->element);
    gchar *ran;

    fail_unless (t != NULL);
    ran = ct_check_active_kernel (t);
    fail_if (g_str_equal (ran, "cpu"), "%s: ran on the CPU", what);
    fail_unless (ct_check_pad_has_cuda_memory (t, "sink") == cuda,
        "%s: the input %s CUDA memory", what, cuda ? "is not" : "is");
    g_free (ran);
    gst_object_unref (t);
  }
#endif
  n_frames++;

  gst_buffer_unref (out);
  gst_video_frame_unmap (&ref);
  if (deep)
    gst_video_frame_unmap (&ref16);
  gst_buffer_unref (in);
  gst_caps_unref (caps);
  g_free (cs);
  g_free (what);
}

GST_START_TEST (test_against_videoconvert)
{
  GstVideoFormat format = formats[__i__];
  guint mi, full, si, sz, k = 0;

  for (mi = 0; mi < ct_check_n_yuv_matrices; mi++)
    for (full = 0; full < 2; full++)
      for (si = 0; si < ct_check_n_chroma_sites; si++)
        for (sz = 0; sz < G_N_ELEMENTS (sizes); sz++, k++)
          check_one (format, mi, full, ct_check_chroma_sites[si],
              sizes[sz][0], sizes[sz][1],
              &setups[k % G_N_ELEMENTS (setups)], (k / 7) % 2 ? 5 : 0, FALSE);
  /* 1080p as a decoder gives it (BT.709, limited, left-sited chroma), to
   * normalized CHW float32 */
  check_one (format, 1, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2, 1920, 1080,
      &setups[2], 0, FALSE);
  harnesses_free ();
  g_print ("%s: %u frames, %" G_GUINT64_FORMAT " values, each "
      "videoconvert's\n", gst_video_format_to_string (format), n_frames,
      n_values);
  n_frames = 0;
  n_values = 0;
}

GST_END_TEST;

#ifdef YUV_ON_GPU
/* Frames in CUDA memory (cudaupload's), read where they are: every format,
 * each setup, odd and 1080p sizes. */
GST_START_TEST (test_cuda_memory_in)
{
  static const gchar *const need[] = { "cudaupload", NULL };
  static const guint cuda_sizes[][2] = { {64, 48}, {33, 17}, {1920, 1080} };
  guint f, sz, k = 0;

  if (!ct_check_have_factories (need))
    return;
  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (sz = 0; sz < G_N_ELEMENTS (cuda_sizes); sz++, k++) {
      /* (the formats GStreamer's CUDA allocator lays out: Y444_10LE,
       * Y42B, NV16 and NV24 are not, and the element takes them from
       * system memory alone) */
      if (!ct_cuda_format_laid_out (formats[f]))
        continue;
#if GST_CHECK_VERSION (1, 24, 0)
      /* GStreamer's CUDA allocator leaves out the last chroma row of NV21
       * of odd height from 1.24 on (docs/memory.md): cudaupload fails to
       * fill such a frame, and the element steers it to system memory */
      if (formats[f] == GST_VIDEO_FORMAT_NV21 && (cuda_sizes[sz][1] & 1)) {
        g_print ("NV21 %ux%u left out in CUDA memory: GStreamer 1.24+ "
            "cannot hold it there\n", cuda_sizes[sz][0], cuda_sizes[sz][1]);
        continue;
      }
#endif
      check_one (formats[f], k % ct_check_n_yuv_matrices, k % 2,
          ct_check_chroma_sites[k % ct_check_n_chroma_sites], cuda_sizes[sz][0],
          cuda_sizes[sz][1], &setups[k % G_N_ELEMENTS (setups)], 0, TRUE);
    }
  harnesses_free ();
  g_print ("CUDA memory: %u frames, %" G_GUINT64_FORMAT " values, each "
      "videoconvert's\n", n_frames, n_values);
  n_frames = 0;
  n_values = 0;
}

GST_END_TEST;
#endif

/* channel-order changed while playing: the next frame comes out in the new
 * order, the one before in the old. */
GST_START_TEST (test_channel_order_while_playing)
{
  static const Setup rgb = { FALSE, NULL, NULL, NULL }, bgr = { TRUE, NULL,
    NULL, NULL
  };
  GstHarness *e = element_for (&rgb, FALSE);
  GstVideoInfo info;
  GstCaps *caps = ct_check_yuv_caps (GST_VIDEO_FORMAT_NV12, 67, 35,
      GST_VIDEO_COLOR_MATRIX_BT709, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2,
      &info);
  guint i;

  gst_harness_set_src_caps (e, gst_caps_ref (caps));
  for (i = 0; i < 4; i++) {
    const Setup *s = i % 2 ? &bgr : &rgb;
    GstBuffer *in = ct_check_make_frame (&info, 0), *out;
    GstVideoFrame ref;

    g_object_set (e->element, "channel-order", s->bgr, NULL);
    ct_check_videoconvert (caps, in, GST_VIDEO_FORMAT_RGB, 67, 35, &ref,
        "channel order");
    ct_check_push_one (e, in);
    out = gst_harness_pull (e);
    fail_unless (out != NULL);
    compare (&ref, NULL, out, s, 67, 35, s->bgr ? "changed to bgr" :
        "changed to rgb");
    gst_buffer_unref (out);
    gst_video_frame_unmap (&ref);
    gst_buffer_unref (in);
  }
  gst_caps_unref (caps);
  ct_check_harness_free (e, NULL);
}

GST_END_TEST;

/* Whether @out (uint8 CHW) is @ref in the order @bgr turned by @turn,
 * every value. */
static gboolean
same_as (const GstVideoFrame * ref, GstBuffer * out, gboolean bgr,
    GstVideoOrientationMethod turn, guint w, guint h)
{
  const gboolean swap = ct_check_direction_swaps (turn);
  const guint ow = swap ? h : w, oh = swap ? w : h;
  GstMapInfo m;
  gboolean same = TRUE;
  guint c, x, y, ox, oy;

  fail_unless (gst_buffer_map (out, &m, GST_MAP_READ));
  fail_unless_equals_uint64 (m.size, (guint64) w * h * 3);
  for (y = 0; same && y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (ref, 0)
        + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (ref, 0);

    for (x = 0; same && x < w; x++) {
      ct_check_oriented_point (turn, w, h, x, y, &ox, &oy);
      for (c = 0; same && c < 3; c++)
        same = m.data[((gsize) c * oh + oy) * ow + ox] ==
            row[3 * x + (bgr ? 2 - c : c)];
    }
  }
  gst_buffer_unmap (out, &m);
  return same;
}

typedef struct
{
  GstElement *element;
  gint stop;
  gboolean turn;                /* video-direction too */
} Flipper;

/* Sets channel-order to the other value every 50 us until told to stop;
 * with @turn, video-direction to one of the eight too. */
static gpointer
flip_order (gpointer data)
{
  Flipper *f = data;
  guint n = 0;

  while (!g_atomic_int_get (&f->stop)) {
    g_object_set (f->element, "channel-order", n % 2, NULL);
    if (f->turn)
      g_object_set (f->element, "video-direction",
          ct_check_directions[(n / 2) % ct_check_n_directions], NULL);
    n++;
    g_usleep (50);
  }
  return NULL;
}

/* video-direction set while playing, the output a tensor: each frame comes
 * out turned by the value set before it, the tensor's sizes renegotiated
 * where the axes swap (width and height of the turned frame), the values
 * each videoconvert's. */
GST_START_TEST (test_direction_while_playing)
{
  static const gchar *const order[] = { "90r", "identity", "ul-lr", "180",
    "90l", "90l", "horiz"
  };
  Setup s = { FALSE, NULL, "typecast:float32,add:-127.5,div:127.5", NULL };
  GstHarness *e = element_for (&s, FALSE);
  GstVideoInfo info;
  GstCaps *caps = ct_check_yuv_caps (GST_VIDEO_FORMAT_I420, 66, 34,
      GST_VIDEO_COLOR_MATRIX_BT709, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2,
      &info);
  guint i;

  gst_harness_set_src_caps (e, gst_caps_ref (caps));
  for (i = 0; i <= G_N_ELEMENTS (order); i++) {
    GstBuffer *in = ct_check_make_frame (&info, 0), *out;
    GstVideoFrame ref;
    GstCaps *now;
    gchar *want, *what;
    const gboolean swap = ct_check_direction_swaps (direction_of
        (s.direction));

    what = g_strdup_printf ("video-direction %s", s.direction ? s.direction :
        "unset");
    ct_check_videoconvert (caps, in, GST_VIDEO_FORMAT_RGB, 66, 34, &ref,
        what);
    ct_check_push_one (e, in);
    out = gst_harness_pull (e);
    fail_unless (out != NULL, "%s: no tensor", what);
    compare (&ref, NULL, out, &s, 66, 34, what);
    now = gst_pad_get_current_caps (e->sinkpad);
    want = g_strdup_printf ("%s:3:1", swap ? "34:66" : "66:34");
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (now, 0), "dimensions"), want);
    gst_caps_unref (now);
    g_free (want);
    g_free (what);
    gst_buffer_unref (out);
    gst_video_frame_unmap (&ref);
    gst_buffer_unref (in);
    if (i < G_N_ELEMENTS (order)) {
      s.direction = order[i];
      gst_util_set_object_arg (G_OBJECT (e->element), "video-direction",
          s.direction);
    }
  }
  gst_caps_unref (caps);
  ct_check_harness_free (e, NULL);
}

GST_END_TEST;

/* channel-order, and with @turn video-direction, set from another thread
 * as fast as it can while frames flow, beside a busy CPU: every frame
 * comes out whole in one direction and one order, never a mix, its tensor
 * of the size its caps say (the turned frame's); once the thread stops,
 * the last values set hold. Without @turn the frames go as they come
 * (video-direction never set). */
static void
settings_from_a_thread (gboolean turn)
{
  static const Setup rgb = { FALSE, NULL, NULL, NULL };
  GstHarness *e = element_for (&rgb, FALSE);
  GstVideoInfo info;
  GstCaps *caps = ct_check_yuv_caps (GST_VIDEO_FORMAT_NV12, 67, 35,
      GST_VIDEO_COLOR_MATRIX_BT709, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2,
      &info);
  Flipper flipper = { e->element, 0, turn };
  /* the candidates: the eight directions, or identity alone (first) */
  const guint n_dirs = turn ? ct_check_n_directions : 1;
  gint spin_stop = 0;
  GThread *flip, *spin;
  guint i, k, swapped = 0, seen[2][8] = { {0} };

  gst_harness_set_src_caps (e, gst_caps_ref (caps));
  spin = g_thread_new ("spin", ct_check_spin, &spin_stop);
  flip = g_thread_new ("flip", flip_order, &flipper);
  for (i = 0; i < 301; i++) {
    GstBuffer *in = ct_check_make_frame (&info, 0), *out;
    GstVideoFrame ref;
    GstCaps *now;
    gboolean last = i == 300, swap;
    guint matches = 0, which = 0;

    if (last) {
      /* the thread stopped: the values set last are the ones that hold */
      g_atomic_int_set (&flipper.stop, 1);
      g_thread_join (flip);
      g_object_set (e->element, "channel-order", 1, NULL);
      if (turn)
        g_object_set (e->element, "video-direction",
            GST_VIDEO_ORIENTATION_90L, NULL);
    }
    ct_check_videoconvert (caps, in, GST_VIDEO_FORMAT_RGB, 67, 35, &ref,
        "settings from a thread");
    ct_check_push_one (e, in);
    out = gst_harness_pull (e);
    fail_unless (out != NULL);
    now = gst_pad_get_current_caps (e->sinkpad);
    swap = g_str_equal (gst_structure_get_string (gst_caps_get_structure
            (now, 0), "dimensions"), "35:67:3:1");
    gst_caps_unref (now);
    /* (of the directions that give the size the caps say) */
    for (k = 0; k < 2 * n_dirs; k++) {
      GstVideoOrientationMethod d = ct_check_directions[k / 2];

      if (ct_check_direction_swaps (d) == swap &&
          same_as (&ref, out, k % 2, d, 67, 35)) {
        matches++;
        which = k;
      }
    }
    /* (a random frame: no two of them agree) */
    fail_unless_equals_int (matches, 1);
    if (last)
      fail_unless (which == (turn ? 2 * 3 + 1 : 1), "the last values set "
          "(%s) did not hold", turn ? "90l, bgr" : "bgr");
    seen[which % 2][which / 2]++;
    swapped += swap;
    gst_buffer_unref (out);
    gst_video_frame_unmap (&ref);
    gst_buffer_unref (in);
  }
  g_atomic_int_set (&spin_stop, 1);
  g_thread_join (spin);
  g_print ("%s from a thread: 301 frames each whole in one direction and "
      "order, %u of them turned to 35x67; RGB, BGR by direction:", turn ?
      "video-direction and channel-order" : "channel-order", swapped);
  for (k = 0; k < n_dirs; k++)
    g_print (" %u+%u", seen[0][k], seen[1][k]);
  g_print ("\n");
  gst_caps_unref (caps);
  ct_check_harness_free (e, NULL);
}

GST_START_TEST (test_channel_order_from_a_thread)
{
  settings_from_a_thread (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_direction_from_a_thread)
{
  settings_from_a_thread (TRUE);
}

GST_END_TEST;

/* RGB video into a tensor is not turned here: with video-direction set it
 * is refused, with a message that says how to turn it (another
 * cudatranspose before); left unset, or identity, it goes. Under auto, a
 * tag that asks for a turn is refused by what it asks for, saying that
 * the tag asked. */
GST_START_TEST (test_rgb_turn_refused)
{
  static const gchar *const directions[] = { "90r", "horiz", "identity",
    "auto"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (directions); i++) {
    GstBus *bus;
    gchar *desc = g_strdup_printf ("cudatranspose kernel=" KERNEL
        " video-direction=%s", directions[i]);
    GstHarness *e = ct_check_harness_new (desc, &bus);
    GstVideoInfo info;
    GstBuffer *in;
    gboolean refused = !g_str_equal (directions[i], "identity");

    gst_harness_set_sink_caps_str (e, "other/tensors,format=static");
    gst_harness_set_src_caps_str (e, "video/x-raw,format=RGB,width=64,"
        "height=48,framerate=30/1");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 64, 48);
    in = ct_check_make_frame (&info, 0);
    if (g_str_equal (directions[i], "auto"))
      fail_unless (gst_harness_push_event (e, gst_event_new_tag
              (gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-90",
                      NULL))));
    if (refused) {
      gchar *text;

      fail_if (gst_harness_push (e, in) == GST_FLOW_OK,
          "%s: a frame went through", desc);
      text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
      fail_unless (strstr (text, "turns YUV video") &&
          strstr (text, "before this one") && strstr (text,
              directions[i]), "%s: %s", desc, text);
      /* (under auto: the tag's direction, and that the tag asked) */
      fail_unless (!g_str_equal (directions[i], "auto") ||
          (strstr (text, "image-orientation tag") &&
              strstr (text, "asks for 90r")), "%s: %s", desc, text);
      g_free (text);
      fail_unless_equals_int (gst_harness_buffers_in_queue (e), 0);
    } else {
      GstBuffer *out;

      fail_unless_equals_int (gst_harness_push (e, in), GST_FLOW_OK);
      out = gst_harness_pull (e);
      fail_unless (out != NULL);
      gst_buffer_unref (out);
    }
    g_free (desc);
    ct_check_harness_free (e, bus);
  }
}

GST_END_TEST;

/* Y42B, NV16 and NV24 go out only as tensors: with video downstream, in
 * every direction, not negotiated, and an error that names the format and
 * says what to change; nothing goes out. */
GST_START_TEST (test_tensor_only_as_video_refused)
{
  static const gchar *const only[] = { "Y42B", "NV16", "NV24" };
  static const gchar *const directions[] = { "identity", "90r", "vert" };
  guint i, d;

  for (i = 0; i < G_N_ELEMENTS (only); i++)
    for (d = 0; d < G_N_ELEMENTS (directions); d++) {
      GstBus *bus;
      gchar *desc = g_strdup_printf ("cudatranspose kernel=" KERNEL
          " video-direction=%s", directions[d]);
      GstHarness *e = ct_check_harness_new (desc, &bus);
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=64,"
          "height=48,framerate=30/1", only[i]);
      GstVideoInfo info;
      gchar *text;

      gst_harness_set_sink_caps_str (e, "video/x-raw");
      gst_harness_set_src_caps_str (e, caps);
      gst_video_info_set_format (&info, gst_video_format_from_string
          (only[i]), 64, 48);
      fail_if (gst_harness_push (e, ct_check_make_frame (&info, 0)) ==
          GST_FLOW_OK, "%s, %s: a frame went through", desc, only[i]);
      text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
      fail_unless (strstr (text, only[i]) && strstr (text,
              "goes out only as a tensor") && strstr (text, "videoconvert"),
          "%s, %s: %s", desc, only[i], text);
      fail_unless_equals_int (gst_harness_buffers_in_queue (e), 0);
      g_free (text);
      g_free (caps);
      g_free (desc);
      ct_check_harness_free (e, bus);
    }
}

GST_END_TEST;

/* A colour matrix the conversion has none of: not negotiated, and an
 * error that says what to change. */
GST_START_TEST (test_matrix_refused)
{
  /* SMPTE 240M, and FCC as range:matrix:transfer:primaries (a matrix
   * left unknown, GstVideoInfo fills in by the frame's height) */
  static const gchar *const colorimetries[] = { "smpte240m", "2:2:5:1" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (colorimetries); i++) {
    GstBus *bus;
    GstHarness *e = ct_check_harness_new ("cudatranspose kernel=" KERNEL,
        &bus);
    gchar *caps = g_strdup_printf ("video/x-raw,format=NV12,width=64,"
        "height=48,framerate=30/1,colorimetry=%s", colorimetries[i]);
    GstVideoInfo info;
    GstBuffer *in;
    gchar *text;

    gst_harness_set_sink_caps_str (e, "other/tensors,format=static");
    gst_harness_set_src_caps_str (e, caps);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
    in = ct_check_make_frame (&info, 0);
    fail_if (gst_harness_push (e, in) == GST_FLOW_OK,
        "%s: a frame went through", caps);
    text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
    fail_unless (strstr (text, "cannot be converted to RGB") &&
        strstr (text, "colorimetry=bt709"), "%s: %s", caps, text);
    fail_unless_equals_int (gst_harness_buffers_in_queue (e), 0);
    g_free (text);
    g_free (caps);
    ct_check_harness_free (e, bus);
  }
}

GST_END_TEST;

static Suite *
yuv_tensors_suite (void)
{
  Suite *s = suite_create ("yuv-tensors");
  TCase *tc = tcase_create ("general");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_against_videoconvert, 0,
      G_N_ELEMENTS (formats));
#ifdef YUV_ON_GPU
  tcase_add_test (tc, test_cuda_memory_in);
#endif
  tcase_add_test (tc, test_channel_order_while_playing);
  tcase_add_test (tc, test_channel_order_from_a_thread);
  tcase_add_test (tc, test_direction_while_playing);
  tcase_add_test (tc, test_direction_from_a_thread);
  tcase_add_test (tc, test_rgb_turn_refused);
  tcase_add_test (tc, test_matrix_refused);
  tcase_add_test (tc, test_tensor_only_as_video_refused);
  return s;
}

#ifdef YUV_ON_GPU
CT_CHECK_GPU_MAIN (yuv_tensors, "yuv-tensors-gpu");
#else
GST_CHECK_MAIN (yuv_tensors);
#endif
