/* cudatranspose: the planner of the one-launch variants (auto, wide,
 * wide-padded, wide-swizzle; kernels/wide-planner.cuh) checked without a
 * GPU, through ct_plan_batches (kernels/plan.h): the path each plane
 * takes for each element size, shape, alignment and variant, the paths
 * forced, the calls refused; then rules that hold over a sweep of shapes.
 *
 * The expected paths are worked out from the planner's rules (kPaths,
 * fits (), plan_auto () and kAuto, as docs/performance.md "What auto
 * runs, and why" describes them), each row saying which rule it checks,
 * on a device given by value: an H100 SXM5 (below). A row that fails
 * means the table changed, or the rule did. */
#include "plan.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An H100 SXM5 as the planner sees it: 132 multiprocessors, 228 KB of
 * shared memory each (1 KB of it reserved per block), 227 KB opt-in per
 * block, 50 MB of L2; compute capability 9.0, which the planner does not
 * read. */
static const CtPlanDevice h100 = { 227 * 1024, 228 * 1024, 1024, 132,
  50 * 1024 * 1024
};

/* The planner's numbers on it (kAuto's thresholds are per multiprocessor):
 * a big tile is 256 rows by 256 bytes (256x256 bytes, 256x128 halves,
 * 256x64 words, 256x32 doubles; the 3-byte register tile 256x64), the rgb
 * tile 128x128 elements.
 *   a lone byte plane streams from 1.5 x 132 = 198 big tiles (from
 *   5 x 132 = 660 where its sides are not whole big tiles), others from
 *   any; every size up to 16 x 132 = 2112 big tiles;
 *   a lone 4-byte plane takes tile-64 unless it has 2 x 132 = 264 to 2112
 *   big tiles (and is at least 64 wide, 128 tall: a stream tile);
 *   a lone 3-byte plane under 264 rgb tiles takes the small tile;
 *   a call of byte planes under 1 x 132 tiles takes the small tile.
 * What each path needs (cudatranspose-kernels.h, docs/kernels.md):
 * pointers and strides multiples of 16 bytes for the big, staged, stream,
 * tile-64 and skinny tiles (4 for the 3-byte register tile), 8 for
 * tile-128, 4 for the small tile (8 with 8-byte elements), the element's
 * size for the thin path (3-byte elements: any). */

static int n_passed, n_failed;

/* A batch of @count planes of @w x @h @es-byte elements whose pointers,
 * strides and steps ORed are aligned to @align (a power of two up to 16)
 * and to no more: the source starts @align past a boundary of 2^20, the
 * other pointers on one, the rows padded to 256 bytes. Plane @k of a call
 * lies apart from the others. Never dereferenced. */
static CtPlaneBatch
batch (unsigned int w, unsigned int h, unsigned int es, unsigned int align,
    unsigned int count, unsigned int k)
{
  const uintptr_t base = 0x100000000000ull + (uintptr_t) k * 0x10000000000ull;
  const size_t src_stride = ((size_t) w * es + 255) / 256 * 256;
  const size_t dst_stride = ((size_t) h * es + 255) / 256 * 256;
  CtPlaneBatch b;

  b.plane.src = (const void *) (base + align);
  b.plane.dst = (void *) (base + 0x8000000000ull);
  b.plane.src_stride = src_stride;
  b.plane.dst_stride = dst_stride;
  b.plane.width = w;
  b.plane.height = h;
  b.plane.elem_size = es;
  b.count = count;
  b.src_step = src_stride * h;
  b.dst_step = dst_stride * w;
  return b;
}

static void
check (int ok, const char *what)
{
  if (ok) {
    n_passed++;
    return;
  }
  n_failed++;
  printf ("FAIL %s\n", what);
}

#define K(id) CT_KERNEL_##id
#define P(id) CT_PATH_##id
/* auto, nothing forced */
#define AUTO K (AUTO), P (NONE)

/* One plane (or batch) alone in its call. */
typedef struct
{
  CtKernel kernel;
  CtPath force;
  unsigned int w, h, es, align, count;
  CtResult res;
  CtPath path;                  /* CT_PATH_NONE where refused */
  const char *why;
} Case;

