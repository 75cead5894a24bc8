/* cudatranspose: the wide variants, one launch for all planes of a call.
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
 * auto has more paths (CtPath): it streams a single plane of a few waves
 * (stream_tiles, k_stream: a grid of as many blocks as fit, each moving
 * tiles in turn with the next ones' copies in flight), moves other single
 * 4-byte planes in a 64x64 tile at 8 blocks per multiprocessor (k_tile),
 * and a byte plane (or batch) alone in its call with a short side of 16
 * to 64 in a tile spanning that side (k_skinny). The planner (plan ())
 * makes every choice, by the table kAuto.
 *
 * An entry of the launch arguments is a plane or a batch of equal planes at
 * fixed steps (ct_transpose_batches): a block divides to find its plane.
 *
 * Every plane of the call is a range of blocks of one 1-D grid; a block
 * finds its plane in the launch arguments and switches on its path, so each
 * plane can take its own way. Planes narrower or shorter than 16
 * (kAuto.thin) take the thin path (an element per thread, coalesced on the
 * long side). Planes the wide path cannot take (misaligned,
 * or a mirrored mapping) take the 64x64 tile of the seeds (ct::move_tile)
 * inside the same launch: exact, not fast.
 */
#include "cudatranspose-kernels.h"
#include "transpose-common.cuh"

#include <cuda.h>
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <atomic>
#include <limits.h>
#include <mutex>
#include <new>
#include <stdint.h>

