/* Fault injection for the cudatranspose element's tests (never built into
 * the plugin). libct-fault.so, loaded with LD_PRELOAD before the plugin,
 * defines the functions the plugin calls for device and pinned memory,
 * kernel launches and CUDA context pushes; each passes the call to the
 * plugin's (or GStreamer's) own function unless a failure is armed, and
 * counts what is allocated and freed. A test reaches these functions with
 * dlsym (RTLD_DEFAULT, ...): NULL means the library is not loaded. */
#pragma once

typedef enum
{
  CT_FAULT_DEVICE_ALLOC,        /* ct_device_alloc: out of memory */
  CT_FAULT_HOST_ALLOC,          /* ct_host_alloc: out of memory */
  CT_FAULT_LAUNCH,              /* ct_transpose_batches_ex, ct_permute_ex:
                                 * too many resources requested for launch */
  CT_FAULT_CONTEXT_PUSH,        /* gst_cuda_context_push: FALSE */
  CT_FAULT_N
} CtFault;

/* The next @times calls of @what fail. */
void ct_fault_arm (CtFault what, int times);
/* Failures of @what injected so far. */
int ct_fault_injected (CtFault what);
/* Device (ct_device_alloc) and pinned host (ct_host_alloc) blocks
 * allocated and not yet freed. */
long ct_fault_live_device (void);
long ct_fault_live_host (void);
/* Calls of @what passed through (not failed) so far. */
int ct_fault_passed (CtFault what);
