/* What the element tests that need a CUDA device share. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether a CUDA device is there, asked in a child process: CUDA does not
 * survive fork (), and check forks every test from the calling process, so
 * that one must not touch CUDA. Prints the reason when there is none. */
gboolean ct_check_have_cuda_device (void);

/* The number of CUDA devices, asked in a child process as above. */
gint ct_check_cuda_device_count (void);

/* The GPU kernels, by nick, as the element's GEnum lists them
 * (ct_check_kernel_nicks, transpose-check.h). */
#define gpu_kernels ct_check_kernel_nicks (TRUE, NULL)
#define n_gpu_kernels() ct_check_n_kernel_nicks (TRUE)

/* GST_CHECK_MAIN for a suite that needs a CUDA device: without one the
 * program says why and exits 77 (Meson's skip). @name_suite () builds the
 * suite; @label names its run. */
#define CT_CHECK_GPU_MAIN(name, label)                                  \
int                                                                     \
main (int argc, char **argv)                                            \
{                                                                       \
  if (!ct_check_have_cuda_device ())                                    \
    return 77;                                                          \
  gst_check_init (&argc, &argv);                                        \
  return gst_check_run_suite (name##_suite (), label, __FILE__);        \
}

G_END_DECLS
