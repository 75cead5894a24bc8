/* cudatranspose: dimension permutation of dense tensors up to rank 4
 * (ct_permute) on the GPU; ct_permute_cpu is in transpose-cpu.c.
 *
 * The host first simplifies the permutation: sizes of 1 are dropped, and
 * input dimensions that stay neighbours, in order, in the output are merged
 * (NCHW to NHWC is then a batch of C x HW transposes). What is left is one
 * of:
 *   - no permutation: one copy;
 *   - the innermost dimension stays: rows move whole (k_gather, on the
 *     widest word that divides a row);
 *   - the innermost dimension moves: a batch of 2-D transposes between it
 *     and the dimension that becomes innermost, with the other dimensions
 *     as the batch. A side of at most kChannels elements (channels) with
 *     the interleaved end dense takes k_pixels (2 to 4 channels: byte
 *     permutes in registers) or k_channels (more: through shared memory),
 *     both with 16-byte words on both global sides, where every address
 *     is aligned (k_pixels of 1- and 2-byte elements also with 4-byte
 *     words, where every address is a whole 4-byte word and the length
 *     whole words); where one is not, k_pixels_packed (2 to 4 channels of 1-
 *     or 2-byte elements) or k_channels_packed, which stage the input side
 *     in shared memory as it lies and write aligned 16-byte words; every
 *     other batch goes to the planner of the transpose kernels
 *     (ct_launch_two_levels: ct_transpose_batches_ex's under auto), which
 *     picks its path as it does for a frame: the thin path for a side
 *     under 16, a wide tile, or the exact tile; both batch dimensions go
 *     in one launch where the register tile takes every plane.
 */
#include "cudatranspose-kernels.h"
#include "permute-kernels.cuh"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

using ct::kThreads;

static_assert (CT_PLAN_MAX_GRID_Y == ct::kMaxGridY &&
    CT_PLAN_THREADS == kThreads, "the planner's block and grid");

/* The kernels' plane of @plan on @src and @dst. */
Plane
plane_of (const CtPermutePlan & plan, const void *src, void *dst,
    unsigned int es)
{
  const CtPermutePlane & pp = plan.plane;
  unsigned long long elements = 1;
  Plane p;

  for (int k = 0; k < plan.shape.rank; k++)
    elements *= plan.shape.d[k];
  p.src = static_cast<const unsigned char *>(src);
  p.dst = static_cast<unsigned char *>(dst);
  p.width = pp.width;
  p.height = pp.height;
  p.src_stride = pp.src_stride;
  p.dst_stride = pp.dst_stride;
  p.b.n1 = pp.n1;
  p.b.src1 = pp.src1;
  p.b.dst1 = pp.dst1;
  p.b.n2 = pp.n2;
  p.b.src2 = pp.src2;
  p.b.dst2 = pp.dst2;
  p.src_end = p.src + elements * es;
  return p;
}

dim3
grid_of (const CtPermutePlan & plan)
{
  return dim3 (plan.grid[0], plan.grid[1], plan.grid[2]);
}

template <int ES, int C, int GB>
void
launch_pixels_in (const Plane & p, const CtPermutePlan & plan,
    cudaStream_t s)
{
  if (plan.to_interleaved)
    k_pixels<ES, C, true, GB> <<<grid_of (plan), kThreads, 0, s>>> (p);
  else
    k_pixels<ES, C, false, GB> <<<grid_of (plan), kThreads, 0, s>>> (p);
}

/* k_pixels in the planned group word: 16 bytes, or 4 (1- and 2-byte
 * elements only) */
template <int ES, int C>
void
launch_pixels (const Plane & p, const CtPermutePlan & plan, cudaStream_t s)
{
  if constexpr (ES <= 2) {
    if (plan.word == 4) {
      launch_pixels_in<ES, C, 4> (p, plan, s);
      return;
    }
  }
  launch_pixels_in<ES, C, 16> (p, plan, s);
}

template <int ES, int C>
void
launch_pixels_packed (const Plane & p, const CtPermutePlan & plan,
    cudaStream_t s)
{
  if (plan.to_interleaved)
    k_pixels_packed<ES, C, true> <<<grid_of (plan), kThreads, plan.smem,
        s>>> (p, plan.seg_shift);
  else
    k_pixels_packed<ES, C, false> <<<grid_of (plan), kThreads, plan.smem,
        s>>> (p, plan.seg_shift);
}

