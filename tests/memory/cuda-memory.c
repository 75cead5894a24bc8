/* cudatranspose with its neighbours in CUDA memory (nvcodec's cudaupload,
 * cudadownload, nvh264dec) and with pinned system memory. Exits 77
 * (skipped) without a CUDA device or without nvcodec's elements. With the
 * argument "nvdec" it runs only the nvh264dec chain, and skips without
 * nvh264dec or without the H.264 sample named by CT_CHECK_H264. */
#include "transpose-check.h"
#include "gpu-check.h"

#include "cudatranspose-kernels.h"
#include "cuda-formats.h"

#include <gst/app/gstappsink.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <string.h>


/* Whether cudaupload (and cudadownload) take @format in CUDA memory: the
 * chains below need them to; a format they lack is said, and left to the
 * chain that allocates CUDA memory itself. */
static gboolean
nvcodec_takes (GstVideoFormat format, gboolean say)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  GstCaps *caps = ct_check_caps (format, 16, 16);
  gboolean takes;

  gst_caps_set_features (caps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  takes = f != NULL && gst_element_factory_can_src_any_caps (f, caps);
  if (!takes && say)
    g_print ("cudaupload does not give %s in CUDA memory: not tested "
        "through it\n", gst_video_format_to_string (format));
  gst_caps_unref (caps);
  if (f)
    gst_object_unref (f);
  return takes;
}

/* Odd sizes too: 1.22's CUDA memory lays odd-height 4:2:0 out its own way. */
static const gint cuda_sizes[][2] = { {1, 1}, {33, 65}, {1917, 1083} };

/* @side for @format in CUDA memory: packed 4:2:2 gets even sides only.
 * GStreamer 1.22's cudaupload and cudadownload copy width * 2 bytes a row
 * of YUY2 and UYVY, so an odd width's last pixel loses its V on the way
 * (the element's own output has it; the system-memory tests check that). */
static gint
cuda_side (GstVideoFormat format, gint side)
{
  return ct_check_is_packed_422 (format) ? side + (side & 1) : side;
}

/* Whether GStreamer's CUDA memory holds a whole @format frame of @width x
 * @height (packed 4:2:2 of odd width aside: cuda_side): from 1.24 on, its
 * allocator gives NV21 height + height / 2 rows, rounding NV12's height
 * up but not NV21's, so an odd height lacks its last chroma row. The
 * element keeps such frames in system memory on that side. */
static gboolean
cuda_holds (GstVideoFormat format, gint width, gint height)
{
  (void) width;
  return !(GST_CHECK_VERSION (1, 24, 0) && format == GST_VIDEO_FORMAT_NV21 &&
      (height & 1));
}

/* Frames per size: from the second on, each lands in a pool buffer that
 * held a different random frame, so an element left unwritten shows. */
#define FRAMES_PER_SIZE 3

/* What probes on the transpose's pads saw, checked from the test thread. */
typedef struct
{
  GMutex lock;
  GstBuffer *in;                /* the input being transposed */
  guint frames;
  guint in_not_device;          /* input not CUDA, or copied to the host */
  guint out_not_device;
  GHashTable *pools;            /* output pools seen */
  gint live_pools;
} Watch;

static GstPadProbeReturn
watch_input (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Watch *w = user_data;

  g_mutex_lock (&w->lock);
  gst_buffer_replace (&w->in, GST_PAD_PROBE_INFO_BUFFER (info));
  g_mutex_unlock (&w->lock);
  return GST_PAD_PROBE_OK;
}

/* Device memory written in place on the GPU keeps NEED_DOWNLOAD set until
 * something maps it for the host. */
static gboolean
still_on_device (GstBuffer * buf)
{
  GstMemory *mem;

  if (!buf || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_cuda_memory (mem) &&
      GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_DOWNLOAD);
}

static void
pool_gone (gpointer user_data, GObject * pool)
{
  Watch *w = user_data;

  g_mutex_lock (&w->lock);
  w->live_pools--;
  g_hash_table_remove (w->pools, pool);
  g_mutex_unlock (&w->lock);
}

static GstPadProbeReturn
watch_output (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Watch *w = user_data;
  GstBuffer *out = GST_PAD_PROBE_INFO_BUFFER (info);

  g_mutex_lock (&w->lock);
  w->frames++;
  if (!still_on_device (w->in))
    w->in_not_device++;
  if (!still_on_device (out))
    w->out_not_device++;
  gst_buffer_replace (&w->in, NULL);
  if (out->pool && !g_hash_table_contains (w->pools, out->pool)) {
    g_hash_table_add (w->pools, out->pool);
    w->live_pools++;
    g_object_weak_ref (G_OBJECT (out->pool), pool_gone, w);
  }
  g_mutex_unlock (&w->lock);
  return GST_PAD_PROBE_OK;
}

