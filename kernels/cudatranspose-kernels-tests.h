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

/* The tiled YUV pass's write-out of one tile (yuv-tensor-stores.cuh's
 * flush_tile, the same code, its block's 256 threads one after another)
 * on the host: @tile holds the tile's values as the pass keeps them in
 * shared memory, value (c, col, r) at ((c * 16) + col) * 129 + r, of
 * @value_size bytes (1: uint8, 4: float32), column col the frame's x_base
 * + col, row r its row 2 k0 - 1 + r; pixel (0, 0)'s values land at @at,
 * the frame's x, y and the channels @step_x, @step_y (1 or -1) and
 * @step_c values apart, @at aligned to the value size. @x_base a multiple
 * of 16 below @width, @k0 of 64, the first pair of a tile of a @width x
 * @height frame. Returns cudaErrorMisalignedAddress (what the GPU would
 * report) where a store of four values as one was not aligned to their
 * size, the values written all the same. */
CtResult ct_yuv_flush_tile_cpu (const void *tile, unsigned int value_size,
    void *at, long long step_x, long long step_y, long long step_c,
    unsigned int width, unsigned int height, unsigned int x_base,
    unsigned int k0);

/* A warp's packed HWC run of the one pass (yuv-tensor-stores.cuh's
 * stage_hwc and unstage_hwc, the same code, its 32 lanes one after
 * another) on the host: lane l's twelve values (val[channel][pixel] of
 * its quad, @value_size bytes each: 1, 2, 4 or 8) at @vals + 12 l
 * values, lane l's pixel x0 + 4 l landing at @at + 4 l @step_x values
 * (its first channel), the channels one value apart and the pixels
 * @step_x (3, or mirrored -3). CT_ERROR_INVALID_ARGUMENT, nothing
 * written, where the run's fours are not aligned to their size (the pass
 * then stores value by value); cudaErrorMisalignedAddress where a store
 * of four values as one was not aligned, the values written all the
 * same. */
CtResult ct_yuv_hwc_run_cpu (const void *vals, unsigned int value_size,
    void *at, long long step_x);

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
