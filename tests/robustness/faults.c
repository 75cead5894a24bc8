/* cudatranspose when the GPU fails under it: device and pinned memory
 * that cannot be allocated, a kernel launch that fails, a CUDA context
 * that cannot be made current. The failures are injected by the library
 * built from tests/robustness/fault/ (libct-fault.so in the build's
 * tests/), loaded with LD_PRELOAD (Meson's test sets it): nothing of it is
 * in the plugin. Each time the element must post one
 * error that says what failed, free what it holds, and run again after a
 * restart, byte-exact.
 *
 * Exits 77 (skipped) without a CUDA device, without nvcodec's cudaupload,
 * or without the fault library loaded. */
#include "transpose-check.h"

#include "fault/ct-fault.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>

/* The fault library's controls (dlsym: the program does not link it). */
static struct
{
  void (*arm) (CtFault what, int times);
  int (*injected) (CtFault what);
  int (*passed) (CtFault what);
  long (*live_device) (void);
  long (*live_host) (void);
} fault;

static gboolean
find_fault_library (void)
{
  fault.arm = dlsym (RTLD_DEFAULT, "ct_fault_arm");
  fault.injected = dlsym (RTLD_DEFAULT, "ct_fault_injected");
  fault.passed = dlsym (RTLD_DEFAULT, "ct_fault_passed");
  fault.live_device = dlsym (RTLD_DEFAULT, "ct_fault_live_device");
  fault.live_host = dlsym (RTLD_DEFAULT, "ct_fault_live_host");
  return fault.arm && fault.injected && fault.passed && fault.live_device &&
      fault.live_host;
}

/* A pipeline from appsrc to appsink around @middle, its ends, its bus. */
typedef struct
{
  GstElement *pipeline, *src, *sink, *t;
  GstBus *bus;
  GstVideoInfo info;
  gboolean tensors;
} Chain;

static void
chain_new (Chain * c, const gchar * middle, const gchar * caps_str)
{
  /* (appsink keeps no last sample: output buffers go back to their pool
   * at once, so a fault armed for the next frame meets the transform) */
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "%s ! appsink name=sink sync=false enable-last-sample=false", caps_str,
      middle);
  GstCaps *caps = gst_caps_from_string (caps_str);

  memset (c, 0, sizeof (*c));
  c->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (c->pipeline != NULL, "%s", desc);
  c->src = gst_bin_get_by_name (GST_BIN (c->pipeline), "src");
  c->sink = gst_bin_get_by_name (GST_BIN (c->pipeline), "sink");
  c->t = gst_bin_get_by_name (GST_BIN (c->pipeline), "t");
  /* each frame out before the next goes in, so that a push can wait for
   * its own output (frames in flight: video-gpu's test_gpu_in_flight) */
  g_object_set (c->t, "frames-in-flight", 1, NULL);
  c->bus = gst_element_get_bus (c->pipeline);
  /* tensors, or RGB out as tensors: HWC in, CHW out */
  c->tensors = !gst_structure_has_name (gst_caps_get_structure (caps, 0),
      "video/x-raw") || strstr (middle, "other/tensors") != NULL;
  if (!c->tensors)
    fail_unless (gst_video_info_from_caps (&c->info, caps));
  gst_caps_unref (caps);
  g_free (desc);
}

static void
chain_free (Chain * c)
{
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  gst_object_unref (c->bus);
  gst_object_unref (c->t);
  gst_object_unref (c->sink);
  gst_object_unref (c->src);
  gst_object_unref (c->pipeline);
}

/* A random frame (or, for tensors, a 3:40:30:1 uint8 tensor: the bytes
 * of a 40x30 RGB frame too). */
static GstBuffer *
chain_input (Chain * c)
{
  GstBuffer *buf;
  GstMapInfo map;
  gsize i;

  if (!c->tensors)
    return ct_check_make_frame (&c->info, 0);
  buf = gst_buffer_new_allocate (NULL, 3 * 40 * 30, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_random_int ();
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The 3:40:30:1 tensor permuted by 1:2:0:3 (HWC to CHW), checked here. */
static void
check_chw (GstBuffer * in, GstBuffer * out)
{
  GstMapInfo im, om;
  guint x, y, ch;

  fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  fail_unless_equals_uint64 (om.size, im.size);
  for (y = 0; y < 30; y++)
    for (x = 0; x < 40; x++)
      for (ch = 0; ch < 3; ch++)
        if (om.data[(ch * 30 + y) * 40 + x] != im.data[(y * 40 + x) * 3 + ch])
          fail ("channel %u of (%u, %u) differs", ch, x, y);
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
}

/* Pushes @n inputs; each must come out transposed. */
static void
chain_push_ok (Chain * c, guint n, const gchar * what)
{
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *in = chain_input (c);
    GstSample *sample;

    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (c->src),
            gst_buffer_ref (in)), GST_FLOW_OK);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (c->sink),
        30 * GST_SECOND);
    fail_unless (sample != NULL, "%s: no output for frame %u", what, i);
    if (c->tensors)
      check_chw (in, gst_sample_get_buffer (sample));
    else
      ct_check_assert_transposed (&c->info, in, gst_sample_get_buffer
          (sample), what);
    gst_sample_unref (sample);
    gst_buffer_unref (in);
  }
}

