/* cudatranspose: the device code of the wide tiles, for transpose-wide.cu.
 *
 * Each thread moves M micro-blocks of V x V elements, each as V 16-byte
 * chunks (V = 16 / element size: 16x16 bytes, 8x8 halves, 4x4 words, 2x2
 * doubles; 3-byte elements use 12-byte chunks of 4 in `wide` and a 128x128
 * tile of their own, rgb_tile, in the staged variants), transposes them in
 * registers (__byte_perm for bytes and halves, renaming for words) and writes
 * them back as chunks. M = 16 / V, so every thread has 16 chunks (256 bytes)
 * in flight whatever the element size. A block of 256 threads owns a tile of
 * 256 rows by 16 chunk columns.
 *
 * Three ways to bring the micro-block to its thread, one variant each:
 *   wide          straight from global memory into registers;
 *   wide-padded   rows land in shared memory with full-row coalesced loads,
 *                 one chunk of padding per row group;
 *   wide-swizzle  the same, with chunk column c of row group g stored at
 *                 c ^ (g & 7) instead of padding.
 * docs/kernels.md has the access patterns and the bank analysis.
 *
 * The other tiles: the stream stage (stream_tiles: a block moves tiles in
 * turn with the next ones' copies in flight; stream_words_tiles, the same
 * for 4-byte elements at any 4-byte alignment), the 64x64 tile of 4-byte
 * elements, the skinny tile of byte planes with a short side of 16 to 64,
 * the thin path (an element per thread, coalesced on the long side); the
 * exact tiles (any alignment) are in exact-tiles.cuh.
 * This file has the tiles, a block's worth of work each. A thread's pieces
 * of them (chunks in and out, the register transpose) are in
 * wide-thread.cuh, the launch arguments they read (FrameArgs) in
 * wide-args.cuh, the kernels that run them and the planner that chooses
 * in transpose-wide.cu and wide-planner.cuh.
 */
#ifndef CT_WIDE_TILES_CUH
#define CT_WIDE_TILES_CUH

#include "cudatranspose-kernels.h"
#include "exact-tiles.cuh"
#include "transpose-common.cuh"
#include "wide-args.cuh"
#include "wide-thread.cuh"

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <stdint.h>

