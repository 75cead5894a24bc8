/* cudatranspose: YUV video to RGB on the GPU, and on to a tensor.
 *   - ct_yuv_to_rgb: packed RGB (or BGR) bytes, a thread a pixel
 *     (yuv-rgb-unit.h, the code the CPU loop runs), a warp along a row; a
 *     frame with more rows than the grid's y holds loops over them.
 *   - ct_yuv_to_tensor: the same values as a tensor in one pass, each
 *     channel written where the permutation puts it and through the
 *     arithmetic (arith-ops.cuh, the code ct_permute_arith runs) on the
 *     way. A thread converts four pixels of two rows that share their
 *     chroma rows; where width is innermost (CHW) it stores each channel's
 *     four values as one, in packed HWC its twelve as three. The frame may
 *     be turned on the way (a video direction): the steps say where each
 *     pixel lands, and a warp's lanes follow the input axis that lands
 *     nearer the innermost (the rows, for a direction that swaps the
 *     axes), so that their stores follow each other. An arithmetic
 *     that depends on the channel only is tabulated per block, for the 256
 *     values of each channel, before the pixels. The grid is one wave of
 *     blocks, each looping over its rows; for uint8 and float32 outputs a
 *     kernel is built for each kind of format (Kind).
 *   - ct_yuv_to_tensor_cpu: the same values on the host, a pixel at a
 *     time. */
#include "cudatranspose-kernels.h"
#include "cudatranspose-kernels-tests.h"
#include "arith-ops.cuh"
#include "transpose-common.cuh"
#include "yuv-rgb-unit.h"
#include "plan.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <type_traits>

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
 * steps of the frame as it comes, in elements; negative where the
 * direction counts the output's columns or rows back (the launch moves
 * the output's start to where pixel (0, 0) lands). */
struct Steps
{
  long long c, x, y;
};

/* The coordinate a per-channel operation along the turned frame's x or y
 * sees at pixel (x, y) of the frame as it comes: at0 + per_x x + per_y y. */
struct Along
{
  long long at0, per_x, per_y;
};

/* How a converted value becomes the output's: */
enum class Values
{
  kTable,                       /* 8-bit, through the arithmetic (or the
                                 * cast alone) as tabulated for each channel
                                 * in shared memory */
  kEach,                        /* 8-bit, through the arithmetic one by one
                                 * (per-channel operations along x or y) */
  kWhole,                       /* 16-bit input into a float type: the
                                 * 16-bit value / 257, then the arithmetic */
};

/* Value @v of channel @ch (the operations' channel) as the output's: the
 * 8-bit value through the typecast and the arithmetic; with @whole, the
 * 16-bit value divided by 257 in the (float) output type, so that 65535
 * gives 255 as an 8-bit frame's white does, then the arithmetic. */
template <typename Out, bool whole>
__host__ __device__ __forceinline__ Out
tensor_value (int v, long long ch, const ct::Ops & ops)
{
  if constexpr (whole) {
    const Out scaled = ct::nns_op<Out> ((Out) v, CT_ARITH_DIV, (Out) 257);

    return ct::arith_apply<Out> (scaled, ch, ops);
  } else {
    return ct::arith_element<uint8_t, Out> ((uint8_t) v, ch, ops);
  }
}

/* The channel a per-channel operation sees at channel @c of pixel (@x,
 * @y): its index along dimension @ch_dim (-1: none; 1 and 2, the turned
 * frame's x and y, as @along says; 3 has size 1). */
__host__ __device__ __forceinline__ long long
op_channel (int ch_dim, const Along & along, unsigned int c, unsigned int x,
    unsigned int y)
{
  return ch_dim < 0 ? -1LL : ch_dim == 0 ? (long long) c :
      ch_dim == 1 || ch_dim == 2 ? along.at0 + along.per_x * x +
      along.per_y * y : 0LL;
}

/* The one pass: a thread converts four pixels (x0 to x0 + 3, a quad) of
 * the rows 2k - 1 and 2k (pair k), which share their two chroma rows
 * (k - 1 and k, the vertical upsampling's), read once; a block is kLanes x
 * kRanks such threads. A warp's lanes take neighbouring quads of a pair
 * where the output's x step is the smaller (CHW, HWC: its stores then
 * follow each other), else neighbouring pairs of a quad (a direction that
 * swaps the axes, or a permutation that puts the height innermost: the
 * rows of a quad land side by side); the block's ranks, and its blocks
 * in turn, loop over the other. */
constexpr unsigned int kLanes = 64, kRanks = 4;

/* Whether a warp's lanes take neighbouring pairs, not quads (above). */
__host__ __device__ __forceinline__ bool
lanes_along_y (const Steps & step)
{
  return (step.y < 0 ? -step.y : step.y) < (step.x < 0 ? -step.x : step.x);
}

