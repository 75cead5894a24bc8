/* The kernels' test (test-kernels.c): every path of the planner forced
 * and asserted to run, and refused where it cannot take the plane
 * (paths); refused and empty calls, with nothing written (argument
 * checks); and every result, variant and path named (names). */
#include "kernels-check.h"

/* Sizes, as bits 1 << size. */
#define SZ(e) (1u << (e))
#define SZ_ALL (SZ (1) | SZ (2) | SZ (3) | SZ (4) | SZ (8))
#define SZ_NOT3 (SZ_ALL & ~SZ (3))

/* A path forced on a plane it cannot take: refused with
 * CT_ERROR_UNSUPPORTED_KERNEL, nothing written. */
static void
expect_refused (CtPath path, unsigned int w, unsigned int h,
    unsigned int es, size_t shift, CtMapping mapping, cudaStream_t stream)
{
  const size_t src_stride = (size_t) w * es + shift;
  const size_t dst_stride = (size_t) h * es + shift;
  const size_t size = (w > h ? w : h) * (size_t) (w > h ? w : h) * es +
      64 * shift + 64;
  unsigned char *got = malloc (size);
  void *d_src = NULL, *d_dst = NULL;
  CtPlaneBatch b;
  CtResult res;
  size_t i;

  if (got == NULL || !CHECK (cudaMalloc (&d_src, size)) ||
      !CHECK (cudaMalloc (&d_dst, size)) ||
      !CHECK (cudaMemset (d_src, 0x33, size)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], size)))
    goto out;
  b.plane.src = (unsigned char *) d_src + shift;
  b.plane.dst = (unsigned char *) d_dst + shift;
  b.plane.src_stride = src_stride;
  b.plane.dst_stride = dst_stride;
  b.plane.width = w;
  b.plane.height = h;
  b.plane.elem_size = es;
  b.count = 1;
  b.src_step = b.dst_step = 0;
  res = ct_transpose_batches_ex (&b, 1, CT_KERNEL_AUTO, path, mapping,
      (CtStream) stream, NULL);
  if (!CHECK (cudaStreamSynchronize (stream)) ||
      !CHECK (cudaMemcpy (got, d_dst, size, cudaMemcpyDeviceToHost)))
    goto out;
  for (i = 0; i < size && got[i] == poisons[0]; i++);
  if (res == CT_ERROR_UNSUPPORTED_KERNEL && i == size) {
    n_passed++;
  } else {
    printf ("FAIL: path %s forced on %ux%u %u-byte (shift %zu, mapping "
        "%s): returned %d (%s), %s\n", ct_path_name (path), w, h, es, shift,
        mapping_name (mapping), res, ct_result_string (res), i == size ?
        "nothing written" : "output written");
    n_failed++;
  }
out:
  if (d_src != NULL)
    CHECK (cudaFree (d_src));
  if (d_dst != NULL)
    CHECK (cudaFree (d_dst));
  free (got);
}

/* Every path of the planner forced on planes it takes, checked against
 * the reference and asserted to be the path that ran, so that each runs
 * on any GPU whatever auto would pick on it; then forced on planes it
 * cannot take. (Every other group asserts that the named variants ran
 * their own path.) */
