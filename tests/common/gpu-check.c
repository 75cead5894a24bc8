#include "gpu-check.h"

#include "cudatranspose-kernels.h"

#include <sys/wait.h>
#include <unistd.h>

/* The CUDA devices, counted in a child process (CUDA must not be set up
 * in the test program before check forks its tests); with @say_why, a
 * line saying why the test is skipped when there are none. */
static gint
device_count (gboolean say_why)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid == 0) {
    int count = 0;
    CtResult res = ct_device_count (&count);

    if (res != CT_OK)
      count = 0;
    if (say_why && count == 0)
      g_print ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
          ct_result_string (res) : "none found");
    _exit (count > 100 ? 100 : count);
  }
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
