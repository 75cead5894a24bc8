/* Rotation in CUDA memory beside nvcodec's own: `cudaconvertscale
 * video-direction=D` (GStreamer 1.24 and later) and `cudatranspose
 * video-direction=D` on the same frames, in one process on one GPU.
 *
 *   bench-peer-rotate [--formats NV12,...] [--sizes 1920x1080,...]
 *                     [--directions 90r,180,...] [--frames N]
 *                     [--streams S] [--elements cudatranspose,...]
 *                     [--json FILE]
 *
 * For each format, size and direction, one frame of random samples (each
 * within its format's depth) in CUDA memory goes through each element in
 * a GstHarness given one CUDA context:
 *   bytes     the output, downloaded, against videoflip's output of the
 *             same frame, visible samples row by row: the count of bytes
 *             that differ (0: the same);
 *   gpu us    the GPU time a frame of the element's kernels: CUPTI's
 *             kernel records over N frames pushed back to back, their
 *             durations summed, over N;
 *   frame us  a frame of N pushes back to back and one wait for the GPU
 *             (host and GPU together, as a pipeline sees it).
 * With --streams S (default 8), for 90r only, S harnesses of each element
 * on S threads push N frames each at once: "fps" is all their frames over
 * the time from the first push to the GPU's last frame.
 *
 * Where videoflip does not take a format, bytes are not compared ("none").
 * --elements cudatranspose times the element alone (no peer needed).
 * Formats by default: those both elements take in CUDA memory. Sizes by
 * default 1920x1080, 3840x2160 and 1917x1083 (packed 4:2:2 one wider).
 * The input pool carries a CUDA stream of its own, as a decoder's does.
 *
 * Exits 77 without a CUDA device, without CUPTI, or without
 * cudaconvertscale's video-direction (1.22; 1.24+ where nvcodec could
 * not compile its kernels with NVRTC).
 */
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "bench-gst-cuda.h"
#include "cuda-formats.h"
#include "random-fill.h"

#define WARMUP 20

/* CUPTI's kernel records: the sum of their durations and their count */
static guint64 kernel_ns, kernel_count;
static GMutex kernel_lock;

static void CUPTIAPI
buffer_requested (uint8_t ** buffer, size_t *size, size_t *max_records)
{
  /* (malloc's alignment is the 8 bytes records need) */
  *size = 4 << 20;
  *buffer = g_malloc (*size);
  *max_records = 0;
}

static void CUPTIAPI
buffer_completed (CUcontext ctx, uint32_t stream_id, uint8_t * buffer,
    size_t size, size_t valid)
{
  CUpti_Activity *record = NULL;

  (void) ctx;
  (void) stream_id;
  (void) size;
  g_mutex_lock (&kernel_lock);
  while (cuptiActivityGetNextRecord (buffer, valid, &record) ==
      CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)
          record;

      kernel_ns += k->end - k->start;
      kernel_count++;
    }
  }
  g_mutex_unlock (&kernel_lock);
  g_free (buffer);
}

/* The kernels' time recorded since the last call, in ns, and their count. */
static guint64
kernels_since (guint64 * count)
{
  guint64 ns;

  cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  g_mutex_lock (&kernel_lock);
  ns = kernel_ns;
  *count = kernel_count;
  kernel_ns = kernel_count = 0;
  g_mutex_unlock (&kernel_lock);
  return ns;
}

static GstCaps *
cuda_caps (GstVideoFormat format, gint w, gint h)
{
  GstVideoInfo info;
  GstCaps *caps;

  gst_video_info_set_format (&info, format, w, h);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  caps = gst_video_info_to_caps (&info);
  gst_caps_set_features_simple (caps,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  return caps;
}

/* Whether the element @name takes and gives @format in CUDA memory. */
static gboolean
takes (const gchar * name, GstVideoFormat format)
{
  GstElementFactory *f = gst_element_factory_find (name);
  GstCaps *caps = cuda_caps (format, 64, 64);
  gboolean ok = f && gst_element_factory_can_sink_any_caps (f, caps) &&
      gst_element_factory_can_src_any_caps (f, caps);

  gst_caps_unref (caps);
  if (f)
    gst_object_unref (f);
  return ok;
}

/* The mask of a 16-bit sample of @format, for samples within its depth. */
static guint16
sample_mask (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_P010_10LE:
      return 0xffc0;
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_I422_10LE:
      return 0x03ff;
    case GST_VIDEO_FORMAT_I422_12LE:
      return 0x0fff;
    default:
      return 0xffff;
  }
}