static void
watch_init (Watch * w, GstElement * transpose)
{
  GstPad *pad;

  memset (w, 0, sizeof (*w));
  g_mutex_init (&w->lock);
  w->pools = g_hash_table_new (NULL, NULL);
  pad = gst_element_get_static_pad (transpose, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, watch_input, w, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (transpose, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, watch_output, w, NULL);
  gst_object_unref (pad);
}

/* Call once every pool the watch saw is gone (or fails the test). */
static void
watch_clear (Watch * w)
{
  fail_unless_equals_int (w->live_pools, 0);
  gst_buffer_replace (&w->in, NULL);
  g_hash_table_unref (w->pools);
  g_mutex_clear (&w->lock);
}

/* A harness around @desc (which names its transpose "t") that ends in
 * system memory, and the transpose. */
static GstHarness *
chain_new (const gchar * desc, GstElement ** transpose)
{
  GstHarness *h = gst_harness_new_parse (desc);

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  *transpose = gst_bin_get_by_name (GST_BIN (h->element), "t");
  fail_unless (*transpose != NULL);
  return h;
}

/* Nothing is held back where either side is CUDA memory (frames in
 * flight are for host memory in and out): the transpose @t adds no
 * latency to what upstream reports (0 from the harness). */
static void
assert_no_latency (GstElement * t, const gchar * what)
{
  GstPad *src = gst_element_get_static_pad (t, "src");
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min = GST_CLOCK_TIME_NONE, max;
  gboolean live;

  fail_unless (gst_pad_query (src, q), "%s: no answer to LATENCY", what);
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless_equals_uint64 (min, 0);
  gst_query_unref (q);
  gst_object_unref (src);
}

/* Every CUDA format and size through @desc; the transpose's pads must end
 * up with the memory asked for, and it adds no latency. */
static void
check_chain (const gchar * desc, gboolean in_cuda, gboolean out_cuda)
{
  GstElement *t;
  GstHarness *h = chain_new (desc, &t);
  Watch w;
  guint f, s, i, frames = 0, n_in_host = 0, n_out_host = 0;

  watch_init (&w, t);
  for (f = 0; f < G_N_ELEMENTS (ct_cuda_formats); f++) {
    if (!nvcodec_takes (ct_cuda_formats[f], TRUE))
      continue;
    for (s = 0; s < G_N_ELEMENTS (cuda_sizes); s++) {
      GstVideoFormat fmt = ct_cuda_formats[f];
      gint width = cuda_side (fmt, cuda_sizes[s][0]);
      gint height = cuda_side (fmt, cuda_sizes[s][1]);
      /* (the default direction, the transpose, swaps the sides; where
       * cudaupload must give system memory, the output follows it unless
       * a capsfilter asks for CUDA memory) */
      gboolean sink_cuda = in_cuda && cuda_holds (fmt, width, height);
      gboolean src_cuda = out_cuda && cuda_holds (fmt, height, width) &&
          (sink_cuda || !in_cuda);

      /* (system memory in, CUDA memory out is the capsfilter's demand:
       * the element refuses what CUDA memory cannot hold, and the
       * refusal has its own tests) */
      if (!in_cuda && out_cuda && !src_cuda)
        continue;
      gst_harness_set_src_caps (h, ct_check_caps (fmt, width, height));
      for (i = 0; i < FRAMES_PER_SIZE; i++)
        ct_check_push_and_verify (h, fmt, width, height, i == 2 ? 7 : 0, desc);
      frames += FRAMES_PER_SIZE;
      fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "sink"),
          sink_cuda);
      fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "src"),
          src_cuda);
      n_in_host += sink_cuda ? 0 : FRAMES_PER_SIZE;
      n_out_host += src_cuda ? 0 : FRAMES_PER_SIZE;
      /* (system memory on both sides has frames in flight) */
      if (sink_cuda || src_cuda)
        assert_no_latency (t, desc);
    }
  }
  fail_unless (frames > 0, "%s: nothing taken in CUDA memory", desc);
  fail_unless_equals_int (w.frames, frames);
  if (in_cuda && out_cuda) {
    /* nothing went through the host on a side in CUDA memory */
    fail_unless_equals_int (w.in_not_device, n_in_host);
    fail_unless_equals_int (w.out_not_device, n_out_host);
  }
  gst_object_unref (t);
  gst_harness_teardown (h);
  watch_clear (&w);
}

