/* The kernels' YUV to RGB conversion against GStreamer's own
 * videoconvert (dither=none, to RGB and BGR), the reference the element's
 * YUV input is held to: random frames (every byte, padding included),
 * every format, matrix, range and chroma siting, odd and one-pixel sizes;
 * the output poisoned first. Compared value for value: the kernels follow
 * videoconvert's arithmetic, so they must be equal, not merely within one.
 *
 * Built twice: test-yuv-rgb runs ct_yuv_to_rgb_cpu; test-yuv-rgb-gpu
 * (YUV_ON_GPU) ct_yuv_to_rgb on a CUDA device, and exits 77 without one. */
#include "random-fill.h"
#include "cudatranspose-kernels.h"
#include "arith-reference.h"
#include "check-video.h"
#include "orientation-reference.h"
#ifdef YUV_ON_GPU
#include "gpu-check.h"
#include "cudatranspose-kernels-tests.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

typedef struct
{
  GstVideoFormat gst;
  CtYuvFormat ct;
} Format;

static const Format formats[] = {
  {GST_VIDEO_FORMAT_I420, CT_YUV_I420},
  {GST_VIDEO_FORMAT_YV12, CT_YUV_YV12},
  {GST_VIDEO_FORMAT_NV12, CT_YUV_NV12},
  {GST_VIDEO_FORMAT_NV21, CT_YUV_NV21},
  {GST_VIDEO_FORMAT_P010_10LE, CT_YUV_P010},
  {GST_VIDEO_FORMAT_P016_LE, CT_YUV_P016},
  /* 4:2:2 and 4:4:4 (the GPU's kernels of any kind) after 4:2:0's */
  {GST_VIDEO_FORMAT_Y42B, CT_YUV_Y42B},
  {GST_VIDEO_FORMAT_NV16, CT_YUV_NV16},
  {GST_VIDEO_FORMAT_I422_10LE, CT_YUV_I422_10},
  {GST_VIDEO_FORMAT_Y444, CT_YUV_Y444},
  {GST_VIDEO_FORMAT_NV24, CT_YUV_NV24},
  {GST_VIDEO_FORMAT_Y444_10LE, CT_YUV_Y444_10},
};

/* Whether @fmt's samples are deeper than 8 bits (P010, P016, the 10-bit
 * 4:2:2 and 4:4:4 ones), in GStreamer's terms, not the kernels' */
static gboolean
is_deep (const Format * fmt)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info (fmt->gst),
      0) > 8;
}

/* formats[]'s 4:2:0 ones, which the one pass's kernels take */
#define N_FORMATS_420 6

/* Whether @fmt's chroma is subsampled along the rows and down the
 * columns (in GStreamer's terms, not the kernels') */
static gboolean
is_420 (const Format * fmt)
{
  const GstVideoFormatInfo *info = gst_video_format_get_info (fmt->gst);

  return GST_VIDEO_FORMAT_INFO_W_SUB (info, 1) == 1 &&
      GST_VIDEO_FORMAT_INFO_H_SUB (info, 1) == 1;
}

static const struct
{
  GstVideoColorMatrix gst;
  CtYuvMatrix ct;
} matrices[] = {
  {GST_VIDEO_COLOR_MATRIX_BT601, CT_YUV_BT601},
  {GST_VIDEO_COLOR_MATRIX_BT709, CT_YUV_BT709},
  {GST_VIDEO_COLOR_MATRIX_BT2020, CT_YUV_BT2020},
};

static const guint sizes[][2] = {
  {1, 1}, {2, 2}, {3, 3}, {1, 9}, {9, 1}, {2, 7}, {7, 5}, {33, 17},
  {64, 2}, {121, 67}, {640, 360},
};

static guint64 rng = 20261128;
static guint n_frames, n_values;

/* What the test's caps say, as the element will read it: the parsed
 * GstVideoInfo's range, matrix and siting, in the kernels' terms; the
 * planes' pointers relative to @base (the buffer's), moved to @at. */
