/* cudatranspose: the planners of the one-launch families as functions of
 * the call and the device's properties alone, so that their choices are
 * checked without a GPU: the wide variants' and auto's (wide-planner.cuh,
 * for transpose-wide.cu; tests/kernels/test-planner.c) and the flips'
 * (plan-flip.c, for flip.cu; tests/kernels/test-plan-flip.c). Internal to
 * the kernels and their tests and benches: the element never plans, so
 * this is not in cudatranspose-kernels.h. */
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

/* The current device as the planners see it, its attributes cached per
 * device; a CUDA error where one cannot be read. */
CtResult ct_device_now (CtPlanDevice * dev);

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

/* The flips (flip.cu: the mappings that keep the axes) plan on the host,
 * here, and the kernels read the plan; the numbers both sides share: */
#define CT_PLAN_THREADS 256             /* a block (ct::kThreads) */
#define CT_PLAN_MAX_GRID_X 0x7fffffffull        /* ct::kMaxGridX */
#define CT_FLIP_EXACT_PER_THREAD 4      /* elements a thread, the exact way */
#define CT_FLIP_UNIT_BYTES 16           /* a unit of the flip way */
#define CT_FLIP_UNITS_PER_THREAD 4      /* units a thread */
#define CT_FLIP_UNIT3_BYTES 48          /* the same for 3-byte elements */
#define CT_FLIP_UNITS3_PER_THREAD 1

/* How the flip family moves one batch of planes. */
typedef struct
{
  CtPlane plane;                /* as the kernel sees it: rows of bytes where
                                 * the mapping keeps the order in a row and
                                 * the batch is aligned to 16 bytes */
  unsigned int units;           /* per row: units, or elements (exact) */
  unsigned int seg;             /* units of a row one block moves */
  unsigned int segs;            /* blocks across a row */
  unsigned int rows;            /* rows one block moves */
  unsigned int blocks;          /* per plane */
  unsigned char exact;          /* the exact way, an element per slot */
  unsigned char words;          /* exact: native words (else bytes) */
  unsigned char narrow;         /* the kernel for 1- to 3-byte elements */
  CtPath path;                  /* CT_PATH_FLIP or CT_PATH_EXACT */
} CtFlipPlan;

/* Plans batch @b (not empty, valid: ct_planes_validate) under @mapping,
 * one with CT_MAPPING_KEEP_AXES, and @force (CT_PATH_NONE, or the path to
 * take). The flip way needs the batch's pointers, strides and steps
 * (@b.count > 1) multiples of 16 bytes; otherwise, or forced, the exact
 * way. Returns 0, @plan undefined, where @force is neither path, the flip
 * way is forced on a batch it cannot take, or a plane takes more blocks
 * than a grid holds; else 1. */
int ct_plan_flip (const CtPlaneBatch * b, CtMapping mapping, CtPath force,
    CtFlipPlan * plan);

#ifdef __cplusplus
}
#endif