static const Case cases[] = {
  /* auto, a lone byte plane */
  {AUTO, 1920, 1080, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "8x5 = 40 big tiles < 198: too few to stream, the 128x128 tile "
      "in whole lines"},
  {AUTO, 1920, 1080, 1, 8, 1, CT_OK, P (EXACT),
      "the same 8-aligned: no big tile, so neither 128x128 tile; exact"},
  {AUTO, 3840, 2160, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "15x9 = 135 big tiles < 198 (docs: 3840x2160 tile-128-lines)"},
  {AUTO, 1000, 1500, 1, 16, 1, CT_OK, P (TILE_128),
      "a width not a multiple of 128: the register tile"},
  {AUTO, 50432, 256, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "197x1 = 197 big tiles, one under 1.5 per multiprocessor"},
  {AUTO, 4608, 2816, 1, 16, 1, CT_OK, P (STREAM),
      "18x11 = 198 big tiles, 1.5 per multiprocessor: streams from there"},
  {AUTO, 8000, 6000, 1, 16, 1, CT_OK, P (STREAM),
      "32x24 = 768 big tiles, sides not whole tiles but within 660..2112"},
  {AUTO, 4097, 4095, 1, 16, 1, CT_OK, P (TILE_128),
      "17x16 = 272 big tiles, sides not whole tiles: under 660, the mid "
      "tile (a width not a multiple of 128: in registers)"},
  {AUTO, 4608, 5500, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "18x22 = 396 big tiles, the height not whole tiles: under 660, the "
      "mid tile in whole lines"},
  {AUTO, 256, 168700, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "1x659 big tiles, the height not whole tiles: one under 660"},
  {AUTO, 5120, 8400, 1, 16, 1, CT_OK, P (STREAM),
      "20x33 = 660 big tiles, the height not whole tiles: streams from "
      "there"},
  {AUTO, 12288, 11264, 1, 16, 1, CT_OK, P (STREAM),
      "48x44 = 2112 big tiles, 16 per multiprocessor: still streams"},
  {AUTO, 540928, 256, 1, 16, 1, CT_OK, P (WIDE_SWIZZLE),
      "2113x1 big tiles, past 2112: a swizzled tile per block"},
  {AUTO, 16384, 16384, 1, 16, 1, CT_OK, P (WIDE_SWIZZLE),
      "64x64 = 4096 big tiles: a lone plane's big tile is the swizzle"},
  {AUTO, 65, 65, 1, 16, 1, CT_OK, P (TILE_128),
      "one big tile, 65 each way: neither thin nor skinny"},
  {AUTO, 333, 777, 1, 16, 1, CT_OK, P (TILE_128),
      "odd sides: 2x4 big tiles, the tiles cover the ragged edges"},
  {AUTO, 5000, 40, 1, 16, 1, CT_OK, P (TILE_128),
      "a byte plane 40 tall, alone, 5 skinny tiles of 1024x64 (under 198, "
      "1.5 per multiprocessor): the mid tile, in registers (5000 is no "
      "multiple of 128)"},
  {AUTO, 40, 5000, 1, 16, 1, CT_OK, P (TILE_128),
      "40 wide, 5 skinny tiles down the columns: the mid tile"},
  {AUTO, 5000, 64, 1, 16, 1, CT_OK, P (TILE_128),
      "64 tall, the skinny tile's limit, 5 of them: the mid tile"},
  {AUTO, 64, 5000, 1, 16, 1, CT_OK, P (TILE_128),
      "64 wide, 5 skinny tiles: the mid tile"},
  {AUTO, 16, 16, 1, 16, 1, CT_OK, P (TILE_128),
      "16x16 is not thin (under 16 is), one skinny tile: the mid tile"},
  {AUTO, 4096, 16, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "4 skinny tiles, a width of whole 128s: the mid tile in lines"},
  {AUTO, 202752, 16, 1, 16, 1, CT_OK, P (SKINNY),
      "16 tall, 198 skinny tiles (1.5 per multiprocessor): skinny"},
  {AUTO, 201728, 16, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "197 skinny tiles, one under 198: the mid tile in lines"},
  {AUTO, 32, 262144, 1, 16, 1, CT_OK, P (SKINNY),
      "32 wide, 256 skinny tiles down the columns: skinny"},
  {AUTO, 64, 262144, 1, 16, 1, CT_OK, P (TILE_128),
      "64 wide (the skinny tile full), 256 tiles, under 528 (4 per "
      "multiprocessor): the mid tile, in registers (64 is no multiple "
      "of 128)"},
  {AUTO, 262144, 64, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "64 tall, 256 skinny tiles: the mid tile in lines"},
  {AUTO, 540672, 64, 1, 16, 1, CT_OK, P (SKINNY),
      "64 tall, 528 skinny tiles: skinny"},
  {AUTO, 539648, 64, 1, 16, 1, CT_OK, P (TILE_128_LINES),
      "64 tall, 527 skinny tiles: the mid tile"},
  {AUTO, 15, 4096, 1, 16, 1, CT_OK, P (THIN), "15 wide: under 16, thin"},
  {AUTO, 4096, 15, 1, 16, 1, CT_OK, P (THIN), "15 tall: thin"},
  {AUTO, 1, 65536, 1, 16, 1, CT_OK, P (THIN), "a column: thin"},
  {AUTO, 65536, 1, 1, 16, 1, CT_OK, P (THIN), "a row: thin"},
  /* auto, a byte plane off the 16-byte grid: no big tile, so neither
   * stream nor tile-128 (tried only where the big tile fits); the small
   * tile where the call's tiles are under 132, counted as the first pass
   * chose, here the exact tile (128x128 for bytes) */
  {AUTO, 640, 480, 1, 4, 1, CT_OK, P (SMALL_TILE),
      "4-aligned: 5x4 = 20 exact tiles < 132, the small tile (4)"},
  {AUTO, 640, 480, 1, 8, 1, CT_OK, P (SMALL_TILE),
      "8-aligned: as 4-aligned, tile-128 is not tried off the 16 grid"},
  {AUTO, 5000, 40, 1, 8, 1, CT_OK, P (SMALL_TILE),
      "skinny needs 16; 40x1 exact tiles < 132: the small tile"},
  {AUTO, 1920, 1080, 1, 8, 1, CT_OK, P (EXACT),
      "15x9 = 135 exact tiles >= 132: exact (as big tiles, 40: small)"},
  {AUTO, 640, 480, 1, 2, 1, CT_OK, P (EXACT),
      "2-aligned: the small tile needs 4, so exact"},
  {AUTO, 1920, 1080, 1, 1, 1, CT_OK, P (EXACT), "odd: exact"},
  {AUTO, 15, 4096, 1, 1, 1, CT_OK, P (THIN),
      "bytes are always aligned to their size: thin"},
  /* auto, a lone 2-byte plane: streams from any number of big tiles */
  {AUTO, 1920, 1080, 2, 16, 1, CT_OK, P (STREAM),
      "15x5 = 75 big tiles <= 2112: streams (no lower bound but bytes')"},
  {AUTO, 3840, 2160, 2, 16, 1, CT_OK, P (STREAM), "30x9 = 270 big tiles"},
  {AUTO, 16384, 16384, 2, 16, 1, CT_OK, P (WIDE_SWIZZLE),
      "128x64 = 8192 big tiles > 2112: the swizzle"},
  {AUTO, 5000, 40, 2, 16, 1, CT_OK, P (STREAM),
      "the skinny tile is for bytes only; 40x1 big tiles stream"},
  {AUTO, 1920, 1080, 2, 4, 1, CT_OK, P (SMALL_TILE),
      "no big tile (4-aligned): other sizes take the small tile"},
  {AUTO, 1920, 1080, 2, 2, 1, CT_OK, P (EXACT),
      "2-aligned: the small tile needs 4"},
  {AUTO, 10, 1000, 2, 2, 1, CT_OK, P (THIN),
      "thin, aligned to its 2 bytes: the thin path"},
  {AUTO, 10, 1000, 2, 1, 1, CT_OK, P (EXACT),
      "thin but odd: no thin path, no tile takes a thin plane: exact"},
  /* auto, a lone 4-byte plane: tile-64 unless it has 264 to 2112 big
   * tiles and is a stream tile wide and tall (64x128) */
  {AUTO, 1920, 1080, 4, 16, 1, CT_OK, P (TILE_64),
      "30x5 = 150 big tiles < 264: tile-64"},
  {AUTO, 3840, 2160, 4, 16, 1, CT_OK, P (STREAM),
      "60x9 = 540 big tiles in 264..2112: streams"},
  {AUTO, 1536, 2816, 4, 16, 1, CT_OK, P (STREAM),
      "24x11 = 264 big tiles: streams from there"},
  {AUTO, 16832, 256, 4, 16, 1, CT_OK, P (TILE_64),
      "263x1 big tiles, one under 264: tile-64"},
  {AUTO, 8192, 8192, 4, 16, 1, CT_OK, P (TILE_64),
      "128x32 = 4096 big tiles > 2112: tile-64 (docs: 8192x8192)"},
  {AUTO, 262144, 64, 4, 16, 1, CT_OK, P (TILE_64),
      "4096x1 big tiles: tile-64 (docs: 262144x64)"},
  {AUTO, 40000, 128, 4, 16, 1, CT_OK, P (STREAM),
      "625 big tiles, 128 tall: streams"},
  {AUTO, 40000, 100, 4, 16, 1, CT_OK, P (TILE_64),
      "625 big tiles but under 128 tall (a stream tile): tile-64"},
  {AUTO, 64, 100000, 4, 16, 1, CT_OK, P (STREAM),
      "1x391 big tiles, 64 wide: streams"},
  {AUTO, 60, 100000, 4, 16, 1, CT_OK, P (TILE_64),
      "391 big tiles but under 64 wide (a stream tile): tile-64"},
  {AUTO, 1920, 1080, 4, 4, 1, CT_OK, P (EXACT),
      "4-aligned alone: no big tile, so no tile-64 either; 30x9 = 270 "
      "stream tiles < 330: the exact kernel"},
  {AUTO, 4097, 4095, 4, 4, 1, CT_OK, P (STREAM_WORDS),
      "a float32 tensor's packed rows, 65x32 = 2080 stream tiles: "
      "streamed words"},
  {AUTO, 2561, 1441, 4, 8, 1, CT_OK, P (STREAM_WORDS),
      "8-aligned alone, 41x12 = 492 stream tiles >= 330: streamed words"},
  {AUTO, 1917, 1083, 4, 4, 1, CT_OK, P (EXACT),
      "30x9 = 270 stream tiles < 330: the exact kernel"},
  {AUTO, 2241, 1261, 4, 4, 1, CT_OK, P (STREAM_WORDS),
      "36x10 = 360 stream tiles >= 330: streamed words"},
  {K (AUTO), P (STREAM_WORDS), 1920, 1080, 4, 16, 1, CT_OK,
      P (STREAM_WORDS), "streamed words forced on an aligned plane"},
  {K (AUTO), P (STREAM_WORDS), 1920, 1080, 4, 2, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE),
      "streamed words copy whole elements: 2-aligned is refused"},
  {K (AUTO), P (STREAM_WORDS), 1920, 1080, 8, 8, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "streamed words: 4-byte only"},
  {K (AUTO), P (STREAM_WORDS), 1920, 1080, 4, 4, 2,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE),
      "streamed words take one plane, not a batch"},
  {AUTO, 1920, 1080, 4, 4, 2, CT_OK, P (SMALL_TILE),
      "4-aligned batch: the small tile (the exact kernel takes one plane)"},
  {AUTO, 1920, 1080, 4, 2, 1, CT_OK, P (EXACT), "2-aligned: exact"},
  {AUTO, 10, 1000, 4, 2, 1, CT_OK, P (EXACT),
      "thin but off its 4 bytes: exact"},
  /* auto, a lone 8-byte plane */
  {AUTO, 1920, 1080, 8, 16, 1, CT_OK, P (STREAM),
      "60x5 = 300 big tiles <= 2112: streams"},
  {AUTO, 8192, 8192, 8, 16, 1, CT_OK, P (WIDE_SWIZZLE),
      "256x32 = 8192 big tiles: the swizzle"},
  {AUTO, 1920, 1080, 8, 8, 1, CT_OK, P (SMALL_TILE),
      "8-aligned: the small tile (8-byte chunks)"},
  {AUTO, 1920, 1080, 8, 4, 1, CT_OK, P (EXACT),
      "4-aligned: the small tile of 8-byte elements needs 8"},
  {AUTO, 1000, 10, 8, 8, 1, CT_OK, P (THIN), "thin, 8-aligned: thin"},
  /* auto, a lone 3-byte plane: the rgb tile from 264 of them, else the
   * small tile */
  {AUTO, 1920, 1080, 3, 16, 1, CT_OK, P (SMALL_TILE),
      "15x9 = 135 rgb tiles < 264: the small tile (docs: 1920x1080)"},
  {AUTO, 1000, 1500, 3, 16, 1, CT_OK, P (SMALL_TILE),
      "8x12 = 96 rgb tiles: the small tile (docs: 1000x1500)"},
  {AUTO, 3072, 1408, 3, 16, 1, CT_OK, P (RGB_TILE),
      "24x11 = 264 rgb tiles: the rgb tile from there"},
  {AUTO, 33664, 128, 3, 16, 1, CT_OK, P (SMALL_TILE),
      "263x1 rgb tiles, one under 264: the small tile"},
  {AUTO, 3840, 2160, 3, 16, 1, CT_OK, P (RGB_TILE),
      "30x17 = 510 rgb tiles: the rgb tile"},
  {AUTO, 1920, 1080, 3, 4, 1, CT_OK, P (SMALL_TILE),
      "4-aligned: no rgb tile (16), and then the small tile, not the "
      "register tile that takes 4"},
  {AUTO, 1920, 1080, 3, 2, 1, CT_OK, P (EXACT), "2-aligned: exact"},
  {AUTO, 10, 1000, 3, 1, 1, CT_OK, P (THIN),
      "thin 3-byte planes move as bytes: thin at any alignment"},
  /* auto, a batch alone in its call: several planes, so as a frame */
  {AUTO, 1920, 1080, 1, 16, 8, CT_OK, P (WIDE),
      "8 planes: no stream or tile-128 (one plane each); 8x40 = 320 big "
      "tiles >= 132: the register tile"},
  {AUTO, 640, 480, 1, 16, 2, CT_OK, P (SMALL_TILE),
      "2 planes of 3x2 big tiles, 12 < 132: the small tile"},
  {AUTO, 5000, 40, 1, 16, 4, CT_OK, P (SKINNY),
      "a batch alone in its call takes the skinny tile, of any size (the "
      "mid tile takes one plane)"},
  {AUTO, 1920, 1080, 4, 16, 2, CT_OK, P (WIDE),
      "2 planes: a frame's big tile is the register one, no tile-64"},
  {AUTO, 1920, 1080, 3, 16, 2, CT_OK, P (WIDE),
      "2 planes of 3 bytes: the register tile, no rgb tile"},
  {AUTO, 1920, 1080, 3, 4, 2, CT_OK, P (WIDE),
      "in a frame the 3-byte register tile takes 4-aligned planes"},
  /* the named variants: their own tile, else thin, else exact */
  {K (WIDE), P (NONE), 1920, 1080, 1, 16, 1, CT_OK, P (WIDE), "own"},
  {K (WIDE), P (NONE), 1920, 1080, 3, 4, 1, CT_OK, P (WIDE),
      "3-byte register tile: 4-aligned is enough"},
  {K (WIDE), P (NONE), 1920, 1080, 1, 8, 1, CT_OK, P (EXACT),
      "off the 16 grid: exact (never the small tile)"},
  {K (WIDE), P (NONE), 5000, 40, 1, 16, 1, CT_OK, P (WIDE),
      "no skinny tile for a named variant"},
  {K (WIDE), P (NONE), 15, 4096, 8, 8, 1, CT_OK, P (THIN), "thin"},
  {K (WIDE), P (NONE), 10, 1000, 2, 1, 1, CT_OK, P (EXACT),
      "thin but odd: exact"},
  {K (WIDE_PADDED), P (NONE), 1920, 1080, 2, 16, 1, CT_OK,
      P (WIDE_PADDED), "own"},
  {K (WIDE_PADDED), P (NONE), 1920, 1080, 3, 16, 1, CT_OK, P (RGB_TILE),
      "3-byte elements under a staged variant: the rgb tile"},
  {K (WIDE_PADDED), P (NONE), 1920, 1080, 3, 4, 1, CT_OK, P (EXACT),
      "the rgb tile needs 16: exact"},
  {K (WIDE_SWIZZLE), P (NONE), 16384, 16384, 4, 16, 1, CT_OK,
      P (WIDE_SWIZZLE), "own, where auto would take tile-64"},
  {K (WIDE_SWIZZLE), P (NONE), 8000, 6000, 1, 16, 1, CT_OK,
      P (WIDE_SWIZZLE), "own, where auto would stream"},
  {K (WIDE_SWIZZLE), P (NONE), 3840, 2160, 3, 16, 1, CT_OK, P (RGB_TILE),
      "3-byte: the rgb tile"},
  {K (WIDE_SWIZZLE), P (NONE), 1920, 1080, 8, 16, 3, CT_OK,
      P (WIDE_SWIZZLE), "own, on a batch too"},
  /* forced paths: taken where they fit, refused where they do not */
  {K (AUTO), P (STREAM), 1920, 1080, 1, 16, 1, CT_OK, P (STREAM),
      "stream forced where auto takes tile-128: it fits"},
  {K (AUTO), P (STREAM), 1920, 1080, 1, 16, 2, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "stream takes one plane, not a batch"},
  {K (AUTO), P (STREAM), 1920, 1080, 3, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "no 3-byte stream"},
  {K (AUTO), P (TILE_64), 1920, 1080, 2, 16, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "tile-64 is 4-byte only"},
  {K (AUTO), P (TILE_128), 640, 480, 1, 8, 1, CT_OK, P (TILE_128),
      "tile-128 needs 8-aligned only"},
  {K (AUTO), P (TILE_128), 640, 480, 1, 4, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "tile-128 on 4-aligned: refused"},
  {K (AUTO), P (TILE_128), 640, 480, 2, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "tile-128 is for bytes"},
  {K (AUTO), P (TILE_128_LINES), 3840, 2160, 1, 16, 1, CT_OK,
      P (TILE_128_LINES), "tile-128-lines forced, 16-aligned"},
  {K (AUTO), P (TILE_128_LINES), 640, 480, 1, 8, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE),
      "tile-128-lines on 8-aligned: refused (whole 16-byte chunks)"},
  {K (AUTO), P (TILE_128_LINES), 1920, 1080, 1, 16, 2,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE),
      "tile-128-lines takes one plane, not a batch"},
  {K (AUTO), P (TILE_128_LINES), 640, 480, 2, 16, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "tile-128-lines is for bytes"},
  {K (AUTO), P (SKINNY), 100, 64, 1, 16, 1, CT_OK, P (SKINNY),
      "64 tall: skinny"},
  {K (AUTO), P (SKINNY), 100, 100, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "both sides over 64: no skinny tile"},
  {K (AUTO), P (THIN), 100, 100, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "thin forced on a plane that is not"},
  {K (AUTO), P (SMALL_TILE), 15, 4096, 1, 16, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "no tile takes a thin plane"},
  {K (AUTO), P (WIDE), 1920, 1080, 1, 8, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "the big tile needs 16"},
  {K (AUTO), P (RGB_TILE), 1920, 1080, 3, 16, 1, CT_OK, P (RGB_TILE),
      "the rgb tile forced where auto takes the register one"},
  {K (AUTO), P (RGB_TILE), 1920, 1080, 4, 16, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "the rgb tile is 3-byte only"},
  {K (AUTO), P (EXACT), 1920, 1080, 3, 1, 1, CT_OK, P (EXACT),
      "exact takes anything"},
  {K (WIDE), P (WIDE_SWIZZLE), 1920, 1080, 1, 16, 1, CT_OK,
      P (WIDE_SWIZZLE), "a forced path wins over the variant's own"},
  {K (AUTO), P (FLIP), 1920, 1080, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "flip is not the planner's (the axes swap here)"},
  {K (AUTO), P (TILED), 1920, 1080, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "a seed's path is not the planner's"},
  /* refused calls */
  {K (NAIVE), P (NONE), 640, 480, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "the seeds are their own path, not planned"},
  {K (TILED_64), P (NONE), 640, 480, 1, 16, 1,
      CT_ERROR_UNSUPPORTED_KERNEL, P (NONE), "not planned"},
  {K (CPU), P (NONE), 640, 480, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "the cpu variant is not the GPU's"},
  {K (COUNT), P (NONE), 640, 480, 1, 16, 1, CT_ERROR_UNSUPPORTED_KERNEL,
      P (NONE), "no such variant"},
  {AUTO, 640, 480, 5, 16, 1, CT_ERROR_UNSUPPORTED_ELEMENT_SIZE, P (NONE),
      "5-byte elements"},
  {AUTO, 640, 480, 16, 16, 1, CT_ERROR_UNSUPPORTED_ELEMENT_SIZE, P (NONE),
      "16-byte elements: 8 is the largest"},
  {AUTO, 4194304, 4194304, 4, 1, 1, CT_ERROR_INVALID_ARGUMENT, P (NONE),
      "odd: exact, 65536x65536 tiles of 64x64, more than a grid's 2^31 - 1"},
  {AUTO, 4194304, 4194304, 1, 1, 1, CT_OK, P (EXACT),
      "odd bytes: exact, 32768x32768 tiles of 128x128 fit a grid"},
  {AUTO, 4194304, 4194304, 1, 16, 1, CT_OK, P (WIDE_SWIZZLE),
      "aligned: 16384x16384 big tiles fit a grid"},
};