GST_START_TEST (test_cuda_in_cuda_out)
{
  check_chain ("cudaupload ! cudatranspose name=t ! cudadownload", TRUE, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_cuda_in_system_out)
{
  check_chain ("cudaupload ! cudatranspose name=t ! capsfilter "
      "caps=video/x-raw", TRUE, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_system_in_cuda_out)
{
  check_chain ("cudatranspose name=t ! capsfilter "
      "caps=\"video/x-raw(memory:CUDAMemory)\" ! cudadownload", FALSE, TRUE);
}

GST_END_TEST;

/* Every direction on every CUDA format, CUDA memory in and out, against
 * the reference: the kernels' mirrors and 4:2:2 resampling on the frames
 * the CUDA allocator lays out (its own pitch and plane offsets). */
GST_START_TEST (test_cuda_directions)
{
  static const gint sizes[][2] = { {33, 17}, {64, 31} };
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    GstElement *t;
    GstHarness *h = chain_new ("cudaupload ! cudatranspose name=t ! "
        "cudadownload", &t);

    g_object_set (t, "video-direction", method, NULL);
    for (f = 0; f < G_N_ELEMENTS (ct_cuda_formats); f++) {
      if (!nvcodec_takes (ct_cuda_formats[f], FALSE))
        continue;
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GstVideoFormat fmt = ct_cuda_formats[f];
        gint width = cuda_side (fmt, sizes[s][0]);
        gint height = cuda_side (fmt, sizes[s][1]);

        gst_harness_set_src_caps (h, ct_check_caps (fmt, width, height));
        ct_check_push_and_verify_direction (h, fmt, width, height, 0, method,
            "CUDA memory");
        /* (where cudaupload must give system memory, the output
         * follows it) */
        fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "sink"),
            cuda_holds (fmt, width, height));
        fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "src"),
            cuda_holds (fmt, width, height) &&
            (ct_check_direction_swaps (method) ?
                cuda_holds (fmt, height, width) :
                cuda_holds (fmt, width, height)));
      }
    }
    gst_object_unref (t);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Packed 4:2:2 through cudaupload, the element and cudadownload, in every
 * direction, at odd and even widths. GStreamer 1.22's CUDA memory holds
 * width x 2 bytes a row of it, so an odd width's last chroma byte is not
 * in a CUDA frame: the element takes and gives system memory on a side
 * of odd width (once it took CUDA memory and spread the byte that was not
 * there into visible pixels). cudaupload and cudadownload copy width x 2
 * bytes a row in system memory too, so through them only even widths can
 * be compared with videoflip; there both pads stay CUDA memory. */
GST_START_TEST (test_cuda_packed_422_odd_widths)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_YUY2,
    GST_VIDEO_FORMAT_UYVY
  };
  static const gint sizes[][2] = { {33, 17}, {127, 129}, {34, 17},
  {66, 48}, {1917, 1083}
  };
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      if (!nvcodec_takes (formats[f], FALSE))
        continue;
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        gint w = sizes[s][0], hh = sizes[s][1];
        /* CUDA memory on each side where its width is even */
        gint out_w = ct_check_direction_swaps (method) ? hh : w;
        GstElement *t;
        GstHarness *ours = chain_new ("cudaupload ! cudatranspose name=t ! "
            "cudadownload", &t);
        GstHarness *flip = gst_harness_new ("videoflip");
        GstVideoInfo info, out_info;
        GstBuffer *in, *a, *b;

        g_object_set (t, "video-direction", method, NULL);
        g_object_set (flip->element, "video-direction", method, NULL);
        fail_unless (gst_video_info_set_format (&info, formats[f], w, hh));
        ct_check_out_info (&info, method, &out_info);
        gst_harness_set_src_caps (ours, ct_check_caps (formats[f], w, hh));
        gst_harness_set_src_caps (flip, ct_check_caps (formats[f], w, hh));
        in = ct_check_make_frame (&info, 0);
        fail_unless_equals_int (gst_harness_push (ours, gst_buffer_ref (in)),
            GST_FLOW_OK);
        fail_unless_equals_int (gst_harness_push (flip, gst_buffer_ref (in)),
            GST_FLOW_OK);
        a = gst_harness_pull (ours);
        b = gst_harness_pull (flip);
        fail_unless (a != NULL && b != NULL);
        if (!(w & 1) && !(out_w & 1))
          ct_check_assert_same_planes (&out_info, a, b, 1);
        fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "sink"),
            !(w & 1));
        fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "src"),
            !(out_w & 1));
        gst_buffer_unref (a);
        gst_buffer_unref (b);
        gst_buffer_unref (in);
        gst_object_unref (t);
        gst_harness_teardown (flip);
        gst_harness_teardown (ours);
      }
    }
  }
}

GST_END_TEST;

/* A format the 1.22 CUDA allocator does not know is refused, not aborted
 * on. */
