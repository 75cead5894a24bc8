/* cudatranspose: the exact path's tiles, for the wide family
 * (transpose-wide.cu through wide-tiles.cuh): planes at any alignment,
 * rows that start anywhere, odd strides, a tensor's packed rows. 2- and
 * 4-byte elements take realign_tile, 3-byte ones realign_rgb_tile:
 * aligned 4-byte words inside each row, shifted into place with the next
 * lane's, nothing read outside the plane nor written outside a row. Bytes
 * take byte_words_tile: 16-byte words a lane both ways, realigned the
 * same way. A single plane of 4-byte elements in
 * whole words, of at most the L2's bytes, takes staged_word_tile
 * (k_exact_words): 16-byte words both ways.
 * 8-byte elements take the seeds' padded 64x64 tile (fallback_tile).
 * exact_any picks one by element size; k_exact and k_wide's exact
 * variants (transpose-wide.cu) run it, and the planner (wide-planner.cuh)
 * sizes their grids by ExactTile and kFallbackTile.
 */
#ifndef CT_EXACT_TILES_CUH
#define CT_EXACT_TILES_CUH

#include "transpose-common.cuh"

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

namespace ct_wide {

using ct::Bytes;
using ct::PlaneArgs;
using ct::Word;
using ct::kThreads;
using ct::shift_down16;

/* The exact path's tile of 8-byte elements: ct::move_tile with 32 x 8
 * threads, padded (the smaller elements: ExactTile). */
constexpr int kFallbackTile = 64;

/* The exact path's 8-byte elements: the seeds' padded 64x64 tile, any
 * alignment. */
template <typename T>
__device__ __forceinline__ void
fallback_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  typedef T Row[kFallbackTile + 1];

  ct::move_tile<T, kFallbackTile, kFallbackTile, 1> (p, tx * kFallbackTile,
      ty * kFallbackTile, reinterpret_cast<Row *>(smem), threadIdx.x % 32,
      threadIdx.x / 32);
}

/* The exact path's tile of 1- to 4-byte elements: T x T elements, rows of
 * at least 128 bytes both ways, through shared-memory word rows of P bytes
 * (byte_words_tile, realign_tile, realign_rgb_tile). */
template <int ES> struct ExactTile
{
  static constexpr unsigned int T = ES == 1 ? 128 : 64;
  static constexpr unsigned int P = T * ES;
  static constexpr unsigned int SMEM = T * P;
  /* k_exact: blocks a multiprocessor holds, at least (its launch
   * bounds), and source rows a warp has in flight at once (realign_tile;
   * realign_rgb_tile has all 8 of its rows in flight, byte_words_tile all
   * 16 of a warp's). More blocks with
   * fewer rows in flight were no faster: a block's work, not occupancy,
   * bounds it (measured: docs/kernels.md,
   * "4 blocks a multiprocessor for the exact tile") */
  static constexpr int PER_SM = 4;
  static constexpr unsigned int IN_FLIGHT = 8;
  static_assert (ES <= 4 && P >= T * ES, "a row fits");
};

/* Word @q (4 bytes from @base + 4 @q, @base 4-byte aligned) of a row whose
 * bytes are those from @lo to @hi of @base, in a plane whose bytes all lie
 * between @first and @end: 0 past the row; the whole word where it lies
 * in the plane (the bytes outside the row are another row's, or its
 * padding); else (the plane's first or last word) the row's bytes one by
 * one, so nothing outside the plane is read. */
__device__ __forceinline__ uint32_t
load_word_within (const unsigned char *base, unsigned int q, unsigned int lo,
    unsigned int hi, uintptr_t first, uintptr_t end)
{
  const unsigned int b = 4 * q;
  const uintptr_t at = (uintptr_t) (base + b);
  uint32_t v = 0;

  if (b >= hi)
    return 0;
  if (at >= first && at + 4 <= end)
    return *reinterpret_cast<const uint32_t *>(base + b);
#pragma unroll
  for (unsigned int i = 0; i < 4; i++) {
    if (b + i >= lo && b + i < hi)
      v |= (uint32_t) base[b + i] << (8 * i);
  }
  return v;
}

/* The G x G transpose of the ES-byte elements (G = 4 / ES: 2 or 1) of
 * words @a: element j of @a[i] becomes element i of @o[j]. */
template <int ES>
__device__ __forceinline__ void
transpose_in_words (const uint32_t * a, uint32_t * o)
{
  if constexpr (ES == 2) {
    o[0] = __byte_perm (a[0], a[1], 0x5410);
    o[1] = __byte_perm (a[0], a[1], 0x7632);
  } else {
    o[0] = a[0];
  }
}

