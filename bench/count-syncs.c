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
 * the element's own waits. */
#include <cupti.h>
#include <stdatomic.h>
#include <stdio.h>

enum
{ D_STREAM, D_CTX, D_EVENT, R_STREAM, R_DEVICE, R_EVENT, N_COUNTS };

static atomic_ulong counts[N_COUNTS];
static CUpti_SubscriberHandle subscriber;
static int subscribed;

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
  if (which >= 0)
    atomic_fetch_add (&counts[which], 1);
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
  cuptiUnsubscribe (subscriber);
}
