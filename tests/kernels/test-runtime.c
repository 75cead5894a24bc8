/* cudatranspose: what the runtime wrappers say about the machine, checked
 * against the test's own look at it. Runs everywhere (no GPU needed):
 * without a driver ct_device_count () must say so, not that the driver
 * is too old (the CUDA runtime's own words for a missing driver). */
#include "cudatranspose-kernels-tests.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int
main (void)
{
  void *driver = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  int count = -1, failed = 0;
  CtResult res = ct_device_count (&count);
  const char *text = ct_result_string (res);

  printf ("driver library %s; ct_device_count: %d, %d device(s): %s\n",
      driver ? "present" : "absent", res, count, text);
  if (!driver) {
    /* no driver: that reason, in those words, and no devices */
    failed |= res != CT_ERROR_NO_DRIVER || count != 0 ||
        strstr (text, "no NVIDIA driver") == NULL;
  } else {
    /* a driver: any other answer (devices, none visible, an old driver) */
    failed |= res == CT_ERROR_NO_DRIVER || (res == CT_OK && count < 0) ||
        (res != CT_OK && count != 0);
    dlclose (driver);
  }
  printf ("%s\n", failed ? "FAILED" : "passed");
  return failed;
}
