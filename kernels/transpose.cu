/* cudatranspose: the GPU transpose kernels and their launcher.
 *
 * Every kernel has the same signature, so the launcher picks one by enum;
 * its grid, and whether the elements move as native words, come from
 * ct_plan_seed (plan-seed.c), the tiles' shapes from CT_SEED_TILES
 * (plan.h).
 * Kernels are templates on the element type (a native word when the plane is
 * aligned to the element size, otherwise a byte array of the same size, the
 * exact fallback for 3-byte elements and odd strides) and on the tile shape.
 * Ragged edges are guarded per element; strides are in bytes.
 */
#include "cudatranspose-kernels-tests.h"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

using ct::Bytes;
using ct::PlaneArgs;
using ct::Word;
using ct::kBlockX;
using ct::kBlockY;
using ct::one_launch;
using ct::src_at;
using ct::dst_of;

/// naive: one thread per element; a warp walks 32 elements of a source row.
/// Reads coalesced, writes strided by dst_stride (a sector per element).
template <typename T>
__global__ void
k_naive (PlaneArgs p)
{
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= p.width)
    return;
  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y; y < p.height;
      y += gridDim.y * blockDim.y)
    dst_of<T> (p, x, y) = src_at<T> (p, x, y);
}

/// naive-column: one thread per element; a warp walks 32 elements of a
/// destination row (a source column). Writes coalesced, reads strided.
template <typename T>
__global__ void
k_naive_column (PlaneArgs p)
{
  unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= p.height)
    return;
  for (unsigned int x = blockIdx.y * blockDim.y + threadIdx.y; x < p.width;
      x += gridDim.y * blockDim.y)
    dst_of<T> (p, x, y) = src_at<T> (p, x, y);
}

/// tiled family: a TILE_H x TILE_W source tile passes through shared memory
/// (ct::move_tile), kBlockX x kBlockY threads, each moving
/// TILE_W * TILE_H / 256 elements. With 4-byte elements and PAD = 0 a tile
/// column sits in one bank (32-way conflicts, on purpose for `tiled`);
/// PAD = 1 on a 32-row tile spreads it over all 32 banks; a 16-row tile
/// serves two columns per warp and needs PAD = 2.
/// Preconditions: TILE_W a multiple of kBlockX, TILE_H of kBlockY.
template <typename T, int TILE_W, int TILE_H, int PAD>
__global__ void
k_tiled (PlaneArgs p)
{
  __shared__ T tile[TILE_H][TILE_W + PAD];
  const unsigned int x0 = blockIdx.x * TILE_W;
  const unsigned int tiles_y = (p.height + TILE_H - 1) / TILE_H;

  for (unsigned int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    ct::move_tile<T, TILE_W, TILE_H, PAD> (p, x0, ty * TILE_H, tile,
        threadIdx.x, threadIdx.y);
    /* the next tile row reuses the tile */
    __syncthreads ();
  }
}

/* Plane @p by seed @kernel as @plan (ct_plan_seed) says, its elements as
 * T. */
template <typename T>
CtResult
launch (CtKernel kernel, const CtSeedPlan & plan, const PlaneArgs & p,
    cudaStream_t s)
{
  static_assert (kBlockX == CT_SEED_BLOCK_X && kBlockY == CT_SEED_BLOCK_Y,
      "the planner's block is the kernels'");
  const dim3 grid (plan.grid[0], plan.grid[1]), block (kBlockX, kBlockY);

  switch (kernel) {
    case CT_KERNEL_NAIVE:
      k_naive<T><<<grid, block, 0, s>>> (p);
      break;
    case CT_KERNEL_NAIVE_COLUMN:
      k_naive_column<T><<<grid, block, 0, s>>> (p);
      break;
#define SEED_TILE(id, w, h, pad) \
    case CT_KERNEL_##id: \
      k_tiled<T, w, h, pad><<<grid, block, 0, s>>> (p); \
      break;
      CT_SEED_TILES (SEED_TILE)
#undef SEED_TILE
    default:
      return CT_ERROR_UNSUPPORTED_KERNEL;
  }
  return (CtResult) cudaGetLastError ();
}

