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
 *     is aligned; where one is not, k_pixels_packed (2 to 4 channels of 1-
 *     or 2-byte elements) or k_channels_packed, which stage the input side
 *     in shared memory as it lies and write aligned 16-byte words; every
 *     other batch goes to the planner of the transpose kernels
 *     (ct_transpose_batches_ex under auto), which picks its path as it
 *     does for a frame: the thin path for a side under 16, a wide tile,
 *     or the exact tile.
 */
#include "cudatranspose-kernels.h"
#include "permute-kernels.cuh"
#include "permute-shape.cuh"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <limits.h>
#include <new>
#include <stdint.h>
#include <string.h>

namespace {

using ct::Word;
using ct::kMaxGridY;
using ct::kThreads;
using ct::Shape;
using ct::simplify;
using ct::strides;

/* Whether the plane has channels: at most kChannels on one side, the
 * interleaved end dense; which way they go in *@to_interleaved. */
bool
has_channels (const Plane & p, bool * to_interleaved)
{
  if (p.height <= kChannels && p.dst_stride == p.height)
    *to_interleaved = true;
  else if (p.width <= kChannels && p.src_stride == p.width)
    *to_interleaved = false;
  else
    return false;
  return true;
}

/* Whether k_channels can take the plane: channels on one side, the
 * interleaved end dense, and every address a multiple of 16 bytes. */
bool
channels_fit (const Plane & p, unsigned int es, bool * to_interleaved)
{
  unsigned long long a = 16 / es;       /* elements in 16 bytes */

  if (!has_channels (p, to_interleaved))
    return false;
  /* the planar rows' stride; the interleaved end is dense, and segments
   * start at multiples of 16 bytes of each channel */
  return (uintptr_t) p.src % 16 == 0 && (uintptr_t) p.dst % 16 == 0 &&
      (*to_interleaved ? p.src_stride : p.dst_stride) % a == 0 &&
      p.b.src1 % a == 0 && p.b.dst1 % a == 0 && p.b.src2 % a == 0 &&
      p.b.dst2 % a == 0;
}

/* Whether k_pixels can take the plane: as k_channels, at most
 * kPixelChannels channels and a length of whole 16-byte groups (which
 * ct_permute's planes have whenever channels_fit: a batch dimension's
 * offset, or the planar stride, is the length). */
bool
pixels_fit (const Plane & p, unsigned int es, bool * to_interleaved)
{
  return channels_fit (p, es, to_interleaved) &&
      (*to_interleaved ? p.height : p.width) <= kPixelChannels &&
      (*to_interleaved ? p.width : p.height) % (16 / es) == 0;
}

/* The segment per channel: 2 KB, halved until the block's channels fit
 * kChannelsSmem. */
unsigned int
channels_smem (unsigned int chans, unsigned int shift)
{
  /* padded rows (planar side), or padded groups (interleaved) */
  return chans * ((1u << shift) + 16) + (1u << shift) / 2 + 16;
}

unsigned int
channels_shift (unsigned int chans)
{
  unsigned int shift = 11;

  while (shift > 8 && channels_smem (chans, shift) > kChannelsSmem)
    shift--;
  return shift;
}

template <int ES, int C>
void
launch_pixels (const Plane & p, bool to_interleaved, dim3 grid,
    cudaStream_t s)
{
  if (to_interleaved)
    k_pixels<ES, C, true> <<<grid, kThreads, 0, s>>> (p);
  else
    k_pixels<ES, C, false> <<<grid, kThreads, 0, s>>> (p);
}

/* k_pixels or k_channels on a plane that pixels_fit or channels_fit. */
template <typename T>
CtResult
launch_channels (const Plane & p, cudaStream_t s, CtPath * ran)
{
  const unsigned int gy = p.b.n1 < kMaxGridY ? p.b.n1 : kMaxGridY;
  const unsigned int gz = p.b.n2 < kMaxGridY ? p.b.n2 : kMaxGridY;
  bool inter = false;
  const bool pixels = pixels_fit (p, sizeof (T), &inter);
  const unsigned int chans = (unsigned int) (inter ? p.height : p.width);
  const unsigned long long len = inter ? p.width : p.height;

  if (pixels) {
    unsigned long long groups = len / (16 / sizeof (T));
    dim3 grid ((unsigned int) ((groups + kThreads - 1) / kThreads), gy, gz);
    switch (chans) {
      case 2:
        launch_pixels<sizeof (T), 2> (p, inter, grid, s);
        break;
      case 3:
        launch_pixels<sizeof (T), 3> (p, inter, grid, s);
        break;
      default:
        launch_pixels<sizeof (T), 4> (p, inter, grid, s);
        break;
    }
    *ran = CT_PATH_PIXELS;
  } else {
    unsigned int shift = channels_shift (chans);
    unsigned long long per = (1u << shift) / sizeof (T);
    dim3 grid ((unsigned int) ((len + per - 1) / per), gy, gz);
    k_channels<sizeof (T)> <<<grid, kThreads, channels_smem (chans, shift),
        s>>> (p, inter, shift);
    *ran = CT_PATH_CHANNELS;
  }
  return (CtResult) cudaGetLastError ();
}

/* The segment per channel of the packed kernels: 4 KB, halved until the
 * block's shared memory fits kPackedSmem. */
unsigned int
packed_smem (unsigned int chans, unsigned int shift)
{
  return chans * ((1u << shift) + 16);
}

/* k_pixels_packed's shared memory: the staged side and the built one. */
unsigned int
pixels_packed_smem (unsigned int chans, unsigned int shift)
{
  return 2 * packed_smem (chans, shift) + 32;
}

template <int ES, int C>
void
launch_pixels_packed (const Plane & p, bool inter, dim3 grid,
    unsigned int shift, cudaStream_t s)
{
  if (inter)
    k_pixels_packed<ES, C, true> <<<grid, kThreads,
        pixels_packed_smem (C, shift), s>>> (p, shift);
  else
    k_pixels_packed<ES, C, false> <<<grid, kThreads,
        pixels_packed_smem (C, shift), s>>> (p, shift);
}

/* k_pixels_packed (2 to 4 channels of 1- or 2-byte elements) or
 * k_channels_packed on a plane that has_channels, its long side at least
 * 16 elements. */
template <int ES>
CtResult
launch_packed (const Plane & p, bool inter, cudaStream_t s, CtPath * ran)
{
  const unsigned int gy = p.b.n1 < kMaxGridY ? p.b.n1 : kMaxGridY;
  const unsigned int gz = p.b.n2 < kMaxGridY ? p.b.n2 : kMaxGridY;
  const unsigned int chans = (unsigned int) (inter ? p.height : p.width);
  const unsigned long long len = inter ? p.width : p.height;
  const bool pixels = ES <= 2 && chans <= kPixelChannels;
  const unsigned long long batches = (unsigned long long) p.b.n1 * p.b.n2;
  unsigned int shift = 12;

  /* small jobs: smaller segments, so that the blocks fill the GPU */
  while (shift > 8 && ((pixels ? pixels_packed_smem (chans, shift) :
              packed_smem (chans, shift)) > kPackedSmem ||
          ct::div_up (len, (1u << shift) / ES) * batches < kPackedBlocks))
    shift--;
  dim3 grid ((unsigned int) ct::div_up (len, (1u << shift) / ES), gy, gz);
  if constexpr (ES <= 2) {
    if (pixels) {
      if (chans == 2)
        launch_pixels_packed<ES, 2> (p, inter, grid, shift, s);
      else if (chans == 3)
        launch_pixels_packed<ES, 3> (p, inter, grid, shift, s);
      else
        launch_pixels_packed<ES, 4> (p, inter, grid, shift, s);
      *ran = CT_PATH_CHANNELS_PACKED;
      return (CtResult) cudaGetLastError ();
    }
  }
  k_channels_packed<ES> <<<grid, kThreads, packed_smem (chans, shift), s>>>
      (p, inter, shift);
  *ran = CT_PATH_CHANNELS_PACKED;
  return (CtResult) cudaGetLastError ();
}

template <typename W>
CtResult
launch_gather (const Gather & g, cudaStream_t s, CtPath * ran)
{
  unsigned long long blocks = (g.total + kThreads - 1) / kThreads;
  unsigned int grid = blocks < (1u << 20) ? (unsigned int) blocks : 1u << 20;

  k_gather<W> <<<grid, kThreads, 0, s>>> (g);
  *ran = CT_PATH_GATHER;
  return (CtResult) cudaGetLastError ();
}

bool
aligned (const void *a, const void *b, unsigned long long bytes, unsigned w)
{
  return ((uintptr_t) a % w) == 0 && ((uintptr_t) b % w) == 0 &&
      bytes % w == 0;
}

/* The innermost dimension stays: rows of d[0] elements move whole, as the
 * widest word that divides them. */
CtResult
permute_rows (const Shape & s, const void *src, void *dst, unsigned int es,
    cudaStream_t st, CtPath * ran)
{
  unsigned long long in[4], out[4];
  const unsigned long long row = s.d[0] * es;
  unsigned int w = 16;
  Gather g;

  while (w > 1 && !aligned (src, dst, row, w))
    w /= 2;
  strides (s, in, out);
  g.src = static_cast<const unsigned char *>(src);
  g.dst = static_cast<unsigned char *>(dst);
  g.rank = s.rank;
  g.total = 1;
  for (int i = 0; i < s.rank; i++) {
    /* in words: the row shrinks, every other stride scales */
    g.d_out[i] = i == 0 ? row / w : s.d[s.p[i]];
    g.src_of[i] = i == 0 ? 1 : in[s.p[i]] * es / w;
    g.total *= g.d_out[i];
  }
  switch (w) {
    case 16:
      return launch_gather<uint4> (g, st, ran);
    case 8:
      return launch_gather<unsigned long long> (g, st, ran);
    case 4:
      return launch_gather<unsigned int> (g, st, ran);
    case 2:
      return launch_gather<unsigned short> (g, st, ran);
    default:
      return launch_gather<unsigned char> (g, st, ran);
  }
}

/* Planes without channels: the planner's (ct_transpose_batches_ex under
 * auto), which takes one batch level. The larger batch dimension is each
 * batch's count and the smaller one the batches, so that a launch (up to
 * CT_PLANES_PER_LAUNCH batches) holds as many planes as it can. */
CtResult
plan_planes (const Plane & p, unsigned int es, cudaStream_t st, CtPath * ran)
{
  constexpr unsigned int kOnStack = CT_PLANES_PER_LAUNCH;
  const bool swap = p.b.n2 > p.b.n1;
  const unsigned int count = swap ? p.b.n2 : p.b.n1;
  const unsigned int n = swap ? p.b.n1 : p.b.n2;
  const unsigned long long in_step = swap ? p.b.src2 : p.b.src1;
  const unsigned long long out_step = swap ? p.b.dst2 : p.b.dst1;
  const unsigned long long in_outer = swap ? p.b.src1 : p.b.src2;
  const unsigned long long out_outer = swap ? p.b.dst1 : p.b.dst2;
  CtPlaneBatch on_stack[kOnStack] = { };
  CtPlaneBatch *batches = on_stack;
  CtResult res;

  if (n > kOnStack) {
    batches = new (std::nothrow) CtPlaneBatch[n];
    if (batches == nullptr)
      return (CtResult) cudaErrorMemoryAllocation;
  }
  for (unsigned int k = 0; k < n; k++) {
    CtPlaneBatch & b = batches[k];
    b.plane.src = p.src + k * in_outer * es;
    b.plane.dst = p.dst + k * out_outer * es;
    b.plane.src_stride = p.src_stride * es;
    b.plane.dst_stride = p.dst_stride * es;
    b.plane.width = (unsigned int) p.width;
    b.plane.height = (unsigned int) p.height;
    b.plane.elem_size = es;
    b.count = count;
    b.src_step = in_step * es;
    b.dst_step = out_step * es;
  }
  res = ct_transpose_batches_ex (batches, n, CT_KERNEL_AUTO, CT_PATH_NONE,
      CT_MAPPING_TRANSPOSE, (CtStream) st, ran);
  if (batches != on_stack)
    delete[] batches;
  return res;
}

/* The innermost dimension moves: a batch of transposes between input dim 0
 * and input dim a = p[0]. */
CtResult
permute_planes (const Shape & s, const void *src, void *dst, unsigned int es,
    cudaStream_t st, CtPath * ran)
{
  unsigned long long in[4], out[4];
  int a = s.p[0], other[2] = { -1, -1 }, n = 0;
  Plane p;

  strides (s, in, out);
  for (int k = 1; k < s.rank; k++)
    if (k != a)
      other[n++] = k;
  p.src = static_cast<const unsigned char *>(src);
  p.dst = static_cast<unsigned char *>(dst);
  p.width = s.d[0];
  p.height = s.d[a];
  p.src_stride = in[a];
  p.dst_stride = out[0];
  p.b.n1 = other[0] >= 0 ? (unsigned int) s.d[other[0]] : 1;
  p.b.src1 = other[0] >= 0 ? in[other[0]] : 0;
  p.b.dst1 = other[0] >= 0 ? out[other[0]] : 0;
  p.b.n2 = other[1] >= 0 ? (unsigned int) s.d[other[1]] : 1;
  p.b.src2 = other[1] >= 0 ? in[other[1]] : 0;
  p.b.dst2 = other[1] >= 0 ? out[other[1]] : 0;
  unsigned long long elements = 1;
  for (int k = 0; k < s.rank; k++)
    elements *= s.d[k];
  p.src_end = p.src + elements * es;

  bool inter;
  if (channels_fit (p, es, &inter)) {
    switch (es) {
      case 1:
        return launch_channels<Word<1>::T> (p, st, ran);
      case 2:
        return launch_channels<Word<2>::T> (p, st, ran);
      case 4:
        return launch_channels<Word<4>::T> (p, st, ran);
      default:
        return launch_channels<Word<8>::T> (p, st, ran);
    }
  }
  /* misaligned channels, but not a thin plane (both sides short) */
  if (has_channels (p, &inter) && (inter ? p.width : p.height) >= 16) {
    switch (es) {
      case 1:
        return launch_packed<1> (p, inter, st, ran);
      case 2:
        return launch_packed<2> (p, inter, st, ran);
      case 4:
        return launch_packed<4> (p, inter, st, ran);
      default:
        return launch_packed<8> (p, inter, st, ran);
    }
  }
  return plan_planes (p, es, st, ran);
}

}  // namespace