GST_START_TEST (test_cuda_gray8_refused)
{
  /* (the harness wraps the line in a bin, so caps features go quoted) */
  GstHarness *h = gst_harness_new_parse ("cudatranspose ! capsfilter "
      "caps=\"video/x-raw(memory:CUDAMemory)\"");
  GstVideoInfo info;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 64,
          32));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64,
          32));
  fail_unless_equals_int (gst_harness_push (h, ct_check_make_frame (&info,
              0)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The elements of a chain share one CUDA context: the transpose's own, or
 * the one its neighbours made. */
GST_START_TEST (test_cuda_context_shared)
{
  const gchar *names[] = { "u", "t", "d" };
  GstCudaContext *ctx[3] = { NULL, NULL, NULL };
  GstElement *t;
  GstHarness *h = chain_new ("cudaupload name=u ! cudatranspose name=t "
      "cuda-device-id=0 ! cudadownload name=d", &t);
  guint i;
  guint device = 99;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_NV12, 64, 48));
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_NV12, 64, 48, 0, "context");
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (h->element), names[i]);
    GstContext *c = gst_element_get_context (e, GST_CUDA_CONTEXT_TYPE);

    fail_unless (c != NULL, "%s holds no CUDA context", names[i]);
    fail_unless (gst_structure_get (gst_context_get_structure (c),
            GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx[i], NULL));
    gst_context_unref (c);
    gst_object_unref (e);
  }
  fail_unless (ctx[0] == ctx[1] && ctx[1] == ctx[2],
      "contexts differ: %p %p %p", ctx[0], ctx[1], ctx[2]);
  g_object_get (ctx[1], "cuda-device-id", &device, NULL);
  fail_unless_equals_int (device, 0);
  for (i = 0; i < G_N_ELEMENTS (ctx); i++)
    gst_object_unref (ctx[i]);
  gst_object_unref (t);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Width, height and format change mid-stream, in CUDA memory. */
GST_START_TEST (test_cuda_resolution_change)
{
  const struct
  {
    GstVideoFormat format;
    gint width, height;
  } steps[] = {
    {GST_VIDEO_FORMAT_NV12, 640, 480}, {GST_VIDEO_FORMAT_NV12, 1917, 1083},
    {GST_VIDEO_FORMAT_RGBA, 64, 4000}, {GST_VIDEO_FORMAT_NV12, 640, 480},
  };
  GstElement *t;
  GstHarness *h = chain_new ("cudaupload ! cudatranspose name=t ! "
      "cudadownload", &t);
  Watch w;
  guint i, j;

  watch_init (&w, t);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gst_harness_set_src_caps (h, ct_check_caps (steps[i].format,
            steps[i].width, steps[i].height));
    for (j = 0; j < 2; j++)
      ct_check_push_and_verify (h, steps[i].format, steps[i].width,
          steps[i].height, 0, "resolution change");
  }
  fail_unless_equals_int (w.in_not_device, 0);
  fail_unless_equals_int (w.out_not_device, 0);
  gst_object_unref (t);
  gst_harness_teardown (h);
  watch_clear (&w);
}

GST_END_TEST;

/* @mem has @size bytes of page-locked memory; @poison overwrites them. */
static void
assert_pinned_memory (GstMemory * mem, gsize size, gboolean poison)
{
  GstMapInfo map;
  int pinned = -1;

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  fail_unless_equals_uint64 (map.size, size);
  fail_unless_equals_int (ct_host_is_pinned (map.data, &pinned), CT_OK);
  fail_unless_equals_int (pinned, 1);
  if (poison)
    memset (map.data, 0x5a, map.size);
  gst_memory_unmap (mem, &map);
}

/* Upstream gets a pinned pool to write into, downstream pinned output. Each
 * output is poisoned before it goes back to the pool, so the next frames
 * come out of poisoned memory. Two frames are in flight (the default): a
 * frame comes out when the next one is in, and EOS pushes out the last. */
