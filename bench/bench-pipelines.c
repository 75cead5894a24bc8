/* Throughput of whole pipelines: cudatranspose in system memory, cudatranspose
 * between cudaupload and cudadownload, and videoflip video-direction=ul-lr,
 * on the same pre-generated frames, in the same run.
 *
 *   bench-pipelines [--frames N] [--json FILE] [--tensors]
 *                   [--formats I420,NV12,...] [--paths system,cuda,videoflip]
 *                   [--in-flight 1|2] [--after ELEMENTS]
 *
 * Frames are made once, in buffers from the pool the first element proposes
 * (pinned host memory for cudatranspose; the "input" column says whether
 * they are pinned), and pushed from appsrc again and again by reference, so
 * the source costs next to nothing. Frames per second
 * are timed at the sink, from the arrival of the first frame after a warm-up
 * to the last. "own us" is the median time a frame spends inside the element
 * under test: from its arrival on the element's sink pad to its departure
 * from the src pad. GB/s counts the frame's bytes read plus written.
 *
 * Two bounds are measured in the same run, on the GPU directly:
 *  - the link's: the frame's bytes copied host->device and device->host at
 *    the same time on two streams, pinned at both ends (CUDA events, the
 *    best of three medians); no system-memory path can beat it, and "of
 *    link" gives each system-memory row's frames/s as a fraction of it;
 *  - the kernel's: the frame's planes transposed by the auto kernels from
 *    device memory to device memory, rows 256-byte aligned as the element
 *    stages them (events, median, L2 flushed before each); "kernel us"
 *    sits beside the CUDA-memory row's "own us".
 * "own us" is each frame's time from input to output: where the element
 * holds a frame back (frames-in-flight=2), it leaves while the next one is
 * in the element, so its time includes the wait for that one. --in-flight
 * sets the property (a build without it ignores this). --after puts
 * ELEMENTS (a gst-launch description, e.g. "identity sleep-time=50")
 * between the element under test and the sink, in its streaming thread:
 * a probe of whether time spent after the element slows it down.
 *
 * Then tensor rows: cudatranspose permutation=... alone on one
 * other/tensors tensor per buffer (HWC <-> CHW of 1080p and 4K images),
 * frames from the allocator the element proposes. --tensors runs
 * only those.
 *
 * Run with GST_PLUGIN_PATH pointing at the build's gst/ folder.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cudatranspose-kernels-tests.h"
#include "flush-l2.h"
#include "random-fill.h"

#define DISTINCT_FRAMES 4
#define WARMUP_FRAMES 20

typedef struct
{
  const gchar *id;              /* for --paths */
  const gchar *name;
  const gchar *desc;            /* between appsrc and fakesink; "t" is timed */
  gboolean cuda;                /* needs cudaupload's formats */
} Path;

static const Path paths[] = {
  {"system", "cudatranspose (system memory)", "cudatranspose name=t", FALSE},
  {"cuda", "cudaupload ! cudatranspose ! cudadownload",
      "cudaupload ! cudatranspose name=t ! cudadownload ! video/x-raw", TRUE},
  {"videoflip", "videoflip video-direction=ul-lr",
      "videoflip name=t video-direction=ul-lr", FALSE},
};

/* Whether @name is in the comma-separated @list (NULL: all are). */
static gboolean
listed (const gchar * list, const gchar * name)
{
  gchar **items;
  gboolean found;

  if (!list)
    return TRUE;
  items = g_strsplit (list, ",", -1);
  found = g_strv_contains ((const gchar * const *) items, name);
  g_strfreev (items);
  return found;
}

typedef struct
{
  GMutex lock;
  guint64 *arrive;              /* at the sink, ns, per frame */
  guint64 *own;                 /* inside t, ns, per frame */
  guint64 *entered;             /* into t, ns, per frame */
  gint n_arrived;
  guint n_entered, n_own;
  guint capacity;
  gboolean output_pinned;       /* what reached the sink is page-locked */
} Timing;