/* Random samples into @frame's visible bytes (tests/common's generator,
 * from *@seed). */
static void
fill_random (GstVideoFrame * frame, guint64 * seed)
{
  const GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (frame);
  const guint16 mask = sample_mask (format);
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS], y;
    gsize x, row;

    gst_video_format_info_component (frame->info.finfo, p, comp);
    row = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]); y++) {
      guint8 *line = data + (gsize) y * stride;

      ct_ref_fill_random (seed, line, row);
      if (mask != 0xffff)
        for (x = 0; x + 1 < row; x += 2) {
          guint16 v = (guint16) (line[x] | line[x + 1] << 8) & mask;

          line[x] = v & 0xff;
          line[x + 1] = v >> 8;
        }
    }
  }
}

/* The bytes of @a's visible samples that differ from @b's, in all and in
 * each plane (@per_plane). */
static gsize
count_differences (GstVideoFrame * a, GstVideoFrame * b,
    gsize per_plane[GST_VIDEO_MAX_PLANES])
{
  gsize n = 0, x, row;
  guint p;
  gint y;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (a); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (a->info.finfo, p, comp);
    row = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (a, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (a, comp[0]);
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (a, comp[0]); y++) {
      const guint8 *la = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (a, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (a, p);
      const guint8 *lb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (b, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (b, p);

      for (x = 0; x < row; x++)
        per_plane[p] += la[x] != lb[x];
    }
    n += per_plane[p];
  }
  return n;
}

/* A harness around a new @name with @method, its caps set; the CUDA
 * context given before it starts. */
static GstHarness *
harness_new (const gchar * name, GstCudaContext * ctx,
    GstVideoOrientationMethod method, GstCaps * in_caps, GstCaps * out_caps)
{
  GstElement *e = gst_element_factory_make (name, NULL);
  GstHarness *h;

  if (!e)
    return NULL;
  gst_object_ref_sink (e);
  g_object_set (e, "video-direction", method, NULL);
  if (ctx) {
    GstContext *context = gst_context_new_cuda_context (ctx);

    gst_element_set_context (e, context);
    gst_context_unref (context);
  }
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps (h, gst_caps_ref (in_caps));
  gst_harness_set_sink_caps (h, gst_caps_ref (out_caps));
  return h;
}

/* Pushes @n frames of @in through @h, taking each output. */
static gboolean
push_frames (GstHarness * h, GstBuffer * in, int n)
{
  int i;

  for (i = 0; i < n; i++) {
    GstBuffer *out;

    if (gst_harness_push (h, gst_buffer_ref (in)) != GST_FLOW_OK)
      return FALSE;
    out = gst_harness_pull (h);
    if (!out)
      return FALSE;
    gst_buffer_unref (out);
  }
  return TRUE;
}

typedef struct
{
  GstHarness *h;
  GstBuffer *in;
  int frames;
  gboolean ok;
} Stream;

static gpointer
stream_run (gpointer data)
{
  Stream *s = data;

  s->ok = push_frames (s->h, s->in, s->frames);
  return NULL;
}

/* --elements: which of the two run */
static const gchar *elements[2] = { "cudatranspose", "cudaconvertscale" };
static guint n_elements = 2;

static FILE *json;
static gboolean json_rows;

static void
json_row (const gchar * row)
{
  if (json)
    fprintf (json, "%s    %s", json_rows ? ",\n" : "", row);
  json_rows = TRUE;
}

static const gchar *
method_name (GstVideoOrientationMethod m)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  GEnumValue *v = g_enum_get_value (klass, m);
  const gchar *nick = v ? v->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

/* One format, size and direction through both elements; non-zero on a
 * failure (a row is printed either way). */
static int
run_case (GstCudaContext * ctx, GstVideoFormat format, gint w, gint h,
    GstVideoOrientationMethod method, int frames, int streams)
{
  const gboolean swap = method == GST_VIDEO_ORIENTATION_90R ||
      method == GST_VIDEO_ORIENTATION_90L ||
      method == GST_VIDEO_ORIENTATION_UL_LR ||
      method == GST_VIDEO_ORIENTATION_UR_LL;
  const gint ow = swap ? h : w, oh = swap ? w : h;
  guint64 seed = (guint64) g_random_int () << 32 | g_random_int ();
  GstVideoInfo in_info, out_info;
  GstCaps *in_caps = cuda_caps (format, w, h);
  GstCaps *out_caps = cuda_caps (format, ow, oh);
  GstCaps *sys_caps;
  GstBufferPool *pool = gst_cuda_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstBuffer *in = NULL, *sys_in, *ref = NULL;
  GstVideoFrame frame, ref_frame;
  GstHarness *flip;
  int failed = 0;
  guint e;

  if (GST_CHECK_VERSION (1, 24, 0) && format == GST_VIDEO_FORMAT_NV21 &&
      ((h & 1) || (oh & 1))) {
    /* (1.24 on allocates it a chroma row short: cudatranspose keeps such
     * frames out of CUDA memory) */
    printf ("%-11s %5dx%-5d %-6s: NV21 of odd height does not fit "
        "GStreamer %d.%d's CUDA memory, left out\n",
        gst_video_format_to_string (format), w, h, method_name (method),
        GST_VERSION_MAJOR, GST_VERSION_MINOR);
    gst_caps_unref (in_caps);
    gst_caps_unref (out_caps);
    gst_object_unref (pool);
    gst_structure_free (config);
    return 0;
  }
  gst_video_info_set_format (&in_info, format, w, h);
  gst_video_info_set_format (&out_info, format, ow, oh);
  gst_buffer_pool_config_set_params (config, in_caps, in_info.size, 1, 1);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
#if GST_CHECK_VERSION (1, 24, 0)
  {
    GstCudaStream *stream = gst_cuda_stream_new (ctx);

    if (stream) {
      gst_buffer_pool_config_set_cuda_stream (config, stream);
      gst_cuda_stream_unref (stream);
    }
  }
#endif
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE) ||
      gst_buffer_pool_acquire_buffer (pool, &in, NULL) != GST_FLOW_OK ||
      !gst_video_frame_map (&frame, &in_info, in, GST_MAP_WRITE)) {
    fprintf (stderr, "%s %dx%d: no input frame in CUDA memory\n",
        gst_video_format_to_string (format), w, h);
    gst_clear_buffer (&in);
    gst_object_unref (pool);
    gst_caps_unref (in_caps);
    gst_caps_unref (out_caps);
    return 1;
  }
  fill_random (&frame, &seed);
  /* the same bytes in system memory, for videoflip */
  sys_in = gst_buffer_new_allocate (NULL, in_info.size, NULL);
  {
    GstVideoFrame sys;

    gst_video_frame_map (&sys, &in_info, sys_in, GST_MAP_WRITE);
    gst_video_frame_copy (&sys, &frame);
    gst_video_frame_unmap (&sys);
  }
  gst_video_frame_unmap (&frame);

  sys_caps = gst_video_info_to_caps (&in_info);
  flip = gst_harness_new ("videoflip");
  g_object_set (flip->element, "video-direction", method, NULL);
  gst_harness_set_src_caps (flip, sys_caps);
  if (gst_harness_push (flip, gst_buffer_ref (sys_in)) == GST_FLOW_OK)
    ref = gst_harness_pull (flip);
  if (ref && !gst_video_frame_map (&ref_frame, &out_info, ref,
          GST_MAP_READ))
    gst_clear_buffer (&ref);
  if (!ref)
    printf ("%-11s %5dx%-5d %-6s: videoflip does not take it: bytes not "
        "compared\n", gst_video_format_to_string (format), w, h,
        method_name (method));

  for (e = 0; e < n_elements && !failed; e++) {
    GstHarness *hn = harness_new (elements[e], ctx, method, in_caps,
        out_caps);
    GstBuffer *out = NULL;
    GstVideoFrame out_frame;
    gsize diff = G_MAXSIZE, per_plane[GST_VIDEO_MAX_PLANES] = { 0 };
    double a, frame_us = 0, gpu_us = 0, fps = 0;
    guint64 n_kernels = 0, ns;
    gchar *row;

    if (!hn) {
      failed = 1;
      break;
    }
    /* bytes */
    if (gst_harness_push (hn, gst_buffer_ref (in)) == GST_FLOW_OK)
      out = gst_harness_pull (hn);
    if (!out) {
      fprintf (stderr, "%s gave nothing\n", elements[e]);
      failed = 1;
    } else if (ref && gst_video_frame_map (&out_frame, &out_info, out,
            GST_MAP_READ)) {
      diff = count_differences (&out_frame, &ref_frame, per_plane);
      gst_video_frame_unmap (&out_frame);
    }
    gst_clear_buffer (&out);
    /* time */
    if (!push_frames (hn, in, WARMUP) || !bench_wait_gpu (ctx)) {
      fprintf (stderr, "%s refused a frame\n", elements[e]);
      failed = 1;
    } else {
      kernels_since (&n_kernels);
      a = bench_now_us ();
      if (!push_frames (hn, in, frames) || !bench_wait_gpu (ctx))
        failed = 1;
      frame_us = (bench_now_us () - a) / frames;
      ns = kernels_since (&n_kernels);
      gpu_us = ns / 1000.0 / frames;
    }
    gst_harness_teardown (hn);

    /* many streams at once, 90r only */
    if (!failed && streams > 1 && method == GST_VIDEO_ORIENTATION_90R) {
      Stream s[64];
      GThread *t[64];
      int k, n = MIN (streams, 64);

      for (k = 0; k < n; k++) {
        s[k].h = harness_new (elements[e], ctx, method, in_caps, out_caps);
        s[k].in = in;
        s[k].frames = frames;
        if (!s[k].h || !push_frames (s[k].h, in, WARMUP)) {
          fprintf (stderr, "%s: stream %d refused its frames\n",
              elements[e], k);
          failed = 1;
          if (s[k].h)
            gst_harness_teardown (s[k].h);
          n = k;
          break;
        }
      }
      bench_wait_gpu (ctx);
      a = bench_now_us ();
      for (k = 0; k < n && !failed; k++)
        t[k] = g_thread_new ("stream", stream_run, &s[k]);
      for (k = 0; k < n && !failed; k++)
        g_thread_join (t[k]);
      for (k = 0; k < n && !failed; k++)
        failed |= !s[k].ok;
      if (!failed && bench_wait_gpu (ctx))
        fps = (double) n * frames / ((bench_now_us () - a) / 1e6);
      for (k = 0; k < n; k++)
        gst_harness_teardown (s[k].h);
      kernels_since (&n_kernels);
    }

    printf ("%-11s %5dx%-5d %-6s %-16s %10s %9.2f %9.2f %9.0f\n",
        gst_video_format_to_string (format), w, h, method_name (method),
        elements[e], diff == 0 ? "same" : diff == G_MAXSIZE ? "none" :
        "differs", gpu_us, frame_us, fps);
    if (diff != 0 && diff != G_MAXSIZE) {
      guint p;

      printf ("  (%" G_GSIZE_FORMAT " bytes differ from videoflip's; by "
          "plane:", diff);
      for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&out_info); p++)
        printf (" %" G_GSIZE_FORMAT, per_plane[p]);
      printf (")\n");
    }
    fflush (stdout);
    row = g_strdup_printf ("{\"format\": \"%s\", \"width\": %d, "
        "\"height\": %d, \"direction\": \"%s\", \"element\": \"%s\", "
        "\"differing_bytes\": %" G_GINT64_FORMAT ", \"differing_by_plane\": "
        "[%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ", %"
        G_GSIZE_FORMAT "], \"gpu_us\": %.3f, "
        "\"frame_us\": %.3f, \"streams\": %d, \"fps\": %.1f}",
        gst_video_format_to_string (format), w, h, method_name (method),
        elements[e], diff == G_MAXSIZE ? (gint64) - 1 : (gint64) diff,
        per_plane[0], per_plane[1], per_plane[2], per_plane[3], gpu_us,
        frame_us, fps > 0 ? streams : 0, fps);
    json_row (row);
    g_free (row);
  }

  if (ref) {
    gst_video_frame_unmap (&ref_frame);
    gst_buffer_unref (ref);
  }
  gst_harness_teardown (flip);
  gst_buffer_unref (sys_in);
  gst_buffer_unref (in);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (in_caps);
  gst_caps_unref (out_caps);
  return failed;
}

