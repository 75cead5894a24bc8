/* The kernels' test (test-kernels.c): several CUDA contexts in one
 * process and several threads in each, launching at once (contexts). */
#include "kernels-check.h"

#include <cuda.h>
#include <pthread.h>

/* The driver calls the contexts group needs, found through the runtime
 * (the test does not link the driver library). */
typedef struct
{
  CUresult (*ctx_create) (CUcontext *, unsigned int, CUdevice);
  CUresult (*ctx_destroy) (CUcontext);
  CUresult (*ctx_push) (CUcontext);
  CUresult (*ctx_pop) (CUcontext *);
} Driver;

static int
driver_entry (const char *name, unsigned int version, void **fn)
{
  enum cudaDriverEntryPointQueryResult found;

  if (cudaGetDriverEntryPointByVersion (name, fn, version, cudaEnableDefault,
          &found) == cudaSuccess && found == cudaDriverEntryPointSuccess)
    return 1;
  (void) cudaGetLastError ();
  printf ("FAIL: driver entry point %s not found\n", name);
  n_failed++;
  return 0;
}

/* One thread of the concurrent part: @iterations transposes of a plane
 * in @ctx, each over a poisoned destination, checked here against the
 * plain loop; counts into @failed. */
typedef struct
{
  const Driver *drv;
  CUcontext ctx;
  pthread_barrier_t *start;
  CtKernel kernel;
  unsigned int width, height, elem_size, iterations;
  uint64_t seed;
  int passed, failed;
} ContextWorker;

static void *
context_worker (void *data)
{
  ContextWorker *w = data;
  const size_t src_stride = (w->width * w->elem_size + 255) / 256 * 256;
  const size_t dst_stride = (w->height * w->elem_size + 255) / 256 * 256;
  const size_t src_size = src_stride * w->height;
  const size_t dst_size = dst_stride * w->width;
  unsigned char *src = malloc (src_size), *want = malloc (dst_size);
  unsigned char *got = malloc (dst_size);
  void *d_src = NULL, *d_dst = NULL;
  cudaStream_t stream = NULL;
  uint64_t r = w->seed;
  unsigned int i, x, y;
  CUcontext popped;
  CtPlane plane;

  if (src == NULL || want == NULL || got == NULL ||
      w->drv->ctx_push (w->ctx) != CUDA_SUCCESS) {
    w->failed++;
    free (src);
    free (want);
    free (got);
    pthread_barrier_wait (w->start);
    return NULL;
  }
  for (i = 0; i < src_size; i++) {
    r ^= r >> 12;
    r ^= r << 25;
    r ^= r >> 27;
    src[i] = (unsigned char) ((r * UINT64_C (0x2545f4914f6cdd1d)) >> 56);
  }
  memset (want, poisons[0], dst_size);
  for (y = 0; y < w->height; y++)
    for (x = 0; x < w->width; x++)
      memcpy (want + x * dst_stride + (size_t) y * w->elem_size,
          src + y * src_stride + (size_t) x * w->elem_size, w->elem_size);

  if (cudaStreamCreate (&stream) != cudaSuccess ||
      cudaMalloc (&d_src, src_size) != cudaSuccess ||
      cudaMalloc (&d_dst, dst_size) != cudaSuccess ||
      cudaMemcpy (d_src, src, src_size, cudaMemcpyHostToDevice) !=
      cudaSuccess)
    w->failed++;
  plane.src = d_src;
  plane.src_stride = src_stride;
  plane.dst = d_dst;
  plane.dst_stride = dst_stride;
  plane.width = w->width;
  plane.height = w->height;
  plane.elem_size = w->elem_size;

  /* every thread's first launch at once: the race the attribute had */
  pthread_barrier_wait (w->start);
  for (i = 0; w->failed == 0 && i < w->iterations; i++) {
    CtResult res;

    if (cudaMemsetAsync (d_dst, poisons[0], dst_size, stream) !=
        cudaSuccess) {
      w->failed++;
      break;
    }
    res = ct_transpose_planes (&plane, 1, w->kernel, CT_MAPPING_TRANSPOSE,
        (CtStream) stream);
    if (res != CT_OK) {
      printf ("FAIL: contexts: %ux%u %u-byte, kernel %s, launch %u: %s\n",
          w->width, w->height, w->elem_size, ct_kernel_name (w->kernel), i,
          ct_result_string (res));
      w->failed++;
      break;
    }
    if (cudaStreamSynchronize (stream) != cudaSuccess ||
        cudaMemcpy (got, d_dst, dst_size, cudaMemcpyDeviceToHost) !=
        cudaSuccess || memcmp (got, want, dst_size) != 0) {
      printf ("FAIL: contexts: %ux%u %u-byte, kernel %s, launch %u: wrong "
          "output\n", w->width, w->height, w->elem_size,
          ct_kernel_name (w->kernel), i);
      w->failed++;
      break;
    }
    w->passed++;
  }
  if (d_src)
    cudaFree (d_src);
  if (d_dst)
    cudaFree (d_dst);
  if (stream)
    cudaStreamDestroy (stream);
  w->drv->ctx_pop (&popped);
  free (src);
  free (want);
  free (got);
  return NULL;
}

