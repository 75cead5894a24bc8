/* count-syncs: how many times a program waits for the GPU on the host,
 * counted by CUPTI (NVIDIA's profiling interface) outside the program
 * under test, whatever library calls the wait and however it found the
 * CUDA entry point (GStreamer loads the driver with dlopen).
 *
 *   LD_PRELOAD=build/bench/libcount-syncs.so gst-launch-1.0 ...
 *
 * At exit it prints to stderr one line:
 *   count-syncs: driver stream N, context N, event N; runtime stream N,
 *   device N, event N
 * the calls of cuStreamSynchronize, cuCtxSynchronize, cuEventSynchronize
 * (driver API) and cudaStreamSynchronize, cudaDeviceSynchronize,
 * cudaEventSynchronize (runtime API; the runtime calls the driver's too).
 * A pipeline with the element against the same pipeline without it gives
 * the element's own waits.
 *
 * With COUNT_SYNCS_CALLERS=1 it also says who waited: for each wait, the
 * first three frames of its call stack outside the CUDA and CUPTI
 * libraries, as library!symbol+offset (the nearest exported symbol, so a
 * static function shows as the one before it) and the offset in the
 * library (for objdump), and how many waits came
 * from there, most first. */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{ D_STREAM, D_CTX, D_EVENT, R_STREAM, R_DEVICE, R_EVENT, N_COUNTS };

static atomic_ulong counts[N_COUNTS];
static CUpti_SubscriberHandle subscriber;
static int subscribed;

/* COUNT_SYNCS_CALLERS: waits by caller */
#define MAX_CALLERS 64
#define CALLER_FRAMES 3
typedef struct
{
  void *frames[CALLER_FRAMES];
  int which;
  unsigned long n;
} Caller;
static Caller callers[MAX_CALLERS];
static int n_callers, callers_on;
static unsigned long callers_lost;
static pthread_mutex_t callers_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether @pc lies in a library whose frames say nothing about the
 * caller: CUDA's, CUPTI's or this one. */
static int
is_cuda_frame (void *pc)
{
  Dl_info info;
  const char *base;

  if (!dladdr (pc, &info) || !info.dli_fname)
    return 0;
  base = strrchr (info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  return strncmp (base, "libcuda", 7) == 0 ||
      strncmp (base, "libcupti", 8) == 0 ||
      strncmp (base, "libcudart", 9) == 0 ||
      strncmp (base, "libcount-syncs", 14) == 0;
}

static void
note_caller (int which)
{
  void *stack[48], *frames[CALLER_FRAMES] = { NULL };
  int depth = backtrace (stack, 48), i, k = 0;

  for (i = 1; i < depth && k < CALLER_FRAMES; i++)
    if (!is_cuda_frame (stack[i]))
      frames[k++] = stack[i];
  pthread_mutex_lock (&callers_lock);
  for (i = 0; i < n_callers; i++)
    if (callers[i].which == which &&
        memcmp (callers[i].frames, frames, sizeof (frames)) == 0)
      break;
  if (i == n_callers && n_callers < MAX_CALLERS) {
    memcpy (callers[i].frames, frames, sizeof (frames));
    callers[i].which = which;
    n_callers++;
  }
  if (i < n_callers)
    callers[i].n++;
  else
    callers_lost++;
  pthread_mutex_unlock (&callers_lock);
}

static const char *count_names[] = {
  "driver stream", "driver context", "driver event", "runtime stream",
  "runtime device", "runtime event"
};

static int
by_count (const void *a, const void *b)
{
  const Caller *x = a, *y = b;

  return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static void
print_callers (void)
{
  int i, k;

  qsort (callers, n_callers, sizeof (Caller), by_count);
  for (i = 0; i < n_callers; i++) {
    fprintf (stderr, "count-syncs: %lu %s from", callers[i].n,
        count_names[callers[i].which]);
    for (k = 0; k < CALLER_FRAMES && callers[i].frames[k]; k++) {
      Dl_info info;
      const char *lib = "?", *sym = "?";
      void *base = callers[i].frames[k], *fbase = NULL;

      if (dladdr (callers[i].frames[k], &info)) {
        lib = info.dli_fname ? strrchr (info.dli_fname, '/') ?
            strrchr (info.dli_fname, '/') + 1 : info.dli_fname : "?";
        fbase = info.dli_fbase;
        if (info.dli_sname) {
          sym = info.dli_sname;
          base = info.dli_saddr;
        } else {
          base = info.dli_fbase;
        }
      }
      fprintf (stderr, "%s %s!%s+0x%lx (@0x%lx)", k ? " <-" : "", lib, sym,
          (unsigned long) ((char *) callers[i].frames[k] - (char *) base),
          (unsigned long) ((char *) callers[i].frames[k] - (char *) fbase));
    }
    fprintf (stderr, "\n");
  }
  if (callers_lost)
    fprintf (stderr, "count-syncs: %lu waits from further callers\n",
        callers_lost);
}

static void CUPTIAPI
on_call (void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
    const void *info)
{
  const CUpti_CallbackData *call = info;
  int which = -1;

  (void) data;
  if (call->callbackSite != CUPTI_API_ENTER)
    return;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (id == CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize ||
        id == CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz)
      which = D_STREAM;
    else if (id == CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize)
      which = D_CTX;
    else if (id == CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize)
      which = D_EVENT;
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020 ||
        id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000)
      which = R_STREAM;
    else if (id == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020)
      which = R_DEVICE;
    else if (id == CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020)
      which = R_EVENT;
  }
  if (which >= 0) {
    atomic_fetch_add (&counts[which], 1);
    if (callers_on)
      note_caller (which);
  }
}

__attribute__((constructor))
static void
count_start (void)
{
  if (cuptiSubscribe (&subscriber, on_call, NULL) != CUPTI_SUCCESS) {
    fprintf (stderr, "count-syncs: CUPTI refused the subscription: "
        "nothing is counted\n");
    return;
  }
  subscribed = 1;
  callers_on = getenv ("COUNT_SYNCS_CALLERS") != NULL &&
      strcmp (getenv ("COUNT_SYNCS_CALLERS"), "0") != 0;
  if (cuptiEnableDomain (1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) !=
      CUPTI_SUCCESS ||
      cuptiEnableDomain (1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) !=
      CUPTI_SUCCESS)
    fprintf (stderr, "count-syncs: CUPTI refused a domain: counts are "
        "short\n");
}

__attribute__((destructor))
static void
count_stop (void)
{
  if (!subscribed)
    return;
  fprintf (stderr, "count-syncs: driver stream %lu, context %lu, event %lu; "
      "runtime stream %lu, device %lu, event %lu\n",
      atomic_load (&counts[D_STREAM]), atomic_load (&counts[D_CTX]),
      atomic_load (&counts[D_EVENT]), atomic_load (&counts[R_STREAM]),
      atomic_load (&counts[R_DEVICE]), atomic_load (&counts[R_EVENT]));
  if (callers_on)
    print_callers ();
  cuptiUnsubscribe (subscriber);
}
