/* cudatranspose: the kernels' entry points that only tests and benchmarks
 * call. The element needs none of them; they are the simple forms of what
 * it calls, the checks those make first, and what a test or benchmark asks
 * of the device. */
#pragma once

#include "cudatranspose-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every plane of the list as ct_transpose_batches_ex moves a batch of one
 * (checked first; the wide variants and auto in one launch), no path
 * forced or reported. */
CtResult ct_transpose_planes (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, CtStream stream);

/* ct_transpose_batches_ex with no path forced or reported. */
CtResult ct_transpose_batches (const CtPlaneBatch * batches,
    unsigned int n_batches, CtKernel kernel, CtMapping mapping,
    CtStream stream);

/* ct_transpose_batches_cpu over single planes. */
CtResult ct_transpose_planes_cpu (const CtPlane * planes,
    unsigned int n_planes, CtMapping mapping);

/* The checks the calls make before anything runs, without touching
 * memory: a plane list, a 4:2:2 plane list, a permutation's arguments. */
CtResult ct_planes_validate (const CtPlane * planes, unsigned int n_planes,
    CtMapping mapping);
CtResult ct_422_validate (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping);
CtResult ct_permute_validate (const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4]);

/* The CUDA devices this process sees; CT_ERROR_NO_DRIVER where no NVIDIA
 * driver is installed. */
CtResult ct_device_count (int *count);

/* Milliseconds between two timed events (ct_event_create with @timed),
 * once both have happened. */
CtResult ct_event_elapsed_ms (float *ms, CtEvent start, CtEvent end);

#ifdef __cplusplus
}
#endif
