/* cudatranspose: the one pass from a YUV frame to a tensor
 * (ct_yuv_to_tensor, yuv-rgb.cu), its pieces below the kernel that
 * convert: a thread's quad of a pair of rows converted (row4, quad_pair),
 * the arithmetic on its values, and the 8-bit path of a table with its
 * packed chroma (convert_pair). Where the values land and how they are
 * stored is yuv-tensor-stores.cuh's. yuv-rgb.cu holds the kernels, their
 * launches and the host entries; this file is included there only. */
#pragma once

#include "arith-ops.cuh"
#include "plan-yuv.h"
#include "yuv-rgb-unit.h"
#include "yuv-tensor-stores.cuh"

#include <stdint.h>

namespace {

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
 * gives 255 as an 8-bit frame's white does, then the arithmetic. (The
 * GPU's pass computes the whole values a row at a time, whole_scaled and
 * arith_row4 below: the same values.) */
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
 * (k - 1 and k, the vertical upsampling's), read once (4:2:2 and 4:4:4,
 * whose rows each have their own, in the same pairs: the kernels of any
 * kind); a block is kLanes x kRanks such threads. A warp's lanes take
 * neighbouring quads of a pair where the output's x step is the smaller
 * (CHW, HWC: its stores then follow each other), else neighbouring pairs
 * of a quad (a direction that swaps the axes, or a permutation that puts
 * the height innermost: the rows of a quad land side by side); the
 * block's ranks, and its blocks in turn, loop over the other. */
constexpr unsigned int kLanes = CT_YUV_LANES, kRanks = CT_YUV_RANKS;

/* Whether a warp's lanes take neighbouring pairs, not quads (above). */
__device__ __forceinline__ bool
lanes_along_y (const Steps & step)
{
  return ct_yuv_lanes_along_y (step.x, step.y);
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
  if (s.low10) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const unsigned int v = ((unsigned int) luma[i] << 6) & 0xffffu;

      luma[i] = (int) (v | v >> 10);
    }
  }
}

/* tensor_value<Out, true>'s first step on the GPU: the 16-bit value / 257
 * as the division rounds it, without dividing (ct_yuv_div257f). */
template <typename Out>
__device__ __forceinline__ Out
whole_scaled (int v)
{
  if constexpr (std::is_same_v<Out, float>)
    return ct_yuv_div257f (v);
  else
    return ct_yuv_div257d (v);
}

/* Operation @op with operand @b on those of a row's twelve values
 * (val[channel][pixel]) whose channel is @want (any, if negative): the
 * channel is c where the operations count channels (@ch_dim 0), else
 * the pixel's, @at. */
template <typename Out, unsigned int op>
__device__ __forceinline__ void
op_on_row4 (Out val[3][4], Out b, long long want, int ch_dim,
    const long long at[4])
{
#pragma unroll
  for (unsigned int c = 0; c < 3; c++)
#pragma unroll
    for (unsigned int i = 0; i < 4; i++)
      if (want < 0 || want == (ch_dim == 0 ? (long long) c : at[i]))
        val[c][i] = ct::nns_op<Out> (val[c][i], op, b);
}

/* The arithmetic on a row's twelve values (pixels @x0 to @x0 + 3 of row
 * @y), one operation at a time for all twelve: the same operations in the
 * same order as ct::arith_apply gives each value, so the same values, but
 * each operation's kind, channel and operand read once, and its branch
 * the whole warp's, where value by value each walked the list on its own
 * (docs/performance.md has what that cost). */
template <typename Out>
__device__ __forceinline__ void
arith_row4 (Out val[3][4], const ct::Ops & ops, int ch_dim,
    const Along & along, unsigned int x0, unsigned int y)
{
  long long at[4];

#pragma unroll
  for (unsigned int i = 0; i < 4; i++)
    at[i] = op_channel (ch_dim, along, 0, x0 + i, y);
#pragma unroll 1
  for (unsigned int k = 0; k < ops.n; k++) {
    const long long want = ops.channel[k];
    const Out b = ct::from_bits<Out> (ops.operand[k]);

    if (ops.kind[k] == CT_ARITH_ADD)
      op_on_row4<Out, CT_ARITH_ADD> (val, b, want, ch_dim, at);
    else if (ops.kind[k] == CT_ARITH_MUL)
      op_on_row4<Out, CT_ARITH_MUL> (val, b, want, ch_dim, at);
    else
      op_on_row4<Out, CT_ARITH_DIV> (val, b, want, ch_dim, at);
  }
}