namespace ct_wide {


using ct::Bytes;
using ct::PlaneArgs;
using ct::Word;
using ct::kThreads;
using ct::plane_index;

/* A wide tile: kGroups * M row groups of V rows by kCols chunks of V
 * elements; kGroups * kCols == kThreads, so each thread has M micro-blocks,
 * row groups g, g + kGroups, ... */
constexpr int kGroups = 16;
constexpr int kCols = 16;
static_assert (kGroups * kCols == kThreads, "a micro-block column per thread");
/* Chunks in flight per thread: the tile's load phase moves this many. */
constexpr int kChunks = 16;
constexpr int kSmallChunks = 4;
/* Blocks of the staged kernel a multiprocessor holds (its launch bounds). */
constexpr int kStagedPerSm = 3;
/* Blocks of a stream kernel a multiprocessor holds, at most (bytes: 1, by
 * their shared memory). */
constexpr int kStreamPerSm = 2;
/* Blocks of the tile kernel a multiprocessor holds (its launch bounds; its
 * 16 KB of shared memory allow them). */
constexpr int kTilePerSm = 8;
/* Blocks of the mid-size byte kernel a multiprocessor holds, at least
 * (its launch bounds: at 8, 32 registers a thread spilled; measured:
 * docs/kernels.md, "At least 4 blocks for the mid-size kernel"). */
constexpr int kMidPerSm = 4;

/* The geometry of a wide tile for element size E, chunks of NW 32-bit words
 * and K chunks per thread. The big tile (16-byte chunks, K = 16) serves
 * planes with enough tiles to fill the GPU; the small one (4-byte chunks, 8
 * for 8-byte elements, K = 4) makes 16 times as many blocks of a small plane
 * and needs only 4-byte (8-byte) alignment. */
template <int E, int NW, int K> struct Wide
{
  static constexpr int WORDS = NW;
  static constexpr int C = 4 * NW;
  /* elements per chunk, and rows and chunks per micro-block */
  static constexpr int V = C / E;
  /* micro-blocks per thread: K chunks in all */
  static constexpr int M = K / V;
  static constexpr int GROUPS = kGroups * M;
  /* the tile in source rows and source columns (elements) */
  static constexpr int ROWS = GROUPS * V;
  static constexpr int COLS = kCols * V;
  /* wide-padded: one chunk of padding after each row group spreads a
   * warp's 16-byte reads down a chunk column over all banks */
  static constexpr int SLOTS_PADDED = ROWS * kCols + GROUPS;
  static constexpr int SLOTS_SWIZZLED = ROWS * kCols;
  /* tiles a block holds at once */
  static constexpr int STAGES = 1;
  static_assert (V >= 1 && C % E == 0, "whole elements per chunk");
  static_assert (M >= 1 && K % V == 0, "whole micro-blocks per thread");
};

/* The configurations per element size. */
template <int E> struct Big : Wide<E, E == 3 ? 3 : 4, kChunks> {};
template <int E> struct Small :
    Wide<E, E == 3 ? 3 : E == 8 ? 2 : 1, kSmallChunks> {};
/* The streamed tile (not for 3-byte elements): 128 rows, or 256 for bytes,
 * whose micro-blocks are 16 rows; STAGES tiles in flight per block. */
template <int E> struct Stream : Wide<E, 4, E == 1 ? kChunks : kChunks / 2>
{
  static constexpr int STAGES = E == 1 ? 2 : 3;
};
/* The streamed tile of 4-byte elements at any 4-byte alignment (k_stream_
 * words): Stream<4>'s 128 x 64 tile, staged with the first rows of the
 * tile below it (a destination word can take up to 3 of them). */
struct StreamWords : Stream<4>
{
  static constexpr int STAGED_ROWS = ROWS + 4;
  static constexpr int SLOTS = STAGED_ROWS * kCols;
  static constexpr size_t SMEM = (size_t) STAGES * SLOTS * 16;
};
/* The tile of k_tile: 16-byte chunks, 4 per thread; for 4-byte elements a
 * 64 x 64 tile, a micro-block per thread, 16 KB of shared memory. */
template <int E> struct Tile : Wide<E, 4, kSmallChunks> {};
/* The byte tile of k_mid: 8-byte chunks, 8 per thread (an 8 x 8 byte
 * micro-block), 128 x 128 bytes in registers. */
struct MidBytes : Wide<1, 2, kChunks / 2> {};

/* Shared-memory chunk slot of tile row @row, chunk column @c (16-byte
 * chunks; 3-byte elements have rgb_tile instead). */
template <typename W, int STAGE>
__device__ __forceinline__ unsigned int
slot (unsigned int row, unsigned int c)
{
  const unsigned int g = row / W::V;

  static_assert (W::C == 16, "the staged tiles hold 16-byte chunks");
  if (STAGE == STAGE_SWIZZLE)
    return row * kCols + (c ^ (g & 7));
  return row * kCols + c + g;
}

/// wide family: one 256-row tile of the transpose mapping. A thread owns
/// micro-block column c and row groups g + 16m (m < M); in the store phase a
/// warp is 8 row groups x 4 chunk columns, so each store instruction writes
/// 4 destination rows, 8 consecutive chunks (128 bytes) in each.
/// wide: each thread loads its own chunks, so a load instruction reads 8
/// source rows, 4 consecutive chunks (64 bytes) in each. wide-padded and
/// wide-swizzle: a copy instruction moves 2 whole tile rows (256 bytes each)
/// from global to shared memory without passing through registers
/// (cp.async; slot() has the layouts), and once all have landed each thread
/// reads its micro-blocks back. Holding no tile in registers keeps the
/// staged kernel small enough for 3 blocks per multiprocessor, whose loads
/// overlap the other blocks' stores.
/// Preconditions: the plane's pointers and strides are multiples of 16 bytes
/// (4 for E == 3).
template <int E, typename W, int STAGE>
__device__ __forceinline__ void
wide_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  constexpr int V = W::V, NW = W::WORDS, M = W::M;
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int g = (lane & 7) + 8 * (warp & 1);
  const unsigned int c = (lane >> 3) + 4 * (warp >> 1);
  const unsigned int x0 = tx * W::COLS, y0 = ty * W::ROWS;
  uint32_t in[M][V][NW], out[M][V][NW];

  if constexpr (STAGE == STAGE_REGISTERS) {
#pragma unroll
    for (int m = 0; m < M; m++) {
#pragma unroll
      for (int i = 0; i < V; i++)
        load_chunk<E, NW> (p, x0 + c * V, y0 + (g + kGroups * m) * V + i,
            in[m][i]);
    }
  } else {
    /* ROWS * kCols chunks, K per thread, two rows per warp */
    constexpr int K = W::ROWS * kCols / kThreads;
    static_assert (W::ROWS * kCols == K * kThreads, "whole chunks a thread");
    uint4 *s = reinterpret_cast<uint4 *>(smem);
#pragma unroll
    for (int k = 0; k < K; k++) {
      unsigned int u = tid + k * kThreads;
      stage_chunk<E> (p, x0 + (u % kCols) * V, y0 + u / kCols,
          &s[slot<W, STAGE> (u / kCols, u % kCols)]);
    }
    __pipeline_commit ();
    __pipeline_wait_prior (0);
    __syncthreads ();
#pragma unroll
    for (int m = 0; m < M; m++) {
#pragma unroll
      for (int i = 0; i < V; i++) {
        uint4 v = reinterpret_cast<const uint4 *>(smem)[slot<W, STAGE> ((g +
                    kGroups * m) * V + i, c)];
        in[m][i][0] = v.x;
        in[m][i][1] = v.y;
        in[m][i][2] = v.z;
        in[m][i][3] = v.w;
      }
    }
  }

#pragma unroll
  for (int m = 0; m < M; m++) {
    transpose_block<E, NW> (in[m], out[m]);
#pragma unroll
    for (int j = 0; j < V; j++)
      store_chunk<E, NW> (p, x0 + c * V + j, y0 + (g + kGroups * m) * V,
          out[m][j]);
  }
}