GST_START_TEST (test_pinned_pools)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  GstVideoInfo info;
  GstBuffer *pageable, *ins[4];
  GstCaps *caps;
  GstMapInfo map;
  guint i;
  int pinned = -1;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 1917,
          1083));
  caps = ct_check_caps (GST_VIDEO_FORMAT_I420, 1917, 1083);
  /* (a frame is held back for up to one frame's duration: a second is
   * long enough to see it held) */
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1, 1, NULL);
  gst_harness_set_src_caps (h, caps);

  /* the check itself tells pageable memory apart */
  pageable = gst_buffer_new_allocate (NULL, 4096, NULL);
  fail_unless (gst_buffer_map (pageable, &map, GST_MAP_READ));
  fail_unless_equals_int (ct_host_is_pinned (map.data, &pinned), CT_OK);
  fail_unless_equals_int (pinned, 0);
  gst_buffer_unmap (pageable, &map);
  gst_buffer_unref (pageable);

  for (i = 0; i <= G_N_ELEMENTS (ins); i++) {
    GstBuffer *out;

    if (i < G_N_ELEMENTS (ins)) {
      GstBuffer *frame = ct_check_make_frame (&info, 0);

      /* the harness allocates from the pool the element proposed */
      ins[i] = gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (&info));
      fail_unless (gst_buffer_map (ins[i], &map, GST_MAP_WRITE));
      fail_unless_equals_int (ct_host_is_pinned (map.data, &pinned), CT_OK);
      fail_unless_equals_int (pinned, 1);
      gst_buffer_extract (frame, 0, map.data, map.size);
      gst_buffer_unmap (ins[i], &map);
      gst_buffer_unref (frame);
      GST_BUFFER_PTS (ins[i]) = i * GST_SECOND;
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (ins[i])),
          GST_FLOW_OK);
      /* (the first frame is held back until the second is in) */
      if (i == 0) {
        fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
        continue;
      }
    } else {
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    }
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        GST_BUFFER_PTS (ins[i - 1]));
    ct_check_assert_transposed (&info, ins[i - 1], out, "pinned");

    fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
    fail_unless_equals_int (ct_host_is_pinned (map.data, &pinned), CT_OK);
    fail_unless_equals_int (pinned, 1);
    memset (map.data, 0x5a + i, map.size);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_buffer_unref (ins[i - 1]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Tensors: upstream gets the pinned allocator and no pool (NNStreamer's
 * elements append their memories to the buffer they are handed, which
 * must be empty: tensor-layouts' test_nnstreamer_made_buffers), so a
 * harness buffer is one pinned memory holding both tensors; the output
 * comes from a pinned pool of one memory per tensor. Each output is
 * poisoned before it goes back to the pool. */
GST_START_TEST (test_pinned_tensor_pools)
{
  const CtCheckTensor t[2] = { {"33:17:3:1", "float32"}, {"3:640:5", "uint8"}
  };
  const gsize bytes[2] = { 33 * 17 * 3 * 4, 3 * 640 * 5 };
  GstHarness *h = gst_harness_new ("cudatranspose");
  guint i, k;

  gst_harness_set_src_caps (h, ct_check_tensor_caps (t, 2));
  for (i = 0; i < 4; i++) {
    GstBuffer *in = gst_harness_create_buffer (h, bytes[0] + bytes[1]);
    GstBuffer *out;

    fail_unless_equals_int (gst_buffer_n_memory (in), 1);
    assert_pinned_memory (gst_buffer_peek_memory (in, 0), bytes[0] + bytes[1],
        FALSE);
    out = ct_check_push_tensor_buffer (h, in, t, 2, "pinned tensors");
    for (k = 0; k < 2; k++)
      assert_pinned_memory (gst_buffer_peek_memory (out, k), bytes[k], TRUE);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pulls a tensor of @size bytes from @h: one memory, CUDA memory written
 * on the device (nothing of it on the host yet). */
static GstBuffer *
pull_cuda_tensor (GstHarness * h, gsize size, const gchar * what)
{
  GstBuffer *out = gst_harness_pull (h);

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless (still_on_device (out), "%s: the tensor is not in CUDA memory "
      "written on the GPU", what);
  fail_unless_equals_uint64 (gst_buffer_get_size (out), size);
  return out;
}

/* @out's bytes as a consumer on the GPU reads them: mapped for CUDA (the
 * device pointer, in the memory's context), copied to the host here (g_free
 * them). */
static guint8 *
device_bytes (GstBuffer * out)
{
  GstMemory *mem = gst_buffer_peek_memory (out, 0);
  GstCudaContext *ctx = GST_CUDA_MEMORY_CAST (mem)->context;
  GstMapInfo map;
  guint8 *host;
  CtResult res;

  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ | GST_MAP_CUDA));
  host = g_malloc (map.size);
  fail_unless (gst_cuda_context_push (ctx));
  res = ct_copy_2d_async (host, map.size, map.data, map.size, map.size, 1,
      NULL);
  if (res == CT_OK)
    res = ct_stream_synchronize (NULL);
  gst_cuda_context_pop (NULL);
  fail_unless (res == CT_OK, "copying the tensor from the device pointer: "
      "%s", ct_result_string (res));
  gst_buffer_unmap (out, &map);
  return host;
}

/* Fills @out with a poison byte through a host map: its next use from the
 * pool (same size) uploads it, and a value the element leaves unwritten
 * shows. Then lets it go back. */
static void
poison_and_release (GstBuffer * out)
{
  GstMapInfo map;

  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  memset (map.data, 0xA5, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
}

/* RGB video (system memory, odd sizes, padded rows) into a CHW tensor in
 * CUDA memory, uint8 and float32 (the typecast and an addition, exact in
 * float): each value against the frame's byte, read through a host map
 * and through the device pointer, three frames a size, each output
 * poisoned before it goes back to the pool. */
GST_START_TEST (test_cuda_tensors_from_video)
{
  static const struct
  {
    gint w, h;
    const gchar *arith;
  } cases[] = {
    {64, 36, NULL}, {4, 1, NULL}, {1918, 1080, NULL},
    {33, 17, "typecast:float32,add:-127.5"}, {1, 9, "typecast:float32,add:3"},
    {1917, 1083, "typecast:float32,add:-127.5"},
  };
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *desc = cases[c].arith ? g_strdup_printf ("cudatranspose "
        "arithmetic=%s", cases[c].arith) : g_strdup ("cudatranspose");
    GstHarness *h = ct_check_harness_new (desc, NULL);
    gint w = cases[c].w, hh = cases[c].h;
    gboolean f32 = cases[c].arith != NULL;
    gfloat add = f32 ? (gfloat) g_ascii_strtod (strstr (cases[c].arith,
            "add:") + 4, NULL) : 0;
    gsize n = (gsize) 3 * w * hh;
    GstVideoInfo info;

    gst_harness_set_sink_caps_str (h,
        "other/tensors(memory:CUDAMemory),format=static");
    fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, w,
            hh));
    gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_RGB, w, hh));
    for (i = 0; i < 3; i++) {
      GstBuffer *in = ct_check_make_frame (&info, i == 1 ? 5 : 0), *out;
      GstVideoFrame fi;
      GstMapInfo om;
      guint8 *dev;
      gint x, y;
      guint ch;

      ct_check_push_one (h, gst_buffer_ref (in));
      out = pull_cuda_tensor (h, n * (f32 ? 4 : 1), desc);
      fail_unless (ct_check_pad_has_cuda_memory (h->element, "src"));
      dev = device_bytes (out);
      fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
      fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
      /* the host's copy is the device's bytes */
      fail_unless (memcmp (dev, om.data, om.size) == 0, "%s %dx%d frame %u: "
          "the host map differs from the device pointer's bytes", desc, w,
          hh, i);
      g_free (dev);
      for (ch = 0; ch < 3; ch++) {
        for (y = 0; y < hh; y++) {
          for (x = 0; x < w; x++) {
            gsize k = ((gsize) ch * hh + y) * w + x;
            guint8 v = ct_check_rgb_byte (&fi, ch, x, y);

            if (f32) {
              gfloat got, want = (gfloat) v + add;

              memcpy (&got, om.data + 4 * k, 4);
              fail_unless (memcmp (&got, &want, 4) == 0, "%s %dx%d frame %u: "
                  "channel %u (%d, %d) is %g, not %g", desc, w, hh, i, ch, x,
                  y, got, want);
            } else {
              fail_unless (om.data[k] == v, "%s %dx%d frame %u: channel %u "
                  "(%d, %d) is %u, not %u", desc, w, hh, i, ch, x, y,
                  om.data[k], v);
            }
          }
        }
      }
      gst_buffer_unmap (out, &om);
      gst_video_frame_unmap (&fi);
      poison_and_release (out);
      gst_buffer_unref (in);
    }
    gst_harness_teardown (h);
    g_free (desc);
  }
}