static void
frame_of (const GstVideoFrame * vf, CtYuvFormat format, CtYuvMatrix matrix,
    const guint8 * base, guint8 * at, CtYuvFrame * f)
{
  const GstVideoInfo *info = &vf->info;
  guint p;

  memset (f, 0, sizeof (*f));
  f->format = format;
  f->matrix = matrix;
  f->width = GST_VIDEO_INFO_WIDTH (info);
  f->height = GST_VIDEO_INFO_HEIGHT (info);
  if (info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255)
    f->flags |= CT_YUV_FULL_RANGE;
  if (info->chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED)
    f->flags |= CT_YUV_CHROMA_H_COSITED;
  if (info->chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED)
    f->flags |= CT_YUV_CHROMA_V_COSITED;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (vf); p++) {
    f->planes[p] = at + ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (vf,
            p) - base);
    f->strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (vf, p);
  }
}

/* One frame of @fmt through videoconvert and through the kernels, to RGB
 * (or BGR), compared value for value. */
static void
check_one (const Format * fmt, guint mi, gboolean full,
    GstVideoChromaSite site, guint w, guint h, gboolean bgr)
{
  GstHarness *hv = gst_harness_new_parse ("videoconvert dither=none");
  GstVideoInfo in, out;
  GstVideoFrame inf, outf;
  GstBuffer *ib, *ob;
  GstCaps *caps;
  CtYuvFrame f;
  CtResult res;
  guint8 *ours;
  gsize row = (gsize) w * 3;
  gchar *what;
  guint y, x;

  gst_video_info_set_format (&in, fmt->gst, w, h);
  in.colorimetry.range = full ? GST_VIDEO_COLOR_RANGE_0_255 :
      GST_VIDEO_COLOR_RANGE_16_235;
  in.colorimetry.matrix = matrices[mi].gst;
  in.colorimetry.transfer = GST_VIDEO_TRANSFER_BT709;
  in.colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
  in.chroma_site = site;
  caps = gst_video_info_to_caps (&in);
  /* (the caps as GStreamer reads them back: what the element will see) */
  fail_unless (gst_video_info_from_caps (&in, caps));
  {
    gchar *cs = gst_caps_to_string (caps);

    what = g_strdup_printf ("%s%s", cs, bgr ? " to BGR" : "");
    g_free (cs);
  }
  gst_harness_set_src_caps (hv, gst_caps_ref (caps));
  gst_harness_set_sink_caps_str (hv, bgr ? "video/x-raw,format=BGR" :
      "video/x-raw,format=RGB");

  ib = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&in), NULL);
  {
    GstMapInfo m;

    gst_buffer_map (ib, &m, GST_MAP_WRITE);
    ct_ref_fill_random (&rng, m.data, m.size);
    gst_buffer_unmap (ib, &m);
  }
  ob = gst_harness_push_and_pull (hv, gst_buffer_ref (ib));
  fail_unless (ob != NULL, "%s: videoconvert gave no frame", what);
  gst_video_info_set_format (&out, bgr ? GST_VIDEO_FORMAT_BGR :
      GST_VIDEO_FORMAT_RGB, w, h);
  fail_unless (gst_video_frame_map (&inf, &in, ib, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&outf, &out, ob, GST_MAP_READ));

  ours = g_malloc (row * h);
  memset (ours, 0xa5, row * h);
  {
    GstMapInfo m;

    gst_buffer_map (ib, &m, GST_MAP_READ);
#ifdef YUV_ON_GPU
    {
      void *d_in = NULL, *d_out = NULL;

      /* the whole input buffer at once, the planes where they lie in it;
       * the output poisoned on the device */
      fail_unless_equals_int (ct_device_alloc (&d_in, m.size), CT_OK);
      fail_unless_equals_int (ct_device_alloc (&d_out, row * h), CT_OK);
      fail_unless_equals_int (ct_copy_2d_async (d_in, m.size, m.data,
              m.size, m.size, 1, NULL), CT_OK);
      fail_unless_equals_int (ct_copy_2d_async (d_out, row, ours, row, row,
              h, NULL), CT_OK);
      frame_of (&inf, fmt->ct, matrices[mi].ct, m.data, d_in, &f);
      res = ct_yuv_to_rgb (&f, d_out, row, bgr, NULL);
      fail_unless_equals_int (res, CT_OK);
      fail_unless_equals_int (ct_copy_2d_async (ours, row, d_out, row, row,
              h, NULL), CT_OK);
      fail_unless_equals_int (ct_stream_synchronize (NULL), CT_OK);
      fail_unless_equals_int (ct_device_free (d_in), CT_OK);
      fail_unless_equals_int (ct_device_free (d_out), CT_OK);
    }
#else
    frame_of (&inf, fmt->ct, matrices[mi].ct, m.data, m.data, &f);
    res = ct_yuv_to_rgb_cpu (&f, ours, row, bgr);
    fail_unless_equals_int (res, CT_OK);
#endif
    gst_buffer_unmap (ib, &m);
  }
  for (y = 0; y < h; y++) {
    const guint8 *ref = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&outf,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&outf, 0);

    /* (check marks every assertion that passes: one per row, not per
     * value) */
    if (memcmp (ours + y * row, ref, row) == 0)
      continue;
    for (x = 0; ours[y * row + x] == ref[x]; x++);
    fail ("%s: pixel (%u, %u) channel %u: %u, videoconvert %u", what, x / 3,
        y, x % 3, ours[y * row + x], ref[x]);
  }
  n_frames++;
  n_values += row * h;

  g_free (ours);
  gst_video_frame_unmap (&outf);
  gst_video_frame_unmap (&inf);
  gst_buffer_unref (ob);
  gst_buffer_unref (ib);
  gst_caps_unref (caps);
  g_free (what);
  gst_harness_teardown (hv);
}