/* The stream stage's loop (stream_tiles, stream_words_tiles): a block
 * moves tiles t0, t0 + step, ... (step: the grid's blocks) with W::STAGES
 * of them in shared memory. @issue (t, st) starts the copies of tile t
 * into stage st, nothing past the last tile; @move (st, x0, y0) moves the
 * tile in stage st, at source column x0 and row y0, out. One copy group
 * per tile, empty past the end: tile t's is STAGES - 1 back. */
template <typename W, typename Issue, typename Move>
__device__ __forceinline__ void
stream_loop (const FramePlane & fp, unsigned int t0, Issue issue, Move move)
{
  constexpr int S = W::STAGES;
  const unsigned int n = fp.tiles_x * fp.tiles_y, step = fp.blocks;

#pragma unroll
  for (int i = 0; i < S - 1; i++) {
    issue (t0 + i * step, i);
    __pipeline_commit ();
  }
  unsigned int st = 0;
  for (unsigned int t = t0; t < n; t += step) {
    issue (t + (S - 1) * step, (st + S - 1) % S);
    __pipeline_commit ();
    __pipeline_wait_prior (S - 1);
    __syncthreads ();
    move (st, (t / fp.tiles_y) * W::COLS, (t % fp.tiles_y) * W::ROWS);
    /* stage st is refilled on the next turn */
    __syncthreads ();
    st = st + 1 == S ? 0 : st + 1;
  }
}

/// stream (wide-swizzle on planes of a few waves): the plane has a grid of
/// its own size (host: as many blocks as fit at once), and each block moves
/// tiles b, b + blocks, ... down the columns of tiles, with STAGES tiles in
/// shared memory: while it transposes and stores one, the copies of the
/// next ones are in flight. The swizzled layout and the thread roles of
/// wide_tile; a thread reads, transposes and stores one micro-block at a
/// time. Preconditions as wide_tile's.
template <int E>
__device__ __forceinline__ void
stream_tiles (const FramePlane & fp, unsigned int t0, uint32_t * smem)
{
  using W = Stream<E>;
  constexpr int V = W::V, NW = W::WORDS, M = W::M;
  constexpr int K = W::ROWS * kCols / kThreads;
  constexpr unsigned int TS = W::SLOTS_SWIZZLED;
  const PlaneArgs & p = fp.a;
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int g = (lane & 7) + 8 * (warp & 1);
  const unsigned int c = (lane >> 3) + 4 * (warp >> 1);
  const unsigned int n = fp.tiles_x * fp.tiles_y;
  uint4 *s = reinterpret_cast<uint4 *>(smem);

  /* tile @t into stage @st; nothing past the last tile */
  auto issue = [&] (unsigned int t, unsigned int st) {
    if (t >= n)
      return;
    const unsigned int x0 = (t / fp.tiles_y) * W::COLS;
    const unsigned int y0 = (t % fp.tiles_y) * W::ROWS;
#pragma unroll
    for (int k = 0; k < K; k++) {
      const unsigned int u = tid + k * kThreads;
      stage_chunk<E> (p, x0 + (u % kCols) * V, y0 + u / kCols,
          &s[st * TS + slot<W, STAGE_SWIZZLE> (u / kCols, u % kCols)]);
    }
  };

  stream_loop<W> (fp, t0, issue, [&] (unsigned int st, unsigned int x0,
          unsigned int y0) {
#pragma unroll
    for (int m = 0; m < M; m++) {
      uint32_t in[V][NW], out[V][NW];
#pragma unroll
      for (int i = 0; i < V; i++) {
        uint4 v = s[st * TS + slot<W, STAGE_SWIZZLE> ((g + kGroups * m) * V +
                i, c)];
        in[i][0] = v.x;
        in[i][1] = v.y;
        in[i][2] = v.z;
        in[i][3] = v.w;
      }
      transpose_block<E, NW> (in, out);
#pragma unroll
      for (int j = 0; j < V; j++)
        store_chunk<E, NW> (p, x0 + c * V + j, y0 + (g + kGroups * m) * V,
            out[j]);
    }
  });
}