/* Stores a warp's row of @n bytes (n > 0) at @d (any alignment), lane k
 * holding bytes 4 (k + 32 m) to 4 (k + 32 m) + 3 of it in @o[m]. The
 * aligned words wholly inside the row go in one store each: with the row
 * t bytes past a word, lane k joins the top t bytes of its word with the
 * bottom ones of the next lane's (__funnelshift_l) into the aligned word
 * after its own. The bytes of the partial words at either end (a
 * neighbouring tile owns the rest of them) go singly, lanes 0 to 3 the
 * first word's and lanes 4 to 7 the last's, one store a lane. */
template <unsigned int MW>
__device__ __forceinline__ void
store_row_realigned (unsigned char *d, unsigned int n, const uint32_t * o,
    unsigned int lane)
{
  const unsigned int t = (unsigned int) ((uintptr_t) d & 3);
  unsigned char *base = d - t;
  const unsigned int stop = t + n;      /* the row's bytes: t to stop */
  const unsigned int whole_end = stop & ~3u;

#pragma unroll
  for (unsigned int m = 0; m < MW; m++) {
    const uint32_t down = __shfl_down_sync (0xffffffffu, o[m], 1);
    const uint32_t wrap = m + 1 < MW ?
        __shfl_sync (0xffffffffu, o[m + 1 < MW ? m + 1 : m], 0) : 0;
    const uint32_t next = lane == 31 ? wrap : down;
    const unsigned int b = 4 * (lane + 32 * m) + (t != 0 ? 4 : 0);

    if (b >= t && b + 4 <= stop)
      *reinterpret_cast<uint32_t *>(base + b) = t != 0 ?
          __funnelshift_l (o[m], next, 8 * t) : o[m];
  }
  /* the first word's bytes t to 3 (t > 0), the last word's bytes 0 to
   * stop - whole_end - 1 (where it is not the first): byte at, of the
   * row's byte from */
  const unsigned int i = lane & 3;
  const bool head = lane < 4 && t != 0 && i >= t && i < stop;
  const bool tail = lane >= 4 && lane < 8 && i < stop - whole_end &&
      (whole_end != 0 || t == 0);
  const unsigned int at = head ? i : whole_end + i;
  const unsigned int from = at >= t ? at - t : 0;
  const unsigned int src_lane = (from / 4) & 31;
  uint32_t w = __shfl_sync (0xffffffffu, o[0], src_lane);
#pragma unroll
  for (unsigned int m = 1; m < MW; m++) {
    const uint32_t wm = __shfl_sync (0xffffffffu, o[m], src_lane);
    if (from / 128 == m)
      w = wm;
  }
  if (head || tail)
    base[at] = (unsigned char) (w >> (8 * (from & 3)));
}

/// The exact path for 2- and 4-byte elements: tile (tx, ty) of a plane
/// at any alignment (rows that start anywhere, odd strides, a tensor's tight
/// rows) at word speed. A warp reads a source row of the tile as the
/// aligned 4-byte words that cover it (all of its rows' loads in flight
/// before any is used), and shifts each lane's word by the row's
/// misalignment with the next lane's (__funnelshift_r), so the row lands
/// in shared memory as if it started on a word: one store a word. Row r's
/// word q goes to q ^ (r / G) (G = 4 / ES source rows make an output
/// word), so that both phases hit 32 banks. In the store phase a lane reads
/// G words, one from each of G source rows, transposes their elements in
/// registers (__byte_perm) into a word of each of G output rows, and each
/// row is shifted to its own misalignment with the lane before's word
/// (store_row_realigned). Only the words at either end of a row move byte
/// by byte, so nothing outside a row is written, nor read outside the
/// plane. It replaced a byte tile (every byte through shared memory on
/// its own, 8 byte accesses to it a word), which was slower (measured:
/// docs/kernels.md, "Realigned words"); bytes have since moved to
/// byte_words_tile.
template <int ES>
__device__ __forceinline__ void
realign_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  using X = ExactTile<ES>;
  constexpr unsigned int kWarps = kThreads / 32;
  constexpr unsigned int G = 4 / ES;    /* source rows an output word has */
  constexpr unsigned int WR = X::T * ES / 4;    /* words of a tile row */
  constexpr unsigned int MW = WR / 32;  /* of them, a lane's */
  constexpr unsigned int J = X::T / kWarps;     /* source rows a warp */
  constexpr unsigned int B = X::IN_FLIGHT;      /* of them, loads at once */
  constexpr unsigned int K = X::T / G / kWarps; /* output row groups a warp */
  static_assert (ES == 2 || ES == 4, "whole elements in a word (bytes: "
      "byte_words_tile)");
  static_assert (WR % 32 == 0 && J * kWarps == X::T && K * G * kWarps ==
      X::T && J % B == 0, "the tile splits evenly");
  const unsigned int x0 = tx * X::T, y0 = ty * X::T;
  const unsigned int cols = p.width - x0 < X::T ? p.width - x0 : X::T;
  const unsigned int rows = p.height - y0 < X::T ? p.height - y0 : X::T;
  const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned int n = cols * ES;
  /* the plane's bytes lie between first and end (rows may run upwards) */
  const ptrdiff_t last = (ptrdiff_t) (p.height - 1) * p.src_stride;
  const uintptr_t first = (uintptr_t) p.src + (last < 0 ? last : 0);
  const uintptr_t end = (uintptr_t) p.src + (last > 0 ? last : 0) +
      (size_t) p.width * ES;
  const unsigned char *src0 = p.src + (ptrdiff_t) (y0 + warp) *
      p.src_stride + (size_t) x0 * ES;
  const ptrdiff_t src_step = (ptrdiff_t) kWarps * p.src_stride;

  /* whether every word of the tile's rows lies in the plane (all but
   * the tiles with the plane's first or last byte): the rows' first and
   * last, as the rows run */
  const unsigned char *top = p.src + (ptrdiff_t) y0 * p.src_stride +
      (size_t) x0 * ES;
  const unsigned char *bottom = top + (ptrdiff_t) (rows - 1) * p.src_stride;
  const uintptr_t low = ((uintptr_t) (top < bottom ? top : bottom)) & ~3ull;
  const uintptr_t high = ((uintptr_t) (top < bottom ? bottom : top) & ~3ull) +
      4 * (WR + 1);
  const bool inside = low >= first && high <= end;
