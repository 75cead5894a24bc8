/* cudatranspose on tensors on a CUDA GPU: every type and shape with each
 * GPU kernel, the permutation property, packed RGB video out as CHW
 * tensors. Without a CUDA device the program exits 77 (skipped). */
#include "transpose-check.h"
#include "gpu-check.h"

#include "cudatranspose-kernels.h"

/* Tensors of every type and shape with each GPU kernel. */
GST_START_TEST (test_gpu_tensors)
{
  gchar *desc = g_strdup_printf ("cudatranspose kernel=%s",
      gpu_kernels[__i__]);
  GstHarness *h = ct_check_harness_new (desc, NULL);
  gchar *active;

  ct_check_all_tensors (h, desc);
  active = ct_check_active_kernel (h->element);
  fail_if (g_str_equal (active, "cpu"), "%s ran on the CPU", desc);
  g_free (active);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

/* The permutation property on the GPU: every order of 4 dimensions. */
GST_START_TEST (test_gpu_permutations)
{
  ct_check_all_permutations ("cudatranspose");
}

GST_END_TEST;

/* Tensor caps of @n tensors at one buffer a second (@rate_n 1), or of an
 * unknown rate (0): the element holds a buffer back for up to a second,
 * long enough for a test to see it held, even under a sanitizer. */
static GstCaps *
slow_tensor_caps (const CtCheckTensor * t, guint n, gint rate_n)
{
  GstCaps *caps = ct_check_tensor_caps (t, n);

  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, rate_n, 1,
      NULL);
  return caps;
}

/* Buffer @k of random tensors @t, one system memory each, at 1/s. */
static GstBuffer *
numbered_tensors (const CtCheckTensor * t, guint n, guint k)
{
  GstBuffer *in = ct_check_new_tensor_buffer (t, n, FALSE);

  ct_check_fill_tensors (in);
  GST_BUFFER_PTS (in) = k * GST_SECOND;
  GST_BUFFER_DURATION (in) = GST_SECOND;
  GST_BUFFER_OFFSET (in) = k;
  return in;
}

/* Pulls the next output: @in's tensors transposed, with its timestamps;
 * poisons each memory before the buffer goes back to the pool. */
static void
pull_tensors_and_check (GstHarness * h, GstBuffer * in,
    const CtCheckTensor * t, guint n, const gchar * what)
{
  GstBuffer *out = gst_harness_pull (h);
  GstMapInfo map;
  guint i;

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out),
      GST_BUFFER_DURATION (in));
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), GST_BUFFER_OFFSET (in));
  ct_check_assert_tensors_transposed (in, out, t, n, what);
  for (i = 0; i < gst_buffer_n_memory (out); i++) {
    GstMemory *mem = gst_buffer_peek_memory (out, i);

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    memset (map.data, 0x3c + i, map.size);
    gst_memory_unmap (mem, &map);
  }
  gst_buffer_unref (out);
}

/* Pushes buffer @k of the tensor @t alone: @queued outputs must be there
 * at once (1: nothing held; 0: held, then pushed out by the releaser),
 * and the one pulled must be it. */
static void
push_one_alone (GstHarness * h, const CtCheckTensor * t, guint k,
    guint queued, const gchar * what)
{
  GstBuffer *a = numbered_tensors (t, 1, k);

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (a)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), queued);
  pull_tensors_and_check (h, a, t, 1, what);
  gst_buffer_unref (a);
}

/* One tensor, and two (one map a memory when they go in flight). */
static const CtCheckTensor one[] = { {"37:21:3:1", "float32"} };
static const CtCheckTensor two[] = { {"33:17:3:1", "float32"},
{"3:640:5", "uint8"}
};
static const struct
{
  const CtCheckTensor *t;
  guint n;
} cases[] = { {one, 1}, {two, 2}, };

/* Tensors go two in flight too (the default, with a frame rate), from
 * host memory into the element's pinned tensor pool: a buffer comes out
 * when the next is in (never more than one held back), whole, in order,
 * with its own timestamps; a serialized event pushes the last one out, and
 * so does EOS; one left alone comes out by itself after one frame's
 * duration. LATENCY adds one frame; an unknown rate holds nothing back. */