/// stream-words: stream_tiles for a single plane of 4-byte elements whose
/// pointers and strides are whole elements but not whole 16-byte words (a
/// float32 tensor's packed rows), in the same tile, layout and thread
/// roles. Load phase: a thread copies one source column of the tile, an
/// element at a time (4-byte cp.async, which takes any 4-byte alignment;
/// a warp instruction reads 128 consecutive bytes of a row), with 4 rows
/// of the tile below. Store phase: destination row x's 16-byte boundaries
/// fall sh(x) elements (0 to 3) past the tile's first row, so the whole
/// aligned word of row group G holds source rows 4G + sh to 4G + sh + 3:
/// the thread reads the 7 staged rows 4G to 4G + 6 of its chunk column and
/// picks each destination row's 4. Every store is then one aligned 16-byte
/// word, faster than writing the words at each lane group's ends in parts,
/// a warp shuffle apart (measured: docs/kernels.md,
/// "Whole aligned stores in stream-words").
/// A tile's last word takes the next tile's first sh rows, which that
/// tile leaves; the plane's first sh elements of each destination row go
/// one by one. Preconditions: pointers and strides multiples of 4 bytes;
/// the plane alone in its launch.
__device__ __forceinline__ void
stream_words_tiles (const FramePlane & fp, unsigned int t0, uint32_t * smem)
{
  using W = StreamWords;
  constexpr int M = W::M;
  constexpr unsigned int TS = W::SLOTS;
  const PlaneArgs & p = fp.a;
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int g = (lane & 7) + 8 * (warp & 1);
  const unsigned int c = (lane >> 3) + 4 * (warp >> 1);
  const unsigned int n = fp.tiles_x * fp.tiles_y;
  /* the load phase's source column and first row */
  const unsigned int col = tid % W::COLS, r0 = tid / W::COLS;
  static_assert (kThreads / W::COLS == 4, "rows r0 + 4k: row group k");
  uint4 *s = reinterpret_cast<uint4 *>(smem);

  /* tile @t into stage @st; nothing past the last tile, the plane's last
   * column or its last row */
  auto issue = [&] (unsigned int t, unsigned int st) {
    if (t >= n)
      return;
    const unsigned int x0 = (t / fp.tiles_y) * W::COLS;
    const unsigned int y0 = (t % fp.tiles_y) * W::ROWS;
    if (x0 + col >= p.width)
      return;
    const unsigned int rows = min (p.height - y0,
        (unsigned int) W::STAGED_ROWS);
    const unsigned char *from = p.src + (ptrdiff_t) (y0 + r0) *
        p.src_stride + (size_t) (x0 + col) * 4;
    unsigned char *to = reinterpret_cast<unsigned char *>(s + st * TS) +
        (col % 4) * 4;
#pragma unroll
    for (int k = 0; k < W::STAGED_ROWS / 4; k++) {
      /* slot (r0 + 4k, col / 4): row r0 + 4k is in row group k */
      if (r0 + 4 * k < rows)
        __pipeline_memcpy_async (to + ((r0 + 4 * k) * kCols +
                ((col / 4) ^ (k & 7))) * 16,
            from + (ptrdiff_t) (4 * k) * p.src_stride, 4);
    }
  };

  stream_loop<W> (fp, t0, issue, [&] (unsigned int st, unsigned int x0,
          unsigned int y0) {
    uint32_t *row[4];
    unsigned int sh[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      row[j] = reinterpret_cast<uint32_t *>(p.dst +
          (ptrdiff_t) (x0 + c * 4 + j) * p.dst_stride);
      sh[j] = (0u - (unsigned int) (reinterpret_cast<uintptr_t>(row[j] +
                  y0) >> 2)) & 3;
    }
#pragma unroll
    for (int m = 0; m < M; m++) {
      const unsigned int G = g + kGroups * m;
      uint32_t r[7][4];
#pragma unroll
      for (int i = 0; i < 7; i++) {
        const uint4 v = s[st * TS + slot<W, STAGE_SWIZZLE> (4 * G + i, c)];
        r[i][0] = v.x;
        r[i][1] = v.y;
        r[i][2] = v.z;
        r[i][3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < 4; j++) {
        if (x0 + c * 4 + j >= p.width)
          continue;
        uint32_t o[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
          o[k] = sh[j] == 0 ? r[k][j] : sh[j] == 1 ? r[k + 1][j] :
              sh[j] == 2 ? r[k + 2][j] : r[k + 3][j];
        const unsigned int ys = y0 + 4 * G + sh[j];
        if (ys + 4 <= p.height) {
          *reinterpret_cast<uint4 *>(row[j] + ys) =
              make_uint4 (o[0], o[1], o[2], o[3]);
        } else {
#pragma unroll
          for (int k = 0; k < 3; k++)
            if (ys + k < p.height)
              row[j][ys + k] = o[k];
        }
        /* the first tile: the row's elements before its first boundary */
        if (y0 == 0 && G == 0) {
#pragma unroll
          for (int k = 0; k < 3; k++)
            if ((unsigned int) k < sh[j] && (unsigned int) k < p.height)
              row[j][k] = r[k][j];
        }
      }
    }
  });
}

/* The lines tile of byte planes (lines_tile): 128 x 128 bytes, source row r
 * as 8 chunks of 16 bytes, chunk q at slot 8 r + (q ^ ((r / 8) & 7)).
 * kLinesTile: a destination row's share of a tile is one 128-byte line. */
constexpr int kLinesTile = 128;
constexpr int kLinesChunks = kLinesTile / 16;
constexpr size_t kLinesSmem = (size_t) kLinesTile * kLinesTile;
static_assert (kLinesTile * kLinesChunks == 4 * kThreads,
    "4 chunks a thread in the load phase");
static_assert ((kLinesTile / 8) * (kLinesTile / 8) == kThreads,
    "an 8 x 8 micro-block a thread");

/// lines (tile-128-lines): one 128 x 128 tile of a byte plane, whole
/// 128-byte lines each way. Load phase: a cp.async instruction of a warp
/// moves 4 whole source rows of the tile (4 x 128 bytes) to shared memory
/// (k_mid's register tile reads 8 rows x 32 bytes an instruction). Each
/// thread then reads an 8 x 8 micro-block, row group g (source rows 8g to
/// 8g + 7) and 8-byte column c, as 8 words of 8 bytes: a half-warp is 8
/// row groups by both columns of a pair, and the swizzle (chunk q of row r
/// at q ^ ((r / 8) & 7)) puts its 16 words in 16 different bank pairs.
/// It transposes it in registers (transpose_block) and stores 8 chunks of
/// 8 bytes: a store instruction writes 2 destination rows, 16 consecutive
/// chunks each, one whole 128-byte line (k_mid: 4 rows x 64 bytes). Zeros
/// are read past the plane's edges and nothing is written there.
/// Preconditions: pointers and strides multiples of 16 bytes.
__device__ __forceinline__ void
lines_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty, uint4 * s)
{
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int x0 = tx * kLinesTile, y0 = ty * kLinesTile;

#pragma unroll
  for (int k = 0; k < 4; k++) {
    const unsigned int u = tid + k * kThreads;
    const unsigned int r = u / kLinesChunks, q = u % kLinesChunks;
    stage_chunk<1> (p, x0 + q * 16, y0 + r,
        &s[r * kLinesChunks + (q ^ ((r / 8) & 7))]);
  }
  __pipeline_commit ();
  __pipeline_wait_prior (0);
  __syncthreads ();

  /* a half-warp: row groups 8 apart by 8, column pair 2 warp, 2 warp + 1 */
  const unsigned int g = (lane & 7) + 8 * (lane >> 4);
  const unsigned int c = ((lane >> 3) & 1) + 2 * warp;
  const uint2 *s8 = reinterpret_cast<const uint2 *>(s);
  uint32_t in[8][2], out[8][2];
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const unsigned int r = g * 8 + i;
    const uint2 v = s8[2 * (r * kLinesChunks + ((c / 2) ^ (g & 7))) + c % 2];
    in[i][0] = v.x;
    in[i][1] = v.y;
  }
  transpose_block<1, 2> (in, out);
#pragma unroll
  for (int j = 0; j < 8; j++)
    store_chunk<1, 2> (p, x0 + c * 8 + j, y0 + g * 8, out[j]);
}

