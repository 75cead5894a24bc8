/* The peers bench-kernels times our kernels against: cuBLAS's cublasSgeam
 * and NPP's nppiTranspose, opened with dlopen so that the benchmark builds
 * and runs without them. */
#include "peers.h"

#include <dlfcn.h>
#include <stdio.h>

#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

typedef int (*CublasCreateFn) (void **);
typedef int (*CublasSetStreamFn) (void *, cudaStream_t);
typedef int (*CublasSgeamFn) (void *, int, int, int, int, const float *,
    const float *, int, const float *, const float *, int, float *, int);

typedef struct
{
  int width, height;
} NppSize;

/* NppStreamContext as nppdefs.h (CUDA 11 to 13) lays it out. */
typedef struct
{
  cudaStream_t stream;
  int device_id;
  int sm_count;
  int max_threads_per_sm;
  int max_threads_per_block;
  size_t shared_mem_per_block;
  int cc_major;
  int cc_minor;
  unsigned int stream_flags;
  int reserved0;
} NppContext;

typedef int (*NppTransposeFn) (const void *, int, void *, int, NppSize,
    NppContext);

static void *cublas_handle;
static CublasSgeamFn cublas_sgeam;
static NppTransposeFn npp_transpose[9];
static const char *npp_names[9];
static NppContext npp_ctx;
static char note[512];

static void *
open_lib (const char *const *names, unsigned int n)
{
  unsigned int i;

  for (i = 0; i < n; i++) {
    void *h = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
    if (h != NULL)
      return h;
  }
  return NULL;
}

const char *
peers_open (cudaStream_t s, int device)
{
  static const char *const cublas_libs[] = {
    "libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13",
    "/usr/local/cuda/lib64/libcublas.so",
  };
  static const char *const npp_libs[] = {
    "libnppidei.so.13", "libnppidei.so",
    "/usr/local/cuda/lib64/libnppidei.so.13",
    "/usr/local/cuda/lib64/libnppidei.so",
  };
  /* element size -> NPP function moving pixels of that size */
  static const struct
  {
    unsigned int es;
    const char *fn;
  } npp_fns[] = {
    {1, "nppiTranspose_8u_C1R_Ctx"}, {2, "nppiTranspose_16u_C1R_Ctx"},
    {3, "nppiTranspose_8u_C3R_Ctx"}, {4, "nppiTranspose_32f_C1R_Ctx"},
    {8, "nppiTranspose_16u_C4R_Ctx"},
  };
  struct cudaDeviceProp prop;
  void *npp;
  unsigned int i;
  size_t len = 0;

  void *cublas = open_lib (cublas_libs, N_ELEMENTS (cublas_libs));
  if (cublas != NULL) {
    CublasCreateFn create = (CublasCreateFn) dlsym (cublas, "cublasCreate_v2");
    CublasSetStreamFn set_stream =
        (CublasSetStreamFn) dlsym (cublas, "cublasSetStream_v2");
    void *handle = NULL;

    cublas_sgeam = (CublasSgeamFn) dlsym (cublas, "cublasSgeam");
    if (create == NULL || set_stream == NULL || cublas_sgeam == NULL ||
        create (&handle) != 0 || set_stream (handle, s) != 0) {
      cublas_sgeam = NULL;
    } else {
      cublas_handle = handle;
    }
  }
  len += snprintf (note + len, sizeof (note) - len,
      "cuBLAS: %s; ", cublas_sgeam != NULL ? "cublasSgeam" : "not found");

  npp = open_lib (npp_libs, N_ELEMENTS (npp_libs));
  /* (without the device's properties NPP has no context: left out) */
  if (npp != NULL && cudaGetDeviceProperties (&prop, device) != cudaSuccess)
    npp = NULL;
  if (npp != NULL) {
    npp_ctx.stream = s;
    npp_ctx.device_id = device;
    npp_ctx.sm_count = prop.multiProcessorCount;
    npp_ctx.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    npp_ctx.max_threads_per_block = prop.maxThreadsPerBlock;
    npp_ctx.shared_mem_per_block = prop.sharedMemPerBlock;
    npp_ctx.cc_major = prop.major;
    npp_ctx.cc_minor = prop.minor;
    for (i = 0; i < N_ELEMENTS (npp_fns); i++) {
      npp_transpose[npp_fns[i].es] =
          (NppTransposeFn) dlsym (npp, npp_fns[i].fn);
      if (npp_transpose[npp_fns[i].es] != NULL)
        npp_names[npp_fns[i].es] = npp_fns[i].fn;
    }
  }
  snprintf (note + len, sizeof (note) - len, "NPP: %s",
      npp == NULL ? "not found" : "nppiTranspose");
  return note;
}

int
peers_have_cublas (void)
{
  return cublas_sgeam != NULL;
}

int
peers_have_npp (unsigned int es)
{
  return es < N_ELEMENTS (npp_transpose) && npp_transpose[es] != NULL;
}

int
peers_cublas_transpose (const CtPlane * p)
{
  /* a row-major W x H plane is a column-major W x H matrix with
   * ld = stride; C (H x W column-major) = A^T, with B = C, beta = 0 */
  const float one = 1.0f, zero = 0.0f;
  int st = cublas_sgeam (cublas_handle, 1, 0, (int) p->height, (int) p->width,
      &one, (const float *) p->src, (int) (p->src_stride / 4), &zero,
      (const float *) p->dst, (int) (p->dst_stride / 4), (float *) p->dst,
      (int) (p->dst_stride / 4));

  if (st != 0)
    fprintf (stderr, "cublasSgeam failed: status %d\n", st);
  return st == 0;
}

int
peers_npp_transpose (const CtPlane * p)
{
  NppSize roi = { (int) p->width, (int) p->height };
  int st = npp_transpose[p->elem_size] (p->src, (int) p->src_stride,
      p->dst, (int) p->dst_stride, roi, npp_ctx);

  if (st != 0)
    fprintf (stderr, "%s failed: status %d\n", npp_names[p->elem_size], st);
  return st == 0;
}
