/* cudatranspose: the YUV pass's write-outs through shared memory, checked
 * without a GPU: the tiled pass's of a tile, and a warp's packed HWC run.
 *
 * The tile (flush_tile in kernels/yuv-tensor-stores.cuh, the code the GPU
 * runs, through ct_yuv_flush_tile_cpu): every tile of frames of
 * odd, 1xN, Nx1 and several-tile sizes, into CHW tensors turned each of
 * the four ways that swap the axes (the output's step along the frame's y
 * 1 or -1) and a permutation that keeps the axes with the height
 * innermost, and into packed HWC turned each of the four ways (the step
 * along y 3 or -3, between channels 1), uint8 and float32, the output
 * starting 0 to 3 values past an aligned address; the tile filled with
 * random values, the output poisoned first. Against the rules written out here: every store of
 * four values as one is aligned to their size (as the GPU's must be); the
 * tile's value
 * (c, col, r) is the frame's pixel (x_base + col, 2 k0 - 1 + r) of channel
 * c, written at x * step_x + y * step_y + c * step_c for each pixel of the
 * frame the tile holds (its first row, -1, is not one for the first pair;
 * none past the frame's last column or row), and nothing else is
 * written.
 *
 * The HWC run (stage_hwc and unstage_hwc, through ct_yuv_hwc_run_cpu): a
 * warp's 32 quads of a row, 1-, 2-, 4- and 8-byte values, HWC forwards
 * and mirrored, the run starting 0 to 3 values past an aligned address;
 * random values, the output poisoned. Against the rules written here:
 * value (c, i) of lane l lands at its quad's place plus i step_x + c,
 * lane l's quad at lane 0's plus 4 l step_x; every store of four aligned
 * to its size; nothing else written; a run whose fours could not be
 * aligned refused with nothing written. */
#include "cudatranspose-kernels-tests.h"
#include "plan-tally.h"
#include "random-fill.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_CASES(a) (sizeof (a) / sizeof ((a)[0]))

enum
{ TILE_COLS = 16, TILE_ROWS = 128, TILE_PAD = 1, TILE_PAIRS = 64 };

static uint64_t rng = 0x7113;

/* A warp's HWC runs (above). */
static void
hwc_runs (void)
{
  enum
  { LANES = 32, RUN = 12 * LANES, MARGIN = 8 };
  static const unsigned int value_sizes[] = { 1, 2, 4, 8 };
  static const long long step_xs[] = { 3, -3 };
  unsigned char vals[RUN * 8];
  char what[120];

  for (unsigned int v = 0; v < N_CASES (value_sizes); v++)
    for (unsigned int d = 0; d < N_CASES (step_xs); d++)
      for (unsigned int off = 0; off < 4; off++) {
        const unsigned int vs = value_sizes[v];
        const long long sx = step_xs[d];
        const size_t all = (size_t) (RUN + 2 * MARGIN) * vs;
        /* (32-byte aligned, then MARGIN + @off values on) */
        unsigned char *base = aligned_alloc (32, (all + 31) / 32 * 32);
        unsigned char *want = malloc (all);
        unsigned char *run = base + (MARGIN + off) * vs;
        /* lane 0's quad: the run's first, or mirrored its last (its
         * pixel x0 the run's last pixel) */
        const long long lane0 = sx > 0 ? 0 : RUN - 3;
        /* a four is 4 vs bytes: the run's fours aligned at off 0 alone */
        const int taken = off == 0;

        snprintf (what, sizeof (what), "%u-byte values, step_x %lld, +%u "
            "values", vs, sx, off);
        ct_ref_fill_random (&rng, vals, RUN * vs);
        memset (base, 0x5a, all);
        memcpy (want, base, all);
        if (taken)
          for (long long l = 0; l < LANES; l++)
            for (long long i = 0; i < 4; i++)
              for (long long c = 0; c < 3; c++)
                memcpy (want + (MARGIN + off + lane0 + 4 * l * sx + i * sx +
                        c) * vs, vals + ((l * 3 + c) * 4 + i) * vs, vs);
        CHECK (taken ? "taken, each store of four aligned to four" :
            "refused: its fours cannot be aligned", what,
            ct_yuv_hwc_run_cpu (vals, vs, run + lane0 * vs, sx),
            taken ? CT_OK : CT_ERROR_INVALID_ARGUMENT);
        CHECK ("every value where it lands, nothing else", what,
            memcmp (base, want, all) == 0, 1);
        free (want);
        free (base);
      }
  CHECK ("a step along x of 1 refused", "", ct_yuv_hwc_run_cpu (vals, 4,
          vals, 1), CT_ERROR_INVALID_ARGUMENT);
  CHECK ("3-byte values refused", "", ct_yuv_hwc_run_cpu (vals, 3, vals, 3),
      CT_ERROR_INVALID_ARGUMENT);
}