GST_START_TEST (test_against_videoconvert)
{
  const Format *fmt = &formats[__i__];
  guint mi, full, si, s;

  for (mi = 0; mi < G_N_ELEMENTS (matrices); mi++)
    for (full = 0; full < 2; full++)
      for (si = 0; si < ct_check_n_chroma_sites; si++)
        for (s = 0; s < G_N_ELEMENTS (sizes); s++)
          check_one (fmt, mi, full, ct_check_chroma_sites[si], sizes[s][0],
              sizes[s][1], (s + si) % 2);
  /* 1080p, one of each range, to RGB */
  check_one (fmt, 1, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2, 1920, 1080, FALSE);
  check_one (fmt, 0, TRUE, GST_VIDEO_CHROMA_SITE_JPEG, 1920, 1080, FALSE);
  g_print ("%s: %u frames, %u values, each videoconvert's\n",
      gst_video_format_to_string (fmt->gst), n_frames, n_values);
  n_frames = n_values = 0;
}

GST_END_TEST;

/* Arguments the conversion cannot take: refused, nothing written. */
GST_START_TEST (test_refused)
{
  guint8 y[4] = { 1, 2, 3, 4 }, uv[2] = { 5, 6 }, out[12];
  CtYuvFrame f = { CT_YUV_NV12, CT_YUV_BT709, 0, 2, 2, {y, uv, NULL},
  {2, 2, 0}
  };
  CtYuvFrame bad;

  memset (out, 0x5a, sizeof (out));
  bad = f;
  bad.format = CT_YUV_FORMAT_COUNT;
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&bad, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  bad = f;
  bad.matrix = CT_YUV_MATRIX_COUNT;
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&bad, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  bad = f;
  bad.flags = 8;
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&bad, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  bad = f;
  bad.planes[1] = NULL;
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&bad, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  bad = f;
  bad.strides[0] = 1;
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&bad, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&f, out, 5, 0),
      CT_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&f, NULL, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (NULL, out, 6, 0),
      CT_ERROR_INVALID_ARGUMENT);
#ifdef YUV_ON_GPU
  /* the device entry checks the same before it launches */
  bad = f;
  bad.format = CT_YUV_FORMAT_COUNT;
  fail_unless_equals_int (ct_yuv_to_rgb (&bad, out, 6, 0, NULL),
      CT_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (ct_yuv_to_rgb (&f, out, 5, 0, NULL),
      CT_ERROR_INVALID_ARGUMENT);
  fail_unless_equals_int (ct_yuv_to_rgb (NULL, out, 6, 0, NULL),
      CT_ERROR_INVALID_ARGUMENT);
#endif
  for (guint i = 0; i < sizeof (out); i++)
    fail_unless_equals_int (out[i], 0x5a);
  /* and the frame itself converts */
  fail_unless_equals_int (ct_yuv_to_rgb_cpu (&f, out, 6, 0), CT_OK);
}

