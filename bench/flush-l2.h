/* The benches' L2 flush (flush-l2.cu): reads @bytes of @buf (more than the
 * L2 holds) on @s, so the next timed run starts from an L2 of clean lines
 * that hold none of its data; @sink is a device word it may write. */
#pragma once

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t bench_flush_l2 (const void *buf, size_t bytes, unsigned int *sink,
    cudaStream_t s);

#ifdef __cplusplus
}
#endif
