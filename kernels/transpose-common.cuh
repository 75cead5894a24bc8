/* cudatranspose: device helpers shared by the seed kernels (transpose.cu)
 * and the one-launch wide kernels (transpose-wide.cu). Internal to kernels/. */
#pragma once

#include "cudatranspose-kernels.h"

#include <cuda_runtime.h>
#include <stddef.h>

namespace ct {

/* N bytes with byte alignment: any address, any stride. */
template <int N> struct Bytes
{
  unsigned char b[N];
};

struct PlaneArgs
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_stride;
  size_t dst_stride;
  unsigned int width;
  unsigned int height;
  int mapping;
};

/* The seed kernels' block: 32 x 8 threads. */
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

template <typename T>
__device__ __forceinline__ const T &
src_at (const PlaneArgs & p, unsigned int x, unsigned int y)
{
  return *reinterpret_cast<const T *>(p.src + (size_t) y * p.src_stride +
      (size_t) x * sizeof (T));
}

/* Where source element (x, y) goes: the one index mapping all kernels share. */
template <typename T>
__device__ __forceinline__ T &
dst_of (const PlaneArgs & p, unsigned int x, unsigned int y)
{
  unsigned int ox = (p.mapping & CT_MAPPING_MIRROR_COLUMNS) ?
      p.height - 1 - y : y;
  unsigned int oy = (p.mapping & CT_MAPPING_MIRROR_ROWS) ? p.width - 1 - x : x;
  return *reinterpret_cast<T *>(p.dst + (size_t) oy * p.dst_stride +
      (size_t) ox * sizeof (T));
}

/* One TILE_H x TILE_W source tile at (x0, y0) through shared memory, moved
 * by a kBlockX x kBlockY block whose thread is (tx, ty). Loads: a warp reads
 * consecutive elements of a source row. Stores: consecutive threads write
 * consecutive elements of a destination row, so a warp reads down a column of
 * the tile; PAD decides whether that column sits in one bank. The caller
 * syncs before the tile is reused. */
template <typename T, int TILE_W, int TILE_H, int PAD>
__device__ __forceinline__ void
move_tile (const PlaneArgs & p, unsigned int x0, unsigned int y0,
    T (*tile)[TILE_W + PAD], int tx, int ty)
{
  static_assert (TILE_W % kBlockX == 0 && TILE_H % kBlockY == 0,
      "tile must be a whole number of block rows and columns");
  constexpr int kThreads = kBlockX * kBlockY;
  const int tid = ty * kBlockX + tx;

#pragma unroll
  for (int r = ty; r < TILE_H; r += kBlockY) {
#pragma unroll
    for (int c = tx; c < TILE_W; c += kBlockX) {
      unsigned int x = x0 + c, y = y0 + r;
      if (x < p.width && y < p.height)
        tile[r][c] = src_at<T> (p, x, y);
    }
  }
  __syncthreads ();

#pragma unroll
  for (int i = tid; i < TILE_W * TILE_H; i += kThreads) {
    int r = i % TILE_H, c = i / TILE_H;
    unsigned int x = x0 + c, y = y0 + r;
    if (x < p.width && y < p.height)
      dst_of<T> (p, x, y) = tile[r][c];
  }
}

}  // namespace ct

/* The one-launch variants (transpose-wide.cu): every plane of the list in
 * one launch per group of planes. The list is already validated. */
CtResult ct_launch_wide (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream);

/* The same over batches of planes, one launch for the planes of up to
 * CT_PLANES_PER_LAUNCH batches, with the planner's path forced (or
 * CT_PATH_NONE) and the main one reported in *@ran (may be NULL), as
 * ct_transpose_batches_ex. The list is already validated. */
CtResult ct_launch_batches (const CtPlaneBatch * batches,
    unsigned int n_batches, CtKernel kernel, CtPath force, CtMapping mapping,
    cudaStream_t stream, CtPath * ran);
