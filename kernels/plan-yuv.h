/* cudatranspose: the YUV one pass's planner (plan-yuv.c): which of its
 * kernels (yuv-rgb.cu, yuv-tensor-pass.cuh) takes a frame, as a function
 * of the frame's plan alone, so that the choice is checked without a GPU
 * (tests/kernels/test-plan-yuv.c). Apart from plan.h, whose other users
 * need none of the YUV pass's types. */
#pragma once

#include "yuv-rgb-unit.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a kernel's values come (its Values) ... */
typedef enum
{
  CT_YUV_VALUES_TABLE,          /* 8-bit values through a table of the
                                 * arithmetic */
  CT_YUV_VALUES_EACH,           /* 8-bit values through the arithmetic one
                                 * by one (per-channel operations along the
                                 * turned frame's x or y) */
  CT_YUV_VALUES_WHOLE,          /* 16-bit values into a float type, whole */
} CtYuvValues;

/* ... and the formats it is built for (its Kind): any, or one kind, whose
 * plan's tests the compiler folds. */
typedef enum
{
  CT_YUV_KIND_ANY,
  CT_YUV_KIND_BLOCKS,           /* I420, YV12 */
  CT_YUV_KIND_PAIRS,            /* NV12, NV21 whose chroma pairs are 2-byte
                                 * aligned */
  CT_YUV_KIND_DEEP,             /* P010, P016 */
  CT_YUV_KIND_SITED,            /* PAIRS sited as decoders site them */
} CtYuvKind;

typedef struct
{
  CtYuvValues values;
  CtYuvKind kind;
} CtYuvKernel;

/* Whether plan @p's frame is 4:2:0, its chroma subsampled along the rows
 * and down the columns: the kernels of one kind take no other (4:2:2 and
 * 4:4:4 go through those of any kind). */
int ct_plan_yuv_420 (const CtYuvPlan * p);

/* Whether every sum of the 8-bit path of a table stays within 16 bits for
 * plan @p (true for every plan ct_yuv_plan makes). */
int ct_plan_yuv_sums_fit (const CtYuvPlan * p);

/* The one pass's kernel for plan @p of frame @s into values of type @out,
 * the operations' channels along dimension @ch_dim (-1: none, 0: the
 * channels, 1 and 2: the turned frame's x and y, 3). Kernels of one kind
 * are built for uint8 and float32 alone (one for each kind of every type
 * would take four times the build), the sited one for float32 alone;
 * 4:2:2 and 4:4:4 frames take those of any kind. */
CtYuvKernel ct_plan_yuv (const CtYuvPlan * p, const CtYuvSrc * s,
    CtType out, int ch_dim);

/* ct_yuv_to_rgb's launch (yuv-rgb.cu: a thread a pixel, a block
 * CT_YUV_RGB_THREADS pixels of a row) for a @width x @height frame: blocks
 * across a row, and a row of blocks for each of its rows, no more than a
 * grid's y takes (the blocks loop over the rest). */
#define CT_YUV_RGB_THREADS 256

void ct_plan_yuv_rgb (unsigned int width, unsigned int height,
    unsigned int grid[2]);

/* A block of the one pass: CT_YUV_LANES x CT_YUV_RANKS threads, each
 * converting a quad (four pixels of a pair of rows) at a time
 * (yuv-tensor-pass.cuh). */
#define CT_YUV_LANES 64
#define CT_YUV_RANKS 4

/* Whether a warp's lanes take neighbouring pairs of rows, not quads: where
 * the output's step (in values) along the frame's y is the smaller, so
 * that their stores follow each other; the kernel asks it too. */
CT_YUV_FN int
ct_yuv_lanes_along_y (long long step_x, long long step_y)
{
  return (step_y < 0 ? -step_y : step_y) < (step_x < 0 ? -step_x : step_x);
}

/* The one pass's launch for a @width x @height frame whose output steps
 * (in values) are @step_x and @step_y along the frame's x and y and
 * @step_c between channels, pixel (0, 0) landing at @at in values of
 * @value_size bytes; @resident: the blocks of the chosen kernel the device
 * holds at once (0: not known). */
