/* cudatranspose under concurrency and churn on a GPU: many elements,
 * CUDA contexts, threads and processes at once, and pipelines restarted,
 * renegotiated and switched between kernels and memories while playing.
 * Every output is compared with the test's own reference transpose.
 *
 * Exits 77 (skipped) without a CUDA device or nvcodec's cudaupload. With
 * the argument "multigpu" it runs only the tests that need two devices,
 * and skips with fewer. */
#include "transpose-check.h"
#include "gpu-check.h"

#include "cudatranspose-kernels.h"

#include <gio/gio.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#include <string.h>

/* A step of a stream: frames of one format and size. */
typedef struct
{
  GstVideoFormat format;
  gint width, height;
  guint frames;
} Step;

/* Small I420 frames (where contexts broke the wide kernels), then other
 * formats and sizes, ragged ones too: every step renegotiates. */
static const Step tee_steps[] = {
  {GST_VIDEO_FORMAT_I420, 64, 36, 3}, {GST_VIDEO_FORMAT_I420, 33, 17, 2},
  {GST_VIDEO_FORMAT_NV12, 1917, 1083, 2}, {GST_VIDEO_FORMAT_RGBA, 640, 360, 2},
  {GST_VIDEO_FORMAT_I420, 176, 144, 3}, {GST_VIDEO_FORMAT_BGR, 257, 255, 2},
};

/* The device the tests use (CT_STRESS_DEVICE, for the two-process test). */
static gint
stress_device (void)
{
  const gchar *env = g_getenv ("CT_STRESS_DEVICE");

  return env ? atoi (env) : 0;
}

static void
set_cuda_context (GstElement * e, GstCudaContext * ctx)
{
  GstContext *context = gst_context_new_cuda_context (ctx);

  gst_element_set_context (e, context);
  gst_context_unref (context);
}

/* The device of the CUDA context @e holds, or -1. */
static gint
context_device (GstElement * e)
{
  GstContext *c = gst_element_get_context (e, GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *ctx = NULL;
  guint device = 0;

  if (!c)
    return -1;
  fail_unless (gst_structure_get (gst_context_get_structure (c),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL));
  g_object_get (ctx, "cuda-device-id", &device, NULL);
  gst_object_unref (ctx);
  gst_context_unref (c);
  return (gint) device;
}

/* One branch of a tee: its sink, and what it must have received. */
typedef struct
{
  GstElement *transpose;
  GstElement *sink;
  const gchar *what;
} Branch;

/* The branches x0, x1, ... (transposes) and s0, s1, ... (sinks) of
 * @pipeline, described by @whats; unref with branches_clear. */
static void
branches_get (GstElement * pipeline, Branch * branches, guint n,
    const gchar * const *whats)
{
  guint b;

  for (b = 0; b < n; b++) {
    gchar *name = g_strdup_printf ("x%u", b);

    branches[b].transpose = gst_bin_get_by_name (GST_BIN (pipeline), name);
    g_free (name);
    name = g_strdup_printf ("s%u", b);
    branches[b].sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
    g_free (name);
    fail_unless (branches[b].transpose && branches[b].sink);
    branches[b].what = whats[b];
  }
}

static void
branches_clear (Branch * branches, guint n)
{
  guint b;

  for (b = 0; b < n; b++) {
    gst_object_unref (branches[b].transpose);
    gst_object_unref (branches[b].sink);
  }
}

/* Pushes every step's frames into @src, @on_frame called after each (for
 * kernel switches), then EOS; checks that each branch received every
 * frame, transposed. (The appsinks must not wait on EOS for their samples
 * to be pulled: they are pulled after it.) */
static void
run_tee (GstElement * pipeline, GstElement * src, Branch * branches,
    guint n_branches, const Step * steps, guint n_steps,
    void (*on_frame) (Branch *, guint, guint), GstBus * bus)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GArray *infos = g_array_new (FALSE, FALSE, sizeof (GstVideoInfo));
  GstMessage *msg;
  guint s, i, b, n = 0;

  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  for (s = 0; s < n_steps; s++) {
    GstVideoInfo info;
    GstCaps *caps = ct_check_caps (steps[s].format, steps[s].width,
        steps[s].height);

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_app_src_set_caps (GST_APP_SRC (src), caps);
    gst_caps_unref (caps);
    for (i = 0; i < steps[s].frames; i++, n++) {
      GstBuffer *in = ct_check_make_frame (&info, i == 1 ? 5 : 0);

      GST_BUFFER_PTS (in) = n * GST_MSECOND;
      g_ptr_array_add (inputs, gst_buffer_ref (in));
      g_array_append_val (infos, info);
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              in), GST_FLOW_OK);
      if (on_frame)
        on_frame (branches, n_branches, n);
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS in 120 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    fail ("%s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        err->message, debug);
  }
  gst_message_unref (msg);

  for (b = 0; b < n_branches; b++) {
    for (i = 0; i < n; i++) {
      GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK
          (branches[b].sink), 0);
      gchar *what;

      fail_unless (sample != NULL, "%s: frame %u of %u missing",
          branches[b].what, i, n);
      what = g_strdup_printf ("%s, frame %u", branches[b].what, i);
      ct_check_assert_transposed (&g_array_index (infos, GstVideoInfo, i),
          g_ptr_array_index (inputs, i), gst_sample_get_buffer (sample),
          what);
      g_free (what);
      gst_sample_unref (sample);
    }
  }
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  g_array_unref (infos);
  g_ptr_array_unref (inputs);
}