/* A call of several entries under auto. */
typedef struct
{
  unsigned int w, h, es, align, count;
  CtPath path;
} Part;

typedef struct
{
  unsigned int n;
  Part part[3];
  CtPath ran;
  const char *why;
} Frame;

static const Frame frames[] = {
  {3, {{1920, 1080, 1, 16, 1, P (TILE_128_LINES)},
          {960, 540, 1, 16, 1, P (TILE_128_LINES)},
          {960, 540, 1, 16, 1, P (TILE_128_LINES)}}, P (TILE_128_LINES),
      "I420 1080p: widths of whole 64 bytes, 3110400 bytes >= 132 x 8 KB: "
        "a lines frame"},
  {3, {{1280, 720, 1, 16, 1, P (TILE_128_LINES)},
          {640, 360, 1, 16, 1, P (TILE_128_LINES)},
          {640, 360, 1, 16, 1, P (TILE_128_LINES)}}, P (TILE_128_LINES),
      "I420 720p: 1382400 bytes >= 132 x 8 KB (1081344): a lines frame"},
  {3, {{640, 480, 1, 16, 1, P (SMALL_TILE)},
          {320, 240, 1, 16, 1, P (SMALL_TILE)},
          {320, 240, 1, 16, 1, P (SMALL_TILE)}}, P (SMALL_TILE),
      "I420 640x480: 460800 bytes < 132 x 8 KB: no lines frame; 6 + 2 + "
        "2 big tiles < 132, the small tile"},
  {3, {{1918, 1082, 1, 16, 1, P (SMALL_TILE)},
          {959, 541, 1, 16, 1, P (SMALL_TILE)},
          {959, 541, 1, 16, 1, P (SMALL_TILE)}}, P (SMALL_TILE),
      "I420 1918x1082: widths not of whole 64 bytes, no lines frame; "
        "8x5 + 4x3 + 4x3 = 64 < 132, the small tile"},
  {3, {{3840, 2160, 1, 16, 1, P (TILE_128_LINES)},
          {1920, 1080, 1, 16, 1, P (TILE_128_LINES)},
          {1920, 1080, 1, 16, 1, P (TILE_128_LINES)}}, P (TILE_128_LINES),
      "I420 4K: a frame of byte planes, the lines tile"},
  {3, {{1920, 1080, 1, 16, 1, P (TILE_128_LINES)},
          {960, 540, 1, 8, 1, P (SMALL_TILE)},
          {960, 540, 1, 8, 1, P (SMALL_TILE)}}, P (TILE_128_LINES),
      "chroma 8-aligned: no lines tile (16) for it; 40 + 12 + 12 = 64 big "
        "tiles < 132, the small tile"},
  {3, {{3840, 2160, 1, 16, 1, P (WIDE)}, {1920, 1080, 1, 16, 2, P (WIDE)},
          {1920, 1080, 1, 16, 1, P (WIDE)}}, P (WIDE),
      "a batch among byte planes: no frame of planes; 135 + 80 + 40 big "
        "tiles >= 132, the register tile"},
  {2, {{3840, 400, 1, 16, 1, P (TILE_128_LINES)},
          {1920, 10, 1, 16, 1, P (THIN)}}, P (TILE_128_LINES),
      "a thin plane in a lines frame: thin, the other lines"},
  {2, {{1920, 1080, 1, 16, 1, P (WIDE)}, {960, 540, 2, 16, 1, P (WIDE)}},
      P (WIDE), "NV12 1080p: other sizes, so big tiles, wide"},
  {2, {{5000, 40, 1, 16, 1, P (SMALL_TILE)},
          {64, 64, 1, 16, 1, P (SMALL_TILE)}}, P (SMALL_TILE),
      "two entries: no skinny; 5000 wide, not a multiple of 64: no lines "
        "frame; 20 + 1 big tiles < 132: small"},
  {2, {{5056, 40, 1, 16, 1, P (SMALL_TILE)},
          {64, 64, 1, 16, 1, P (SMALL_TILE)}}, P (SMALL_TILE),
      "5056 and 64 wide, but 206336 bytes < 132 x 8 KB: no lines frame; "
        "20 + 1 big tiles < 132, small"},
  {2, {{5056, 256, 1, 16, 1, P (TILE_128_LINES)},
          {64, 64, 1, 16, 1, P (TILE_128_LINES)}}, P (TILE_128_LINES),
      "5056 and 64 wide, 1298432 bytes >= 132 x 8 KB: a lines frame"},
  {2, {{5000, 40, 2, 16, 1, P (WIDE)}, {64, 64, 2, 16, 1, P (WIDE)}},
      P (WIDE), "2-byte planes: no frame of byte planes; the register "
        "tile"},
  {2, {{1920, 1080, 4, 16, 1, P (WIDE)}, {8, 1000, 4, 16, 1, P (THIN)}},
      P (WIDE), "a thin plane beside a big one: thin, and wide"},
  {2, {{100, 100, 8, 16, 1, P (WIDE)}, {5000, 10, 1, 16, 1, P (THIN)}},
      P (WIDE), "ran: the most bytes (80000 against 50000), not elements"},
  {2, {{100, 100, 4, 16, 1, P (WIDE)}, {4000, 10, 1, 16, 1, P (THIN)}},
      P (WIDE), "ran: 40000 bytes each, the first of equals"},
  {2, {{4000, 10, 1, 16, 1, P (THIN)}, {100, 100, 4, 16, 1, P (WIDE)}},
      P (THIN), "ran: the first of equals, the other order"},
  {2, {{0, 1080, 1, 16, 1, P (NONE)}, {1920, 1080, 1, 16, 1,
              P (TILE_128_LINES)}},
      P (TILE_128_LINES), "an empty plane is no plane: the other is alone"},
  {2, {{0, 0, 1, 16, 1, P (NONE)}, {640, 480, 1, 16, 0, P (NONE)}},
      P (NONE), "nothing to move: no path"},
};