namespace {

using ct::Bytes;
using ct::PlaneArgs;

constexpr int kThreads = 256;
/* A wide tile: kGroups * M row groups of V rows by kCols chunks of V
 * elements; kGroups * kCols == kThreads, so each thread has M micro-blocks,
 * row groups g, g + kGroups, ... */
constexpr int kGroups = 16;
constexpr int kCols = 16;
static_assert (kGroups * kCols == kThreads, "a micro-block column per thread");
/* Chunks in flight per thread: the tile's load phase moves this many. */
constexpr int kChunks = 16;
constexpr int kSmallChunks = 4;
/* The exact path's tile: ct::move_tile with 32 x 8 threads, padded. */
constexpr int kFallbackTile = 64;
constexpr int kMaxDevices = 64;
/* Blocks of the staged kernel a multiprocessor holds (its launch bounds). */
constexpr int kStagedPerSm = 3;
/* Blocks of a stream kernel a multiprocessor holds, at most (bytes: 1, by
 * their shared memory). */
constexpr int kStreamPerSm = 2;
/* Blocks of the tile kernel a multiprocessor holds (its launch bounds; its
 * 16 KB of shared memory allow them). */
constexpr int kTilePerSm = 8;

enum Stage
{
  STAGE_REGISTERS,
  STAGE_PADDED,
  STAGE_SWIZZLE,
  /* the swizzled layout, a persistent grid streaming tiles (stream_tiles) */
  STAGE_STREAM,
  /* the swizzled layout, a 64 x 64 tile per block at kTilePerSm blocks per
   * multiprocessor (4-byte elements, k_tile) */
  STAGE_TILE,
  /* byte planes 16 to 64 rows tall: a 64 x 1024 tile (k_skinny) */
  STAGE_SKINNY_ROWS,
  /* byte planes 16 to 64 columns wide: a 1024 x 64 tile (k_skinny) */
  STAGE_SKINNY_COLS,
  /* the small tile, registers (either k_wide) */
  STAGE_SMALL
};

/* How a block of k_wide moves its plane: a wide tile (of the plane's
 * stage), an element per thread (thin), or the exact 64x64 tile. */
enum Way
{
  WAY_WIDE,
  WAY_THIN,
  WAY_EXACT
};

struct FramePlane
{
  PlaneArgs a;
  unsigned int tiles_x, tiles_y;
  unsigned int blocks;          /* the plane's blocks (stream: its grid) */
  unsigned char way;            /* Way */
  unsigned char elem;           /* element size */
  unsigned char stage;          /* Stage of a wide tile */
  unsigned char words;          /* exact: native words (else bytes) */
  int by_columns;               /* block order: down the columns of tiles */
  /* a batch: @count planes of this shape, plane k at a.src + k * src_step
   * and a.dst + k * dst_step, each tiles_x * tiles_y blocks; 1: one plane */
  unsigned int count;
  size_t src_step, dst_step;
};

/* The block ranges come first: a block finds its plane in the first
 * line of the launch arguments (measured: 0.15 to 0.3 us less per launch
 * than reading them out of the planes). */
struct FrameArgs
{
  unsigned int n_planes;
  unsigned int first_block[CT_PLANES_PER_LAUNCH];
  FramePlane plane[CT_PLANES_PER_LAUNCH];
};
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
/* The tile of k_tile: 16-byte chunks, 4 per thread; for 4-byte elements a
 * 64 x 64 tile, a micro-block per thread, 16 KB of shared memory. */
template <int E> struct Tile : Wide<E, 4, kSmallChunks> {};

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

__device__ __forceinline__ uint32_t
put_byte (uint32_t w, int pos, uint32_t b)
{
  return (w & ~(0xffu << (8 * pos))) | ((b & 0xffu) << (8 * pos));
}

/* Element @e of a chunk from/to memory (the ragged-edge path; @e is a
 * constant after unrolling, so the words stay in registers). */
template <int E, int NW>
__device__ __forceinline__ void
load_element (uint32_t (&w)[NW], int e, const unsigned char *at)
{
  if constexpr (E == 8) {
    uint2 v = *reinterpret_cast<const uint2 *>(at);
    w[2 * e] = v.x;
    w[2 * e + 1] = v.y;
  } else if constexpr (E == 4) {
    w[e] = *reinterpret_cast<const uint32_t *>(at);
  } else if constexpr (E == 2) {
    uint32_t v = *reinterpret_cast<const unsigned short *>(at);
    int s = (e & 1) * 16;
    w[e / 2] = (w[e / 2] & ~(0xffffu << s)) | (v << s);
  } else {
#pragma unroll
    for (int b = 0; b < E; b++) {
      int pos = e * E + b;
      w[pos / 4] = put_byte (w[pos / 4], pos % 4, at[b]);
    }
  }
}

template <int E, int NW>
__device__ __forceinline__ void
store_element (const uint32_t (&w)[NW], int e, unsigned char *at)
{
  if constexpr (E == 8) {
    *reinterpret_cast<uint2 *>(at) = make_uint2 (w[2 * e], w[2 * e + 1]);
  } else if constexpr (E == 4) {
    *reinterpret_cast<uint32_t *>(at) = w[e];
  } else if constexpr (E == 2) {
    *reinterpret_cast<unsigned short *>(at) =
        (unsigned short) (w[e / 2] >> ((e & 1) * 16));
  } else {
#pragma unroll
    for (int b = 0; b < E; b++) {
      int pos = e * E + b;
      at[b] = (unsigned char) (w[pos / 4] >> (8 * (pos % 4)));
    }
  }
}

/* The chunk of source row @y starting at element @x: one 16-byte load (three
 * words for 3-byte elements) when all of it is inside the plane, else the
 * elements that are, one by one. Nothing outside the plane is read. */
template <int E, int NW>
__device__ __forceinline__ void
load_chunk (const PlaneArgs & p, unsigned int x, unsigned int y,
    uint32_t (&w)[NW])
{
  constexpr int V = 4 * NW / E;

#pragma unroll
  for (int k = 0; k < NW; k++)
    w[k] = 0;
  if (x >= p.width || y >= p.height)
    return;
  const unsigned char *at = p.src + (size_t) y * p.src_stride + (size_t) x * E;
  if (x + V <= p.width) {
    if constexpr (NW == 4) {
      uint4 v = *reinterpret_cast<const uint4 *>(at);
      w[0] = v.x;
      w[1] = v.y;
      w[2] = v.z;
      w[3] = v.w;
    } else if constexpr (NW == 2) {
      uint2 v = *reinterpret_cast<const uint2 *>(at);
      w[0] = v.x;
      w[1] = v.y;
    } else {
      const uint32_t *q = reinterpret_cast<const uint32_t *>(at);
#pragma unroll
      for (int k = 0; k < NW; k++)
        w[k] = q[k];
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < V; e++) {
    if (x + e < p.width)
      load_element<E> (w, e, at + e * E);
  }
}

/* The chunk of destination row @x (a source column) starting at destination
 * column @y (a source row), with the same all-or-one-by-one rule. */
template <int E, int NW>
__device__ __forceinline__ void
store_chunk (const PlaneArgs & p, unsigned int x, unsigned int y,
    const uint32_t (&w)[NW])
{
  constexpr int V = 4 * NW / E;

  if (x >= p.width || y >= p.height)
    return;
  unsigned char *at = p.dst + (size_t) x * p.dst_stride + (size_t) y * E;
  if (y + V <= p.height) {
    if constexpr (NW == 4) {
      *reinterpret_cast<uint4 *>(at) = make_uint4 (w[0], w[1], w[2], w[3]);
    } else if constexpr (NW == 2) {
      *reinterpret_cast<uint2 *>(at) = make_uint2 (w[0], w[1]);
    } else {
      uint32_t *q = reinterpret_cast<uint32_t *>(at);
#pragma unroll
      for (int k = 0; k < NW; k++)
        q[k] = w[k];
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < V; e++) {
    if (y + e < p.height)
      store_element<E> (w, e, at + e * E);
  }
}

/* out[c] element r = in[r] element c, for a V x V micro-block held as V
 * chunks of NW words. */
template <int E, int NW>
__device__ __forceinline__ void
transpose_block (const uint32_t (&in)[4 * NW / E][NW],
    uint32_t (&out)[4 * NW / E][NW])
{
  constexpr int V = 4 * NW / E;

  if constexpr (E == 8) {
#pragma unroll
    for (int r = 0; r < V; r++) {
#pragma unroll
      for (int c = 0; c < V; c++) {
        out[c][2 * r] = in[r][2 * c];
        out[c][2 * r + 1] = in[r][2 * c + 1];
      }
    }
  } else if constexpr (E == 4) {
#pragma unroll
    for (int r = 0; r < V; r++) {
#pragma unroll
      for (int c = 0; c < V; c++)
        out[c][r] = in[r][c];
    }
  } else if constexpr (E == 2) {
    /* 2x2 blocks of halves: rows 2k, 2k+1 of word column w */
#pragma unroll
    for (int k = 0; k < NW; k++) {
#pragma unroll
      for (int w = 0; w < NW; w++) {
        uint32_t a0 = in[2 * k][w], a1 = in[2 * k + 1][w];
        out[2 * w][k] = __byte_perm (a0, a1, 0x5410);
        out[2 * w + 1][k] = __byte_perm (a0, a1, 0x7632);
      }
    }
  } else if constexpr (E == 1) {
    /* 4x4 blocks of bytes: rows 4k..4k+3 of word column w, two steps of
     * byte interleaves */
#pragma unroll
    for (int k = 0; k < NW; k++) {
#pragma unroll
      for (int w = 0; w < NW; w++) {
        uint32_t t0 = __byte_perm (in[4 * k][w], in[4 * k + 1][w], 0x5140);
        uint32_t t1 = __byte_perm (in[4 * k][w], in[4 * k + 1][w], 0x7362);
        uint32_t t2 = __byte_perm (in[4 * k + 2][w], in[4 * k + 3][w], 0x5140);
        uint32_t t3 = __byte_perm (in[4 * k + 2][w], in[4 * k + 3][w], 0x7362);
        out[4 * w][k] = __byte_perm (t0, t2, 0x5410);
        out[4 * w + 1][k] = __byte_perm (t0, t2, 0x7632);
        out[4 * w + 2][k] = __byte_perm (t1, t3, 0x5410);
        out[4 * w + 3][k] = __byte_perm (t1, t3, 0x7632);
      }
    }
  } else {
    /* 3-byte elements: each output byte picked from its input word */
    static_assert (E == 3 && NW == 3, "element sizes are 1, 2, 3, 4 and 8");
#pragma unroll
    for (int c = 0; c < 4; c++) {
#pragma unroll
      for (int wd = 0; wd < 3; wd++) {
        uint32_t v = 0;
#pragma unroll
        for (int j = 0; j < 4; j++) {
          int ob = 4 * wd + j, r = ob / 3, sb = 3 * c + ob % 3;
          v |= ((in[r][sb / 4] >> (8 * (sb % 4))) & 0xffu) << (8 * j);
        }
        out[c][wd] = v;
      }
    }
  }
}

/* The 16-byte chunk of source row @y at element @x into shared memory at
 * @to: a copy that bypasses registers (cp.async) when all of it is inside
 * the plane, else the elements that are, through registers, zeros beyond.
 * The caller commits and waits for the copies before the barrier. */
template <int E>
__device__ __forceinline__ void
stage_chunk (const PlaneArgs & p, unsigned int x, unsigned int y, uint4 * to)
{
  constexpr int V = 16 / E;

  if (x < p.width && y < p.height && x + V <= p.width) {
    __pipeline_memcpy_async (to, p.src + (size_t) y * p.src_stride +
        (size_t) x * E, sizeof (uint4));
  } else {
    uint32_t w[4];
    load_chunk<E, 4> (p, x, y, w);
    *to = make_uint4 (w[0], w[1], w[2], w[3]);
  }
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
/// (4 for E == 3); mapping is the transpose.
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
    static_assert (K * kThreads == W::ROWS * kCols, "whole chunks a thread");
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
  constexpr int V = W::V, NW = W::WORDS, M = W::M, S = W::STAGES;
  constexpr int K = W::ROWS * kCols / kThreads;
  constexpr unsigned int TS = W::SLOTS_SWIZZLED;
  const PlaneArgs & p = fp.a;
  const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int g = (lane & 7) + 8 * (warp & 1);
  const unsigned int c = (lane >> 3) + 4 * (warp >> 1);
  const unsigned int n = fp.tiles_x * fp.tiles_y, step = fp.blocks;
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

#pragma unroll
  for (int i = 0; i < S - 1; i++) {
    issue (t0 + i * step, i);
    __pipeline_commit ();
  }
  unsigned int st = 0;
  for (unsigned int t = t0; t < n; t += step) {
    /* one group per tile, empty past the end: tile t's is S - 1 back */
    issue (t + (S - 1) * step, (st + S - 1) % S);
    __pipeline_commit ();
    __pipeline_wait_prior (S - 1);
    __syncthreads ();

    const unsigned int x0 = (t / fp.tiles_y) * W::COLS;
    const unsigned int y0 = (t % fp.tiles_y) * W::ROWS;
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
    /* stage st is refilled on the next turn */
    __syncthreads ();
    st = st + 1 == S ? 0 : st + 1;
  }
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
/// Preconditions: pointers and strides multiples of 16 bytes; transpose.
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
      const unsigned char *at = p.src + (size_t) y * p.src_stride + b;
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
    unsigned char *at = p.dst + (size_t) x * p.dst_stride + b;
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

/// thin: an element per thread, along the plane's long side: in source
/// order when the plane is at least as wide as tall (reads coalesced, each
/// destination row short) and in destination order otherwise (writes
/// coalesced). Block (tx, ty) covers elements 256 tx .. 256 tx + 255 of line
/// ty of the short side, so no thread divides a 64-bit index. For planes
/// with fewer than kThin rows or columns, where a tile would idle.
template <typename T>
__device__ __forceinline__ void
thin_block (const PlaneArgs & p, unsigned int tx, unsigned int ty)
{
  const unsigned int l = tx * kThreads + threadIdx.x;

  if (p.width >= p.height) {
    if (l < p.width)
      ct::dst_of<T> (p, l, ty) = ct::src_at<T> (p, l, ty);
  } else {
    if (l < p.height)
      ct::dst_of<T> (p, ty, l) = ct::src_at<T> (p, ty, l);
  }
}

/* The exact path: the seeds' padded 64x64 tile, any alignment, any mapping. */
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

/* The plane this block belongs to: the last whose first block is <= the
 * block's. */
__device__ __forceinline__ unsigned int
plane_index (const FrameArgs & f)
{
  unsigned int i = 0;

#pragma unroll
  for (unsigned int k = 1; k < CT_PLANES_PER_LAUNCH; k++) {
    if (k < f.n_planes && blockIdx.x >= f.first_block[k])
      i = k;
  }
  return i;
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

/* Thin block (tx, ty) of a plane of @elem-byte elements (native words:
 * the host sends only aligned planes this way). */
__device__ __forceinline__ void
thin_any (unsigned int elem, const PlaneArgs & a, unsigned int tx,
    unsigned int ty)
{
  switch (elem) {
    case 1:
      thin_block<unsigned char> (a, tx, ty);
      break;
    case 2:
      thin_block<unsigned short> (a, tx, ty);
      break;
    case 3:
      thin_block<Bytes<3>> (a, tx, ty);
      break;
    case 4:
      thin_block<unsigned int> (a, tx, ty);
      break;
    default:
      thin_block<unsigned long long> (a, tx, ty);
      break;
  }
}

/* Exact tile (tx, ty) of a plane of @elem-byte elements, in native
 * words when @words, else as bytes. */
__device__ __forceinline__ void
exact_any (unsigned int elem, bool words, const PlaneArgs & a,
    unsigned int tx, unsigned int ty, uint32_t * smem)
{
  switch (elem) {
    case 1:
      fallback_tile<unsigned char> (a, tx, ty, smem);
      break;
    case 2:
      if (words)
        fallback_tile<unsigned short> (a, tx, ty, smem);
      else
        fallback_tile<Bytes<2>> (a, tx, ty, smem);
      break;
    case 3:
      fallback_tile<Bytes<3>> (a, tx, ty, smem);
      break;
    case 4:
      if (words)
        fallback_tile<unsigned int> (a, tx, ty, smem);
      else
        fallback_tile<Bytes<4>> (a, tx, ty, smem);
      break;
    default:
      if (words)
        fallback_tile<unsigned long long> (a, tx, ty, smem);
      else
        fallback_tile<Bytes<8>> (a, tx, ty, smem);
      break;
  }
}

/// One block of the one-launch kernels: a tile (or thin block) of plane
/// @a (entry @fp's plane, or one of its batch), block @t of the plane, by
/// the entry's path.
template <bool STAGED>
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
      thin_any (fp.elem, a, tx, ty);
      break;
    default:
      exact_any (fp.elem, fp.words, a, tx, ty, smem);
      break;
  }
}

/// The one-launch kernel: block b belongs to the last plane whose first
/// block is <= b, and moves one tile (or thin block) of it by that plane's
/// path (wide_block). Two of them: the register kernel (the register
/// stage) at 2 blocks per multiprocessor, as its 256 bytes in flight per
/// thread need 128 registers, and the staged kernel (padded and swizzled
/// stages, whose tiles wait in shared memory) at 3. Both have the small,
/// thin and exact paths, so either can take any frame. Each comes again
/// with BATCH for launches with batches of planes: the plane's pointers
/// then live in registers, which made the staged kernel spill (16384x16384
/// bytes: 0.90 of a copy against 0.94), so launches without batches keep
/// reading them from the launch arguments.
template <bool STAGED, bool BATCH>
__global__ void __launch_bounds__ (kThreads, STAGED ? kStagedPerSm : 2)
k_wide (const __grid_constant__ FrameArgs f)
{
  extern __shared__ uint4 smem_raw[];
  uint32_t *smem = reinterpret_cast<uint32_t *>(smem_raw);
  const unsigned int i = plane_index (f);
  const FramePlane & fp = f.plane[i];
  unsigned int t = blockIdx.x - f.first_block[i];

  if constexpr (BATCH) {
    const PlaneArgs a = batch_plane (fp, &t);
    wide_block<STAGED> (fp, a, t, smem);
  } else {
    wide_block<STAGED> (fp, fp.a, t, smem);
  }
}

/// The thin kernel: a group of thin planes alone. The thin paths of
/// k_wide, without the rest of it: a small kernel starts sooner, which is
/// most of a thin plane's time.
__global__ void __launch_bounds__ (kThreads)
k_thin (const __grid_constant__ FrameArgs f)
{
  const unsigned int i = plane_index (f);
  const FramePlane & fp = f.plane[i];
  unsigned int t = blockIdx.x - f.first_block[i];
  const PlaneArgs a = batch_plane (fp, &t);
  thin_any (fp.elem, a, t % fp.tiles_x, t / fp.tiles_x);
}

/// The stream kernels, one per element size: one plane on the stream path
/// (host: fits () and the grouping in launch_wide keep it alone in
/// its launch), a grid of as many blocks as fit at once: 1 per
/// multiprocessor for bytes, 2 for the rest, by their shared memory. Kernels
/// of their own, with the plane at a constant index: inside k_wide, or in
/// one kernel for all sizes, the bytes' loop measured 5 to 40% slower.
template <int E>
__global__ void __launch_bounds__ (kThreads, E == 1 ? 1 : kStreamPerSm)
k_stream (const __grid_constant__ FrameArgs f)
{
  extern __shared__ uint4 smem_raw[];

  stream_tiles<E> (f.plane[0], blockIdx.x,
      reinterpret_cast<uint32_t *>(smem_raw));
}

/// The tile kernel (wide-swizzle on a single plane of 4-byte elements too
/// large to stream, or too small): wide_tile's swizzled path on 64 x 64
/// tiles, one per block, down the columns of tiles, kTilePerSm blocks per
/// multiprocessor. Measured on the H200 against the big tile's 256 x 64 at
/// 3 blocks: 8192x8192 0.97 of a copy against 0.93, 8000x6000 0.97 against
/// 0.91, 262144x64 0.96 against 0.70 (a big tile there is three quarters
/// past the plane's edge). Its own kernel: k_wide's launch bounds are 3
/// blocks.
template <int E>
__global__ void __launch_bounds__ (kThreads, kTilePerSm)
k_tile (const __grid_constant__ FrameArgs f)
{
  extern __shared__ uint4 smem_raw[];
  const FramePlane & fp = f.plane[0];

  wide_tile<E, Tile<E>, STAGE_SWIZZLE> (fp.a, blockIdx.x / fp.tiles_y,
      blockIdx.x % fp.tiles_y, reinterpret_cast<uint32_t *>(smem_raw));
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

/// The skinny kernel: a byte plane (or a batch of them) 16 to 64 elements
/// on its short side, where the big tile's 256 x 256 would leave three
/// quarters of its threads past the edge (1x64x512x512 uint8 NCHW to NHWC
/// and back, planes of 262144 x 64 and 64 x 262144: 0.50 and 0.44 of a
/// copy). Loads as wide_tile's staged path (cp.async, whole 16-byte
/// chunks, zeros past the edge); each thread then reads one micro-block,
/// transposes it in registers and stores 16 chunks. Store phase: GL lanes
/// along the row groups (consecutive chunks of a destination row), the
/// rest of the warp along the chunk columns.
template <int RG, int CC>
__global__ void __launch_bounds__ (kThreads, kStagedPerSm)
k_skinny (const __grid_constant__ FrameArgs f)
{
  using S = Skinny<RG, CC>;
  extern __shared__ uint4 smem_raw[];
  uint4 *s = smem_raw;
  const FramePlane & fp = f.plane[0];
  unsigned int t = blockIdx.x;
  const PlaneArgs p = batch_plane (fp, &t);
  const unsigned int x0 = (t % fp.tiles_x) * S::COLS;
  const unsigned int y0 = (t / fp.tiles_x) * S::ROWS;
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

using SkinnyRows = Skinny<4, 64>;
using SkinnyCols = Skinny<64, 4>;

/* What the host needs to know of a tile configuration. */
struct Geometry
{
  unsigned int rows, cols;
  size_t smem;
  unsigned int align;           /* of pointers and strides, in bytes */
};

template <typename W>
Geometry
geometry (int stage)
{
  Geometry g;

  g.rows = W::ROWS;
  g.cols = W::COLS;
  g.align = W::C == 12 ? 4 : W::C;
  if (stage == STAGE_REGISTERS || stage == STAGE_SMALL)
    g.smem = 0;
  else if (stage == STAGE_SWIZZLE || stage == STAGE_STREAM ||
      stage == STAGE_TILE)
    g.smem = (size_t) W::STAGES * W::SLOTS_SWIZZLED * W::C;
  else
    g.smem = (size_t) W::SLOTS_PADDED * W::C;
  return g;
}

/* A skinny tile: 16-byte chunks, one slot each. */
template <typename S>
Geometry
skinny_geometry ()
{
  Geometry g = { S::ROWS, S::COLS, (size_t) S::SLOTS * 16, 16 };

  return g;
}

/* The tile of element size @es in @stage (STAGE_SMALL: the small one). */
Geometry
geometry_of (unsigned int es, int stage)
{
  const bool small = stage == STAGE_SMALL;

  if (es == 3 && (stage == STAGE_PADDED || stage == STAGE_SWIZZLE)) {
    Geometry g = { kRgbTile, kRgbTile, kRgbSmem, 16 };
    return g;
  }
  /* the tile kernel: 4-byte elements only; the skinny ones: bytes only
   * (host: kPaths) */
  if (stage == STAGE_TILE)
    return geometry<Tile<4>> (stage);
  if (stage == STAGE_SKINNY_ROWS)
    return skinny_geometry<SkinnyRows> ();
  if (stage == STAGE_SKINNY_COLS)
    return skinny_geometry<SkinnyCols> ();
  /* no stream for 3-byte elements (host: stream_choice) */
  if (stage == STAGE_STREAM) {
    switch (es) {
      case 1:
        return geometry<Stream<1>> (stage);
      case 2:
        return geometry<Stream<2>> (stage);
      case 4:
        return geometry<Stream<4>> (stage);
      default:
        return geometry<Stream<8>> (stage);
    }
  }

  switch (es) {
    case 1:
      return small ? geometry<Small<1>> (stage) : geometry<Big<1>> (stage);
    case 2:
      return small ? geometry<Small<2>> (stage) : geometry<Big<2>> (stage);
    case 3:
      return small ? geometry<Small<3>> (stage) : geometry<Big<3>> (stage);
    case 4:
      return small ? geometry<Small<4>> (stage) : geometry<Big<4>> (stage);
    default:
      return small ? geometry<Small<8>> (stage) : geometry<Big<8>> (stage);
  }
}

int
size_index (unsigned int es)
{
  switch (es) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 3:
      return 2;
    case 4:
      return 3;
    default:
      return 4;
  }
}

unsigned long long
div_up (unsigned long long a, unsigned long long b)
{
  return a / b + (a % b != 0);
}

/* ---- The planner: every choice of kernel, path, tile and stage. ---- */

/* The kernels a launch can be: one per launch. */
enum Family
{
  /* thin and exact planes, and small tiles: in either k_wide (thin planes
   * alone: k_thin) */
  FAMILY_ANY = -1,
  FAMILY_REGISTERS = 0,         /* k_wide<false, *> */
  FAMILY_STAGED = 1,            /* k_wide<true, *> */
  FAMILY_STREAM = 2,            /* k_stream<E>, its plane alone */
  FAMILY_TILE = 3,              /* k_tile<4>, its plane alone */
  FAMILY_SKINNY = 4             /* k_skinny, its plane or batch alone */
};

constexpr unsigned int size_bit (unsigned int es)
{
  return 1u << es;
}

constexpr unsigned int kEverySize = size_bit (1) | size_bit (2) |
    size_bit (3) | size_bit (4) | size_bit (8);

/* The paths of the one-launch variants: the kernel family that runs one,
 * how its blocks move the plane, in which tile, and the element sizes it
 * takes. What else a path needs of a plane (alignment, shape, being alone)
 * is in fits (). */
struct PathInfo
{
  CtPath path;
  Family family;
  Way way;
  Stage stage;
  unsigned int sizes;
};

constexpr PathInfo kPaths[] = {
  { CT_PATH_WIDE, FAMILY_REGISTERS, WAY_WIDE, STAGE_REGISTERS, kEverySize },
  { CT_PATH_WIDE_PADDED, FAMILY_STAGED, WAY_WIDE, STAGE_PADDED,
      kEverySize & ~size_bit (3) },
  { CT_PATH_WIDE_SWIZZLE, FAMILY_STAGED, WAY_WIDE, STAGE_SWIZZLE,
      kEverySize & ~size_bit (3) },
  /* (3-byte elements in either staged stage: rgb_tile) */
  { CT_PATH_RGB_TILE, FAMILY_STAGED, WAY_WIDE, STAGE_SWIZZLE, size_bit (3) },
  { CT_PATH_SMALL_TILE, FAMILY_ANY, WAY_WIDE, STAGE_SMALL, kEverySize },
  { CT_PATH_STREAM, FAMILY_STREAM, WAY_WIDE, STAGE_STREAM,
      kEverySize & ~size_bit (3) },
  { CT_PATH_TILE_64, FAMILY_TILE, WAY_WIDE, STAGE_TILE, size_bit (4) },
  /* (the rows or the columns tile, by the plane's shape) */
  { CT_PATH_SKINNY, FAMILY_SKINNY, WAY_WIDE, STAGE_SKINNY_ROWS, size_bit (1) },
  { CT_PATH_THIN, FAMILY_ANY, WAY_THIN, STAGE_REGISTERS, kEverySize },
  { CT_PATH_EXACT, FAMILY_ANY, WAY_EXACT, STAGE_REGISTERS, kEverySize },
};

const PathInfo *
path_info (CtPath path)
{
  for (const PathInfo & info : kPaths)
    if (info.path == path)
      return &info;
  return nullptr;
}

/* Where auto changes path, in one place. Each number was measured with
 * bench/bench-kernels on an H200 (132 multiprocessors); docs/performance.md
 * ("What auto runs, and why") has the measurements. Tile counts are big tiles
 * (the swizzled stage's) per multiprocessor. */
struct Thresholds
{
  /* planes with fewer rows or columns take the thin path (a tile would
   * leave most of its threads idle) */
  unsigned int thin;
  /* a single plane streams from this many tiles per multiprocessor, in
   * halves (bytes; other sizes from 0) ... */
  unsigned int stream_from_halves_bytes;
  /* ... up to this many (larger planes: a tile per block) */
  unsigned int stream_to;
  /* a single 4-byte plane takes the 64x64 tile kernel unless it has from
   * this many to stream_to tiles per multiprocessor (then it streams) */
  unsigned int tile_64_unless_from;
  /* a 3-byte plane with fewer 128x128 tiles per multiprocessor than this
   * takes the register tile */
  unsigned int rgb_registers_below;
  /* a call of byte planes with fewer big tiles per multiprocessor than
   * this takes the small tile */
  unsigned int small_below;
  /* staged tiles go down the columns of tiles above this many blocks per
   * multiprocessor (k_wide's resident blocks: one wave) */
  unsigned int by_columns_above;
};

constexpr Thresholds kAuto = { 16, 3, 16, 2, 2, 1, kStagedPerSm };

/* What the planner needs to know of the device. */
struct Device
{
  size_t max_smem;              /* opt-in dynamic shared memory per block */
  size_t smem_per_sm;           /* shared memory of a multiprocessor */
  size_t smem_reserved;         /* of it, the system's per block */
  unsigned int n_sms;
};

/* The call around an entry. */
struct Call
{
  CtKernel kernel;
  CtPath force;                 /* CT_PATH_NONE: the planner chooses */
  CtMapping mapping;
  unsigned int n_planes;        /* the call's non-empty planes, in all */
  bool one_entry;               /* the entry is the call's only one */
  /* auto: the big tiles of the whole call; ~0: not counted (yet) */
  unsigned long long call_blocks;
};

/* An entry of the call: a plane, or a batch of equal planes. */
struct Entry
{
  const CtPlane *pl;
  unsigned int count;
  /* every pointer, stride and step of the entry ORed: its alignment */
  uintptr_t bits;
};

/* The planner's answer for an entry. */
struct Choice
{
  const PathInfo *info;
  Stage stage;
  unsigned int tiles_x, tiles_y;
  unsigned long long blocks;    /* per plane (stream: the grid) */
  size_t smem;
  bool words;                   /* exact: in native words */
  bool by_columns;
};

/* Whether path @path takes entry @e; if so, *@c is its geometry. */
bool
fits (CtPath path, const Entry & e, const Call & call, const Device & d,
    Choice * c)
{
  const PathInfo *info = path_info (path);
  const CtPlane *pl = e.pl;
  const unsigned int es = pl->elem_size;
  const bool thin = pl->width < kAuto.thin || pl->height < kAuto.thin;
  const bool native = e.bits % es == 0 || es == 3;

  if (info == nullptr || (info->sizes & size_bit (es)) == 0)
    return false;
  *c = Choice {};
  c->info = info;
  c->stage = info->stage;

  if (info->way == WAY_THIN) {
    /* an element per thread along the long side, 256 per block */
    if (!thin || !native)
      return false;
    const bool by_rows = pl->width >= pl->height;
    c->tiles_x = (unsigned int) div_up (by_rows ? pl->width : pl->height,
        kThreads);
    c->tiles_y = by_rows ? pl->height : pl->width;
    c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
    return true;
  }
  if (info->way == WAY_EXACT) {
    c->tiles_x = (unsigned int) div_up (pl->width, kFallbackTile);
    c->tiles_y = (unsigned int) div_up (pl->height, kFallbackTile);
    c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
    c->smem = (size_t) kFallbackTile * (kFallbackTile + 1) * es;
    c->words = e.bits % es == 0;
    return true;
  }

  /* the wide tiles: the plain transpose of planes at least kAuto.thin
   * each way */
  if (call.mapping != CT_MAPPING_TRANSPOSE || thin)
    return false;
  if (path == CT_PATH_SKINNY) {
    if (!call.one_entry)
      return false;
    if (pl->height <= (unsigned int) SkinnyRows::ROWS)
      c->stage = STAGE_SKINNY_ROWS;
    else if (pl->width <= (unsigned int) SkinnyCols::COLS)
      c->stage = STAGE_SKINNY_COLS;
    else
      return false;
  }
  /* (k_stream and k_tile take one plane, no batch) */
  if ((path == CT_PATH_STREAM || path == CT_PATH_TILE_64) &&
      (call.n_planes != 1 || e.count != 1))
    return false;

  const Geometry g = geometry_of (es, c->stage);
  if (e.bits % g.align != 0 || g.smem > d.max_smem)
    return false;
  c->tiles_x = (unsigned int) div_up (pl->width, g.cols);
  c->tiles_y = (unsigned int) div_up (pl->height, g.rows);
  c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
  c->smem = g.smem;
  if (c->blocks > 0x7fffffffull)
    return false;
  if (path == CT_PATH_STREAM) {
    /* a grid of as many blocks as the device holds at once, or fewer
     * for fewer tiles */
    unsigned long long per_sm = d.smem_per_sm / (g.smem + d.smem_reserved);
    if (per_sm > kStreamPerSm)
      per_sm = kStreamPerSm;
    if (per_sm < 1)
      per_sm = 1;
    if (c->blocks > per_sm * d.n_sms)
      c->blocks = per_sm * d.n_sms;
  }
  /* the blocks in flight then write whole destination rows and read a
   * few hundred bytes of each source row (docs/performance.md) */
  c->by_columns = info->family == FAMILY_STAGED &&
      c->blocks > (unsigned long long) kAuto.by_columns_above * d.n_sms;
  return true;
}

/* The path of a named wide variant: its own tile, where the plane allows
 * it (3-byte elements: the staged variants' rgb tile). */
CtPath
own_path (CtKernel kernel, unsigned int es)
{
  switch (kernel) {
    case CT_KERNEL_WIDE_PADDED:
      return es == 3 ? CT_PATH_RGB_TILE : CT_PATH_WIDE_PADDED;
    case CT_KERNEL_WIDE_SWIZZLE:
      return es == 3 ? CT_PATH_RGB_TILE : CT_PATH_WIDE_SWIZZLE;
    default:
      return CT_PATH_WIDE;
  }
}

/* auto: the thin path for thin planes; a skinny tile for a byte plane or
 * batch alone in its call with a short side of 16 to 64; on a single
 * plane the swizzled big tile, on a frame the register one (single
 * planes: 2 to 5% ahead; frames of several: as fast or faster, NV12 15 to
 * 20%); a single plane may stream or take the 64x64 tile kernel instead,
 * a 3-byte one the register tile, and a call of small byte planes the
 * small tile, by kAuto; else the exact tile. */
Choice
plan_auto (const Entry & e, const Call & call, const Device & d)
{
  const CtPlane *pl = e.pl;
  const unsigned int es = pl->elem_size;
  const unsigned long long n_sms = d.n_sms;
  Choice c, big;

  if (fits (CT_PATH_THIN, e, call, d, &c) ||
      fits (CT_PATH_SKINNY, e, call, d, &c))
    return c;

  const CtPath big_path = call.n_planes > 1 ? CT_PATH_WIDE :
      own_path (CT_KERNEL_WIDE_SWIZZLE, es);
  const bool big_ok = fits (big_path, e, call, d, &big);

  if (big_ok && big_path == CT_PATH_WIDE_SWIZZLE) {
    const bool stream_4 = big.blocks >= kAuto.tile_64_unless_from * n_sms &&
        big.blocks <= kAuto.stream_to * n_sms &&
        pl->width >= (unsigned int) Stream<4>::COLS &&
        pl->height >= (unsigned int) Stream<4>::ROWS;
    if (es == 4 && !stream_4 && fits (CT_PATH_TILE_64, e, call, d, &c))
      return c;
    const unsigned long long from = es == 1 ?
        kAuto.stream_from_halves_bytes * n_sms / 2 : 0;
    if (big.blocks >= from && big.blocks <= kAuto.stream_to * n_sms &&
        fits (CT_PATH_STREAM, e, call, d, &c))
      return c;
  }
  if (big_ok && big_path == CT_PATH_RGB_TILE &&
      big.blocks < kAuto.rgb_registers_below * n_sms &&
      fits (CT_PATH_WIDE, e, call, d, &c))
    return c;

  /* beside a big tile of another size, small tiles leave that one to
   * finish last: only calls of byte planes alone */
  const bool want_small = es == 1 ?
      call.call_blocks < kAuto.small_below * n_sms : !big_ok;
  if (big_ok && !want_small)
    return big;
  if (want_small && fits (CT_PATH_SMALL_TILE, e, call, d, &c))
    return c;
  if (big_ok)
    return big;
  fits (CT_PATH_EXACT, e, call, d, &c);
  return c;
}

/* The planner: the path entry @e of @call takes, or CT_ERROR_UNSUPPORTED_
 * KERNEL for a forced path that cannot take it. */
CtResult
plan (const Entry & e, const Call & call, const Device & d, Choice * c)
{
  if (call.force != CT_PATH_NONE)
    return fits (call.force, e, call, d, c) ? CT_OK :
        CT_ERROR_UNSUPPORTED_KERNEL;
  if (call.kernel == CT_KERNEL_AUTO) {
    *c = plan_auto (e, call, d);
    return CT_OK;
  }
  if (!fits (CT_PATH_THIN, e, call, d, c) &&
      !fits (own_path (call.kernel, e.pl->elem_size), e, call, d, c))
    fits (CT_PATH_EXACT, e, call, d, c);
  return CT_OK;
}

/* Per device (attributes of the device, whatever the context): the opt-in
 * shared-memory limit, the multiprocessors and their shared memory. */
std::atomic<int> optin_limit[kMaxDevices];
std::atomic<int> sm_count[kMaxDevices];
std::atomic<int> sm_smem[kMaxDevices];
std::atomic<int> reserved_smem[kMaxDevices];

/* The dynamic shared memory a kernel may take above 48 KB is an attribute
 * of the kernel in each CUDA context (each loads its own copy of the
 * module), and a launch asking for more than it allows fails. So it is
 * only ever raised, under one lock, to what a launch needs, after reading
 * it back from the current context: concurrent calls never lower it under
 * each other, and a context new to the process starts from its own value.
 * Each thread remembers, per context (by its id, unique for the life of
 * the process) and kernel slot, a value the attribute has reached, so a
 * launch that needs no more takes neither the lock nor the driver. Slots
 * (launch_kernel): the one-launch kernels by family, the stream kernels
 * from FAMILY_STREAM by size index, the tile kernel at FAMILY_STREAM + 5,
 * the skinny ones at + 6 and + 7, the one-launch kernels for batches at
 * + 8 + family. */
constexpr int kSmemSlots = FAMILY_STREAM + 10;
constexpr int kKnownContexts = 4;

struct KnownContext
{
  unsigned long long id;        /* 0: unused */
  int allowed[kSmemSlots];
};

thread_local KnownContext known_contexts[kKnownContexts];
thread_local unsigned int known_next;
std::mutex smem_lock;

typedef CUresult (*CtxGetIdFn) (CUcontext, unsigned long long *);

/* The current context's id, or 0 when the driver cannot tell (nothing is
 * remembered then). */
unsigned long long
current_context_id ()
{
  static const CtxGetIdFn get_id = [] {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    /* cuCtxGetId came with CUDA 12.0 */
    if (cudaGetDriverEntryPointByVersion ("cuCtxGetId", &fn, 12000,
            cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void) cudaGetLastError ();
      fn = nullptr;
    }
    return reinterpret_cast<CtxGetIdFn> (fn);
  } ();
  unsigned long long id = 0;

  if (get_id == nullptr || get_id (nullptr, &id) != CUDA_SUCCESS)
    return 0;
  return id;
}

/* Lets @kernel (slot @slot) take @smem bytes of dynamic shared memory in
 * the current context. */
CtResult
allow_smem (void (*kernel) (FrameArgs), int slot, size_t smem)
{
  const unsigned long long id = current_context_id ();
  KnownContext *known = nullptr;
  int now;

  for (int i = 0; id != 0 && i < kKnownContexts; i++)
    if (known_contexts[i].id == id)
      known = &known_contexts[i];
  if (known != nullptr && known->allowed[slot] >= (int) smem)
    return CT_OK;
  {
    std::lock_guard<std::mutex> hold (smem_lock);
    cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes (&attr, (const void *) kernel);
    if (err != cudaSuccess)
      return (CtResult) err;
    now = attr.maxDynamicSharedSizeBytes;
    if (now < (int) smem) {
      err = cudaFuncSetAttribute ((const void *) kernel,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
      if (err != cudaSuccess)
        return (CtResult) err;
      now = (int) smem;
    }
  }
  if (id != 0 && known == nullptr) {
    known = &known_contexts[known_next++ % kKnownContexts];
    *known = KnownContext {};
    known->id = id;
  }
  if (known != nullptr)
    known->allowed[slot] = now;
  return CT_OK;
}

/* The kernel of a launch of @family whose first plane is @fp (a thin
 * group: k_thin; thin and exact planes alone: the staged k_wide, the
 * smaller of the two), and in *@slot its shared-memory slot. */
void (*launch_kernel (int family, const FramePlane & fp, bool thin_only,
        bool batch, int *slot)) (FrameArgs)
{
  const int k = family == FAMILY_ANY ? FAMILY_STAGED : family;
  const int size = size_index (fp.elem);

  switch (thin_only ? -2 : k) {
    case -2:
      *slot = FAMILY_REGISTERS;         /* (no shared memory) */
      return k_thin;
    case FAMILY_STREAM:
      *slot = FAMILY_STREAM + size;
      switch (fp.elem) {
        case 1:
          return k_stream<1>;
        case 2:
          return k_stream<2>;
        case 4:
          return k_stream<4>;
        case 8:
          return k_stream<8>;
        default:
          return nullptr;               /* (kPaths: no 3-byte stream) */
      }
    case FAMILY_TILE:
      *slot = FAMILY_STREAM + 5;
      return fp.elem == 4 ? k_tile<4> : nullptr;   /* (kPaths: 4 only) */
    case FAMILY_SKINNY:
      *slot = FAMILY_STREAM + 6 + (fp.stage != STAGE_SKINNY_ROWS);
      return fp.stage == STAGE_SKINNY_ROWS ? k_skinny<4, 64> :
          k_skinny<64, 4>;
    case FAMILY_STAGED:
      *slot = batch ? FAMILY_STREAM + 8 + k : k;
      return batch ? k_wide<true, true> : k_wide<true, false>;
    default:
      *slot = batch ? FAMILY_STREAM + 8 + k : k;
      return batch ? k_wide<false, true> : k_wide<false, false>;
  }
}

CtResult
launch_group (const FrameArgs & f, unsigned int blocks, size_t smem,
    int family, bool thin_only, cudaStream_t s)
{
  bool batch = false;
  int slot = 0;

  if (blocks == 0)
    return CT_OK;
  for (unsigned int i = 0; i < f.n_planes; i++)
    batch = batch || f.plane[i].count > 1;
  void (*kernel) (FrameArgs) = launch_kernel (family, f.plane[0], thin_only,
      batch, &slot);
  if (kernel == nullptr)
    return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
  if (smem > 48 * 1024) {
    CtResult res = allow_smem (kernel, slot, smem);
    if (res != CT_OK)
      return res;
  }
  kernel<<<blocks, kThreads, smem, s>>> (f);
  return (CtResult) cudaGetLastError ();
}

/* A device attribute, cached per device. */
CtResult
cached_attribute (std::atomic<int> *cache, cudaDeviceAttr attr, int device,
    int *value)
{
  bool cached = device >= 0 && device < kMaxDevices;
  int v = cached ? cache[device].load () : 0;

  if (v == 0) {
    cudaError_t err = cudaDeviceGetAttribute (&v, attr, device);
    if (err != cudaSuccess)
      return (CtResult) err;
    if (cached)
      cache[device].store (v);
  }
  *value = v;
  return CT_OK;
}

}  // namespace

namespace {

/* What the alignment of a batch's later planes adds to its first's. */
uintptr_t
step_bits (const CtPlaneBatch & b)
{
  return b.count > 1 ? (uintptr_t) (b.src_step | b.dst_step) : 0;
}

Entry
entry_of (const CtPlaneBatch & b)
{
  Entry e;

  e.pl = &b.plane;
  e.count = b.count;
  e.bits = (uintptr_t) b.plane.src | (uintptr_t) b.plane.dst |
      (uintptr_t) b.plane.src_stride | (uintptr_t) b.plane.dst_stride |
      step_bits (b);
  return e;
}

bool
empty (const CtPlaneBatch & b)
{
  return b.plane.width == 0 || b.plane.height == 0 || b.count == 0;
}

CtResult
device_now (Device * d)
{
  int device = 0, limit = 0, n_sms = 0, per_sm = 0, reserved = 0;
  CtResult res = (CtResult) cudaGetDevice (&device);

  if (res == CT_OK)
    res = cached_attribute (optin_limit,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, device, &limit);
  if (res == CT_OK)
    res = cached_attribute (sm_count, cudaDevAttrMultiProcessorCount, device,
        &n_sms);
  if (res == CT_OK)
    res = cached_attribute (sm_smem,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, device, &per_sm);
  /* (a device that reserves none is asked again each call: 0 is not cached) */
  if (res == CT_OK)
    res = cached_attribute (reserved_smem,
        cudaDevAttrReservedSharedMemoryPerBlock, device, &reserved);
  *d = Device { (size_t) limit, (size_t) per_sm, (size_t) reserved,
    (unsigned int) n_sms };
  return res;
}

/* The planner's choice for every entry of a call (@get (i) is entry i as a
 * batch), in @choices, and in *@ran the path of the entry with the most
 * bytes. Nothing runs: a forced path that cannot take an entry fails here. */
template <typename Get>
CtResult
plan_call (unsigned int n, Get get, CtKernel kernel, CtPath force,
    CtMapping mapping, const Device & d, Choice * choices, CtPath * ran)
{
  Call call = { kernel, force, mapping, 0, false, ~0ull };
  unsigned long long live = 0;
  unsigned int entries = 0;
  double most = -1;

  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (!empty (b)) {
      live += b.count;
      entries++;
    }
  }
  call.n_planes = live > UINT_MAX ? UINT_MAX : (unsigned int) live;
  call.one_entry = entries == 1;

  /* auto's choice of tile size looks at the whole call: the tiles its
   * planes would make as big tiles; a call with other element sizes keeps
   * the big tiles */
  if (kernel == CT_KERNEL_AUTO && force == CT_PATH_NONE) {
    unsigned long long call_blocks = 0;
    bool other_sizes = false;
    for (unsigned int i = 0; i < n; i++) {
      const CtPlaneBatch b = get (i);
      Choice c;
      if (empty (b))
        continue;
      (void) plan (entry_of (b), call, d, &c);
      call_blocks += (unsigned long long) c.tiles_x * c.tiles_y * b.count;
      other_sizes = other_sizes || b.plane.elem_size != 1;
    }
    if (!other_sizes)
      call.call_blocks = call_blocks;
  }

  *ran = CT_PATH_NONE;
  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (empty (b))
      continue;
    CtResult res = plan (entry_of (b), call, d, &choices[i]);
    if (res != CT_OK)
      return res;
    const double bytes = (double) b.plane.width * b.plane.height *
        b.plane.elem_size * b.count;
    if (bytes > most) {
      most = bytes;
      *ran = choices[i].info->path;
    }
  }
  return CT_OK;
}

/* ct_launch_wide and ct_launch_batches: @get (i) is entry i as a batch.
 * Planned first (so a refused call runs nothing), then launched in
 * groups: a launch holds up to CT_PLANES_PER_LAUNCH entries of one
 * kernel family, and at most the grid's limit of blocks. */
template <typename Get>
CtResult
launch_wide (unsigned int n, Get get, CtKernel kernel, CtPath force,
    CtMapping mapping, cudaStream_t stream, CtPath * ran)
{
  /* grid x is limited to 2^31 - 1 blocks */
  const unsigned long long max_blocks = 0x7fffffffull;
  constexpr unsigned int kOnStack = 16;
  Choice on_stack[kOnStack];
  Choice *choices = on_stack;
  CtPath main_path = CT_PATH_NONE;
  Device d;
  CtResult res = device_now (&d);

  if (res != CT_OK)
    return res;
  if (force != CT_PATH_NONE && path_info (force) == nullptr)
    return CT_ERROR_UNSUPPORTED_KERNEL;
  if (n > kOnStack) {
    choices = new (std::nothrow) Choice[n];
    if (choices == nullptr)
      return (CtResult) cudaErrorMemoryAllocation;
  }
  res = plan_call (n, get, kernel, force, mapping, d, choices, &main_path);
  for (unsigned int i = 0; res == CT_OK && i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (!empty (b) && choices[i].blocks > max_blocks)
      res = CT_ERROR_INVALID_ARGUMENT;
  }

  FrameArgs f;
  unsigned long long blocks = 0;
  size_t smem = 0;
  /* the kernel of the group being filled: a plane that needs another one
   * starts a new group */
  int family = FAMILY_ANY;
  bool thin_only = true;
  f.n_planes = 0;
  for (unsigned int i = 0; res == CT_OK && i < n; i++) {
    const CtPlaneBatch b = get (i);
    const CtPlane *pl = &b.plane;
    if (empty (b))
      continue;
    const Choice & c = choices[i];
    const int c_family = c.info->family;
    const bool c_alone = c_family >= FAMILY_STREAM;
    /* a batch takes as many launches as the grid's limit needs */
    for (unsigned int done = 0; res == CT_OK && done < b.count;) {
      const bool other_kernel = f.n_planes > 0 && (c_alone ||
          family >= FAMILY_STREAM || (c_family != FAMILY_ANY &&
              family != FAMILY_ANY && c_family != family));
      if (f.n_planes == CT_PLANES_PER_LAUNCH ||
          blocks + c.blocks > max_blocks || other_kernel) {
        res = launch_group (f, (unsigned int) blocks, smem, family,
            thin_only, stream);
        f.n_planes = 0;
        blocks = 0;
        smem = 0;
        family = FAMILY_ANY;
        thin_only = true;
        if (res != CT_OK)
          break;
      }
      if (c_family != FAMILY_ANY)
        family = c_family;
      thin_only = thin_only && c.info->way == WAY_THIN;

      const unsigned long long room = (max_blocks - blocks) / c.blocks;
      const unsigned int take = b.count - done < room ?
          b.count - done : (unsigned int) room;
      FramePlane & fp = f.plane[f.n_planes++];
      fp.a.src = static_cast<const unsigned char *>(pl->src) +
          (size_t) done * b.src_step;
      fp.a.dst = static_cast<unsigned char *>(pl->dst) +
          (size_t) done * b.dst_step;
      fp.a.src_stride = pl->src_stride;
      fp.a.dst_stride = pl->dst_stride;
      fp.a.width = pl->width;
      fp.a.height = pl->height;
      fp.a.mapping = (int) mapping;
      fp.tiles_x = c.tiles_x;
      fp.tiles_y = c.tiles_y;
      f.first_block[f.n_planes - 1] = (unsigned int) blocks;
      fp.blocks = (unsigned int) c.blocks;
      fp.way = (unsigned char) c.info->way;
      fp.elem = (unsigned char) pl->elem_size;
      fp.stage = (unsigned char) c.stage;
      fp.words = c.words;
      fp.by_columns = c.by_columns;
      fp.count = take;
      fp.src_step = b.src_step;
      fp.dst_step = b.dst_step;
      blocks += c.blocks * take;
      done += take;
      if (c.smem > smem)
        smem = c.smem;
    }
  }
  if (res == CT_OK)
    res = launch_group (f, (unsigned int) blocks, smem, family, thin_only,
        stream);
  if (choices != on_stack)
    delete[] choices;
  if (res == CT_OK && ran != nullptr)
    *ran = main_path;
  return res;
}

}  // namespace

CtResult
ct_launch_wide (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream)
{
  return launch_wide (n_planes, [planes] (unsigned int i) {
        CtPlaneBatch b = { planes[i], 1, 0, 0 };
        return b;
      }, kernel, CT_PATH_NONE, mapping, stream, nullptr);
}

CtResult
ct_launch_batches (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtPath force, CtMapping mapping, cudaStream_t stream,
    CtPath * ran)
{
  return launch_wide (n_batches, [batches] (unsigned int i) {
        return batches[i];
      }, kernel, force, mapping, stream, ran);
}