GST_END_TEST;

/* The arithmetic cases of the one pass: none (uint8 out), normalizing to
 * float32, per channel to int16 (wrapping), to float64 per row. */
static void
arith_case (guint i, CtArith * a)
{
  memset (a, 0, sizeof (*a));
  a->in_type = CT_TYPE_UINT8;
  switch (i) {
    case 1:
      a->out_type = CT_TYPE_FLOAT32;
      a->n_ops = 2;
      a->ops[0] = (CtArithOp) { CT_ARITH_ADD, -1, 1, 0, -127.5 };
      a->ops[1] = (CtArithOp) { CT_ARITH_DIV, -1, 1, 0, 127.5 };
      break;
    case 2:
      a->out_type = CT_TYPE_INT16;
      a->channel_dim = 0;
      a->n_ops = 3;
      a->ops[0] = (CtArithOp) { CT_ARITH_ADD, 1, 0, -100, 0 };
      a->ops[1] = (CtArithOp) { CT_ARITH_MUL, -1, 0, 300, 0 };
      a->ops[2] = (CtArithOp) { CT_ARITH_DIV, 2, 0, 7, 0 };
      break;
    case 3:
      a->out_type = CT_TYPE_FLOAT64;
      a->channel_dim = 2;
      a->n_ops = 2;
      a->ops[0] = (CtArithOp) { CT_ARITH_MUL, 1, 1, 0, 0.25 };
      a->ops[1] = (CtArithOp) { CT_ARITH_ADD, -1, 1, 0, 1e-3 };
      break;
    default:
      a->out_type = CT_TYPE_UINT8;
      break;
  }
}

/* The values the one pass starts from for @fmt, each channel of the HWC
 * tensor "3:W:H:1" in @in (of type *in_type): the 8-bit RGB of the
 * kernels' CPU conversion (held to videoconvert above), or, for 10- and
 * 16-bit input into a float type, videoconvert's own 16-bit RGB
 * (ARGB64_LE) divided by 257 in that type. */
static void
start_values (const Format * fmt, CtType out_type, GstCaps * caps,
    GstBuffer * ib, const CtYuvFrame * f, guint w, guint h, gboolean bgr,
    guint8 * in, CtType * in_type)
{
  gboolean whole = is_deep (fmt) &&
      (out_type == CT_TYPE_FLOAT32 || out_type == CT_TYPE_FLOAT64);
  GstVideoFrame ref;
  guint x, y, c;

  if (!whole) {
    *in_type = CT_TYPE_UINT8;
    fail_unless_equals_int (ct_yuv_to_rgb_cpu (f, in, w * 3, bgr), CT_OK);
    return;
  }
  *in_type = out_type;
  ct_check_videoconvert (caps, ib, GST_VIDEO_FORMAT_ARGB64_LE, w, h, &ref,
      "16-bit RGB");
  for (y = 0; y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&ref,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&ref, 0);

    for (x = 0; x < w; x++)
      for (c = 0; c < 3; c++) {
        /* (A, R, G, B, 16-bit little-endian each) */
        guint t = GST_READ_UINT16_LE (row + 8 * x + 2 + 2 * (bgr ? 2 - c :
                c));
        gsize at = ((gsize) y * w + x) * 3 + c;

        if (out_type == CT_TYPE_FLOAT32) {
          volatile gfloat v = (gfloat) t / (gfloat) 257;
          gfloat stored = v;

          memcpy (in + at * 4, &stored, 4);
        } else {
          volatile gdouble v = (gdouble) t / 257.0;
          gdouble stored = v;

          memcpy (in + at * 8, &stored, 8);
        }
      }
  }
  gst_video_frame_unmap (&ref);
}