/* --in-flight: cudatranspose's frames-in-flight (0: its default) */
static gint in_flight;
/* --after: elements between the element under test and the sink */
static const gchar *after;

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static GstPadProbeReturn
on_enter (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Timing *t = user_data;

  if (t->n_entered < t->capacity)
    t->entered[t->n_entered++] = now_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_leave (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Timing *t = user_data;

  /* frames leave in the order they came, perhaps one behind (a frame
   * held back while the next is in flight) */
  if (t->n_own < t->n_entered)
    t->own[t->n_own] = now_ns () - t->entered[t->n_own];
  if (t->n_own < t->capacity)
    t->n_own++;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_arrive (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Timing *t = user_data;

  if (t->n_arrived == WARMUP_FRAMES) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    GstMapInfo map;
    int pinned = 0;

    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      if (ct_host_is_pinned (map.data, &pinned) == CT_OK)
        t->output_pinned = pinned;
      gst_buffer_unmap (buf, &map);
    }
  }
  if ((guint) t->n_arrived < t->capacity) {
    t->arrive[t->n_arrived] = now_ns ();
    g_atomic_int_inc (&t->n_arrived);
  }
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * e, const gchar * pad_name, GstPadProbeCallback cb,
    Timing * t)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, cb, t, NULL);
  gst_object_unref (pad);
}

static int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

