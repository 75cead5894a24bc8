/* cudatranspose without a CUDA device. Meson runs this with
 * CUDA_VISIBLE_DEVICES empty, so it tests the same thing on a GPU host. */
#include "transpose-check.h"

/* auto falls back to the CPU and says so once on the bus. */
GST_START_TEST (test_auto_falls_back_to_cpu)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);
  gchar *active;
  gint i;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_I420, 1917,
          1083));
  for (i = 0; i < 3; i++)
    ct_check_push_and_verify (h, GST_VIDEO_FORMAT_I420, 1917, 1083, 0, "auto");
  active = ct_check_active_kernel (h->element);
  fail_unless_equals_string (active, "cpu");
  g_free (active);
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_WARNING),
      1);
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR), 0);

  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* An explicit GPU kernel fails READY -> PAUSED with a message that says
 * why and what to change. */
GST_START_TEST (test_gpu_kernel_fails_to_start)
{
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  gchar *text;

  gst_util_set_object_arg (G_OBJECT (e), "kernel", "tiled");
  text = ct_check_start_failure (e);
  fail_unless (strstr (text, "kernel=tiled") != NULL, "%s", text);
  fail_unless (strstr (text, "kernel=auto") != NULL, "%s", text);
  g_free (text);
  gst_object_unref (e);
}

GST_END_TEST;

/* Switching to a GPU kernel mid-stream without a GPU must not end the
 * stream: the CPU goes on, with one warning per kernel asked for that says
 * why (before, the next buffer was an error). */
GST_START_TEST (test_switch_to_gpu_kernel_keeps_running)
{
  const gchar *asked[] = { "tiled-padded", "tiled-padded", "wide", "cpu",
    "wide"
  };
  const guint warnings[] = { 1, 0, 1, 0, 1 };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);
  guint i;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 33, 65));
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_GRAY8, 33, 65, 0, "cpu");
  for (i = 0; i < G_N_ELEMENTS (asked); i++) {
    gchar *active, *text, *want;

    gst_util_set_object_arg (G_OBJECT (h->element), "kernel", asked[i]);
    ct_check_push_and_verify (h, GST_VIDEO_FORMAT_GRAY8, 33, 65, i % 2 ? 3 :
        0, asked[i]);
    active = ct_check_active_kernel (h->element);
    fail_unless_equals_string (active, "cpu");
    g_free (active);
    if (warnings[i]) {
      text = ct_check_pop_message_text (bus, GST_MESSAGE_WARNING);
      want = g_strdup_printf ("kernel=%s needs a CUDA GPU", asked[i]);
      fail_unless (strstr (text, want) != NULL, "%s", text);
      fail_unless (strstr (text, "still transposing on the CPU") != NULL,
          "%s", text);
      g_free (want);
      g_free (text);
    }
    fail_unless_equals_int (ct_check_count_messages (bus,
            GST_MESSAGE_WARNING), 0);
    fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR),
        0);
  }
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* From auto on the CPU to a named kernel: the CPU's warning, then the
 * kernel's, each once. */
GST_START_TEST (test_switch_from_auto_to_naive_warns)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);
  gchar *text;

  gst_harness_set_src_caps (h, ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 33, 65));
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_GRAY8, 33, 65, 0, "auto");
  text = ct_check_pop_message_text (bus, GST_MESSAGE_WARNING);
  fail_unless (strstr (text, "Transposing on the CPU") != NULL, "%s", text);
  g_free (text);

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "naive");
  ct_check_push_and_verify (h, GST_VIDEO_FORMAT_GRAY8, 33, 65, 1, "naive");
  text = ct_check_pop_message_text (bus, GST_MESSAGE_WARNING);
  fail_unless (strstr (text, "kernel=naive needs a CUDA GPU") != NULL, "%s",
      text);
  g_free (text);
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_WARNING),
      0);
  fail_unless_equals_int (ct_check_count_messages (bus, GST_MESSAGE_ERROR), 0);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* Tensors asked for in CUDA memory: an error from the element that says
 * a GPU is needed and what to ask for instead, from a source of fixed
 * caps and from one that offers a list of formats (as a decoder does). */
GST_START_TEST (test_cuda_tensors_need_gpu)
{
  static const gchar *upstream[] = {
    "videotestsrc num-buffers=2 ! video/x-raw,format=RGB,width=64,height=36",
    "videotestsrc num-buffers=2",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (upstream); i++) {
    gchar *desc = g_strdup_printf ("%s ! cudatranspose name=t "
        "arithmetic=typecast:float32,div:255 ! "
        "other/tensors(memory:CUDAMemory) ! fakesink", upstream[i]);
    gchar *text = ct_check_pipeline_error (desc);

    fail_unless (strstr (text, "Tensors in CUDA memory (memory:CUDAMemory) "
            "need a CUDA GPU") != NULL, "%s: %s", desc, text);
    fail_unless (strstr (text, "system memory (other/tensors)") != NULL,
        "%s", text);
    g_free (text);
    g_free (desc);
  }
}

GST_END_TEST;

static Suite *
cudatranspose_nogpu_suite (void)
{
  Suite *s = suite_create ("nogpu");
  TCase *tc = tcase_create ("nogpu");

  ct_check_seed ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_auto_falls_back_to_cpu);
  tcase_add_test (tc, test_gpu_kernel_fails_to_start);
  tcase_add_test (tc, test_switch_to_gpu_kernel_keeps_running);
  tcase_add_test (tc, test_switch_from_auto_to_naive_warns);
  tcase_add_test (tc, test_cuda_tensors_need_gpu);
  return s;
}

GST_CHECK_MAIN (cudatranspose_nogpu);