typedef struct
{
  int lanes_along_y;            /* ct_yuv_lanes_along_y */
  /* the lanes' side across the grid's x (a lane each), the ranks' down
   * its y: no more rows of blocks than one wave holds (a last, partial
   * wave costs as much as a full one) nor than a grid's y takes; the
   * blocks loop over the rest */
  unsigned int grid_x, grid_y;
  int fours;                    /* every quad's four values stored as one:
                                 * along x forwards, the steps along y and
                                 * between channels multiples of four,
                                 * @at aligned to four values */
} CtYuvLaunch;

CtYuvLaunch ct_plan_yuv_launch (unsigned int width, unsigned int height,
    long long step_x, long long step_y, long long step_c, uintptr_t at,
    unsigned int value_size, unsigned long long resident);

/* The tiled pass, for an output whose innermost side is the frame's
 * columns (a direction that swaps the axes into CHW, or a permutation that
 * puts the height innermost), or the frame's columns' pixels with their
 * channels side by side (packed HWC turned so the axes swap): a block
 * converts a tile of CT_YUV_TILE_QUADS quads by CT_YUV_TILE_PAIRS pairs
 * (16 columns by 128 rows; a thread a quad of a pair), keeps its values in
 * shared memory and then writes each output row's 128 values (HWC: 384)
 * side by side, where the pass above would have a lane's row land away
 * from its neighbours'. (Tall, as the writes are what the pass waits on:
 * docs/performance.md.) */
#define CT_YUV_TILE_QUADS 4
#define CT_YUV_TILE_PAIRS 64

/* The tiled pass's launch for a @width x @height frame of steps @step_x,
 * @step_y and @step_c (as ct_plan_yuv_launch's) into values of
 * @value_size bytes by kernel @k; @resident: the blocks of the tiled
 * kernel the device holds at once (0: not known). */
typedef struct
{
  int tiled;                    /* whether the tiled pass takes the frame:
                                 * the step along y is 1 or -1 (CHW), or 3
                                 * or -3 with the channels 1 apart (packed
                                 * HWC, into 4-byte values or from a 16-bit
                                 * format), and the one along x larger, and
                                 * @k has a table's or whole values (not
                                 * each computed), one kind's or any
                                 * format's into 1- or 4-byte values; the
                                 * kernels are built for uint8 and
                                 * float32 */
  int hwc;                      /* tiled, packed HWC: each output row's run
                                 * holds the three channels of its pixels
                                 * side by side */
  unsigned int tiles_y;         /* tiles down the frame */
  unsigned long long tiles;     /* tiles in all, tiles_y a column of them */
  unsigned int grid;            /* blocks: no more than the tiles, nor
                                 * than one wave holds (where known), nor
                                 * than a grid's x takes; each loops over
                                 * the rest */
} CtYuvTiles;

CtYuvTiles ct_plan_yuv_tiles (CtYuvKernel k, unsigned int width,
    unsigned int height, long long step_x, long long step_y,
    long long step_c, unsigned int value_size, unsigned long long resident);

/* Whether kernel @k's HWC variant takes a frame of steps @step_x, @step_y
 * and @step_c (as ct_plan_yuv_launch's) into values of @value_size bytes.
 * The variant stores a quad's twelve values of packed HWC as three fours
 * mirrored too (put4 forwards alone), and into float32 lays a warp's 32
 * quads of a row (128 pixels) out in shared memory in the output's order
 * and stores them as one run, where put4 spreads each of its stores over
 * three times the bytes it writes. It takes packed HWC (the channels 1
 * apart, the pixels 3 or, mirrored, -3) whose lanes run along x, by one
 * kind's kernel with a table's or whole values (built for uint8 and
 * float32): mirrored, always; forwards, 8-bit values through a table into
 * float32 alone (uint8's, and 16-bit input's whole values, measured
 * faster by put4 forwards: docs/performance.md). */
int ct_plan_yuv_hwc (CtYuvKernel k, long long step_x, long long step_y,
    long long step_c, unsigned int value_size);

#ifdef __cplusplus
}
#endif
