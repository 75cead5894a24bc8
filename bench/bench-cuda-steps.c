/* Where a frame's time goes when cudatranspose works in CUDA memory: the
 * element's steps for one buffer, done one by one with the same GStreamer
 * and CUDA calls it makes, each timed on the host's clock.
 *
 *   bench-cuda-steps [--frames N] [--formats I420,NV12,RGBA]
 *                    [--sizes 1920x1080,3840x2160] [--pollute BYTES]
 *                    [--json FILE]
 *
 * For each format and size, N frames (default 2000, after 100 of warm-up)
 * go through: an output buffer from a GstCudaBufferPool ("acquire"), the
 * input's metadata copied to it as GstBaseTransform does ("metadata"), both
 * frames mapped as CUDA memory ("map"), the CUDA context pushed ("push"),
 * the planes transposed by the auto kernels ("launch": the call's own
 * time), the stream waited for ("sync"), the context popped ("pop"), both
 * frames unmapped ("unmap") and the output buffer let go ("release"). The
 * table gives the median of each step in microseconds, the median of the
 * whole sequence, and the GPU's own time of the same launch (CUDA events,
 * L2 warm as in a pipeline, where the frame was just written). Set against
 * bench-pipelines' "own us" of `cudaupload ! cudatranspose ! cudadownload`
 * it shows what the element adds to these steps (GstBaseTransform, pad
 * probes and pushes are not in them).
 *
 * "element" is the element itself on the same frames: cudatranspose in a
 * GstHarness, given the same CUDA context, each frame pushed in and its
 * output taken (median of gst_harness_push's time: the whole of the
 * element's work on a buffer, GstBaseTransform's included).
 *
 * "streamed" is the element's time a frame when frames follow each other
 * without a wait, as in a pipeline: N pushes back to back, then one wait
 * for the GPU, the total over N. On GStreamer 1.24 and later the input
 * pool carries a CUDA stream of its own, as nvcodec's decoders and
 * cudaupload give it, so the element orders its kernel behind the input
 * with an event instead of waiting on the host; set beside "gpu b2b",
 * the kernels' own time a frame launched back to back (CUDA events around
 * N launches), it says whether the GPU or the host bounds the element.
 *
 * --pollute BYTES copies that many bytes on the host between frames, as
 * cudaupload and cudadownload do in system memory around the element in
 * `cudaupload ! cudatranspose ! cudadownload`: the element then starts
 * each frame with its code and data out of the CPU's caches.
 *
 * --json FILE writes the same rows, with the device's name, for
 * bench/plot-performance.py.
 *
 * Exits 77 without a CUDA device.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "bench-gst-cuda.h"
#include "cudatranspose-kernels-tests.h"

enum
{
  ACQUIRE, METADATA, MAP, PUSH, LAUNCH, SYNC, POP, UNMAP, RELEASE, TOTAL,
  N_STEPS
};

static const char *step_names[N_STEPS] = {
  "acquire", "metadata", "map", "push", "launch", "sync", "pop", "unmap",
  "release", "total"
};

static gsize pollute_bytes;     /* --pollute */
static FILE *json;              /* --json */
static gboolean json_rows;      /* a row written to it */
static guint8 *pollute_a, *pollute_b;

/* --pollute: the host's caches filled with other data */
static void
pollute (void)
{
  if (pollute_bytes > 0) {
    memcpy (pollute_b, pollute_a, pollute_bytes);
    pollute_a[g_random_int_range (0, (gint) MIN (pollute_bytes,
                G_MAXINT32))]++;
  }
}

#define WARMUP 100

/* The microseconds since *@a, which becomes now. */
static double
lap (double *a)
{
  const double b = bench_now_us (), d = b - *a;

  *a = b;
  return d;
}