/* Every branch moves on to the next GPU kernel after each frame, so that
 * every kernel runs in every context. */
static void
rotate_kernels (Branch * branches, guint n_branches, guint frame)
{
  guint b;

  for (b = 0; b < n_branches; b++)
    gst_util_set_object_arg (G_OBJECT (branches[b].transpose), "kernel",
        gpu_kernels[(b + frame + 1) % n_gpu_kernels ()]);
}

/* One process, one tee: eight branches in system memory, four on each of
 * two CUDA contexts the test made, and a branch in CUDA memory whose
 * cudaupload and cudadownload bring a third context; every GPU kernel in
 * every branch in turn, over caps changes. Before, the second context's
 * wide launches failed ("Transposing a frame with kernel wide-padded
 * failed"). */
GST_START_TEST (test_tee_contexts)
{
  const gint device = stress_device ();
  GstCudaContext *ctx[3];
  GString *desc = g_string_new ("appsrc name=src format=time ! tee name=t");
  GstElement *pipeline, *src;
  Branch branches[9];
  const gchar *whats[9];
  GstBus *bus;
  guint b, c;

  /* (GStreamer's CUDA library calls the driver through its loader) */
  fail_unless (gst_cuda_load_library ());
  for (c = 0; c < 3; c++) {
    ctx[c] = gst_cuda_context_new (device);
    fail_unless (ctx[c] != NULL, "no CUDA context on device %d", device);
  }
  for (b = 0; b < 8; b++)
    g_string_append_printf (desc, " t. ! queue ! cudatranspose name=x%u "
        "kernel=%s ! video/x-raw ! appsink name=s%u sync=false "
        "wait-on-eos=false", b, gpu_kernels[b], b);
  g_string_append (desc, " t. ! queue ! cudaupload name=up ! "
      "cudatranspose name=x8 ! video/x-raw(memory:CUDAMemory) ! "
      "cudadownload name=down ! video/x-raw ! appsink name=s8 sync=false "
      "wait-on-eos=false");
  pipeline = gst_parse_launch (desc->str, NULL);
  fail_unless (pipeline != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  bus = gst_element_get_bus (pipeline);
  for (b = 0; b < 9; b++)
    whats[b] = b < 8 ? (b % 2 ? "system memory, context B" :
        "system memory, context A") : "CUDA memory, context C";
  branches_get (pipeline, branches, 9, whats);
  for (b = 0; b < 9; b++)
    set_cuda_context (branches[b].transpose, ctx[b < 8 ? b % 2 : 2]);
  {
    GstElement *up = gst_bin_get_by_name (GST_BIN (pipeline), "up");
    GstElement *down = gst_bin_get_by_name (GST_BIN (pipeline), "down");

    set_cuda_context (up, ctx[2]);
    set_cuda_context (down, ctx[2]);
    gst_object_unref (up);
    gst_object_unref (down);
  }

  run_tee (pipeline, src, branches, 9, tee_steps, G_N_ELEMENTS (tee_steps),
      rotate_kernels, bus);

  branches_clear (branches, 9);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  for (c = 0; c < 3; c++)
    gst_object_unref (ctx[c]);
  g_string_free (desc, TRUE);
}

GST_END_TEST;

/* Runs @n copies of this program at once, each running only @test (with
 * @device_env set to the copy's index, if given); each must pass. */
static void
run_processes (guint n, const gchar * test, const gchar * device_env)
{
  GSubprocess **procs = g_new0 (GSubprocess *, n);
  GError *err = NULL;
  guint i;

  for (i = 0; i < n; i++) {
    GSubprocessLauncher *l = g_subprocess_launcher_new
        (G_SUBPROCESS_FLAGS_NONE);
    gchar *index = g_strdup_printf ("%u", i);

    g_subprocess_launcher_setenv (l, "GST_CHECKS", test, TRUE);
    /* (check's fork mode: a child's failure must not end the others) */
    g_subprocess_launcher_setenv (l, "CT_STRESS_CHILD", "1", TRUE);
    if (device_env)
      g_subprocess_launcher_setenv (l, "CT_STRESS_DEVICE", index, TRUE);
    procs[i] = g_subprocess_launcher_spawn (l, &err, "/proc/self/exe", NULL);
    fail_unless (procs[i] != NULL, "spawn: %s", err ? err->message : "");
    g_free (index);
    g_object_unref (l);
  }
  for (i = 0; i < n; i++) {
    fail_unless (g_subprocess_wait (procs[i], NULL, NULL));
    fail_unless (g_subprocess_get_if_exited (procs[i]) &&
        g_subprocess_get_exit_status (procs[i]) == 0,
        "process %u of %u (%s) failed", i + 1, n, test);
    g_object_unref (procs[i]);
  }
  g_free (procs);
}

/* Eight processes on one GPU at once, each the tee test above. */
GST_START_TEST (test_processes)
{
  run_processes (8, "test_tee_contexts", NULL);
}

GST_END_TEST;

/* ---- churn ---- */

/* Formats both memories take (cudaupload's, and GStreamer 1.22's CUDA
 * allocator's), so either side may switch memory at any time. */
static const GstVideoFormat churn_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_ABGR,
};