static void
run_cases (void)
{
  char what[256];
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const Case *c = &cases[i];
    CtPlaneBatch b = batch (c->w, c->h, c->es, c->align, c->count, 0);
    CtPath path = P (NONE), ran = P (NONE);
    CtResult res = ct_plan_batches (&h100, &b, 1, c->kernel, c->force,
        &path, &ran);

    if (res != CT_OK)
      path = P (NONE);
    snprintf (what, sizeof what, "%s%s%s %ux%u %uB align %u x%u: got %d "
        "%s, expected %d %s (%s)", ct_kernel_name (c->kernel),
        c->force != P (NONE) ? " forced " : "",
        c->force != P (NONE) ? ct_path_name (c->force) : "", c->w, c->h,
        c->es, c->align, c->count, res, ct_path_name (path), c->res,
        ct_path_name (c->path), c->why);
    check (res == c->res && path == c->path &&
        (res != CT_OK || ran == path), what);
  }
}

static void
run_frames (void)
{
  char what[256];
  size_t i;
  unsigned int k;

  for (i = 0; i < sizeof frames / sizeof frames[0]; i++) {
    const Frame *f = &frames[i];
    CtPlaneBatch b[3];
    CtPath paths[3], ran = P (COUNT);
    CtResult res;
    int ok;

    for (k = 0; k < f->n; k++)
      b[k] = batch (f->part[k].w, f->part[k].h, f->part[k].es,
          f->part[k].align, f->part[k].count, k);
    res = ct_plan_batches (&h100, b, f->n, K (AUTO), P (NONE), paths, &ran);
    ok = res == CT_OK && ran == f->ran;
    for (k = 0; ok && k < f->n; k++)
      ok = paths[k] == f->part[k].path;
    snprintf (what, sizeof what, "frame %zu: got %d, ran %s, first %s (%s)",
        i, res, ct_path_name (ran), ct_path_name (paths[0]), f->why);
    check (ok, what);
  }
}