/* A started pool of CUDA memory for frames of @info's caps. */
static GstBufferPool *
make_pool (GstCudaContext * ctx, GstVideoInfo * info, gboolean with_stream)
{
  GstBufferPool *pool = gst_cuda_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_video_info_to_caps (info);

#if GST_CHECK_VERSION (1, 24, 0)
  if (with_stream) {
    GstCudaStream *stream = gst_cuda_stream_new (ctx);

    if (stream) {
      gst_buffer_pool_config_set_cuda_stream (config, stream);
      gst_cuda_stream_unref (stream);
    }
  }
#else
  (void) with_stream;
#endif
  caps = gst_caps_make_writable (caps);
  gst_caps_set_features_simple (caps,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_buffer_pool_config_set_params (config, caps, info->size, 2, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_caps_unref (caps);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* The planes of the mapped frames as the kernels' C API takes them. */
static unsigned int
frame_planes (GstVideoFrame * in, GstVideoFrame * out, CtPlane * planes)
{
  unsigned int p, n = GST_VIDEO_FRAME_N_PLANES (in);

  for (p = 0; p < n; p++) {
    /* the first component of the plane says its element */
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (in->info.finfo, p, comp);
    planes[p].src = GST_VIDEO_FRAME_PLANE_DATA (in, p);
    planes[p].src_stride = GST_VIDEO_FRAME_PLANE_STRIDE (in, p);
    planes[p].dst = GST_VIDEO_FRAME_PLANE_DATA (out, p);
    planes[p].dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE (out, p);
    planes[p].width = GST_VIDEO_FRAME_COMP_WIDTH (in, comp[0]);
    planes[p].height = GST_VIDEO_FRAME_COMP_HEIGHT (in, comp[0]);
    planes[p].elem_size = GST_VIDEO_FRAME_COMP_PSTRIDE (in, comp[0]);
  }
  return n;
}

/* The element on @frames pushes of @inbuf (CUDA memory of @ctx): the
 * median microseconds of gst_harness_push in *@us, and the microseconds
 * a frame of @frames pushes back to back and one wait for the GPU in
 * *@streamed_us (@t: scratch for @frames samples); non-zero on a
 * failure. */
static int
element_us (GstCudaContext * ctx, GstVideoInfo * in_info,
    GstVideoInfo * out_info, GstBuffer * inbuf, int frames, double *t,
    double *us, double *streamed_us)
{
  GstElement *element = gst_element_factory_make ("cudatranspose", NULL);
  GstContext *context = gst_context_new_cuda_context (ctx);
  GstHarness *h;
  GstCaps *in_caps = gst_video_info_to_caps (in_info);
  GstCaps *out_caps = gst_video_info_to_caps (out_info);
  int i, failed = 0;

  gst_caps_set_features_simple (in_caps,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_caps_set_features_simple (out_caps,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  if (element)
    gst_object_ref_sink (element);
  if (!element) {
    fprintf (stderr, "no cudatranspose element (GST_PLUGIN_PATH?)\n");
    gst_context_unref (context);
    gst_caps_unref (in_caps);
    gst_caps_unref (out_caps);
    return 1;
  }
  /* the context before the element starts (the harness starts it): an
   * element opens its GPU with the context it has then */
  gst_element_set_context (element, context);
  gst_context_unref (context);
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_object_unref (element);
  gst_harness_set_src_caps (h, in_caps);
  gst_harness_set_sink_caps (h, out_caps);
  for (i = -WARMUP; i < frames && !failed; i++) {
    GstBuffer *out;
    double a;

    pollute ();
    a = bench_now_us ();
    if (gst_harness_push (h, gst_buffer_ref (inbuf)) != GST_FLOW_OK) {
      fprintf (stderr, "the element refused a frame\n");
      failed = 1;
      break;
    }
    if (i >= 0)
      t[i] = bench_now_us () - a;
    out = gst_harness_pull (h);
    if (!out || gst_buffer_n_memory (out) != 1 ||
        !gst_is_cuda_memory (gst_buffer_peek_memory (out, 0)) ||
        GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (out, 0))->context !=
        ctx) {
      fprintf (stderr, "the element's output is not CUDA memory of the "
          "context it was given\n");
      failed = 1;
    }
    gst_clear_buffer (&out);
  }
  if (!failed)
    *us = bench_median (t, frames);
  /* back to back: the GPU idle first, then one wait at the end */
  if (!failed && !bench_wait_gpu (ctx)) {
    fprintf (stderr, "cannot wait for the GPU\n");
    failed = 1;
  }
  if (!failed) {
    double a = bench_now_us ();

    for (i = 0; i < frames && !failed; i++) {
      GstBuffer *out;

      if (gst_harness_push (h, gst_buffer_ref (inbuf)) != GST_FLOW_OK) {
        fprintf (stderr, "the element refused a frame\n");
        failed = 1;
        break;
      }
      out = gst_harness_pull (h);
      gst_clear_buffer (&out);
    }
    if (!failed && !bench_wait_gpu (ctx)) {
      fprintf (stderr, "cannot wait for the GPU\n");
      failed = 1;
    }
    *streamed_us = (bench_now_us () - a) / frames;
  }
  gst_harness_teardown (h);
  return failed;
}

static int
run_case (GstCudaContext * ctx, GstVideoFormat format, int w, int h,
    int frames)
{
  GstVideoInfo in_info, out_info;
  GstBufferPool *in_pool, *out_pool;
  GstBuffer *inbuf = NULL;
  CtStream stream = NULL;
  double *t[N_STEPS];
  double med[N_STEPS], gpu_us = 0, b2b_us = 0, elem_us = 0, streamed_us = 0;
  int i, s, failed = 0;

  gst_video_info_set_format (&in_info, format, w, h);
  gst_video_info_set_format (&out_info, format, h, w);
  in_pool = make_pool (ctx, &in_info, TRUE);
  out_pool = make_pool (ctx, &out_info, FALSE);
  if (!in_pool || !out_pool) {
    fprintf (stderr, "%s %dx%d: no CUDA buffer pool\n",
        gst_video_format_to_string (format), w, h);
    gst_clear_object (&in_pool);
    gst_clear_object (&out_pool);
    return 1;
  }
  for (s = 0; s < N_STEPS; s++)
    t[s] = g_new0 (double, frames);

  /* one input frame of random bytes, written through the host and
   * uploaded at its first CUDA map */
  gst_buffer_pool_acquire_buffer (in_pool, &inbuf, NULL);
  {
    GstMapInfo map;

    if (!inbuf || !gst_buffer_map (inbuf, &map, GST_MAP_WRITE)) {
      fprintf (stderr, "cannot write the input frame\n");
      failed = 1;
      goto done;
    }
    for (gsize k = 0; k < map.size; k++)
      map.data[k] = (guint8) g_random_int ();
    gst_buffer_unmap (inbuf, &map);
  }
  GST_BUFFER_PTS (inbuf) = 0;
  GST_BUFFER_DURATION (inbuf) = GST_SECOND / 30;

  if (!gst_cuda_context_push (ctx) || ct_stream_create (&stream) != CT_OK) {
    fprintf (stderr, "cannot make a stream\n");
    failed = 1;
    goto done;
  }
  gst_cuda_context_pop (NULL);

  for (i = -WARMUP; i < frames && !failed; i++) {
    GstBuffer *outbuf = NULL;
    GstVideoFrame fin, fout;
    CtPlane planes[GST_VIDEO_MAX_PLANES];
    CtResult res;
    unsigned int n;
    double a, first;
    double d[N_STEPS];

    pollute ();
    first = a = bench_now_us ();
    if (gst_buffer_pool_acquire_buffer (out_pool, &outbuf, NULL) !=
        GST_FLOW_OK) {
      fprintf (stderr, "no output buffer\n");
      failed = 1;
      break;
    }
    d[ACQUIRE] = lap (&a);
    gst_buffer_copy_into (outbuf, inbuf, GST_BUFFER_COPY_FLAGS |
        GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
    d[METADATA] = lap (&a);
    if (!gst_video_frame_map (&fin, &in_info, inbuf,
            GST_MAP_READ | GST_MAP_CUDA)) {
      fprintf (stderr, "cannot map the input as CUDA memory\n");
      gst_buffer_unref (outbuf);
      failed = 1;
      break;
    }
    if (!gst_video_frame_map (&fout, &out_info, outbuf,
            GST_MAP_WRITE | GST_MAP_CUDA)) {
      fprintf (stderr, "cannot map the output as CUDA memory\n");
      gst_video_frame_unmap (&fin);
      gst_buffer_unref (outbuf);
      failed = 1;
      break;
    }
    d[MAP] = lap (&a);
    if (!gst_cuda_context_push (ctx)) {
      fprintf (stderr, "cannot push the context\n");
      failed = 1;
    }
    d[PUSH] = lap (&a);
    n = frame_planes (&fin, &fout, planes);
    res = ct_transpose_planes (planes, n, CT_KERNEL_AUTO,
        CT_MAPPING_TRANSPOSE, stream);
    d[LAUNCH] = lap (&a);
    if (res == CT_OK)
      res = ct_stream_synchronize (stream);
    d[SYNC] = lap (&a);
    gst_cuda_context_pop (NULL);
    d[POP] = lap (&a);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    d[UNMAP] = lap (&a);
    gst_buffer_unref (outbuf);
    d[RELEASE] = lap (&a);
    d[TOTAL] = a - first;
    if (res != CT_OK) {
      fprintf (stderr, "transpose failed: %s\n", ct_result_string (res));
      failed = 1;
    }
    if (i >= 0)
      for (s = 0; s < N_STEPS; s++)
        t[s][i] = d[s];
  }

  if (!failed)
    for (s = 0; s < N_STEPS; s++)
      med[s] = bench_median (t[s], frames);

  /* the GPU's own time of the same launch, the L2 warm (into t[0]) */
  if (!failed && gst_cuda_context_push (ctx)) {
    GstBuffer *outbuf = NULL;
    GstVideoFrame fin, fout;
    CtPlane planes[GST_VIDEO_MAX_PLANES];
    cudaEvent_t e0 = NULL, e1 = NULL;
    cudaError_t err = cudaSuccess;
    CtResult res = CT_OK;
    float ms = 0;
    unsigned int n;

    failed = 1;                 /* until the timing is through */
    if (gst_buffer_pool_acquire_buffer (out_pool, &outbuf, NULL) ==
        GST_FLOW_OK && gst_video_frame_map (&fin, &in_info, inbuf,
            GST_MAP_READ | GST_MAP_CUDA)) {
      if (gst_video_frame_map (&fout, &out_info, outbuf,
              GST_MAP_WRITE | GST_MAP_CUDA)) {
        n = frame_planes (&fin, &fout, planes);
        err = cudaEventCreate (&e0);
        if (err == cudaSuccess)
          err = cudaEventCreate (&e1);
        for (i = -WARMUP; i < frames && err == cudaSuccess; i++) {
          err = cudaEventRecord (e0, (cudaStream_t) stream);
          if (err == cudaSuccess)
            res = ct_transpose_planes (planes, n, CT_KERNEL_AUTO,
                CT_MAPPING_TRANSPOSE, stream);
          if (res != CT_OK)
            break;
          if (err == cudaSuccess)
            err = cudaEventRecord (e1, (cudaStream_t) stream);
          if (err == cudaSuccess)
            err = cudaEventSynchronize (e1);
          if (err == cudaSuccess)
            err = cudaEventElapsedTime (&ms, e0, e1);
          if (i >= 0)
            t[0][i] = ms * 1000.0;
        }
        /* back to back: @frames launches between two events */
        if (err == cudaSuccess && res == CT_OK)
          err = cudaEventRecord (e0, (cudaStream_t) stream);
        for (i = 0; i < frames && err == cudaSuccess && res == CT_OK; i++)
          res = ct_transpose_planes (planes, n, CT_KERNEL_AUTO,
              CT_MAPPING_TRANSPOSE, stream);
        if (err == cudaSuccess && res == CT_OK)
          err = cudaEventRecord (e1, (cudaStream_t) stream);
        if (err == cudaSuccess && res == CT_OK)
          err = cudaEventSynchronize (e1);
        if (err == cudaSuccess && res == CT_OK)
          err = cudaEventElapsedTime (&ms, e0, e1);
        if (err == cudaSuccess && res == CT_OK) {
          gpu_us = bench_median (t[0], frames);
          b2b_us = ms * 1000.0 / frames;
          failed = 0;
        } else {
          fprintf (stderr, "timing the launch failed: %s\n",
              res != CT_OK ? ct_result_string (res) :
              cudaGetErrorString (err));
        }
        if (e0)
          cudaEventDestroy (e0);
        if (e1)
          cudaEventDestroy (e1);
        gst_video_frame_unmap (&fout);
      }
      gst_video_frame_unmap (&fin);
    }
    gst_clear_buffer (&outbuf);
    gst_cuda_context_pop (NULL);
  }

  if (!failed)
    failed = element_us (ctx, &in_info, &out_info, inbuf, frames, t[0],
        &elem_us, &streamed_us);
  if (!failed) {
    printf ("%-5s %4dx%-4d", gst_video_format_to_string (format), w, h);
    for (s = 0; s < N_STEPS; s++)
      printf (" %8.2f", med[s]);
    printf (" %8.2f %8.2f %8.2f %8.2f\n", gpu_us, b2b_us, elem_us,
        streamed_us);
    fflush (stdout);
    if (json) {
      fprintf (json, "%s    {\"format\": \"%s\", \"width\": %d, "
          "\"height\": %d, \"steps\": {", json_rows ? ",\n" : "",
          gst_video_format_to_string (format), w, h);
      for (s = 0; s < N_STEPS; s++)
        fprintf (json, "%s\"%s\": %.3f", s ? ", " : "", step_names[s],
            med[s]);
      fprintf (json, "}, \"gpu_us\": %.3f, \"gpu_b2b_us\": %.3f, "
          "\"element_us\": %.3f, \"streamed_us\": %.3f}", gpu_us, b2b_us,
          elem_us, streamed_us);
      json_rows = TRUE;
    }
  }

done:
  if (stream) {
    gst_cuda_context_push (ctx);
    ct_stream_destroy (stream);
    gst_cuda_context_pop (NULL);
  }
  gst_clear_buffer (&inbuf);
  gst_buffer_pool_set_active (in_pool, FALSE);
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (in_pool);
  gst_object_unref (out_pool);
  for (s = 0; s < N_STEPS; s++)
    g_free (t[s]);
  return failed;
}

int
main (int argc, char **argv)
{
  const gchar *formats = "I420,NV12,RGBA", *sizes = "1920x1080,3840x2160";
  const gchar *json_path = NULL;
  gchar **fv, **sv;
  GstCudaContext *ctx;
  int frames = 2000, count = 0, failed = 0, i, j, s;

  gst_init (&argc, &argv);
  for (i = 1; i < argc; i++) {
    if (g_str_equal (argv[i], "--frames") && i + 1 < argc)
      frames = atoi (argv[++i]);
    else if (g_str_equal (argv[i], "--formats") && i + 1 < argc)
      formats = argv[++i];
    else if (g_str_equal (argv[i], "--sizes") && i + 1 < argc)
      sizes = argv[++i];
    else if (g_str_equal (argv[i], "--pollute") && i + 1 < argc)
      pollute_bytes = (gsize) g_ascii_strtoull (argv[++i], NULL, 10);
    else if (g_str_equal (argv[i], "--json") && i + 1 < argc)
      json_path = argv[++i];
    else {
      fprintf (stderr, "usage: %s [--frames N] [--formats I420,NV12,RGBA] "
          "[--sizes 1920x1080,3840x2160] [--pollute BYTES] [--json FILE]\n",
          argv[0]);
      return 2;
    }
  }
  if (frames < 1) {
    fprintf (stderr, "--frames: at least 1\n");
    return 2;
  }
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0) {
    printf ("no CUDA device: nothing to measure\n");
    return 77;
  }
  if (json_path) {
    char device[256];

    json = bench_json_open (json_path, device);
    if (!json)
      return 1;
    fprintf (json, "{\"device\": \"%s\", \"frames\": %d, "
        "\"pollute_bytes\": %" G_GSIZE_FORMAT ", \"rows\": [\n", device,
        frames, pollute_bytes);
  }
  gst_cuda_memory_init_once ();
  ctx = gst_cuda_load_library () ? gst_cuda_context_new (0) : NULL;
  if (!ctx) {
    fprintf (stderr, "no CUDA context for device 0\n");
    return 1;
  }
  if (pollute_bytes > 0) {
    pollute_a = g_try_malloc (pollute_bytes);
    pollute_b = g_try_malloc (pollute_bytes);
    if (!pollute_a || !pollute_b) {
      fprintf (stderr, "--pollute: cannot allocate twice %" G_GSIZE_FORMAT
          " bytes\n", pollute_bytes);
      return 1;
    }
    memset (pollute_a, 1, pollute_bytes);
  }
  printf ("median us of %d frames, %" G_GSIZE_FORMAT " bytes copied on the "
      "host between frames; launch: the call's own time; gpu: its GPU time "
      "(events, L2 warm), b2b: a frame of launches back to back; element: "
      "cudatranspose's push; streamed: a frame of pushes back to back\n"
      "%-15s", frames, pollute_bytes, "frame");
  for (s = 0; s < N_STEPS; s++)
    printf (" %8s", step_names[s]);
  printf (" %8s %8s %8s %8s\n", "gpu", "gpu b2b", "element", "streamed");
  fv = g_strsplit (formats, ",", -1);
  sv = g_strsplit (sizes, ",", -1);
  for (i = 0; fv[i]; i++) {
    GstVideoFormat format = gst_video_format_from_string (fv[i]);

    if (format == GST_VIDEO_FORMAT_UNKNOWN) {
      fprintf (stderr, "unknown format %s\n", fv[i]);
      failed = 1;
      continue;
    }
    for (j = 0; sv[j]; j++) {
      int w = 0, h = 0;

      if (sscanf (sv[j], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
        fprintf (stderr, "bad size %s (WIDTHxHEIGHT)\n", sv[j]);
        failed = 1;
        continue;
      }
      failed |= run_case (ctx, format, w, h, frames);
    }
  }
  g_strfreev (fv);
  g_strfreev (sv);
  if (json) {
    fprintf (json, "\n]}\n");
    fclose (json);
  }
  g_free (pollute_a);
  g_free (pollute_b);
  gst_object_unref (ctx);
  return failed;
}