int
main (void)
{
  static const unsigned int sizes[][2] = {
    {1, 1}, {2, 2}, {1, 9}, {9, 1}, {3, 5}, {64, 30}, {64, 31}, {64, 32},
    {65, 33}, {63, 34}, {121, 67}, {200, 9}, {7, 100}, {130, 97},
    {16, 126}, {16, 127}, {16, 128}, {17, 129}, {15, 130}, {33, 257},
    {40, 300},
  };
  static const unsigned int value_sizes[] = { 1, 4 };
  const size_t tile_values = 3 * TILE_COLS * (TILE_ROWS + TILE_PAD);
  unsigned char *tile = malloc (tile_values * 4);
  char what[200];

  for (unsigned int z = 0; z < N_CASES (sizes); z++) {
    const long long w = sizes[z][0], h = sizes[z][1];
    /* steps along x, y and between channels, and pixel (0, 0)'s place:
     * ul-lr, 90r, 90l, ur-ll into CHW of the turned frame (h x w), and
     * the frame as it comes with the height innermost, then the channels
     * (permutation 2:0:1:3 of its HWC tensor) */
    const long long ways[][4] = {
      {h, 1, w * h, 0}, {h, -1, w * h, h - 1}, {-h, 1, w * h, (w - 1) * h},
      {-h, -1, w * h, w * h - 1}, {3 * h, 1, h, 0},
      {3 * h, 3, 1, 0}, {3 * h, -3, 1, 3 * (h - 1)},
      {-3 * h, 3, 1, 3 * h * (w - 1)},
      {-3 * h, -3, 1, 3 * h * (w - 1) + 3 * (h - 1)},
    };
    const size_t n_values = 3 * (size_t) w * h;

    for (unsigned int v = 0; v < N_CASES (value_sizes); v++)
      for (unsigned int way = 0; way < N_CASES (ways); way++)
        for (unsigned int off = 0; off < 4; off++) {
          const unsigned int vs = value_sizes[v];
          const long long sx = ways[way][0], sy = ways[way][1],
              sc = ways[way][2], start = ways[way][3];
          /* (16-byte aligned, then @off values on; two values of margin
           * either side) */
          unsigned char *base = aligned_alloc (16,
              ((n_values + 4 + 4) * vs + 15) / 16 * 16);
          unsigned char *out = base + (2 + off) * vs;
          unsigned char *want = malloc ((n_values + 4 + 4) * vs);
          const size_t all = (n_values + 4 + 4) * vs;
          int ok = 1;

          snprintf (what, sizeof (what), "%lldx%lld, steps %lld %lld %lld, "
              "%u-byte values, +%u values", w, h, sx, sy, sc, vs, off);
          memset (base, 0x5a, all);
          memcpy (want, base, all);
          for (unsigned int x_base = 0; x_base < w; x_base += TILE_COLS)
            for (unsigned int k0 = 0; k0 <= h / 2; k0 += TILE_PAIRS) {
              ct_ref_fill_random (&rng, tile, tile_values * vs);
              CHECK ("taken, each store of four values aligned to four",
                  what, ct_yuv_flush_tile_cpu (tile,
                      vs, out + start * vs, sx, sy, sc, (unsigned int) w,
                      (unsigned int) h, x_base, k0), CT_OK);
              for (unsigned int c = 0; c < 3; c++)
                for (unsigned int col = 0; col < TILE_COLS; col++)
                  for (unsigned int r = 0; r < TILE_ROWS; r++) {
                    const long long x = x_base + col;
                    const long long y = 2 * (long long) k0 - 1 + r;
                    const size_t from = ((size_t) (c * TILE_COLS + col) *
                        (TILE_ROWS + TILE_PAD) + r) * vs;

                    if (x >= w || y < 0 || y >= h)
                      continue;
                    memcpy (want + (2 + off + start + x * sx + y * sy +
                            c * sc) * vs, tile + from, vs);
                  }
            }
          if (memcmp (base, want, all) != 0) {
            size_t at = 0;

            while (base[at] == want[at])
              at++;
            printf ("FAIL %s: byte %zu of %zu\n", what, at, all);
            ok = 0;
          }
          CHECK ("every value of the tile where it lands, nothing else", what,
              ok, 1);
          free (want);
          free (base);
        }
  }
  hwc_runs ();
  /* refusals: a step along y other than 1 or -1 (or 3 or -3 with the
   * channels 1 apart), a tile not at a tile's place, a value size the
   * pass has no tile for */
  CHECK ("a step along y of 2 refused", "", ct_yuv_flush_tile_cpu (tile, 4,
          tile, 8, 2, 1, 8, 8, 0, 0), CT_ERROR_INVALID_ARGUMENT);
  CHECK ("a step along y of 3, the channels apart, refused", "",
      ct_yuv_flush_tile_cpu (tile, 4, tile, 24, 3, 2, 8, 8, 0, 0),
      CT_ERROR_INVALID_ARGUMENT);
  CHECK ("a tile off its place refused", "", ct_yuv_flush_tile_cpu (tile, 4,
          tile, 8, 1, 64, 8, 8, 1, 0), CT_ERROR_INVALID_ARGUMENT);
  CHECK ("a pair off its place refused", "", ct_yuv_flush_tile_cpu (tile, 4,
          tile, 8, 1, 64, 8, 8, 0, 3), CT_ERROR_INVALID_ARGUMENT);
  CHECK ("2-byte values refused", "", ct_yuv_flush_tile_cpu (tile, 2, tile,
          8, 1, 64, 8, 8, 0, 0), CT_ERROR_INVALID_ARGUMENT);
  free (tile);
  return tally_finish ();
}