#pragma unroll
  for (unsigned int j0 = 0; j0 < J; j0 += B) {
    /* a lane's words of each row, and the word after the row's last */
    uint32_t v[B][MW + 1];

#pragma unroll
    for (unsigned int j = 0; j < B; j++) {
      const unsigned int r = warp + (j0 + j) * kWarps;
      if (r < rows) {
        const unsigned char *src = src0 + (ptrdiff_t) (j0 + j) * src_step;
        const unsigned int s = (unsigned int) ((uintptr_t) src & 3);
        const unsigned char *base = src - s;
        if (inside) {
          /* any of the plane's words can be read whole */
          const uint32_t *w = reinterpret_cast<const uint32_t *>(base);
#pragma unroll
          for (unsigned int m = 0; m < MW; m++)
            v[j][m] = 4 * (lane + 32 * m) < s + n ? w[lane + 32 * m] : 0;
          v[j][MW] = lane == 0 && 4 * WR < s + n ? w[WR] : 0;
        } else {
#pragma unroll
          for (unsigned int m = 0; m < MW; m++)
            v[j][m] = load_word_within (base, lane + 32 * m, s, s + n, first,
                end);
          v[j][MW] = lane == 0 ? load_word_within (base, WR, s, s + n, first,
              end) : 0;
        }
      }
    }
#pragma unroll
    for (unsigned int j = 0; j < B; j++) {
      const unsigned int r = warp + (j0 + j) * kWarps;
      if (r < rows) {
        const unsigned int s = (unsigned int) ((uintptr_t) (src0 +
                (ptrdiff_t) (j0 + j) * src_step) & 3);
        uint32_t *row = smem + r * WR;
#pragma unroll
        for (unsigned int m = 0; m < MW; m++) {
          const unsigned int q = lane + 32 * m;
          const uint32_t down = __shfl_down_sync (0xffffffffu, v[j][m], 1);
          const uint32_t wrap = __shfl_sync (0xffffffffu, v[j][m + 1], 0);
          const uint32_t next = lane == 31 ? wrap : down;

          if (4 * q < n)
            row[q ^ ((r / G) & 31)] = __funnelshift_r (v[j][m], next, 8 * s);
        }
      }
    }
  }
  __syncthreads ();
  /* output rows c to c + G - 1 are source columns x0 + c on: lane k's word
   * of them is source rows G k to G k + G - 1, whose words c / G hold them */
  unsigned char *dst0 = p.dst + (ptrdiff_t) x0 * p.dst_stride +
      (size_t) y0 * ES;
#pragma unroll
  for (unsigned int i = 0; i < K; i++) {
    const unsigned int c = G * (warp + i * kWarps);
    if (c < cols) {
      uint32_t o[G][MW];
#pragma unroll
      for (unsigned int m = 0; m < MW; m++) {
        const unsigned int q = lane + 32 * m;
        uint32_t a[G], b[G];
#pragma unroll
        for (unsigned int g = 0; g < G; g++)
          a[g] = smem[(G * q + g) * WR + ((c / G) ^ (q & 31))];
        transpose_in_words<ES> (a, b);
#pragma unroll
        for (unsigned int g = 0; g < G; g++)
          o[g][m] = b[g];
      }
#pragma unroll
      for (unsigned int g = 0; g < G; g++) {
        if (c + g < cols)
          store_row_realigned<MW> (dst0 + (ptrdiff_t) (c + g) * p.dst_stride,
              rows * ES, o[g], lane);
      }
    }
  }
}