/* The planned kernel of a plane with channels, for ES-byte elements. */
template <int ES>
void
launch_channels (const Plane & p, const CtPermutePlan & plan, cudaStream_t s)
{
  switch (plan.run) {
    case CT_PERMUTE_RUN_PIXELS:
      if (plan.channels == 2)
        launch_pixels<ES, 2> (p, plan, s);
      else if (plan.channels == 3)
        launch_pixels<ES, 3> (p, plan, s);
      else
        launch_pixels<ES, 4> (p, plan, s);
      break;
    case CT_PERMUTE_RUN_CHANNELS:
      k_channels<ES> <<<grid_of (plan), kThreads, plan.smem, s>>> (p,
          plan.to_interleaved, plan.seg_shift);
      break;
    case CT_PERMUTE_RUN_PIXELS_PACKED:
      if constexpr (ES <= 2) {
        if (plan.channels == 2)
          launch_pixels_packed<ES, 2> (p, plan, s);
        else if (plan.channels == 3)
          launch_pixels_packed<ES, 3> (p, plan, s);
        else
          launch_pixels_packed<ES, 4> (p, plan, s);
      }
      break;
    default:
      k_channels_packed<ES> <<<grid_of (plan), kThreads, plan.smem, s>>>
          (p, plan.to_interleaved, plan.seg_shift);
      break;
  }
}

template <typename W>
void
launch_gather (const CtPermutePlan & plan, const void *src, void *dst,
    cudaStream_t s)
{
  Gather g;

  g.src = static_cast<const unsigned char *>(src);
  g.dst = static_cast<unsigned char *>(dst);
  g.rank = plan.shape.rank;
  for (int i = 0; i < 4; i++) {
    g.d_out[i] = plan.d_out[i];
    g.src_of[i] = plan.src_of[i];
  }
  g.total = plan.total;
  k_gather<W> <<<plan.grid[0], kThreads, 0, s>>> (g);
}

/* The batch of planes to the transposes' planner (ct_launch_two_levels,
 * under auto): the larger batch dimension each batch's count, the smaller
 * one the copies of that batch. */
CtResult
launch_planes (const CtPermutePlan & plan, const void *src, void *dst,
    unsigned int es, cudaStream_t st, CtPath * ran)
{
  CtPlaneBatch b;
  size_t src_step2, dst_step2;

  ct_permute_plane_batch (&plan, src, dst, es, 0, &b);
  ct_permute_plane_steps (&plan, es, &src_step2, &dst_step2);
  return ct_launch_two_levels (&b, ct_permute_plane_batches (&plan),
      src_step2, dst_step2, st, ran);
}

/* The planned kernel. */
CtResult
launch (const CtPermutePlan & plan, const void *src, void *dst,
    unsigned int es, cudaStream_t st, CtPath * ran)
{
  switch (plan.run) {
    case CT_PERMUTE_RUN_COPY:
      *ran = plan.path;
      return (CtResult) cudaMemcpyAsync (dst, src, plan.bytes,
          cudaMemcpyDeviceToDevice, st);
    case CT_PERMUTE_RUN_GATHER:
      switch (plan.word) {
        case 16:
          launch_gather<uint4> (plan, src, dst, st);
          break;
        case 8:
          launch_gather<unsigned long long> (plan, src, dst, st);
          break;
        case 4:
          launch_gather<unsigned int> (plan, src, dst, st);
          break;
        case 2:
          launch_gather<unsigned short> (plan, src, dst, st);
          break;
        default:
          launch_gather<unsigned char> (plan, src, dst, st);
          break;
      }
      break;
    case CT_PERMUTE_RUN_PLANES:
      return launch_planes (plan, src, dst, es, st, ran);
    default: {
      const Plane p = plane_of (plan, src, dst, es);
      switch (es) {
        case 1:
          launch_channels<1> (p, plan, st);
          break;
        case 2:
          launch_channels<2> (p, plan, st);
          break;
        case 4:
          launch_channels<4> (p, plan, st);
          break;
        default:
          launch_channels<8> (p, plan, st);
          break;
      }
      break;
    }
  }
  *ran = plan.path;
  return (CtResult) cudaGetLastError ();
}

}  // namespace

extern "C" CtResult
ct_permute (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4], CtStream stream)
{
  return ct_permute_ex (src, dst, dims, elem_size, perm, stream, NULL);
}

extern "C" CtResult
ct_permute_ex (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4], CtStream stream,
    CtPath * ran)
{
  CtPath path = CT_PATH_NONE;
  CtPermutePlan plan;
  CtResult res = ct_plan_permute (src, dst, dims, elem_size, perm, &plan);

  if (res == CT_OK)
    res = launch (plan, src, dst, elem_size, (cudaStream_t) stream, &path);
  if (res == CT_OK && ran != NULL)
    *ran = path;
  return res;
}