/* Row @y's four pixels from @x0, of chroma @u and @v, converted and
 * handed to @put (ToOutput or IntoTile); Values::kEach's written
 * straight into @dst. */
template <typename Out, Values V, typename Put>
__device__ __forceinline__ void
row4 (const CtYuvSrc & s, const CtYuvPlan & p, Out * dst, const Steps & step,
    int bgr, const ct::Ops & ops, int ch_dim, const Along & along,
    const Out * table,
    unsigned int x0, unsigned int n, unsigned int y, const int u[4],
    const int v[4], const Put & put)
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
          val[c][i] = whole_scaled<Out> (ordered[c]);
      }
    }
  }
  if constexpr (whole)
    arith_row4 (val, ops, ch_dim, along, x0, y);
  if constexpr (V != Values::kEach)
    put (x0, y, n, val);
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
  kSited,                       /* kPairs sited as decoders site them
                                 * (MPEG-2's: on the even columns, between
                                 * the rows), its weights fixed */
};

/* Whether values @V of kind @K take the 8-bit path of a table
 * (convert_pair, below) rather than quad_pair's: both kernels of the pass
 * choose by it. */
template <Values V, Kind K>
constexpr bool kEightBitPath = V == Values::kTable && (K == Kind::kBlocks ||
    K == Kind::kPairs || K == Kind::kSited);

/* The chroma rows of pair @kp's rows 2k - 1 and 2k, clamped to the
 * plane: k - 1 and k, which both rows upsample (4:2:0, @v_shift 1; the
 * 8-bit path's kinds pass 1), else each row its own (4:2:2, 4:4:4). */
__device__ __forceinline__ void
chroma_rows (const CtYuvSrc & s, unsigned int v_shift, unsigned int kp,
    unsigned int &a, unsigned int &b)
{
  if (v_shift == 0) {
    a = kp > 0 ? 2 * kp - 1 : 0;
    b = 2 * kp < s.height ? 2 * kp : s.height - 1;
    return;
  }
  const unsigned int crows = (s.height + 1) / 2;

  a = kp > 0 ? kp - 1 : 0;
  b = kp < crows ? kp : crows - 1;
}

/* Quad @x0 of pair @k (above), converted and handed to @put (row4). */
template <typename Out, Values V, typename Put>
__device__ __forceinline__ void
quad_pair (const CtYuvSrc & s, const CtYuvPlan & p, Out * dst,
    const Steps & step, int bgr, const ct::Ops & ops, int ch_dim,
    const Along & along, const Out * table, unsigned int x0, unsigned int k,
    const Put & put)
{
  const unsigned int n = s.width - x0 < 4 ? s.width - x0 : 4;
  int cu[2][4], cv[2][4], u[4], v[4];
  unsigned int a, b;
  const bool v_filtered = p.filtered && p.v_filtered;

  chroma_rows (s, p.v_shift, k, a, b);

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
        2 * k - 1, u, v, put);
  }
  if (2 * k < s.height) {
#pragma unroll
    for (int i = 0; i < 4; i++) {
      u[i] = v_filtered ? (cu[0][i] + 3 * cu[1][i] + 2) >> 2 : cu[1][i];
      v[i] = v_filtered ? (cv[0][i] + 3 * cv[1][i] + 2) >> 2 : cv[1][i];
    }
    row4<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table, x0, n,
        2 * k, u, v, put);
  }
}

/* The 8-bit path of a table (Values::kTable, Kind::kBlocks, kPairs, kSited),
 * with about half the instructions ct_yuv_rgb_of spends on the same
 * values, and the frame's loads issued early (the pass waits on its loads
 * and is bound by its instructions, docs/performance.md):
 * - A sample's splat (ct_yuv_splat) is one byte permutation: its byte,
 *   offset by 128 (an XOR of the whole word, once for four), repeated into
 *   the top two bytes, is the 16-bit splat times 2^16, and the high word
 *   of its product with a coefficient is ct_yuv_mul_hi's.
 * - U and V travel as the two 16-bit halves of one word (0x00VV00UU) and
 *   are upsampled together: every weighted sum stays under 2^16. NV12
 *   reads each pair of bytes in one load.
 * - BGR costs nothing a pixel: U and V change places in that word and in
 *   the coefficients (Coeffs::of), so that the first channel computed is
 *   the output's first.
 * - A thread's loads for both rows of a pair are issued before either row
 *   is converted, and for NV12 (most of the frames decoders give) those of
 *   its next pair too, before this one is converted (PairLoads).
 * The sums are those of ct_yuv_rgb_of as long as none leaves 16 bits
 * (ct_plan_yuv_sums_fit, plan-yuv.c; ct_yuv_sat8 cuts them there first). */

