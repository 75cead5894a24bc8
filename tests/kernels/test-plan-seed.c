/* cudatranspose: the seed variants' planner (kernels/plan-seed.c, through
 * ct_plan_seed in kernels/plan.h) checked without a GPU: every kernel over
 * sizes (1 to 8K, odd, 1xN and Nx1, past what a grid's y holds), element
 * sizes and alignments of pointers and strides, under the four mappings
 * that swap the axes, against the rules written out here:
 *   - only the seeds plan (naive, naive-column, tiled, tiled-padded, rect,
 *     rect-padded, tiled-64); auto, the wide variants and cpu do not;
 *   - naive and naive-column move a block of 32 x 8 elements, an element
 *     a thread; tiled and tiled-padded a 32 x 32 tile, rect and
 *     rect-padded 32 x 16, tiled-64 64 x 64; padded by one element a tile
 *     row (tiled-padded, tiled-64), two (rect-padded) or none;
 *   - the grid covers the source's columns (naive-column: its rows) in
 *     blocks of the tile's width, and its rows (columns) in blocks of its
 *     height, no more than 65535 of those (the blocks loop over the rest);
 *   - elements move as native words where they are 1, 2, 4 or 8 bytes and
 *     the plane's pointers and strides as the kernel sees them (mirrors
 *     move a start and turn a stride's sign: worked out here) are
 *     multiples of the size; 3-byte elements and the misaligned move as
 *     bytes. */
#include "plan.h"
#include "plan-tally.h"

#include <stdint.h>
#include <stdio.h>

#define N_CASES(a) (sizeof (a) / sizeof ((a)[0]))

/* A kernel's tile (its block for the naive ones) and padding; 0: none. */
static int
tile_of (CtKernel k, unsigned int *w, unsigned int *h, unsigned int *pad)
{
  *pad = 0;
  switch (k) {
    case CT_KERNEL_NAIVE:
    case CT_KERNEL_NAIVE_COLUMN:
      *w = 32;
      *h = 8;
      return 1;
    case CT_KERNEL_TILED:
      *w = 32;
      *h = 32;
      return 1;
    case CT_KERNEL_TILED_PADDED:
      *w = 32;
      *h = 32;
      *pad = 1;
      return 1;
    case CT_KERNEL_RECT:
      *w = 32;
      *h = 16;
      return 1;
    case CT_KERNEL_RECT_PADDED:
      *w = 32;
      *h = 16;
      *pad = 2;
      return 1;
    case CT_KERNEL_TILED_64:
      *w = 64;
      *h = 64;
      *pad = 1;
      return 1;
    default:
      return 0;
  }
}

int
main (void)
{
  static const unsigned int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {31, 33}, {32, 32}, {33, 31}, {64, 16},
    {65, 17}, {1280, 720}, {1917, 1079}, {3840, 2160}, {8192, 8192},
    {1, 600000}, {600000, 1}, {5, 600000}, {600000, 5}, {1, 4200000},
    {4000000000u, 3}, {3, 4000000000u},
  };
  static const unsigned int elem_sizes[] = { 1, 2, 3, 4, 8 };
  static const uintptr_t offsets[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16 };
  static const size_t stride_extra[] = { 0, 1, 2, 4, 8 };
  static const CtMapping swaps[] = {
    CT_MAPPING_TRANSPOSE, CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L,
    CT_MAPPING_ANTI_TRANSPOSE,
  };
  char what[200];

  for (int k = 0; k < CT_KERNEL_COUNT; k++) {
    unsigned int tw = 0, th = 0, pad = 0;
    const int seed = tile_of ((CtKernel) k, &tw, &th, &pad);

    for (unsigned int z = 0; z < N_CASES (sizes); z++)
      for (unsigned int e = 0; e < N_CASES (elem_sizes); e++)
        for (unsigned int o = 0; o < N_CASES (offsets); o++)
          for (unsigned int x = 0; x < N_CASES (stride_extra); x++)
            for (unsigned int m = 0; m < N_CASES (swaps); m++) {
              const unsigned int w = sizes[z][0], h = sizes[z][1];
              const unsigned int es = elem_sizes[e];
              /* (addresses only: never read) */
              const uintptr_t src = 0x100000000000ull + offsets[o];
              const uintptr_t dst = 0x200000000000ull + offsets[(o + x) %
                  N_CASES (offsets)];
              const CtPlane pl = { (const void *) src,
                (size_t) w * es + stride_extra[x], (void *) dst,
                (size_t) h * es + stride_extra[(x + m) %
                    N_CASES (stride_extra)], w, h, es
              };
              const int naive_column = k == CT_KERNEL_NAIVE_COLUMN;
              const unsigned long long across = naive_column ? h : w;
              const unsigned long long down = naive_column ? w : h;
              /* the plane as the kernel sees it (ct::plane_args) */
              const CtMapping mp = swaps[m];
              const uintptr_t ksrc = mp & CT_MAPPING_MIRROR_COLUMNS ?
                  src + (uintptr_t) (h - 1) * pl.src_stride : src;
              const uintptr_t kdst = mp & CT_MAPPING_MIRROR_ROWS ?
                  dst + (uintptr_t) (w - 1) * pl.dst_stride : dst;
              const uintptr_t kbits = ksrc | kdst |
                  (mp & CT_MAPPING_MIRROR_COLUMNS ? -(uintptr_t)
                  pl.src_stride : pl.src_stride) |
                  (mp & CT_MAPPING_MIRROR_ROWS ? -(uintptr_t)
                  pl.dst_stride : pl.dst_stride);
              unsigned long long gy = seed ? up (down, th) : 0;
              CtSeedPlan plan;
              const int planned = ct_plan_seed (&pl, (CtKernel) k, &plan);

              if (gy > 65535)
                gy = 65535;
              snprintf (what, sizeof (what), "%s, %ux%u, %u-byte elements, "
                  "+%u, strides +%u, mapping %d", ct_kernel_name ((CtKernel)
                      k), w, h, es, (unsigned int) offsets[o],
                  (unsigned int) stride_extra[x], (int) mp);
              CHECK ("only the seeds plan", what, planned, seed);
              if (!planned || !seed)
                continue;
              CHECK ("the tile's width", what, plan.tile_w, tw);
              CHECK ("the tile's height", what, plan.tile_h, th);
              CHECK ("the tile's padding", what, plan.pad, pad);
              CHECK ("a block a tile's width across", what, plan.grid[0],
                  up (across, tw));
              CHECK ("a block a tile's height down, up to 65535", what,
                  plan.grid[1], gy);
              CHECK ("native words where aligned, bytes for 3", what,
                  plan.words, es != 3 && kbits % es == 0);
            }
  }
  return tally_finish ();
}