/* More entries than the planner keeps on its stack (16): 20 byte planes
 * of one big tile each, 20 < 132, all the small tile. */
static void
run_many (void)
{
  CtPlaneBatch b[20];
  CtPath paths[20], ran = P (NONE);
  CtResult res;
  unsigned int k;
  int ok;

  for (k = 0; k < 20; k++)
    b[k] = batch (64, 64, 1, 16, 1, k);
  res = ct_plan_batches (&h100, b, 20, K (AUTO), P (NONE), paths, &ran);
  ok = res == CT_OK && ran == P (SMALL_TILE);
  for (k = 0; ok && k < 20; k++)
    ok = paths[k] == P (SMALL_TILE);
  check (ok, "20 byte planes of 64x64: 81920 bytes, no lines frame (bytes, "
      "not tiles); 20 big tiles < 132, all the small tile");
}

/* The lines tile forced on calls of several entries: it takes byte planes,
 * every plane of a call in one launch, but no batch and no other size. */
static void
run_forced_lines (void)
{
  CtPlaneBatch b[3];
  CtPath paths[3], ran = P (NONE);
  CtResult res;

  b[0] = batch (3840, 2160, 1, 16, 1, 0);
  b[1] = batch (1920, 1080, 1, 16, 1, 1);
  b[2] = batch (1920, 1080, 1, 16, 1, 2);
  res = ct_plan_batches (&h100, b, 3, K (AUTO), P (TILE_128_LINES), paths,
      &ran);
  check (res == CT_OK && ran == P (TILE_128_LINES) &&
      paths[0] == P (TILE_128_LINES) && paths[1] == P (TILE_128_LINES) &&
      paths[2] == P (TILE_128_LINES),
      "tile-128-lines forced on an I420 frame: every plane");
  b[1] = batch (960, 1080, 2, 16, 1, 1);
  check (ct_plan_batches (&h100, b, 2, K (AUTO), P (TILE_128_LINES), paths,
          &ran) == CT_ERROR_UNSUPPORTED_KERNEL,
      "tile-128-lines forced on an NV12 frame: refused (2-byte chroma)");
  b[1] = batch (1920, 1080, 1, 16, 2, 1);
  check (ct_plan_batches (&h100, b, 2, K (AUTO), P (TILE_128_LINES), paths,
          &ran) == CT_ERROR_UNSUPPORTED_KERNEL,
      "tile-128-lines forced beside a batch: refused");
  check (ct_plan_batches (&h100, b, 2, K (AUTO), P (TILE_128), paths,
          &ran) == CT_ERROR_UNSUPPORTED_KERNEL,
      "tile-128 forced on two entries: refused (one plane)");
}

