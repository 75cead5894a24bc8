/* Times every GPU transpose variant on the kernels' C API against a
 * device-to-device copy of the same bytes, measured in the same run.
 *
 *   bench-kernels [REPEATS]
 *
 * CUDA events, warm-up, median of REPEATS (default 20). Bandwidth counts
 * bytes read plus bytes written. Every result is checked against a
 * reference transpose on the host before it is timed. Exits 77 without a
 * device.
 */
#include "cudatranspose-kernels.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

typedef struct
{
  unsigned int w, h, es;
} Shape;

static const Shape shapes[] = {
  {16384, 16384, 1}, {3840, 2160, 1}, {1920, 1080, 1},
  {8192, 8192, 2}, {1920, 1080, 2},
  {8192, 8192, 3}, {1920, 1080, 3},
  {8192, 8192, 4}, {8000, 6000, 4}, {1920, 1080, 4},
  {8192, 4096, 8},
};

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return x < y ? -1 : x > y;
}

/* Median milliseconds of @reps runs of a kernel (or of a copy, kernel < 0). */
static float
time_it (int kernel, CtPlane * plane, cudaStream_t s, int reps)
{
  cudaEvent_t a, b;
  float *ms = calloc (reps, sizeof (float)), med;
  int i;

  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  for (i = -3; i < reps; i++) {
    CHECK (cudaEventRecord (a, s));
    if (kernel < 0) {
      CHECK (cudaMemcpyAsync (plane->dst, plane->src,
              (size_t) plane->width * plane->height * plane->elem_size,
              cudaMemcpyDeviceToDevice, s));
    } else {
      CtResult r = ct_transpose_planes (plane, 1, (CtKernel) kernel,
          CT_MAPPING_TRANSPOSE, (CtStream) s);
      if (r != CT_OK) {
        fprintf (stderr, "%s: %s\n", ct_kernel_name (kernel),
            ct_result_string (r));
        exit (1);
      }
    }
    CHECK (cudaEventRecord (b, s));
    CHECK (cudaEventSynchronize (b));
    if (i >= 0)
      CHECK (cudaEventElapsedTime (&ms[i], a, b));
  }
  qsort (ms, reps, sizeof (float), cmp_float);
  med = ms[reps / 2];
  free (ms);
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
  return med;
}

static int
verify (const unsigned char *src, const unsigned char *dst, const Shape * sh)
{
  size_t x, y;

  for (y = 0; y < sh->h; y += 1 + sh->h / 257)
    for (x = 0; x < sh->w; x++)
      if (memcmp (src + (y * sh->w + x) * sh->es,
              dst + (x * sh->h + y) * sh->es, sh->es) != 0)
        return 0;
  return 1;
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 20;
  int count = 0;
  unsigned int i;
  cudaStream_t s;

  if (reps < 1)
    reps = 20;
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0) {
    printf ("SKIP: no CUDA device\n");
    return 77;
  }
  CHECK (cudaStreamCreate (&s));
  printf ("%-12s %2s %-13s %9s %8s %7s %7s\n", "shape", "B", "variant", "us",
      "GB/s", "x copy", "x naive");

  for (i = 0; i < sizeof (shapes) / sizeof (shapes[0]); i++) {
    const Shape *sh = &shapes[i];
    size_t bytes = (size_t) sh->w * sh->h * sh->es;
    unsigned char *host = malloc (bytes), *back = malloc (bytes);
    void *src, *dst;
    CtPlane plane;
    float copy_ms, naive_ms = 0;
    int k;
    size_t j;

    for (j = 0; j < bytes; j++)
      host[j] = (unsigned char) (rand () >> 7);
    CHECK (cudaMalloc (&src, bytes));
    CHECK (cudaMalloc (&dst, bytes));
    CHECK (cudaMemcpy (src, host, bytes, cudaMemcpyHostToDevice));
    plane.src = src;
    plane.dst = dst;
    plane.width = sh->w;
    plane.height = sh->h;
    plane.elem_size = sh->es;
    plane.src_stride = (size_t) sh->w * sh->es;
    plane.dst_stride = (size_t) sh->h * sh->es;

    copy_ms = time_it (-1, &plane, s, reps);
    for (k = CT_KERNEL_NAIVE; k < CT_KERNEL_CPU; k++) {
      float ms;

      CHECK (cudaMemset (dst, 0xa5, bytes));
      if (ct_transpose_planes (&plane, 1, k, CT_MAPPING_TRANSPOSE,
              (CtStream) s) != CT_OK)
        return 1;
      CHECK (cudaMemcpyAsync (back, dst, bytes, cudaMemcpyDeviceToHost, s));
      CHECK (cudaStreamSynchronize (s));
      if (!verify (host, back, sh)) {
        printf ("%ux%u %uB %s: WRONG RESULT\n", sh->w, sh->h, sh->es,
            ct_kernel_name (k));
        return 1;
      }
      ms = time_it (k, &plane, s, reps);
      if (k == CT_KERNEL_NAIVE)
        naive_ms = ms;
      printf ("%5ux%-6u %2u %-13s %9.1f %8.0f %7.2f %7.2f\n", sh->w, sh->h,
          sh->es, ct_kernel_name (k), ms * 1e3, 2.0 * bytes / ms / 1e6,
          copy_ms / ms, naive_ms / ms);
    }
    printf ("%5ux%-6u %2u %-13s %9.1f %8.0f\n", sh->w, sh->h, sh->es, "copy",
        copy_ms * 1e3, 2.0 * bytes / copy_ms / 1e6);
    CHECK (cudaFree (src));
    CHECK (cudaFree (dst));
    free (host);
    free (back);
  }
  CHECK (cudaStreamDestroy (s));
  return 0;
}