static const gchar *
memory_caps (gboolean cuda)
{
  return cuda ? "video/x-raw(memory:CUDAMemory)" : "video/x-raw";
}

static void
set_filter (GstElement * filter, gboolean cuda)
{
  GstCaps *caps = gst_caps_from_string (memory_caps (cuda));

  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
}

/* Pushes @frame into @src (the caller keeps its reference) and pulls its
 * output from @sink within 30 s, or fails saying the element's error. */
static GstSample *
push_and_pull (GstElement * src, GstElement * sink, GstBus * bus,
    GstBuffer * frame, guint cycle, guint part)
{
  GstSample *sample;
  GstMessage *msg;

  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
          gst_buffer_ref (frame)), GST_FLOW_OK);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      30 * GST_SECOND);
  if (!sample) {
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail ("cycle %u part %u: %s", cycle, part, err->message);
    }
    fail ("cycle %u part %u: no output in 30 s", cycle, part);
  }
  return sample;
}

/* EOS into @src; the cycle must end in EOS within 30 s, and @pipeline go
 * back to NULL. */
static void
end_cycle (GstElement * pipeline, GstElement * src, GstBus * bus, guint cycle)
{
  GstMessage *msg;

  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "cycle %u: no EOS in 30 s", cycle);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "cycle %u: error at the end", cycle);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
}

