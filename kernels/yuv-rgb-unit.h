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
 * - The matrix: integer coefficients with 8 fractional bits (ct_yuv_plan
 *   computes them as videoconvert does). 8-bit input goes through its
 *   8-bit kernel, which centres every sample on 128 and drops the offsets
 *   (so limited-range luma 235 gives 253, not 255); 16-bit input through
 *   its 16-bit one, whose result is cut to 8 bits (not rounded). */
#pragma once

#include "cudatranspose-kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CT_YUV_FN static __host__ __device__ __forceinline__
#else
#define CT_YUV_FN static inline
#endif

/* What a conversion needs beyond the frame, worked out once on the host
 * (ct_yuv_plan, yuv-rgb.c). */
typedef struct
{
  int m[3][4];                  /* R, G, B rows: Y, U, V, constant */
  int wide;                     /* 16-bit samples */
  int filtered;                 /* upsampled (else the block's sample) */
  int h_cosited, v_filtered;
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
    return at[0];
  v = (unsigned int) at[0] | ((unsigned int) at[1] << 8);
  /* P010: 10 bits at the top, widened by repeating them into the low
   * bits (ORed with whatever those held, as videoconvert does) */
  if (s->p010)
    v |= v >> 10;
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
  const unsigned int j = x >> 1;
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
    return ct_yuv_chroma_row (s, p, c, y >> 1, x);
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

/* One channel of 16-bit input: matrix row @k, cut to 8 bits. (A 16-bit
 * sample times a coefficient under 2^10, plus an offset under 2^25:
 * within 32 bits.) */
CT_YUV_FN unsigned char
ct_yuv_wide (const CtYuvPlan * p, int k, int luma, int u, int v)
{
  int t = (p->m[k][0] * luma + p->m[k][1] * u + p->m[k][2] * v +
      p->m[k][3]) >> 8;

  t = t < 0 ? 0 : t > 65535 ? 65535 : t;
  return (unsigned char) (t >> 8);
}

/* Pixel (@x, @y) as R, G, B in @rgb. */
CT_YUV_FN void
ct_yuv_pixel (const CtYuvSrc * s, const CtYuvPlan * p, unsigned int x,
    unsigned int y, unsigned char rgb[3])
{
  const int luma = ct_yuv_sample (s, p, s->y, s->y_stride, x, y,
      p->wide ? 2 : 1);
  const int u = ct_yuv_chroma (s, p, 0, x, y);
  const int v = ct_yuv_chroma (s, p, 1, x, y);

  if (!p->wide) {
    const int ys = ct_yuv_mul_hi (ct_yuv_splat (luma), p->m[0][0]);
    const int us = ct_yuv_splat (u), vs = ct_yuv_splat (v);

    rgb[0] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (vs, p->m[0][2]));
    rgb[1] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (us, p->m[1][1]) +
        ct_yuv_mul_hi (vs, p->m[1][2]));
    rgb[2] = ct_yuv_sat8 (ys + ct_yuv_mul_hi (us, p->m[2][1]));
    return;
  }
  rgb[0] = ct_yuv_wide (p, 0, luma, u, v);
  rgb[1] = ct_yuv_wide (p, 1, luma, u, v);
  rgb[2] = ct_yuv_wide (p, 2, luma, u, v);
}
