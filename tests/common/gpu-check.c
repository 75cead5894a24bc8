#include "gpu-check.h"

#include "cudatranspose-kernels-tests.h"

#include <sys/wait.h>
#include <unistd.h>

/* The CUDA devices (0 where they cannot be counted), with @say_why, a
 * line saying why the test is skipped when there are none. */
static gint
count_here (gboolean say_why)
{
  int count = 0;
  CtResult res = ct_device_count (&count);

  if (res != CT_OK)
    count = 0;
  if (say_why && count == 0)
    g_print ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
        ct_result_string (res) : "none found");
  return count > 100 ? 100 : count;
}

/* The CUDA devices, counted in a child process: CUDA must not be set up
 * in the test program before check forks its tests. Where check runs
 * them in this process (CK_FORK=no), CUDA may be set up already (GStreamer
 * 1.26's nvcodec starts it while the plugins are scanned), and a child
 * cannot use it: they are counted here then. */
static gint
device_count (gboolean say_why)
{
  pid_t pid;
  int status = 0;

  if (g_strcmp0 (g_getenv ("CK_FORK"), "no") == 0)
    return count_here (say_why);
  pid = fork ();
  if (pid == 0)
    _exit (count_here (say_why));
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return 0;
  return WEXITSTATUS (status);
}

gboolean
ct_check_have_cuda_device (void)
{
  return device_count (TRUE) > 0;
}

gint
ct_check_cuda_device_count (void)
{
  return device_count (FALSE);
}