/* Pushes one input with @what armed; the element must post one error
 * whose message holds @says (appsrc then posts its own "Internal data
 * stream error", as any source does for a flow error). */
static void
chain_push_fails (Chain * c, CtFault what, const gchar * says)
{
  GstMessage *msg;
  GError *err = NULL;
  gint before = fault.injected (what);
  guint ours = 0;

  fault.arm (what, 1);
  /* (the push may see the error already: it is queued in appsrc) */
  gst_app_src_push_buffer (GST_APP_SRC (c->src), chain_input (c));
  while ((msg = gst_bus_timed_pop_filtered (c->bus, ours ? 300 *
              GST_MSECOND : 30 * GST_SECOND, GST_MESSAGE_ERROR))) {
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (c->t)) {
      gst_message_parse_error (msg, &err, NULL);
      fail_unless (ours == 0, "a second error: %s", err->message);
      fail_unless (strstr (err->message, says) != NULL, "\"%s\" does not "
          "say \"%s\"", err->message, says);
      g_print ("injected: %s\n", err->message);
      g_clear_error (&err);
      ours++;
    }
    gst_message_unref (msg);
  }
  fault.arm (what, 0);
  fail_unless (ours == 1, "no error for %s", says);
  fail_unless_equals_int (fault.injected (what), before + 1);
}

/* No device memory is held once the element has stopped. */
static void
assert_no_device_memory (const gchar * when)
{
  fail_unless (fault.live_device () == 0, "%s: %ld device blocks left",
      when, fault.live_device ());
}

/* Nothing is held once the pipeline is gone. (Pinned output buffers may
 * outlive a stop: appsink keeps the last sample pulled until it starts
 * again or is disposed, and the pool frees that buffer when it comes
 * back.) */
static void
assert_nothing_held (const gchar * when)
{
  assert_no_device_memory (when);
  fail_unless (fault.live_host () == 0, "%s: %ld pinned blocks left", when,
      fault.live_host ());
}

/* @middle with caps @caps: frames through (unless @at_start: the staging
 * memory is allocated once, for the first frame), a fault of @what (which
 * must say @says), stop, restart, frames through again; nothing left
 * held. */
