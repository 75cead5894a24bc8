/* cudatranspose: one RGB pixel of a YUV frame (ct_yuv_to_rgb_cpu), as
 * GStreamer's videoconvert computes it, written once for the host and the
 * device.
 *
 * What videoconvert does (the same in GStreamer 1.22 and 1.26; which
 * siting caps without one mean differs, and GstVideoInfo says it):
 * - I420 and YV12 take its fast path: each pixel takes the chroma sample
 *   of its 2x2 block as it is.
 * - NV12, NV21, P010 and P016 take its general path: the chroma is
 *   upsampled, first along each row, then down the columns, each pass
 *   rounded to the samples' depth (8 or 16 bits). Along a row, chroma
 *   sited between two pixels is weighted 3:1 towards the nearer sample
 *   ((3a + b + 2) >> 2); chroma sited on the left pixel (H_COSITED) is
 *   taken there and averaged between ((a + b + 1) >> 1). Down the columns
 *   the 3:1 weights again, unless the chroma is sited on the top row
 *   (V_COSITED: videoconvert repeats the rows). The first pixel of a row
 *   or column, and the last one where the size is even, keep the sample
 *   of their own block.
 * - 10-bit samples widen to 16 bits by repeating their top bits.
 * - 4:2:2 (Y42B, NV16, I422_10LE) takes the general path's upsampling
 *   along the row alone, each row from its own chroma row; 4:4:4 (Y444,
 *   NV24, Y444_10LE) each pixel's own samples. (Measured against
 *   videoconvert for every siting, matrix and range, odd sizes too.)
 * - The matrix: integer coefficients with 8 fractional bits (ct_yuv_plan
 *   computes them as videoconvert does). 8-bit input goes through its
 *   8-bit kernel, which centres every sample on 128 and drops the offsets
 *   (so limited-range luma 235 gives 253, not 255); 16-bit input through
 *   its 16-bit one, whose result is cut to 8 bits (not rounded) for 8-bit
 *   RGB, and kept whole for a float tensor (ct_yuv_pixel16: what
 *   videoconvert gives 16-bit RGB, ARGB64). */
#pragma once

#include "cudatranspose-kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CT_YUV_FN static __host__ __device__ __forceinline__
#else
#define CT_YUV_FN static inline
#endif
/* (the device pass alone: the host compiler knows no such pragma) */
#ifdef __CUDA_ARCH__
#define CT_YUV_UNROLL _Pragma ("unroll")
#else
#define CT_YUV_UNROLL
#endif
/* A byte of the input frame: on the device through the read-only path,
 * which also tells the compiler no store of the output changes it (so a
 * row's loads may be issued before the row above is stored). */
#ifdef __CUDA_ARCH__
#define CT_YUV_BYTE(at) __ldg (at)
#else
#define CT_YUV_BYTE(at) (*(at))
#endif

/* What a conversion needs beyond the frame, worked out once on the host
 * (ct_yuv_plan, yuv-rgb.c). */
typedef struct
{
  int m[3][4];                  /* R, G, B rows: Y, U, V, constant */
  int m16[3][4];                /* the same into 16-bit RGB (wide only) */
  int wide;                     /* 16-bit samples */
  int filtered;                 /* upsampled (else the block's sample) */
  int h_cosited, v_filtered;
  unsigned int h_shift, v_shift;        /* a chroma sample's pixels, as
                                         * shifts: 1 and 1 for 4:2:0, 1
                                         * and 0 for 4:2:2, 0 and 0 for
                                         * 4:4:4 */
  unsigned int u_plane, v_plane;        /* planes[] index */
  unsigned int u_offset, v_offset;      /* bytes into a chroma pixel */
  unsigned int chroma_pstride;          /* bytes per chroma pixel */
} CtYuvPlan;

#ifdef __cplusplus
extern "C" {
#endif
/* Checks frame @f and works out its plan (yuv-rgb.c, host code). */
CtResult ct_yuv_plan (const CtYuvFrame * f, CtYuvPlan * p);
#ifdef __cplusplus
}
#endif