#define BOUND_REPS 15
#define FLUSH_BYTES (256u << 20)

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* What the GPU side of the bench holds: two streams, timing events, and a
 * buffer to flush the L2 with (its last word the flush's sink). */
typedef struct
{
  gboolean ok;
  CtStream s1, s2;
  CtEvent start, end, joined;
  guint8 *flush;
} Gpu;

static gboolean
gpu_open (Gpu * g)
{
  int n = 0;

  memset (g, 0, sizeof (*g));
  g->ok = ct_device_count (&n) == CT_OK && n > 0 &&
      ct_stream_create (&g->s1) == CT_OK &&
      ct_stream_create (&g->s2) == CT_OK &&
      ct_event_create (&g->start, 1) == CT_OK &&
      ct_event_create (&g->end, 1) == CT_OK &&
      ct_event_create (&g->joined, 0) == CT_OK &&
      ct_device_alloc ((void **) &g->flush, FLUSH_BYTES + 16) == CT_OK;
  return g->ok;
}

static void
gpu_close (Gpu * g)
{
  if (g->flush)
    ct_device_free (g->flush);
  if (g->start)
    ct_event_destroy (g->start);
  if (g->end)
    ct_event_destroy (g->end);
  if (g->joined)
    ct_event_destroy (g->joined);
  if (g->s1)
    ct_stream_destroy (g->s1);
  if (g->s2)
    ct_stream_destroy (g->s2);
}

/* The median of BOUND_REPS timings of @enqueue on s1 (and s2, which it may
 * use after waiting for start): us, or 0 if anything failed. */
static double
time_gpu (Gpu * g, gboolean (*enqueue) (Gpu *, gpointer), gpointer data)
{
  double t[BOUND_REPS];
  gint r, n = 0;

  for (r = -3; r < BOUND_REPS; r++) {
    float ms = 0;

    if (bench_flush_l2 (g->flush, FLUSH_BYTES, (unsigned int *) (g->flush +
                FLUSH_BYTES), (cudaStream_t) g->s1) != cudaSuccess ||
        ct_event_record (g->start, g->s1) != CT_OK ||
        ct_stream_wait_event (g->s2, g->start) != CT_OK ||
        !enqueue (g, data) ||
        ct_event_record (g->joined, g->s2) != CT_OK ||
        ct_stream_wait_event (g->s1, g->joined) != CT_OK ||
        ct_event_record (g->end, g->s1) != CT_OK ||
        ct_event_synchronize (g->end) != CT_OK ||
        ct_event_elapsed_ms (&ms, g->start, g->end) != CT_OK)
      return 0;
    if (r >= 0)
      t[n++] = ms * 1000.0;
  }
  qsort (t, n, sizeof (t[0]), cmp_double);
  return t[n / 2];
}

typedef struct
{
  guint8 *host_in, *host_out, *dev_in, *dev_out;
  gsize bytes;
} LinkJob;

static gboolean
enqueue_both_ways (Gpu * g, gpointer data)
{
  LinkJob *j = data;

  return ct_copy_2d_async (j->dev_in, j->bytes, j->host_in, j->bytes,
      j->bytes, 1, g->s1) == CT_OK &&
      ct_copy_2d_async (j->host_out, j->bytes, j->dev_out, j->bytes,
      j->bytes, 1, g->s2) == CT_OK;
}

/* The link's bound for frames of @bytes: us per frame, 0 if unmeasured. */
static double
link_bound_us (Gpu * g, gsize bytes)
{
  LinkJob j = { NULL, NULL, NULL, NULL, bytes };
  double us = 0;

  if (g->ok && ct_host_alloc ((void **) &j.host_in, bytes) == CT_OK &&
      ct_host_alloc ((void **) &j.host_out, bytes) == CT_OK &&
      ct_device_alloc ((void **) &j.dev_in, bytes) == CT_OK &&
      ct_device_alloc ((void **) &j.dev_out, bytes) == CT_OK) {
    gint k;

    memset (j.host_in, 0x5a, bytes);
    memset (j.host_out, 0xa5, bytes);
    /* the best of three medians: one run on the H200 host gave 95 and 990
     * us where the others gave 75 and 661-693 */
    for (k = 0; k < 3; k++) {
      double t = time_gpu (g, enqueue_both_ways, &j);

      if (t > 0 && (us == 0 || t < us))
        us = t;
    }
  }
  if (j.host_in)
    ct_host_free (j.host_in);
  if (j.host_out)
    ct_host_free (j.host_out);
  if (j.dev_in)
    ct_device_free (j.dev_in);
  if (j.dev_out)
    ct_device_free (j.dev_out);
  return us;
}

typedef struct
{
  CtPlane planes[GST_VIDEO_MAX_PLANES];
  guint n;
} KernelJob;

static gboolean
enqueue_kernel (Gpu * g, gpointer data)
{
  KernelJob *k = data;

  return ct_transpose_planes (k->planes, k->n, CT_KERNEL_AUTO,
      CT_MAPPING_TRANSPOSE, g->s1) == CT_OK;
}

static gsize
aligned_256 (gsize bytes)
{
  return (bytes + 255) / 256 * 256;
}

/* The auto kernels' time on a frame of @info in device memory: us, 0 if
 * unmeasured. */
static double
kernel_us (Gpu * g, const GstVideoInfo * info)
{
  KernelJob k;
  guint8 *mem = NULL;
  gsize in_bytes[GST_VIDEO_MAX_PLANES], total = 0, offset = 0;
  double us = 0;
  guint p;

  /* (packed 4:2:2 is resampled by its own kernel, not timed here) */
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YVYU:
      return 0;
    default:
      break;
  }
  memset (&k, 0, sizeof (k));
  k.n = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < k.n; p++) {
    CtPlane *pl = &k.planes[p];
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    pl->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    pl->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    pl->elem_size = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    pl->src_stride = aligned_256 ((gsize) pl->width * pl->elem_size);
    pl->dst_stride = aligned_256 ((gsize) pl->height * pl->elem_size);
    in_bytes[p] = pl->src_stride * pl->height;
    total += in_bytes[p] + pl->dst_stride * pl->width;
  }
  if (!g->ok || ct_device_alloc ((void **) &mem, total) != CT_OK)
    return 0;
  for (p = 0; p < k.n; p++) {
    k.planes[p].src = mem + offset;
    offset += in_bytes[p];
    k.planes[p].dst = mem + offset;
    offset += k.planes[p].dst_stride * k.planes[p].width;
  }
  us = time_gpu (g, enqueue_kernel, &k);
  ct_device_free (mem);
  return us;
}

/* Fills a frame with random bytes (the tests' generator), different for
 * each @seed. */
static void
fill_frame (GstBuffer * buf, guint seed)
{
  GstMapInfo map;
  uint64_t state = 2463534242u + seed * 7919u;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    return;
  ct_ref_fill_random (&state, map.data, map.size);
  gst_buffer_unmap (buf, &map);
}

typedef struct
{
  gboolean ok;
  gchar why[160];
  double fps;
  double gbps;
  double own_us;
  double bound_fps;             /* the link's, for system-memory rows */
  double kernel_us;             /* the kernels' alone, for CUDA-memory rows */
  gboolean pinned_input;        /* the frames pushed are page-locked */
  gboolean pinned_output;
  gchar kernel[32];             /* cudatranspose's active-kernel */
} Result;

