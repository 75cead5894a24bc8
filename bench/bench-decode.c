/* Decode -> rotate, as an analytics or transcoding server runs it: H.264
 * decoded and turned 90 degrees, several streams at once on one GPU.
 *
 *   bench-decode DIR [--decoder nvh264dec] [--streams 1,4,16]
 *                    [--routes decode,cuda,cpu] [--contexts shared,own]
 *                    [--rounds 1] [--json FILE]
 *
 * DIR holds the clips tools/make-h264.sh makes (1080p.h264, 4k.h264:
 * byte-stream H.264 of a moving test pattern). For each clip, each number
 * of streams and each route, that many pipelines run at once in this
 * process, each `filesrc ! h264parse ! DECODER ! ROUTE ! fakesink`:
 *   decode  the decoder alone, what the others are measured against
 *           (with nvh264dec, its frames kept in CUDA memory);
 *   cuda    `cudatranspose video-direction=90r`, the frames left in CUDA
 *           memory (with nvh264dec: caps memory:CUDAMemory after it);
 *   cpu     the CPU route, `cudadownload ! videoflip video-direction=90r`
 *           (without cudadownload for a decoder of system memory);
 *   tensor  a network's input: `cudaconvert` to RGB in CUDA memory,
 *           `cudadownload`, then `cudatranspose` to a normalized float32
 *           CHW tensor in one pass; where cudaconvert is not registered
 *           (GStreamer 1.22 needs NVRTC for it), `cudadownload !
 *           videoconvert` to RGB on the CPU instead, and the table says
 *           which (not in the default routes; "GPU share" stays the
 *           rotation's);
 *   yuv-tensor  the same input from the decoder's YUV frames in one pass:
 *           `cudatranspose` converts, lays out and normalizes them (with
 *           nvh264dec, read in CUDA memory), no RGB frame in between (not
 *           in the default routes);
 *   yuv-tensor-cuda  the same, the tensors left in CUDA memory for a
 *           consumer on the GPU (caps other/tensors(memory:CUDAMemory)
 *           after it; not in the default routes).
 * --rounds N runs the routes N times in turn for each clip, number of
 * streams and context (a line and a JSON row each, with its round), so
 * that a route and decoding alone are measured side by side, not one long
 * run apart: with 16 streams decoding alone moves by 5% between runs.
 * --contexts: "shared" gives every pipeline one CUDA context (of device
 * 0, set on each pipeline before it starts), as an application may;
 * with "own" each pipeline makes its own, as separate gst-launch-1.0
 * processes would, and the GPU switches between them. Default: both (on
 * an H100, 16 streams decoded twice as fast with a context each, and a
 * frame waited 10 to 20 times longer in cudatranspose).
 * Frames per second per stream are timed at its sink from the first frame
 * to the last; the total is their sum. "element us" is the median time a
 * frame spends inside cudatranspose (sink pad to src pad, over every
 * stream). "GPU share" is the transpose's kernels' GPU time a frame (the
 * decoded NV12 frame rotated by the kernels' C API, CUDA events, median,
 * L2 flushed first) times the total frames per second: how much of the
 * GPU's time the rotation takes at that rate.
 *
 * Without a CUDA device the kernel timing is left out, and a decoder of
 * system memory (openh264dec) runs the routes on the CPU path: a check of
 * this program, not a measurement. Run with GST_PLUGIN_PATH pointing at
 * the build's gst/ folder.
 */
#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "cudatranspose-kernels-tests.h"
#include "flush-l2.h"

#define MAX_STREAMS 64
#define FLUSH_BYTES (256u << 20)
#define KERNEL_REPS 21

typedef struct
{
  GstElement *pipeline;
  guint frames;
  gint64 first, last;           /* monotonic us at the sink */
  /* the element's own time: arrival times of frames on its sink pad, by
   * arrival order (cudatranspose keeps the order) */
  gint64 *arrived;
  guint n_arrived, n_left;
  gdouble *own;
  guint n_own;
  guint capacity;
} Stream;