/* Four values stored as one. */
template <typename T>
struct alignas (4 * sizeof (T)) Four
{
  T v[4];
};

template <typename T>
__device__ __forceinline__ bool
aligned_four (const T * at)
{
  return (uintptr_t) at % sizeof (Four<T>) == 0;
}

/* The lumas of pixels x0 to x0 + @n - 1 of row @y (widened as
 * ct_yuv_sample widens them): one load where they are aligned. */
__device__ __forceinline__ void
luma4 (const CtYuvSrc & s, const CtYuvPlan & p, unsigned int x0,
    unsigned int y, unsigned int n, int luma[4])
{
  const unsigned char *row = s.y + (size_t) y * s.y_stride;

  if (!p.wide) {
    const unsigned char *at = row + x0;

    if (n == 4 && (uintptr_t) at % 4 == 0) {
      const unsigned int w =
          __ldg (reinterpret_cast<const unsigned int *>(at));

#pragma unroll
      for (int i = 0; i < 4; i++)
        luma[i] = (int) ((w >> (8 * i)) & 0xffu);
      return;
    }
#pragma unroll
    for (unsigned int i = 0; i < 4; i++)
      luma[i] = i < n ? __ldg (at + i) : 0;
    return;
  }
  const unsigned char *at = row + (size_t) x0 * 2;
  if (n == 4 && (uintptr_t) at % 8 == 0) {
    const uint2 w = __ldg (reinterpret_cast<const uint2 *>(at));

    luma[0] = (int) (w.x & 0xffffu);
    luma[1] = (int) (w.x >> 16);
    luma[2] = (int) (w.y & 0xffffu);
    luma[3] = (int) (w.y >> 16);
  } else {
#pragma unroll
    for (unsigned int i = 0; i < 4; i++)
      luma[i] = i < n ? (int) (__ldg (at + 2 * i) |
          (__ldg (at + 2 * i + 1) << 8)) : 0;
  }
  if (s.p010) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      luma[i] |= luma[i] >> 10;
  }
}

/* The values of @n pixels from x0 of row @y, val[channel][pixel], into
 * the output: four a store along x where width is innermost (forwards or,
 * mirrored, backwards) and in packed HWC, else one by one. */
template <typename Out>
__device__ __forceinline__ void
put4 (Out * dst, const Steps & step, unsigned int x0, unsigned int y,
    unsigned int n, const Out val[3][4])
{
  Out *o = dst + (long long) x0 * step.x + (long long) y * step.y;

  if (step.x == 1) {
#pragma unroll
    for (unsigned int c = 0; c < 3; c++) {
      Out *oc = o + c * step.c;

      if (n == 4 && aligned_four (oc)) {
        Four<Out> q;

#pragma unroll
        for (int i = 0; i < 4; i++)
          q.v[i] = val[c][i];
        *reinterpret_cast<Four<Out> *>(oc) = q;
      } else {
#pragma unroll
        for (unsigned int i = 0; i < 4; i++)
          if (i < n)
            oc[i] = val[c][i];
      }
    }
    return;
  }
  if (step.x == -1) {
#pragma unroll
    for (unsigned int c = 0; c < 3; c++) {
      Out *oc = o + c * step.c;

      if (n == 4 && aligned_four (oc - 3)) {
        Four<Out> q;

#pragma unroll
        for (int i = 0; i < 4; i++)
          q.v[i] = val[c][3 - i];
        *reinterpret_cast<Four<Out> *>(oc - 3) = q;
      } else {
#pragma unroll
        for (unsigned int i = 0; i < 4; i++)
          if (i < n)
            *(oc - (long long) i) = val[c][i];
      }
    }
    return;
  }
  if (step.c == 1 && step.x == 3 && n == 4 && aligned_four (o)) {
#pragma unroll
    for (int m = 0; m < 3; m++) {
      Four<Out> q;

#pragma unroll
      for (int i = 0; i < 4; i++)
        q.v[i] = val[(4 * m + i) % 3][(4 * m + i) / 3];
      reinterpret_cast<Four<Out> *>(o)[m] = q;
    }
    return;
  }
#pragma unroll
  for (unsigned int i = 0; i < 4; i++)
#pragma unroll
    for (unsigned int c = 0; c < 3; c++)
      if (i < n)
        o[(long long) i * step.x + c * step.c] = val[c][i];
}

/* Row @y's four pixels from @x0, of chroma @u and @v, converted and
 * written. */