/* The pool the element after appsrc proposes for these caps, as an
 * application asks for it (appsrc itself asks only on reconfiguration),
 * and its allocator (for tensors the element proposes an allocator and no
 * pool) in @allocator. Waits for the first frame to reach the sink, so
 * that everything is negotiated; returns an active pool, or NULL and a
 * reason in @why. */
static GstBufferPool *
proposed_pool (GstElement * src, GstCaps * caps, Timing * t, GstBus * bus,
    GstAllocator ** allocator, gchar * why, gsize why_len)
{
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstBufferPool *pool = NULL;
  GstQuery *query;
  gint i;

  for (i = 0; i < 1000 && !g_atomic_int_get (&t->n_arrived); i++) {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_snprintf (why, why_len, "%s", err->message);
      g_error_free (err);
      gst_message_unref (msg);
      gst_object_unref (pad);
      return NULL;
    }
    g_usleep (10000);
  }
  if (!g_atomic_int_get (&t->n_arrived)) {
    g_snprintf (why, why_len, "the first frame did not arrive within 10 s");
    gst_object_unref (pad);
    return NULL;
  }

  query = gst_query_new_allocation (caps, TRUE);
  if (gst_pad_peer_query (pad, query)) {
    if (gst_query_get_n_allocation_pools (query) > 0)
      gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL,
          NULL);
    if (gst_query_get_n_allocation_params (query) > 0)
      gst_query_parse_nth_allocation_param (query, 0, allocator, NULL);
  }
  gst_query_unref (query);
  gst_object_unref (pad);
  if (pool && !gst_buffer_pool_set_active (pool, TRUE))
    gst_clear_object (&pool);
  return pool;
}

