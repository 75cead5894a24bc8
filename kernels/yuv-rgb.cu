/* cudatranspose: YUV video to RGB on the GPU (ct_yuv_to_rgb): a thread a
 * pixel (yuv-rgb-unit.h, the code the CPU loop runs), a warp along a row;
 * a frame with more rows than the grid's y holds loops over them. The
 * first form of the conversion: the fused one, into tensors, is to come. */
#include "cudatranspose-kernels.h"
#include "transpose-common.cuh"
#include "yuv-rgb-unit.h"

#include <cuda_runtime.h>

namespace {

using ct::div_up;
using ct::kMaxGridY;

constexpr unsigned int kThreadsX = 256;

__global__ void
k_yuv_rgb (CtYuvFrame f, CtYuvPlan p, unsigned char *dst, size_t stride,
    int bgr)
{
  const unsigned int x = blockIdx.x * kThreadsX + threadIdx.x;

  if (x >= f.width)
    return;
  for (unsigned int y = blockIdx.y; y < f.height; y += gridDim.y) {
    unsigned char rgb[3];
    unsigned char *o = dst + (size_t) y * stride + (size_t) x * 3;

    ct_yuv_pixel (&f, &p, x, y, rgb);
    o[0] = rgb[bgr ? 2 : 0];
    o[1] = rgb[1];
    o[2] = rgb[bgr ? 0 : 2];
  }
}

}  // namespace

extern "C" CtResult
ct_yuv_to_rgb (const CtYuvFrame * f, void *dst, size_t dst_stride, int bgr,
    CtStream stream)
{
  CtYuvPlan p;
  CtResult res = ct_yuv_plan (f, &p);

  if (res != CT_OK)
    return res;
  if (f->width == 0 || f->height == 0)
    return CT_OK;
  if (dst == nullptr || dst_stride < (size_t) f->width * 3)
    return CT_ERROR_INVALID_ARGUMENT;
  const dim3 grid ((unsigned int) div_up (f->width, kThreadsX),
      f->height < kMaxGridY ? f->height : kMaxGridY);
  k_yuv_rgb<<<grid, kThreadsX, 0, reinterpret_cast<cudaStream_t>(stream)>>>
      (*f, p, static_cast<unsigned char *>(dst), dst_stride, bgr);
  return (CtResult) cudaGetLastError ();
}
