/* cudatranspose: the planner of the one-launch variants (wide-planner.cuh,
 * for transpose-wide.cu) as a function of the device's properties alone,
 * so that its table can be
 * checked without a GPU (tests/kernels/test-planner.c). Internal to the
 * kernels and their tests and benches: the element never plans, so this
 * is not in cudatranspose-kernels.h. */
#pragma once

#include "cudatranspose-kernels.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the planner knows of a device; a launch reads it from the current
 * one (cudaDevAttr* in brackets). */
typedef struct
{
  size_t max_smem;              /* opt-in dynamic shared memory per block
                                 * (MaxSharedMemoryPerBlockOptin) */
  size_t smem_per_sm;           /* shared memory of a multiprocessor
                                 * (MaxSharedMemoryPerMultiprocessor) */
  size_t smem_reserved;         /* of it, the system's per block
                                 * (ReservedSharedMemoryPerBlock) */
  unsigned int n_sms;           /* multiprocessors (MultiProcessorCount) */
  size_t l2_bytes;              /* the L2 cache (L2CacheSize) */
} CtPlanDevice;

/* For tests and benchmarks: the paths ct_transpose_batches_ex would run
 * for @batches under @kernel (auto or a wide variant) and @force, under a
 * mapping that swaps the axes (those that keep them are flip.cu's), on a
 * device @dev; no CUDA call is made. @paths (n_batches of them) gets each
 * batch's path, CT_PATH_NONE for an empty one; @ran (may be NULL) the
 * largest's, as ct_transpose_batches_ex reports it. Returns what that call
 * would before launching anything: ct_planes_validate's refusal of an
 * invalid plane; CT_ERROR_UNSUPPORTED_KERNEL for a seed or cpu (their
 * path is their name, not planned) or a forced path that is not the
 * planner's or cannot take a batch; CT_ERROR_INVALID_ARGUMENT for a plane
 * of more blocks than a grid holds. */
CtResult ct_plan_batches (const CtPlanDevice * dev,
    const CtPlaneBatch * batches, unsigned int n_batches, CtKernel kernel,
    CtPath force, CtPath * paths, CtPath * ran);

#ifdef __cplusplus
}
#endif