/* The 16-byte word @q (16 bytes from @base + 16 @q, @base 16-byte
 * aligned) of a row whose bytes are those from @lo to @hi of @base, in a
 * plane whose bytes all lie between @first and @end: load_word_within's
 * four words. */
__device__ __forceinline__ uint4
load16_row_within (const unsigned char *base, unsigned int q, unsigned int lo,
    unsigned int hi, uintptr_t first, uintptr_t end)
{
  return make_uint4 (load_word_within (base, 4 * q, lo, hi, first, end),
      load_word_within (base, 4 * q + 1, lo, hi, first, end),
      load_word_within (base, 4 * q + 2, lo, hi, first, end),
      load_word_within (base, 4 * q + 3, lo, hi, first, end));
}

/// The exact path for 1-byte elements (a uint8 tensor's tight rows, any
/// stride), in k_exact and k_wide alike: 16 bytes a lane on both sides,
/// where realign_tile's word a lane spent most of its instructions on
/// addressing and the shuffles of each word (measured: docs/kernels.md,
/// "16-byte words for the exact byte tile"). Eight lanes take a source row
/// of the 128x128 tile: lane k loads the aligned 16-byte words k and k + 1
/// that cover bytes 16 k to 16 k + 15 of it, shifts them into place in
/// registers (shift_down16), and stores the row's word k to shared memory
/// at k ^ (row / 16) % 8. In the store phase eight lanes take an output row
/// (a source column), which starts t bytes past a 16-byte boundary: lane k
/// gathers the 16 source rows of its aligned output word k, 16 k - t on
/// (one byte read each, from 32 banks for the warp's four rows: four
/// consecutive columns of a 16-byte column), and stores it whole. Lane 0
/// also takes the row's last, partial word (the rows 128 - t on, which its
/// first word lacks); those two partial words go byte by byte, two bytes
/// from each of the row's eight lanes (and, in the plane's last row of
/// tiles, every word past its last row from its own lane). Nothing outside
/// a row is written, nor read outside the plane.
__device__ __forceinline__ void
byte_words_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  constexpr unsigned int T = ExactTile<1>::T;
  constexpr unsigned int kWarps = kThreads / 32;
  constexpr unsigned int L = T / 16;    /* lanes a row: 8 */
  constexpr unsigned int RW = 32 / L;   /* rows a warp at once: 4 */
  constexpr unsigned int J = T / (RW * kWarps); /* of them, a warp's: 4 */
  static_assert (T == 128 && L == kWarps && J * RW * kWarps == T &&
      ExactTile<1>::SMEM == T * T, "the tile splits evenly");
  const unsigned int x0 = tx * T, y0 = ty * T;
  const unsigned int cols = p.width - x0 < T ? p.width - x0 : T;
  const unsigned int rows = p.height - y0 < T ? p.height - y0 : T;
  const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned int h = lane / L, k = lane % L;
  /* the plane's bytes lie between first and end (rows may run upwards) */
  const ptrdiff_t last = (ptrdiff_t) (p.height - 1) * p.src_stride;
  const uintptr_t first = (uintptr_t) p.src + (last < 0 ? last : 0);
  const uintptr_t end = (uintptr_t) p.src + (last > 0 ? last : 0) + p.width;
  const unsigned char *top = p.src + (ptrdiff_t) y0 * p.src_stride + x0;
  const unsigned char *bottom = top + (ptrdiff_t) (rows - 1) * p.src_stride;
  /* whether the L + 1 aligned words of every row lie in the plane */
  const uintptr_t low = ((uintptr_t) (top < bottom ? top : bottom)) & ~15ull;
  const uintptr_t high = ((uintptr_t) (top < bottom ? bottom : top) &
      ~15ull) + 16 * (L + 1);
  const bool inside = low >= first && high <= end;
  uint4 *tile = reinterpret_cast<uint4 *>(smem);
  uint4 w[J][2];

#pragma unroll
  for (unsigned int j = 0; j < J; j++) {
    const unsigned int r = h + RW * (warp + kWarps * j);
    const unsigned char *src = top + (ptrdiff_t) r * p.src_stride;
    const unsigned int s = (unsigned int) ((uintptr_t) src & 15);
    const unsigned char *base = src - s;
    if (r < rows && inside) {
      w[j][0] = reinterpret_cast<const uint4 *>(base)[k];
      w[j][1] = reinterpret_cast<const uint4 *>(base)[k + 1];
    } else if (r < rows) {
      w[j][0] = load16_row_within (base, k, s, s + cols, first, end);
      w[j][1] = load16_row_within (base, k + 1, s, s + cols, first, end);
    }
  }
