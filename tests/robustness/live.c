/* The element in a pipeline that lives: while frames stream, other threads
 * change its settings at random (video-direction and method; permutation
 * and arithmetic; channel-order; kernel and frames-in-flight), send
 * LATENCY, CAPS and
 * ACCEPT_CAPS queries and navigation events, and flush-seek; upstream
 * changes size, format or tensor shapes every few buffers; a thread keeps
 * the CPU busy. The stream must reach EOS with no error, and every frame
 * that comes out is checked against the test's own reference for a
 * setting its caps can carry: one the changing thread made, at or after
 * the one the frame before came out in (frames never go back to an older
 * setting, nor mix two). Every input after the last flush must come out.
 *
 * Video runs the same with videoflip (the anchor: what a stock element
 * does with the same changes; videoflip 1.22 gives wrong frames with
 * identity among the directions or with caps queries from another thread,
 * and fails to negotiate behind videoconvert, so its run leaves those
 * out). Tensors come static (one to three of
 * them) and flexible (headers in each memory). YUV video goes out as a
 * tensor, turned by the direction, in the channel order, laid out and
 * computed as set, checked against videoconvert's RGB of each frame
 * (turned, laid out and computed by the test). Run with the argument
 * "gpu" it runs on the GPU, from system memory with two frames in flight
 * and through CUDA memory (cudaupload ! cudatranspose ! cudadownload), and
 * skips (77) without a CUDA device; without it, kernel=auto and kernel=cpu
 * in turn (the CPU stands in where there is no GPU).
 *
 * CT_LIVE_SECONDS sets how long each stream lives (default 3). To narrow a
 * failure down: CT_LIVE_FORMAT=NAME streams that format only,
 * CT_LIVE_SIZE=WxH that size only, CT_LIVE_STILL=1 changes no setting
 * after the first; CT_LIVE_CUDA_ELEMENT=identity puts identity where the
 * element is in CUDA memory (with CT_LIVE_STILL=1: nvcodec's elements
 * alone, checked for frames that come out unchanged); CT_LIVE_KERNEL=NICK
 * keeps one kernel; CT_LIVE_NO_SEEK=1 seeks never. */
#include "live.h"

static gboolean on_gpu;
gboolean have_gpu;

/* ---------------------------------------------------------------------- */
/* The tests                                                                */

/* Formats videoflip 1.22 gets right in every direction, and more of the
 * element's own. */
static const GstVideoFormat shared_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_Y444,
};

static const GstVideoFormat cuda_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE,
};

static const gchar *const cpu_kernels[] = { "auto", "cpu" };
static const gchar *const live_gpu_kernels[] = { "auto", "auto", "tiled-padded",
  "wide", "cpu"
};

#define KERNELS(k) k, G_N_ELEMENTS (k)

/* The element's memory: system memory around it, or CUDA memory through
 * nvcodec's elements. With @convert, upstream negotiates through a
 * transform of its own (videoconvert, as cudaupload does in CUDA memory),
 * which asks the element's caps with a filter while the settings
 * change. */
static gchar *
video_pipeline (const gchar * element, gboolean cuda, gboolean convert)
{
  /* (frames are read back in system memory, as the GPU matrix reads
   * them: cudadownload would pass CUDA memory on to a sink of any caps) */
  if (cuda)
    return g_strdup_printf ("ctlivesrc name=src ! identity name=in ! "
        "cudaupload ! %s name=t ! cudadownload ! video/x-raw ! "
        "identity name=out ! fakesink sync=false", element);
  return g_strdup_printf ("ctlivesrc name=src ! identity name=in ! %s%s "
      "name=t ! identity name=out ! fakesink sync=false", convert ?
      "videoconvert ! " : "", element);
}

GST_START_TEST (test_live_video)
{
  gchar *desc = video_pipeline ("cudatranspose", FALSE, TRUE);

  if (on_gpu)
    run_live (desc, "cudatranspose", LIVE_VIDEO, shared_formats,
        G_N_ELEMENTS (shared_formats), KERNELS (live_gpu_kernels),
        "video, system memory, GPU");
  else
    run_live (desc, "cudatranspose", LIVE_VIDEO, shared_formats,
        G_N_ELEMENTS (shared_formats), KERNELS (cpu_kernels), "video");
  g_free (desc);
}

GST_END_TEST;