static void
fault_and_restart (const gchar * middle, const gchar * caps, CtFault what,
    gboolean at_start, const gchar * says)
{
  gint passed = fault.passed (what);
  Chain c;

  chain_new (&c, middle, caps);
  fail_if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  if (!at_start)
    chain_push_ok (&c, 2, middle);
  chain_push_fails (&c, what, says);
  fail_unless_equals_int (gst_element_set_state (c.pipeline,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  assert_no_device_memory ("after the error");

  fail_if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  chain_push_ok (&c, 3, "after the restart");
  /* the calls went through the fault library (which is how it fails them) */
  fail_unless (fault.passed (what) > passed, "%s: the fault library saw no "
      "call", middle);
  fail_unless_equals_int (gst_element_set_state (c.pipeline,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  assert_no_device_memory ("after the restart");
  chain_free (&c);
  assert_nothing_held ("after the error and a restart");
}

#define VIDEO "video/x-raw,format=I420,width=1917,height=1083,framerate=30/1"
#define RGB "video/x-raw,format=RGB,width=40,height=30,framerate=30/1"
#define TENSOR "other/tensors,format=static,num_tensors=1," \
    "dimensions=(string)3:40:30:1,types=uint8,framerate=30/1"

GST_START_TEST (test_device_alloc_failure)
{
  const gchar *says = "bytes of GPU memory could not be allocated (out of "
      "memory)";

  fault_and_restart ("cudatranspose name=t kernel=wide-swizzle", VIDEO,
      CT_FAULT_DEVICE_ALLOC, TRUE, says);
  fault_and_restart ("cudatranspose name=t permutation=1:2:0:3", TENSOR,
      CT_FAULT_DEVICE_ALLOC, TRUE, says);
}

GST_END_TEST;

GST_START_TEST (test_launch_failure)
{
  const gchar *says = "while running the kernel: too many resources "
      "requested for launch";

  fault_and_restart ("cudatranspose name=t", VIDEO, CT_FAULT_LAUNCH, FALSE,
      says);
  /* tensors (ct_permute), and video out as a CHW tensor */
  fault_and_restart ("cudatranspose name=t permutation=1:2:0:3", TENSOR,
      CT_FAULT_LAUNCH, FALSE, says);
  fault_and_restart ("cudatranspose name=t ! other/tensors", RGB,
      CT_FAULT_LAUNCH, FALSE, says);
  /* in CUDA memory, between nvcodec's elements */
  fault_and_restart ("cudaupload ! cudatranspose name=t kernel=tiled-64 ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw", VIDEO,
      CT_FAULT_LAUNCH, FALSE, says);
}

GST_END_TEST;

/* A context that cannot be made current: one error that says so (the CHW
 * path posted a second one, "invalid plane description"). */
GST_START_TEST (test_context_failure)
{
  const gchar *says = "the CUDA context could not be made current";

  fault_and_restart ("cudatranspose name=t ! other/tensors", RGB,
      CT_FAULT_CONTEXT_PUSH, FALSE, says);
  fault_and_restart ("cudatranspose name=t", VIDEO, CT_FAULT_CONTEXT_PUSH,
      FALSE, says);
}

GST_END_TEST;

/* What the pinned allocator logged. */
static GString *logged;

static void
log_warnings (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (level == GST_LEVEL_WARNING && g_str_equal
      (gst_debug_category_get_name (category), "cudatranspose"))
    g_string_append_printf (logged, "%s\n", gst_debug_message_get (message));
}

/* Pinned memory that cannot be had: pageable memory instead, the output
 * unchanged, and a log line that says why (it said "invalid argument"
 * for a context that could not be made current). */
GST_START_TEST (test_pinned_failure)
{
  const CtFault faults[] = { CT_FAULT_HOST_ALLOC, CT_FAULT_CONTEXT_PUSH };
  const gchar *says[] = { "out of memory", "the CUDA context could not be "
        "made current"
  };
  guint f;

  logged = g_string_new (NULL);
  gst_debug_set_threshold_for_name ("cudatranspose", GST_LEVEL_WARNING);
  gst_debug_add_log_function (log_warnings, NULL, NULL);
  for (f = 0; f < G_N_ELEMENTS (faults); f++) {
    Chain c;

    g_string_truncate (logged, 0);
    chain_new (&c, "cudatranspose name=t", VIDEO);
    fail_if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    /* every pinned block of the output pool fails (a push fails once: the
     * allocator's own, before the first frame's) */
    fault.arm (faults[f], f == 0 ? 1000 : 1);
    chain_push_ok (&c, 3, "pageable output");
    fault.arm (faults[f], 0);
    fail_unless (fault.injected (faults[f]) > 0);
    fail_unless (strstr (logged->str, "could not pin") != NULL &&
        strstr (logged->str, says[f]) != NULL, "logged: %s", logged->str);
    chain_free (&c);
    assert_nothing_held ("after pageable output");
  }
  gst_debug_remove_log_function (log_warnings);
  g_string_free (logged, TRUE);
}

GST_END_TEST;

static Suite *
cudatranspose_faults_suite (void)
{
  Suite *s = suite_create ("faults");
  TCase *tc = tcase_create ("faults");

  ct_check_seed ();
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_device_alloc_failure);
  tcase_add_test (tc, test_launch_failure);
  tcase_add_test (tc, test_context_failure);
  tcase_add_test (tc, test_pinned_failure);
  return s;
}

/* Whether a CUDA device is there, asked in a child (CUDA does not survive
 * fork), through GStreamer's loader: this program must not link the
 * kernels, whose functions the fault library stands in for. */
static gboolean
have_cuda_device (void)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid == 0) {
    int count = 0;

    if (!gst_cuda_load_library ()) {
      g_print ("SKIP: no CUDA device (no NVIDIA driver: libcuda.so.1 could "
          "not be loaded)\n");
      _exit (77);
    }
    if (CuInit (0) != CUDA_SUCCESS || CuDeviceGetCount (&count) !=
        CUDA_SUCCESS || count == 0) {
      g_print ("SKIP: no CUDA device\n");
      _exit (77);
    }
    _exit (0);
  }
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return FALSE;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

int
main (int argc, char **argv)
{
  const gchar *needed[] = { "cudaupload", "cudadownload", NULL };

  if (!find_fault_library ()) {
    g_print ("SKIP: the fault library is not loaded (run with "
        "LD_PRELOAD=BUILD/tests/libct-fault.so, as meson test does)\n");
    return 77;
  }
  gst_init (NULL, NULL);
  if (!have_cuda_device ())
    return 77;
  gst_check_init (&argc, &argv);
  if (!ct_check_have_factories (needed))
    return 77;
  return gst_check_run_suite (cudatranspose_faults_suite (),
      "faults", __FILE__);
}