/* The HWC tensor @in of a w x h frame (elements of @esize bytes) turned by
 * @m, into @out: "3:W':H':1" of the turned frame (orientation-reference.h
 * says where each pixel goes). */
static void
turn_hwc (const guint8 * in, guint w, guint h, gsize esize, CtMapping m,
    guint8 * out)
{
  guint x, y, ox, oy;
  const guint ow = m & CT_MAPPING_KEEP_AXES ? w : h;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      ct_ref_point (m, w, h, x, y, &ox, &oy);
      memcpy (out + ((gsize) oy * ow + ox) * 3 * esize,
          in + ((gsize) y * w + x) * 3 * esize, 3 * esize);
    }
}

/* The checks of one_pass_size (below): */
typedef enum
{
  ONE_PASS_ALL,                 /* every order, direction and arithmetic
                                 * case */
  ONE_PASS_TILES,               /* for frames with more tiles than the GPU
                                 * holds blocks at once: for each direction
                                 * only the first order of each kind the
                                 * tiled pass takes (the output's step
                                 * along the frame's y one value, or three
                                 * with the channels innermost, the one
                                 * along x more), into uint8 and
                                 * normalized float32, from the aligned
                                 * frame; each must take the tiled pass */
  ONE_PASS_HWC,                 /* the HWC tensor (order 0:1:2:3) of the
                                 * four directions that keep the axes,
                                 * every arithmetic case; mirrored into
                                 * uint8 and normalized float32 from the
                                 * aligned frame each must take the HWC
                                 * variant (whose float32 one stores a
                                 * warp's 128 columns of a row as one
                                 * run) */
} OnePass;

/* One size of test_one_pass_tensor (below): a random @w x @h frame of
 * @fmt, its colorimetry and siting picked by @s, the checks @what says,
 * each counted in *checks, the tiled pass's runs in *tiled and the HWC
 * variant's in *n_hwc (*pi alternates RGB and BGR). */
static void
one_pass_size (const Format * fmt, guint w, guint h, guint s, OnePass what,
    guint * pi, guint * checks, guint * tiled, guint * n_hwc)
{
  const gboolean tiles_only = what == ONE_PASS_TILES;
  GstVideoInfo in;
  GstBuffer *ib;
  GstVideoFrame inf;
  GstMapInfo m;
  GstCaps *caps;
  CtYuvFrame f, df;
  /* (the starting values in RGB and BGR, up to 8 bytes each) */
  guint8 *start[2] = { g_malloc ((gsize) w * h * 3 * 8),
    g_malloc ((gsize) w * h * 3 * 8)
  };
  guint8 *turned = g_malloc ((gsize) w * h * 3 * 8);
#ifdef YUV_ON_GPU
  void *d_in = NULL, *d_odd = NULL, *d_out = NULL;
  CtYuvFrame odf;
#endif
  guint a, b, c, d, ai;

  gst_video_info_set_format (&in, fmt->gst, w, h);
  in.colorimetry.matrix = matrices[s % G_N_ELEMENTS (matrices)].gst;
  in.colorimetry.range = s % 2 ? GST_VIDEO_COLOR_RANGE_0_255 :
      GST_VIDEO_COLOR_RANGE_16_235;
  in.colorimetry.transfer = GST_VIDEO_TRANSFER_BT709;
  in.colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
  in.chroma_site = ct_check_chroma_sites[s % ct_check_n_chroma_sites];
  caps = gst_video_info_to_caps (&in);
  fail_unless (gst_video_info_from_caps (&in, caps));
  ib = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&in), NULL);
  gst_buffer_map (ib, &m, GST_MAP_WRITE);
  ct_ref_fill_random (&rng, m.data, m.size);
  gst_buffer_unmap (ib, &m);
  fail_unless (gst_video_frame_map (&inf, &in, ib, GST_MAP_READ));
  gst_buffer_map (ib, &m, GST_MAP_READ);
  frame_of (&inf, fmt->ct, matrices[s % G_N_ELEMENTS (matrices)].ct,
      m.data, m.data, &f);
  df = f;