/* The 8-bit coefficients ct_yuv_rgb_of uses, as 16-bit values, for the
 * output's channels in its order: the first channel takes the chroma
 * word's low half times @first, the last its high half times @last. */
struct Coeffs
{
  int y, first, gu, gv, last;

  /* Plan @p's, for RGB; for BGR (@bgr) with U and V swapped, as the
   * chroma word then has them. */
  __device__ static Coeffs of (const CtYuvPlan & p, int bgr)
  {
    const int y = (int16_t) p.m[0][0], rv = (int16_t) p.m[0][2];
    const int gu = (int16_t) p.m[1][1], gv = (int16_t) p.m[1][2];
    const int bu = (int16_t) p.m[2][1];

    return bgr ? Coeffs { y, bu, gv, gu, rv } : Coeffs { y, rv, gu, gv, bu };
  }
};

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

/* What a launch of the 8-bit path fixes: its coefficients and weights;
 * NV12's or NV21's chroma plane (its first byte; the launch sees that its
 * pairs are 2-byte aligned), and the byte permutation that puts a pair's
 * bytes in place (0x00VV00UU, or swapped for BGR); @swap: whether I420's
 * and YV12's U and V change places (BGR). */
struct Fast
{
  Coeffs k;
  Weights wt;
  const unsigned char *pairs;
  unsigned int uv_order;
  bool swap;
};

/* NV12's or NV21's chroma pairs j0 - 1 to j0 + 2 of chroma row @cy (j0 =
 * x0 / 2, quad @x0), clamped to the row as ct_yuv_chroma_row4 clamps
 * them: a load each. (Clamped, the weights of chroma_of_pairs give the
 * edges' pixels their own sample, as ct_yuv_chroma_filter4 does.)
 * Kind::kSited's pixels never weigh pair j0 - 1: it is not read. */
template <Kind K>
__device__ __forceinline__ void
load_pairs (const CtYuvSrc & s, const Fast & f, unsigned int cy,
    unsigned int x0, unsigned int w[4])
{
  const unsigned short *row = reinterpret_cast<const unsigned short *>(
      f.pairs + (size_t) cy * s.u_stride);
  const unsigned int last = (s.width - 1) >> 1, j0 = x0 >> 1;

#pragma unroll
  for (unsigned int k = K == Kind::kSited ? 1 : 0; k < 4; k++) {
    const unsigned int j = k == 0 ? (j0 > 0 ? j0 - 1 : 0) :
        j0 + k - 1 > last ? last : j0 + k - 1;

    w[k] = __ldg (row + j);
  }
}

/* (@a + @b + 1) / 2 in each 16-bit half, rounded down: blend (@a, 2, @b,
 * 2) in two instructions fewer. */
__device__ __forceinline__ unsigned int
halfway (unsigned int a, unsigned int b)
{
  return ((a + b + 0x00010001u) >> 1) & 0x00ff00ffu;
}

/* The chroma of the four pixels of the quad whose pairs load_pairs read
 * into @w, upsampled along the row, as 0x00VV00UU (or swapped). Sited on
 * the even pixels (kSited's fixed weights: 0, 4 and 2, 2), an even pixel
 * takes its own pair and an odd one the two beside it halfway. */
template <Kind K>
__device__ __forceinline__ void
chroma_of_pairs (const Fast & f, const unsigned int w[4], unsigned int out[4])
{
  unsigned int sm[4];

#pragma unroll
  for (int k = K == Kind::kSited ? 1 : 0; k < 4; k++)
    sm[k] = __byte_perm (w[k], 0, f.uv_order);

  if constexpr (K == Kind::kSited) {
    out[0] = sm[1];
    out[1] = halfway (sm[1], sm[2]);
    out[2] = sm[2];
    out[3] = halfway (sm[2], sm[3]);
    return;
  }
  out[0] = blend (sm[0], 4 - f.wt.even, sm[1], f.wt.even);
  out[1] = blend (sm[1], f.wt.odd, sm[2], 4 - f.wt.odd);
  out[2] = blend (sm[1], 4 - f.wt.even, sm[2], f.wt.even);
  out[3] = blend (sm[2], f.wt.odd, sm[3], 4 - f.wt.odd);
}