#pragma unroll
  for (unsigned int j = 0; j < J; j++) {
    const unsigned int r = h + RW * (warp + kWarps * j);
    const unsigned int s = (unsigned int) ((uintptr_t) (top +
            (ptrdiff_t) r * p.src_stride) & 15);
    if (r < rows)
      tile[r * L + (k ^ ((r / 16) % L))] = shift_down16 (w[j][0], w[j][1], s);
  }
  __syncthreads ();
  /* output row c (source column x0 + c) is column 4 h + i of 16-byte
   * column `warp`: its word k holds rows 16 k - t to 16 k - t + 15, which
   * lie in shared-memory words of swizzle k - 1 (the rows before 16 k) and
   * k; lane 0's rows before 0 are rows 128 - t on, the row's last word */
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(smem);
  unsigned char *dst0 = p.dst + (ptrdiff_t) x0 * p.dst_stride + y0;
#pragma unroll
  for (unsigned int i = 0; i < T / (RW * kWarps); i++) {
    const unsigned int c = 16 * warp + 4 * h + i;
    unsigned char *d = dst0 + (ptrdiff_t) c * p.dst_stride;
    const int t = (int) ((uintptr_t) d & 15);
    unsigned char *base = d - t;
    const int ga = (int) ((k + L - 1) % L), gb = (int) k;
    /* byte b's row: ea + b (b < t) or eb + b, read at pa or pb plus T b
     * (columns past the tile's read, never stored) */
    const int ea = 16 * ga + 16 - t, eb = 16 * gb - t;
    const int pa = ea * (int) T + 16 * ((int) warp ^ ga) + (int) (c % 16);
    const int pb = eb * (int) T + 16 * ((int) warp ^ gb) + (int) (c % 16);
    const unsigned int before = (1u << t) - 1;
    uint32_t o[4] = { 0, 0, 0, 0 };
#pragma unroll
    for (int b = 0; b < 16; b++)
      o[b / 4] |= (uint32_t) bytes[(before & (1u << b) ? pa : pb) +
          (int) T * b] << (8 * (b % 4));
    const bool store = c < cols;
    if (rows == T) {
      /* every word whole but lane 0's when t > 0: its bytes t on start
       * the row, the rest end it; the row's eight lanes store two each */
      if (store && (k != 0 || t == 0))
        reinterpret_cast<uint4 *>(base)[k] = make_uint4 (o[0], o[1], o[2],
            o[3]);
      uint32_t w0[4];
#pragma unroll
      for (unsigned int m = 0; m < 4; m++)
        w0[m] = __shfl_sync (0xffffffffu, o[m], 0, L);
      const uint32_t mine = k / 2 == 0 ? w0[0] : k / 2 == 1 ? w0[1] :
          k / 2 == 2 ? w0[2] : w0[3];
#pragma unroll
      for (int u = 0; u < 2; u++) {
        const int b = 2 * (int) k + u;
        if (store && t != 0)
          base[(b < t ? 16 * (int) L : 0) + b] =
              (unsigned char) (mine >> (8 * (b % 4)));
      }
    } else if (store) {
      /* the plane's last rows of tiles: the words past its last row go
       * byte by byte */
      if (k == 0 ? t == 0 && 16 <= (int) rows : eb + 16 <= (int) rows) {
        reinterpret_cast<uint4 *>(base)[k] = make_uint4 (o[0], o[1], o[2],
            o[3]);
      } else {
#pragma unroll
        for (int b = 0; b < 16; b++) {
          if ((b < t ? ea : eb) + b < (int) rows)
            base[(k == 0 && b < t ? 16 * (int) L : 16 * (int) k) + b] =
                (unsigned char) (o[b / 4] >> (8 * (b % 4)));
        }
      }
    }
  }
}

/* The 16-byte word at @at (aligned) of a plane of 4-byte elements whose
 * bytes all lie between @first and @end: whole where it lies inside, else
 * its 4-byte words inside, one by one (0 for the rest). */
__device__ __forceinline__ uint4
load16_within (const unsigned char *at, uintptr_t first, uintptr_t end)
{
  const uintptr_t a = (uintptr_t) at;
  uint32_t w[4];

  if (a >= first && a + 16 <= end)
    return *reinterpret_cast<const uint4 *>(at);
#pragma unroll
  for (unsigned int j = 0; j < 4; j++)
    w[j] = a + 4 * j >= first && a + 4 * j + 4 <= end ?
        reinterpret_cast<const uint32_t *>(at)[j] : 0;
  return make_uint4 (w[0], w[1], w[2], w[3]);
}

/* staged_word_tile's shared rows: the 17 16-byte words that cover 64
 * elements at any 4-byte alignment; its shared memory. */
constexpr unsigned int kStagedWords = 17;
constexpr unsigned int kStagedSmem = ExactTile<4>::T * kStagedWords * 16;