/* The frame as the per-pixel code reads it: each plane's first sample (U
 * and V at their own byte of a chroma pixel) and its rows, resolved once
 * (ct_yuv_src). No plane is picked by an index at run time: on the GPU an
 * indexed array of the frame's planes would be copied to every thread's
 * local memory. */
typedef struct
{
  const unsigned char *y, *u, *v;
  size_t y_stride, u_stride, v_stride;
  unsigned int width, height;
  unsigned int chroma_pstride;  /* bytes per chroma pixel */
  int p010;
  int low10;                    /* 10-bit samples in the words' low bits */
} CtYuvSrc;

CT_YUV_FN void
ct_yuv_src (const CtYuvFrame * f, const CtYuvPlan * p, CtYuvSrc * s)
{
  s->y = (const unsigned char *) f->planes[0];
  s->u = (const unsigned char *) f->planes[p->u_plane] + p->u_offset;
  s->v = (const unsigned char *) f->planes[p->v_plane] + p->v_offset;
  s->y_stride = f->strides[0];
  s->u_stride = f->strides[p->u_plane];
  s->v_stride = f->strides[p->v_plane];
  s->width = f->width;
  s->height = f->height;
  s->chroma_pstride = p->chroma_pstride;
  s->p010 = f->format == CT_YUV_P010;
  s->low10 = f->format == CT_YUV_I422_10 || f->format == CT_YUV_Y444_10;
}

/* The sample at row @y, pixel @x (of @pstride bytes) of the plane at
 * @base, rows @stride bytes apart, widened to 16 bits where the samples
 * are. */
CT_YUV_FN int
ct_yuv_sample (const CtYuvSrc * s, const CtYuvPlan * p,
    const unsigned char *base, size_t stride, unsigned int x,
    unsigned int y, unsigned int pstride)
{
  const unsigned char *at = base + (size_t) y * stride + (size_t) x * pstride;
  unsigned int v;

  if (!p->wide)
    return CT_YUV_BYTE (at);
  v = (unsigned int) CT_YUV_BYTE (at) |
      ((unsigned int) CT_YUV_BYTE (at + 1) << 8);
  /* P010: 10 bits at the top, widened by repeating them into the low
   * bits (ORed with whatever those held, as videoconvert does) */
  if (s->p010)
    v |= v >> 10;
  /* the 4:2:2 and 4:4:4 10-bit formats: the word moved up by 6 bits (its
   * top 6 dropped, whatever they held), then widened the same way */
  if (s->low10) {
    v = (v << 6) & 0xffffu;
    v |= v >> 10;
  }
  return (int) v;
}

/* Chroma component @c (0: U, 1: V) of chroma row @cy at pixel @x, after
 * the upsampling along the row. */
CT_YUV_FN int
ct_yuv_chroma_row (const CtYuvSrc * s, const CtYuvPlan * p, int c,
    unsigned int cy, unsigned int x)
{
  const unsigned char *base = c ? s->v : s->u;
  const size_t stride = c ? s->v_stride : s->u_stride;
  const unsigned int ps = s->chroma_pstride;
  const unsigned int j = x >> p->h_shift;
  int a, b;

  /* the block's own sample: the fast path, the first pixel, and the last
   * one of an even width */
  if (!p->filtered || x == 0 || ((x & 1) && x + 1 >= s->width))
    return ct_yuv_sample (s, p, base, stride, j, cy, ps);
  if (p->h_cosited) {
    if ((x & 1) == 0)
      return ct_yuv_sample (s, p, base, stride, j, cy, ps);
    a = ct_yuv_sample (s, p, base, stride, j, cy, ps);
    b = ct_yuv_sample (s, p, base, stride, j + 1, cy, ps);
    return (a + b + 1) >> 1;
  }
  if (x & 1) {
    a = ct_yuv_sample (s, p, base, stride, j, cy, ps);
    b = ct_yuv_sample (s, p, base, stride, j + 1, cy, ps);
    return (3 * a + b + 2) >> 2;
  }
  a = ct_yuv_sample (s, p, base, stride, j - 1, cy, ps);
  b = ct_yuv_sample (s, p, base, stride, j, cy, ps);
  return (a + 3 * b + 2) >> 2;
}