/* The same for I420 and YV12, a sample at a time (ct_yuv_chroma_row4). */
__device__ __forceinline__ void
chroma_of_samples (const CtYuvSrc & s, const CtYuvPlan & p, const Fast & f,
    unsigned int cy, unsigned int x0, unsigned int out[4])
{
  int u[4], v[4];

  ct_yuv_chroma_row4 (&s, &p, 0, cy, x0, u);
  ct_yuv_chroma_row4 (&s, &p, 1, cy, x0, v);
#pragma unroll
  for (int i = 0; i < 4; i++)
    out[i] = f.swap ? (unsigned int) v[i] | (unsigned int) u[i] << 16 :
        (unsigned int) u[i] | (unsigned int) v[i] << 16;
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
 * (0x00VV00UU, or swapped), converted through the tables (@centre: value
 * 0 of the first, 256 apart) and handed to @put (ToOutput, IntoTile). */
template <typename Out, typename Put>
__device__ __forceinline__ void
row4_fast (const Coeffs & k, const Put & put, const Out * centre,
    unsigned int x0, unsigned int n, unsigned int y, unsigned int lw,
    const unsigned int uv[4])
{
  Out val[3][4];

  lw ^= 0x80808080u;
#pragma unroll
  for (unsigned int i = 0; i < 4; i++) {
    const unsigned int c = uv[i] ^ 0x00800080u;
    const int lo = splat_hi (c, 0), hi = splat_hi (c, 2);
    const int ys = product_hi (splat_hi (lw, i), k.y);

    val[0][i] = centre[clamp_s8 (ys + product_hi (hi, k.first))];
    val[1][i] = centre[256 + clamp_s8 (ys + product_hi (lo, k.gu) +
            product_hi (hi, k.gv))];
    val[2][i] = centre[2 * 256 + clamp_s8 (ys + product_hi (lo, k.last))];
  }
  put (x0, y, n, val);
}

/* A pair's loads (quad @x0 of pair @kp): the lumas of both rows (0 for a
 * row outside the frame), and NV12's or NV21's two chroma rows' pairs
 * (I420 and YV12 read theirs as the pair is converted). */
struct PairLoads
{
  unsigned int lw0, lw1, c[2][4];
};

template <Kind K>
__device__ __forceinline__ void
load_pair (const CtYuvSrc & s, const Fast & f, unsigned int x0,
    unsigned int kp, PairLoads & in)
{
  const unsigned int n = s.width - x0 < 4 ? s.width - x0 : 4;
  unsigned int a, b;

  chroma_rows (s, 1, kp, a, b);
  in.lw0 = kp > 0 ? luma_word (s, x0, n, 2 * kp - 1) : 0;
  in.lw1 = 2 * kp < s.height ? luma_word (s, x0, n, 2 * kp) : 0;
  if constexpr (K == Kind::kPairs || K == Kind::kSited) {
    load_pairs<K> (s, f, a, x0, in.c[0]);
    load_pairs<K> (s, f, b, x0, in.c[1]);
  }
}

/* Quad @x0 of pair @kp, of the loads @in (load_pair), converted and
 * handed to @put: the quad_pair of the 8-bit path. */
template <typename Out, Kind K, typename Put>
__device__ __forceinline__ void
convert_pair (const CtYuvSrc & s, const CtYuvPlan & p, const Fast & f,
    const Put & put, const Out * centre, unsigned int x0, unsigned int kp,
    const PairLoads & in)
{
  const unsigned int n = s.width - x0 < 4 ? s.width - x0 : 4;
  unsigned int a, b, ca[4], cb[4], uv[4];

  chroma_rows (s, 1, kp, a, b);
  if constexpr (K == Kind::kPairs || K == Kind::kSited) {
    chroma_of_pairs<K> (f, in.c[0], ca);
    chroma_of_pairs<K> (f, in.c[1], cb);
  } else {
    chroma_of_samples (s, p, f, a, x0, ca);
    chroma_of_samples (s, p, f, b, x0, cb);
  }
  if (kp > 0) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      uv[i] = blend (ca[i], f.wt.near, cb[i], 4 - f.wt.near);
    row4_fast<Out> (f.k, put, centre, x0, n, 2 * kp - 1, in.lw0, uv);
  }
  if (2 * kp < s.height) {
#pragma unroll
    for (int i = 0; i < 4; i++)
      uv[i] = blend (ca[i], 4 - f.wt.near, cb[i], f.wt.near);
    row4_fast<Out> (f.k, put, centre, x0, n, 2 * kp, in.lw1, uv);
  }
}

}  // namespace
