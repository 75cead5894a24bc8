#include "gpu-check.h"

#include "cudatranspose-kernels.h"

#include <sys/wait.h>
#include <unistd.h>

gboolean
ct_check_have_cuda_device (void)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid == 0) {
    int count = 0;
    CtResult res = ct_device_count (&count);

    if (res != CT_OK || count == 0) {
      g_print ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
          ct_result_string (res) : "none found");
      _exit (77);
    }
    _exit (0);
  }
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return FALSE;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

gint
ct_check_cuda_device_count (void)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid == 0) {
    int count = 0;

    if (ct_device_count (&count) != CT_OK)
      count = 0;
    _exit (count > 100 ? 100 : count);
  }
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return 0;
  return WEXITSTATUS (status);
}