template <typename Out, Values V>
__device__ __forceinline__ void
row4 (const CtYuvSrc & s, const CtYuvPlan & p, Out * dst, const Steps & step,
    int bgr, const ct::Ops & ops, int ch_dim, const Along & along,
    const Out * table,
    unsigned int x0, unsigned int n, unsigned int y, const int u[4],
    const int v[4])
{
  constexpr bool whole = V == Values::kWhole;
  int luma[4];
  Out val[3][4];

  luma4 (s, p, x0, y, n, luma);
#pragma unroll
  for (unsigned int i = 0; i < 4; i++) {
    int rgb[3];

    ct_yuv_rgb_of (&p, luma[i], u[i], v[i], whole, rgb);
    /* (selected, not indexed: an indexed array would live in local
     * memory) */
    const int ordered[3] = { bgr ? rgb[2] : rgb[0], rgb[1],
      bgr ? rgb[0] : rgb[2]
    };
    if constexpr (V == Values::kEach) {
      /* (the rare case, per-channel operations along x or y: each value
       * stored as computed, the operations' loop written once, not for
       * every value, which would take minutes to build) */
      Out *o = dst + (long long) (x0 + i) * step.x + (long long) y * step.y;

#pragma unroll 1
      for (unsigned int c = 0; c < 3 && i < n; c++)
        o[c * step.c] = tensor_value<Out, false> (c == 0 ? ordered[0] :
            c == 1 ? ordered[1] : ordered[2],
            op_channel (ch_dim, along, c, x0 + i, y), ops);
    } else {
#pragma unroll
      for (unsigned int c = 0; c < 3; c++) {
        if constexpr (V == Values::kTable)
          val[c][i] = table[c * 256 + (unsigned int) ordered[c]];
        else
          val[c][i] = tensor_value<Out, whole> (ordered[c],
              op_channel (ch_dim, along, c, x0 + i, y), ops);
      }
    }
  }
  if constexpr (V != Values::kEach)
    put4 (dst, step, x0, y, n, val);
}

/* The formats a kernel is built for: any (the plan says), or one kind,
 * its plan's tests then fixed at compile time (docs/performance.md has
 * what that saves). */
enum class Kind
{
  kAny,
  kBlocks,                      /* I420, YV12: each 2x2 block's chroma */
  kPairs,                       /* NV12, NV21: 8-bit pairs, upsampled */
  kDeep,                        /* P010, P016: 16-bit pairs, upsampled */
};

/* Quad @x0 of pair @k (above), converted and written. */
template <typename Out, Values V>
__device__ __forceinline__ void
quad_pair (const CtYuvSrc & s, const CtYuvPlan & p, Out * dst,
    const Steps & step, int bgr, const ct::Ops & ops, int ch_dim,
    const Along & along, const Out * table, unsigned int x0, unsigned int k)
{
  const unsigned int n = s.width - x0 < 4 ? s.width - x0 : 4;
  const unsigned int crows = (s.height + 1) / 2;
  int cu[2][4], cv[2][4], u[4], v[4];
  const unsigned int a = k > 0 ? k - 1 : 0, b = k < crows ? k : crows - 1;
  const bool v_filtered = p.filtered && p.v_filtered;

  ct_yuv_chroma_row4 (&s, &p, 0, a, x0, cu[0]);
  ct_yuv_chroma_row4 (&s, &p, 1, a, x0, cv[0]);
  ct_yuv_chroma_row4 (&s, &p, 0, b, x0, cu[1]);
  ct_yuv_chroma_row4 (&s, &p, 1, b, x0, cv[1]);
  /* row 2k - 1 weighs chroma row k - 1 three to one, row 2k row k;
   * without the vertical upsampling each takes its own */
  if (k > 0) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
      u[i] = v_filtered ? (3 * cu[0][i] + cu[1][i] + 2) >> 2 : cu[0][i];
      v[i] = v_filtered ? (3 * cv[0][i] + cv[1][i] + 2) >> 2 : cv[0][i];
    }
    row4<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table, x0, n,
        2 * k - 1, u, v);
  }
  if (2 * k < s.height) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
      u[i] = v_filtered ? (cu[0][i] + 3 * cu[1][i] + 2) >> 2 : cu[1][i];
      v[i] = v_filtered ? (cv[0][i] + 3 * cv[1][i] + 2) >> 2 : cv[1][i];
    }
    row4<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table, x0, n,
        2 * k, u, v);
  }
}

/* The 8-bit path of a table (Values::kTable, Kind::kBlocks and kPairs),
 * with about half the instructions ct_yuv_rgb_of spends on the same
 * values, and the frame's loads for both rows of a pair issued before
 * either row is converted (the pass waits on its loads and is bound by
 * its instructions, docs/performance.md):
 * - A sample's splat (ct_yuv_splat) is one byte permutation: its byte,
 *   offset by 128 (an XOR of the whole word, once for four), repeated into
 *   the top two bytes, is the 16-bit splat times 2^16, and the high word
 *   of its product with a coefficient is ct_yuv_mul_hi's.
 * - U and V travel as the two 16-bit halves of one word (0x00VV00UU) and
 *   are upsampled together: every weighted sum stays under 2^16. NV12
 *   reads its four pairs of a row in three loads where the chroma plane's
 *   rows are 4-byte aligned and the quad is away from the edges.
 * The sums are those of ct_yuv_rgb_of as long as none leaves 16 bits
 * (sums_fit; ct_yuv_sat8 cuts them there first). */