GST_END_TEST;

/* YUV frames in CUDA memory (a decoder's) into normalized float32 CHW
 * tensors in CUDA memory, in four directions (identity, 90r, 180,
 * ur-ll): equal, byte for byte, to the element's CPU path from the same
 * frame in system memory (itself checked against the test's own
 * conversion in yuv-tensors). */
GST_START_TEST (test_cuda_tensors_from_yuv)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_P010_10LE,
  };
  static const gint sizes[][2] = { {64, 36}, {33, 17}, {1920, 1080} };
  static const gchar *dirs[] = { "identity", "90r", "180", "ur-ll" };
  const gchar *arith = "arithmetic=typecast:float32,add:-127.5,div:127.5";
  guint f, s, d, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    if (!nvcodec_takes (formats[f], TRUE))
      continue;
    for (d = 0; d < G_N_ELEMENTS (dirs); d++) {
      gchar *gpu_desc = g_strdup_printf ("cudaupload ! cudatranspose name=t "
          "video-direction=%s %s", dirs[d], arith);
      gchar *cpu_desc = g_strdup_printf ("cudatranspose kernel=cpu "
          "video-direction=%s %s", dirs[d], arith);
      GstElement *t;
      GstHarness *gpu = gst_harness_new_parse (gpu_desc);
      GstHarness *cpu = ct_check_harness_new (cpu_desc, NULL);

      t = gst_bin_get_by_name (GST_BIN (gpu->element), "t");
      gst_harness_set_sink_caps_str (gpu,
          "other/tensors(memory:CUDAMemory),format=static");
      gst_harness_set_sink_caps_str (cpu, "other/tensors,format=static");
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        gint w = cuda_side (formats[f], sizes[s][0]);
        gint hh = cuda_side (formats[f], sizes[s][1]);
        gsize bytes = (gsize) 3 * w * hh * 4;
        GstVideoInfo info;

        if (!cuda_holds (formats[f], w, hh))
          continue;
        fail_unless (gst_video_info_set_format (&info, formats[f], w, hh));
        gst_harness_set_src_caps (gpu, ct_check_caps (formats[f], w, hh));
        gst_harness_set_src_caps (cpu, ct_check_caps (formats[f], w, hh));
        for (i = 0; i < 2; i++) {
          GstBuffer *in = ct_check_make_frame (&info, 0), *want, *got;
          GstMapInfo wm, gm;

          ct_check_push_one (cpu, gst_buffer_ref (in));
          want = gst_harness_pull (cpu);
          fail_unless (want != NULL);
          ct_check_push_one (gpu, in);
          got = pull_cuda_tensor (gpu, bytes, gpu_desc);
          fail_unless (ct_check_pad_has_cuda_memory (t, "sink"),
              "%s: not read from CUDA memory", gpu_desc);
          fail_unless (gst_buffer_map (want, &wm, GST_MAP_READ));
          fail_unless (gst_buffer_map (got, &gm, GST_MAP_READ));
          fail_unless_equals_uint64 (gm.size, wm.size);
          fail_unless (memcmp (gm.data, wm.data, wm.size) == 0, "%s, %s "
              "%dx%d: the tensor in CUDA memory differs from the CPU's",
              gpu_desc, gst_video_format_to_string (formats[f]), w, hh);
          gst_buffer_unmap (got, &gm);
          gst_buffer_unmap (want, &wm);
          poison_and_release (got);
          gst_buffer_unref (want);
        }
      }
      gst_object_unref (t);
      gst_harness_teardown (gpu);
      gst_harness_teardown (cpu);
      g_free (gpu_desc);
      g_free (cpu_desc);
    }
  }
}

