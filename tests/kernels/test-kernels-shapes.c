/* The kernels' test (test-kernels.c): the single-plane groups, in the
 * order they run: small shapes, the wide kernels' tile edges, large
 * shapes, long thin planes, streamed planes, planes past the grid's y
 * limit and skinny byte planes, each under the transpose and, where the
 * group says so, the mirrored mappings and the flips (the mappings that
 * keep the axes). */
#include "kernels-check.h"

/* Every group of single-plane frames (run_group), each skipped unless
 * wanted. */
void
run_shape_groups (cudaStream_t stream)
{
  /* tile edges, ragged edges, single rows and columns */
  static const unsigned int small_shapes[][2] = {
    {1, 1}, {1, 1024}, {1024, 1}, {33, 65}, {31, 17}, {64, 64},
  };
  /* several tiles each way, neither a multiple of any tile */
  static const unsigned int big_shapes[][2] = {
    {512, 1024}, {1000, 1500},
  };
  /* thin planes long enough that the thin path moves several elements per
   * thread (on an H200, 4 and 8; the planner's kAuto.thin_blocks_per_sm),
   * ragged at the end */
  static const unsigned int long_thin_shapes[][2] = {
    {3, 2000001}, {2000001, 9},
  };
  /* the wide kernels' tiles are 256, 128, 64, 64 and 32 elements square
   * for 1, 2, 3, 4 and 8 bytes: one past, one short, and micro-blocks cut
   * by the plane's edge in either direction; thin planes of several lines
   * and several blocks along each */
  static const unsigned int wide_shapes[][2] = {
    {257, 255}, {129, 300}, {65, 63}, {33, 31}, {15, 17}, {16, 16},
    {1, 300}, {300, 1}, {513, 70}, {5, 700}, {700, 9},
  };
  /* auto streams single planes of a few waves (a block moves several
   * tiles in turn): bytes from 1.5 tiles of 256x256 per multiprocessor
   * where the sides are whole tiles, so a plane of 16 x 14 of them (a
   * ragged one of as many tiles takes the mid tile; test-kernels-paths.c
   * forces the stream on one); the other sizes at more tiles than the
   * stream grid's 2 blocks per multiprocessor of an H200 (132) */
  static const unsigned int stream_byte_shapes[][2] = { {4096, 3584} };
  static const unsigned int stream_shapes[][2] = { {3001, 1499} };
  static const unsigned int stream_sizes[] = { 2, 4, 8 };
  static const unsigned int byte_size[] = { 1 };
  static const int stream_strides[] = { STRIDES_PITCHED, STRIDES_ODD_BASE };
  /* more tile rows (or, for naive-column, columns) than the grid's y limit
   * of 65535 blocks, so the kernels' loops over it run */
  static const unsigned int grid_shapes[][2] = {
    {1, 4300000}, {600000, 1},
  };
  /* byte planes with a short side of 16 to 64 (the skinny tiles: 64 rows
   * by 1024 bytes, 1024 rows by 64 bytes), ragged both ways */
  static const unsigned int skinny_shapes[][2] = {
    {5000, 64}, {3001, 40}, {64, 5000}, {33, 2001}, {1030, 17},
  };
  static const unsigned int some_sizes[] = { 1, 3, 8 };
  static const unsigned int grid_sizes[] = { 1, 4 };
  static const int every_strides[] = {
    STRIDES_ALIGNED, STRIDES_ODD, STRIDES_ODD_BASE, STRIDES_SRC_STRIDE,
    STRIDES_DST_STRIDE, STRIDES_SRC_BASE, STRIDES_DST_BASE, STRIDES_TIGHT,
    STRIDES_PITCHED, STRIDES_PITCHED_4, STRIDES_PITCHED_8,
  };
  static const int main_strides[] = {
    STRIDES_ALIGNED, STRIDES_ODD, STRIDES_ODD_BASE, STRIDES_PITCHED,
  };
  static const int wide_strides[] = {
    STRIDES_PITCHED, STRIDES_PITCHED_4, STRIDES_PITCHED_8, STRIDES_ODD,
  };
  static const int two_strides[] = { STRIDES_ALIGNED, STRIDES_ODD_BASE };
  /* the flip path (16-byte rows; 4-byte ones, as GStreamer's) and the
   * exact one (odd, and 8 bytes off) */
  static const int flip_strides[] = {
    STRIDES_PITCHED, STRIDES_ALIGNED, STRIDES_PITCHED_4, STRIDES_PITCHED_8,
    STRIDES_ODD,
  };
  static const int pitched_strides[] = { STRIDES_PITCHED, STRIDES_PITCHED_4 };
  static const int aligned_strides[] = { STRIDES_ALIGNED };
  static const int thin_strides[] = { STRIDES_ALIGNED, STRIDES_ODD_BASE };
  static const int small_strides[] = { STRIDES_SMALL, STRIDES_PITCHED };

  run_group ("small shapes, transpose", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      every_strides, N_ELEMENTS (every_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("small shapes, mirrored mappings", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      two_strides, N_ELEMENTS (two_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("small shapes, flips", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      flip_strides, N_ELEMENTS (flip_strides), flip_mappings,
      N_ELEMENTS (flip_mappings), stream);
  run_group ("wide tile edges, transpose", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      wide_strides, N_ELEMENTS (wide_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("wide tile edges, mirrored mappings", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      pitched_strides, N_ELEMENTS (pitched_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("wide tile edges, flips", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      flip_strides, N_ELEMENTS (flip_strides), flip_mappings,
      N_ELEMENTS (flip_mappings), stream);
  run_group ("large shapes, transpose", big_shapes, N_ELEMENTS (big_shapes),
      all_sizes, N_ELEMENTS (all_sizes), main_strides,
      N_ELEMENTS (main_strides), transpose_only, N_ELEMENTS (transpose_only),
      stream);
  run_group ("large shapes, thin", long_thin_shapes,
      N_ELEMENTS (long_thin_shapes), some_sizes, N_ELEMENTS (some_sizes),
      thin_strides, N_ELEMENTS (thin_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("large shapes, thin, mirrored mappings", long_thin_shapes,
      N_ELEMENTS (long_thin_shapes), byte_size, N_ELEMENTS (byte_size),
      aligned_strides, N_ELEMENTS (aligned_strides), all_but_transpose,
      N_ELEMENTS (all_but_transpose), stream);
  run_group ("large shapes, mirrored mappings", big_shapes,
      N_ELEMENTS (big_shapes), some_sizes, N_ELEMENTS (some_sizes),
      aligned_strides, N_ELEMENTS (aligned_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("large shapes, flips", big_shapes, N_ELEMENTS (big_shapes),
      all_sizes, N_ELEMENTS (all_sizes), flip_strides,
      N_ELEMENTS (flip_strides), flip_mappings, N_ELEMENTS (flip_mappings),
      stream);
  run_group ("streamed planes, bytes", stream_byte_shapes,
      N_ELEMENTS (stream_byte_shapes), byte_size, N_ELEMENTS (byte_size),
      stream_strides, N_ELEMENTS (stream_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("streamed planes", stream_shapes, N_ELEMENTS (stream_shapes),
      stream_sizes, N_ELEMENTS (stream_sizes), stream_strides,
      N_ELEMENTS (stream_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("past the grid limit", grid_shapes, N_ELEMENTS (grid_shapes),
      grid_sizes, N_ELEMENTS (grid_sizes), small_strides,
      N_ELEMENTS (small_strides), ends, N_ELEMENTS (ends), stream);
  run_group ("skinny byte planes", skinny_shapes,
      N_ELEMENTS (skinny_shapes), byte_size, N_ELEMENTS (byte_size),
      stream_strides, N_ELEMENTS (stream_strides), ends, N_ELEMENTS (ends),
      stream);
}