/* The 8-bit coefficients ct_yuv_rgb_of uses, as 16-bit values. */
struct Coeffs
{
  int y, rv, gu, gv, bu;
};

/* The most a product of a splat with @coeff can reach, either sign. */
static int
product_reach (int coeff)
{
  return abs ((int16_t) coeff) / 2 + 1;
}

/* Whether every sum of the 8-bit kernel stays within 16 bits: true for
 * every matrix and range ct_yuv_plan makes (the largest, B of BT.2020
 * limited range, reaches 425). */
static bool
sums_fit (const CtYuvPlan & p)
{
  const int y = product_reach (p.m[0][0]);
  const int r = y + product_reach (p.m[0][2]);
  const int g = y + product_reach (p.m[1][1]) + product_reach (p.m[1][2]);
  const int b = y + product_reach (p.m[2][1]);

  return r <= INT16_MAX && g <= INT16_MAX && b <= INT16_MAX;
}

/* The splat of byte @i of @w (offset by 128 already) times 2^16. */
__device__ __forceinline__ int
splat_hi (unsigned int w, unsigned int i)
{
  return (int) __byte_perm (w, 0, 0x0044u | i << 8 | i << 12);
}

/* The high word of @a x @b (of a splat_hi: ct_yuv_mul_hi's product):
 * one wide multiply (__mulhi also clears a register to add). */
__device__ __forceinline__ int
product_hi (int a, int b)
{
  return (int) ((long long) a * b >> 32);
}

/* @v clamped to a signed byte (ct_yuv_sat8 less its offset). */
__device__ __forceinline__ int
clamp_s8 (int v)
{
  return v < -128 ? -128 : v > 127 ? 127 : v;
}

/* (@a wa + @b wb + 2) / 4 in each 16-bit half, rounded down: the chroma
 * filters' weighted sums (weights adding up to 4), U and V at once. */
__device__ __forceinline__ unsigned int
blend (unsigned int a, unsigned int wa, unsigned int b, unsigned int wb)
{
  return ((a * wa + b * wb + 0x00020002u) >> 2) & 0x00ff00ffu;
}

/* How the chroma is upsampled, as weights (blend) fixed for the launch:
 * along a row, an even pixel weighs the sample before it and its own
 * (1, 3; 0, 4 where the chroma is sited on it), an odd one its own and
 * the next (3, 1; 2, 2); down the columns, the nearer chroma row 3 to 1
 * (4 to 0 where the rows are not upsampled). */
struct Weights
{
  unsigned int even, odd, near;
};

/* The chroma of the four pixels from @x0 on chroma row @cy, upsampled
 * along the row, as 0x00VV00UU; @pairs: NV12's or NV21's chroma plane
 * where its rows are 4-byte aligned and the quad is away from the edges
 * (else null), its pairs' bytes put in place by @uv_order. */
template <Kind K>
__device__ __forceinline__ void
chroma_quad (const CtYuvSrc & s, const CtYuvPlan & p, const Weights & wt,
    const unsigned char *pairs, unsigned int uv_order, unsigned int cy,
    unsigned int x0, unsigned int out[4])
{
  if (K == Kind::kPairs && pairs) {
    /* pairs j0 - 1 to j0 + 2 (j0 = x0 / 2), all inside the row */
    const unsigned char *row = pairs + (size_t) cy * s.u_stride + x0;
    const unsigned int before =
        __ldg (reinterpret_cast<const unsigned short *>(row - 2));
    const unsigned int both =
        __ldg (reinterpret_cast<const unsigned int *>(row));
    const unsigned int after =
        __ldg (reinterpret_cast<const unsigned short *>(row + 4));
    const unsigned int sm[4] = { __byte_perm (before, 0, uv_order),
      __byte_perm (both, 0, uv_order),
      __byte_perm (both, 0, uv_order + 0x0202u),
      __byte_perm (after, 0, uv_order)
    };

    out[0] = blend (sm[0], 4 - wt.even, sm[1], wt.even);
    out[1] = blend (sm[1], wt.odd, sm[2], 4 - wt.odd);
    out[2] = blend (sm[1], 4 - wt.even, sm[2], wt.even);
    out[3] = blend (sm[2], wt.odd, sm[3], 4 - wt.odd);
    return;
  }
  int u[4], v[4];

  ct_yuv_chroma_row4 (&s, &p, 0, cy, x0, u);
  ct_yuv_chroma_row4 (&s, &p, 1, cy, x0, v);
#pragma unroll
  for (int i = 0; i < 4; i++)
    out[i] = (unsigned int) u[i] | (unsigned int) v[i] << 16;
}

