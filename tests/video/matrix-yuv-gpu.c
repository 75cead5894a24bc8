/* The GPU matrix's YUV axis: YUV video into tensors on the GPU, from
 * system memory and from CUDA memory (cudaupload's), against the element's
 * own CPU path (kernel=cpu, which test-yuv-tensors holds to videoconvert
 * and test-yuv-rgb to the test's own formula), byte for byte: every YUV
 * format it takes, three colour matrices, both ranges, the direction left
 * unset and each of the eight, four output types (uint8 without
 * arithmetic, float32 normalized, int16 and float64), sizes from 1x1 to
 * 4K, half the direction and type pairs as the HWC tensor (permutation
 * 0:1:2:3: with the axes kept, the HWC variant's) and half as the default
 * CHW (turned so the axes swap, the output's rows are the frame's
 * columns, which the tiled pass takes; 4:2:2 and 4:4:4 go through the
 * kernels for any format, tiled the same way; those the CUDA allocator
 * cannot lay out, Y444_10LE, Y42B, NV16 and NV24, come from system memory
 * alone). One element of each kind is kept for a format and its settings
 * changed between frames, as an application would while playing. Exits
 * 77 (skipped) without a CUDA device or without nvcodec's cudaupload.
 *
 * Each format is a test of its own (a process, and check's timeout, per
 * format); CT_MATRIX_YUV_FORMATS (names as the caps spell them, comma
 * separated) runs only those, saying which it left out, for a GPU run
 * that has time for a few. */
#include "transpose-check.h"
#include "gpu-check.h"
#include "cuda-formats.h"

#include <string.h>

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV24,
};

/* Colour matrix and range; @large: also at the large sizes. */
static const struct
{
  GstVideoColorMatrix matrix;
  gboolean full;
  gboolean large;
} colorimetries[] = {
  {GST_VIDEO_COLOR_MATRIX_BT709, FALSE, TRUE},
  {GST_VIDEO_COLOR_MATRIX_BT2020, TRUE, TRUE},
  {GST_VIDEO_COLOR_MATRIX_BT601, FALSE, FALSE},
  {GST_VIDEO_COLOR_MATRIX_BT601, TRUE, FALSE},
  {GST_VIDEO_COLOR_MATRIX_BT709, TRUE, FALSE},
  {GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, FALSE},
};

/* A pixel, 1xN and Nx1, ragged, odd 1080p, 4K (@large). */
static const struct
{
  gint width, height;
  gboolean large;
} sizes[] = {
  {1, 1, FALSE}, {37, 1, FALSE}, {1, 37, FALSE}, {33, 17, FALSE},
  {127, 129, FALSE}, {1917, 1083, TRUE}, {3840, 2160, TRUE},
};

/* NULL: unset (the first frame of each size only: once set, the property
 * cannot be unset again), then the eight */
static const gchar *const directions[] = {
  NULL, "identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll",
};

/* NULL: none, uint8 out */
static const gchar *const ariths[] = {
  NULL, "typecast:float32,add:-127.5,div:127.5", "typecast:int16,add:-128",
  "typecast:float64,div:255",
};

/* The three elements compared: the CPU path, the GPU from system memory
 * and from CUDA memory. */
enum
{ CPU, GPU, GPU_CUDA, N_ELEMENTS };

static const gchar *const element_desc[N_ELEMENTS] = {
  "cudatranspose name=t kernel=cpu",
  "cudatranspose name=t",
  "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudatranspose name=t",
};

/* the layouts: HWC (NNStreamer's 3:W:H:1 as the frame comes), and the
 * default, CHW */
static const gchar *const layouts[] = { "0:1:2:3", "" };

static guint64 n_frames, n_bytes, n_tiled, n_hwc, n_any;
/* the format's frames are 4:2:0 (tiled or HWC where they fit), else
 * 4:2:2 or 4:4:4 (the kernels of any kind, `yuv-tensor`, tiled where
 * they fit: n_any counts their untiled runs); and go through
 * CUDA memory too (those the CUDA allocator lays out, cuda-formats.h) */
