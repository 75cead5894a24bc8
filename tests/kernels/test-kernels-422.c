/* The kernels' test (test-kernels.c): 4:2:2 planes, packed and planar
 * chroma, resampled as videoflip does, under every mapping against a
 * reference written here, and the planes ct_transpose_422 refuses
 * (4:2:2). */
#include "kernels-check.h"

/* ---- 4:2:2 resampled as videoflip does (ct_transpose_422) ---- */

/* Layouts: YUY2's and UYVY's macropixels, the two chroma byte orders. */
typedef struct
{
  CtLayout422 layout;
  unsigned int y, u, v;
  const char *name;
} Layout422;

static const Layout422 layouts_422[] = {
  {CT_422_PACKED, 0, 1, 3, "YUY2"},
  {CT_422_PACKED, 1, 0, 2, "UYVY"},
  {CT_422_PACKED, 0, 3, 1, "YVYU"},
  {CT_422_CHROMA_16LE, 0, 0, 0, "chroma 16LE"},
  {CT_422_CHROMA_16BE, 0, 0, 0, "chroma 16BE"},
};

/* Component @c (0 Y, 1 U, 2 V) of packed pixel @x in @row. */
static unsigned int
packed_sample (const Layout422 * l, const unsigned char *row, unsigned int x,
    unsigned int c)
{
  const unsigned char *pair = row + (size_t) (x / 2) * 4;

  return c == 0 ? pair[l->y + 2 * (x % 2)] : pair[c == 1 ? l->u : l->v];
}

static unsigned int
sample16 (const unsigned char *at, int be)
{
  return be ? (unsigned int) at[0] << 8 | at[1] :
      (unsigned int) at[1] << 8 | at[0];
}

/* The reference, output pixel by output pixel through ct_ref_source: the
 * luma from its source pixel, a pair's chroma from its first pixel's
 * source macropixel or, where the axes swap, the mean over the pair's two
 * source rows; an odd width's last pair repeats its luma. Planar chroma
 * where the axes swap: the mean of the source samples of output pixels
 * 2x and 2x + 1, in the column videoflip takes (a mirrored one counted
 * from the chroma plane's edge); where they stay, a plane of its own. */
static void
expected_422 (const Layout422 * l, const unsigned char *src,
    size_t src_stride, unsigned int w, unsigned int h, CtMapping mapping,
    unsigned char *want, size_t want_stride)
{
  const int keep = keeps_axes (mapping);
  const unsigned int ow = keep ? w : h, oh = keep ? h : w;
  const unsigned int cw = (w + 1) / 2;
  unsigned int ox, oy, x0, y0, x1, y1, c;

  for (oy = 0; oy < oh; oy++) {
    unsigned char *out = want + (size_t) oy * want_stride;

    for (ox = 0; ox < (ow + 1) / 2 * 2; ox += 2) {
      const int two = ox + 1 < ow;

      if (l->layout == CT_422_PACKED) {
        const unsigned char *r0, *r1;
        unsigned char *pair = out + (size_t) (ox / 2) * 4;

        ct_ref_source (mapping, w, h, ox, oy, &x0, &y0);
        ct_ref_source (mapping, w, h, two ? ox + 1 : ox, oy, &x1, &y1);
        r0 = src + (size_t) y0 * src_stride;
        r1 = src + (size_t) y1 * src_stride;
        pair[l->y] = (unsigned char) packed_sample (l, r0, x0, 0);
        pair[l->y + 2] = (unsigned char) packed_sample (l, r1, x1, 0);
        for (c = 1; c < 3; c++) {
          unsigned int v = packed_sample (l, r0, x0, c);

          if (!keep && two)
            v = (v + packed_sample (l, r1, x1, c)) / 2;
          pair[c == 1 ? l->u : l->v] = (unsigned char) v;
        }
      } else {
        const int be = l->layout == CT_422_CHROMA_16BE;
        unsigned char *at = out + (size_t) (ox / 2) * 2;
        unsigned int v, col;

        if (keep) {
          ct_ref_source (mapping, cw, h, ox / 2, oy, &x0, &y0);
          memcpy (at, src + (size_t) y0 * src_stride + (size_t) x0 * 2, 2);
          continue;
        }
        ct_ref_source (mapping, w, h, ox, oy, &x0, &y0);
        col = (mapping & CT_MAPPING_MIRROR_ROWS) ? cw - 1 - oy / 2 : oy / 2;
        v = sample16 (src + (size_t) y0 * src_stride + (size_t) col * 2, be);
        if (two) {
          ct_ref_source (mapping, w, h, ox + 1, oy, &x1, &y1);
          v = (v + sample16 (src + (size_t) y1 * src_stride +
                  (size_t) col * 2, be)) / 2;
        }
        at[be ? 0 : 1] = (unsigned char) (v >> 8);
        at[be ? 1 : 0] = (unsigned char) (v & 0xff);
      }
    }
  }
}