/* The lumas of the @n pixels from @x0 of row @y, a byte each. */
__device__ __forceinline__ unsigned int
luma_word (const CtYuvSrc & s, unsigned int x0, unsigned int n,
    unsigned int y)
{
  const unsigned char *at = s.y + (size_t) y * s.y_stride + x0;
  unsigned int w = 0;

  if (n == 4 && (uintptr_t) at % 4 == 0)
    return __ldg (reinterpret_cast<const unsigned int *>(at));
#pragma unroll
  for (unsigned int i = 0; i < 4; i++)
    if (i < n)
      w |= (unsigned int) __ldg (at + i) << (8 * i);
  return w;
}

/* Row @y's four pixels from @x0, of lumas @lw and chroma @uv
 * (0x00VV00UU), converted through the tables (@centre: value 0 of the
 * first, 256 apart) and written. */
template <typename Out>
__device__ __forceinline__ void
row4_fast (const Coeffs & k, Out * dst, const Steps & step, int bgr,
    const Out * centre, unsigned int x0, unsigned int n, unsigned int y,
    unsigned int lw, const unsigned int uv[4])
{
  Out val[3][4];

  lw ^= 0x80808080u;
#pragma unroll
  for (unsigned int i = 0; i < 4; i++) {
    const unsigned int c = uv[i] ^ 0x00800080u;
    const int us = splat_hi (c, 0), vs = splat_hi (c, 2);
    const int ys = product_hi (splat_hi (lw, i), k.y);
    const int r = clamp_s8 (ys + product_hi (vs, k.rv));
    const int g = clamp_s8 (ys + product_hi (us, k.gu) +
        product_hi (vs, k.gv));
    const int b = clamp_s8 (ys + product_hi (us, k.bu));

    val[0][i] = centre[bgr ? b : r];
    val[1][i] = centre[256 + g];
    val[2][i] = centre[2 * 256 + (bgr ? r : b)];
  }
  put4 (dst, step, x0, y, n, val);
}

/* quad_pair for the 8-bit path of a table (above). */
template <typename Out, Kind K>
__device__ __forceinline__ void
quad_pair_fast (const CtYuvSrc & s, const CtYuvPlan & p, const Coeffs & k,
    const Weights & wt, const unsigned char *pairs, unsigned int uv_order,
    Out * dst, const Steps & step, int bgr, const Out * centre,
    unsigned int x0, unsigned int kp)
{
  const unsigned int n = s.width - x0 < 4 ? s.width - x0 : 4;
  const unsigned int crows = (s.height + 1) / 2;
  const unsigned int a = kp > 0 ? kp - 1 : 0, b = kp < crows ? kp : crows - 1;
  const bool upper = kp > 0, lower = 2 * kp < s.height;
  /* away from the edges: no sample clamped, no pixel kept as it is */
  const unsigned char *quick = x0 >= 4 && x0 + 6 <= s.width ? pairs :
      nullptr;
  const unsigned int lw0 = upper ? luma_word (s, x0, n, 2 * kp - 1) : 0;
  const unsigned int lw1 = lower ? luma_word (s, x0, n, 2 * kp) : 0;
  unsigned int ca[4], cb[4], uv[4];

  chroma_quad<K> (s, p, wt, quick, uv_order, a, x0, ca);
  chroma_quad<K> (s, p, wt, quick, uv_order, b, x0, cb);
  if (upper) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      uv[i] = blend (ca[i], wt.near, cb[i], 4 - wt.near);
    row4_fast<Out> (k, dst, step, bgr, centre, x0, n, 2 * kp - 1, lw0, uv);
  }
  if (lower) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      uv[i] = blend (ca[i], 4 - wt.near, cb[i], wt.near);
    row4_fast<Out> (k, dst, step, bgr, centre, x0, n, 2 * kp, lw1, uv);
  }
}

