/* cudatranspose: what a launch of the wide family carries (wide-tiles.cuh,
 * transpose-wide.cu): the stages and ways a plane can take and the launch
 * arguments (FramePlane, LaunchArgs) that the planner (wide-planner.cuh)
 * fills on the host and the kernels read. */
#ifndef CT_WIDE_ARGS_CUH
#define CT_WIDE_ARGS_CUH

#include "cudatranspose-kernels.h"
#include "transpose-common.cuh"

#include <stddef.h>

namespace ct_wide {

using ct::PlaneArgs;

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
  /* a mid-size byte plane: a 128 x 128 tile in registers (k_mid) */
  STAGE_MID,
  /* the same tile staged in shared memory, whole lines each way (k_lines) */
  STAGE_LINES,
  /* the small tile, registers (either k_wide) */
  STAGE_SMALL,
  /* the exact path's 16-byte word tile: a single plane of 4-byte elements
   * in whole words, of at most the L2's bytes (k_exact_words) */
  STAGE_WORDS,
  /* a single plane of 4-byte elements whose rows are not whole 16-byte
   * words, streamed: copied in elements, written in aligned 16-byte words
   * (k_stream_words) */
  STAGE_STREAM_WORDS
};

/* How a block of k_wide moves its plane: a wide tile (of the plane's
 * stage), an element per thread (thin), or the exact tile. */
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
  unsigned char words;          /* exact, 8-byte: native words (else bytes) */
  unsigned char by_columns;     /* block order: down the columns of tiles */
  unsigned char thin_shift;     /* thin: 2^thin_shift elements per thread */
  /* a batch: @count planes of this shape, plane k at a.src + k * src_step
   * and a.dst + k * dst_step, each tiles_x * tiles_y blocks; 1: one plane */
  unsigned int count;
  size_t src_step, dst_step;
};

/* The launch arguments of up to N entries. The block ranges come first:
 * a block finds its plane in the first line of them, sooner than by
 * reading them out of the planes (measured: docs/kernels.md,
 * "Block ranges first"). */
template <unsigned int N>
struct LaunchArgs
{
  unsigned int n_planes;
  unsigned int first_block[N];
  FramePlane plane[N];
};

/* A launch of several entries, and one of a single entry: the arguments
 * travel with every launch, and a kernel launched with the 680 bytes of
 * eight took longer than with one entry's 96 (measured: docs/kernels.md,
 * "One plane's arguments for one plane").
 * So each kernel that can take several entries has a variant for one, and
 * the kernels that always take one take only that. */
using FrameArgs = LaunchArgs<CT_PLANES_PER_LAUNCH>;
using OneArgs = LaunchArgs<1>;

/* One entry whose planes come in two levels: plane (k, m), k <
 * plane[0].count and m < count2, at a.src + k src_step + m src_step2 (and
 * the same for dst): a tensor's two batch dimensions in one launch, which
 * as entries of CT_PLANES_PER_LAUNCH would take several, each with fewer
 * blocks than the GPU holds (ct_launch_two_levels). */
struct TwoLevelArgs : OneArgs
{
  unsigned int count2;
  size_t src_step2, dst_step2;
};

}  // namespace ct_wide

#endif /* CT_WIDE_ARGS_CUH */
