/* cudatranspose: 4:2:2 on the GPU (ct_transpose_422).
 *
 * Where the axes swap (k_422_swap), a block makes an output tile of 32
 * units by 64 rows through shared memory: it reads the 64 source rows
 * the tile's 64 output pixel columns come from, each over the 64 source
 * columns its rows come from (33 macropixels, or 32 chroma samples), in
 * whole lines; then each thread builds its units from there (two source
 * rows, a mean of their chroma) and stores them along the output's rows.
 * The even source rows and the odd ones lie in two halves of the tile,
 * so a warp, which reads every other row, hits 32 banks.
 *
 * The mappings that keep the axes (k_422: packed 4:2:2 under horiz and 180;
 * the chroma layouts, which the element sends elsewhere) take an output
 * unit per thread (yuv422-unit.h), a warp along an output row.
 *
 * Every plane of a call in one launch: blockIdx.z picks the plane. A plane
 * with more rows than the grid's y holds loops over them.
 */
#include "cudatranspose-kernels-tests.h"
#include "plan.h"
#include "transpose-common.cuh"
#include "yuv422-unit.h"

#include <cuda_runtime.h>

#include <stdint.h>

namespace {

constexpr int kUnitsX = CT_422_UNITS_X;
constexpr int kRowsY = CT_422_ROWS_Y;

/* The swap's tile: kTileUnits output units by kTileRows output rows, from
 * kSrcRows source rows; a row of the tile in shared memory holds
 * kPackedWords macropixels (pitch kPackedWords words) or kChromaSamples
 * samples (pitch kChromaPitch samples: 17 words, so that 32 rows start in
 * 32 banks). */
constexpr int kTileUnits = CT_422_TILE_UNITS;
constexpr int kTileRows = CT_422_TILE_ROWS;
constexpr int kSrcRows = 2 * kTileUnits;
constexpr int kPackedWords = kTileRows / 2 + 1;
constexpr int kChromaSamples = kTileRows / 2;
constexpr int kChromaPitch = kChromaSamples + 2;
constexpr int kSwapThreads = kTileUnits * kRowsY;

/* per plane: its source and output rows start on whole units (4-byte
 * macropixels, 2-byte samples) */
constexpr unsigned char kSrcAligned = CT_422_SRC_ALIGNED;
constexpr unsigned char kDstAligned = CT_422_DST_ALIGNED;

struct Args422
{
  CtPlane422 plane[CT_PLANES_PER_LAUNCH];
  unsigned char aligned[CT_PLANES_PER_LAUNCH];
  CtMapping mapping;
};

/* v / 2 rounded down, for negative v too. */
__device__ __forceinline__ long long
floor_half (long long v)
{
  return (v - (v & 1)) / 2;
}

/* Where source row r of the tile lies: the even rows first. */
__device__ __forceinline__ int
tile_row (int r)
{
  return (r & 1) * (kSrcRows / 2) + (r >> 1);
}

__device__ __forceinline__ uint32_t
load_word (const unsigned char *at, bool aligned)
{
  if (aligned)
    return *reinterpret_cast<const uint32_t *>(at);
  return at[0] | (uint32_t) at[1] << 8 | (uint32_t) at[2] << 16 |
      (uint32_t) at[3] << 24;
}

__device__ __forceinline__ void
store_word (unsigned char *at, uint32_t w, bool aligned)
{
  if (aligned) {
    *reinterpret_cast<uint32_t *>(at) = w;
    return;
  }
  at[0] = (unsigned char) w;
  at[1] = (unsigned char) (w >> 8);
  at[2] = (unsigned char) (w >> 16);
  at[3] = (unsigned char) (w >> 24);
}

/* Byte @b of little-endian word @w. */
__device__ __forceinline__ uint32_t
byte_of (uint32_t w, unsigned int b)
{
  return (w >> (8 * b)) & 0xff;
}

/* One output tile (@tx, @ty) of plane @p under swapping @mapping. The
 * tile's source rows: output pixel column o comes from source row o, or
 * H - 1 - o under CT_MAPPING_MIRROR_COLUMNS; output row oy from source
 * column oy, or W - 1 - oy under MIRROR_ROWS (the chroma layouts: chroma
 * column oy / 2, or from the chroma plane's right edge). */
__device__ __forceinline__ void
swap_tile (const CtPlane422 & p, unsigned char aligned, CtMapping mapping,
    unsigned int tx, unsigned int ty, uint32_t * smem)
{
  const bool packed = p.layout == CT_422_PACKED;
  const bool mc = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  const bool mr = (mapping & CT_MAPPING_MIRROR_ROWS) != 0;
  const long long w = p.width, h = p.height;
  const long long in_units = w / 2 + (w & 1);
  const unsigned int units = (unsigned int) (h / 2 + (h & 1));
  const unsigned int cx0 = tx * kTileUnits, oy0 = ty * kTileRows;
  /* the first source row, and the first macropixel or sample, in the tile */
  const long long rlo = mc ? h - 2ll * cx0 - kSrcRows : 2ll * cx0;
  const long long clo = packed ? floor_half (mr ? w - oy0 - kTileRows : oy0) :
      (mr ? in_units - kChromaSamples - oy0 / 2 : oy0 / 2);
  const int cols = packed ? kPackedWords : kChromaSamples;
  const unsigned char *src = static_cast<const unsigned char *>(p.src);
  unsigned short *half = reinterpret_cast<unsigned short *>(smem);
  const unsigned int tid = threadIdx.x;

  for (int i = tid; i < kSrcRows * cols; i += kSwapThreads) {
    const int r = i / cols, c = i % cols;
    const long long gr = rlo + r, gc = clo + c;

    if (gr < 0 || gr >= h || gc < 0 || gc >= in_units)
      continue;
    const unsigned char *at = src + (size_t) gr * p.src_stride +
        (size_t) gc * (packed ? 4 : 2);
    if (packed) {
      smem[tile_row (r) * kPackedWords + c] =
          load_word (at, aligned & kSrcAligned);
    } else {
      half[tile_row (r) * kChromaPitch + c] = (aligned & kSrcAligned) ?
          *reinterpret_cast<const unsigned short *>(at) :
          (unsigned short) (at[0] | at[1] << 8);
    }
  }
  __syncthreads ();

  const unsigned int cx = cx0 + tid % kTileUnits;
  const long long o0 = 2ll * cx;
  const bool two = o0 + 1 < h;
  const int r0 = tile_row ((int) ((mc ? h - 1 - o0 : o0) - rlo));
  const int r1 = two ? tile_row ((int) ((mc ? h - 2 - o0 : o0 + 1) - rlo)) :
      r0;
  const bool be = p.layout == CT_422_CHROMA_16BE;

#pragma unroll 4
  for (int k = 0; k < kTileRows / kRowsY; k++) {
    const unsigned int oy = oy0 + tid / kTileUnits + k * kRowsY;

    if (cx >= units || oy >= (unsigned int) w)
      continue;
    unsigned char *out = static_cast<unsigned char *>(p.dst) +
        (size_t) oy * p.dst_stride;
    if (packed) {
      const long long sx = mr ? w - 1 - oy : oy;
      const int c = (int) (sx / 2 - clo);
      const unsigned int yb = p.y_offset + 2 * (unsigned int) (sx & 1);
      const uint32_t a = smem[r0 * kPackedWords + c];
      const uint32_t b = smem[r1 * kPackedWords + c];
      const uint32_t u = (byte_of (a, p.u_offset) + byte_of (b,
              p.u_offset)) >> 1;
      const uint32_t v = (byte_of (a, p.v_offset) + byte_of (b,
              p.v_offset)) >> 1;

      store_word (out + (size_t) cx * 4, byte_of (a, yb) << (8 * p.y_offset) |
          byte_of (b, yb) << (8 * (p.y_offset + 2)) | u << (8 * p.u_offset) |
          v << (8 * p.v_offset), aligned & kDstAligned);
    } else {
      const int c = (int) ((mr ? in_units - 1 - oy / 2 : oy / 2) - clo);
      uint32_t a = half[r0 * kChromaPitch + c];
      uint32_t b = half[r1 * kChromaPitch + c];

      if (be) {
        a = (a >> 8) | (a & 0xff) << 8;
        b = (b >> 8) | (b & 0xff) << 8;
      }
      uint32_t m = (a + b) / 2;
      if (be)
        m = (m >> 8) | (m & 0xff) << 8;
      unsigned char *at = out + (size_t) cx * 2;
      if (aligned & kDstAligned) {
        *reinterpret_cast<unsigned short *>(at) = (unsigned short) m;
      } else {
        at[0] = (unsigned char) m;
        at[1] = (unsigned char) (m >> 8);
      }
    }
  }
}

__global__ void __launch_bounds__ (kSwapThreads)
k_422_swap (const __grid_constant__ Args422 a)
{
  __shared__ uint32_t smem[kSrcRows * kPackedWords];
  const CtPlane422 & p = a.plane[blockIdx.z];
  const unsigned int units = p.height / 2 + (p.height & 1);
  const unsigned int tiles_y = p.width / kTileRows +
      (p.width % kTileRows != 0);

  if (p.width == 0 || p.height == 0 || blockIdx.x * kTileUnits >= units)
    return;
  for (unsigned int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    swap_tile (p, a.aligned[blockIdx.z], a.mapping, blockIdx.x, ty, smem);
    /* the tile is read before the next one is loaded */
    __syncthreads ();
  }
}

__global__ void __launch_bounds__ (kUnitsX * kRowsY)
k_422 (const __grid_constant__ Args422 a)
{
  const CtPlane422 & p = a.plane[blockIdx.z];
  const unsigned int units = ct_422_out_units (&p, a.mapping);
  const unsigned int rows = ct_422_out_rows (&p, a.mapping);
  const unsigned int ox = blockIdx.x * kUnitsX + threadIdx.x;

  if (ox >= units || p.width == 0 || p.height == 0)
    return;
  for (unsigned int oy = blockIdx.y * kRowsY + threadIdx.y; oy < rows;
      oy += gridDim.y * kRowsY)
    ct_422_unit (&p, a.mapping, ox, oy);
}

}  // namespace