/* 200 times NULL -> PLAYING -> NULL, each time a stream of frames whose
 * size and format change, with a kernel switch and a switch between
 * system and CUDA memory on either side while playing; every frame
 * checked, every cycle ending in EOS. */
GST_START_TEST (test_churn)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudaupload ! capsfilter name=in ! cudatranspose name=t ! "
      "capsfilter name=out ! cudadownload ! video/x-raw ! "
      "appsink name=sink sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *in = gst_bin_get_by_name (GST_BIN (pipeline), "in");
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstBus *bus = gst_element_get_bus (pipeline);
  guint cycle, switched_in = 0, switched_out = 0, frames = 0;
  guint64 plan_state = 0x2545f491;

  /* each push waits for its own output: no frame held back (frames in
   * flight: video-gpu's tests, and the tee test here) */
  g_object_set (t, "frames-in-flight", 1, NULL);
  for (cycle = 0; cycle < 200; cycle++) {
    gboolean cuda_in, cuda_out;
    guint part;

    /* a different plan each cycle, the same each run (its own stream
     * of the tests' generator) */
    const guint32 r = ct_check_next (&plan_state);
    cuda_in = r & 1;
    cuda_out = (r >> 1) & 1;
    set_filter (in, cuda_in);
    set_filter (out, cuda_out);
    gst_util_set_object_arg (G_OBJECT (t), "kernel",
        gpu_kernels[(r >> 2) % n_gpu_kernels ()]);
    fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);

    /* three parts, each a new format and size; between them, the kernel
     * and one side's memory change while playing */
    for (part = 0; part < 3; part++) {
      GstVideoFormat format = churn_formats[(r >> (4 + 3 * part)) %
          G_N_ELEMENTS (churn_formats)];
      gint w = 1 + (gint) ((r >> (3 * part)) % 300);
      gint h = 1 + (gint) ((r >> (3 * part + 9)) % 200);
      GstCaps *caps = ct_check_caps (format, w, h);
      GstVideoInfo info;
      guint i;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_app_src_set_caps (GST_APP_SRC (src), caps);
      gst_caps_unref (caps);
      for (i = 0; i < 2; i++) {
        GstBuffer *frame = ct_check_make_frame (&info, 0);
        GstSample *sample;
        gchar *what;

        GST_BUFFER_PTS (frame) = frames * GST_MSECOND;
        sample = push_and_pull (src, sink, bus, frame, cycle, part);
        what = g_strdup_printf ("cycle %u part %u frame %u (%s %dx%d, %s in, "
            "%s out)", cycle, part, i, gst_video_format_to_string (format),
            w, h, cuda_in ? "CUDA" : "system", cuda_out ? "CUDA" : "system");
        ct_check_assert_transposed (&info, frame, gst_sample_get_buffer
            (sample), what);
        g_free (what);
        gst_sample_unref (sample);
        gst_buffer_unref (frame);
        frames++;
      }
      /* the memory the pads negotiated is the one asked for */
      fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "sink"), cuda_in);
      fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "src"), cuda_out);

      gst_util_set_object_arg (G_OBJECT (t), "kernel",
          gpu_kernels[(r >> (8 + part)) % n_gpu_kernels ()]);
      if (part < 2 && ((r >> (20 + part)) & 1)) {
        if ((r >> (22 + part)) & 1) {
          cuda_in = !cuda_in;
          set_filter (in, cuda_in);
          switched_in++;
        } else {
          cuda_out = !cuda_out;
          set_filter (out, cuda_out);
          switched_out++;
        }
      }
    }
    end_cycle (pipeline, src, bus, cycle);
  }
  g_print ("churn: 200 cycles, %u frames checked, %u input and %u output "
      "memory switches while playing\n", frames, switched_in, switched_out);
  fail_unless (switched_in > 0 && switched_out > 0);

  gst_object_unref (bus);
  gst_object_unref (out);
  gst_object_unref (in);
  gst_object_unref (sink);
  gst_object_unref (t);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Checks that @out holds @frame (RGB, @info) as its CHW float32 tensor,
 * each value the byte plus @add. */