static GstPadProbeReturn
at_sink (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stream *s = data;
  gint64 now = g_get_monotonic_time ();

  if (s->frames++ == 0)
    s->first = now;
  s->last = now;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
into_element (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stream *s = data;

  if (s->n_arrived < s->capacity)
    s->arrived[s->n_arrived++] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
out_of_element (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stream *s = data;

  if (s->n_left < s->n_arrived && s->n_own < s->capacity)
    s->own[s->n_own++] = g_get_monotonic_time () - s->arrived[s->n_left++];
  return GST_PAD_PROBE_OK;
}

static void
probe (GstElement * e, const gchar * pad_name, GstPadProbeCallback cb,
    gpointer data)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, cb, data, NULL);
  gst_object_unref (pad);
}

/* The tensor route's normalization, as a network's input wants it. */
#define TENSOR_ARITH "arithmetic=typecast:float32,add:-127.5,div:127.5"

static const gchar *const known_routes[] = {
  "decode", "cuda", "cpu", "tensor", "yuv-tensor", "yuv-tensor-cuda", NULL
};

/* The route between the decoder and the sink. */
static const gchar *
route_desc (const gchar * route, gboolean cuda_decoder)
{
  /* (the decoder's frames stay in CUDA memory where it makes them: a
   * fakesink alone would take system memory and time a download) */
  if (g_str_equal (route, "decode"))
    return cuda_decoder ? "! video/x-raw(memory:CUDAMemory) " : "";
  if (g_str_equal (route, "cuda"))
    return cuda_decoder ? "! cudatranspose name=t video-direction=90r "
        "! video/x-raw(memory:CUDAMemory) " :
        "! cudatranspose name=t video-direction=90r ";
  if (g_str_equal (route, "yuv-tensor"))
    return "! cudatranspose name=t " TENSOR_ARITH
        " ! other/tensors,format=static ";
  if (g_str_equal (route, "yuv-tensor-cuda"))
    return "! cudatranspose name=t " TENSOR_ARITH
        " ! other/tensors(memory:CUDAMemory),format=static ";
  if (g_str_equal (route, "tensor")) {
    /* (GStreamer 1.22's cudaconvert needs NVRTC at run time; where it
     * is not registered the conversion to RGB runs on the CPU) */
    GstElementFactory *f = gst_element_factory_find ("cudaconvert");
    gboolean gpu_convert = cuda_decoder && f != NULL;

    if (f)
      gst_object_unref (f);
    if (gpu_convert)
      return "! cudaconvert ! video/x-raw(memory:CUDAMemory),format=RGB "
          "! cudadownload ! cudatranspose name=t " TENSOR_ARITH
          " ! other/tensors,format=static ";
    return cuda_decoder ? "! cudadownload ! videoconvert ! "
        "video/x-raw,format=RGB ! cudatranspose name=t " TENSOR_ARITH
        " ! other/tensors,format=static " : "! videoconvert ! "
        "video/x-raw,format=RGB ! cudatranspose name=t " TENSOR_ARITH
        " ! other/tensors,format=static ";
  }
  return cuda_decoder ? "! cudadownload ! videoflip video-direction=90r " :
      "! videoflip video-direction=90r ";
}

/* Runs @n streams of @clip at once through @route; fills @fps (per
 * stream, their mean and the total) and @own_us; FALSE on an error (said
 * on stderr). */