/* Chroma component @c at pixel (@x, @y), upsampled down the column too. */
CT_YUV_FN int
ct_yuv_chroma (const CtYuvSrc * s, const CtYuvPlan * p, int c,
    unsigned int x, unsigned int y)
{
  unsigned int r0, r1;

  if (!p->filtered || !p->v_filtered)
    return ct_yuv_chroma_row (s, p, c, y >> p->v_shift, x);
  /* rows in pairs (odd, even): an odd row weighs itself 3 to the next, an
   * even one 3 to the one before; past the edges, the edge row */
  if (y & 1) {
    r0 = y;
    r1 = y + 1 < s->height ? y + 1 : y;
    return (3 * ct_yuv_chroma_row (s, p, c, r0 >> 1, x) +
        ct_yuv_chroma_row (s, p, c, r1 >> 1, x) + 2) >> 2;
  }
  r0 = y > 0 ? y - 1 : 0;
  r1 = y;
  return (ct_yuv_chroma_row (s, p, c, r0 >> 1, x) +
      3 * ct_yuv_chroma_row (s, p, c, r1 >> 1, x) + 2) >> 2;
}

/* videoconvert's 8-bit kernel: a sample centred on 128 and widened to 16
 * bits by repeating its byte, times a coefficient, the top 16 bits kept
 * (rounding down), the sum saturated to a signed byte. */
CT_YUV_FN int
ct_yuv_splat (int v)
{
  return (int16_t) (uint16_t) (((unsigned int) (v ^ 0x80) & 0xffu) * 257u);
}

CT_YUV_FN int
ct_yuv_mul_hi (int s, int coeff)
{
  /* an arithmetic shift: floor, as the kernel's */
  return (int) ((int32_t) (s * (int16_t) coeff) >> 16);
}

CT_YUV_FN unsigned char
ct_yuv_sat8 (int v)
{
  const int s = (int16_t) v;

  return (unsigned char) ((s < -128 ? -128 : s > 127 ? 127 : s) + 128);
}

/* One channel of 16-bit input: row @k of matrix @m, clamped to 16 bits.
 * (A 16-bit sample times a coefficient under 2^10, plus an offset under
 * 2^25: within 32 bits.) */
CT_YUV_FN int
ct_yuv_wide16 (const int m[3][4], int k, int luma, int u, int v)
{
  int t = (m[k][0] * luma + m[k][1] * u + m[k][2] * v + m[k][3]) >> 8;

  return t < 0 ? 0 : t > 65535 ? 65535 : t;
}

/* R, G, B in @rgb of a pixel of samples @luma, @u and @v: 8-bit values
 * (16-bit input: its 16-bit result scaled to 255 x 256, cut); with @whole
 * (16-bit input only) the 16-bit RGB videoconvert gives ARGB64 (scaled to
 * 65535). */
CT_YUV_FN void
ct_yuv_rgb_of (const CtYuvPlan * p, int luma, int u, int v, int whole,
    int rgb[3])
{
  if (!p->wide) {
    const int ys = ct_yuv_mul_hi (ct_yuv_splat (luma), p->m[0][0]);
    const int us = ct_yuv_splat (u), vs = ct_yuv_splat (v);

    rgb[0] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (vs, p->m[0][2]));
    rgb[1] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (us, p->m[1][1]) +
        ct_yuv_mul_hi (vs, p->m[1][2]));
    rgb[2] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (us, p->m[2][1]));
    return;
  }
  CT_YUV_UNROLL
  for (int k = 0; k < 3; k++)
    rgb[k] = whole ? ct_yuv_wide16 (p->m16, k, luma, u, v) :
        ct_yuv_wide16 (p->m, k, luma, u, v) >> 8;
}

/* A 16-bit value @v divided by 257 (so that 65535 gives 255, an 8-bit
 * frame's white) as the division rounds it in single (f) or double (d)
 * precision, without dividing: the product with 1/257 (rounded), then
 * one correction by its remainder, each step a fused multiply-add
 * (Markstein's). For every v in 0..65535 it equals the division
 * (test-arith-cpu checks them all); the product alone would be one off
 * for 254 of them. */
CT_YUV_FN float
ct_yuv_div257f (int v)
{
  const float x = (float) v, inv = 1.0f / 257.0f, q = x * inv;

  return fmaf (fmaf (-q, 257.0f, x), inv, q);
}