/* A tensor's two batch dimensions (ct_plan_two_levels): one launch where
 * every copy of the batch takes the register tile alike, on the lines tile
 * for byte planes; else the batches as ct_plan_batches plans them, a
 * launch per CT_PLANES_PER_LAUNCH. */
static void
run_two_levels (void)
{
  /* 16x16 planes of 256x256 bytes, NCHW to CNWH: copy n (an image) 64 KB
   * on in the input, and its planes 16 planes apart in the output */
  CtPlaneBatch b = batch (256, 256, 1, 0, 16, 0);
  CtPath ran = P (NONE);
  int one = -1;

  b.plane.src_stride = b.plane.dst_stride = 256;
  b.src_step = 65536;
  b.dst_step = 16 * 65536;
  check (ct_plan_two_levels (&h100, &b, 16, 16 * 65536, 65536, &one,
          &ran) == CT_OK && one == 1 && ran == P (TILE_128_LINES),
      "16 x 16 byte planes of 256x256: one launch on the lines tile");
  one = -1;
  {
    /* the same of 2-byte elements: the register tile */
    CtPlaneBatch h = batch (256, 256, 2, 0, 16, 0);

    h.plane.src_stride = h.plane.dst_stride = 512;
    h.src_step = 131072;
    h.dst_step = 16 * 131072;
    check (ct_plan_two_levels (&h100, &h, 16, 16 * 131072, 131072, &one,
            &ran) == CT_OK && one == 1 && ran == P (WIDE),
        "16 x 16 2-byte planes of 256x256: one launch on the register "
        "tile");
    one = -1;
  }
  check (ct_plan_two_levels (&h100, &b, 1, 0, 0, &one, NULL) == CT_OK &&
      one == 0, "a single batch: the launches of ct_plan_batches");
  one = -1;
  /* every other copy 4 bytes off 16: the register tile takes only half */
  check (ct_plan_two_levels (&h100, &b, 16, 16 * 65536 + 4, 65536, &one,
          NULL) == CT_OK && one == 0,
      "copies planned on different tiles: the batches' launches");

  /* thin planes (8 rows): the thin path, not the register kernel */
  b = batch (300, 8, 4, 0, 16, 0);
  one = -1;
  check (ct_plan_two_levels (&h100, &b, 16, 1 << 20, 1 << 20, &one, &ran)
      == CT_OK && one == 0 && ran == P (THIN), "thin planes: their path");

  /* more blocks than a grid holds in one launch: the batches' launches */
  b = batch (256, 256, 1, 0, 65535, 0);
  b.plane.src_stride = b.plane.dst_stride = 256;
  b.src_step = b.dst_step = 65536;
  one = -1;
  check (ct_plan_two_levels (&h100, &b, 40000, 1ull << 32, 1ull << 32,
          &one, NULL) == CT_OK && one == 0,
      "65535 x 40000 planes: past one grid");

  /* refused as ct_transpose_batches_ex refuses it, nothing planned */
  b = batch (256, 256, 1, 0, 16, 0);
  b.plane.src = NULL;
  check (ct_plan_two_levels (&h100, &b, 16, 65536, 65536, &one, NULL) ==
      CT_ERROR_INVALID_ARGUMENT, "a NULL plane: refused");
}