/* Several CUDA contexts in one process, and several threads in each: the
 * wide kernels' shared memory above 48 KB is granted per context. First
 * the same planes in the primary context and then in new ones, one after
 * the other (a grant remembered per device made every launch in the second
 * context fail); then, in fresh contexts, threads whose first launches of
 * one kernel ask for different amounts at once (one could lower the grant
 * under the other). */
void
run_contexts (void)
{
  static const unsigned int shapes[][2] = { {1000, 1500}, {4001, 3499} };
  static const unsigned int sizes[] = { 1, 2, 3, 4, 8 };
  static const int strides[] = { STRIDES_ALIGNED };
  static const CtKernel kernels[] = {
    CT_KERNEL_WIDE_PADDED, CT_KERNEL_WIDE_SWIZZLE, CT_KERNEL_AUTO,
  };
  enum { ROUNDS = 4, CONTEXTS = 2, THREADS = 8 };
  int passed = n_passed, failed = n_failed;
  Driver drv;
  CUcontext ctx[CONTEXTS];
  CUdevice device = 0;
  int dev = 0;
  unsigned int round, c, t;

  /* cuCtxCreate as of CUDA 11.0 takes (flags, device): from 11.4 on the
   * name stands for a form with execution affinity parameters */
  if (!driver_entry ("cuCtxCreate", 11000, (void **) &drv.ctx_create) ||
      !driver_entry ("cuCtxDestroy", 12000, (void **) &drv.ctx_destroy) ||
      !driver_entry ("cuCtxPushCurrent", 12000, (void **) &drv.ctx_push) ||
      !driver_entry ("cuCtxPopCurrent", 12000, (void **) &drv.ctx_pop) ||
      !CHECK (cudaGetDevice (&dev)))
    return;
  device = (CUdevice) dev;

  run_group ("contexts: primary", shapes, N_ELEMENTS (shapes), sizes,
      N_ELEMENTS (sizes), strides, N_ELEMENTS (strides), transpose_only,
      N_ELEMENTS (transpose_only), NULL);
  for (c = 0; c < CONTEXTS; c++) {
    CUcontext popped;
    char what[64];

    CUresult cres = drv.ctx_create (&ctx[c], 0, device);

    if (cres != CUDA_SUCCESS) {
      printf ("FAIL: contexts: cuCtxCreate: error %d\n", (int) cres);
      n_failed++;
      return;
    }
    /* (cuCtxCreate makes it current) */
    snprintf (what, sizeof (what), "contexts: new context %u", c + 1);
    run_group (what, shapes, N_ELEMENTS (shapes), sizes, N_ELEMENTS (sizes),
        strides, N_ELEMENTS (strides), transpose_only,
        N_ELEMENTS (transpose_only), NULL);
    drv.ctx_pop (&popped);
    drv.ctx_destroy (ctx[c]);
  }

  for (round = 0; round < ROUNDS; round++) {
    ContextWorker workers[THREADS];
    pthread_t threads[THREADS];
    pthread_barrier_t start;

    for (c = 0; c < CONTEXTS; c++) {
      CUcontext popped;

      if (drv.ctx_create (&ctx[c], 0, device) != CUDA_SUCCESS) {
        printf ("FAIL: contexts: cuCtxCreate\n");
        n_failed++;
        return;
      }
      drv.ctx_pop (&popped);
    }
    pthread_barrier_init (&start, NULL, THREADS);
    for (t = 0; t < THREADS; t++) {
      ContextWorker *w = &workers[t];

      memset (w, 0, sizeof (*w));
      w->drv = &drv;
      w->ctx = ctx[t % CONTEXTS];
      w->start = &start;
      /* in each context: the padded and swizzled tiles (different shared
       * memory, one kernel) and auto, bytes to 8-byte elements */
      w->kernel = kernels[(t / CONTEXTS + round) % N_ELEMENTS (kernels)];
      w->elem_size = sizes[(t + round) % N_ELEMENTS (sizes)];
      w->width = 1000 + 17 * t;
      w->height = 700 + 5 * round;
      w->iterations = 4;
      w->seed = rng_next () | 1;
      pthread_create (&threads[t], NULL, context_worker, w);
    }
    for (t = 0; t < THREADS; t++) {
      pthread_join (threads[t], NULL);
      n_passed += workers[t].passed;
      n_failed += workers[t].failed;
    }
    pthread_barrier_destroy (&start);
    for (c = 0; c < CONTEXTS; c++)
      drv.ctx_destroy (ctx[c]);
  }
  printf ("contexts: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}
