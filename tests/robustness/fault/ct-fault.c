/* Test-only fault injection for cudatranspose: see ct-fault.h. The plugin
 * calls these functions through its PLT, so a definition loaded first (by
 * LD_PRELOAD) takes the calls; the real one is looked up in the library
 * that defines it, found among those loaded (the plugin is opened with
 * local binding, so RTLD_NEXT would not see it). */
#define _GNU_SOURCE
#include "ct-fault.h"

#include "cudatranspose-kernels.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

static atomic_int armed[CT_FAULT_N];
static atomic_int injected[CT_FAULT_N];
static atomic_int passed[CT_FAULT_N];
static atomic_long live_device;
static atomic_long live_host;

void
ct_fault_arm (CtFault what, int times)
{
  atomic_store (&armed[what], times);
}

int
ct_fault_injected (CtFault what)
{
  return atomic_load (&injected[what]);
}

int
ct_fault_passed (CtFault what)
{
  return atomic_load (&passed[what]);
}

long
ct_fault_live_device (void)
{
  return atomic_load (&live_device);
}

long
ct_fault_live_host (void)
{
  return atomic_load (&live_host);
}

/* Whether this call of @what is to fail (one armed failure used). */
static int
take (CtFault what)
{
  int n = atomic_load (&armed[what]);

  while (n > 0 && !atomic_compare_exchange_weak (&armed[what], &n, n - 1));
  if (n > 0) {
    atomic_fetch_add (&injected[what], 1);
    return 1;
  }
  atomic_fetch_add (&passed[what], 1);
  return 0;
}

typedef struct
{
  const char *lib;
  char path[4096];
} Find;

static int
find_library (struct dl_phdr_info *info, size_t size, void *data)
{
  Find *f = data;

  (void) size;
  if (info->dlpi_name && strstr (info->dlpi_name, f->lib)) {
    strncpy (f->path, info->dlpi_name, sizeof (f->path) - 1);
    return 1;
  }
  return 0;
}

/* @name as defined in the loaded library whose file name holds @lib. */
static void *
real (const char *lib, const char *name)
{
  Find f = { lib, "" };
  void *handle, *fn = NULL;

  dl_iterate_phdr (find_library, &f);
  if (!f.path[0])
    return NULL;
  handle = dlopen (f.path, RTLD_LAZY | RTLD_NOLOAD);
  if (handle) {
    fn = dlsym (handle, name);
    dlclose (handle);
  }
  return fn;
}

#define PLUGIN "libgstcudatranspose"
/* the real function, found once (a race finds the same one) */
#define REAL(lib, name, type) \
  static type fn_; \
  if (!fn_) \
    fn_ = (type) real (lib, name)

typedef CtResult (*AllocFn) (void **, size_t);
typedef CtResult (*FreeFn) (void *);
typedef CtResult (*BatchesFn) (const CtPlaneBatch *, unsigned int, CtKernel,
    CtPath, CtMapping, CtStream, CtPath *);
typedef CtResult (*PermuteFn) (const void *, void *,
    const unsigned long long *, unsigned int, const unsigned int *, CtStream,
    CtPath *);
typedef int (*PushFn) (void *);

/* An allocation through @fn, failed when @what is armed, counted in
 * @live when it succeeds. */
static CtResult
counted_alloc (AllocFn fn, CtFault what, atomic_long * live, void **ptr,
    size_t bytes)
{
  CtResult res;

  *ptr = NULL;
  if (take (what) || !fn)
    return (CtResult) cudaErrorMemoryAllocation;
  res = fn (ptr, bytes);
  if (res == CT_OK)
    atomic_fetch_add (live, 1);
  return res;
}

static CtResult
counted_free (FreeFn fn, atomic_long * live, void *ptr)
{
  CtResult res;

  if (!fn)
    return CT_ERROR_INVALID_ARGUMENT;
  res = fn (ptr);
  if (res == CT_OK && ptr)
    atomic_fetch_sub (live, 1);
  return res;
}

CtResult
ct_device_alloc (void **ptr, size_t bytes)
{
  REAL (PLUGIN, "ct_device_alloc", AllocFn);
  return counted_alloc (fn_, CT_FAULT_DEVICE_ALLOC, &live_device, ptr, bytes);
}

CtResult
ct_device_free (void *ptr)
{
  REAL (PLUGIN, "ct_device_free", FreeFn);
  return counted_free (fn_, &live_device, ptr);
}

CtResult
ct_host_alloc (void **ptr, size_t bytes)
{
  REAL (PLUGIN, "ct_host_alloc", AllocFn);
  return counted_alloc (fn_, CT_FAULT_HOST_ALLOC, &live_host, ptr, bytes);
}

CtResult
ct_host_free (void *ptr)
{
  REAL (PLUGIN, "ct_host_free", FreeFn);
  return counted_free (fn_, &live_host, ptr);
}

/* (the element's calls: the _ex ones) */
CtResult
ct_transpose_batches_ex (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtPath force, CtMapping mapping, CtStream stream,
    CtPath * ran)
{
  REAL (PLUGIN, "ct_transpose_batches_ex", BatchesFn);

  if (take (CT_FAULT_LAUNCH) || !fn_)
    return (CtResult) cudaErrorLaunchOutOfResources;
  return fn_ (batches, n_batches, kernel, force, mapping, stream, ran);
}

CtResult
ct_permute_ex (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4], CtStream stream,
    CtPath * ran)
{
  REAL (PLUGIN, "ct_permute_ex", PermuteFn);

  if (take (CT_FAULT_LAUNCH) || !fn_)
    return (CtResult) cudaErrorLaunchOutOfResources;
  return fn_ (src, dst, dims, elem_size, perm, stream, ran);
}

/* GStreamer's, from libgstcuda (gboolean is an int) */
int gst_cuda_context_push (void *ctx);

int
gst_cuda_context_push (void *ctx)
{
  REAL ("libgstcuda-1.0", "gst_cuda_context_push", PushFn);

  if (take (CT_FAULT_CONTEXT_PUSH) || !fn_)
    return 0;
  return fn_ (ctx);
}