/* Calls the checks refuse before planning. */
static void
run_invalid (void)
{
  CtPlaneBatch b = batch (640, 480, 1, 16, 1, 0);
  CtPath path;

  b.plane.src_stride = 639;
  check (ct_plan_batches (&h100, &b, 1, K (AUTO), P (NONE), &path, NULL) ==
      CT_ERROR_INVALID_ARGUMENT, "a stride shorter than a row is refused");
  b = batch (640, 480, 1, 16, 1, 0);
  b.plane.src = NULL;
  check (ct_plan_batches (&h100, &b, 1, K (AUTO), P (NONE), &path, NULL) ==
      CT_ERROR_INVALID_ARGUMENT, "a plane without a source is refused");
  check (ct_plan_batches (&h100, NULL, 1, K (AUTO), P (NONE), &path, NULL) ==
      CT_ERROR_INVALID_ARGUMENT, "a call without its list is refused");
  check (ct_plan_batches (&h100, NULL, 0, K (AUTO), P (NONE), NULL, NULL) ==
      CT_OK, "an empty call is planned (nothing to do)");
}

/* ---- Rules over a sweep of shapes, sizes, alignments and variants ---- */

/* The element sizes a path takes, as bits 1 << size. */
static unsigned int
path_sizes (CtPath p)
{
  const unsigned int all = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 8;

  switch (p) {
    case P (WIDE_PADDED):
    case P (WIDE_SWIZZLE):
    case P (STREAM):
      return all & ~(1u << 3);
    case P (RGB_TILE):
      return 1u << 3;
    case P (TILE_64):
    case P (STREAM_WORDS):
      return 1u << 4;
    case P (TILE_128):
    case P (TILE_128_LINES):
    case P (SKINNY):
      return 1u << 1;
    case P (WIDE):
    case P (SMALL_TILE):
    case P (THIN):
    case P (EXACT):
      return all;
    default:
      return 0;                 /* not a path of the planner */
  }
}

/* The alignment a path needs of a plane of @es-byte elements. */
static unsigned int
path_align (CtPath p, unsigned int es)
{
  switch (p) {
    case P (WIDE):
      return es == 3 ? 4 : 16;
    case P (TILE_128):
      return 8;
    case P (SMALL_TILE):
      return es == 8 ? 8 : 4;
    case P (STREAM_WORDS):
      return 4;
    case P (THIN):
      return es == 3 ? 1 : es;
    case P (EXACT):
      return 1;
    default:
      return 16;
  }
}

/* The 128x64 tiles of plane @pl (a stream's). */
static unsigned long long
stream_tiles (const CtPlane * pl)
{
  return (unsigned long long) ((pl->width + 63) / 64) *
      ((pl->height + 127) / 128);
}

/* A named variant's own path for @es-byte elements. */
static CtPath
own_path (CtKernel kernel, unsigned int es)
{
  switch (kernel) {
    case K (WIDE_PADDED):
      return es == 3 ? P (RGB_TILE) : P (WIDE_PADDED);
    case K (WIDE_SWIZZLE):
      return es == 3 ? P (RGB_TILE) : P (WIDE_SWIZZLE);
    default:
      return P (WIDE);
  }
}

static int
planned (CtKernel kernel)
{
  return kernel == K (AUTO) || kernel == K (WIDE) ||
      kernel == K (WIDE_PADDED) || kernel == K (WIDE_SWIZZLE);
}

/* The rules for plane @b alone in its call under @kernel. */
static void
check_rules (CtKernel kernel, const CtPlaneBatch * b, unsigned int align)
{
  const CtPlane *pl = &b->plane;
  const unsigned int es = pl->elem_size;
  const int thin = pl->width < 16 || pl->height < 16;
  const int native = align % es == 0 || es == 3;
  const int one_plane = b->count == 1;
  CtPath path = P (COUNT), ran = P (COUNT), again = P (COUNT);
  CtResult res = ct_plan_batches (&h100, b, 1, kernel, P (NONE), &path,
      &ran);
  char what[256];
  int ok = 1;
  const char *rule = "";

  snprintf (what, sizeof what, "%s %ux%u %uB align %u x%u: ",
      ct_kernel_name (kernel), pl->width, pl->height, es, align, b->count);
  if (!planned (kernel)) {
    check (res == CT_ERROR_UNSUPPORTED_KERNEL,
        "a variant the planner does not plan is refused");
    return;
  }
  if (res != CT_OK) {
    rule = "every plane of the sweep is planned";
    ok = 0;
  } else if (ran != path) {
    rule = "a lone plane's path is the call's";
    ok = 0;
  } else if ((path_sizes (path) & (1u << es)) == 0) {
    rule = "the path takes the element size";
    ok = 0;
  } else if (align < path_align (path, es)) {
    rule = "the path takes the plane's alignment";
    ok = 0;
  } else if (thin && path != (native ? P (THIN) : P (EXACT))) {
    rule = "a thin plane: thin where aligned to its element, else exact";
    ok = 0;
  } else if (!thin && path == P (THIN)) {
    rule = "thin only for planes under 16 rows or columns";
    ok = 0;
  } else if (!one_plane && (path == P (STREAM) || path == P (TILE_64) ||
          path == P (TILE_128) || path == P (TILE_128_LINES) ||
          path == P (STREAM_WORDS))) {
    rule = "stream, stream-words, tile-64 and the tile-128s only for one "
        "plane";
    ok = 0;
  } else if (path == P (SKINNY) && pl->width > 64 && pl->height > 64) {
    rule = "skinny only with a side of 64 or less";
    ok = 0;
  }
  if (ok) {
    /* the path fits: forced, it is taken */
    res = ct_plan_batches (&h100, b, 1, kernel, path, &again, NULL);
    if (res != CT_OK || again != path) {
      rule = "the path chosen is one that fits (forced, it is taken)";
      ok = 0;
    }
  }
  if (ok && kernel != K (AUTO)) {
    const CtPath own = own_path (kernel, es);
    const CtResult own_res = ct_plan_batches (&h100, b, 1, kernel, own,
        &again, NULL);

    if (path != own && path != P (THIN) && path != P (EXACT)) {
      rule = "a named variant runs its own path, thin or exact";
      ok = 0;
    } else if (!thin && own_res == CT_OK && path != own) {
      rule = "a named variant falls back only where its path cannot go";
      ok = 0;
    }
  }
  if (ok && kernel == K (AUTO)) {
    if (path == P (WIDE_PADDED)) {
      rule = "auto never takes the padded tile";
      ok = 0;
    } else if (one_plane && path == P (WIDE)) {
      rule = "a lone plane never takes the register tile (its big tile is "
          "the swizzle, 3-byte: the rgb tile; else a smaller one)";
      ok = 0;
    } else if (!one_plane && (path == P (WIDE_SWIZZLE) ||
            path == P (RGB_TILE))) {
      rule = "a call of several planes takes the register tile";
      ok = 0;
    } else if (one_plane && es == 4 && !thin && align % 4 == 0 &&
        align % 16 != 0 && path != (stream_tiles (pl) * 2 >= 5 * 132 ?
            P (STREAM_WORDS) : P (EXACT))) {
      rule = "a lone 4-byte plane in elements, not in 16-byte words, "
          "streams in words from 2.5 tiles of 128x64 per multiprocessor, "
          "else takes the exact kernel";
      ok = 0;
    }
  }
  if (!ok) {
    snprintf (what + strlen (what), sizeof what - strlen (what),
        "%s: %d %s", rule, res, ct_path_name (path));
    check (0, what);
    return;
  }
  n_passed++;
}