#ifdef YUV_ON_GPU
  fail_unless_equals_int (ct_device_alloc (&d_in, m.size), CT_OK);
  fail_unless_equals_int (ct_copy_2d_async (d_in, m.size, m.data, m.size,
          m.size, 1, NULL), CT_OK);
  frame_of (&inf, fmt->ct, f.matrix, m.data, d_in, &df);
  fail_unless_equals_int (ct_device_alloc (&d_odd, m.size + 1), CT_OK);
  fail_unless_equals_int (ct_copy_2d_async ((guint8 *) d_odd + 1, m.size,
          m.data, m.size, m.size, 1, NULL), CT_OK);
  frame_of (&inf, fmt->ct, f.matrix, m.data, (guint8 *) d_odd + 1, &odf);
  /* 24 x 8 bytes covers every case's output */
  fail_unless_equals_int (ct_device_alloc (&d_out, (gsize) w * h * 24),
      CT_OK);
#endif

  for (ai = 0; ai < (tiles_only ? 2u : 4u); ai++) {
    CtArith ar, from;
    gsize esize, bytes;
    guint8 *want, *got;
    /* (tiles_only: the directions checked, a bit each) */
    guint turns_done = 0;

    arith_case (ai, &ar);
    /* (the reference's arithmetic starts from the starting values'
     * type) */
    from = ar;
    start_values (fmt, ar.out_type, caps, ib, &f, w, h, FALSE, start[0],
        &from.in_type);
    start_values (fmt, ar.out_type, caps, ib, &f, w, h, TRUE, start[1],
        &from.in_type);
    esize = ct_type_size (ar.out_type);
    bytes = (gsize) w * h * 3 * esize;
    want = g_malloc (bytes);
    got = g_malloc (bytes);
    for (a = 0; a < 4; a++)
      for (b = 0; b < 4; b++)
        for (c = 0; c < 4; c++)
          for (d = 0; d < 32; d++) {
            const guint perm[4] = { a, b, c, d % 4 };
            const CtMapping turn = (CtMapping) (d / 4);
            const gboolean keep = (turn & CT_MAPPING_KEEP_AXES) != 0;
            const unsigned long long hwc[4] = { 3, keep ? w : h,
              keep ? h : w, 1
            };
            const uint64_t dims[4] = { hwc[0], hwc[1], hwc[2], hwc[3] };
            uint64_t odims[4], step[4];
            gboolean bgr, takes_tiles, hwc_tiles, packed_hwc, odd = FALSE;
            CtPath ran = CT_PATH_NONE;

            if (a == b || a == c || a == d % 4 || b == c || b == d % 4 ||
                c == d % 4)
              continue;
            /* (the tiled pass's outputs: the step along the frame's y
             * one value, or three with the channels innermost (packed
             * HWC: into float32, or from a 16-bit 4:2:0 format), and the
             * one along x more) */
            ct_ref_permuted_layout (dims, perm, odims, step);
            hwc_tiles = step[0] == 1 && step[keep ? 2 : 1] == 3 &&
                step[keep ? 1 : 2] > 3 && (ar.out_type == CT_TYPE_FLOAT32 ||
                (is_deep (fmt) && is_420 (fmt)));
            takes_tiles = (step[keep ? 2 : 1] == 1 &&
                step[keep ? 1 : 2] > 1) || hwc_tiles;
            /* (the HWC variant's: each pixel's channels side by side, the
             * pixels of a row of the frame as it comes next to each
             * other, its rows no nearer) */
            packed_hwc = step[0] == 1 && step[keep ? 1 : 2] == 3 &&
                step[keep ? 2 : 1] >= 3;
            if (tiles_only && (!takes_tiles ||
                    turns_done & (1u << (turn + 8 * hwc_tiles))))
              continue;
            if (what == ONE_PASS_HWC && (!keep || a != 0 || b != 1 ||
                    c != 2))
              continue;
            turns_done |= 1u << (turn + 8 * hwc_tiles);
            bgr = ((*pi)++ % 2) == 1;
            turn_hwc (start[bgr], w, h, ct_type_size (from.in_type), turn,
                turned);
            ref_permute_arith (turned, want, hwc, perm, &from);
            memset (got, 0x5a, bytes);
#ifdef YUV_ON_GPU
            fail_unless_equals_int (ct_copy_2d_async (d_out, bytes, got,
                    bytes, bytes, 1, NULL), CT_OK);
            odd = !tiles_only && *checks % 3 == 2;
            fail_unless_equals_int (ct_yuv_to_tensor (odd ? &odf : &df, bgr,
                    turn, perm, ai ? &ar : NULL, d_out, NULL, &ran), CT_OK);
            fail_unless_equals_int (ct_copy_2d_async (got, bytes, d_out,
                    bytes, bytes, 1, NULL), CT_OK);
            fail_unless_equals_int (ct_stream_synchronize (NULL), CT_OK);
            if (ran == CT_PATH_YUV_TENSOR_TILES && takes_tiles) {
              (*tiled)++;
            } else if (ran == CT_PATH_YUV_TENSOR_HWC && packed_hwc &&
                is_420 (fmt)) {
              /* (4:2:2, 4:4:4: the kernels of any kind, which have no
               * HWC variant) */
              (*n_hwc)++;
            } else {
              fail_unless_equals_int (ran, CT_PATH_YUV_TENSOR);
            }
            if (tiles_only)
              fail_unless_equals_int (ran, CT_PATH_YUV_TENSOR_TILES);
            /* (mirrored, every one kind's kernel takes it) */
            if (what == ONE_PASS_HWC && ai < 2 && !odd &&
                (turn & CT_MAPPING_MIRROR_COLUMNS))
              fail_unless_equals_int (ran, CT_PATH_YUV_TENSOR_HWC);
#else
            fail_unless_equals_int (ct_yuv_to_tensor_cpu (&df, bgr, turn,
                    perm, ai ? &ar : NULL, got), CT_OK);
            (void) ran;
            (void) packed_hwc;
#endif
            if (memcmp (got, want, bytes) != 0) {
              gsize at = 0;

              while (got[at] == want[at])
                at++;
              fail ("%s %ux%u, mapping %d, perm %u:%u:%u:%u, case %u%s%s: "
                  "byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                  " differs", gst_video_format_to_string (fmt->gst), w, h,
                  (int) turn, a, b, c, d % 4, ai, bgr ? ", bgr" : "",
                  odd ? ", a byte off" : "", at, bytes);
            }
            (*checks)++;
          }
    g_free (want);
    g_free (got);
  }