int
main (int argc, char **argv)
{
  const gchar *formats_arg = NULL, *sizes_arg =
      "1920x1080,3840x2160,1917x1083";
  const gchar *dirs_arg = "90r,180,90l,horiz,vert,ul-lr,ur-ll";
  const gchar *json_path = NULL;
  GArray *formats = g_array_new (FALSE, FALSE, sizeof (GstVideoFormat));
  gchar **sv, **dv;
  GstCudaContext *ctx;
  GEnumClass *methods;
  int frames = 200, streams = 8, count = 0, failed = 0;
  guint f, s, d;
  int i;

  gst_init (&argc, &argv);
  for (i = 1; i < argc; i++) {
    if (g_str_equal (argv[i], "--formats") && i + 1 < argc)
      formats_arg = argv[++i];
    else if (g_str_equal (argv[i], "--sizes") && i + 1 < argc)
      sizes_arg = argv[++i];
    else if (g_str_equal (argv[i], "--directions") && i + 1 < argc)
      dirs_arg = argv[++i];
    else if (g_str_equal (argv[i], "--frames") && i + 1 < argc)
      frames = atoi (argv[++i]);
    else if (g_str_equal (argv[i], "--streams") && i + 1 < argc)
      streams = atoi (argv[++i]);
    else if (g_str_equal (argv[i], "--json") && i + 1 < argc)
      json_path = argv[++i];
    else if (g_str_equal (argv[i], "--elements") && i + 1 < argc) {
      gchar **ev = g_strsplit (argv[++i], ",", -1);

      for (n_elements = 0; ev[n_elements] && n_elements < 2; n_elements++)
        elements[n_elements] = g_intern_string (ev[n_elements]);
      g_strfreev (ev);
    } else {
      fprintf (stderr, "usage: %s [--formats NV12,...] [--sizes WxH,...] "
          "[--directions 90r,...] [--frames N] [--streams S] "
          "[--elements cudatranspose,cudaconvertscale] [--json FILE]\n",
          argv[0]);
      return 2;
    }
  }
  if (frames < 1 || streams < 1 || streams > 64) {
    fprintf (stderr, "--frames: at least 1; --streams: 1 to 64\n");
    return 2;
  }
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0) {
    printf ("no CUDA device: nothing to measure\n");
    return 77;
  }
  for (f = 0; f < n_elements; f++) {
    GstElement *peer = gst_element_factory_make (elements[f], NULL);
    gboolean rotates = peer &&
        g_object_class_find_property (G_OBJECT_GET_CLASS (peer),
        "video-direction") != NULL;

    if (peer)
      gst_object_unref (gst_object_ref_sink (peer));
    if (!rotates) {
      printf ("no %s with video-direction here (cudaconvertscale: "
          "GStreamer 1.24 and later, and nvcodec needs NVRTC for it): "
          "nothing to compare\n", elements[f]);
      return 77;
    }
  }
  if (cuptiActivityRegisterCallbacks (buffer_requested, buffer_completed) !=
      CUPTI_SUCCESS ||
      cuptiActivityEnable (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) !=
      CUPTI_SUCCESS) {
    printf ("CUPTI refused kernel records: no GPU times\n");
    return 77;
  }
  if (!gst_cuda_load_library ()) {
    printf ("GStreamer could not load the CUDA driver: nothing to measure\n");
    return 77;
  }
  gst_cuda_memory_init_once ();
  ctx = gst_cuda_context_new (0);
  if (!ctx) {
    fprintf (stderr, "no CUDA context\n");
    return 1;
  }

  if (formats_arg) {
    gchar **fv = g_strsplit (formats_arg, ",", -1);

    for (i = 0; fv[i]; i++) {
      GstVideoFormat fmt = gst_video_format_from_string (fv[i]);

      if (fmt == GST_VIDEO_FORMAT_UNKNOWN) {
        fprintf (stderr, "unknown format %s\n", fv[i]);
        return 2;
      }
      g_array_append_val (formats, fmt);
    }
    g_strfreev (fv);
  } else {
    for (f = 0; f < G_N_ELEMENTS (ct_cuda_formats); f++)
      if (takes (elements[0], ct_cuda_formats[f]) &&
          (n_elements < 2 || takes (elements[1], ct_cuda_formats[f])))
        g_array_append_val (formats, ct_cuda_formats[f]);
      else
        printf ("%s: not taken by both in CUDA memory, left out\n",
            gst_video_format_to_string (ct_cuda_formats[f]));
  }

  if (json_path) {
    char device[256];

    json = bench_json_open (json_path, device);
    if (!json)
      return 1;
    fprintf (json, "{\"device\": \"%s\", \"gstreamer\": \"%u.%u.%u\", "
        "\"frames\": %d, \"rows\": [\n", device, GST_VERSION_MAJOR,
        GST_VERSION_MINOR, GST_VERSION_MICRO, frames);
  }
  printf ("GStreamer %s; %d frames a row; gpu us: the element's kernels a "
      "frame (CUPTI); frame us: a frame pushed back to back, host and GPU; "
      "fps: %d streams at once (90r)\n", gst_version_string (), frames,
      streams);
  printf ("%-11s %-11s %-6s %-16s %10s %9s %9s %9s\n", "format", "size",
      "dir", "element", "bytes", "gpu us", "frame us", "fps");

  methods = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  sv = g_strsplit (sizes_arg, ",", -1);
  dv = g_strsplit (dirs_arg, ",", -1);
  for (f = 0; f < formats->len; f++) {
    GstVideoFormat fmt = g_array_index (formats, GstVideoFormat, f);
    const gboolean packed_422 = fmt == GST_VIDEO_FORMAT_YUY2 ||
        fmt == GST_VIDEO_FORMAT_UYVY;

    for (s = 0; sv[s]; s++) {
      gint w, h;

      if (sscanf (sv[s], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
        fprintf (stderr, "bad size %s\n", sv[s]);
        return 2;
      }
      if (packed_422)
        w += w & 1;
      for (d = 0; dv[d]; d++) {
        GEnumValue *v = g_enum_get_value_by_nick (methods, dv[d]);

        if (!v || v->value < 1 || v->value > 7) {
          fprintf (stderr, "bad direction %s\n", dv[d]);
          return 2;
        }
        failed |= run_case (ctx, fmt, w, h, v->value, frames, streams);
      }
    }
  }
  g_strfreev (sv);
  g_strfreev (dv);
  g_type_class_unref (methods);
  if (json) {
    fprintf (json, "\n  ]\n}\n");
    fclose (json);
  }
  gst_object_unref (ctx);
  g_array_unref (formats);
  return failed;
}