static void
assert_chw_float (const GstVideoInfo * info, GstBuffer * frame,
    GstBuffer * out, gfloat add, const gchar * what)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info), x, y;
  GstVideoFrame f;
  GstMapInfo om;
  guint c;

  fail_unless_equals_uint64 (gst_buffer_get_size (out), (gsize) 12 * w * h);
  fail_unless (gst_video_frame_map (&f, info, frame, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  for (c = 0; c < 3; c++) {
    for (y = 0; y < h; y++) {
      const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0);

      for (x = 0; x < w; x++) {
        gfloat got, want = (gfloat) row[3 * x + c] + add;

        memcpy (&got, om.data + 4 * (((gsize) c * h + y) * w + x), 4);
        fail_unless (memcmp (&got, &want, 4) == 0, "%s: channel %u (%d, %d) "
            "is %g, not %g", what, c, x, y, got, want);
      }
    }
  }
  gst_buffer_unmap (out, &om);
  gst_video_frame_unmap (&f);
}

static void
set_tensor_filter (GstElement * filter, gboolean cuda)
{
  GstCaps *caps = gst_caps_from_string (cuda ?
      "other/tensors(memory:CUDAMemory),format=static" :
      "other/tensors,format=static");

  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
}

static const gchar *const churn_ariths[] = {
  "typecast:float32,add:-127.5", "typecast:float32,add:3"
};

/* 100 times NULL -> PLAYING -> NULL, RGB frames of changing sizes into
 * normalized CHW tensors, the tensors' memory (system or CUDA) and the
 * arithmetic changed while playing, from this thread while frames flow:
 * every tensor checked against the test's own reference, every cycle
 * ending in EOS, and the memory the pad negotiated the one asked for. */
GST_START_TEST (test_tensor_memory_churn)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudatranspose name=t ! capsfilter name=out ! "
      "appsink name=sink sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *t = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstBus *bus = gst_element_get_bus (pipeline);
  static const gfloat adds[] = { -127.5f, 3.0f };    /* churn_ariths' */
  guint cycle, switched = 0, frames = 0;
  guint64 plan_state = 0x7a3c1e55;

  for (cycle = 0; cycle < 100; cycle++) {
    const guint32 r = ct_check_next (&plan_state);
    gboolean cuda = r & 1;
    guint part, a = (r >> 1) & 1;

    set_tensor_filter (out, cuda);
    g_object_set (t, "arithmetic", churn_ariths[a], NULL);
    fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    for (part = 0; part < 3; part++) {
      gint w = 1 + (gint) ((r >> (2 + 3 * part)) % 300);
      gint h = 1 + (gint) ((r >> (11 + 3 * part)) % 200);
      GstCaps *caps = ct_check_caps (GST_VIDEO_FORMAT_RGB, w, h);
      GstVideoInfo info;
      guint i;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_app_src_set_caps (GST_APP_SRC (src), caps);
      gst_caps_unref (caps);
      for (i = 0; i < 2; i++) {
        GstBuffer *frame = ct_check_make_frame (&info, i ? 3 : 0);
        GstSample *sample;
        gchar *what;

        GST_BUFFER_PTS (frame) = frames * GST_MSECOND;
        sample = push_and_pull (src, sink, bus, frame, cycle, part);
        what = g_strdup_printf ("cycle %u part %u frame %u (%dx%d, tensors "
            "in %s memory, add %g)", cycle, part, i, w, h, cuda ? "CUDA" :
            "system", adds[a]);
        assert_chw_float (&info, frame, gst_sample_get_buffer (sample),
            adds[a], what);
        g_free (what);
        gst_sample_unref (sample);
        gst_buffer_unref (frame);
        frames++;
      }
      fail_unless_equals_int (ct_check_pad_has_cuda_memory (t, "src"), cuda);

      /* the memory or the arithmetic changes while playing, from the next
       * buffer */
      if ((r >> (20 + part)) & 1) {
        cuda = !cuda;
        set_tensor_filter (out, cuda);
        switched++;
      } else {
        a = !a;
        g_object_set (t, "arithmetic", churn_ariths[a], NULL);
      }
    }
    end_cycle (pipeline, src, bus, cycle);
  }
  g_print ("tensor memory churn: 100 cycles, %u tensors checked, %u memory "
      "switches while playing\n", frames, switched);
  fail_unless (switched > 0);

  gst_object_unref (bus);
  gst_object_unref (out);
  gst_object_unref (sink);
  gst_object_unref (t);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---- two devices ---- */