static gboolean four_two_zero, cuda_in;

/* The element named t in harness @h (g_object_unref it). */
static GstElement *
element_of (GstHarness * h)
{
  GstElement *t = GST_IS_BIN (h->element) ?
      gst_bin_get_by_name (GST_BIN (h->element), "t") :
      gst_object_ref (h->element);

  fail_unless (t != NULL);
  return t;
}

/* One frame through the three elements with @direction (NULL: leave it),
 * @arith and permutation @layout: the GPU's outputs equal the CPU's, every
 * byte. The GPU ran the one pass, tiled or not (test-yuv-rgb-gpu checks
 * where each goes; the tiled runs are counted). */
static void
compare_one (GstHarness * h[N_ELEMENTS], GstCaps * caps, GstBuffer * in,
    const gchar * direction, const gchar * arith, const gchar * layout,
    const gchar * what)
{
  GstBuffer *out[N_ELEMENTS];
  GstMapInfo m[N_ELEMENTS];
  guint k;

  for (k = 0; k < (cuda_in ? N_ELEMENTS : GPU_CUDA); k++) {
    GstElement *t = element_of (h[k]);

    if (direction)
      gst_util_set_object_arg (G_OBJECT (t), "video-direction", direction);
    g_object_set (t, "arithmetic", arith ? arith : "", "permutation", layout,
        NULL);
    gst_harness_set_src_caps (h[k], gst_caps_ref (caps));
    ct_check_push_one (h[k], in);
    out[k] = gst_harness_pull (h[k]);
    fail_unless (out[k] != NULL, "%s: no tensor from %s", what,
        element_desc[k]);
    if (k != CPU) {
      gchar *ran = ct_check_active_kernel (t);

      if (!four_two_zero && !g_str_equal (ran, "yuv-tensor-tiles")) {
        fail_unless (g_str_equal (ran, "yuv-tensor"), "%s: ran %s",
            what, ran);
        n_any++;
      } else if (g_str_equal (ran, "yuv-tensor-tiles"))
        n_tiled++;
      else if (g_str_equal (ran, "yuv-tensor-hwc"))
        n_hwc++;
      else
        fail_unless (g_str_equal (ran, "yuv-tensor"), "%s: ran %s", what,
            ran);
      g_free (ran);
    }
    gst_object_unref (t);
    fail_unless (gst_buffer_map (out[k], &m[k], GST_MAP_READ));
  }
  for (k = GPU; k < (cuda_in ? N_ELEMENTS : GPU_CUDA); k++) {
    fail_unless_equals_uint64 (m[k].size, m[CPU].size);
    if (memcmp (m[k].data, m[CPU].data, m[CPU].size) != 0) {
      gsize at = 0;

      while (m[k].data[at] == m[CPU].data[at])
        at++;
      fail ("%s: %s differs from the CPU path at byte %" G_GSIZE_FORMAT
          " of %" G_GSIZE_FORMAT, what, element_desc[k], at, m[CPU].size);
    }
  }
  for (k = 0; k < (cuda_in ? N_ELEMENTS : GPU_CUDA); k++) {
    gst_buffer_unmap (out[k], &m[k]);
    gst_buffer_unref (out[k]);
  }
  n_frames++;
  n_bytes += m[CPU].size;
}