/* One 4:2:2 plane under @mapping on the GPU, against expected_422, its
 * output poisoned first; rows @pad bytes longer than they need. */
static void
check_422 (const Layout422 * l, unsigned int w, unsigned int h,
    CtMapping mapping, size_t pad, cudaStream_t stream)
{
  const int keep = keeps_axes (mapping);
  const size_t unit = l->layout == CT_422_PACKED ? 4 : 2;
  const unsigned int ow = keep ? w : h, oh = keep ? h : w;
  const size_t ss = (w + 1) / 2 * unit + pad;
  const size_t ds = (ow + 1) / 2 * unit + pad;
  const size_t row = (ow + 1) / 2 * unit;
  unsigned char *src = malloc (ss * h), *got = malloc (ds * oh);
  unsigned char *want = malloc (ds * oh);
  void *d_src = NULL, *d_dst = NULL;
  CtPlane422 p;
  unsigned int y;
  CtResult res;

  if (!src || !got || !want || !CHECK (cudaMalloc (&d_src, ss * h)) ||
      !CHECK (cudaMalloc (&d_dst, ds * oh)))
    goto out;
  fill_random (src, ss * h);
  expected_422 (l, src, ss, w, h, mapping, want, ds);
  if (!CHECK (cudaMemcpy (d_src, src, ss * h, cudaMemcpyHostToDevice)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], ds * oh)))
    goto out;
  p.src = d_src;
  p.src_stride = ss;
  p.dst = d_dst;
  p.dst_stride = ds;
  p.width = w;
  p.height = h;
  p.layout = l->layout;
  p.y_offset = l->y;
  p.u_offset = l->u;
  p.v_offset = l->v;
  res = ct_transpose_422 (&p, 1, mapping, (CtStream) stream);
  if (res != CT_OK || !CHECK (cudaStreamSynchronize (stream)) ||
      !CHECK (cudaMemcpy (got, d_dst, ds * oh, cudaMemcpyDeviceToHost))) {
    printf ("FAIL: 422 %s %ux%u %s: %s\n", l->name, w, h,
        mapping_name (mapping), ct_result_string (res));
    n_failed++;
    goto out;
  }
  for (y = 0; y < oh; y++) {
    if (memcmp (got + y * ds, want + y * ds, row) != 0) {
      size_t i = 0;

      while (got[y * ds + i] == want[y * ds + i])
        i++;
      printf ("FAIL: 422 %s %ux%u %s pad %zu: output row %u byte %zu is "
          "0x%02x, want 0x%02x\n", l->name, w, h, mapping_name (mapping),
          pad, y, i, got[y * ds + i], want[y * ds + i]);
      n_failed++;
      goto out;
    }
  }
  n_passed++;
out:
  cudaFree (d_src);
  cudaFree (d_dst);
  free (src);
  free (got);
  free (want);
}

void
run_422 (cudaStream_t stream)
{
  static const unsigned int shapes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 2}, {33, 17}, {64, 64}, {130, 71},
    {1001, 333}, {1920, 1080},
  };
  static const size_t pads[] = { 0, 3, 64 };
  int passed = n_passed, failed = n_failed;
  size_t l, i, m, k;
  CtPlane422 bad;

  for (l = 0; l < N_ELEMENTS (layouts_422); l++)
    for (i = 0; i < N_ELEMENTS (shapes); i++)
      for (m = 0; m < N_ELEMENTS (every_mapping); m++)
        for (k = 0; k < N_ELEMENTS (pads); k++)
          check_422 (&layouts_422[l], shapes[i][0], shapes[i][1],
              every_mapping[m], pads[k], stream);

  /* refused: a macropixel whose bytes overlap, short rows, no pointers */
  memset (&bad, 0, sizeof (bad));
  bad.src = bad.dst = (void *) &bad;
  bad.width = 4;
  bad.height = 2;
  bad.src_stride = bad.dst_stride = 8;
  bad.layout = CT_422_PACKED;
  bad.y_offset = 0;
  bad.u_offset = 2;
  bad.v_offset = 3;
  expect_result ("422 overlapping offsets", ct_transpose_422 (&bad, 1,
          CT_MAPPING_ROTATE_90R, (CtStream) stream),
      CT_ERROR_INVALID_ARGUMENT);
  bad.u_offset = 1;
  bad.src_stride = 7;
  expect_result ("422 short source rows", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.src_stride = 8;
  bad.dst_stride = 3;
  expect_result ("422 short output rows", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.dst_stride = 8;
  bad.src = NULL;
  expect_result ("422 no source", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.layout = (CtLayout422) 7;
  expect_result ("422 unknown layout", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  CHECK (cudaStreamSynchronize (stream));
  printf ("4:2:2: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}
