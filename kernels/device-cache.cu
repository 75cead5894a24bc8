/* cudatranspose: the kernels' host-side caches of the device and the
 * context (device-cache.h): the dynamic shared memory a kernel may take
 * in the current context, and each device's attributes the planners read.
 * Host code only. */
#include "device-cache.h"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <mutex>

namespace {

using ct::cached_attribute;
using ct::kMaxDevices;
using ct::kSmemSlots;

/* The dynamic shared memory a kernel may take above 48 KB is an attribute
 * of the kernel in each CUDA context (each loads its own copy of the
 * module), and a launch asking for more than it allows fails. So it is
 * only ever raised, under one lock, to what a launch needs, after reading
 * it back from the current context: concurrent calls never lower it under
 * each other, and a context new to the process starts from its own value.
 * Each thread remembers, per context (by its id, unique for the life of
 * the process) and kernel slot, a value the attribute has reached, so a
 * launch that needs no more takes neither the lock nor the driver.
 * The slots are the callers' (transpose-wide.cu's launch_kernel says
 * which kernel has which). */
constexpr int kKnownContexts = 4;

struct KnownContext
{
  unsigned long long id;        /* 0: unused */
  int allowed[kSmemSlots];
};

thread_local KnownContext known_contexts[kKnownContexts];
thread_local unsigned int known_next;
std::mutex smem_lock;

typedef CUresult (*CtxGetIdFn) (CUcontext, unsigned long long *);

/* The current context's id, or 0 when the driver cannot tell (nothing is
 * remembered then). */
unsigned long long
current_context_id ()
{
  static const CtxGetIdFn get_id = [] {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    /* cuCtxGetId came with CUDA 12.0 */
    if (cudaGetDriverEntryPointByVersion ("cuCtxGetId", &fn, 12000,
            cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void) cudaGetLastError ();
      fn = nullptr;
    }
    return reinterpret_cast<CtxGetIdFn> (fn);
  } ();
  unsigned long long id = 0;

  if (get_id == nullptr || get_id (nullptr, &id) != CUDA_SUCCESS)
    return 0;
  return id;
}

}  // namespace

/* (device-cache.h) */
CtResult
ct::allow_smem (const void *kernel, int slot, size_t smem)
{
  const unsigned long long id = current_context_id ();
  KnownContext *known = nullptr;
  int now;

  for (int i = 0; id != 0 && i < kKnownContexts; i++)
    if (known_contexts[i].id == id)
      known = &known_contexts[i];
  if (known != nullptr && known->allowed[slot] >= (int) smem)
    return CT_OK;
  {
    std::lock_guard<std::mutex> hold (smem_lock);
    cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes (&attr, kernel);
    if (err != cudaSuccess)
      return (CtResult) err;
    now = attr.maxDynamicSharedSizeBytes;
    if (now < (int) smem) {
      err = cudaFuncSetAttribute (kernel,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
      if (err != cudaSuccess)
        return (CtResult) err;
      now = (int) smem;
    }
  }
  if (id != 0 && known == nullptr) {
    known = &known_contexts[known_next++ % kKnownContexts];
    *known = KnownContext {};
    known->id = id;
  }
  if (known != nullptr)
    known->allowed[slot] = now;
  return CT_OK;
}

/* Each device's attributes the planners read (of the device, whatever the
 * context): the opt-in shared-memory limit, the multiprocessors and their
 * shared memory, the L2. The one cache of them in the kernels. */
namespace {

std::atomic<int> optin_limit[kMaxDevices];
std::atomic<int> sm_count[kMaxDevices];
std::atomic<int> sm_smem[kMaxDevices];
std::atomic<int> reserved_smem[kMaxDevices];
std::atomic<int> l2_size[kMaxDevices];

}  // namespace

extern "C" CtResult
ct_device_now (CtPlanDevice * d)
{
  int device = 0, limit = 0, n_sms = 0, per_sm = 0, reserved = 0, l2 = 0;
  CtResult res = (CtResult) cudaGetDevice (&device);

  if (res == CT_OK)
    res = cached_attribute (optin_limit,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, device, &limit);
  if (res == CT_OK)
    res = cached_attribute (sm_count, cudaDevAttrMultiProcessorCount, device,
        &n_sms);
  if (res == CT_OK)
    res = cached_attribute (sm_smem,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, device, &per_sm);
  if (res == CT_OK)
    res = cached_attribute (reserved_smem,
        cudaDevAttrReservedSharedMemoryPerBlock, device, &reserved);
  if (res == CT_OK)
    res = cached_attribute (l2_size, cudaDevAttrL2CacheSize, device, &l2);
  *d = CtPlanDevice { (size_t) limit, (size_t) per_sm, (size_t) reserved,
    (unsigned int) n_sms, (size_t) l2 };
  return res;
}