/* @caps frames of @bytes through appsrc ! @path_desc ! fakesink. */
static Result
run_path (const gchar * path_desc, GstCaps * caps, gsize bytes,
    guint n_frames)
{
  Result r = { FALSE, "", 0, 0, 0, 0, 0, FALSE, FALSE, "" };
  gchar *desc;
  GstElement *pipeline, *src, *t, *sink;
  GstBus *bus;
  GstBufferPool *pool;
  GstAllocator *allocator = NULL;
  GstBuffer *frames[DISTINCT_FRAMES];
  GstMessage *msg;
  GParamSpec *active_pspec;
  Timing timing;
  GError *err = NULL;
  guint i, n;

  desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=4 ! %s ! %s%sfakesink name=sink sync=false "
      "enable-last-sample=false", path_desc, after ? after : "",
      after ? " ! " : "");
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (err) {
    g_snprintf (r.why, sizeof (r.why), "%s", err->message);
    g_error_free (err);
    gst_clear_object (&pipeline);
    return r;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "caps", caps, NULL);
  bus = gst_element_get_bus (pipeline);

  memset (&timing, 0, sizeof (timing));
  timing.capacity = n_frames;
  timing.arrive = g_new0 (guint64, n_frames);
  timing.own = g_new0 (guint64, n_frames);
  timing.entered = g_new0 (guint64, n_frames);
  if (in_flight > 0 &&
      g_object_class_find_property (G_OBJECT_GET_CLASS (t),
          "frames-in-flight"))
    g_object_set (t, "frames-in-flight", in_flight, NULL);
  add_probe (t, "sink", on_enter, &timing);
  add_probe (t, "src", on_leave, &timing);
  add_probe (sink, "sink", on_arrive, &timing);

  /* appsrc negotiates, and asks downstream for a pool, on its first
   * buffer: two plain ones (the element may hold the first back until the
   * second is in), counted among the warm-up frames */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < 2; i++) {
    GstBuffer *first = gst_buffer_new_allocate (NULL, bytes, NULL);

    fill_frame (first, DISTINCT_FRAMES);
    gst_app_src_push_buffer (GST_APP_SRC (src), first);
  }
  pool = proposed_pool (src, caps, &timing, bus, &allocator, r.why,
      sizeof (r.why));
  for (i = 0; i < DISTINCT_FRAMES; i++) {
    frames[i] = NULL;
    if (pool && gst_buffer_pool_acquire_buffer (pool, &frames[i], NULL) !=
        GST_FLOW_OK)
      frames[i] = NULL;
    if (!frames[i])
      frames[i] = gst_buffer_new_allocate (allocator, bytes, NULL);
    if (!frames[i])
      frames[i] = gst_buffer_new_allocate (NULL, bytes, NULL);
    fill_frame (frames[i], i);
  }
  gst_clear_object (&allocator);
  {
    GstMapInfo map;
    int pinned = 0;

    if (gst_buffer_map (frames[0], &map, GST_MAP_READ)) {
      if (ct_host_is_pinned (map.data, &pinned) == CT_OK)
        r.pinned_input = pinned;
      gst_buffer_unmap (frames[0], &map);
    }
  }

  /* the same few frames by reference: nothing is copied at the source */
  for (i = 2; i < n_frames && !r.why[0]; i++) {
    GstFlowReturn ret = gst_app_src_push_buffer (GST_APP_SRC (src),
        gst_buffer_ref (frames[i % DISTINCT_FRAMES]));

    if (ret != GST_FLOW_OK)
      g_snprintf (r.why, sizeof (r.why), "frame %u: %s", i,
          gst_flow_get_name (ret));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  /* an error message says more than the flow return */
  msg = gst_bus_timed_pop_filtered (bus, (r.why[0] ? 1 : 300) * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_snprintf (r.why, sizeof (r.why), "%s", err->message);
    g_error_free (err);
  } else if (!msg && !r.why[0]) {
    g_snprintf (r.why, sizeof (r.why), "no EOS within 300 s");
  }
  if (msg)
    gst_message_unref (msg);
  active_pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (t),
      "active-kernel");
  if (active_pspec && G_IS_PARAM_SPEC_ENUM (active_pspec)) {
    /* the path that ran, in the property's own enum */
    GEnumClass *klass = G_PARAM_SPEC_ENUM (active_pspec)->enum_class;
    gint active = 0;
    GEnumValue *v;

    g_object_get (t, "active-kernel", &active, NULL);
    v = g_enum_get_value (klass, active);
    g_snprintf (r.kernel, sizeof (r.kernel), "%s", v ? v->value_nick : "?");
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  n = timing.n_arrived;
  if (!r.why[0] && n > WARMUP_FRAMES + 10) {
    double secs = (timing.arrive[n - 1] - timing.arrive[WARMUP_FRAMES]) / 1e9;

    r.ok = TRUE;
    r.pinned_output = timing.output_pinned;
    r.fps = (n - 1 - WARMUP_FRAMES) / secs;
    r.gbps = r.fps * 2.0 * bytes / 1e9;
    qsort (timing.own + WARMUP_FRAMES, timing.n_own - WARMUP_FRAMES,
        sizeof (guint64), cmp_u64);
    r.own_us = timing.own[WARMUP_FRAMES + (timing.n_own - WARMUP_FRAMES) /
        2] / 1e3;
  } else if (!r.why[0]) {
    g_snprintf (r.why, sizeof (r.why), "only %u frames arrived", n);
  }

  for (i = 0; i < DISTINCT_FRAMES; i++)
    gst_buffer_unref (frames[i]);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  g_free (timing.arrive);
  g_free (timing.own);
  g_free (timing.entered);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (t);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  return r;
}

/* Tensor jobs: cudatranspose alone, with its permutation, on one tensor
 * (NNStreamer's other/tensors) per buffer. */
typedef struct
{
  const gchar *type;
  guint es;
  const gchar *dims;            /* innermost first */
  guint64 elements;
  const gchar *perm;
  const gchar *what;
} TensorJob;

static const TensorJob tensor_jobs[] = {
  {"uint8", 1, "3:1920:1080:1", 3ull * 1920 * 1080, "1:2:0:3", "HWC->CHW"},
  {"float32", 4, "3:1920:1080:1", 3ull * 1920 * 1080, "1:2:0:3", "HWC->CHW"},
  {"float32", 4, "1920:1080:3:1", 3ull * 1920 * 1080, "2:0:1:3", "CHW->HWC"},
  {"uint8", 1, "3:3840:2160:1", 3ull * 3840 * 2160, "1:2:0:3", "HWC->CHW"},
};

