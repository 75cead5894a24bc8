/* cudatranspose: YUV video to RGB on the host (cudatranspose-kernels.h):
 * the conversion's plan, videoconvert's coefficients worked out as it
 * works them out, and the CPU loop over yuv-rgb-unit.h. */
#include "cudatranspose-kernels.h"
#include "yuv-rgb-unit.h"

#include <math.h>
#include <string.h>

/* Kr and Kb of each matrix, GStreamer's values (video-color.c). */
static const double kr_kb[CT_YUV_MATRIX_COUNT][2] = {
  {0.2990, 0.1140},             /* BT.601 */
  {0.2126, 0.0722},             /* BT.709 */
  {0.2627, 0.0593},             /* BT.2020 */
};

typedef double Matrix[4][4];

static void
identity (Matrix m)
{
  int i, j;

  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++)
      m[i][j] = i == j;
}

/* @m = @a x @m */
static void
apply (Matrix m, Matrix a)
{
  Matrix t;
  int i, j, k;

  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++) {
      double x = 0;

      for (k = 0; k < 4; k++)
        x += a[i][k] * m[k][j];
      t[i][j] = x;
    }
  memcpy (m, t, sizeof (t));
}

static void
offset (Matrix m, double a, double b, double c)
{
  Matrix o;

  identity (o);
  o[0][3] = a;
  o[1][3] = b;
  o[2][3] = c;
  apply (m, o);
}

static void
scale (Matrix m, double a, double b, double c)
{
  Matrix s;

  identity (s);
  s[0][0] = a;
  s[1][1] = b;
  s[2][2] = c;
  apply (m, s);
}

/* videoconvert's integer matrix for @matrix and @flags at sample depth
 * @depth (8 or 16) into RGB: the input's offsets taken off and its range
 * scaled to 1 (by the float reciprocal of the range, as videoconvert
 * does), YCbCr to RGB, times the output's range @top (255 for 8-bit RGB,
 * which 16-bit samples reach as 255 x 256; 65535 for 16-bit RGB), then 8
 * fractional bits, each rounded to the nearest. */
static void
coefficients (CtYuvMatrix matrix, unsigned int flags, int depth, double top,
    int out[3][4])
{
  const double kr = kr_kb[matrix][0], kb = kr_kb[matrix][1];
  const double kg = 1.0 - kr - kb;
  const int full = (flags & CT_YUV_FULL_RANGE) != 0;
  const int off_y = full ? 0 : 1 << (depth - 4), off_c = 1 << (depth - 1);
  const int sc_y = full ? (1 << depth) - 1 : 219 << (depth - 8);
  const int sc_c = full ? (1 << depth) - 1 : 224 << (depth - 8);
  Matrix m, ycc = {
    {1.0, 0.0, 2 * (1 - kr), 0.0},
    {1.0, -2 * kb * (1 - kb) / kg, -2 * kr * (1 - kr) / kg, 0.0},
    {1.0, 2 * (1 - kb), 0.0, 0.0},
    {0.0, 0.0, 0.0, 1.0},
  };
  int i, j;

  identity (m);
  offset (m, -off_y, -off_c, -off_c);
  scale (m, 1 / (float) sc_y, 1 / (float) sc_c, 1 / (float) sc_c);
  apply (m, ycc);
  scale (m, top, top, top);
  scale (m, 256.0, 256.0, 256.0);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 4; j++)
      out[i][j] = (int) rint (m[i][j]);
}

CtResult
ct_yuv_plan (const CtYuvFrame * f, CtYuvPlan * p)
{
  unsigned int k, n;

  if (f == NULL || (unsigned int) f->format >= CT_YUV_FORMAT_COUNT ||
      (unsigned int) f->matrix >= CT_YUV_MATRIX_COUNT ||
      (f->flags & ~(unsigned int) (CT_YUV_FULL_RANGE |
              CT_YUV_CHROMA_H_COSITED | CT_YUV_CHROMA_V_COSITED)) != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  memset (p, 0, sizeof (*p));
  p->wide = f->format == CT_YUV_P010 || f->format == CT_YUV_P016 ||
      f->format == CT_YUV_I422_10 || f->format == CT_YUV_Y444_10;
  /* 4:2:0, 4:2:2, 4:4:4 */
  p->h_shift = f->format < CT_YUV_Y444 ? 1 : 0;
  p->v_shift = f->format < CT_YUV_Y42B ? 1 : 0;
  /* (4:4:4 has each pixel's own samples; 4:2:2 is upsampled along its
   * rows alone) */
  p->filtered = f->format != CT_YUV_I420 && f->format != CT_YUV_YV12 &&
      p->h_shift == 1;
  p->h_cosited = (f->flags & CT_YUV_CHROMA_H_COSITED) != 0;
  p->v_filtered = (f->flags & CT_YUV_CHROMA_V_COSITED) == 0 &&
      p->v_shift == 1;
  switch (f->format) {
    case CT_YUV_I420:
    case CT_YUV_YV12:
    case CT_YUV_Y42B:
    case CT_YUV_Y444:
    case CT_YUV_I422_10:
    case CT_YUV_Y444_10:
      p->u_plane = f->format == CT_YUV_YV12 ? 2 : 1;
      p->v_plane = f->format == CT_YUV_YV12 ? 1 : 2;
      p->chroma_pstride = p->wide ? 2 : 1;
      n = 3;
      break;
    case CT_YUV_NV12:
    case CT_YUV_NV21:
    case CT_YUV_NV16:
    case CT_YUV_NV24:
      p->u_plane = p->v_plane = 1;
      p->u_offset = f->format == CT_YUV_NV21 ? 1 : 0;
      p->v_offset = 1 - p->u_offset;
      p->chroma_pstride = 2;
      n = 2;
      break;
    default:
      p->u_plane = p->v_plane = 1;
      p->v_offset = 2;
      p->chroma_pstride = 4;
      n = 2;
      break;
  }
  for (k = 0; k < n; k++) {
    const unsigned int w = k ? (f->width + (1u << p->h_shift) - 1) >>
        p->h_shift : f->width;

    if (f->width > 0 && f->height > 0 && (f->planes[k] == NULL ||
            f->strides[k] < (size_t) w * (k ? p->chroma_pstride :
                p->wide ? 2 : 1)))
      return CT_ERROR_INVALID_ARGUMENT;
  }
  coefficients (f->matrix, f->flags, p->wide ? 16 : 8,
      p->wide ? 255.0 * 256.0 : 255.0, p->m);
  if (p->wide)
    coefficients (f->matrix, f->flags, 16, 65535.0, p->m16);
  return CT_OK;
}

CtResult
ct_yuv_to_rgb_cpu (const CtYuvFrame * f, void *dst, size_t dst_stride,
    int bgr)
{
  CtYuvPlan p;
  CtYuvSrc src;
  CtResult res = ct_yuv_plan (f, &p);
  unsigned int x, y;

  if (res != CT_OK)
    return res;
  if (f->width > 0 && f->height > 0 && (dst == NULL ||
          dst_stride < (size_t) f->width * 3))
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &p, &src);
  for (y = 0; y < f->height; y++) {
    unsigned char *row = (unsigned char *) dst + (size_t) y * dst_stride;

    for (x = 0; x < f->width; x++) {
      unsigned char rgb[3];

      ct_yuv_pixel (&src, &p, x, y, rgb);
      row[3 * x] = rgb[bgr ? 2 : 0];
      row[3 * x + 1] = rgb[1];
      row[3 * x + 2] = rgb[bgr ? 0 : 2];
    }
  }
  return CT_OK;
}