template <typename Out, Values V, Kind K>
__global__ void __launch_bounds__ (kLanes * kRanks)
k_yuv_tensor (CtYuvSrc any_s, CtYuvPlan any_p, Out *dst, Steps step,
    int bgr, ct::Ops ops, int ch_dim, Along along)
{
  constexpr bool fast = V == Values::kTable && (K == Kind::kBlocks ||
      K == Kind::kPairs);
  __shared__ Out table[V == Values::kTable ? 3 * 256 : 1];
  CtYuvPlan p = any_p;
  CtYuvSrc s = any_s;

  /* (what the kind fixes, the compiler folds) */
  if constexpr (K == Kind::kBlocks) {
    p.wide = 0;
    p.filtered = 0;
    s.p010 = 0;
    s.chroma_pstride = 1;
  } else if constexpr (K == Kind::kPairs) {
    p.wide = 0;
    p.filtered = 1;
    s.p010 = 0;
    s.chroma_pstride = 2;
  } else if constexpr (K == Kind::kDeep) {
    p.wide = 1;
    p.filtered = 1;
    s.chroma_pstride = 4;
  }

  if constexpr (V == Values::kTable) {
    /* (every thread takes part, before any leaves) */
    for (unsigned int i = threadIdx.y * kLanes + threadIdx.x; i < 3 * 256;
        i += kLanes * kRanks)
      table[i] = tensor_value<Out, false> ((int) (i & 255),
          op_channel (ch_dim, along, i >> 8, 0, 0), ops);
    __syncthreads ();
  }
  const unsigned int quads = (s.width + 3) / 4, pairs = s.height / 2 + 1;
  const unsigned int lane = blockIdx.x * kLanes + threadIdx.x;
  const unsigned int first = blockIdx.y * kRanks + threadIdx.y;
  const unsigned int stride = gridDim.y * kRanks;

  /* one loop for both orientations (built once: the body is large) */
  const bool along_y = lanes_along_y (step);
  const unsigned int lanes = along_y ? pairs : quads;
  const unsigned int ranks = along_y ? quads : pairs;

  if (lane >= lanes)
    return;
  if constexpr (fast) {
    const Coeffs k = { (int16_t) p.m[0][0], (int16_t) p.m[0][2],
      (int16_t) p.m[1][1], (int16_t) p.m[1][2], (int16_t) p.m[2][1]
    };
    const Weights wt = { p.filtered && !p.h_cosited ? 3u : 4u,
      p.filtered && !p.h_cosited ? 3u : 2u,
      p.filtered && p.v_filtered ? 3u : 4u
    };
    /* NV12, NV21: the chroma plane, where its rows are 4-byte aligned */
    const unsigned char *base = s.u < s.v ? s.u : s.v;
    const bool aligned = K == Kind::kPairs && (uintptr_t) base % 4 == 0 &&
        s.u_stride % 4 == 0;
    const unsigned int uv_order = s.u < s.v ? 0x4140u : 0x4041u;

    for (unsigned int r = first; r < ranks; r += stride)
      quad_pair_fast<Out, K> (s, p, k, wt, aligned ? base : nullptr,
          uv_order, dst, step, bgr, table + 128,
          4 * (along_y ? r : lane), along_y ? lane : r);
  } else {
    for (unsigned int r = first; r < ranks; r += stride)
      quad_pair<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table,
          4 * (along_y ? r : lane), along_y ? lane : r);
  }
}

/* Blocks of k_yuv_tensor<Out, V, K> the current device holds at once, for
 * a grid of one wave; 0 if unknown. The occupancy is asked once per device
 * (as the device's attributes are, ct_device_now), not at every launch. */
template <typename Out, Values V, Kind K>
unsigned long long
resident_blocks ()
{
  /* blocks per multiprocessor plus one, per device; 0: not asked yet */
  static std::atomic<int> per_sm_of[ct::kMaxDevices];
  CtPlanDevice d;
  int device = 0, per_sm = 0;

  if (ct_device_now (&d) != CT_OK || cudaGetDevice (&device) != cudaSuccess)
    return 0;
  const bool cached = device >= 0 && device < ct::kMaxDevices;
  const int known = cached ? per_sm_of[device].load () : 0;
  if (known > 0) {
    per_sm = known - 1;
  } else {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
            k_yuv_tensor<Out, V, K>, kLanes * kRanks, 0) != cudaSuccess)
      return 0;
    if (cached)
      per_sm_of[device].store (per_sm + 1);
  }
  return (unsigned long long) per_sm * d.n_sms;
}

/* A kernel of the one pass, and how many of its blocks make a wave. */
template <typename Out>
struct Launch
{
  void (*kernel) (CtYuvSrc, CtYuvPlan, Out *, Steps, int, ct::Ops, int,
      Along);
  unsigned long long (*resident) ();
};

template <typename Out, Values V, Kind K>
constexpr Launch<Out>
launch_of ()
{
  return Launch<Out> { k_yuv_tensor<Out, V, K>, resident_blocks<Out, V, K> };
}

/* The kernel for plan @p: built for its kind of format where the output is
 * uint8 or float32 (a kernel for each kind of each type would take four
 * times the build), else for any. */
template <typename Out, Values V>
Launch<Out>
launch_for (const CtYuvPlan & p)
{
  if constexpr (std::is_same_v<Out, uint8_t> || std::is_same_v<Out, float>) {
    if (p.wide)
      return launch_of<Out, V, Kind::kDeep> ();
    return p.filtered ? launch_of<Out, V, Kind::kPairs> () :
        launch_of<Out, V, Kind::kBlocks> ();
  }
  return launch_of<Out, V, Kind::kAny> ();
}