/* Where word @q of staged row @e lies in shared memory (in 16-byte
 * words): the first 16 XOR-swizzled by the row's group of 4, so that the
 * store phase (4 output rows by 8 words a warp) mostly hits 32 banks. */
__device__ __forceinline__ unsigned int
staged_slot (unsigned int e, unsigned int q)
{
  return e * kStagedWords + (q < 16 ? q ^ ((e >> 2) & 7) : q);
}

/// The exact path for 4-byte elements alone in k_exact_words (a float32
/// tensor's packed rows, which start 4, 8 or 12 bytes past a 16-byte
/// boundary): both global sides in aligned 16-byte words. The tile's 64
/// source rows are copied to shared memory as the 17 aligned 16-byte words
/// that cover each (cp.async, all in flight at once, as the wide tiles'
/// staged stage does; words reaching past the plane through registers, only
/// their elements inside it). In the store phase a lane builds an aligned
/// 16-byte word of an output row from four source rows' elements, found at
/// their rows' misalignments, and stores it whole; a warp writes 8
/// consecutive words (128 bytes) of each of 4 output rows. The partial
/// words at either end of an output row (a neighbouring tile owns their
/// other elements) go element by element. Nothing is read outside the
/// plane nor written outside a row.
__device__ __forceinline__ void
staged_word_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  constexpr unsigned int T = ExactTile<4>::T, Q = kStagedWords;
  constexpr unsigned int kWarps = kThreads / 32;
  static_assert (T == 64 && Q == T / 4 + 1 && T % (4 * kWarps) == 0,
      "the tile splits evenly");
  const unsigned int x0 = tx * T, y0 = ty * T;
  const unsigned int cols = p.width - x0 < T ? p.width - x0 : T;
  const unsigned int rows = p.height - y0 < T ? p.height - y0 : T;
  const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  /* the plane's bytes lie between first and end (rows may run upwards) */
  const ptrdiff_t last = (ptrdiff_t) (p.height - 1) * p.src_stride;
  const uintptr_t first = (uintptr_t) p.src + (last < 0 ? last : 0);
  const uintptr_t end = (uintptr_t) p.src + (last > 0 ? last : 0) +
      (size_t) p.width * 4;
  const unsigned char *top = p.src + (ptrdiff_t) y0 * p.src_stride +
      (size_t) x0 * 4;
  /* row e starts m(e) words past a 16-byte boundary */
  const unsigned int top_m = (unsigned int) ((uintptr_t) top & 15);
  const unsigned int step_m = (unsigned int) ((uintptr_t) p.src_stride & 15);
  uint4 *s = reinterpret_cast<uint4 *>(smem);

  for (unsigned int u = threadIdx.x; u < rows * Q; u += kThreads) {
    const unsigned int e = u / Q, q = u - e * Q;
    const unsigned char *row = top + (ptrdiff_t) e * p.src_stride;
    const unsigned char *at = row - ((uintptr_t) row & 15) + 16 * q;
    uint4 *to = s + staged_slot (e, q);
    if ((uintptr_t) at >= first && (uintptr_t) at + 16 <= end)
      __pipeline_memcpy_async (to, at, sizeof (uint4));
    else
      *to = load16_within (at, first, end);
  }
  __pipeline_commit ();
  __pipeline_wait_prior (0);
  __syncthreads ();
  /* output row c is source column x0 + c: its aligned 16-byte word k
   * holds source rows 4 k - o to 4 k - o + 3, o its misalignment in
   * elements */
#pragma unroll
  for (unsigned int c0 = 0; c0 < T; c0 += 4 * kWarps) {
    const unsigned int c = c0 + 4 * warp + (lane & 3);
    unsigned char *out = p.dst + (ptrdiff_t) (x0 + c) * p.dst_stride +
        (size_t) y0 * 4;
    const int o = (int) (((uintptr_t) out & 15) / 4);
    uint32_t *base = reinterpret_cast<uint32_t *>(out - 4 * o);
#pragma unroll
    for (unsigned int k0 = 0; k0 < Q; k0 += 8) {
      const unsigned int k = k0 + (lane >> 2);
      const int e0 = 4 * (int) k - o;
      if (c < cols && k < Q && e0 < (int) rows) {
        uint32_t v[4];
#pragma unroll
        for (int i = 0; i < 4; i++) {
          const unsigned int e = (unsigned int) (e0 + i);
          const unsigned int pos = ((top_m + e * step_m) & 15) / 4 + c;
          v[i] = e0 + i >= 0 && e0 + i < (int) rows ?
              smem[4 * staged_slot (e, pos / 4) + pos % 4] : 0;
        }
        if (e0 >= 0 && e0 + 4 <= (int) rows) {
          reinterpret_cast<uint4 *>(base)[k] = make_uint4 (v[0], v[1], v[2],
              v[3]);
        } else {
#pragma unroll
          for (int i = 0; i < 4; i++)
            if (e0 + i >= 0 && e0 + i < (int) rows)
              base[4 * k + i] = v[i];
        }
      }
    }
  }
}