/* The 3-byte tile of wide-padded and wide-swizzle: 128 x 128 elements. */
constexpr int kRgbTile = 128;
/* Its transposed tile in shared memory: 128 destination rows of 96 words,
 * 12 more words after every 16 rows (see rgb_tile). */
constexpr int kRgbPitch = kRgbTile * 3 / 4;
constexpr int kRgbGroupPad = 12;
constexpr size_t kRgbSmem = ((size_t) kRgbTile * kRgbPitch +
    (kRgbTile / 16) * kRgbGroupPad) * 4;

__device__ __forceinline__ unsigned int
rgb_word (unsigned int row, unsigned int word)
{
  return row * kRgbPitch + (row / 16) * kRgbGroupPad + word;
}

/// rgb (3-byte elements in wide-padded and wide-swizzle): 128x128 tile.
/// Thread (gr, gc), gr < 32 and gc < 8, loads source rows 4gr..4gr+3,
/// elements 16gc..16gc+15: 48 bytes a row, three 16-byte loads (a warp reads
/// 384 contiguous bytes of 4 rows per load). It transposes the 4x16 block in
/// registers into 16 destination rows of 4 elements (12 bytes, 3 words) and
/// stores them to the transposed tile in shared memory; then the block
/// writes the tile out as 16-byte chunks, consecutive lanes on consecutive
/// chunks of a destination row. Shared stores: a warp's 32 lanes are 8 gc x
/// 4 gr; lane (gc, gr) writes word 3gr + k of row 16gc + j, and the 12-word
/// pad per 16 rows puts gc at bank offset 12gc, so the 32 lanes hit 32 banks.
/// Preconditions: pointers and strides multiples of 16 bytes.
__device__ __forceinline__ void
rgb_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  const unsigned int tid = threadIdx.x;
  const unsigned int gc = tid & 7, gr = tid >> 3;
  const unsigned int x0 = tx * kRgbTile, y0 = ty * kRgbTile;
  const size_t row_bytes = (size_t) p.width * 3;
  uint32_t in[4][12], out[16][3];

