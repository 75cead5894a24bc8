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

G_END_DECLS