/* Calls of several entries: each entry's path takes its size and
 * alignment, the alone paths are never in a call of several planes (or
 * entries, for skinny; empty ones do not count), and
 * the call reports the path of its entry of the most bytes (the first of
 * equal ones). */
static unsigned long long rng_state = 0x5eed;

static unsigned int
rng (unsigned int n)
{
  /* splitmix64 */
  unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (unsigned int) ((z ^ (z >> 31)) % n);
}

static void
run_random_frames (void)
{
  static const unsigned int sides[] = { 0, 1, 8, 15, 16, 40, 64, 65, 100,
    256, 257, 540, 960, 1080, 1920, 2160, 3840
  };
  static const unsigned int sizes[] = { 1, 1, 1, 2, 3, 4, 8 };
  static const unsigned int aligns[] = { 1, 2, 4, 8, 16, 16, 16 };
  static const CtKernel kernels[] = { K (AUTO), K (AUTO), K (WIDE),
    K (WIDE_PADDED), K (WIDE_SWIZZLE)
  };
  int passed = n_passed, failed = n_failed;
  int round, lines_frames = 0;

  for (round = 0; round < 20000; round++) {
    CtPlaneBatch b[6];
    unsigned int align[6];
    CtPath paths[6], ran = P (COUNT);
    const unsigned int n = 2 + rng (5);
    const CtKernel kernel = kernels[rng (5)];
    unsigned long long planes = 0;
    unsigned int entries = 0;
    double most = -1;
    CtPath largest = P (NONE);
    CtResult res;
    unsigned int k;
    int ok = 1, byte_frame, lines_frame;
    unsigned long long frame_bytes;

    for (k = 0; k < n; k++) {
      align[k] = aligns[rng (7)];
      b[k] = batch (sides[rng (17)], sides[rng (17)], sizes[rng (7)],
          align[k], rng (4) == 0 ? rng (4) : 1, k);
      if (b[k].plane.width && b[k].plane.height && b[k].count) {
        planes += b[k].count;
        entries++;
      }
    }
    /* auto on two or more entries, all single byte planes of whole
     * 64-byte widths: the lines tile may run; and does, on every plane it
     * takes, where they make 132 x 8 KB (an eighth of a big tile's
     * 64 KB a multiprocessor) or more */
    byte_frame = kernel == K (AUTO) && entries > 1;
    frame_bytes = 0;
    for (k = 0; k < n; k++) {
      const CtPlane *pl = &b[k].plane;

      if (pl->width == 0 || pl->height == 0 || b[k].count == 0)
        continue;
      byte_frame = byte_frame && b[k].count == 1 && pl->elem_size == 1 &&
          pl->width % 64 == 0;
      frame_bytes += (unsigned long long) pl->width * pl->height;
    }
    lines_frame = byte_frame && frame_bytes >= 132ull * 8192;
    lines_frames += lines_frame;
    res = ct_plan_batches (&h100, b, n, kernel, P (NONE), paths, &ran);
    for (k = 0; res == CT_OK && ok && k < n; k++) {
      const CtPlane *pl = &b[k].plane;
      const double bytes = (double) pl->width * pl->height * pl->elem_size *
          b[k].count;

      if (pl->width == 0 || pl->height == 0 || b[k].count == 0) {
        ok = paths[k] == P (NONE);
        continue;
      }
      /* the lines tile only for a lone plane or a frame of byte planes,
       * where it takes every plane it can (not thin, 16-aligned) */
      ok = (path_sizes (paths[k]) & (1u << pl->elem_size)) != 0 &&
          align[k] >= path_align (paths[k], pl->elem_size) &&
          (planes == 1 || (paths[k] != P (STREAM) &&
              paths[k] != P (TILE_64) && paths[k] != P (TILE_128) &&
              paths[k] != P (STREAM_WORDS))) &&
          (planes == 1 || byte_frame || paths[k] != P (TILE_128_LINES)) &&
          (!lines_frame || pl->width < 16 || pl->height < 16 ||
              align[k] < 16 || paths[k] == P (TILE_128_LINES)) &&
          (entries == 1 || paths[k] != P (SKINNY));
      if (bytes > most) {
        most = bytes;
        largest = paths[k];
      }
    }
    if (res != CT_OK || !ok || ran != largest) {
      printf ("FAIL random call %d (%s, %u entries): %d, entry %u %s, ran "
          "%s for %s\n", round, ct_kernel_name (kernel), n, res, k - 1,
          ct_path_name (paths[k - 1]), ct_path_name (ran),
          ct_path_name (largest));
      n_failed++;
    } else {
      n_passed++;
    }
  }
  printf ("random calls: %d passed, %d failed (%d of them lines frames)\n",
      n_passed - passed, n_failed - failed, lines_frames);
  /* (the rule is only checked if some calls are such frames) */
  check (lines_frames > 0, "random calls: some are lines frames");
}

static void
run_sweep (void)
{
  static const unsigned int sides[] = { 1, 2, 15, 16, 17, 31, 40, 64, 65,
    100, 128, 255, 256, 257, 333, 640, 1000, 1080, 1920, 2160, 3840, 4096,
    5000, 8192
  };
  static const unsigned int sizes[] = { 1, 2, 3, 4, 8 };
  static const unsigned int aligns[] = { 1, 2, 4, 8, 16 };
  const size_t n_sides = sizeof sides / sizeof sides[0];
  int passed = n_passed, failed = n_failed;
  size_t w, h, e, a;
  int k;

  for (k = 0; k < CT_KERNEL_COUNT; k++)
    for (w = 0; w < n_sides; w++)
      for (h = 0; h < n_sides; h++)
        for (e = 0; e < 5; e++)
          for (a = 0; a < 5; a++) {
            CtPlaneBatch b = batch (sides[w], sides[h], sizes[e], aligns[a],
                1, 0);

            check_rules ((CtKernel) k, &b, aligns[a]);
            b.count = 3;
            check_rules ((CtKernel) k, &b, aligns[a]);
          }
  printf ("sweep: %d passed, %d failed\n", n_passed - passed,
      n_failed - failed);
}

int
main (void)
{
  run_cases ();
  run_frames ();
  run_forced_lines ();
  run_many ();
  run_two_levels ();
  run_invalid ();
  run_sweep ();
  run_random_frames ();
  printf ("%d passed, %d failed\n", n_passed, n_failed);
  return n_failed ? 1 : 0;
}
