/* cudatranspose: YUV video to RGB on the GPU, a thread a pixel
 * (yuv-rgb-unit.h, the code the CPU loop runs), a warp along a row; a
 * frame with more rows than the grid's y holds loops over them.
 *   - ct_yuv_to_rgb: packed RGB (or BGR) bytes;
 *   - ct_yuv_to_tensor: the same values as a tensor in one pass, each
 *     channel written where the permutation puts it and through the
 *     arithmetic (arith-ops.cuh, the code ct_permute_arith runs) on the
 *     way. In CHW (width innermost) a warp writes 32 consecutive values of
 *     each channel's plane; in HWC a thread writes its pixel's three. */
#include "cudatranspose-kernels.h"
#include "cudatranspose-kernels-tests.h"
#include "arith-ops.cuh"
#include "transpose-common.cuh"
#include "yuv-rgb-unit.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

namespace {

using ct::div_up;
using ct::kMaxGridY;

constexpr unsigned int kThreadsX = 256;

/* R, G, B of pixel (@x, @y) as the output orders them: the first and the
 * last channel swapped with @bgr (selected, not indexed: an indexed array
 * would live in local memory). */
__device__ __forceinline__ void
pixel_ordered (const CtYuvSrc & s, const CtYuvPlan & p, unsigned int x,
    unsigned int y, int bgr, unsigned char out[3])
{
  unsigned char rgb[3];

  ct_yuv_pixel (&s, &p, x, y, rgb);
  out[0] = bgr ? rgb[2] : rgb[0];
  out[1] = rgb[1];
  out[2] = bgr ? rgb[0] : rgb[2];
}

__global__ void
k_yuv_rgb (CtYuvSrc s, CtYuvPlan p, unsigned char *dst, size_t stride,
    int bgr)
{
  const unsigned int x = blockIdx.x * kThreadsX + threadIdx.x;

  if (x >= s.width)
    return;
  for (unsigned int y = blockIdx.y; y < s.height; y += gridDim.y) {
    unsigned char rgb[3];
    unsigned char *o = dst + (size_t) y * stride + (size_t) x * 3;

    pixel_ordered (s, p, x, y, bgr, rgb);
    o[0] = rgb[0];
    o[1] = rgb[1];
    o[2] = rgb[2];
  }
}

/* Where the HWC tensor's neighbours land in the output: channel, x and y
 * steps, in elements. */
struct Steps
{
  unsigned long long c, x, y;
};

template <typename Out>
__global__ void
k_yuv_tensor (CtYuvSrc s, CtYuvPlan p, Out *dst, Steps step, int bgr,
    ct::Ops ops, int ch_dim)
{
  const unsigned int x = blockIdx.x * kThreadsX + threadIdx.x;

  if (x >= s.width)
    return;
  for (unsigned int y = blockIdx.y; y < s.height; y += gridDim.y) {
    unsigned char rgb[3];
    Out *o = dst + x * step.x + (unsigned long long) y * step.y;

    pixel_ordered (s, p, x, y, bgr, rgb);
#pragma unroll
    for (unsigned int c = 0; c < 3; c++) {
      /* (the channel of a per-channel operation: the index along its
       * dimension; the fourth has size 1) */
      const long long ch = ch_dim < 0 ? -1LL : ch_dim == 0 ? (long long) c :
          ch_dim == 1 ? (long long) x : ch_dim == 2 ? (long long) y : 0LL;

      o[c * step.c] = ct::arith_element<uint8_t, Out> (rgb[c], ch, ops);
    }
  }
}

template <typename Out>
CtResult
launch_tensor (const CtYuvSrc & s, const CtYuvPlan & p, void *dst,
    const Steps & step, int bgr, const ct::Ops & ops, int ch_dim,
    cudaStream_t stream)
{
  if ((uintptr_t) dst % sizeof (Out) != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  const dim3 grid ((unsigned int) div_up (s.width, kThreadsX),
      s.height < kMaxGridY ? s.height : kMaxGridY);
  k_yuv_tensor<Out><<<grid, kThreadsX, 0, stream>>> (s, p,
      static_cast<Out *>(dst), step, bgr, ops, ch_dim);
  return (CtResult) cudaGetLastError ();
}

/* launch_tensor for each output type, in CtType order */
using LaunchTensor = CtResult (*) (const CtYuvSrc &, const CtYuvPlan &,
    void *, const Steps &, int, const ct::Ops &, int, cudaStream_t);
constexpr LaunchTensor kLaunchTensor[CT_TYPE_COUNT] = {
  launch_tensor<int8_t>, launch_tensor<uint8_t>, launch_tensor<int16_t>,
  launch_tensor<uint16_t>, launch_tensor<int32_t>, launch_tensor<uint32_t>,
  launch_tensor<int64_t>, launch_tensor<uint64_t>, launch_tensor<float>,
  launch_tensor<double>,
};

}  // namespace

extern "C" CtResult
ct_yuv_to_tensor (const CtYuvFrame * f, int bgr, const unsigned int perm[4],
    const CtArith * arith, void *dst, CtStream stream, CtPath * ran)
{
  const cudaStream_t st = reinterpret_cast<cudaStream_t>(stream);
  CtYuvPlan p;
  CtYuvSrc src;
  CtResult res = ct_yuv_plan (f, &p);
  ct::Ops ops;
  Steps step;
  int ch_dim = -1;

  if (res != CT_OK)
    return res;
  if (arith && ((res = ct_arith_validate (arith)) != CT_OK ||
          arith->in_type != CT_TYPE_UINT8))
    return res != CT_OK ? res : CT_ERROR_INVALID_ARGUMENT;
  const unsigned long long hwc[4] = { 3, f->width, f->height, 1 };
  if ((res = ct_permute_validate (hwc, 1, perm)) != CT_OK)
    return res;
  if (f->width == 0 || f->height == 0) {
    if (ran)
      *ran = CT_PATH_YUV_TENSOR;
    return CT_OK;
  }
  if (dst == nullptr)
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &p, &src);
  /* output dimension i has stride acc, and is input dimension perm[i] */
  unsigned long long in_step[4], acc = 1;
  for (unsigned int i = 0; i < 4; i++) {
    in_step[perm[i]] = acc;
    acc *= hwc[perm[i]];
  }
  step.c = in_step[0];
  step.x = in_step[1];
  step.y = in_step[2];
  /* the operations, their operands cast to the output type */
  memset (&ops, 0, sizeof (ops));
  if (arith) {
    ops.n = arith->n_ops;
    for (unsigned int i = 0; i < arith->n_ops; i++) {
      bool zero = false;

      ops.kind[i] = (unsigned char) arith->ops[i].kind;
      ops.channel[i] = arith->ops[i].channel;
      ops.operand[i] = ct::operand_bits (arith->out_type, arith->ops[i],
          &zero);
      if (arith->ops[i].channel >= 0)
        ch_dim = (int) (arith->channel_dim < 4 ? arith->channel_dim : 3);
    }
  }
  const CtType out = arith ? arith->out_type : CT_TYPE_UINT8;
  if ((unsigned int) out >= CT_TYPE_COUNT)
    return CT_ERROR_INVALID_ARGUMENT;
  res = kLaunchTensor[out] (src, p, dst, step, bgr, ops, ch_dim, st);
  if (res == CT_OK && ran)
    *ran = CT_PATH_YUV_TENSOR;
  return res;
}

extern "C" CtResult
ct_yuv_to_rgb (const CtYuvFrame * f, void *dst, size_t dst_stride, int bgr,
    CtStream stream)
{
  CtYuvPlan p;
  CtYuvSrc src;
  CtResult res = ct_yuv_plan (f, &p);

  if (res != CT_OK)
    return res;
  if (f->width == 0 || f->height == 0)
    return CT_OK;
  if (dst == nullptr || dst_stride < (size_t) f->width * 3)
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &p, &src);
  const dim3 grid ((unsigned int) div_up (f->width, kThreadsX),
      f->height < kMaxGridY ? f->height : kMaxGridY);
  k_yuv_rgb<<<grid, kThreadsX, 0, reinterpret_cast<cudaStream_t>(stream)>>>
      (src, p, static_cast<unsigned char *>(dst), dst_stride, bgr);
  return (CtResult) cudaGetLastError ();
}