CT_YUV_FN double
ct_yuv_div257d (int v)
{
  const double x = (double) v, inv = 1.0 / 257.0, q = x * inv;

  return fma (fma (-q, 257.0, x), inv, q);
}

/* Pixel (@x, @y) as R, G, B in @rgb: 8-bit values, or with @whole (16-bit
 * input) 16-bit ones. */
CT_YUV_FN void
ct_yuv_pixel16 (const CtYuvSrc * s, const CtYuvPlan * p, unsigned int x,
    unsigned int y, int whole, int rgb[3])
{
  const int luma = ct_yuv_sample (s, p, s->y, s->y_stride, x, y,
      p->wide ? 2 : 1);

  ct_yuv_rgb_of (p, luma, ct_yuv_chroma (s, p, 0, x, y),
      ct_yuv_chroma (s, p, 1, x, y), whole, rgb);
}

/* Pixel (@x, @y) as 8-bit R, G, B in @rgb. */
CT_YUV_FN void
ct_yuv_pixel (const CtYuvSrc * s, const CtYuvPlan * p, unsigned int x,
    unsigned int y, unsigned char rgb[3])
{
  int v[3];

  ct_yuv_pixel16 (s, p, x, y, 0, v);
  rgb[0] = (unsigned char) v[0];
  rgb[1] = (unsigned char) v[1];
  rgb[2] = (unsigned char) v[2];
}

/* The four pixels from @x0 (a multiple of 4) upsampled along the row from
 * the chroma samples j0 - 1 to j0 + 2 (j0 = x0 / 2; clamped to the row) in
 * @sm, in @out: what ct_yuv_chroma_row gives each (garbage past the
 * width). */
CT_YUV_FN void
ct_yuv_chroma_filter4 (const CtYuvSrc * s, const CtYuvPlan * p,
    unsigned int x0, const int sm[4], int out[4])
{
  CT_YUV_UNROLL
  for (int i = 0; i < 4; i++) {
    const unsigned int x = x0 + (unsigned int) i;
    const int at = 1 + (i >> 1);        /* pixel x's own sample in sm[] */

    if (!p->filtered || x == 0 || ((x & 1) && x + 1 >= s->width))
      out[i] = sm[at];
    else if (p->h_cosited)
      out[i] = (x & 1) ? (sm[at] + sm[at + 1] + 1) >> 1 : sm[at];
    else if (x & 1)
      out[i] = (3 * sm[at] + sm[at + 1] + 2) >> 2;
    else
      out[i] = (sm[at - 1] + 3 * sm[at] + 2) >> 2;
  }
}

/* Chroma component @c of chroma row @cy at the four pixels from @x0 (a
 * multiple of 4) after the upsampling along the row, in @out, from the
 * four samples they share read once (4:4:4: each pixel's own, those past
 * the width the row's last). */
CT_YUV_FN void
ct_yuv_chroma_row4 (const CtYuvSrc * s, const CtYuvPlan * p, int c,
    unsigned int cy, unsigned int x0, int out[4])
{
  const unsigned char *base = c ? s->v : s->u;
  const size_t stride = c ? s->v_stride : s->u_stride;
  const unsigned int ps = s->chroma_pstride;
  const unsigned int last = (s->width - 1) >> 1, j0 = x0 >> 1;
  int sm[4];

  if (p->h_shift == 0) {
    CT_YUV_UNROLL
    for (int i = 0; i < 4; i++) {
      const unsigned int x = x0 + (unsigned int) i;

      out[i] = ct_yuv_sample (s, p, base, stride, x < s->width ? x :
          s->width - 1, cy, ps);
    }
    return;
  }
  /* samples j0 - 1 to j0 + 2, clamped to the row */
  CT_YUV_UNROLL
  for (int k = 0; k < 4; k++) {
    unsigned int j = j0 + (unsigned int) k;

    j = k == 0 ? (j0 > 0 ? j0 - 1 : 0) : j - 1 > last ? last : j - 1;
    sm[k] = ct_yuv_sample (s, p, base, stride, j, cy, ps);
  }
  ct_yuv_chroma_filter4 (s, p, x0, sm, out);
}