extern "C" CtResult
ct_permute_validate (const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4])
{
  unsigned int seen = 0;

  if (!dims || !perm)
    return CT_ERROR_INVALID_ARGUMENT;
  if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8)
    return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
  for (int i = 0; i < 4; i++) {
    if (perm[i] > 3 || (seen & (1u << perm[i])) || dims[i] == 0 ||
        dims[i] > 0xffffffffull)
      return CT_ERROR_INVALID_ARGUMENT;
    seen |= 1u << perm[i];
  }
  return CT_OK;
}

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
  CtResult res = ct_permute_validate (dims, elem_size, perm);
  cudaStream_t st = (cudaStream_t) stream;

  if (res != CT_OK)
    return res;
  /* the element kernels read and write whole elements: a pointer off
   * their alignment would fault the context */
  if (!src || !dst || (uintptr_t) src % elem_size != 0 ||
      (uintptr_t) dst % elem_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;

  Shape s = simplify (dims, perm);
  bool identity = true;
  for (int k = 0; k < s.rank; k++)
    if (s.d[k] > 0xffffffffull)
      return CT_ERROR_INVALID_ARGUMENT;   /* merged past 32-bit indices */
  for (int i = 0; i < s.rank; i++)
    identity = identity && s.p[i] == i;
  /* the sides of a 2-D transpose are the planner's, under 2^31 */
  if (s.rank > 1 && s.p[0] != 0 &&
      (s.d[0] > INT_MAX || s.d[s.p[0]] > INT_MAX))
    return CT_ERROR_INVALID_ARGUMENT;
  if (identity) {
    unsigned long long bytes = elem_size;
    for (int k = 0; k < 4; k++)
      bytes *= dims[k];
    path = CT_PATH_COPY;
    res = (CtResult) cudaMemcpyAsync (dst, src, bytes,
        cudaMemcpyDeviceToDevice, st);
  } else if (s.p[0] == 0) {
    res = permute_rows (s, src, dst, elem_size, st, &path);
  } else {
    res = permute_planes (s, src, dst, elem_size, st, &path);
  }
  if (res == CT_OK && ran != NULL)
    *ran = path;
  return res;
}