#ifdef YUV_ON_GPU
  fail_unless_equals_int (ct_device_free (d_in), CT_OK);
  fail_unless_equals_int (ct_device_free (d_odd), CT_OK);
  fail_unless_equals_int (ct_device_free (d_out), CT_OK);
#endif
  gst_buffer_unmap (ib, &m);
  gst_video_frame_unmap (&inf);
  gst_buffer_unref (ib);
  gst_caps_unref (caps);
  g_free (start[0]);
  g_free (start[1]);
  g_free (turned);
}

/* The one pass (ct_yuv_to_tensor on the GPU, ct_yuv_to_tensor_cpu on the
 * CPU) against the test's references: its starting values (start_values)
 * turned by each of the eight directions (turn_hwc), laid out and computed
 * by ref_permute_arith: every format, the 24 orders of four dimensions,
 * each arithmetic case (per-channel ones along the turned frame's x and
 * y), odd sizes and widths around the kernel's four pixels a thread; the
 * output poisoned first. On the GPU every third check reads a copy of the
 * frame one byte off its alignment (NV12's and NV21's chroma pairs then
 * cannot be read a pair a load, and go to the kernel for any format). */
GST_START_TEST (test_one_pass_tensor)
{
  static const guint tsizes[][2] = { {1, 1}, {3, 3}, {9, 1}, {1, 9},
  {4, 2}, {8, 3}, {6, 4}, {33, 17}, {64, 6}, {121, 67}
  };
  const Format *fmt = &formats[__i__];
  guint s, pi = 0, checks = 0, tiled = 0, hwc = 0;

  for (s = 0; s < G_N_ELEMENTS (tsizes); s++)
    one_pass_size (fmt, tsizes[s][0], tsizes[s][1], s, ONE_PASS_ALL, &pi,
        &checks, &tiled, &hwc);

  g_print ("%s: %u one-pass tensors equal to the references (%u tiled, "
      "%u by the HWC variant)\n", gst_video_format_to_string (fmt->gst),
      checks, tiled, hwc);
#ifdef YUV_ON_GPU
  /* (every format into uint8 and float32; the HWC variant 4:2:0's
   * alone) */
  fail_unless (tiled > 0, "the tiled pass never ran");
  if (is_420 (fmt))
    fail_unless (hwc > 0, "the HWC variant never ran");
#endif
}