/// The exact path for 3-byte elements (RGB pixels, a tensor's packed
/// rows): realign_tile's load phase (rows of 192 bytes, 48 words, word q of
/// row r at q ^ (r / 4) % 16, within its 16-word block), then a half-warp
/// per output row: lane g takes the elements of source rows 4g to 4g + 3
/// (two words each, the element shifted out of them), packs the four
/// 3-byte elements into output words 3g to 3g + 2, and shifts them to the
/// row's misalignment with the next lane's first word; the aligned words
/// wholly inside the row go in one store each, the partial ones at either
/// end byte by byte from eight lanes of the half-warp. It replaced a byte
/// tile, which was slower (measured: docs/kernels.md,
/// "Realigned 3-byte rows").
__device__ __forceinline__ void
realign_rgb_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  using X = ExactTile<3>;
  constexpr unsigned int kWarps = kThreads / 32;
  constexpr unsigned int WR = X::T * 3 / 4;     /* words of a tile row: 48 */
  constexpr unsigned int J = X::T / kWarps;     /* source rows a warp */
  constexpr unsigned int K = X::T / 2 / kWarps; /* output row pairs a warp */
  static_assert (WR == 48 && J * kWarps == X::T && K * 2 * kWarps == X::T &&
      X::P == 4 * WR, "the tile splits evenly");
  const unsigned int x0 = tx * X::T, y0 = ty * X::T;
  const unsigned int cols = p.width - x0 < X::T ? p.width - x0 : X::T;
  const unsigned int rows = p.height - y0 < X::T ? p.height - y0 : X::T;
  const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned int n = cols * 3;
  const ptrdiff_t last = (ptrdiff_t) (p.height - 1) * p.src_stride;
  const uintptr_t first = (uintptr_t) p.src + (last < 0 ? last : 0);
  const uintptr_t end = (uintptr_t) p.src + (last > 0 ? last : 0) +
      (size_t) p.width * 3;
  const unsigned char *src0 = p.src + (ptrdiff_t) (y0 + warp) *
      p.src_stride + (size_t) x0 * 3;
  const ptrdiff_t src_step = (ptrdiff_t) kWarps * p.src_stride;
  const unsigned char *top = p.src + (ptrdiff_t) y0 * p.src_stride +
      (size_t) x0 * 3;
  const unsigned char *bottom = top + (ptrdiff_t) (rows - 1) * p.src_stride;
  const uintptr_t low = ((uintptr_t) (top < bottom ? top : bottom)) & ~3ull;
  const uintptr_t high = ((uintptr_t) (top < bottom ? bottom : top) & ~3ull) +
      4 * (WR + 1);
  const bool inside = low >= first && high <= end;
  /* a lane's words of each row: word lane, and word 32 + lane (lanes 0 to
   * 16: to the word after the row's last) */
  uint32_t v[J][2];

#pragma unroll
  for (unsigned int j = 0; j < J; j++) {
    const unsigned int r = warp + j * kWarps;
    if (r < rows) {
      const unsigned char *src = src0 + (ptrdiff_t) j * src_step;
      const unsigned int s = (unsigned int) ((uintptr_t) src & 3);
      const unsigned char *base = src - s;
      if (inside) {
        const uint32_t *w = reinterpret_cast<const uint32_t *>(base);
        v[j][0] = 4 * lane < s + n ? w[lane] : 0;
        v[j][1] = lane <= WR - 32 && 4 * (32 + lane) < s + n ?
            w[32 + lane] : 0;
      } else {
        v[j][0] = load_word_within (base, lane, s, s + n, first, end);
        v[j][1] = lane <= WR - 32 ? load_word_within (base, 32 + lane, s,
            s + n, first, end) : 0;
      }
    }
  }
#pragma unroll
  for (unsigned int j = 0; j < J; j++) {
    const unsigned int r = warp + j * kWarps;
    if (r < rows) {
      const unsigned int s = (unsigned int) ((uintptr_t) (src0 +
              (ptrdiff_t) j * src_step) & 3);
      uint32_t *row = smem + r * WR;
      const unsigned int sw = (r / 4) & 15;
      const uint32_t down0 = __shfl_down_sync (0xffffffffu, v[j][0], 1);
      const uint32_t wrap = __shfl_sync (0xffffffffu, v[j][1], 0);
      const uint32_t down1 = __shfl_down_sync (0xffffffffu, v[j][1], 1);

      if (4 * lane < n)
        row[lane ^ sw] = __funnelshift_r (v[j][0], lane == 31 ? wrap : down0,
            8 * s);
      if (lane < WR - 32 && 4 * (32 + lane) < n)
        row[(32 + lane) ^ sw] = __funnelshift_r (v[j][1], down1, 8 * s);
    }
  }
  __syncthreads ();
  /* half-warp h: output row c + h (source column x0 + c + h); its lane g:
   * output bytes 12 g to 12 g + 11, the elements of source rows 4 g on */
  const unsigned int h = lane >> 4, g = lane & 15;
  unsigned char *dst0 = p.dst + (ptrdiff_t) x0 * p.dst_stride +
      (size_t) y0 * 3;
  const unsigned int nb = rows * 3;