GST_START_TEST (test_matrix_yuv)
{
  GstVideoFormat format = formats[__i__];
  const gchar *only = g_getenv ("CT_MATRIX_YUV_FORMATS");
  GstHarness *h[N_ELEMENTS];
  guint k, ci, s, d, a, pad = 0;

  if (only != NULL) {
    gchar **names = g_strsplit (only, ",", -1);
    const gboolean wanted = g_strv_contains ((const gchar * const *) names,
        gst_video_format_to_string (format));

    g_strfreev (names);
    if (!wanted) {
      g_print ("%s: left out (CT_MATRIX_YUV_FORMATS=%s)\n",
          gst_video_format_to_string (format), only);
      return;
    }
  }
  {
    const GstVideoFormatInfo *fi = gst_video_format_get_info (format);

    four_two_zero = GST_VIDEO_FORMAT_INFO_W_SUB (fi, 1) == 1 &&
        GST_VIDEO_FORMAT_INFO_H_SUB (fi, 1) == 1;
    cuda_in = ct_cuda_format_laid_out (format);
  }
  for (k = 0; k < N_ELEMENTS; k++) {
    h[k] = ct_check_harness_new (element_desc[k], NULL);
    gst_harness_set_sink_caps_str (h[k], "other/tensors,format=static");
  }
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (ci = 0; ci < G_N_ELEMENTS (colorimetries); ci++) {
      GstVideoInfo info;
      GstCaps *caps;
      GstBuffer *in;

      if (sizes[s].large && !colorimetries[ci].large)
        continue;
      caps = ct_check_yuv_caps (format, sizes[s].width, sizes[s].height,
          colorimetries[ci].matrix, colorimetries[ci].full,
          GST_VIDEO_CHROMA_SITE_MPEG2, &info);
      /* (padded rows now and then, described by a GstVideoMeta) */
      in = ct_check_make_frame (&info, pad++ % 3 == 2 ? 7 : 0);
      for (d = 0; d < G_N_ELEMENTS (directions); d++)
        for (a = 0; a < G_N_ELEMENTS (ariths); a++) {
          const gchar *layout = layouts[(d + a) % G_N_ELEMENTS (layouts)];
          gchar *cs, *what;

          if (!directions[d] && (s > 0 || ci > 0))
            continue;
          cs = gst_caps_to_string (caps);
          what = g_strdup_printf ("%s, video-direction %s, arithmetic %s, "
              "permutation %s", cs, directions[d] ? directions[d] : "unset",
              ariths[a] ? ariths[a] : "none", layout[0] ? layout : "unset");
          compare_one (h, caps, in, directions[d], ariths[a], layout, what);
          g_free (what);
          g_free (cs);
        }
      gst_buffer_unref (in);
      gst_caps_unref (caps);
    }
  for (k = 0; k < N_ELEMENTS; k++)
    ct_check_harness_free (h[k], NULL);
  g_print ("%s: %" G_GUINT64_FORMAT " frames into tensors, GPU from system "
      "%sequal to the CPU path (%" G_GUINT64_FORMAT " bytes each; %"
      G_GUINT64_FORMAT " runs of the tiled pass, %" G_GUINT64_FORMAT " of "
      "the HWC variant, %" G_GUINT64_FORMAT " of 4:2:2 or 4:4:4 untiled)\n",
      gst_video_format_to_string (format), n_frames,
      cuda_in ? "and from CUDA memory " : "memory (no CUDA memory of it) ",
      n_bytes, n_tiled, n_hwc, n_any);
  fail_unless (n_frames > 0);
  /* (every format's uint8 and float32 tensors, CHW turned; HWC with the
   * axes kept, 4:2:0's; 4:2:2 and 4:4:4 by the kernels of any kind,
   * tiled or not) */
  if (four_two_zero) {
    fail_unless (n_tiled > 0, "the tiled pass never ran");
    fail_unless (n_hwc > 0, "the HWC variant never ran");
  } else {
    fail_unless (n_any > 0 && n_tiled > 0 && n_hwc == 0);
  }
  n_frames = 0;
  n_bytes = 0;
  n_tiled = 0;
  n_hwc = 0;
  n_any = 0;
}

GST_END_TEST;

static Suite *
matrix_yuv_suite (void)
{
  Suite *s = suite_create ("matrix-yuv");
  TCase *tc = tcase_create ("matrix-yuv");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_matrix_yuv, 0, G_N_ELEMENTS (formats));
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *needed[] = { "cudaupload", NULL };

  /* (as CT_CHECK_GPU_MAIN, and nvcodec's cudaupload for CUDA memory in) */
  if (!ct_check_have_cuda_device ())
    return 77;
  gst_check_init (&argc, &argv);
  if (!ct_check_have_factories (needed))
    return 77;
  return gst_check_run_suite (matrix_yuv_suite (), "matrix-yuv", __FILE__);
}