CtResult
ct_transpose_422 (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping, CtStream stream)
{
  CtResult res = ct_422_validate (planes, n_planes, mapping);
  unsigned int done = 0;

  if (res != CT_OK)
    return res;
  while (done < n_planes) {
    const unsigned int n = n_planes - done < CT_PLANES_PER_LAUNCH ?
        n_planes - done : CT_PLANES_PER_LAUNCH;
    CtPlan422 plan;
    Args422 a = { };

    ct_plan_422 (planes + done, n, mapping, &plan);
    a.mapping = mapping;
    for (unsigned int i = 0; i < n; i++) {
      a.plane[i] = planes[done + i];
      a.aligned[i] = plan.aligned[i];
    }
    if (plan.grid[0] > 0) {
      const dim3 grid (plan.grid[0], plan.grid[1], plan.grid[2]);

      if (plan.swap)
        k_422_swap<<<grid, kSwapThreads, 0,
            reinterpret_cast<cudaStream_t>(stream)>>> (a);
      else
        k_422<<<grid, dim3 (kUnitsX, kRowsY), 0,
            reinterpret_cast<cudaStream_t>(stream)>>> (a);
    }
    res = (CtResult) cudaGetLastError ();
    if (res != CT_OK)
      return res;
    done += n;
  }
  return CT_OK;
}