/* Prints one result as a table row, and as a JSON object into @json. */
static void
report (const gchar * format, gint width, gint height, const gchar * size,
    const gchar * path, const Result * r, FILE * json, gboolean * first)
{
  gchar of_link[16] = "", kernel[16] = "";

  if (r->ok && r->bound_fps > 0)
    g_snprintf (of_link, sizeof (of_link), "%.2f", r->fps / r->bound_fps);
  if (r->ok && r->kernel_us > 0)
    g_snprintf (kernel, sizeof (kernel), "%.1f", r->kernel_us);
  if (r->ok)
    printf ("%-7s %-13s %-44s %10.1f %8.2f %7s %9.1f %9s %-8s %-8s %s\n",
        format, size, path, r->fps, r->gbps, of_link, r->own_us, kernel,
        r->pinned_input ? "pinned" : "pageable",
        r->pinned_output ? "pinned" : "pageable", r->kernel);
  else
    printf ("%-7s %-13s %-44s %10s %8s %7s %9s %9s (%s)\n", format, size,
        path, "-", "-", "-", "-", "-", r->why);
  fflush (stdout);
  if (json) {
    gchar *why = g_strescape (r->why, NULL);

    fprintf (json, "%s  {\"format\": \"%s\", \"width\": %d, "
        "\"height\": %d, \"path\": \"%s\", \"ok\": %s, \"fps\": %.2f, "
        "\"gbps\": %.3f, \"own_us\": %.2f, \"link_bound_fps\": %.2f, "
        "\"kernel_us\": %.2f, \"input_pinned\": %s, "
        "\"output_pinned\": %s, \"kernel\": \"%s\", \"why\": \"%s\"}",
        *first ? "" : ",\n", format, width, height, path,
        r->ok ? "true" : "false", r->fps, r->gbps, r->own_us, r->bound_fps,
        r->kernel_us,
        r->pinned_input ? "true" : "false",
        r->pinned_output ? "true" : "false", r->kernel, why);
    g_free (why);
    *first = FALSE;
    /* (a run cut short still leaves its rows) */
    fflush (json);
  }
}

