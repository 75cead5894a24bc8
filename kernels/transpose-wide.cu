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
 * wide-swizzle streams a single plane of a few waves instead (stream_tiles,
 * k_stream): a grid of as many blocks as fit, each moving tiles in turn with
 * the next ones' copies in flight. Other single 4-byte planes take a 64x64
 * tile at 8 blocks per multiprocessor (k_tile), and a byte plane (or batch)
 * alone in its call with a short side of 16 to 64 a tile spanning that side
 * (k_skinny, under auto and the staged variants).
 *
 * An entry of the launch arguments is a plane or a batch of equal planes at
 * fixed steps (ct_transpose_batches): a block divides to find its plane.
 *
 * Every plane of the call is a range of blocks of one 1-D grid; a block
 * finds its plane in the launch arguments and switches on its path, so each
 * plane can take its own way (auto: ct_kernel_auto_for and choose_path). Planes
 * narrower or shorter than kThin take the thin path (an element per thread,
 * coalesced on the long side). Planes the wide path cannot take (misaligned,
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
/* Planes with fewer rows or columns than this take the thin path: a wide
 * tile would leave most of its threads idle. */
constexpr unsigned int kThin = 16;
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
  N_STAGES
};

/* A plane's way through k_wide. The wide paths are WIDE + size index *
 * (N_STAGES + 1) + stage, stage N_STAGES being the small tile. */
enum Path
{
  PATH_WIDE = 0,
  PATH_WIDE_END = PATH_WIDE + 5 * (N_STAGES + 1),
  /* an element per thread, native words */
  PATH_THIN_1 = PATH_WIDE_END, PATH_THIN_2, PATH_THIN_3, PATH_THIN_4,
  PATH_THIN_8,
  /* the exact 64x64 tile, native words or bytes */
  PATH_WORD_1, PATH_WORD_2, PATH_WORD_4, PATH_WORD_8,
  PATH_BYTES_2, PATH_BYTES_3, PATH_BYTES_4, PATH_BYTES_8,
};