#pragma unroll
  for (int r = 0; r < 4; r++) {
    const unsigned int y = y0 + 4 * gr + r;
    const size_t bo = (size_t) (x0 + 16 * gc) * 3;
#pragma unroll
    for (int q = 0; q < 3; q++) {
      const size_t b = bo + 16 * q;
#pragma unroll
      for (int k = 0; k < 4; k++)
        in[r][4 * q + k] = 0;
      if (y >= p.height || b >= row_bytes)
        continue;
      const unsigned char *at = p.src + (ptrdiff_t) y * p.src_stride + b;
      if (b + 16 <= row_bytes) {
        uint4 v = *reinterpret_cast<const uint4 *>(at);
        in[r][4 * q] = v.x;
        in[r][4 * q + 1] = v.y;
        in[r][4 * q + 2] = v.z;
        in[r][4 * q + 3] = v.w;
      } else {
#pragma unroll
        for (int i = 0; i < 16; i++) {
          if (b + i < row_bytes)
            in[r][4 * q + i / 4] = put_byte (in[r][4 * q + i / 4], i % 4,
                at[i]);
        }
      }
    }
  }

  /* out[j] byte 3r + b = in[r] byte 3j + b */
#pragma unroll
  for (int j = 0; j < 16; j++) {
#pragma unroll
    for (int wd = 0; wd < 3; wd++) {
      uint32_t v = 0;
#pragma unroll
      for (int i = 0; i < 4; i++) {
        int ob = 4 * wd + i, r = ob / 3, sb = 3 * j + ob % 3;
        v |= ((in[r][sb / 4] >> (8 * (sb % 4))) & 0xffu) << (8 * i);
      }
      out[j][wd] = v;
    }
  }
#pragma unroll
  for (int j = 0; j < 16; j++) {
#pragma unroll
    for (int k = 0; k < 3; k++)
      smem[rgb_word (16 * gc + j, 3 * gr + k)] = out[j][k];
  }
  __syncthreads ();

  /* 128 rows x 24 chunks of 16 bytes, 12 per thread */
  const size_t col_bytes = (size_t) p.height * 3;
#pragma unroll
  for (int k = 0; k < kRgbTile * 24 / kThreads; k++) {
    const unsigned int u = tid + k * kThreads, row = u / 24, q = u % 24;
    const unsigned int x = x0 + row;
    const size_t b = (size_t) y0 * 3 + 16 * q;
    if (x >= p.width || b >= col_bytes)
      continue;
    uint4 v = *reinterpret_cast<const uint4 *>(&smem[rgb_word (row, 4 * q)]);
    unsigned char *at = p.dst + (ptrdiff_t) x * p.dst_stride + b;
    if (b + 16 <= col_bytes) {
      *reinterpret_cast<uint4 *>(at) = v;
    } else {
      uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
      for (int i = 0; i < 16; i++) {
        if (b + i < col_bytes)
          at[i] = (unsigned char) (w[i / 4] >> (8 * (i % 4)));
      }
    }
  }
}

/// thin: elements along the plane's long side, in source order when the
/// plane is at least as wide as tall (reads coalesced, each destination row
/// short) and in destination order otherwise (writes coalesced). Block
/// (tx, ty) covers 256 * N elements of line ty of the short side, N = 2^@shift
/// per thread, 256 apart (the planner's choice: 1 on small planes, more
/// where blocks of one element per thread would be too many to schedule),
/// so no thread divides a 64-bit index. The lines of the short side are
/// the fastest-moving block index (host: by_columns), so the blocks that
/// share the same destination (or source) sectors run together and the
/// sectors are whole in L2 when they reach memory. For planes with fewer
/// than kThin rows or columns, where a tile would idle.
constexpr unsigned int kThinMaxShift = 3;

template <typename T, unsigned int N>
__device__ __forceinline__ void
thin_block (const PlaneArgs & p, unsigned int tx, unsigned int ty)
{
  const unsigned int l0 = tx * kThreads * N + threadIdx.x;
  const bool by_rows = p.width >= p.height;
  const unsigned int len = by_rows ? p.width : p.height;
  T v[N];

  /* every load first, then every store: N loads in flight */
#pragma unroll
  for (unsigned int k = 0; k < N; k++) {
    const unsigned int l = l0 + k * kThreads;
    if (l < len)
      v[k] = by_rows ? ct::src_at<T> (p, l, ty) : ct::src_at<T> (p, ty, l);
  }
#pragma unroll
  for (unsigned int k = 0; k < N; k++) {
    const unsigned int l = l0 + k * kThreads;
    if (l < len) {
      if (by_rows)
        ct::dst_of<T> (p, l, ty) = v[k];
      else
        ct::dst_of<T> (p, ty, l) = v[k];
    }
  }
}