static gboolean
run_streams (const gchar * clip, const gchar * decoder, const gchar * route,
    GstContext * shared, guint n, gdouble * stream_fps, gdouble * total_fps,
    gdouble * own_us)
{
  Stream streams[MAX_STREAMS];
  gboolean eos[MAX_STREAMS] = { FALSE, };
  gboolean cuda_decoder = g_str_has_prefix (decoder, "nv");
  gboolean ok = TRUE;
  gdouble *all_own;
  gint64 deadline;
  guint i, done = 0, n_all = 0;

  memset (streams, 0, sizeof (streams));
  for (i = 0; i < n && ok; i++) {
    gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! %s "
        "%s! fakesink name=sink sync=false", clip, decoder,
        route_desc (route, cuda_decoder));
    GError *err = NULL;
    Stream *s = &streams[i];
    GstElement *sink, *t;

    s->pipeline = gst_parse_launch (desc, &err);
    g_free (desc);
    if (!s->pipeline || err) {
      fprintf (stderr, "%s: %s\n", route, err ? err->message : "no pipeline");
      g_clear_error (&err);
      ok = FALSE;
      break;
    }
    sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
    probe (sink, "sink", at_sink, s);
    gst_object_unref (sink);
    t = gst_bin_get_by_name (GST_BIN (s->pipeline), "t");
    if (t) {
      s->capacity = 1 << 16;
      s->arrived = g_new (gint64, s->capacity);
      s->own = g_new (gdouble, s->capacity);
      probe (t, "sink", into_element, s);
      probe (t, "src", out_of_element, s);
      gst_object_unref (t);
    }
  }
  for (i = 0; i < n && ok; i++) {
    if (shared)
      gst_element_set_context (streams[i].pipeline, shared);
    if (gst_element_set_state (streams[i].pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE)
      ok = FALSE;
  }

  /* each stream to its EOS (or an error), two minutes at the most */
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (ok && done < n) {
    for (i = 0; i < n && ok; i++) {
      GstBus *bus;
      GstMessage *m;

      if (eos[i])
        continue;
      bus = gst_element_get_bus (streams[i].pipeline);
      m = gst_bus_timed_pop_filtered (bus, 10 * GST_MSECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      gst_object_unref (bus);
      if (!m)
        continue;
      if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
        GError *err = NULL;

        gst_message_parse_error (m, &err, NULL);
        fprintf (stderr, "%s, stream %u: %s\n", route, i, err->message);
        g_error_free (err);
        ok = FALSE;
      } else {
        eos[i] = TRUE;
        done++;
      }
      gst_message_unref (m);
    }
    if (g_get_monotonic_time () > deadline) {
      fprintf (stderr, "%s: %u of %u streams ended in two minutes\n", route,
          done, n);
      ok = FALSE;
    }
  }

  *stream_fps = *total_fps = *own_us = 0;
  all_own = g_new (gdouble, (gsize) n << 16);
  for (i = 0; i < n; i++) {
    Stream *s = &streams[i];

    if (ok && s->frames > 1 && s->last > s->first) {
      gdouble fps = (s->frames - 1) * 1e6 / (s->last - s->first);

      *total_fps += fps;
    }
    memcpy (all_own + n_all, s->own, s->n_own * sizeof (gdouble));
    n_all += s->n_own;
    if (s->pipeline) {
      gst_element_set_state (s->pipeline, GST_STATE_NULL);
      gst_object_unref (s->pipeline);
    }
    g_free (s->arrived);
    g_free (s->own);
  }
  if (n_all > 0) {
    *own_us = bench_median (all_own, n_all);
  }
  g_free (all_own);
  *stream_fps = *total_fps / n;
  return ok;
}

/* The kernels' GPU time for one decoded @w x @h NV12 frame rotated 90r
 * (rows pitched to 256 bytes, as a CUDA pool's): us, median of
 * KERNEL_REPS after warm-up, the L2 flushed before each; 0 without a
 * device or on a failure. */
static gdouble
kernel_us (guint w, guint h)
{
  const gsize in_pitch = (w + 255) / 256 * 256, out_pitch = (h + 255) / 256
      * 256;
  guint8 *in = NULL, *out = NULL, *flush = NULL;
  CtEvent start = NULL, end = NULL;
  CtStream s = NULL;
  gdouble t[KERNEL_REPS], us = 0;
  CtPlaneBatch b[2];
  gint n = 0, r;

  if (ct_device_count (&n) != CT_OK || n == 0)
    return 0;
  if (ct_stream_create (&s) != CT_OK || ct_event_create (&start, 1) != CT_OK
      || ct_event_create (&end, 1) != CT_OK ||
      ct_device_alloc ((void **) &in, in_pitch * h * 3 / 2) != CT_OK ||
      ct_device_alloc ((void **) &out, out_pitch * w * 3 / 2) != CT_OK ||
      ct_device_alloc ((void **) &flush, FLUSH_BYTES + 16) != CT_OK)
    goto done;
  memset (b, 0, sizeof (b));
  /* luma, then interleaved chroma (2-byte elements) after it */
  b[0].plane.src = in;
  b[0].plane.dst = out;
  b[0].plane.width = w;
  b[0].plane.height = h;
  b[0].plane.src_stride = in_pitch;
  b[0].plane.dst_stride = out_pitch;
  b[0].plane.elem_size = 1;
  b[1].plane.src = in + in_pitch * h;
  b[1].plane.dst = out + out_pitch * w;
  b[1].plane.width = w / 2;
  b[1].plane.height = h / 2;
  b[1].plane.src_stride = in_pitch;
  b[1].plane.dst_stride = out_pitch;
  b[1].plane.elem_size = 2;
  b[0].count = b[1].count = 1;
  for (r = -3, n = 0; r < KERNEL_REPS; r++) {
    float ms = 0;

    if (bench_flush_l2 (flush, FLUSH_BYTES, (unsigned int *) (flush +
                FLUSH_BYTES), (cudaStream_t) s) != cudaSuccess ||
        ct_event_record (start, s) != CT_OK ||
        ct_transpose_batches_ex (b, 2, CT_KERNEL_AUTO, CT_PATH_NONE,
            CT_MAPPING_ROTATE_90R, s, NULL) != CT_OK ||
        ct_event_record (end, s) != CT_OK ||
        ct_event_synchronize (end) != CT_OK ||
        ct_event_elapsed_ms (&ms, start, end) != CT_OK)
      goto done;
    if (r >= 0)
      t[n++] = ms * 1000.0;
  }
  us = bench_median (t, n);
done:
  if (flush)
    ct_device_free (flush);
  if (out)
    ct_device_free (out);
  if (in)
    ct_device_free (in);
  if (start)
    ct_event_destroy (start);
  if (end)
    ct_event_destroy (end);
  if (s)
    ct_stream_destroy (s);
  return us;
}