/* One process, elements on device 0 and device 1 beside each other: in
 * system memory on each, and in CUDA memory on device 1. */
GST_START_TEST (test_two_devices_one_process)
{
  const Step steps[] = {
    {GST_VIDEO_FORMAT_I420, 64, 36, 2}, {GST_VIDEO_FORMAT_NV12, 1917, 1083, 2},
    {GST_VIDEO_FORMAT_RGBA, 333, 187, 2},
  };
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "tee name=t "
      "t. ! queue ! cudatranspose name=x0 cuda-device-id=0 ! video/x-raw ! "
      "appsink name=s0 sync=false wait-on-eos=false "
      "t. ! queue ! cudatranspose name=x1 cuda-device-id=1 ! video/x-raw ! "
      "appsink name=s1 sync=false wait-on-eos=false "
      "t. ! queue ! cudaupload cuda-device-id=1 ! cudatranspose name=x2 "
      "cuda-device-id=1 ! video/x-raw(memory:CUDAMemory) ! cudadownload ! "
      "video/x-raw ! appsink name=s2 sync=false wait-on-eos=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstBus *bus = gst_element_get_bus (pipeline);
  const gchar *whats[] = { "device 0", "device 1", "device 1, CUDA memory" };
  const gint devices[] = { 0, 1, 1 };
  Branch branches[3];
  guint b;

  branches_get (pipeline, branches, 3, whats);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  for (b = 0; b < 3; b++)
    fail_unless_equals_int (context_device (branches[b].transpose),
        devices[b]);
  run_tee (pipeline, src, branches, 3, steps, G_N_ELEMENTS (steps),
      rotate_kernels, bus);
  branches_clear (branches, 3);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Two processes at once, one on each device, each the tee test. */
GST_START_TEST (test_two_devices_two_processes)
{
  run_processes (2, "test_tee_contexts", "CT_STRESS_DEVICE");
}

GST_END_TEST;

static Suite *
cudatranspose_stress_suite (gboolean multigpu)
{
  Suite *s = suite_create ("stress");
  TCase *tc = tcase_create ("stress");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  if (multigpu) {
    tcase_add_test (tc, test_two_devices_one_process);
    tcase_add_test (tc, test_two_devices_two_processes);
    return s;
  }
  tcase_add_test (tc, test_tee_contexts);
  /* (a copy this test started runs only the tee test) */
  if (!g_getenv ("CT_STRESS_CHILD"))
    tcase_add_test (tc, test_processes);
  tcase_add_test (tc, test_churn);
  tcase_add_test (tc, test_tensor_memory_churn);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *needed[] = { "cudaupload", "cudadownload", NULL };
  gboolean multigpu;

  if (!ct_check_have_cuda_device ())
    return 77;
  multigpu = argc > 1 && g_str_equal (argv[1], "multigpu");
  if (multigpu && ct_check_cuda_device_count () < 2) {
    g_print ("SKIP: the two-device tests need 2 CUDA devices; this machine "
        "has %d\n", ct_check_cuda_device_count ());
    return 77;
  }

  gst_check_init (&argc, &argv);
  if (!ct_check_have_factories (needed))
    return 77;
  return gst_check_run_suite (cudatranspose_stress_suite (multigpu),
      "stress", __FILE__);
}