/* 16-bit input into float type Out, whole */
template <typename Out>
Launch<Out>
whole_launch ()
{
  if constexpr (std::is_floating_point_v<Out>)
    return launch_of<Out, Values::kWhole, std::is_same_v<Out, float> ?
        Kind::kDeep : Kind::kAny> ();
  return Launch<Out> { nullptr, nullptr };
}

/* What both entries check and work out (prepare): the plan, the frame's
 * planes, where its values land (the steps, and the offset in elements of
 * pixel (0, 0)'s in the output), the operations cast to the output type,
 * the dimension of their channels and where along it a pixel is, the
 * output type, the channel order; empty for a frame without pixels
 * (nothing to do). */
struct Job
{
  CtYuvPlan p;
  CtYuvSrc src;
  Steps step;
  long long start;
  ct::Ops ops;
  int ch_dim;
  Along along;
  CtType out;
  int bgr;
  bool empty;
};

/* The one pass's launch for output type Out: by how its values come. */
template <typename Out>
CtResult
launch_tensor (const Job & j, void *dst, cudaStream_t stream)
{
  constexpr bool is_float = std::is_floating_point_v<Out>;
  const CtYuvSrc & s = j.src;

  if ((uintptr_t) dst % sizeof (Out) != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  const Launch<Out> run = is_float && j.p.wide ? whole_launch<Out> () :
      j.ch_dim == 1 || j.ch_dim == 2 ? launch_of<Out, Values::kEach,
      Kind::kAny> () : !j.p.wide && !sums_fit (j.p) ?
      launch_of<Out, Values::kTable, Kind::kAny> () :
      launch_for<Out, Values::kTable> (j.p);
  const unsigned int pairs = s.height / 2 + 1, quads = (s.width + 3) / 4;
  const bool along_y = lanes_along_y (j.step);
  const dim3 block (kLanes, kRanks);
  const unsigned int gx = (unsigned int) div_up (along_y ? pairs : quads,
      kLanes);
  unsigned long long gy = div_up (along_y ? quads : pairs, kRanks);
  /* no more blocks than one wave holds, each looping over its rows: a
   * last, partial wave would cost as much as a full one */
  const unsigned long long wave = run.resident () / gx;

  if (wave > 0 && gy > wave)
    gy = wave;
  const dim3 grid (gx, (unsigned int) (gy < kMaxGridY ? gy : kMaxGridY));
  run.kernel<<<grid, block, 0, stream>>> (s, j.p, static_cast<Out *>(dst) +
      j.start, j.step, j.bgr, j.ops, j.ch_dim, j.along);
  return (CtResult) cudaGetLastError ();
}

/* launch_tensor for each output type, in CtType order */
using LaunchTensor = CtResult (*) (const Job &, void *, cudaStream_t);
constexpr LaunchTensor kLaunchTensor[CT_TYPE_COUNT] = {
  launch_tensor<int8_t>, launch_tensor<uint8_t>, launch_tensor<int16_t>,
  launch_tensor<uint16_t>, launch_tensor<int32_t>, launch_tensor<uint32_t>,
  launch_tensor<int64_t>, launch_tensor<uint64_t>, launch_tensor<float>,
  launch_tensor<double>,
};

/* The same values on the host, a pixel at a time. */
template <typename Out>
CtResult
tensor_cpu (const Job & j, void *dst)
{
  const bool whole = std::is_floating_point_v<Out> && j.p.wide;
  Out *out = static_cast<Out *>(dst) + j.start;

  for (unsigned int y = 0; y < j.src.height; y++)
    for (unsigned int x = 0; x < j.src.width; x++) {
      int rgb[3];
      Out *o = out + (long long) x * j.step.x + (long long) y * j.step.y;

      ct_yuv_pixel16 (&j.src, &j.p, x, y, whole, rgb);
      for (unsigned int c = 0; c < 3; c++) {
        const int v = rgb[j.bgr && c != 1 ? 2 - c : c];
        const long long ch = op_channel (j.ch_dim, j.along, c, x, y);

        o[c * j.step.c] = whole ? tensor_value<Out, true> (v, ch, j.ops) :
            tensor_value<Out, false> (v, ch, j.ops);
      }
    }
  return CT_OK;
}

using TensorCpu = CtResult (*) (const Job &, void *);
constexpr TensorCpu kTensorCpu[CT_TYPE_COUNT] = {
  tensor_cpu<int8_t>, tensor_cpu<uint8_t>, tensor_cpu<int16_t>,
  tensor_cpu<uint16_t>, tensor_cpu<int32_t>, tensor_cpu<uint32_t>,
  tensor_cpu<int64_t>, tensor_cpu<uint64_t>, tensor_cpu<float>,
  tensor_cpu<double>,
};

/* Where the values land: the frame turned by @mapping is the HWC tensor
 * "3:W':H':1" (W' x H' the turned frame's size), laid out by @perm; its
 * steps along x' and y' become the frame's own along x and y, which of
 * them as the mapping swaps the axes, negative where it mirrors them, the
 * start moved to where (0, 0) lands. A per-channel operation along x' or
 * y' (@ch_dim 1 or 2) counts there too. */
CtResult
place (const CtYuvFrame * f, CtMapping mapping, const unsigned int perm[4],
    Job * j)
{
  const bool keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
  const bool back_x = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  const bool back_y = (mapping & CT_MAPPING_MIRROR_ROWS) != 0;
  const unsigned long long w = keep ? f->width : f->height;
  const unsigned long long h = keep ? f->height : f->width;
  const unsigned long long hwc[4] = { 3, w, h, 1 };
  CtResult res;

  if ((unsigned int) mapping > CT_MAPPING_ROTATE_180)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((res = ct_permute_validate (hwc, 1, perm)) != CT_OK)
    return res;
  /* output dimension i has stride acc, and is input dimension perm[i] */
  unsigned long long in_step[4], acc = 1;
  for (unsigned int i = 0; i < 4; i++) {
    in_step[perm[i]] = acc;
    acc *= hwc[perm[i]];
  }
  const long long along_x = back_x ? -(long long) in_step[1] :
      (long long) in_step[1];
  const long long along_y = back_y ? -(long long) in_step[2] :
      (long long) in_step[2];
  j->step.c = (long long) in_step[0];
  j->step.x = keep ? along_x : along_y;
  j->step.y = keep ? along_y : along_x;
  j->start = (back_x && w > 0 ? (long long) ((w - 1) * in_step[1]) : 0) +
      (back_y && h > 0 ? (long long) ((h - 1) * in_step[2]) : 0);
  /* x' (or y') = its first value, one step either way along x or y */
  const bool on_x = j->ch_dim == 1;
  const bool back = on_x ? back_x : back_y;
  const long long sign = back ? -1 : 1;
  j->along.at0 = back ? (long long) (on_x ? w : h) - 1 : 0;
  j->along.per_x = keep == on_x ? sign : 0;
  j->along.per_y = keep == on_x ? 0 : sign;
  return CT_OK;
}

CtResult
prepare (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, const void *dst,
    Job * j)
{
  CtResult res = ct_yuv_plan (f, &j->p);

  if (res != CT_OK)
    return res;
  if (arith && ((res = ct_arith_validate (arith)) != CT_OK ||
          arith->in_type != CT_TYPE_UINT8))
    return res != CT_OK ? res : CT_ERROR_INVALID_ARGUMENT;
  j->out = arith ? arith->out_type : CT_TYPE_UINT8;
  if ((unsigned int) j->out >= CT_TYPE_COUNT)
    return CT_ERROR_INVALID_ARGUMENT;
  j->bgr = bgr;
  /* the operations, their operands cast to the output type */
  memset (&j->ops, 0, sizeof (j->ops));
  j->ch_dim = -1;
  if (arith) {
    j->ops.n = arith->n_ops;
    for (unsigned int i = 0; i < arith->n_ops; i++) {
      bool zero = false;

      j->ops.kind[i] = (unsigned char) arith->ops[i].kind;
      j->ops.channel[i] = arith->ops[i].channel;
      j->ops.operand[i] = ct::operand_bits (arith->out_type, arith->ops[i],
          &zero);
      if (arith->ops[i].channel >= 0)
        j->ch_dim = (int) (arith->channel_dim < 4 ? arith->channel_dim : 3);
    }
  }
  if ((res = place (f, mapping, perm, j)) != CT_OK)
    return res;
  j->empty = f->width == 0 || f->height == 0;
  if (j->empty)
    return CT_OK;
  if (dst == nullptr)
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &j->p, &j->src);
  return CT_OK;
}

}  // namespace

extern "C" CtResult
ct_yuv_to_tensor (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, void *dst,
    CtStream stream, CtPath * ran)
{
  Job j;
  CtResult res = prepare (f, bgr, mapping, perm, arith, dst, &j);

  if (res == CT_OK && !j.empty)
    res = kLaunchTensor[j.out] (j, dst,
        reinterpret_cast<cudaStream_t>(stream));
  if (res == CT_OK && ran)
    *ran = CT_PATH_YUV_TENSOR;
  return res;
}

extern "C" CtResult
ct_yuv_to_tensor_cpu (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, void *dst)
{
  Job j;
  CtResult res = prepare (f, bgr, mapping, perm, arith, dst, &j);

  if (res != CT_OK || j.empty)
    return res;
  return kTensorCpu[j.out] (j, dst);
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
