/* cudatranspose: where the YUV one pass's values land and how they are
 * stored (yuv-tensor-pass.cuh converts them; yuv-rgb.cu holds the
 * kernels): the output's steps, four values stored as one, a quad's row
 * straight into the output (put4), a warp's packed HWC row through a
 * stage in shared memory (the HWC variant), and the tiled pass's tile,
 * filled and written out a column at a time (flush_tile). The pieces the
 * CPU tests run on the host (stage_hwc, unstage_hwc, flush_tile) are
 * written for both. Included by yuv-tensor-pass.cuh alone. */
#pragma once

#include "plan-yuv.h"
#include "yuv-rgb-unit.h"

#include <stdint.h>
#include <string.h>

namespace {

/* Where the HWC tensor's neighbours land in the output: channel, x and y
 * steps of the frame as it comes, in elements; negative where the
 * direction counts the output's columns or rows back (the launch moves
 * the output's start to where pixel (0, 0) lands). @four: along x
 * forwards, put4's stores of four values are aligned for every quad, so
 * that no thread tests its own (the launch's plan works it out,
 * ct_plan_yuv_launch). */
struct Steps
{
  long long c, x, y;
  bool four;
};

/* Four values stored as one. */
template <typename T>
struct alignas (4 * sizeof (T)) Four
{
  T v[4];
};

template <typename T>
__host__ __device__ __forceinline__ bool
aligned_four (const T * at)
{
  return (uintptr_t) at % sizeof (Four<T>) == 0;
}

/* @q stored at @at (aligned_four) as one store (two for 8-byte values),
 * written out in PTX: a copy of Four, or of CUDA's vector types, was
 * split into four stores by the compiler for one of a row's three
 * channels (four times the store requests for a third of the output).
 * @at is the output's, which the kernel never reads, so the stores need
 * no ordering against its loads (no "memory" clobber). */
template <typename T>
__device__ __forceinline__ void
store_four (T * at, const Four<T> & q)
{
  const size_t g = __cvta_generic_to_global (at);

  if constexpr (sizeof (T) == 1) {
    unsigned int w = 0;

#pragma unroll
    for (int i = 0; i < 4; i++)
      w |= (unsigned int) (unsigned char) q.v[i] << (8 * i);
    asm ("st.global.b32 [%0], %1;"::"l" (g), "r" (w));
  } else if constexpr (sizeof (T) == 2) {
    unsigned short w[4];

#pragma unroll
    for (int i = 0; i < 4; i++)
      w[i] = (unsigned short) q.v[i];
    asm ("st.global.v4.b16 [%0], {%1, %2, %3, %4};"::"l" (g), "h" (w[0]),
        "h" (w[1]), "h" (w[2]), "h" (w[3]));
  } else if constexpr (sizeof (T) == 4) {
    unsigned int w[4];

#pragma unroll
    for (int i = 0; i < 4; i++)
      memcpy (&w[i], &q.v[i], sizeof (w[i]));
    asm ("st.global.v4.b32 [%0], {%1, %2, %3, %4};"::"l" (g), "r" (w[0]),
        "r" (w[1]), "r" (w[2]), "r" (w[3]));
  } else {
    unsigned long long w[4];

#pragma unroll
    for (int i = 0; i < 4; i++)
      memcpy (&w[i], &q.v[i], sizeof (w[i]));
    asm ("st.global.v2.b64 [%0], {%1, %2};"::"l" (g), "l" (w[0]),
        "l" (w[1]));
    asm ("st.global.v2.b64 [%0], {%1, %2};"::"l" (g + 16), "l" (w[2]),
        "l" (w[3]));
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

  if (step.four && n == 4 && step.x == 1) {
    /* (CHW and its kind, the common case: no alignment tested here) */
#pragma unroll
    for (unsigned int c = 0; c < 3; c++) {
      Four<Out> q;

#pragma unroll
      for (int i = 0; i < 4; i++)
        q.v[i] = val[c][i];
      store_four (o + c * step.c, q);
    }
    return;
  }
  if (step.x == 1) {
#pragma unroll
    for (unsigned int c = 0; c < 3; c++) {
      Out *oc = o + c * step.c;

      if (n == 4 && aligned_four (oc)) {
        Four<Out> q;

#pragma unroll
        for (int i = 0; i < 4; i++)
          q.v[i] = val[c][i];
        store_four (oc, q);
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
        store_four (oc - 3, q);
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
      store_four (o + 4 * m, q);
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

/* A packed HWC row a warp at a time (the kernel's HWC variant,
 * ct_plan_yuv_hwc). Where the output is HWC (the step between channels 1,
 * along x 3 or, mirrored, -3), a warp whose 32 lanes hold the quads of
 * 128 columns of one row writes one run of 384 values, twelve a lane.
 * put4 stores each lane's twelve as three fours, a warp's store of them
 * spread over three times the bytes it writes (a third of every 48 with
 * float32): the float32 HWC pass ran at half the CHW one's speed
 * (docs/performance.md). Instead the lanes lay their values in the run's
 * order in a stage of shared memory, then store the run a four a lane,
 * neighbouring lanes side by side. */
constexpr unsigned int kWarp = 32, kRunValues = 12 * kWarp;

template <typename Out>
using Stage = Out[kRunValues];

/* Four values to @at as one access of their size and back: copied as
 * words, which the compiler makes one vector access (two for 8-byte
 * values) of shared memory. */
template <typename T>
__host__ __device__ __forceinline__ void
stage_four (T * at, const Four<T> & q)
{
  if constexpr (sizeof (q) == 4) {
    unsigned int w;

    memcpy (&w, q.v, sizeof (w));
    *reinterpret_cast<unsigned int *>(at) = w;
  } else if constexpr (sizeof (q) == 8) {
    uint2 w;

    memcpy (&w, q.v, sizeof (w));
    *reinterpret_cast<uint2 *>(at) = w;
  } else {
CT_YUV_UNROLL
    for (unsigned int h = 0; h < sizeof (q) / 16; h++) {
      uint4 w;

      memcpy (&w, reinterpret_cast<const char *>(q.v) + 16 * h, sizeof (w));
      reinterpret_cast<uint4 *>(at)[h] = w;
    }
  }
}

template <typename T>
__host__ __device__ __forceinline__ Four<T>
unstage_four (const T * at)
{
  Four<T> q;

  if constexpr (sizeof (q) == 4) {
    const unsigned int w = *reinterpret_cast<const unsigned int *>(at);

    memcpy (q.v, &w, sizeof (w));
  } else if constexpr (sizeof (q) == 8) {
    const uint2 w = *reinterpret_cast<const uint2 *>(at);

    memcpy (q.v, &w, sizeof (w));
  } else {
CT_YUV_UNROLL
    for (unsigned int h = 0; h < sizeof (q) / 16; h++) {
      const uint4 w = reinterpret_cast<const uint4 *>(at)[h];

      memcpy (reinterpret_cast<char *>(q.v) + 16 * h, &w, sizeof (w));
    }
  }
  return q;
}

/* The run's first value, for lane @l whose quad's pixel x0 lands at @o
 * (its first channel), the output HWC with @back (x mirrored) or not:
 * lane l's quad is the run's l-th, or mirrored its (31 - l)-th. */
template <typename Out>
__host__ __device__ __forceinline__ Out *
hwc_run (Out * o, unsigned int l, bool back)
{
  return back ? o - 9 - 12 * (kWarp - 1 - l) : o - 12 * l;
}

/* Four @m (0 to 2) of a quad's twelve values (val[channel][pixel]) in
 * the HWC output's order: pixel by pixel (mirrored, @back, the last
 * first), channel by channel. */
template <typename Out>
__host__ __device__ __forceinline__ Four<Out>
hwc_four (const Out val[3][4], bool back, unsigned int m)
{
  Four<Out> q;

CT_YUV_UNROLL
  for (unsigned int i = 0; i < 4; i++) {
    const unsigned int c = (4 * m + i) % 3, px = (4 * m + i) / 3;

    /* (selected, not indexed: an indexed array would live in local
     * memory) */
    q.v[i] = back ? val[c][3 - px] : val[c][px];
  }
  return q;
}

/* Lane @l's twelve values into @stage in the run's order (hwc_four). */
template <typename Out>
__host__ __device__ __forceinline__ void
stage_hwc (Out * stage, unsigned int l, bool back, const Out val[3][4])
{
  Out *at = stage + 12 * (back ? kWarp - 1 - l : l);

CT_YUV_UNROLL
  for (unsigned int m = 0; m < 3; m++)
    stage_four (at + 4 * m, hwc_four (val, back, m));
}

/* The run at @run from the stage: lane @l's share, fours l, 32 + l and
 * 64 + l, each stored as one by @store (StoreFour; the host's copy for
 * the CPU test of this code, ct_yuv_hwc_run_cpu). */
#pragma nv_exec_check_disable
template <typename Out, typename Store>
__host__ __device__ __forceinline__ void
unstage_hwc (const Out * stage, Out * run, unsigned int l,
    const Store & store)
{
CT_YUV_UNROLL
  for (unsigned int m = 0; m < 3; m++) {
    const unsigned int at = 4 * (kWarp * m + l);

    store (run + at, unstage_four (stage + at));
  }
}

/* A full group's store (flush_tile's and unstage_hwc's @store) on the
 * GPU: store_four. */
template <typename Out>
struct StoreFour
{
  __device__ __forceinline__ void
  operator() (Out * at, const Four<Out> & q) const
  {
    store_four (at, q);
  }
};

/* Where a row's four converted values go (row4_fast's @put): straight
 * into the output (put4), or in the HWC variant (@kHwc, ct_plan_yuv_hwc)
 * a quad's twelve as three fours forwards or mirrored, and with float32
 * a warp's HWC run through its @stage where @warp_run says the warp's 32
 * lanes hold the quads of 128 columns of the frame, all of them there
 * (uint8's stores measured faster without the stage) ... */
template <typename Out, bool kHwc>
struct ToOutput
{
  Out *dst;
  Steps step;
  Out *stage;
  bool warp_run;

  __device__ __forceinline__ void
  operator() (unsigned int x0, unsigned int y, unsigned int n,
      const Out val[3][4]) const
  {
    /* (the whole warp takes the run or none does: its lanes share the
     * row, and their quads' places are 12 values, three fours, apart) */
    if constexpr (kHwc) {
      Out *const o = dst + (long long) x0 * step.x + (long long) y * step.y;
      const bool back = step.x < 0;
      Out *const lo = back ? o - 9 : o;

      /* (the steps are packed HWC's along x: ct_plan_yuv_hwc sends no
       * other frame to this variant) */
      if (n == 4 && aligned_four (lo)) {
        if constexpr (sizeof (Out) == 4) {
          if (warp_run) {
            const unsigned int l = threadIdx.x % kWarp;

            stage_hwc (stage, l, back, val);
            __syncwarp ();
            unstage_hwc (stage, hwc_run (o, l, back), l,
                StoreFour<Out> { });
            /* (the stage is free again once every lane has read its
             * part) */
            __syncwarp ();
            return;
          }
        }
#pragma unroll
        for (unsigned int m = 0; m < 3; m++)
          store_four (lo + 4 * m, hwc_four (val, back, m));
        return;
      }
    }
    put4 (dst, step, x0, y, n, val);
  }
};

/* ... or into the tiled pass's tile (CT_YUV_TILE_QUADS, plan-yuv.h): the
 * values of its 16 columns by 128 rows, a column's side by side as the
 * output's row takes them, a channel's after another's. The tile's row r
 * is the frame's row 2 k0 - 1 + r (k0: its first pair); one value of
 * padding after each column spreads a warp's reads of neighbouring
 * columns over the banks. */
constexpr unsigned int kTileCols = 4 * CT_YUV_TILE_QUADS;
constexpr unsigned int kTileRows = 2 * CT_YUV_TILE_PAIRS;

template <typename Out>
using Tile = Out[3][kTileCols][kTileRows + 1];

template <typename Out>
struct IntoTile
{
  Tile<Out> &tile;
  unsigned int x_base;          /* the frame's column of the tile's first */
  unsigned int y_base;          /* 2 k0 - 1, modulo 2^32 (k0 may be 0) */

  __host__ __device__ __forceinline__ void
  operator() (unsigned int x0, unsigned int y, unsigned int n,
      const Out val[3][4]) const
  {
    const unsigned int col = x0 - x_base, row = y - y_base;

CT_YUV_UNROLL
    for (unsigned int i = 0; i < 4; i++)
CT_YUV_UNROLL
      for (unsigned int c = 0; c < 3; c++)
        if (i < n)
          tile[c][col + i][row] = val[c][i];
  }
};

/* The tile of first column @x_base and first pair @k0 of a @width x
 * @height frame, written to the output by the block's threads (@t: the
 * thread's index in it) once every value is in: each column of each
 * channel is one run of the output (CHW: the step along y is 1 or -1),
 * or with @kHwc each column of the three channels side by side (HWC: the
 * step along y 3 or -3, between channels 1; the pixels of a mirrored run
 * in reverse, each one's channels in order), cut at the output's
 * addresses into groups of four, a group to a thread of eight that share
 * the run, each full group stored as one by @store (StoreFour; the host's
 * copy for the CPU test of this code, ct_yuv_flush_tile_cpu), those at
 * the run's ends value by value. */
#pragma nv_exec_check_disable
template <typename Out, bool kHwc, typename Store>
__host__ __device__ __forceinline__ void
flush_tile (const Tile<Out> &tile, Out * dst, const Steps & step,
    unsigned int width, unsigned int height, unsigned int x_base,
    unsigned int k0, unsigned int t, const Store & store)
{
  constexpr unsigned int kPerRun = 8;
  constexpr unsigned int kRunsAtOnce = CT_YUV_LANES * CT_YUV_RANKS / kPerRun;
  /* a run's values a pixel */
  constexpr unsigned int kPerPixel = kHwc ? 3 : 1;
  /* the tile's rows in the frame: row -1 (pair 0's first) is not one */
  const long long y_tile = 2 * (long long) k0 - 1;
  const unsigned int r_lo = k0 == 0 ? 1 : 0;
  const long long rows_left = (long long) height - y_tile;
  const unsigned int r_hi = rows_left < kTileRows ? (unsigned int) rows_left :
      kTileRows;
  const unsigned int len = r_hi - r_lo;
  /* (the values of a run) */
  const unsigned int n = kPerPixel * len;
  const unsigned int cols = width - x_base < kTileCols ? width - x_base :
      kTileCols;
  const unsigned int g = t % kPerRun;

  for (unsigned int run = t / kPerRun; run < (kHwc ? cols : 3 * cols);
      run += kRunsAtOnce) {
    const unsigned int c = kHwc ? 0 : run / cols;
    const unsigned int col = kHwc ? run : run % cols;
    const long long y_lo = y_tile + r_lo;
    /* the run's lowest address: its first row's, or mirrored its last's */
    Out *const lo = dst + (long long) (x_base + col) * step.x +
        (long long) c * step.c + (long long) kPerPixel * (step.y > 0 ? y_lo :
        -(y_lo + len - 1));
    const unsigned int mis = (unsigned int) ((uintptr_t) lo / sizeof (Out) %
        4);
    const unsigned int groups = (mis + n + 3) / 4;

    for (unsigned int gi = g; gi < groups; gi += kPerRun) {
      const int e0 = (int) (4 * gi) - (int) mis;
      Four<Out> q;

CT_YUV_UNROLL
      for (int i = 0; i < 4; i++) {
        const int e = e0 + i;
        /* (HWC: value e is channel e % 3 of the run's pixel e / 3) */
        const unsigned int k = kHwc ? (unsigned int) e / 3 : (unsigned int) e;

        if (e >= 0 && e < (int) n)
          q.v[i] = tile[kHwc ? (unsigned int) e % 3 : c][col][step.y > 0 ?
              r_lo + k : r_lo + len - 1 - k];
      }
      if (e0 >= 0 && e0 + 4 <= (int) n) {
        store (lo + e0, q);
      } else {
CT_YUV_UNROLL
        for (int i = 0; i < 4; i++)
          if (e0 + i >= 0 && e0 + i < (int) n)
            lo[e0 + i] = q.v[i];
      }
    }
  }
}

}  // namespace