int
main (int argc, char **argv)
{
  const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_YUY2,
  };
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const gchar *json_path = NULL, *only_formats = NULL, *only_paths = NULL;
  guint n_frames = 0, s, f, p;
  gboolean tensors_only = FALSE;
  FILE *json = NULL;
  gboolean first = TRUE;
  Gpu gpu;

  gst_init (&argc, &argv);
  for (p = 1; p < (guint) argc; p++) {
    if (g_str_equal (argv[p], "--json") && p + 1 < (guint) argc)
      json_path = argv[++p];
    else if (g_str_equal (argv[p], "--frames") && p + 1 < (guint) argc)
      n_frames = atoi (argv[++p]);
    else if (g_str_equal (argv[p], "--tensors"))
      tensors_only = TRUE;
    else if (g_str_equal (argv[p], "--formats") && p + 1 < (guint) argc)
      only_formats = argv[++p];
    else if (g_str_equal (argv[p], "--paths") && p + 1 < (guint) argc)
      only_paths = argv[++p];
    else if (g_str_equal (argv[p], "--in-flight") && p + 1 < (guint) argc)
      in_flight = atoi (argv[++p]);
    else if (g_str_equal (argv[p], "--after") && p + 1 < (guint) argc)
      after = argv[++p];
    else {
      fprintf (stderr, "usage: %s [--frames N] [--json FILE] [--tensors] "
          "[--formats I420,NV12,...] [--paths system,cuda,videoflip] "
          "[--in-flight 1|2] [--after ELEMENTS]\n", argv[0]);
      return 2;
    }
  }
  if (json_path && !(json = fopen (json_path, "w"))) {
    fprintf (stderr, "cannot write %s\n", json_path);
    return 1;
  }
  if (json)
    fprintf (json, "[\n");

  gpu_open (&gpu);
  printf ("%-7s %-13s %-44s %10s %8s %7s %9s %9s %-8s %-8s %s\n", "format",
      "size", "path", "frames/s", "GB/s", "of link", "own us", "kernel us",
      "input", "output", "kernel");
  for (s = 0; s < G_N_ELEMENTS (sizes) && !tensors_only; s++) {
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      double flip_fps = 0, bound, kernel;
      Result res[G_N_ELEMENTS (paths)];
      const gchar *name = gst_video_format_to_string (formats[f]);
      GstVideoInfo info;
      GstCaps *caps;
      gchar size[32];

      if (!listed (only_formats, name))
        continue;
      gst_video_info_set_format (&info, formats[f], sizes[s][0], sizes[s][1]);
      caps = gst_video_info_to_caps (&info);
      /* a known rate (any: nothing here waits on the clock) lets the
       * element keep two frames in flight */
      gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
      g_snprintf (size, sizeof (size), "%dx%d", sizes[s][0], sizes[s][1]);
      /* the CPU is slow: fewer frames for videoflip, more for the GPU */
      bound = link_bound_us (&gpu, GST_VIDEO_INFO_SIZE (&info));
      kernel = kernel_us (&gpu, &info);
      for (p = 0; p < G_N_ELEMENTS (paths); p++) {
        guint n = n_frames ? n_frames : (p == 2 ? 60 :
            (sizes[s][0] > 2000 ? 1500 : 4000));

        res[p].ok = FALSE;
        res[p].why[0] = '\0';
        if (!listed (only_paths, paths[p].id))
          continue;
        if (paths[p].cuda && formats[f] == GST_VIDEO_FORMAT_GRAY8) {
          res[p].ok = FALSE;
          g_snprintf (res[p].why, sizeof (res[p].why), "GStreamer 1.22's "
              "CUDA memory has no GRAY8");
        } else {
          res[p] = run_path (paths[p].desc, caps, GST_VIDEO_INFO_SIZE (&info),
              n);
        }
        if (p == 0 && bound > 0)
          res[p].bound_fps = 1e6 / bound;
        if (paths[p].cuda && kernel > 0)
          res[p].kernel_us = kernel;
        if (p == 2 && res[p].ok)
          flip_fps = res[p].fps;
        report (name, sizes[s][0], sizes[s][1], size, paths[p].name, &res[p],
            json, &first);
      }
      gst_caps_unref (caps);
      if (flip_fps > 0 && res[0].ok)
        printf ("%-6s %dx%d: cudatranspose in system memory %.1fx "
            "videoflip's frames/s\n", name, sizes[s][0], sizes[s][1],
            res[0].fps / flip_fps);
      if (bound > 0)
        printf ("%-6s %dx%d: link bound %.1f us a frame (%.1f frames/s)\n",
            name, sizes[s][0], sizes[s][1], bound, 1e6 / bound);
      if (kernel > 0 && res[1].ok)
        printf ("%-6s %dx%d: in CUDA memory, own time %.2fx the kernel's\n",
            name, sizes[s][0], sizes[s][1], res[1].own_us / kernel);
    }
  }

  for (p = 0; p < G_N_ELEMENTS (tensor_jobs) && !only_formats; p++) {
    const TensorJob *j = &tensor_jobs[p];
    gsize bytes = j->elements * j->es;
    gchar *caps_str = g_strdup_printf ("other/tensors,format=static,"
        "num_tensors=1,dimensions=(string)%s,types=%s,framerate=0/1", j->dims,
        j->type);
    gchar *desc = g_strdup_printf ("cudatranspose name=t permutation=%s",
        j->perm);
    gchar *path = g_strdup_printf ("cudatranspose permutation=%s (%s)",
        j->perm, j->what);
    GstCaps *caps = gst_caps_from_string (caps_str);
    Result r = run_path (desc, caps, bytes,
        n_frames ? n_frames : (bytes > 20000000 ? 600 : 1500));

    report (j->type, 0, 0, j->dims, path, &r, json, &first);
    gst_caps_unref (caps);
    g_free (caps_str);
    g_free (desc);
    g_free (path);
  }
  if (json) {
    fprintf (json, "\n]\n");
    fclose (json);
  }
  gpu_close (&gpu);
  return 0;
}