/* Thin block (tx, ty) of elements T, 2^@shift per thread. */
template <typename T>
__device__ __forceinline__ void
thin_shifted (const PlaneArgs & p, unsigned int tx, unsigned int ty,
    unsigned int shift)
{
  switch (shift) {
    case 0:
      thin_block<T, 1> (p, tx, ty);
      break;
    case 1:
      thin_block<T, 2> (p, tx, ty);
      break;
    case 2:
      thin_block<T, 4> (p, tx, ty);
      break;
    default:
      thin_block<T, 8> (p, tx, ty);
      break;
  }
}

/* A big tile in one of the stages, or (STAGE_SMALL) a small tile. The
 * register kernel has the register stage, the staged kernel the padded and
 * swizzled ones (host: kPaths sends each plane to the kernel that has
 * its stage; k_stream has the stream stage). */
template <int E, bool STAGED>
__device__ __forceinline__ void
wide_any (const PlaneArgs & p, int stage, unsigned int tx, unsigned int ty,
    uint32_t * smem)
{
  if constexpr (!STAGED) {
    if (stage == STAGE_REGISTERS) {
      wide_tile<E, Big<E>, STAGE_REGISTERS> (p, tx, ty, smem);
      return;
    }
  } else if constexpr (E == 3) {
    if (stage == STAGE_PADDED || stage == STAGE_SWIZZLE) {
      rgb_tile (p, tx, ty, smem);
      return;
    }
  } else {
    if (stage == STAGE_PADDED) {
      wide_tile<E, Big<E>, STAGE_PADDED> (p, tx, ty, smem);
      return;
    }
    if (stage == STAGE_SWIZZLE) {
      wide_tile<E, Big<E>, STAGE_SWIZZLE> (p, tx, ty, smem);
      return;
    }
  }
  if (stage == STAGE_SMALL)
    wide_tile<E, Small<E>, STAGE_REGISTERS> (p, tx, ty, smem);
}

/* The plane of entry @fp that block @t (counted from the entry's first)
 * works on, and in @t its tile within that plane. */
__device__ __forceinline__ PlaneArgs
batch_plane (const FramePlane & fp, unsigned int *t)
{
  PlaneArgs a = fp.a;

  if (fp.count > 1) {
    const unsigned int per_plane = fp.tiles_x * fp.tiles_y;
    const unsigned int k = *t / per_plane;

    *t -= k * per_plane;
    a.src += k * fp.src_step;
    a.dst += k * fp.dst_step;
  }
  return a;
}

/* The same for the one entry of a two-level launch: plane k of the
 * entry's count * count2 is plane (k % count, k / count). */
__device__ __forceinline__ PlaneArgs
two_level_plane (const TwoLevelArgs & f, unsigned int *t)
{
  const FramePlane & fp = f.plane[0];
  const unsigned int per_plane = fp.tiles_x * fp.tiles_y;
  const unsigned int k = *t / per_plane;
  const unsigned int m = k / fp.count;
  PlaneArgs a = fp.a;

  *t -= k * per_plane;
  a.src += (k - m * fp.count) * fp.src_step + m * f.src_step2;
  a.dst += (k - m * fp.count) * fp.dst_step + m * f.dst_step2;
  return a;
}

/* Thin block (tx, ty) of a plane of @elem-byte elements (native words:
 * the host sends only aligned planes this way). */
__device__ __forceinline__ void
thin_any (unsigned int elem, const PlaneArgs & a, unsigned int tx,
    unsigned int ty, unsigned int shift)
{
  switch (elem) {
    case 1:
      thin_shifted<Word<1>::T> (a, tx, ty, shift);
      break;
    case 2:
      thin_shifted<Word<2>::T> (a, tx, ty, shift);
      break;
    case 3:
      thin_shifted<Word<3>::T> (a, tx, ty, shift);
      break;
    case 4:
      thin_shifted<Word<4>::T> (a, tx, ty, shift);
      break;
    default:
      thin_shifted<Word<8>::T> (a, tx, ty, shift);
      break;
  }
}