/* The anchor: videoflip in the same program, with the same changes but
 * three it fails under (Live.all, and no transform upstream: its two
 * transforms of one caps query may read two directions, and upstream then
 * fails to negotiate): the element must do at least what a stock element
 * does, and does more. */
GST_START_TEST (test_live_videoflip)
{
  gchar *desc = video_pipeline ("videoflip", FALSE, FALSE);

  run_live (desc, "videoflip", LIVE_VIDEO, shared_formats,
      G_N_ELEMENTS (shared_formats), NULL, 0, "videoflip");
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_live_cuda_memory)
{
  const gchar *need[] = { "cudaupload", "cudadownload", NULL };
  const gchar *element = g_getenv ("CT_LIVE_CUDA_ELEMENT") ?
      g_getenv ("CT_LIVE_CUDA_ELEMENT") : "cudatranspose";
  gchar *desc = video_pipeline (element, TRUE, TRUE);

  fail_unless (ct_check_have_factories (need), "no cudaupload");
  if (g_str_equal (element, "cudatranspose"))
    run_live (desc, element, LIVE_VIDEO, cuda_formats,
        G_N_ELEMENTS (cuda_formats), KERNELS (live_gpu_kernels),
        "video, CUDA memory");
  else
    run_live (desc, element, LIVE_VIDEO, cuda_formats,
        G_N_ELEMENTS (cuda_formats), NULL, 0, "video, CUDA memory");
  g_free (desc);
}

GST_END_TEST;

/* Tensors of @kind through the element, on the GPU or the CPU. */
static void
run_tensors (LiveKind kind, const gchar * what)
{
  const gchar *desc = "ctlivesrc name=src ! identity name=in ! "
      "cudatranspose name=t ! identity name=out ! fakesink sync=false";
  gchar *label = g_strdup_printf ("%s%s", what, on_gpu ? ", GPU" : "");

  if (on_gpu)
    run_live (desc, "cudatranspose", kind, NULL, 0,
        KERNELS (live_gpu_kernels), label);
  else
    run_live (desc, "cudatranspose", kind, NULL, 0, KERNELS (cpu_kernels),
        label);
  g_free (label);
}

GST_START_TEST (test_live_static_tensors)
{
  run_tensors (LIVE_STATIC, "static tensors");
}

GST_END_TEST;

GST_START_TEST (test_live_flexible_tensors)
{
  run_tensors (LIVE_FLEXIBLE, "flexible tensors");
}

GST_END_TEST;

/* YUV video into tensors, all its settings changing (the 8-bit formats:
 * 16-bit ones into floats keep values videoconvert's RGB does not). */
GST_START_TEST (test_live_yuv_tensors)
{
  static const GstVideoFormat yuv_formats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_NV21,
  };
  const gchar *desc = "ctlivesrc name=src ! identity name=in ! "
      "cudatranspose name=t ! other/tensors,format=static ! identity "
      "name=out ! fakesink sync=false";

  if (on_gpu)
    run_live (desc, "cudatranspose", LIVE_YUV_TENSOR, yuv_formats,
        G_N_ELEMENTS (yuv_formats), KERNELS (live_gpu_kernels),
        "YUV to tensors, GPU");
  else
    run_live (desc, "cudatranspose", LIVE_YUV_TENSOR, yuv_formats,
        G_N_ELEMENTS (yuv_formats), KERNELS (cpu_kernels), "YUV to tensors");
}

GST_END_TEST;

static Suite *
live_suite (void)
{
  Suite *s = suite_create ("live");
  TCase *tc = tcase_create ("live");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_live_video);
  tcase_add_test (tc, test_live_static_tensors);
  tcase_add_test (tc, test_live_flexible_tensors);
  tcase_add_test (tc, test_live_yuv_tensors);
  if (on_gpu) {
    tcase_add_test (tc, test_live_cuda_memory);
  } else {
    tcase_add_test (tc, test_live_videoflip);
  }
  return s;
}

int
main (int argc, char **argv)
{
  on_gpu = argc > 1 && g_str_equal (argv[1], "gpu");
  have_gpu = ct_check_cuda_device_count () > 0;
  /* (without one, the GPU run says why it skips) */
  if (on_gpu && !have_gpu && !ct_check_have_cuda_device ())
    return 77;
  gst_check_init (&argc, &argv);
  ct_check_seed ();
  gst_element_register (NULL, "ctlivesrc", GST_RANK_NONE,
      live_src_get_type ());
  return gst_check_run_suite (live_suite (), "live", __FILE__);
}