GST_START_TEST (test_gpu_tensors_in_flight)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  guint c, k;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    const CtCheckTensor *t = cases[c].t;
    const guint n = cases[c].n;
    GstBuffer *ins[5];
    guint out = 0, held = 0;
    gchar *what = g_strdup_printf ("%u tensors, %s first", n, t[0].dims);

    gst_harness_set_src_caps (h, slow_tensor_caps (t, n, 1));
    fail_unless_equals_uint64 (gst_harness_query_latency (h), GST_SECOND);
    for (k = 0; k < G_N_ELEMENTS (ins); k++) {
      ins[k] = numbered_tensors (t, n, k);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (ins[k])),
          GST_FLOW_OK);
      while (gst_harness_buffers_in_queue (h) > 0) {
        fail_unless (out <= k, "%s: more out than in", what);
        pull_tensors_and_check (h, ins[out], t, n, what);
        out++;
      }
      fail_unless (out == k || out == k + 1, "%s: %u buffers held back",
          what, k + 1 - out);
      held += out == k;
    }
    fail_unless_equals_int (held, G_N_ELEMENTS (ins));
    /* the last: a serialized event pushes it out, and so does EOS */
    if (c == 0)
      ct_check_push_drain (h);
    else
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
    pull_tensors_and_check (h, ins[out], t, n, what);
    for (k = 0; k < G_N_ELEMENTS (ins); k++)
      gst_buffer_unref (ins[k]);
    g_free (what);
  }

  /* one left alone comes out by itself, a second later */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_set_src_caps (h, slow_tensor_caps (one, 1, 1));
  push_one_alone (h, one, 7, 0, "left alone");

  /* an unknown rate: nothing held, no latency */
  gst_harness_set_src_caps (h, slow_tensor_caps (one, 1, 0));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  push_one_alone (h, one, 8, 1, "framerate 0/1");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The same, the test keeping no reference to what it pushes (as appsrc
 * gives buffers away): a buffer held in flight must keep its input
 * alive and mapped until it goes out. One tensor (one memory, mapped
 * whole) and two (one map a memory). */
GST_START_TEST (test_gpu_tensors_in_flight_given_away)
{
  GstHarness *h = gst_harness_new ("cudatranspose");
  guint c, k;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstBuffer *ins[4];
    guint out = 0;

    gst_harness_set_src_caps (h, slow_tensor_caps (cases[c].t, cases[c].n,
            1));
    for (k = 0; k < G_N_ELEMENTS (ins); k++) {
      ins[k] = numbered_tensors (cases[c].t, cases[c].n, k);
      /* a copy the element alone holds */
      fail_unless_equals_int (gst_harness_push (h,
              gst_buffer_copy_deep (ins[k])), GST_FLOW_OK);
      while (gst_harness_buffers_in_queue (h) > 0)
        pull_tensors_and_check (h, ins[out++], cases[c].t, cases[c].n,
            "given away");
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    while (gst_harness_buffers_in_queue (h) > 0)
      pull_tensors_and_check (h, ins[out++], cases[c].t, cases[c].n,
          "given away, last");
    fail_unless_equals_int (out, G_N_ELEMENTS (ins));
    for (k = 0; k < G_N_ELEMENTS (ins); k++)
      gst_buffer_unref (ins[k]);
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h,
            gst_event_new_flush_stop (TRUE)));
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* RGB video (packed and planar) out as CHW tensors, on the GPU. */
GST_START_TEST (test_gpu_video_to_chw)
{
  ct_check_video_to_chw ("cudatranspose");
}

GST_END_TEST;

/* The same as HWC tensors (planar frames interleaved), on the GPU. */
GST_START_TEST (test_gpu_video_to_hwc)
{
  static const guint hwc[4] = { 0, 1, 2, 3 };

  ct_check_video_to_tensor ("cudatranspose permutation=0:1:2:3", hwc);
}

GST_END_TEST;

static Suite *
tensors_gpu_suite (void)
{
  Suite *s = suite_create ("tensors-gpu");
  TCase *tc = tcase_create ("tensors-gpu");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_gpu_tensors, 0, n_gpu_kernels ());
  tcase_add_test (tc, test_gpu_permutations);
  tcase_add_test (tc, test_gpu_video_to_chw);
  tcase_add_test (tc, test_gpu_video_to_hwc);
  tcase_add_test (tc, test_gpu_tensors_in_flight);
  tcase_add_test (tc, test_gpu_tensors_in_flight_given_away);
  return s;
}

CT_CHECK_GPU_MAIN (tensors_gpu, "tensors-gpu");