#pragma unroll
  for (unsigned int i = 0; i < K; i++) {
    const unsigned int cc = 2 * (warp + i * kWarps) + h;
    /* both half-warps take part in the shuffles; only rows in the tile
     * are stored */
    uint32_t e[4];
#pragma unroll
    for (unsigned int k = 0; k < 4; k++) {
      const unsigned int r = 4 * g + k;
      const unsigned int b = 3 * (cc < X::T ? cc : 0);
      const unsigned int qa = b / 4, qb = qa + 1 < WR ? qa + 1 : qa;
      const uint32_t lo = smem[r * WR + (qa ^ g)];
      const uint32_t hi = smem[r * WR + (qb ^ g)];
      e[k] = __funnelshift_r (lo, hi, 8 * (b & 3)) & 0xffffffu;
    }
    uint32_t o[3];
    o[0] = e[0] | e[1] << 24;
    o[1] = e[1] >> 8 | e[2] << 16;
    o[2] = e[2] >> 16 | e[3] << 8;

    unsigned char *d = dst0 + (ptrdiff_t) cc * p.dst_stride;
    const unsigned int t = (unsigned int) ((uintptr_t) d & 3);
    unsigned char *base = d - t;
    const unsigned int stop = t + nb, whole_end = stop & ~3u;
    const uint32_t after = __shfl_down_sync (0xffffffffu, o[0], 1, 16);
    const uint32_t next = g == 15 ? 0 : after;
    const bool store = cc < cols;

#pragma unroll
    for (unsigned int u = 0; u < 3; u++) {
      const unsigned int a = 3 * g + u + (t != 0 ? 1 : 0);
      const uint32_t w = t != 0 ? __funnelshift_l (o[u], u < 2 ? o[u + 1] :
          next, 8 * t) : o[u];
      if (store && 4 * a >= t && 4 * a + 4 <= stop)
        *reinterpret_cast<uint32_t *>(base + 4 * a) = w;
    }
    /* the first word's bytes t to 3 (t > 0), the last word's bytes 0 to
     * stop - whole_end - 1 (where it is not the first): the same choice
     * as store_row_realigned's, written out again because as one helper
     * for both the compiler scheduled this tile differently, and it ran
     * slower (measured: docs/kernels.md,
     * "The 3-byte row ends written out") */
    const unsigned int k = g & 3;
    const bool head = g < 4 && t != 0 && k >= t && k < stop;
    const bool tail = g >= 4 && g < 8 && k < stop - whole_end &&
        (whole_end != 0 || t == 0);
    const unsigned int at = head ? k : whole_end + k;
    const unsigned int from = at >= t ? at - t : 0;
    const unsigned int word = from / 4;
    const unsigned int src_lane = (word / 3) & 15;
    const uint32_t w0 = __shfl_sync (0xffffffffu, o[0], src_lane, 16);
    const uint32_t w1 = __shfl_sync (0xffffffffu, o[1], src_lane, 16);
    const uint32_t w2 = __shfl_sync (0xffffffffu, o[2], src_lane, 16);
    const uint32_t w = word % 3 == 0 ? w0 : word % 3 == 1 ? w1 : w2;
    if (store && (head || tail))
      base[at] = (unsigned char) (w >> (8 * (from & 3)));
  }
}

/* Exact tile (tx, ty) of a plane of @elem-byte elements: 8-byte ones in
 * native words when @words, else as bytes. */
__device__ __forceinline__ void
exact_any (unsigned int elem, bool words, const PlaneArgs & a,
    unsigned int tx, unsigned int ty, uint32_t * smem)
{
  switch (elem) {
    case 1:
      byte_words_tile (a, tx, ty, smem);
      break;
    case 2:
      realign_tile<2> (a, tx, ty, smem);
      break;
    case 3:
      realign_rgb_tile (a, tx, ty, smem);
      break;
    case 4:
      realign_tile<4> (a, tx, ty, smem);
      break;
    default:
      if (words)
        fallback_tile<Word<8>::T> (a, tx, ty, smem);
      else
        fallback_tile<Bytes<8>> (a, tx, ty, smem);
      break;
  }
}

}  // namespace ct_wide

#endif /* CT_EXACT_TILES_CUH */