GST_END_TEST;

/* Tensors into CUDA memory (a copy: permutation 0:1:2:3) and from there
 * through a second cudatranspose that reads them in place and permutes
 * them back into system memory: every fifth order, against the
 * reference. */
GST_START_TEST (test_cuda_tensors_between_elements)
{
  static const guint64 shapes[][4] = { {3, 7, 5, 4}, {1, 17, 1, 3},
  {4, 64, 36, 2}, {40, 33, 3, 1}
  };
  static const gchar *types[] = { "float32", "int16", "uint8" };
  guint q, s, ty;

  for (q = 0; q < 24; q += 5) {
    guint perm[4];
    gchar *desc;
    GstElement *t;
    GstHarness *h;

    ct_check_nth_permutation (q, perm);
    desc = g_strdup_printf ("cudatranspose permutation=0:1:2:3 ! "
        "other/tensors(memory:CUDAMemory),format=static ! cudatranspose "
        "name=t permutation=%u:%u:%u:%u", perm[0], perm[1], perm[2], perm[3]);
    h = ct_check_harness_new (desc, NULL);
    gst_harness_set_sink_caps_str (h, "other/tensors,format=static");
    t = gst_bin_get_by_name (GST_BIN (h->element), "t");
    for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
      for (ty = 0; ty < G_N_ELEMENTS (types); ty++) {
        guint64 bytes = shapes[s][0] * shapes[s][1] * shapes[s][2] *
            shapes[s][3] * ct_check_tensor_type_size (types[ty]);
        gchar *dims;
        CtCheckTensor tensor;

        /* (only whole 4-byte words go into CUDA memory) */
        if (bytes % 4 != 0)
          continue;
        dims = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT
            ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, shapes[s][0],
            shapes[s][1], shapes[s][2], shapes[s][3]);
        tensor.dims = dims;
        tensor.type = types[ty];
        gst_harness_set_src_caps (h, ct_check_tensor_caps (&tensor, 1));
        ct_check_push_permuted_and_verify (h, shapes[s], types[ty], perm,
            desc);
        fail_unless (ct_check_pad_has_cuda_memory (t, "sink"),
            "%s: the tensors between the two are not CUDA memory", desc);
        g_free (dims);
      }
    }
    gst_object_unref (t);
    gst_harness_teardown (h);
    g_free (desc);
  }
}

GST_END_TEST;

/* NULL to PLAYING and back, 200 times, in CUDA memory and in pinned system
 * memory; every output pool must be gone after each cycle. */
static void
cycle (const gchar * desc, guint n)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstBus *bus = gst_element_get_bus (pipeline);
  Watch w;
  guint i;

  watch_init (&w, t);
  for (i = 0; i < n; i++) {
    GstMessage *msg;

    fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "cycle %u: no EOS in 10 s", i);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail ("cycle %u: %s", i, err->message);
    }
    gst_message_unref (msg);
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    g_mutex_lock (&w.lock);
    fail_unless (w.live_pools == 0, "cycle %u: %d output pools left", i,
        w.live_pools);
    g_mutex_unlock (&w.lock);
  }
  fail_unless_equals_int (w.frames, 2 * n);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (pipeline);
  watch_clear (&w);
}