CtResult
launch_plane (CtKernel kernel, const CtPlane * plane, CtMapping mapping,
    cudaStream_t s)
{
  const PlaneArgs p = ct::plane_args (*plane, mapping);
  CtSeedPlan plan;

  if (!ct_plan_seed (plane, kernel, &plan))
    return CT_ERROR_UNSUPPORTED_KERNEL;
  switch (plane->elem_size) {
    case 1:
      return launch<Word<1>::T> (kernel, plan, p, s);
    case 2:
      return plan.words ? launch<Word<2>::T> (kernel, plan, p, s) :
          launch<Bytes<2>> (kernel, plan, p, s);
    case 3:
      return launch<Bytes<3>> (kernel, plan, p, s);
    case 4:
      return plan.words ? launch<Word<4>::T> (kernel, plan, p, s) :
          launch<Bytes<4>> (kernel, plan, p, s);
    case 8:
      return plan.words ? launch<Word<8>::T> (kernel, plan, p, s) :
          launch<Bytes<8>> (kernel, plan, p, s);
    default:
      return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
  }
}

}  // namespace

extern "C" CtResult
ct_transpose_planes (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, CtStream stream)
{
  CtResult res = ct_planes_validate (planes, n_planes, mapping);
  if (res != CT_OK)
    return res;
  if (kernel == CT_KERNEL_CPU || kernel < 0 || kernel >= CT_KERNEL_COUNT)
    return CT_ERROR_UNSUPPORTED_KERNEL;

  /* no transpose, no tile: every GPU variant flips rows */
  if (mapping & CT_MAPPING_KEEP_AXES)
    return ct_launch_flip_planes (planes, n_planes, mapping,
        (cudaStream_t) stream);
  /* auto picks a path per plane, inside one launch */
  if (one_launch (kernel))
    return ct_launch_wide (planes, n_planes, kernel, mapping,
        (cudaStream_t) stream);

  for (unsigned int i = 0; i < n_planes; i++) {
    if (planes[i].width == 0 || planes[i].height == 0)
      continue;
    res = launch_plane (kernel, &planes[i], mapping, (cudaStream_t) stream);
    if (res != CT_OK)
      return res;
  }
  return CT_OK;
}

/* The path a seed variant is. */
static CtPath
seed_path (CtKernel kernel)
{
#define SEED_PATH(id, name, summary) \
    case CT_KERNEL_##id: return CT_PATH_##id;
  switch (kernel) {
    CT_SEED_LIST (SEED_PATH)
    default:
      return CT_PATH_NONE;
  }
#undef SEED_PATH
}

extern "C" CtResult
ct_transpose_batches (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtMapping mapping, CtStream stream)
{
  return ct_transpose_batches_ex (batches, n_batches, kernel, CT_PATH_NONE,
      mapping, stream, NULL);
}

extern "C" CtResult
ct_transpose_batches_ex (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtPath force, CtMapping mapping, CtStream stream,
    CtPath * ran)
{
  CtResult res = CT_OK;
  bool any = false;

  if (n_batches > 0 && batches == NULL)
    return CT_ERROR_INVALID_ARGUMENT;
  for (unsigned int i = 0; i < n_batches && res == CT_OK; i++)
    res = ct_planes_validate (&batches[i].plane, 1, mapping);
  if (res != CT_OK)
    return res;
  if (kernel == CT_KERNEL_CPU || kernel < 0 || kernel >= CT_KERNEL_COUNT)
    return CT_ERROR_UNSUPPORTED_KERNEL;

  if (mapping & CT_MAPPING_KEEP_AXES)
    return ct_launch_flip (batches, n_batches, force, mapping,
        (cudaStream_t) stream, ran);
  if (one_launch (kernel))
    return ct_launch_batches (batches, n_batches, kernel, force, mapping,
        (cudaStream_t) stream, ran);

  /* a seed is its own path */
  if (force != CT_PATH_NONE && force != seed_path (kernel))
    return CT_ERROR_UNSUPPORTED_KERNEL;
  for (unsigned int i = 0; i < n_batches; i++) {
    const CtPlaneBatch *b = &batches[i];

    if (b->plane.width == 0 || b->plane.height == 0)
      continue;
    for (unsigned int k = 0; k < b->count; k++) {
      CtPlane pl = b->plane;

      pl.src = (const unsigned char *) pl.src + (size_t) k * b->src_step;
      pl.dst = (unsigned char *) pl.dst + (size_t) k * b->dst_step;
      res = launch_plane (kernel, &pl, mapping, (cudaStream_t) stream);
      if (res != CT_OK)
        return res;
      any = true;
    }
  }
  if (ran != NULL)
    *ran = any ? seed_path (kernel) : CT_PATH_NONE;
  return CT_OK;
}
