/* cudatranspose: the kernels' C API against a per-element reference loop.
 *
 * Every GPU variant runs on random planes of every element size, with padded,
 * odd and offset strides and every mapping, then on multi-plane frames and
 * on planes tall or wide enough to make the kernels loop past the grid's y
 * limit. Each run happens twice, over a destination poisoned with 0xa5 and
 * then with 0x5a, and the whole destination allocation (the planes, their row
 * padding, the gaps before them and a guard after them) must equal the
 * reference byte for byte: a byte a kernel failed to write, or wrote where
 * it should not, cannot match under both poisons.
 *
 * Exit status: 0 all passed, 1 something failed, 77 no CUDA device (skip).
 * An optional argument replaces the random seed; a second one, a list of
 * words separated by '|', runs only the groups whose names contain one of
 * them, e.g. "large shapes, flips|4:2:2" (compute-sanitizer's racecheck
 * runs the groups in parallel processes this way: tools/gpu-host.sh).
 *
 * This file: main (the seed and the group filter), the tally and its
 * summary, the checked CUDA call, the random generator and the groups in
 * the order they run. The harness is test-kernels-frames.c (the mappings
 * in test-kernels-directions.c); the groups are in test-kernels-shapes.c,
 * -paths.c, -batches.c, -permute.c, -422.c and -contexts.c, all sharing
 * kernels-check.h.
 */
#include "kernels-check.h"

#include <inttypes.h>
#include <time.h>

#define DEFAULT_SEED UINT64_C (0x9e3779b97f4a7c15)

int n_passed;
int n_failed;
static uint64_t rng_state;
static const char *only_groups;

/* Whether group @what is to run (only_groups). */
int
wanted (const char *what)
{
  const char *at = only_groups;

  while (at != NULL && *at) {
    const char *end = strchr (at, '|');
    size_t len = end ? (size_t) (end - at) : strlen (at);
    char word[64];

    if (len > 0 && len < sizeof (word)) {
      memcpy (word, at, len);
      word[len] = '\0';
      if (strstr (what, word) != NULL)
        return 1;
    }
    at = end ? end + 1 : NULL;
  }
  return only_groups == NULL;
}

/* Seconds since the previous call (the first: since the start). */
double
lap_seconds (void)
{
  static struct timespec last;
  struct timespec now;
  double d;

  clock_gettime (CLOCK_MONOTONIC, &now);
  d = last.tv_sec == 0 ? 0 : (now.tv_sec - last.tv_sec) +
      (now.tv_nsec - last.tv_nsec) / 1e9;
  last = now;
  return d;
}

static void
print_summary (void)
{
  printf ("%d passed, %d failed\n", n_passed, n_failed);
}

/* After a kernel fault the context is dead and every later call would fail
 * too, so stop there rather than report thousands of copies of it. */
void
stop_if_context_broken (void)
{
  cudaError_t err;

  (void) cudaGetLastError ();
  err = cudaDeviceSynchronize ();
  if (err != cudaSuccess) {
    printf ("the CUDA context is unusable (%s); stopping\n",
        cudaGetErrorString (err));
    print_summary ();
    exit (1);
  }
}

/* Prints and counts a failed CUDA call; returns nonzero on success. */
int
check_cuda (cudaError_t err, const char *call, const char *file, int line)
{
  if (err == cudaSuccess)
    return 1;
  printf ("%s:%d: %s: %s\n", file, line, call, cudaGetErrorString (err));
  n_failed++;
  stop_if_context_broken ();
  return 0;
}

/* The seeded generator (random-fill.h): a fixed seed makes any failure
 * reproducible. */
uint64_t
rng_next (void)
{
  return ct_ref_random (&rng_state);
}

void
fill_random (unsigned char *buf, size_t size)
{
  ct_ref_fill_random (&rng_state, buf, size);
}

void
expect_result (const char *what, CtResult got, CtResult want)
{
  if (got == want) {
    n_passed++;
    return;
  }
  printf ("FAIL: %s: returned %d (%s), want %d (%s)\n", what, got,
      ct_result_string (got), want, ct_result_string (want));
  n_failed++;
}

void
expect_string (const char *what, const char *s)
{
  if (s != NULL && s[0] != '\0') {
    n_passed++;
    return;
  }
  printf ("FAIL: %s: %s string\n", what, s == NULL ? "NULL" : "empty");
  n_failed++;
}

int
main (int argc, char **argv)
{
  int n_devices = 0, device = 0;
  uint64_t seed = DEFAULT_SEED;
  struct cudaDeviceProp prop;
  cudaStream_t stream = NULL;
  CtResult res;

  res = ct_device_count (&n_devices);
  if (res != CT_OK || n_devices == 0) {
    printf ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
        ct_result_string (res) : "none found");
    return 77;
  }

  if (argc > 1)
    seed = strtoull (argv[1], NULL, 0);
  if (argc > 2)
    only_groups = argv[2];
  /* (0: the default seed) */
  if (seed == 0)
    seed = DEFAULT_SEED;
  rng_state = seed;
  printf ("seed 0x%016" PRIx64 "\n", seed);

  if (CHECK (cudaGetDevice (&device)) &&
      CHECK (cudaGetDeviceProperties (&prop, device)))
    printf ("device %d: %s\n", device, prop.name);
  if (!CHECK (cudaStreamCreate (&stream))) {
    print_summary ();
    return 1;
  }

  (void) lap_seconds ();
  if (wanted ("names"))
    test_names ();
  if (wanted ("argument checks"))
    test_arguments (stream);

  run_shape_groups (stream);
  run_paths (stream);
  if (wanted ("multi-plane frames"))
    run_frames (stream);
  run_batches (stream);
  if (wanted ("permutations"))
    run_permutations (stream);
  if (wanted ("channels"))
    run_channels (stream);
  if (wanted ("arithmetic"))
    run_arith (stream);
  if (wanted ("4:2:2"))
    run_422 (stream);
  if (wanted ("contexts"))
    run_contexts ();

  CHECK (cudaStreamDestroy (stream));
  print_summary ();
  return n_failed == 0 ? 0 : 1;
}