GST_END_TEST;

#ifdef YUV_ON_GPU
/* The tiled pass where a block converts several tiles in turn (the grid
 * is no larger than one wave): a 4001 x 1085 frame is 9 x 251 tiles,
 * more than any GPU holds blocks of it at once (up to 8 a multiprocessor,
 * 148 multiprocessors on the largest). Every direction, a CHW order and
 * a packed HWC one, into uint8 and normalized float32 (packed HWC into
 * uint8 from the 16-bit formats alone: the 8-bit ones' goes untiled),
 * against the same references as above; under compute-sanitizer's
 * racecheck this is the test that reuses a tile. */
GST_START_TEST (test_one_pass_tiles)
{
  const Format *fmt = &formats[__i__];
  guint pi = 0, checks = 0, tiled = 0, hwc = 0;

  one_pass_size (fmt, 4001, 1085, __i__, ONE_PASS_TILES, &pi, &checks,
      &tiled, &hwc);
  g_print ("%s: %u large one-pass tensors equal to the references "
      "(%u tiled)\n", gst_video_format_to_string (fmt->gst), checks, tiled);
  /* (8 directions in CHW and in HWC, two output types, but no 8-bit
   * format's HWC into uint8) */
  fail_unless_equals_int (checks, is_deep (fmt) ? 32 : 24);
}

GST_END_TEST;

/* The HWC variant on wide rows: frames wide enough for several warps of
 * 32 quads (128 columns) a row, 1024 wide (eight whole warps, every row
 * starting aligned to four values), 1000 (a last warp cut short) and 1001
 * (that too, and 3003 values a row: one row in four aligned), from the
 * aligned frame and a byte off it,
 * RGB and BGR, the four directions that keep the axes (so mirrored runs
 * too), every arithmetic case, against the same references as above. */
GST_START_TEST (test_one_pass_hwc)
{
  static const guint hsizes[][2] = { {1024, 9}, {1001, 23}, {1000, 4} };
  const Format *fmt = &formats[__i__];
  guint s, pi = 0, checks = 0, tiled = 0, hwc = 0;

  for (s = 0; s < G_N_ELEMENTS (hsizes); s++)
    one_pass_size (fmt, hsizes[s][0], hsizes[s][1], __i__ + s,
        ONE_PASS_HWC, &pi, &checks, &tiled, &hwc);
  g_print ("%s: %u wide HWC one-pass tensors equal to the references (%u "
      "by the HWC variant)\n", gst_video_format_to_string (fmt->gst),
      checks, hwc);
  /* (three sizes, four directions, four arithmetic cases) */
  fail_unless_equals_int (checks, 48);
  fail_unless_equals_int (tiled, 0);
}

GST_END_TEST;
#endif

static Suite *
yuv_rgb_suite (void)
{
  Suite *s = suite_create ("yuv-rgb");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_against_videoconvert, 0,
      G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_refused);
  tcase_add_loop_test (tc, test_one_pass_tensor, 0, G_N_ELEMENTS (formats));
#ifdef YUV_ON_GPU
  tcase_add_loop_test (tc, test_one_pass_tiles, 0, N_FORMATS_420);
  tcase_add_loop_test (tc, test_one_pass_hwc, 0, N_FORMATS_420);
#endif
  return s;
}

#ifdef YUV_ON_GPU
CT_CHECK_GPU_MAIN (yuv_rgb, "yuv-rgb-gpu");
#else
GST_CHECK_MAIN (yuv_rgb);
#endif