/// One block of the one-launch kernels: a tile (or thin block) of plane
/// @a (entry @fp's plane, or one of its batch), block @t of the plane, by
/// the entry's path; the exact path only where EXACT (the host sends exact
/// planes only to such kernels).
template <bool STAGED, bool EXACT>
__device__ __forceinline__ void
wide_block (const FramePlane & fp, const PlaneArgs & a, unsigned int t,
    uint32_t * smem)
{
  /* staged tiles of planes larger than a wave go down the columns of
   * tiles (host: by_columns) */
  const unsigned int tx = fp.by_columns ? t / fp.tiles_y : t % fp.tiles_x;
  const unsigned int ty = fp.by_columns ? t % fp.tiles_y : t / fp.tiles_x;
  switch (fp.way) {
    case WAY_WIDE:
      switch (fp.elem) {
        case 1:
          wide_any<1, STAGED> (a, fp.stage, tx, ty, smem);
          break;
        case 2:
          wide_any<2, STAGED> (a, fp.stage, tx, ty, smem);
          break;
        case 3:
          wide_any<3, STAGED> (a, fp.stage, tx, ty, smem);
          break;
        case 4:
          wide_any<4, STAGED> (a, fp.stage, tx, ty, smem);
          break;
        default:
          wide_any<8, STAGED> (a, fp.stage, tx, ty, smem);
          break;
      }
      break;
    case WAY_THIN:
      /* one element per thread (host: shifted thin planes run in k_thin) */
      thin_any (fp.elem, a, tx, ty, 0);
      break;
    default:
      if constexpr (EXACT)
        exact_any (fp.elem, fp.words, a, tx, ty, smem);
      break;
  }
}

/* The skinny tile of byte planes with a short side of 16 to 64: RG row
 * groups of 16 rows by CC chunk columns of 16 bytes, RG * CC = kThreads,
 * so a 16 x 16 micro-block per thread, all of the short side in one tile.
 * Shared memory: the swizzle, chunk column c of row group g at c ^ (g * 8
 * / GL) mod 8, where GL lanes of a warp share a chunk column in the store
 * phase (8 lanes of a 16-byte access then hit 8 different bank groups);
 * with fewer than 8 chunk columns a row group is 64 bytes and the swizzle
 * cannot spread it, so one chunk of padding after each row group does. */
template <int RG, int CC> struct Skinny
{
  static constexpr int V = 16;
  static constexpr int ROWS = RG * V;
  static constexpr int COLS = CC * V;
  static constexpr int GL = RG < 8 ? RG : 8;
  static constexpr bool PAD = CC < 8;
  static constexpr int SLOTS = ROWS * CC + (PAD ? RG : 0);
  static_assert (RG * CC == kThreads, "a micro-block per thread");
  static_assert (RG % GL == 0 && 32 % GL == 0, "whole lanes per group");
};

template <typename S>
__device__ __forceinline__ unsigned int
skinny_slot (unsigned int row, unsigned int c)
{
  const unsigned int g = row / S::V;

  if constexpr (S::PAD)
    return row * (S::COLS / S::V) + c + g;
  return row * (S::COLS / S::V) + (c ^ ((g * (8 / S::GL)) & 7));
}

/// The skinny tile of byte planes 16 to 64 elements on their short side,
/// where the big tile's 256 x 256 would leave three quarters of its threads
/// past the edge (measured: docs/kernels.md, "Skinny tiles"). Loads as
/// wide_tile's staged path (cp.async, whole 16-byte chunks, zeros past the
/// edge); each thread then reads one micro-block, transposes it in
/// registers and stores 16 chunks. Store phase: GL lanes along the row
/// groups (consecutive chunks of a destination row), the rest of the warp
/// along the chunk columns.
template <int RG, int CC>
__device__ __forceinline__ void
skinny_tile (const PlaneArgs & p, unsigned int tx, unsigned int ty, uint4 * s)
{
  using S = Skinny<RG, CC>;
  const unsigned int x0 = tx * S::COLS;
  const unsigned int y0 = ty * S::ROWS;
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

#pragma unroll
  for (int k = 0; k < S::ROWS * CC / kThreads; k++) {
    const unsigned int u = tid + k * kThreads;
    stage_chunk<1> (p, x0 + (u % CC) * S::V, y0 + u / CC,
        &s[skinny_slot<S> (u / CC, u % CC)]);
  }
  __pipeline_commit ();
  __pipeline_wait_prior (0);
  __syncthreads ();

  const unsigned int g = (warp % (RG / S::GL)) * S::GL + lane % S::GL;
  const unsigned int c = (warp / (RG / S::GL)) * (32 / S::GL) + lane / S::GL;
  uint32_t in[S::V][4], out[S::V][4];
#pragma unroll
  for (int i = 0; i < S::V; i++) {
    const uint4 v = s[skinny_slot<S> (g * S::V + i, c)];
    in[i][0] = v.x;
    in[i][1] = v.y;
    in[i][2] = v.z;
    in[i][3] = v.w;
  }
  transpose_block<1, 4> (in, out);
#pragma unroll
  for (int j = 0; j < S::V; j++)
    store_chunk<1, 4> (p, x0 + c * S::V + j, y0 + g * S::V, out[j]);
}

}  // namespace ct_wide

#endif /* CT_WIDE_TILES_CUH */
