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

/* Packed RGB video out as CHW tensors, on the GPU. */
GST_START_TEST (test_gpu_video_to_chw)
{
  ct_check_video_to_chw ("cudatranspose");
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
  return s;
}

CT_CHECK_GPU_MAIN (tensors_gpu, "tensors-gpu");
