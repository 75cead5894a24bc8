/* cudatranspose: the constants and helpers every kernel file shares (the
 * seeds, the wide family, the flips, the permutations, 4:2:2), each
 * defined here once. Internal to kernels/. */
#pragma once

#include "cudatranspose-kernels.h"

#include <cuda_runtime.h>
#include <stddef.h>

#include <atomic>
#include <type_traits>

namespace ct {

/* The threads of a 1-D block, in every kernel family that launches them
 * (wide, flip, permute): 8 warps. The wide tiles split them into row
 * groups by chunk columns (kGroups * kCols, Skinny's RG * CC), the exact
 * tile into kBlockX x kBlockY; each split asserts it makes this. */
constexpr int kThreads = 256;

/* The grid's x limit, 2^31 - 1 blocks: a launch asks for no more (the
 * one-launch families split a call's groups at it). */
constexpr unsigned long long kMaxGridX = 0x7fffffffull;

/* The grid's y (and z) limit, 65535 blocks: kernels whose rows (planes)
 * outnumber it loop over them. */
constexpr unsigned int kMaxGridY = 65535;

/* Devices whose attributes the host side caches (cached_attribute). */
constexpr int kMaxDevices = 64;

/* Device attribute @attr of @device in *@value, from @cache (kMaxDevices
 * entries, one per device, holding the value plus one: 0 is "not asked
 * yet", so that a value of 0 is cached too). */
inline CtResult
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
      cache[device].store (v + 1);
    *value = v;
    return CT_OK;
  }
  *value = v - 1;
  return CT_OK;
}

/* a / b rounded up (host: grid sizes); b > 0. */
constexpr unsigned long long
div_up (unsigned long long a, unsigned long long b)
{
  return a / b + (a % b != 0);
}

/* N bytes with byte alignment: any address, any stride. */
template <int N> struct Bytes
{
  unsigned char b[N];
};

/* The native word of an ES-byte element (ES 1, 2, 3, 4 or 8): what a
 * thread moves an element as where its address and strides are multiples
 * of ES. 3-byte elements have none and move as bytes (Bytes<3>). */
template <int ES> struct Word
{
  using T = std::conditional_t<ES == 1, unsigned char,
      std::conditional_t<ES == 2, unsigned short,
      std::conditional_t<ES == 4, unsigned int,
      std::conditional_t<ES == 8, unsigned long long, Bytes<ES>>>>>;
};

/* A plane as the kernels see it: every mapping is the transpose here (or,
 * for the mappings that keep the axes, a row copy), its mirrors already
 * turned into where the rows start and which way they run (plane_args). */
struct PlaneArgs
{
  const unsigned char *src;
  unsigned char *dst;
  /* bytes from a row to the next; negative: the rows run upwards */
  ptrdiff_t src_stride;
  ptrdiff_t dst_stride;
  unsigned int width;
  unsigned int height;
};

/* Plane @pl under @mapping as PlaneArgs (host). The four mappings that swap
 * the axes are the transpose with the output's columns and/or rows counted
 * from the other end: output column H-1-y is the transpose of the source
 * read from its last row up, and output row W-1-x is the transpose written
 * from the last output row up. So a mirror is a start pointer and a
 * negative stride, and every kernel runs every mapping at its own speed.
 * Under CT_MAPPING_KEEP_AXES only the rows' mirror is done here (the
 * output's rows from the bottom); reversing each row is the flip path's. */
inline PlaneArgs
plane_args (const CtPlane & pl, CtMapping mapping)
{
  PlaneArgs p;
  const bool keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
  const unsigned int out_rows = keep ? pl.height : pl.width;

  p.src = static_cast<const unsigned char *>(pl.src);
  p.dst = static_cast<unsigned char *>(pl.dst);
  p.src_stride = (ptrdiff_t) pl.src_stride;
  p.dst_stride = (ptrdiff_t) pl.dst_stride;
  p.width = pl.width;
  p.height = pl.height;
  if (!keep && (mapping & CT_MAPPING_MIRROR_COLUMNS) && pl.height > 0) {
    p.src += (ptrdiff_t) (pl.height - 1) * p.src_stride;
    p.src_stride = -p.src_stride;
  }
  if ((mapping & CT_MAPPING_MIRROR_ROWS) && out_rows > 0) {
    p.dst += (ptrdiff_t) (out_rows - 1) * p.dst_stride;
    p.dst_stride = -p.dst_stride;
  }
  return p;
}

/* Blocks of @threads threads that a multiprocessor of the architecture
 * being compiled holds, at most @want: for launch bounds, which ptxas
 * ignores with a warning when they ask for more (sm_75 holds 1024 threads,
 * sm_86, sm_87 and sm_89 1536, sm_80 and sm_90 2048). */
constexpr int
min_blocks (int want, int threads)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  constexpr int most = 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || \
    __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
  constexpr int most = 1536;
#else
  constexpr int most = 2048;
#endif
  return want * threads <= most ? want : most / threads;
}

/* The seed kernels' block: 32 x 8 threads; the same threads as the 1-D
 * blocks, as the wide family's exact path runs move_tile in them. */
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
static_assert (kBlockX * kBlockY == kThreads,
    "move_tile's 2-D block is the 1-D kernels' kThreads");

template <typename T>
__device__ __forceinline__ const T &
src_at (const PlaneArgs & p, unsigned int x, unsigned int y)
{
  return *reinterpret_cast<const T *>(p.src + (ptrdiff_t) y * p.src_stride +
      (size_t) x * sizeof (T));
}