static const struct
{
  const gchar *file;
  guint width, height;
} clips[] = {
  {"1080p.h264", 1920, 1080},
  {"4k.h264", 3840, 2160},
};

int
main (int argc, char **argv)
{
  const gchar *dir = NULL, *decoder = "nvh264dec", *json_path = NULL;
  const gchar *streams_arg = "1,4,16", *routes_arg = "decode,cuda,cpu";
  const gchar *contexts_arg = "shared,own";
  gchar **counts, **routes, **contexts;
  guint rounds = 1, round;
  GstCudaContext *cuda = NULL;
  GstContext *shared_context = NULL;
  guint x;
  gboolean first = TRUE;
  FILE *json = NULL;
  guint c, k, r;
  gint p, failures = 0;

  gst_init (&argc, &argv);
  for (p = 1; p < argc; p++) {
    if (g_str_equal (argv[p], "--decoder") && p + 1 < argc)
      decoder = argv[++p];
    else if (g_str_equal (argv[p], "--streams") && p + 1 < argc)
      streams_arg = argv[++p];
    else if (g_str_equal (argv[p], "--routes") && p + 1 < argc)
      routes_arg = argv[++p];
    else if (g_str_equal (argv[p], "--contexts") && p + 1 < argc)
      contexts_arg = argv[++p];
    else if (g_str_equal (argv[p], "--json") && p + 1 < argc)
      json_path = argv[++p];
    else if (g_str_equal (argv[p], "--rounds") && p + 1 < argc) {
      const guint64 n = g_ascii_strtoull (argv[++p], NULL, 10);

      /* (past 100, refused below: no cast that wraps it into range) */
      rounds = n > 100 ? 0 : (guint) n;
    }
    else if (!dir && argv[p][0] != '-')
      dir = argv[p];
    else
      dir = NULL, p = argc;
  }
  if (!dir || rounds < 1 || rounds > 100) {
    fprintf (stderr, "usage: %s DIR [--decoder nvh264dec] [--streams "
        "1,4,16] [--routes decode,cuda,cpu] [--contexts shared,own] "
        "[--rounds 1 (to 100)] [--json FILE]\n(DIR: the clips "
        "of tools/make-h264.sh)\n", argv[0]);
    return 2;
  }
  {
    GstElementFactory *f = gst_element_factory_find (decoder);

    if (!f) {
      printf ("SKIP: no %s here\n", decoder);
      return 77;
    }
    gst_object_unref (f);
  }
  if (json_path && !(json = fopen (json_path, "w"))) {
    fprintf (stderr, "cannot write %s\n", json_path);
    return 1;
  }
  if (json)
    fprintf (json, "[\n");
  counts = g_strsplit (streams_arg, ",", -1);
  routes = g_strsplit (routes_arg, ",", -1);
  contexts = g_strsplit (contexts_arg, ",", -1);
  for (r = 0; routes[r]; r++) {
    if (!g_strv_contains (known_routes, routes[r])) {
      gchar *known = g_strjoinv (", ", (gchar **) known_routes);

      fprintf (stderr, "--routes: \"%s\" is none of %s\n", routes[r], known);
      g_free (known);
      return 2;
    }
  }
  for (x = 0; contexts[x]; x++) {
    if (!g_str_equal (contexts[x], "shared") &&
        !g_str_equal (contexts[x], "own")) {
      fprintf (stderr, "--contexts: shared, own or both\n");
      return 2;
    }
  }
  /* (the kernels' own check of the device decides whether one is there) */
  if (strstr (contexts_arg, "shared") && gst_cuda_load_library () &&
      (cuda = gst_cuda_context_new (0)))
    shared_context = gst_context_new_cuda_context (cuda);
  if (g_strv_contains ((const gchar * const *) routes, "tensor")) {
    GstElementFactory *f = gst_element_factory_find ("cudaconvert");
    printf ("(tensor route: to RGB with %s)\n", f ?
        "cudaconvert, in CUDA memory" : "videoconvert, on the CPU (no "
        "cudaconvert here)");
    if (f)
      gst_object_unref (f);
  }
  printf ("%-6s %-7s %-7s %-7s %12s %12s %10s %10s %9s\n", "clip", "streams",
      "route", "context", "fps/stream", "fps total", "element us",
      "kernel us", "GPU share");
  for (c = 0; c < G_N_ELEMENTS (clips); c++) {
    gchar *clip = g_build_filename (dir, clips[c].file, NULL);
    gdouble kus;

    if (!g_file_test (clip, G_FILE_TEST_EXISTS)) {
      printf ("(no %s: left out)\n", clip);
      g_free (clip);
      continue;
    }
    kus = kernel_us (clips[c].width, clips[c].height);
    for (k = 0; counts[k]; k++) {
      const guint64 asked = g_ascii_strtoull (counts[k], NULL, 10);
      const guint n = asked > MAX_STREAMS ? 0 : (guint) asked;

      if (n < 1 || n > MAX_STREAMS) {
        fprintf (stderr, "--streams: 1 to %d\n", MAX_STREAMS);
        return 2;
      }
      for (x = 0; contexts[x]; x++) for (round = 0; round < rounds; round++)
        for (r = 0; routes[r]; r++) {
        gdouble fps, total, own;
        gchar *tag;
        gboolean shared = g_str_equal (contexts[x], "shared");
        gboolean ok, transposed = g_str_equal (routes[r], "cuda") ||
            g_str_equal (routes[r], "tensor");

        if (shared && !shared_context) {
          printf ("(no CUDA context to share: \"shared\" left out)\n");
          break;
        }
        ok = run_streams (clip, decoder, routes[r], shared ? shared_context :
            NULL, n, &fps, &total, &own);
        failures += !ok;
        tag = rounds > 1 ? g_strdup_printf ("  (round %u)", round + 1) :
            g_strdup ("");
        printf ("%-6.*s %-7u %-7s %-7s %12.1f %12.1f %10.1f %10.2f "
            "%8.1f%%%s%s\n", (int) strcspn (clips[c].file, "."),
            clips[c].file, n, routes[r], contexts[x], fps, total, own,
            transposed ? kus : 0, transposed ? kus * total / 1e4 : 0,
            ok ? "" : "  (failed)", tag);
        g_free (tag);
        fflush (stdout);
        if (json) {
          fprintf (json, "%s  {\"clip\": \"%s\", \"width\": %u, \"height\": "
              "%u, \"decoder\": \"%s\", \"streams\": %u, \"route\": \"%s\", "
              "\"context\": \"%s\", \"round\": %u, \"ok\": %s, "
              "\"fps_per_stream\": %.2f, \"fps_total\": %.2f, "
              "\"element_us\": %.2f, \"kernel_us\": %.2f}", first ? "" :
              ",\n", clips[c].file, clips[c].width, clips[c].height, decoder,
              n, routes[r], contexts[x], round + 1, ok ? "true" : "false",
              fps, total, own, transposed ? kus : 0);
          fflush (json);
          first = FALSE;
        }
      }
    }
    g_free (clip);
  }
  if (json) {
    fprintf (json, "\n]\n");
    fclose (json);
  }
  g_strfreev (counts);
  g_strfreev (routes);
  g_strfreev (contexts);
  if (shared_context)
    gst_context_unref (shared_context);
  gst_clear_object (&cuda);
  return failures > 0 ? 1 : 0;
}