void
run_paths (cudaStream_t stream)
{
  static const struct
  {
    CtPath path;
    unsigned int w, h, sizes;
    int strides;
    /* the mappings: 0 the transpose, 1 the four that swap the axes, 2 the
     * four that keep them */
    int mappings;
  } cases[] = {
    {CT_PATH_WIDE, 257, 255, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_PADDED, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_PADDED, 1000, 1500, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_SWIZZLE, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_SWIZZLE, 1000, 1500, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_RGB_TILE, 257, 255, SZ (3), STRIDES_PITCHED, 1},
    {CT_PATH_RGB_TILE, 1000, 1500, SZ (3), STRIDES_PITCHED, 1},
    {CT_PATH_SMALL_TILE, 257, 255, SZ_ALL, STRIDES_PITCHED_4, 1},
    {CT_PATH_SMALL_TILE, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_STREAM, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_STREAM, 3001, 1499, SZ_NOT3, STRIDES_PITCHED, 1},
    /* ragged bytes of 16 x 14 big tiles: a block streams several */
    {CT_PATH_STREAM, 4001, 3499, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_64, 257, 255, SZ (4), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_64, 3001, 1499, SZ (4), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 257, 255, SZ (1), STRIDES_PITCHED_8, 1},
    {CT_PATH_TILE_128, 1000, 1500, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 3001, 1499, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 16, 16, SZ (1), STRIDES_PITCHED, 1},
    /* forced only: ragged edges both ways, and the 4K luma plane it is a
     * candidate for, with one ragged row and column */
    {CT_PATH_TILE_128_LINES, 257, 255, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128_LINES, 3001, 1499, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128_LINES, 16, 16, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128_LINES, 3840, 2160, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128_LINES, 3839, 2161, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 5000, 64, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 3001, 40, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 64, 5000, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 33, 2001, SZ (1), STRIDES_PITCHED, 1},
    /* packed rows of 4-byte elements: every row start off 16 bytes in
     * turn; pointers off 16 bytes on aligned strides; heights around
     * the 128-row tile and the 4 rows staged below it */
    {CT_PATH_STREAM_WORDS, 257, 255, SZ (4), STRIDES_TIGHT, 1},
    {CT_PATH_STREAM_WORDS, 3001, 1499, SZ (4), STRIDES_TIGHT, 1},
    {CT_PATH_STREAM_WORDS, 65, 131, SZ (4), STRIDES_TIGHT, 1},
    {CT_PATH_STREAM_WORDS, 131, 129, SZ (4), STRIDES_TIGHT, 1},
    {CT_PATH_STREAM_WORDS, 16, 16, SZ (4), STRIDES_TIGHT, 1},
    {CT_PATH_STREAM_WORDS, 1000, 1500, SZ (4), STRIDES_DST_BASE, 1},
    {CT_PATH_STREAM_WORDS, 257, 260, SZ (4), STRIDES_PITCHED_8, 1},
    {CT_PATH_STREAM_WORDS, 257, 255, SZ (4), STRIDES_ALIGNED, 1},
    {CT_PATH_THIN, 5, 700, SZ_ALL, STRIDES_TIGHT, 1},
    {CT_PATH_THIN, 700, 9, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_EXACT, 257, 255, SZ_ALL, STRIDES_ODD, 1},
    {CT_PATH_EXACT, 1000, 1500, SZ_ALL, STRIDES_ALIGNED, 0},
    {CT_PATH_EXACT, 33, 65, SZ_ALL, STRIDES_ALIGNED, 1},
    /* the mappings that keep the axes: flip where aligned, flip-exact on
     * any plane */
    {CT_PATH_FLIP, 257, 255, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_FLIP, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_FLIP, 5, 700, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_FLIP_EXACT, 257, 255, SZ_ALL, STRIDES_ODD, 2},
    {CT_PATH_FLIP_EXACT, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 2},
  };
  int passed = n_passed, failed = n_failed;
  unsigned int i, j;

  if (!wanted ("paths"))
    return;
  for (i = 0; i < N_ELEMENTS (cases); i++) {
    const Strides *st = &strides_table[cases[i].strides];

    for (j = 0; j < N_ELEMENTS (all_sizes); j++) {
      Frame f;

      if ((cases[i].sizes & SZ (all_sizes[j])) == 0)
        continue;
      memset (&f, 0, sizeof (f));
      f.n_planes = 1;
      f.spec[0].width = cases[i].w;
      f.spec[0].height = cases[i].h;
      f.spec[0].elem_size = all_sizes[j];
      f.spec[0].src_pad = st->src_pad;
      f.spec[0].dst_pad = st->dst_pad;
      f.spec[0].src_shift = st->src_shift;
      f.spec[0].dst_shift = st->dst_shift;
      f.spec[0].row_align = st->row_align;
      snprintf (f.name, sizeof (f.name), "path %s forced, %ux%u %u-byte, "
          "%s strides", ct_path_name (cases[i].path), cases[i].w,
          cases[i].h, all_sizes[j], st->name);
      forced_path = cases[i].path;
      if (cases[i].mappings == 1)
        run_frame (&f, all_mappings, N_ELEMENTS (all_mappings), stream);
      else if (cases[i].mappings == 2)
        run_frame (&f, flip_mappings, N_ELEMENTS (flip_mappings), stream);
      else
        run_frame (&f, transpose_only, N_ELEMENTS (transpose_only), stream);
      forced_path = CT_PATH_NONE;
    }
  }

  /* the lines tile over the byte planes of a frame, in one launch: a 4K
   * I420 frame, and ragged planes of three sizes */
  {
    static const unsigned int frames[][3][2] = {
      {{3840, 2160}, {1920, 1080}, {1920, 1080}},
      {{3001, 1499}, {1501, 750}, {129, 4001}},
    };
    const Strides *st = &strides_table[STRIDES_PITCHED];

    for (i = 0; i < N_ELEMENTS (frames); i++) {
      Frame f;

      memset (&f, 0, sizeof (f));
      f.n_planes = 3;
      for (j = 0; j < 3; j++) {
        f.spec[j].width = frames[i][j][0];
        f.spec[j].height = frames[i][j][1];
        f.spec[j].elem_size = 1;
        f.spec[j].src_pad = st->src_pad;
        f.spec[j].dst_pad = st->dst_pad;
        f.spec[j].src_shift = st->src_shift;
        f.spec[j].dst_shift = st->dst_shift;
        f.spec[j].row_align = st->row_align;
      }
      snprintf (f.name, sizeof (f.name), "path tile-128-lines forced, "
          "frame of %ux%u, %ux%u, %ux%u bytes", frames[i][0][0],
          frames[i][0][1], frames[i][1][0], frames[i][1][1],
          frames[i][2][0], frames[i][2][1]);
      forced_path = CT_PATH_TILE_128_LINES;
      run_frame (&f, all_mappings, N_ELEMENTS (all_mappings), stream);
      forced_path = CT_PATH_NONE;
    }
  }

  /* the sizes, shapes, alignments and mappings each path refuses */
  expect_refused (CT_PATH_STREAM, 1000, 1500, 3, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_64, 1000, 1500, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_128, 1000, 1500, 2, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_128, 1000, 1500, 1, 4, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_128_LINES, 1000, 1500, 2, 0,
      CT_MAPPING_TRANSPOSE, stream);
  /* (cp.async moves whole 16-byte chunks: 8-aligned is refused) */
  expect_refused (CT_PATH_TILE_128_LINES, 1000, 1500, 1, 8,
      CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_SKINNY, 1000, 1500, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_SKINNY, 5000, 64, 2, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_STREAM_WORDS, 257, 255, 2, 0,
      CT_MAPPING_TRANSPOSE, stream);
  /* (it copies whole 4-byte elements) */
  expect_refused (CT_PATH_STREAM_WORDS, 257, 255, 4, 2,
      CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_STREAM_WORDS, 5, 700, 4, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_THIN, 257, 255, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_THIN, 5, 700, 4, 1, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_WIDE_SWIZZLE, 257, 255, 3, 0,
      CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_RGB_TILE, 257, 255, 4, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_WIDE, 257, 255, 4, 4, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_WIDE, 5, 700, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_SMALL_TILE, 257, 255, 1, 1, CT_MAPPING_ROTATE_90R,
      stream);
  expect_refused (CT_PATH_NAIVE, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_FLIP, 257, 255, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_FLIP, 64, 64, 4, 0, CT_MAPPING_ROTATE_90R, stream);
  /* each exact path is its own direction's: the tile where the axes swap,
   * flip-exact where they stay */
  expect_refused (CT_PATH_FLIP_EXACT, 64, 64, 1, 1, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_EXACT, 64, 64, 1, 1, CT_MAPPING_FLIP_HORIZONTAL,
      stream);
  expect_refused (CT_PATH_COPY, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_COUNT, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  printf ("paths: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* Refused and empty calls: the right code, and nothing written. */
void
test_arguments (cudaStream_t stream)
{
  enum
  { W = 16, H = 8, ES = 4 };
  const size_t src_bytes = 2 * W * H * ES, dst_bytes = 2 * H * W * ES;
  unsigned char host[2 * W * H * ES];
  void *d_src = NULL, *d_dst = NULL;
  CtPlane good, p, two[2];
  size_t i;
  int passed = n_passed, failed = n_failed;

  if (!CHECK (cudaMalloc (&d_src, src_bytes)) ||
      !CHECK (cudaMalloc (&d_dst, dst_bytes)))
    goto out;
  fill_random (host, src_bytes);
  if (!CHECK (cudaMemcpy (d_src, host, src_bytes, cudaMemcpyHostToDevice)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], dst_bytes)))
    goto out;

  good.src = d_src;
  good.src_stride = W * ES;
  good.dst = d_dst;
  good.dst_stride = H * ES;
  good.width = W;
  good.height = H;
  good.elem_size = ES;

  expect_result ("NULL plane list",
      ct_transpose_planes (NULL, 1, CT_KERNEL_NAIVE, CT_MAPPING_TRANSPOSE,
          stream), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("empty plane list",
      ct_transpose_planes (NULL, 0, CT_KERNEL_NAIVE, CT_MAPPING_TRANSPOSE,
          stream), CT_OK);

  p = good;
  p.src = NULL;
  expect_result ("NULL source", ct_transpose_planes (&p, 1, CT_KERNEL_TILED,
          CT_MAPPING_TRANSPOSE, stream), CT_ERROR_INVALID_ARGUMENT);
  p = good;
  p.dst = NULL;
  expect_result ("NULL destination", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_INVALID_ARGUMENT);

  p = good;
  p.elem_size = 5;
  expect_result ("element size 5", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  p.elem_size = 0;
  expect_result ("element size 0", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  p.elem_size = 16;
  expect_result ("element size 16", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);

  p = good;
  p.src_stride = W * ES - 1;
  expect_result ("source stride short of a row", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_INVALID_ARGUMENT);
  p = good;
  p.dst_stride = H * ES - 1;
  expect_result ("destination stride short of a row",
      ct_transpose_planes (&p, 1, CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE,
          stream), CT_ERROR_INVALID_ARGUMENT);

  expect_result ("kernel cpu", ct_transpose_planes (&good, 1, CT_KERNEL_CPU,
          CT_MAPPING_TRANSPOSE, stream), CT_ERROR_UNSUPPORTED_KERNEL);
  expect_result ("kernel count", ct_transpose_planes (&good, 1,
          CT_KERNEL_COUNT, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_KERNEL);
  expect_result ("mapping 8", ct_transpose_planes (&good, 1, CT_KERNEL_TILED,
          (CtMapping) 8, stream), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("mapping -1", ct_transpose_planes (&good, 1,
          CT_KERNEL_AUTO, (CtMapping) - 1, stream), CT_ERROR_INVALID_ARGUMENT);
  /* the mappings that keep the axes want output rows of the source's
   * width (good's destination rows are H elements, shorter); a path other
   * than flip or exact forced on them is refused */
  for (i = CT_MAPPING_IDENTITY; i <= CT_MAPPING_ROTATE_180; i++) {
    CtPlaneBatch b = { good, 1, 0, 0 };
    CtPath ran = CT_PATH_THIN;

    expect_result ("a flip into rows too short",
        ct_transpose_planes (&good, 1, CT_KERNEL_TILED, (CtMapping) i,
            stream), CT_ERROR_INVALID_ARGUMENT);
    b.plane.dst_stride = W * ES;
    expect_result ("a flip forced onto the wide path",
        ct_transpose_batches_ex (&b, 1, CT_KERNEL_AUTO, CT_PATH_WIDE,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
    expect_result ("a flip forced onto a seed's path",
        ct_transpose_batches_ex (&b, 1, CT_KERNEL_NAIVE, CT_PATH_NAIVE,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
    expect_result ("a flip from a misaligned plane forced onto flip",
        ct_transpose_batches_ex (&(CtPlaneBatch) { {
                (const unsigned char *) d_src + 4, W * ES, d_dst, W * ES, W,
                H / 2, ES}, 1, 0, 0}, 1, CT_KERNEL_AUTO, CT_PATH_FLIP,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
  }

  /* a bad second plane is found before the good first one is launched */
  two[0] = good;
  two[1] = good;
  two[1].dst = (unsigned char *) d_dst + W * H * ES;
  two[1].elem_size = 5;
  expect_result ("bad second plane", ct_transpose_planes (two, 2,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);

  /* empty planes with real pointers: nothing to do, nothing written */
  p = good;
  p.width = 0;
  expect_result ("width 0", ct_transpose_planes (&p, 1, CT_KERNEL_TILED,
          CT_MAPPING_TRANSPOSE, stream), CT_OK);
  p = good;
  p.height = 0;
  expect_result ("height 0", ct_transpose_planes (&p, 1, CT_KERNEL_NAIVE,
          CT_MAPPING_ROTATE_90R, stream), CT_OK);

  /* nothing above may have launched anything */
  if (CHECK (cudaGetLastError ()) && CHECK (cudaStreamSynchronize (stream)) &&
      CHECK (cudaMemcpy (host, d_dst, dst_bytes, cudaMemcpyDeviceToHost))) {
    i = 0;
    while (i < dst_bytes && host[i] == poisons[0])
      i++;
    if (i == dst_bytes) {
      n_passed++;
    } else {
      printf ("FAIL: refused or empty calls wrote byte %zu of the "
          "destination: 0x%02x\n", i, host[i]);
      n_failed++;
    }
  }

out:
  if (d_src != NULL)
    CHECK (cudaFree (d_src));
  if (d_dst != NULL)
    CHECK (cudaFree (d_dst));
  printf ("argument checks: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

void
test_names (void)
{
  static const CtResult results[] = {
    CT_OK, CT_ERROR_INVALID_ARGUMENT, CT_ERROR_UNSUPPORTED_ELEMENT_SIZE,
    CT_ERROR_UNSUPPORTED_KERNEL, CT_ERROR_NO_DRIVER,
    (CtResult) cudaErrorInvalidValue, -100,
  };
  char what[64];
  unsigned int i;

  for (i = 0; i < N_ELEMENTS (results); i++) {
    snprintf (what, sizeof (what), "ct_result_string (%d)", results[i]);
    expect_string (what, ct_result_string (results[i]));
  }
  for (i = 0; i < CT_KERNEL_COUNT; i++) {
    snprintf (what, sizeof (what), "ct_kernel_name (%u)", i);
    expect_string (what, ct_kernel_name ((CtKernel) i));
  }
  for (i = 0; i <= CT_PATH_COUNT; i++) {
    snprintf (what, sizeof (what), "ct_path_name (%u)", i);
    expect_string (what, ct_path_name ((CtPath) i));
  }
  /* a named variant is the path of its name */
  for (i = 0; i < CT_KERNEL_COUNT; i++) {
    unsigned int k;

    if (i == CT_KERNEL_AUTO)
      continue;
    for (k = 0; k < CT_PATH_COUNT; k++)
      if (strcmp (ct_path_name ((CtPath) k), ct_kernel_name (i)) == 0)
        break;
    if (k < CT_PATH_COUNT) {
      n_passed++;
    } else {
      printf ("FAIL: variant %s is no path\n", ct_kernel_name (i));
      n_failed++;
    }
  }
}