/* Where source element (x, y) goes: output row x, column y. */
template <typename T>
__device__ __forceinline__ T &
dst_of (const PlaneArgs & p, unsigned int x, unsigned int y)
{
  return *reinterpret_cast<T *>(p.dst + (ptrdiff_t) x * p.dst_stride +
      (size_t) y * sizeof (T));
}

/* Bytes @s to @s + 15 (s < 16) of the 32 bytes @a then @b: the word pair
 * moved down by whole words (s / 4, in two selects), then the rest of the
 * shift across each pair of words (__funnelshift_r). */
__device__ __forceinline__ uint4
shift_down16 (const uint4 & a, const uint4 & b, unsigned int s)
{
  const uint32_t x[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
  const unsigned int by = 8 * (s & 3);
  uint32_t z[6], y[5];

#pragma unroll
  for (unsigned int j = 0; j < 6; j++)
    z[j] = s & 8 ? x[j + 2] : x[j];
#pragma unroll
  for (unsigned int j = 0; j < 5; j++)
    y[j] = s & 4 ? z[j + 1] : z[j];
  return make_uint4 (__funnelshift_r (y[0], y[1], by),
      __funnelshift_r (y[1], y[2], by), __funnelshift_r (y[2], y[3], by),
      __funnelshift_r (y[3], y[4], by));
}

/* The plane a block of a one-launch kernel belongs to: the last whose first
 * block is <= the block's (Args: n_planes and first_block[]). */
template <typename Args>
__device__ __forceinline__ unsigned int
plane_index (const Args & f)
{
  constexpr unsigned int n =
      sizeof (f.first_block) / sizeof (f.first_block[0]);
  unsigned int i = 0;

#pragma unroll
  for (unsigned int k = 1; k < n; k++) {
    if (k < f.n_planes && blockIdx.x >= f.first_block[k])
      i = k;
  }
  return i;
}

/* One TILE_H x TILE_W source tile at (x0, y0) through shared memory, moved
 * by a kBlockX x kBlockY block whose thread is (tx, ty). Loads: a warp reads
 * consecutive elements of a source row. Stores: consecutive threads write
 * consecutive elements of a destination row, so a warp reads down a column of
 * the tile; PAD decides whether that column sits in one bank. The caller
 * syncs before the tile is reused. */
template <typename T, int TILE_W, int TILE_H, int PAD>
__device__ __forceinline__ void
move_tile (const PlaneArgs & p, unsigned int x0, unsigned int y0,
    T (*tile)[TILE_W + PAD], int tx, int ty)
{
  static_assert (TILE_W % kBlockX == 0 && TILE_H % kBlockY == 0,
      "tile must be a whole number of block rows and columns");
  const int tid = ty * kBlockX + tx;

#pragma unroll
  for (int r = ty; r < TILE_H; r += kBlockY) {
#pragma unroll
    for (int c = tx; c < TILE_W; c += kBlockX) {
      unsigned int x = x0 + c, y = y0 + r;
      if (x < p.width && y < p.height)
        tile[r][c] = src_at<T> (p, x, y);
    }
  }
  __syncthreads ();

#pragma unroll
  for (int i = tid; i < TILE_W * TILE_H; i += kThreads) {
    int r = i % TILE_H, c = i / TILE_H;
    unsigned int x = x0 + c, y = y0 + r;
    if (x < p.width && y < p.height)
      dst_of<T> (p, x, y) = tile[r][c];
  }
}

/* The variants that move all planes of a call in one launch: the
 * planner's (wide-planner.cuh). */
inline bool
one_launch (CtKernel kernel)
{
  return kernel == CT_KERNEL_AUTO || kernel == CT_KERNEL_WIDE ||
      kernel == CT_KERNEL_WIDE_PADDED || kernel == CT_KERNEL_WIDE_SWIZZLE;
}

}  // namespace ct

/* The one-launch variants (transpose-wide.cu): every plane of the list in
 * one launch per group of planes. The list is already validated. */
CtResult ct_launch_wide (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream);

/* The same over batches of planes, one launch for the planes of up to
 * CT_PLANES_PER_LAUNCH batches, with the planner's path forced (or
 * CT_PATH_NONE) and the main one reported in *@ran (may be NULL), as
 * ct_transpose_batches_ex. The list is already validated. */
CtResult ct_launch_batches (const CtPlaneBatch * batches,
    unsigned int n_batches, CtKernel kernel, CtPath force, CtMapping mapping,
    cudaStream_t stream, CtPath * ran);

/* A tensor's two batch dimensions under auto, transposed (permute.cu):
 * @n copies of batch @b, copy i src_step2 and dst_step2 bytes on from it,
 * validated and planned as ct_launch_batches would, in one launch where
 * the register tile takes every copy (then byte planes on the lines tile;
 * ct_plan_two_levels says which). */
CtResult ct_launch_two_levels (const CtPlaneBatch * b, unsigned int n,
    size_t src_step2, size_t dst_step2, cudaStream_t stream, CtPath * ran);

/* The mappings that keep the axes (flip.cu), whatever the GPU variant:
 * every plane of the list (of up to CT_PLANES_PER_LAUNCH batches) in one
 * launch, with the path forced (CT_PATH_FLIP, CT_PATH_FLIP_EXACT, or
 * CT_PATH_NONE to choose) and the main one reported, as ct_launch_batches.
 * The list is already validated. */
CtResult ct_launch_flip_planes (const CtPlane * planes, unsigned int n_planes,
    CtMapping mapping, cudaStream_t stream);
CtResult ct_launch_flip (const CtPlaneBatch * batches, unsigned int n_batches,
    CtPath force, CtMapping mapping, cudaStream_t stream, CtPath * ran);