struct FramePlane
{
  PlaneArgs a;
  unsigned int tiles_x, tiles_y;
  unsigned int blocks;          /* the plane's blocks (stream: its grid) */
  int path;
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

/* A big tile in one of the stages, or (stage N_STAGES) a small tile. The
 * register kernel has the register stage, the staged kernel the padded and
 * swizzled ones (host: family_of sends each plane to the kernel that has
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
  if (stage == N_STAGES)
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

/* Thin block (tx, ty) of a plane on thin path @path. */
__device__ __forceinline__ void
thin_any (int path, const PlaneArgs & a, unsigned int tx, unsigned int ty)
{
  switch (path) {
    case PATH_THIN_1:
      thin_block<unsigned char> (a, tx, ty);
      break;
    case PATH_THIN_2:
      thin_block<unsigned short> (a, tx, ty);
      break;
    case PATH_THIN_3:
      thin_block<Bytes<3>> (a, tx, ty);
      break;
    case PATH_THIN_4:
      thin_block<unsigned int> (a, tx, ty);
      break;
    case PATH_THIN_8:
      thin_block<unsigned long long> (a, tx, ty);
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
  const int path = fp.path;

  if (path < PATH_WIDE_END) {
    const int stage = (path - PATH_WIDE) % (N_STAGES + 1);
    switch ((path - PATH_WIDE) / (N_STAGES + 1)) {
      case 0:
        wide_any<1, STAGED> (a, stage, tx, ty, smem);
        break;
      case 1:
        wide_any<2, STAGED> (a, stage, tx, ty, smem);
        break;
      case 2:
        wide_any<3, STAGED> (a, stage, tx, ty, smem);
        break;
      case 3:
        wide_any<4, STAGED> (a, stage, tx, ty, smem);
        break;
      default:
        wide_any<8, STAGED> (a, stage, tx, ty, smem);
        break;
    }
    return;
  }

  if (path < PATH_WORD_1) {
    thin_any (fp.path, a, tx, ty);
    return;
  }
  switch (path) {
    case PATH_WORD_1:
      fallback_tile<unsigned char> (a, tx, ty, smem);
      break;
    case PATH_WORD_2:
      fallback_tile<unsigned short> (a, tx, ty, smem);
      break;
    case PATH_WORD_4:
      fallback_tile<unsigned int> (a, tx, ty, smem);
      break;
    case PATH_WORD_8:
      fallback_tile<unsigned long long> (a, tx, ty, smem);
      break;
    case PATH_BYTES_2:
      fallback_tile<Bytes<2>> (a, tx, ty, smem);
      break;
    case PATH_BYTES_3:
      fallback_tile<Bytes<3>> (a, tx, ty, smem);
      break;
    case PATH_BYTES_4:
      fallback_tile<Bytes<4>> (a, tx, ty, smem);
      break;
    case PATH_BYTES_8:
      fallback_tile<Bytes<8>> (a, tx, ty, smem);
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
  thin_any (fp.path, a, t % fp.tiles_x, t / fp.tiles_x);
}

/// The stream kernels, one per element size: one plane on the stream path
/// (host: want_stream and the grouping in ct_launch_wide keep it alone in
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
  if (stage == STAGE_REGISTERS || stage == N_STAGES)
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

/* The big (or, with stage N_STAGES, small) tile of element size @es. */
Geometry
geometry_of (unsigned int es, int stage)
{
  const bool small = stage == N_STAGES;

  if (es == 3 && (stage == STAGE_PADDED || stage == STAGE_SWIZZLE)) {
    Geometry g = { kRgbTile, kRgbTile, kRgbSmem, 16 };
    return g;
  }
  /* the tile kernel: 4-byte elements only; the skinny ones: bytes only
   * (host: choose_path) */
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

/* Which k_wide a plane needs: the one with its wide stage, or either. */
enum Family
{
  FAMILY_ANY = -1,
  FAMILY_REGISTERS = 0,
  FAMILY_STAGED = 1,
  /* k_stream: the stream path only, alone in its launch */
  FAMILY_STREAM = 2,
  /* k_tile: the tile path only, alone in its launch */
  FAMILY_TILE = 3,
  /* k_skinny: one of the skinny paths, alone in its launch */
  FAMILY_SKINNY = 4
};

/* A family whose kernel takes one plane alone. */
bool
alone (int family)
{
  return family == FAMILY_STREAM || family == FAMILY_TILE ||
      family == FAMILY_SKINNY;
}

struct Choice
{
  int path;
  unsigned int tiles_x, tiles_y;
  unsigned long long blocks;
  size_t smem;
  int family;
};

int
family_of (int path)
{
  if (path >= PATH_WIDE_END)
    return FAMILY_ANY;
  switch ((path - PATH_WIDE) % (N_STAGES + 1)) {
    case STAGE_REGISTERS:
      return FAMILY_REGISTERS;
    case STAGE_PADDED:
    case STAGE_SWIZZLE:
      return FAMILY_STAGED;
    case STAGE_STREAM:
      return FAMILY_STREAM;
    case STAGE_TILE:
      return FAMILY_TILE;
    case STAGE_SKINNY_ROWS:
    case STAGE_SKINNY_COLS:
      return FAMILY_SKINNY;
    default:
      return FAMILY_ANY;
  }
}

/* The stage a variant asks for (auto: ct_kernel_auto_for). */
int
stage_of (CtKernel kernel, unsigned int es, unsigned int n_planes)
{
  if (kernel == CT_KERNEL_AUTO)
    kernel = ct_kernel_auto_for (es, n_planes);
  switch (kernel) {
    case CT_KERNEL_WIDE_PADDED:
      return STAGE_PADDED;
    case CT_KERNEL_WIDE_SWIZZLE:
      return STAGE_SWIZZLE;
    default:
      return STAGE_REGISTERS;
  }
}

Choice
tile_choice (const CtPlane * pl, int path, const Geometry & g)
{
  Choice c;

  c.path = path;
  c.tiles_x = (unsigned int) div_up (pl->width, g.cols);
  c.tiles_y = (unsigned int) div_up (pl->height, g.rows);
  c.blocks = (unsigned long long) c.tiles_x * c.tiles_y;
  c.smem = g.smem;
  c.family = family_of (path);
  return c;
}

/* What choose_path needs to know of the device. */
struct Device
{
  size_t max_smem;              /* opt-in dynamic shared memory per block */
  size_t smem_per_sm;           /* shared memory of a multiprocessor */
  size_t smem_reserved;         /* of it, the system's per block */
  unsigned int n_sms;
};

/* wide-swizzle streams a single plane of up to 16 of its tiles per
 * multiprocessor (bytes: from 1.5), and moves larger planes and the planes
 * of frames a tile per block. Measured on the H200 (docs/kernels.md):
 * streaming is as fast or faster on every single plane up to there (from
 * 0.88 to 0.97 of a copy on 8000x6000 bytes, 0.80 to 0.94 on 3840x2160
 * 2-byte elements); on larger planes a tile per block keeps ahead (8-byte
 * 8192x8192: 0.96 against 0.94), bytes under 1.5 tiles per multiprocessor
 * stream slower (3840x2160: 0.69 against 0.76), and a frame in one launch
 * needs one kernel for all its planes. */
bool
want_stream (unsigned int es, unsigned long long swizzle_tiles,
    unsigned int n_sms, unsigned int n_planes)
{
  const unsigned long long from = es == 1 ? 3ull * n_sms / 2 : 0;

  return es != 3 && n_planes == 1 && swizzle_tiles >= from &&
      swizzle_tiles <= 16ull * n_sms;
}

/* The stream path of a plane: its tiles, in a grid of as many blocks as
 * the device holds at once, or fewer for fewer tiles. */
Choice
stream_choice (const CtPlane * pl, int wide_base, const Device & d)
{
  const Geometry g = geometry_of (pl->elem_size, STAGE_STREAM);
  Choice c = tile_choice (pl, wide_base + STAGE_STREAM, g);
  unsigned long long per_sm = d.smem_per_sm / (g.smem + d.smem_reserved);

  if (per_sm > kStreamPerSm)
    per_sm = kStreamPerSm;
  if (per_sm < 1)
    per_sm = 1;
  if (c.blocks > per_sm * d.n_sms)
    c.blocks = per_sm * d.n_sms;
  return c;
}

/* The thin path for thin planes (@step_bits: a batch's steps between
 * planes, which every alignment counts too; 0 for a single plane;
 * @only_entry: the plane or batch is the call's only one); a skinny tile
 * for byte planes with a short side of 16 to 64; the big wide tile when the plane allows
 * it and the device has the shared memory (wide-swizzle on planes of a few
 * waves: the stream path); under auto, the small tile for
 * byte planes too small to give every multiprocessor a big tile, and for
 * planes aligned for the small tile only; else the exact tile in native
 * words or bytes. */
Choice
choose_path (const CtPlane * pl, uintptr_t step_bits, CtMapping mapping,
    CtKernel kernel, const Device & d, unsigned int n_planes,
    bool only_entry, unsigned long long call_blocks)
{
  const size_t max_smem = d.max_smem;
  const unsigned int n_sms = d.n_sms;
  const uintptr_t bits = (uintptr_t) pl->src | (uintptr_t) pl->dst |
      (uintptr_t) pl->src_stride | (uintptr_t) pl->dst_stride | step_bits;
  const unsigned int es = pl->elem_size;
  const bool native = bits % es == 0 || es == 3;
  const int stage = stage_of (kernel, es, n_planes);
  const int wide_base = PATH_WIDE + (N_STAGES + 1) * size_index (es);
  Choice c;

  if (native && (pl->width < kThin || pl->height < kThin)) {
    c.path = PATH_THIN_1 + size_index (es);
    const bool by_rows = pl->width >= pl->height;
    c.tiles_x = (unsigned int) div_up (by_rows ? pl->width : pl->height,
        kThreads);
    c.tiles_y = by_rows ? pl->height : pl->width;
    c.blocks = (unsigned long long) c.tiles_x * c.tiles_y;
    c.smem = 0;
    c.family = FAMILY_ANY;
    return c;
  }

  if (mapping == CT_MAPPING_TRANSPOSE) {
    /* a byte plane or batch alone in its call with a short side of 16 to
     * 64: all of that side in one skinny tile (staged variants and auto) */
    if (es == 1 && only_entry && bits % 16 == 0 &&
        (kernel == CT_KERNEL_AUTO || stage != STAGE_REGISTERS) &&
        (pl->height <= (unsigned int) SkinnyRows::ROWS ||
            pl->width <= (unsigned int) SkinnyCols::COLS)) {
      const int st = pl->height <= (unsigned int) SkinnyRows::ROWS ?
          STAGE_SKINNY_ROWS : STAGE_SKINNY_COLS;
      const Geometry sg = geometry_of (es, st);
      const Choice sc = tile_choice (pl, wide_base + st, sg);
      if (sg.smem <= max_smem && sc.blocks <= 0x7fffffffull)
        return sc;
    }

    const Geometry big = geometry_of (es, stage);
    const Geometry small = geometry_of (es, N_STAGES);
    const bool big_ok = bits % big.align == 0 && big.smem <= max_smem;
    Choice bc = tile_choice (pl, wide_base + stage, big);

    /* a single plane of 4-byte elements takes the tile kernel, unless it
     * has 2 to 16 big tiles per multiprocessor and a stream tile fits in
     * it: measured on the H200, streaming keeps ahead there (3840x2160:
     * 0.99 of a copy against 0.96), the tile kernel everywhere else
     * (1920x1080: 0.93 against 0.90, 8192x8192 0.97 against 0.93) */
    if (big_ok && stage == STAGE_SWIZZLE && es == 4 && n_planes == 1 &&
        !(bc.blocks >= 2ull * n_sms && bc.blocks <= 16ull * n_sms &&
            pl->width >= (unsigned int) Stream<4>::COLS &&
            pl->height >= (unsigned int) Stream<4>::ROWS)) {
      const Geometry tg = geometry_of (es, STAGE_TILE);
      const Choice tc = tile_choice (pl, wide_base + STAGE_TILE, tg);
      if (tg.smem <= max_smem && tc.blocks <= 0x7fffffffull)
        return tc;
    }
    if (big_ok && stage == STAGE_SWIZZLE &&
        want_stream (es, bc.blocks, n_sms, n_planes)) {
      const Choice sc = stream_choice (pl, wide_base, d);
      if (geometry_of (es, STAGE_STREAM).smem <= max_smem &&
          (unsigned long long) sc.tiles_x * sc.tiles_y <= 0x7fffffffull)
        return sc;
    }

    /* measured: the small tile wins only for bytes, only while the big
     * tiles of the whole call leave multiprocessors idle, and only when
     * every plane of the call is bytes (beside a big tile of another
     * plane, small tiles leave that one to finish last) */
    const bool want_small = kernel == CT_KERNEL_AUTO &&
        (es == 1 ? call_blocks < n_sms : !big_ok);

    /* the 3-byte staged tile is 128 x 128: below two tiles per
     * multiprocessor the register path's 256 x 64 tile does better
     * (1920x1080, 135 tiles: 0.85 of a copy against 0.79) */
    if (kernel == CT_KERNEL_AUTO && es == 3 && big_ok &&
        bc.blocks < 2ull * n_sms && stage != STAGE_REGISTERS) {
      const Geometry reg = geometry_of (es, STAGE_REGISTERS);
      if (bits % reg.align == 0)
        return tile_choice (pl, wide_base + STAGE_REGISTERS, reg);
    }
    if (big_ok && !want_small)
      return bc;
    if (want_small && bits % small.align == 0)
      return tile_choice (pl, wide_base + N_STAGES, small);
    if (big_ok)
      return bc;
  }

  c.tiles_x = (unsigned int) div_up (pl->width, kFallbackTile);
  c.tiles_y = (unsigned int) div_up (pl->height, kFallbackTile);
  c.blocks = (unsigned long long) c.tiles_x * c.tiles_y;
  c.smem = (size_t) kFallbackTile * (kFallbackTile + 1) * es;
  c.family = FAMILY_ANY;
  switch (es) {
    case 1:
      c.path = PATH_WORD_1;
      break;
    case 3:
      c.path = PATH_BYTES_3;
      break;
    case 2:
      c.path = bits % 2 == 0 ? PATH_WORD_2 : PATH_BYTES_2;
      break;
    case 4:
      c.path = bits % 4 == 0 ? PATH_WORD_4 : PATH_BYTES_4;
      break;
    default:
      c.path = bits % 8 == 0 ? PATH_WORD_8 : PATH_BYTES_8;
      break;
  }
  return c;
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
 * launch that needs no more takes neither the lock nor the driver. Slots:
 * the one-launch kernels by family, the stream kernels from FAMILY_STREAM,
 * the tile kernels from FAMILY_STREAM + 5, by size index, the skinny ones
 * at FAMILY_STREAM + 10 and 11, the one-launch kernels for batches at
 * FAMILY_STREAM + 12 + family. */
constexpr int kSmemSlots = FAMILY_STREAM + 14;
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

CtResult
launch_group (const FrameArgs & f, unsigned int blocks, size_t smem,
    int family, bool thin_only, cudaStream_t s)
{
  /* a group of thin and exact planes takes the staged kernel, the smaller
   * of the two; thin planes alone the thin kernel; a stream plane (alone)
   * the stream kernel of its size */
  static void (*const streams[]) (FrameArgs) = {
    k_stream<1>, k_stream<2>, nullptr, k_stream<4>, k_stream<8>
  };
  static void (*const tiles[]) (FrameArgs) = {
    nullptr, nullptr, nullptr, k_tile<4>, nullptr
  };
  const int k = family == FAMILY_ANY ? FAMILY_STAGED : family;
  const int size = (f.plane[0].path - PATH_WIDE) / (N_STAGES + 1);
  const bool rows =
      (f.plane[0].path - PATH_WIDE) % (N_STAGES + 1) == STAGE_SKINNY_ROWS;
  bool batch = false;
  for (unsigned int i = 0; i < f.n_planes; i++)
    batch = batch || f.plane[i].count > 1;
  void (*kernel) (FrameArgs) = thin_only ? k_thin :
      k == FAMILY_STREAM ? streams[size] :
      k == FAMILY_TILE ? tiles[size] :
      k == FAMILY_SKINNY ? (rows ? k_skinny<4, 64> : k_skinny<64, 4>) :
      k == FAMILY_STAGED ? (batch ? k_wide<true, true> : k_wide<true, false>) :
      batch ? k_wide<false, true> : k_wide<false, false>;
  const int slot = k == FAMILY_STREAM ? FAMILY_STREAM + size :
      k == FAMILY_TILE ? FAMILY_STREAM + 5 + size :
      k == FAMILY_SKINNY ? FAMILY_STREAM + 10 + !rows :
      batch ? FAMILY_STREAM + 12 + k : k;

  /* (3-byte elements never stream, only 4-byte elements take the tile
   * kernel and only bytes the skinny ones: choose_path) */
  if (kernel == nullptr)
    return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;

  if (blocks == 0)
    return CT_OK;
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

/* ct_launch_wide and ct_launch_batches: @get (i) is entry i as a batch. */
template <typename Get>
CtResult
launch_wide (unsigned int n, Get get, CtKernel kernel, CtMapping mapping,
    cudaStream_t stream)
{
  /* grid x is limited to 2^31 - 1 blocks */
  const unsigned long long max_blocks = 0x7fffffffull;
  FrameArgs f;
  unsigned long long blocks = 0;
  size_t smem = 0;
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
  if (res != CT_OK)
    return res;
  const Device d = { (size_t) limit, (size_t) per_sm, (size_t) reserved,
    (unsigned int) n_sms };
  /* auto's choice of tile size looks at the whole call: the tiles its
   * planes would make as big tiles */
  unsigned long long call_blocks = 0, live = 0;
  unsigned int entries = 0;
  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (b.plane.width > 0 && b.plane.height > 0 && b.count > 0) {
      live += b.count;
      entries++;
    }
  }
  const unsigned int n_live = live > UINT_MAX ? UINT_MAX : (unsigned int) live;
  if (kernel == CT_KERNEL_AUTO) {
    bool other_sizes = false;
    for (unsigned int i = 0; i < n; i++) {
      const CtPlaneBatch b = get (i);
      if (b.plane.width == 0 || b.plane.height == 0 || b.count == 0)
        continue;
      const Choice c = choose_path (&b.plane, step_bits (b), mapping,
          CT_KERNEL_AUTO, d, n_live, entries == 1, ~0ull);
      call_blocks += (unsigned long long) c.tiles_x * c.tiles_y * b.count;
      other_sizes = other_sizes || b.plane.elem_size != 1;
    }
    /* a call with other element sizes keeps the big tiles */
    if (other_sizes)
      call_blocks = ~0ull;
  }

  /* the kernel of the group being filled: a plane that needs another one
   * starts a new group (not seen with the variants as they are: a call's
   * wide planes share a stage, and only single planes stream or take the
   * tile kernel) */
  int family = FAMILY_ANY;
  bool thin_only = true;
  f.n_planes = 0;
  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    const CtPlane *pl = &b.plane;
    if (pl->width == 0 || pl->height == 0)
      continue;

    Choice c = choose_path (pl, step_bits (b), mapping, kernel, d, n_live,
        entries == 1, call_blocks);
    if (c.blocks > max_blocks)
      return CT_ERROR_INVALID_ARGUMENT;
    /* a batch takes as many launches as the grid's limit needs */
    for (unsigned int done = 0; done < b.count;) {
      const bool other_kernel = f.n_planes > 0 &&
          (alone (c.family) || alone (family) ||
          (c.family != FAMILY_ANY && family != FAMILY_ANY &&
              c.family != family));
      if (f.n_planes == CT_PLANES_PER_LAUNCH ||
          blocks + c.blocks > max_blocks || other_kernel) {
        res = launch_group (f, (unsigned int) blocks, smem, family,
            thin_only, stream);
        if (res != CT_OK)
          return res;
        f.n_planes = 0;
        blocks = 0;
        smem = 0;
        family = FAMILY_ANY;
        thin_only = true;
      }
      if (c.family != FAMILY_ANY)
        family = c.family;
      thin_only = thin_only && c.path >= PATH_THIN_1 && c.path < PATH_WORD_1;

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
      fp.path = c.path;
      fp.count = take;
      fp.src_step = b.src_step;
      fp.dst_step = b.dst_step;
      /* the blocks in flight then write whole destination rows and read a
       * few hundred bytes of each source row: measured faster on planes of
       * many waves (0.92 to 0.95 of a copy at 8192x8192 4 B), slower on
       * planes of one (0.93 to 0.84 at 1920x1080 4 B) */
      fp.by_columns = c.family == FAMILY_STAGED &&
          c.blocks > (unsigned long long) kStagedPerSm * n_sms;
      blocks += c.blocks * take;
      done += take;
      if (c.smem > smem)
        smem = c.smem;
    }
  }
  return launch_group (f, (unsigned int) blocks, smem, family, thin_only,
      stream);
}

}  // namespace

CtResult
ct_launch_wide (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream)
{
  return launch_wide (n_planes, [planes] (unsigned int i) {
        CtPlaneBatch b = { planes[i], 1, 0, 0 };
        return b;
      }, kernel, mapping, stream);
}

CtResult
ct_launch_batches (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream)
{
  return launch_wide (n_batches, [batches] (unsigned int i) {
        return batches[i];
      }, kernel, mapping, stream);
}