GST_START_TEST (test_cycles_cuda)
{
  cycle ("videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=640,"
      "height=360 ! cudaupload ! cudatranspose name=t ! cudadownload ! "
      "fakesink", 200);
}

GST_END_TEST;

GST_START_TEST (test_cycles_pinned)
{
  cycle ("videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=640,"
      "height=360 ! cudatranspose name=t ! fakesink", 200);
}

GST_END_TEST;

/* Decoded on the GPU, transposed on the GPU: compared with the decoder's
 * frames transposed by the reference. Needs nvh264dec and the sample the
 * build made (tests/sample.h264, from openh264enc). */
static GList *
decode_frames (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  GList *frames = NULL;
  GstSample *sample;

  fail_unless (pipeline != NULL && sink != NULL, "%s", desc);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink))))
    frames = g_list_append (frames, sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return frames;
}

GST_START_TEST (test_nvh264dec_chain)
{
  const gchar *sample = g_getenv ("CT_CHECK_H264");
  gchar *ref_desc, *chain_desc;
  GList *ref, *got, *a, *b;
  guint n = 0;

  ref_desc = g_strdup_printf ("filesrc location=%s ! h264parse ! nvh264dec ! "
      "cudadownload ! video/x-raw ! appsink name=s sync=false", sample);
  chain_desc = g_strdup_printf ("filesrc location=%s ! h264parse ! nvh264dec "
      "! video/x-raw(memory:CUDAMemory) ! cudatranspose name=t ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw ! "
      "appsink name=s sync=false", sample);
  ref = decode_frames (ref_desc);
  got = decode_frames (chain_desc);
  fail_unless (ref != NULL);
  fail_unless_equals_int (g_list_length (got), g_list_length (ref));
  for (a = ref, b = got; a && b; a = a->next, b = b->next, n++) {
    GstVideoInfo info;

    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (a->data)));
    ct_check_assert_transposed (&info, gst_sample_get_buffer (a->data),
        gst_sample_get_buffer (b->data), "nvh264dec");
  }
  g_print ("nvh264dec chain: %u frames of %s transposed in CUDA memory\n", n,
      sample);
  g_list_free_full (ref, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (got, (GDestroyNotify) gst_sample_unref);
  g_free (ref_desc);
  g_free (chain_desc);
}

GST_END_TEST;

static Suite *
cudatranspose_cudamem_suite (gboolean nvdec)
{
  Suite *s = suite_create ("memory");
  TCase *tc = tcase_create ("cudamem");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  if (nvdec) {
    tcase_add_test (tc, test_nvh264dec_chain);
    return s;
  }
  tcase_add_test (tc, test_cuda_in_cuda_out);
  tcase_add_test (tc, test_cuda_directions);
  tcase_add_test (tc, test_cuda_packed_422_odd_widths);
  tcase_add_test (tc, test_cuda_in_system_out);
  tcase_add_test (tc, test_system_in_cuda_out);
  tcase_add_test (tc, test_cuda_gray8_refused);
  tcase_add_test (tc, test_cuda_context_shared);
  tcase_add_test (tc, test_cuda_resolution_change);
  tcase_add_test (tc, test_pinned_pools);
  tcase_add_test (tc, test_pinned_tensor_pools);
  tcase_add_test (tc, test_cuda_tensors_from_video);
  tcase_add_test (tc, test_cuda_tensors_from_yuv);
  tcase_add_test (tc, test_cuda_tensors_between_elements);
  tcase_add_test (tc, test_cycles_cuda);
  tcase_add_test (tc, test_cycles_pinned);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *needed[] = { "cudaupload", "cudadownload", "nvh264dec", NULL
  };
  gboolean nvdec;
  const gchar *sample = g_getenv ("CT_CHECK_H264");

  if (!ct_check_have_cuda_device ())
    return 77;

  gst_check_init (&argc, &argv);
  nvdec = argc > 1 && g_str_equal (argv[1], "nvdec");
  if (!nvdec)
    needed[2] = NULL;
  if (!ct_check_have_factories (needed))
    return 77;
  if (nvdec && (!sample || !g_file_test (sample, G_FILE_TEST_EXISTS))) {
    g_print ("SKIP: no H.264 sample at CT_CHECK_H264=%s (the build makes "
        "it with openh264enc, which was missing)\n", sample ? sample : "");
    return 77;
  }
  return gst_check_run_suite (cudatranspose_cudamem_suite (nvdec),
      "memory", __FILE__);
}
